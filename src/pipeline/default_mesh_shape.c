/* default_mesh_shape.c - the default character's body as surfaces: tapered
 * capsules and ellipsoids around the bones of the 96-joint skeleton (torso,
 * neck, head, arms, palms, fingers, legs, feet) with normals, tangents and a
 * uv atlas, each part with the bones its vertices are weighted to. */
#include "default_mesher.h"

#include <math.h>
#include <stdio.h>

#define PI 3.14159265358979323846
#define MAX_STATIONS 48
#define CAP_RINGS 3
#define ATLAS 6                 /* the uv atlas is ATLAS x ATLAS tiles, one per part */
/* Weights are measured at the point this fraction of the way from the
 * centreline out to the vertex: bones across the body (a clavicle over the
 * chest) reach the whole ring, not just the near side. */
#define INNER 0.3

/* A control point of a part's centreline: position and the two radii of its
 * elliptical cross-section. */
typedef struct ctrl {
    v3 p;
    double ra, rb;
} ctrl;

/* One ring of vertices: centre, axis, radii, and for cap rings how far the
 * ring has turned toward the pole (cos_phi 1 on the body, 0 at the pole;
 * tilt = +-sin phi, the normal's lean along the axis). */
typedef struct station {
    v3 c, axis;
    double ra, rb, cos_phi, tilt;
} station;

/* The rest position of joint `name` + `side`, or the origin. */
static v3 at(const mesher *m, const char *name, const char *side)
{
    const int j = joint_of(m, name, side);
    return j >= 0 ? m->joint[j] : v(0, 0, 0);
}

/* Point and radii at arc length s along the control polyline. */
static ctrl along(const ctrl *c, int n, const double *length, double s)
{
    int i = 0;
    while (i + 2 < n && length[i + 1] < s)
        ++i;
    const double span = length[i + 1] - length[i];
    const double t = span > 0.0 ? (s - length[i]) / span : 0.0;
    return (ctrl){add(c[i].p, scale(sub(c[i + 1].p, c[i].p), t)),
                  c[i].ra + (c[i + 1].ra - c[i].ra) * t, c[i].rb + (c[i + 1].rb - c[i].rb) * t};
}

/* A capsule along the control polyline: `rings` rings on the body, closed by
 * elliptical caps reaching cap0 / cap1 beyond the ends. `ref` picks the
 * cross-section's first axis (it must not be parallel to the centreline). */
