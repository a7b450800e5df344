/* default_mesh.c - the default character's body: tapered capsules and
 * ellipsoids around the bones of the 96-joint skeleton (torso, neck, head,
 * arms, palms, fingers, legs, feet), about 5,000 triangles with normals,
 * tangents and a uv atlas. Each vertex is weighted by its distance to the
 * bones of its part: fully to the nearest, fading across a blend zone to the
 * others (see weigh). The zones' widths are tuned so the influence histogram
 * lands near seed 002's (25% one, 20% two, 25% three, 30% four): one
 * influence inside palms, fingers, feet and the back of the head, two to four
 * across the twist-jointed limbs, the spine and the face. */
#include "default_mesh.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ossa/default_character.h"
#include "ossa/local_to_model_job.h"

#define PI 3.14159265358979323846
#define JOINTS OSSA_DEFAULT_JOINT_COUNT
#define MAX_VERTICES 4096
#define MAX_TRIANGLES 8192
#define MAX_CANDIDATES 16
#define MAX_STATIONS 48
#define CAP_RINGS 3
#define ATLAS 6                 /* the uv atlas is ATLAS x ATLAS tiles, one per part */
/* Weights are measured at the point this fraction of the way from the
 * centreline out to the vertex: bones across the body (a clavicle over the
 * chest) reach the whole ring, not just the near side. */
#define INNER 0.3

typedef struct v3 {
    double x, y, z;
} v3;

