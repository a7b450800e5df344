/* render_camera.c - the renderer's camera maths and layout helpers: framing a
 * box, the clip-space matrix, bounds and the ground grid. Plain C, no GL. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "ossa/render.h"

#define DEFAULT_FOV_RAD 0.610865238 /* 35 degrees */

typedef struct d3 {
    double x, y, z;
} d3;

static d3 d3_make(double x, double y, double z)
{
    return (d3){x, y, z};
}
static d3 d3_of(ossa_float3 v)
{
    return d3_make(v.x, v.y, v.z);
}
static d3 d3_sub(d3 a, d3 b)
{
    return d3_make(a.x - b.x, a.y - b.y, a.z - b.z);
}
static double d3_dot(d3 a, d3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static d3 d3_cross(d3 a, d3 b)
{
    return d3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static d3 d3_unit(d3 a)
{
    const double n = sqrt(d3_dot(a, a));
    return n > 0 ? d3_make(a.x / n, a.y / n, a.z / n) : d3_make(0, 0, 0);
}

/* The camera's basis: forward f (eye -> target), right s, up u. Looking
 * straight down or up, "up" falls back to -z so the basis stays defined. */
static void basis(d3 forward, d3 *f, d3 *s, d3 *u)
{
    *f = d3_unit(forward);
    *s = d3_cross(*f, d3_make(0, 1, 0));
    if (d3_dot(*s, *s) < 1e-12)
        *s = d3_cross(*f, d3_make(0, 0, -1));
    *s = d3_unit(*s);
    *u = d3_cross(*s, *f);
}

static d3 corner_of(d3 lo, d3 hi, int k)
{
    return d3_make(k & 1 ? hi.x : lo.x, k & 2 ? hi.y : lo.y, k & 4 ? hi.z : lo.z);
}

/* The least distance from target along -f at which every corner of the box
 * is inside the frustum of half-extents tx, ty (tangents). */
static double fit_distance(d3 lo, d3 hi, d3 target, d3 f, d3 s, d3 u, double tx, double ty)
{
    double distance = 0;
    for (int k = 0; k < 8; ++k) {
        const d3 q = d3_sub(corner_of(lo, hi, k), target);
        const double z = d3_dot(q, f);
        distance = fmax(distance, fmax(fabs(d3_dot(q, s)) / tx - z, fabs(d3_dot(q, u)) / ty - z));
    }
    return distance;
}

ossa_render_camera ossa_render_camera_frame(ossa_float3 min, ossa_float3 max, float aspect,
                                            float yaw_rad, float pitch_rad, float fov_y_rad)
{
    const double fov = fov_y_rad > 0 && fov_y_rad < 3.1 ? fov_y_rad : DEFAULT_FOV_RAD;
    const double a = aspect > 0 && isfinite(aspect) ? aspect : 1.0;
    const d3 lo = d3_of(min), hi = d3_of(max);
    const d3 c = d3_make(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), 0.5 * (lo.z + hi.z));
    const double radius = 0.5 * sqrt(d3_dot(d3_sub(hi, lo), d3_sub(hi, lo)));
    /* From the target toward the eye. */
    const d3 back = d3_make(sin(yaw_rad) * cos(pitch_rad), sin(pitch_rad),
                            cos(yaw_rad) * cos(pitch_rad));
    d3 f, s, u;
    basis(d3_make(-back.x, -back.y, -back.z), &f, &s, &u);
    /* A corner at lateral (x, y) and depth z past the target is in view when
     * |x| <= (distance + z) tan(fov_x / 2), and the same for y (4% margin).
     * Perspective makes the near side of the box look bigger, so the target
     * then moves to the middle of the box's picture and the fit repeats. */
    const double ty = tan(0.5 * fov) * 0.96, tx = ty * a;
    d3 target = c;
    double distance = 0;
    for (int pass = 0; pass < 4; ++pass) {
        distance = fit_distance(lo, hi, target, f, s, u, tx, ty);
        double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
        for (int k = 0; k < 8; ++k) {
            const d3 q = d3_sub(corner_of(lo, hi, k), target);
            const double depth = distance + d3_dot(q, f);
            const double x = d3_dot(q, s) / (depth * tx), y = d3_dot(q, u) / (depth * ty);
            x0 = fmin(x0, x), x1 = fmax(x1, x), y0 = fmin(y0, y), y1 = fmax(y1, y);
        }
        const double mx = 0.5 * (x0 + x1) * tx * distance, my = 0.5 * (y0 + y1) * ty * distance;
        target = d3_make(target.x + s.x * mx + u.x * my, target.y + s.y * mx + u.y * my,
                         target.z + s.z * mx + u.z * my);
    }
    distance = fmax(fit_distance(lo, hi, target, f, s, u, tx, ty), 1.05 * radius + 1e-3);
    const d3 eye = d3_make(target.x + back.x * distance, target.y + back.y * distance,
                           target.z + back.z * distance);
    double nearest = 1e300, farthest = 0;
    for (int k = 0; k < 8; ++k) {
        const double depth = d3_dot(d3_sub(corner_of(lo, hi, k), eye), f);
        nearest = fmin(nearest, depth);
        farthest = fmax(farthest, depth);
    }
    ossa_render_camera cam;
    cam.target = (ossa_float3){(float)target.x, (float)target.y, (float)target.z};
    cam.eye = (ossa_float3){(float)eye.x, (float)eye.y, (float)eye.z};
    cam.fov_y_rad = (float)fov;
    /* The box lies between nearest and farthest; the ground plane reaches a
     * few radii beyond it. */
    cam.z_near = (float)fmax(0.5 * nearest, 1e-3 * distance);
    cam.z_far = (float)(farthest + 6.0 * radius + 1.0);
    return cam;
}

void ossa_render_camera_matrix(const ossa_render_camera *camera, float aspect, float out[16])
{
    const d3 eye = d3_of(camera->eye);
    d3 f, s, u;
    basis(d3_sub(d3_of(camera->target), eye), &f, &s, &u);
    const double view[4][4] = {{s.x, s.y, s.z, -d3_dot(s, eye)},
                               {u.x, u.y, u.z, -d3_dot(u, eye)},
                               {-f.x, -f.y, -f.z, d3_dot(f, eye)},
                               {0, 0, 0, 1}};
    const double t = 1.0 / tan(0.5 * (double)camera->fov_y_rad);
    const double n = camera->z_near, fa = camera->z_far;
    const double a = aspect > 0 ? aspect : 1.0;
    const double proj[4][4] = {{t / a, 0, 0, 0},
                               {0, t, 0, 0},
                               {0, 0, (fa + n) / (n - fa), 2.0 * fa * n / (n - fa)},
                               {0, 0, -1, 0}};
    for (int r = 0; r < 4; ++r)
        for (int col = 0; col < 4; ++col) {
            double sum = 0;
            for (int k = 0; k < 4; ++k)
                sum += proj[r][k] * view[k][col];
            out[col * 4 + r] = (float)sum;
        }
}

void ossa_render_mesh_bounds(const ossa_mesh *mesh, ossa_float3 *min, ossa_float3 *max)
{
    const int n = ossa_mesh_vertex_count(mesh);
    const size_t floats = (size_t)ossa_mesh_skinned_stride(mesh) / sizeof(float);
    const float *p = ossa_mesh_bind_stream(mesh);
    ossa_float3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int v = 0; v < n; ++v, p += floats) {
        lo.x = fminf(lo.x, p[0]), lo.y = fminf(lo.y, p[1]), lo.z = fminf(lo.z, p[2]);
        hi.x = fmaxf(hi.x, p[0]), hi.y = fmaxf(hi.y, p[1]), hi.z = fmaxf(hi.z, p[2]);
    }
    if (n <= 0)
        lo = hi = (ossa_float3){0, 0, 0};
    *min = lo;
    *max = hi;
}