static void capsule(mesher *m, const part *pt, const ctrl *c, int n, int rings, int sides, v3 ref,
                    double cap0, double cap1)
{
    double length[16];
    length[0] = 0.0;
    for (int i = 1; i < n; ++i)
        length[i] = length[i - 1] + sqrt(dot(sub(c[i].p, c[i - 1].p), sub(c[i].p, c[i - 1].p)));
    const double total = length[n - 1];
    station st[MAX_STATIONS];
    int count = 0;
    const v3 axis0 = unit(sub(c[1].p, c[0].p)), axis1 = unit(sub(c[n - 1].p, c[n - 2].p));
    for (int k = CAP_RINGS; k >= 1; --k) {
        const double phi = 0.5 * PI * k / CAP_RINGS;
        st[count++] = (station){sub(c[0].p, scale(axis0, cap0 * sin(phi))), axis0, c[0].ra,
                                c[0].rb, k == CAP_RINGS ? 0.0 : cos(phi), -sin(phi)};
    }
    for (int r = 0; r < rings; ++r) {
        const double s = total * r / (rings - 1), h = 0.02 * total;
        const ctrl here = along(c, n, length, s);
        const ctrl ahead = along(c, n, length, s + h > total ? total : s + h);
        const ctrl behind = along(c, n, length, s - h < 0.0 ? 0.0 : s - h);
        st[count++] = (station){here.p, unit(sub(ahead.p, behind.p)), here.ra, here.rb, 1.0, 0.0};
    }
    for (int k = 1; k <= CAP_RINGS; ++k) {
        const double phi = 0.5 * PI * k / CAP_RINGS;
        st[count++] = (station){add(c[n - 1].p, scale(axis1, cap1 * sin(phi))), axis1,
                                c[n - 1].ra, c[n - 1].rb, k == CAP_RINGS ? 0.0 : cos(phi),
                                sin(phi)};
    }
    const int columns = sides + 1; /* the seam column is duplicated for the uvs */
    if (m->vertices + count * columns > MAX_VERTICES ||
        m->index_count / 3 + 2 * (count - 1) * sides > MAX_TRIANGLES) {
        m->overflow = 1;
        return;
    }
    const int base = m->vertices;
    const double u0 = (double)(m->tile % ATLAS) / ATLAS, v0 = (double)(m->tile / ATLAS) / ATLAS;
    m->tile++;
    for (int s = 0; s < count; ++s) {
        const station *t = &st[s];
        const v3 u = unit(sub(ref, scale(t->axis, dot(ref, t->axis))));
        const v3 w = cross(t->axis, u);
        for (int j = 0; j < columns; ++j) {
            const double theta = 2.0 * PI * j / sides, ct = cos(theta), sn = sin(theta);
            const v3 radial = add(scale(u, ct * t->ra), scale(w, sn * t->rb));
            const v3 p = add(t->c, scale(radial, t->cos_phi));
            const v3 ring_normal = unit(add(scale(u, ct / t->ra), scale(w, sn / t->rb)));
            const v3 normal = unit(add(scale(ring_normal, t->cos_phi), scale(t->axis, t->tilt)));
            const v3 tangent = unit(add(scale(u, -sn * t->ra), scale(w, ct * t->rb)));
            const int i = m->vertices;
            m->positions[i] = (ossa_float3){(float)p.x, (float)p.y, (float)p.z};
            m->normals[i] = (ossa_float3){(float)normal.x, (float)normal.y, (float)normal.z};
            /* u grows with theta, v along the axis: bitangent = axis, so the
             * frame (tangent, bitangent, normal) is right-handed: w = +1. */
            m->tangents[i] = (ossa_float4){(float)tangent.x, (float)tangent.y, (float)tangent.z,
                                           1.0f};
            m->uvs[2 * i] = (float)(u0 + (double)j / sides / ATLAS);
            m->uvs[2 * i + 1] = (float)(v0 + (double)s / (count - 1) / ATLAS);
            ossai_mesher_weigh(m, pt, add(t->c, scale(sub(p, t->c), INNER)));
            m->vertices++;
        }
    }
    /* Quads between rings, split in two counter-clockwise triangles seen from
     * outside; at a pole one of the two is degenerate and left out. */
    for (int s = 0; s + 1 < count; ++s)
        for (int j = 0; j < sides; ++j) {
            const uint32_t a = (uint32_t)(base + s * columns + j), b = a + 1;
            const uint32_t d = a + (uint32_t)columns, cc = d + 1;
            uint32_t *ix = m->indices + m->index_count;
            if (st[s].cos_phi > 0.0) {
                ix[0] = a, ix[1] = b, ix[2] = cc;
                ix += 3;
                m->index_count += 3;
            }
            if (st[s + 1].cos_phi > 0.0) {
                ix[0] = a, ix[1] = cc, ix[2] = d;
                m->index_count += 3;
            }
        }
}

static ctrl cp(v3 p, double ra, double rb)
{
    return (ctrl){p, ra, rb};
}