static v3 v(double x, double y, double z)
{
    return (v3){x, y, z};
}
static v3 add(v3 a, v3 b)
{
    return v(a.x + b.x, a.y + b.y, a.z + b.z);
}
static v3 sub(v3 a, v3 b)
{
    return v(a.x - b.x, a.y - b.y, a.z - b.z);
}
static v3 scale(v3 a, double s)
{
    return v(a.x * s, a.y * s, a.z * s);
}
static double dot(v3 a, v3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static v3 cross(v3 a, v3 b)
{
    return v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static v3 unit(v3 a)
{
    const double l = sqrt(dot(a, a));
    return l > 0.0 ? scale(a, 1.0 / l) : a;
}

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

/* The bones a part's vertices may be weighted to. */
typedef struct part {
    int candidates[MAX_CANDIDATES];
    int candidate_count;
    double blend; /* width of the blend zones between bones */
} part;

typedef struct mesher {
    const ossa_skeleton *skeleton;
    v3 joint[JOINTS];  /* rest model-space positions */
    v3 bone_end[JOINTS]; /* each joint's bone: joint[j] -> bone_end[j] */
    ossa_float3 *positions, *normals;
    ossa_float4 *tangents;
    float *uvs;
    uint32_t *indices;
    int *offsets;
    ossa_raw_influence *influences; /* joint = skeleton joint until remapped */
    int vertices, index_count, tile;
    int overflow;
} mesher;

static int joint_of(const mesher *m, const char *name, const char *side)
{
    char full[40];
    snprintf(full, sizeof full, "%s%s", name, side ? side : "");
    return ossa_skeleton_find_joint(m->skeleton, full);
}

static v3 at(const mesher *m, const char *name, const char *side)
{
    const int j = joint_of(m, name, side);
    return j >= 0 ? m->joint[j] : v(0, 0, 0);
}

static double segment_distance(v3 p, v3 a, v3 b)
{
    const v3 ab = sub(b, a);
    const double len2 = dot(ab, ab);
    double t = len2 > 0.0 ? dot(sub(p, a), ab) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const v3 d = sub(p, add(a, scale(ab, t)));
    return sqrt(dot(d, d));
}

/* The vertex's influences: every bone of its part nearly as close as the
 * nearest, weighted (1 - (d - d_nearest) / blend)^2 - 1 for the nearest bone,
 * fading to 0 across the blend zone - the four heaviest kept, normalised. */
static void weigh(mesher *m, const part *pt, v3 p)
{
    double d[MAX_CANDIDATES], w[MAX_CANDIDATES];
    int order[MAX_CANDIDATES];
    double nearest = 1e30;
    for (int i = 0; i < pt->candidate_count; ++i) {
        const int j = pt->candidates[i];
        d[i] = segment_distance(p, m->joint[j], m->bone_end[j]);
        if (d[i] < nearest)
            nearest = d[i];
    }
    for (int i = 0; i < pt->candidate_count; ++i) {
        const double x = 1.0 - (d[i] - nearest) / pt->blend;
        w[i] = x > 0.0 ? x * x : 0.0;
        order[i] = i;
    }
    for (int i = 1; i < pt->candidate_count; ++i) /* insertion sort, heaviest first */
        for (int k = i; k > 0 && w[order[k]] > w[order[k - 1]]; --k) {
            const int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    int n = pt->candidate_count < OSSA_MAX_INFLUENCES ? pt->candidate_count : OSSA_MAX_INFLUENCES;
    while (w[order[n - 1]] <= 0.0) /* the nearest bone always has weight 1 */
        --n;
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += w[order[i]];
    const int first = m->offsets[m->vertices];
    for (int i = 0; i < n; ++i)
        m->influences[first + i] =
            (ossa_raw_influence){pt->candidates[order[i]], (float)(w[order[i]] / sum)};
    m->offsets[m->vertices + 1] = first + n;
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
            weigh(m, pt, add(t->c, scale(sub(p, t->c), INNER)));
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


static void set_candidates(const mesher *m, part *pt, double blend, const char *side,
                           const char *const *names)
{
    pt->candidate_count = 0;
    pt->blend = blend;
    for (; *names && pt->candidate_count < MAX_CANDIDATES; ++names) {
        /* A leading '=' names a joint without the side suffix. */
        const int j = (*names)[0] == '=' ? joint_of(m, *names + 1, NULL) : joint_of(m, *names, side);
        if (j >= 0)
            pt->candidates[pt->candidate_count++] = j;
    }
}

static ctrl cp(v3 p, double ra, double rb)
{
    return (ctrl){p, ra, rb};
}

static void body(mesher *m)
{
    part pt;
    const v3 x = v(1, 0, 0), y = v(0, 1, 0), z = v(0, 0, 1);
    {
        static const char *const names[] = {"=hips", "=spine_01", "=spine_02", "=spine_03",
                                            "=neck_01", "clavicle_l", "clavicle_r",
                                            "upper_arm_l", "upper_arm_r", "thigh_l", "thigh_r",
                                            NULL};
        set_candidates(m, &pt, 0.17, NULL, names);
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
        set_candidates(m, &pt, 0.10, NULL, names);
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
        set_candidates(m, &pt, 0.05, NULL, names);
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
            set_candidates(m, &pt, 0.15, sx, names);
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
            set_candidates(m, &pt, 0.036, sx, names);
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
            set_candidates(m, &pt, 0.014, sx, names);
            const v3 a = at(m, seg[0], sx), b = at(m, seg[1], sx), c = at(m, seg[2], sx);
            const double r = f == 0 ? 0.011 : 0.009;
            const ctrl finger[] = {cp(a, r, r), cp(b, r * 0.9, r * 0.9), cp(c, r * 0.8, r * 0.8),
                                   cp(add(c, scale(unit(sub(c, b)), 0.02)), r * 0.7, r * 0.7)};
            capsule(m, &pt, finger, 4, 4, 6, y, 0.006, 0.006);
        }
        {
            static const char *const names[] = {"=hips", "thigh", "thigh_twist_01", "calf",
                                                "calf_twist_01", "foot", NULL};
            set_candidates(m, &pt, 0.19, sx, names);
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
            set_candidates(m, &pt, 0.032, sx, names);
            const ctrl foot[] = {
                cp(add(at(m, "foot", sx), v(0, -0.035, -0.03)), 0.042, 0.035),
                cp(add(at(m, "ball", sx), v(0, 0.0, 0)), 0.046, 0.024),
                cp(add(at(m, "toe", sx), v(0, -0.005, 0.025)), 0.036, 0.016),
            };
            capsule(m, &pt, foot, 3, 7, 12, x, 0.025, 0.015);
        }
    }
}

/* Rest model-space positions and one bone per joint: to the child with the
 * largest subtree; for a leaf, a point (twists, eyes), except finger and toe
 * tips and the head, which reach to the end of their body part. */
static int rest_pose(mesher *m, ossa_mat34 *model)
{
    const int n = ossa_skeleton_joint_count(m->skeleton);
    const uint16_t *parents = ossa_skeleton_parents(m->skeleton);
    ossa_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.parents = parents;
    job.joint_count = n;
    job.local = ossa_skeleton_rest_pose(m->skeleton);
    job.local_count = n;
    job.instance_count = 1;
    job.model = model;
    job.model_count = n;
    if (ossa_local_to_model_job_run(&job) != OSSA_OK)
        return 0;
    int subtree[JOINTS], main_child[JOINTS];
    for (int j = 0; j < n; ++j) {
        m->joint[j] = v(model[j].m[0][3], model[j].m[1][3], model[j].m[2][3]);
        subtree[j] = 1;
        main_child[j] = -1;
    }
    for (int j = n - 1; j > 0; --j) /* children come after parents */
        if (parents[j] != OSSA_NO_PARENT)
            subtree[parents[j]] += subtree[j];
    for (int j = 1; j < n; ++j) {
        const int p = parents[j];
        if (p != OSSA_NO_PARENT && (main_child[p] < 0 || subtree[j] > subtree[main_child[p]]))
            main_child[p] = j;
    }
    for (int j = 0; j < n; ++j) {
        const char *name = ossa_skeleton_joint_name(m->skeleton, j);
        const int p = parents[j];
        m->bone_end[j] = main_child[j] >= 0 ? m->joint[main_child[j]] : m->joint[j];
        static const char *const along[][2] = {
            {"spine_03", "neck_01"}, {"hand_l", "middle_01_l"}, {"hand_r", "middle_01_r"}};
        for (size_t k = 0; k < sizeof along / sizeof along[0]; ++k)
            if (strcmp(name, along[k][0]) == 0)
                m->bone_end[j] = m->joint[ossa_skeleton_find_joint(m->skeleton, along[k][1])];
        if (strcmp(name, "head") == 0)
            m->bone_end[j] = add(m->joint[j], v(0, 0.16, 0.02));
        else if (p != OSSA_NO_PARENT && main_child[j] < 0 &&
                 (strstr(name, "_03_") || strncmp(name, "toe_", 4) == 0))
            m->bone_end[j] = add(m->joint[j], scale(sub(m->joint[j], m->joint[p]), 0.8));
    }
    return 1;
}

ossa_result ossai_default_mesh_build(const ossa_skeleton *skeleton,
                                     const ossa_allocator *allocator, ossa_mesh **out,
                                     ossa_mesh_build_report *report, ossa_error *error)
{
    ossa_result r = OSSA_OK;
    if (ossa_skeleton_joint_count(skeleton) != JOINTS)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "default mesh: the skeleton is not the default character's");
    mesher *m = ossa_alloc(allocator, sizeof *m, 16);
    ossa_mat34 *model = ossa_alloc(allocator, sizeof(ossa_mat34) * JOINTS, 16);
    ossa_raw_skin_joint *skin = ossa_alloc(allocator, sizeof(ossa_raw_skin_joint) * JOINTS, 16);
    if (m)
        memset(m, 0, sizeof *m);
    if (m) {
        m->skeleton = skeleton;
        m->positions = ossa_alloc(allocator, sizeof(ossa_float3) * MAX_VERTICES, 16);
        m->normals = ossa_alloc(allocator, sizeof(ossa_float3) * MAX_VERTICES, 16);
        m->tangents = ossa_alloc(allocator, sizeof(ossa_float4) * MAX_VERTICES, 16);
        m->uvs = ossa_alloc(allocator, sizeof(float) * 2 * MAX_VERTICES, 16);
        m->indices = ossa_alloc(allocator, sizeof(uint32_t) * 3 * MAX_TRIANGLES, 16);
        m->offsets = ossa_alloc(allocator, sizeof(int) * (MAX_VERTICES + 1), 16);
        m->influences = ossa_alloc(allocator,
                                   sizeof(ossa_raw_influence) * OSSA_MAX_INFLUENCES * MAX_VERTICES,
                                   16);
    }
    if (!m || !model || !skin || !m->positions || !m->normals || !m->tangents || !m->uvs ||
        !m->indices || !m->offsets || !m->influences) {
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "default mesh: out of memory");
        goto fail;
    }
    if (!rest_pose(m, model)) {
        r = ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                           "default mesh: the skeleton's rest pose is invalid");
        goto fail;
    }
    m->offsets[0] = 0;
    body(m);
    if (m->overflow) {
        r = ossa_error_set(error, OSSA_ERR_MESH_TOO_LARGE, -1, -1,
                           "default mesh: more than %d vertices or %d triangles", MAX_VERTICES,
                           MAX_TRIANGLES);
        goto fail;
    }
    /* Skin joints: the skeleton joints some vertex uses, in skeleton order. */
    int skin_of[JOINTS], skin_count = 0;
    for (int j = 0; j < JOINTS; ++j)
        skin_of[j] = -1;
    for (int i = 0; i < m->offsets[m->vertices]; ++i)
        skin_of[m->influences[i].joint] = 0;
    for (int j = 0; j < JOINTS; ++j)
        if (skin_of[j] == 0) {
            skin_of[j] = skin_count;
            skin[skin_count].name = ossa_skeleton_joint_name(skeleton, j);
            skin[skin_count++].inverse_bind = ossa_mat34_inverse(&model[j]);
        }
    for (int i = 0; i < m->offsets[m->vertices]; ++i)
        m->influences[i].joint = skin_of[m->influences[i].joint];

    ossa_raw_mesh raw;
    memset(&raw, 0, sizeof raw);
    raw.name = "body";
    raw.vertex_count = m->vertices;
    raw.positions = m->positions;
    raw.normals = m->normals;
    raw.tangents = m->tangents;
    raw.uvs = m->uvs;
    raw.indices = m->indices;
    raw.index_count = m->index_count;
    raw.influence_offsets = m->offsets;
    raw.influences = m->influences;
    raw.skin_joints = skin;
    raw.skin_joint_count = skin_count;
    ossa_mesh_build_options options;
    memset(&options, 0, sizeof options);
    if (allocator)
        options.allocator = *allocator;
    r = ossa_mesh_build(&raw, skeleton, &options, out, report, error);

fail:
    if (m) {
        ossa_free(allocator, m->positions);
        ossa_free(allocator, m->normals);
        ossa_free(allocator, m->tangents);
        ossa_free(allocator, m->uvs);
        ossa_free(allocator, m->indices);
        ossa_free(allocator, m->offsets);
        ossa_free(allocator, m->influences);
    }
    ossa_free(allocator, m);
    ossa_free(allocator, model);
    ossa_free(allocator, skin);
    return r;
}