void ossa_render_placed_bounds(ossa_float3 box_min, ossa_float3 box_max,
                               const ossa_mat34 *placements, int count, ossa_float3 *min,
                               ossa_float3 *max)
{
    if (!placements || count <= 0) {
        *min = box_min;
        *max = box_max;
        return;
    }
    ossa_float3 lo = {FLT_MAX, FLT_MAX, FLT_MAX}, hi = {-FLT_MAX, -FLT_MAX, -FLT_MAX};
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < 8; ++k) {
            const ossa_float3 corner = {k & 1 ? box_max.x : box_min.x,
                                        k & 2 ? box_max.y : box_min.y,
                                        k & 4 ? box_max.z : box_min.z};
            const ossa_float3 p = ossa_mat34_transform_point(&placements[i], corner);
            lo.x = fminf(lo.x, p.x), lo.y = fminf(lo.y, p.y), lo.z = fminf(lo.z, p.z);
            hi.x = fmaxf(hi.x, p.x), hi.y = fmaxf(hi.y, p.y), hi.z = fmaxf(hi.z, p.z);
        }
    *min = lo;
    *max = hi;
}

void ossa_render_grid(int count, float spacing, ossa_mat34 *placements)
{
    if (count <= 0)
        return;
    const int side = (int)ceil(sqrt((double)count));
    const int rows = (count + side - 1) / side;
    for (int i = 0; i < count; ++i) {
        const int row = i / side, col = i % side;
        /* The last row may be short: centre it too. */
        const int in_row = row == rows - 1 ? count - row * side : side;
        ossa_mat34 m = ossa_mat34_identity();
        m.m[0][3] = ((float)col - 0.5f * (float)(in_row - 1)) * spacing;
        m.m[2][3] = ((float)row - 0.5f * (float)(rows - 1)) * spacing;
        placements[i] = m;
    }
}