void ossai_mesher_body(mesher *m)
{
    part pt;
    const v3 x = v(1, 0, 0), y = v(0, 1, 0), z = v(0, 0, 1);
    {
        static const char *const names[] = {"=hips", "=spine_01", "=spine_02", "=spine_03",
                                            "=neck_01", "clavicle_l", "clavicle_r",
                                            "upper_arm_l", "upper_arm_r", "thigh_l", "thigh_r",
                                            NULL};
        ossai_mesher_part(m, &pt, 0.17, NULL, names);
        const ctrl torso[] = {
            cp(add(at(m, "hips", NULL), v(0, -0.09, 0)), 0.13, 0.095),
            cp(at(m, "hips", NULL), 0.155, 0.11),
            cp(at(m, "spine_01", NULL), 0.145, 0.10),
            cp(at(m, "spine_02", NULL), 0.15, 0.105),
            cp(at(m, "spine_03", NULL), 0.17, 0.11),
            cp(add(at(m, "spine_03", NULL), v(0, 0.10, 0)), 0.16, 0.09),
        };
        capsule(m, &pt, torso, 6, 12, 18, x, 0.05, 0.05);
    }
    {
        static const char *const names[] = {"=spine_03", "=neck_01", "=neck_02", "=head", NULL};
        ossai_mesher_part(m, &pt, 0.10, NULL, names);
        const ctrl neck[] = {
            cp(add(at(m, "spine_03", NULL), v(0, 0.09, 0)), 0.06, 0.06),
            cp(at(m, "neck_01", NULL), 0.055, 0.055),
            cp(at(m, "neck_02", NULL), 0.05, 0.052),
            cp(add(at(m, "head", NULL), v(0, 0.02, 0)), 0.05, 0.05),
        };
        capsule(m, &pt, neck, 4, 5, 14, x, 0.02, 0.02);
    }
    {
        static const char *const names[] = {
            "=head", "=neck_02", "=jaw", "=lip_upper", "=lip_lower", "=eye_l", "=eye_r",
            "=brow_inner_l", "=brow_outer_l", "=brow_inner_r", "=brow_outer_r", "=cheek_l",
            "=cheek_r", "=lip_corner_l", "=lip_corner_r", NULL};
        ossai_mesher_part(m, &pt, 0.05, NULL, names);
        const v3 centre = add(at(m, "head", NULL), v(0, 0.09, 0.02));
        const ctrl head[] = {cp(sub(centre, v(0, 0.01, 0)), 0.085, 0.10),
                             cp(add(centre, v(0, 0.01, 0)), 0.085, 0.10)};
        capsule(m, &pt, head, 2, 3, 20, x, 0.105, 0.115);
    }
    for (int side = 0; side < 2; ++side) {
        const char *sx = side == 0 ? "_l" : "_r";
        const double mx = side == 0 ? 1.0 : -1.0;
        {
            static const char *const names[] = {
                "=spine_03", "clavicle", "upper_arm", "upper_arm_twist_01", "upper_arm_twist_02",
                "lower_arm", "lower_arm_twist_01", "lower_arm_twist_02", "hand", NULL};
            ossai_mesher_part(m, &pt, 0.15, sx, names);
            const ctrl arm[] = {
                cp(add(at(m, "clavicle", sx), v(mx * 0.07, 0, 0)), 0.058, 0.052),
                cp(at(m, "upper_arm", sx), 0.058, 0.054),
                cp(at(m, "upper_arm_twist_02", sx), 0.047, 0.046),
                cp(at(m, "lower_arm", sx), 0.039, 0.04),
                cp(at(m, "lower_arm_twist_01", sx), 0.041, 0.04),
                cp(sub(at(m, "hand", sx), v(mx * 0.015, 0, 0)), 0.026, 0.032),
            };
            capsule(m, &pt, arm, 6, 18, 12, y, 0.03, 0.015);
        }
        {
            static const char *const names[] = {"hand", "lower_arm_twist_02", "index_01",
                                                "middle_01", "ring_01", "pinky_01", "thumb_01",
                                                NULL};
            ossai_mesher_part(m, &pt, 0.036, sx, names);
            const ctrl palm[] = {cp(at(m, "hand", sx), 0.02, 0.042),
                                 cp(add(at(m, "hand", sx), v(mx * 0.085, 0, 0)), 0.016, 0.045)};
            capsule(m, &pt, palm, 2, 4, 12, y, 0.012, 0.012);
        }
        static const char *const fingers[5] = {"thumb", "index", "middle", "ring", "pinky"};
        for (int f = 0; f < 5; ++f) {
            char seg[3][24];
            for (int k = 0; k < 3; ++k)
                snprintf(seg[k], sizeof seg[k], "%s_%02d", fingers[f], k + 1);
            const char *const names[] = {"hand", seg[0], seg[1], seg[2], NULL};
            ossai_mesher_part(m, &pt, 0.014, sx, names);
            const v3 a = at(m, seg[0], sx), b = at(m, seg[1], sx), c = at(m, seg[2], sx);
            const double r = f == 0 ? 0.011 : 0.009;
            const ctrl finger[] = {cp(a, r, r), cp(b, r * 0.9, r * 0.9), cp(c, r * 0.8, r * 0.8),
                                   cp(add(c, scale(unit(sub(c, b)), 0.02)), r * 0.7, r * 0.7)};
            capsule(m, &pt, finger, 4, 4, 6, y, 0.006, 0.006);
        }
        {
            static const char *const names[] = {"=hips", "thigh", "thigh_twist_01", "calf",
                                                "calf_twist_01", "foot", NULL};
            ossai_mesher_part(m, &pt, 0.19, sx, names);
            const ctrl leg[] = {
                cp(add(at(m, "thigh", sx), v(0, 0.05, 0)), 0.088, 0.09),
                cp(at(m, "thigh", sx), 0.085, 0.088),
                cp(at(m, "thigh_twist_01", sx), 0.07, 0.072),
                cp(at(m, "calf", sx), 0.052, 0.055),
                cp(at(m, "calf_twist_01", sx), 0.056, 0.06),
                cp(add(at(m, "foot", sx), v(0, 0.03, 0)), 0.037, 0.04),
            };
            capsule(m, &pt, leg, 6, 18, 14, z, 0.04, 0.03);
        }
        {
            static const char *const names[] = {"calf_twist_01", "foot", "ball", "toe", NULL};
            ossai_mesher_part(m, &pt, 0.032, sx, names);
            const ctrl foot[] = {
                cp(add(at(m, "foot", sx), v(0, -0.035, -0.03)), 0.042, 0.035),
                cp(add(at(m, "ball", sx), v(0, 0.0, 0)), 0.046, 0.024),
                cp(add(at(m, "toe", sx), v(0, -0.005, 0.025)), 0.036, 0.016),
            };
            capsule(m, &pt, foot, 3, 7, 12, x, 0.025, 0.015);
        }
    }
}
