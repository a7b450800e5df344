/* test_support.c - see test_support.h. */
#define _POSIX_C_SOURCE 200809L
#include "test_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TS_PI 3.14159265358979323846

ts_rng ts_rng_make(uint64_t seed)
{
    ts_rng r = {seed * 6364136223846793005ull + 1442695040888963407ull};
    (void)ts_u32(&r);
    return r;
}

uint32_t ts_u32(ts_rng *r)
{
    uint64_t old = r->state;
    r->state = old * 6364136223846793005ull + 1442695040888963407ull;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

int ts_int(ts_rng *r, int n)
{
    return n <= 0 ? 0 : (int)(ts_u32(r) % (uint32_t)n);
}

double ts_uniform(ts_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * (ts_u32(r) / 4294967296.0);
}

ossa_quat ts_quat(ts_rng *r)
{
    /* Shoemake's uniform random rotation. */
    double u1 = ts_uniform(r, 0, 1), u2 = ts_uniform(r, 0, 2 * TS_PI), u3 = ts_uniform(r, 0, 2 * TS_PI);
    double a = sqrt(1 - u1), b = sqrt(u1);
    ossa_quat q = {(float)(a * sin(u2)), (float)(a * cos(u2)), (float)(b * sin(u3)),
                   (float)(b * cos(u3))};
    return ossa_quat_normalize(q);
}

ossa_transform ts_transform(ts_rng *r, ts_scale scale)
{
    return ts_transform_range(r, scale, 0.5, 2.0);
}

ossa_transform ts_transform_range(ts_rng *r, ts_scale scale, double scale_min, double scale_max)
{
    ossa_transform t;
    t.translation = (ossa_float3){(float)ts_uniform(r, -1, 1), (float)ts_uniform(r, -1, 1),
                                  (float)ts_uniform(r, -1, 1)};
    t.rotation = ts_quat(r);
    float s = (float)ts_uniform(r, scale_min, scale_max);
    switch (scale) {
    case TS_SCALE_ONE: t.scale = (ossa_float3){1, 1, 1}; break;
    case TS_SCALE_UNIFORM: t.scale = (ossa_float3){s, s, s}; break;
    case TS_SCALE_ANY:
    default:
        t.scale = (ossa_float3){s, (float)ts_uniform(r, scale_min, scale_max),
                                (float)ts_uniform(r, scale_min, scale_max)};
        break;
    }
    return t;
}

void ts_parents(ts_rng *r, int n, int roots, uint16_t *parents)
{
    for (int i = 0; i < n; ++i) {
        if (i == 0 || (roots > 1 && ts_int(r, n) < roots - 1))
            parents[i] = 0xFFFFu;
        else
            /* Favour recent joints so chains get deep, like limbs. */
            parents[i] = (uint16_t)(ts_int(r, 4) ? i - 1 - ts_int(r, i < 4 ? i : 4) : ts_int(r, i));
    }
}

void ts_raw_parents(ts_rng *r, int n, int roots, int *parents)
{
    uint16_t *flat = malloc(sizeof *flat * (size_t)n);
    int *position = malloc(sizeof *position * (size_t)n); /* flat index -> raw index */
    if (!flat || !position) {
        fprintf(stderr, "ts_raw_parents: out of memory\n");
        exit(1);
    }
    ts_parents(r, n, roots, flat);
    for (int i = 0; i < n; ++i)
        position[i] = i;
    for (int i = n - 1; i > 0; --i) { /* Fisher-Yates */
        int k = ts_int(r, i + 1), tmp = position[i];
        position[i] = position[k];
        position[k] = tmp;
    }
    for (int i = 0; i < n; ++i)
        parents[position[i]] = flat[i] == 0xFFFFu ? -1 : position[flat[i]];
    free(flat);
    free(position);
}

ts_dmat ts_dmat_identity(void)
{
    ts_dmat m = {{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
    return m;
}

ts_dmat ts_dmat_from_transform(ossa_transform t)
{
    ts_dquat q = ts_dquat_normalize(ts_dquat_from(t.rotation));
    double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, xz = q.x * q.z;
    double yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    double r[3][3] = {{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                      {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                      {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}};
    double s[3] = {t.scale.x, t.scale.y, t.scale.z};
    double tr[3] = {t.translation.x, t.translation.y, t.translation.z};
    ts_dmat m;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j)
            m.m[i][j] = r[i][j] * s[j];
        m.m[i][3] = tr[i];
    }
    return m;
}

ts_dmat ts_dmat_from_mat34(const ossa_mat34 *a)
{
    ts_dmat m;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j)
            m.m[i][j] = a->m[i][j];
    return m;
}

ts_dmat ts_dmat_mul(const ts_dmat *a, const ts_dmat *b)
{
    ts_dmat r;
    for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = a->m[i][0] * b->m[0][j] + a->m[i][1] * b->m[1][j] + a->m[i][2] * b->m[2][j];
        r.m[i][3] += a->m[i][3];
    }
    return r;
}

ts_dmat ts_dmat_inverse(const ts_dmat *m)
{
    const double(*a)[4] = m->m;
    double c[3][3];
    c[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
    c[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
    c[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
    c[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
    c[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
    c[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
    c[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
    c[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
    c[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
    double det = a[0][0] * c[0][0] + a[0][1] * c[1][0] + a[0][2] * c[2][0];
    ts_dmat r;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            r.m[i][j] = c[i][j] / det;
    for (int i = 0; i < 3; ++i)
        r.m[i][3] = -(r.m[i][0] * a[0][3] + r.m[i][1] * a[1][3] + r.m[i][2] * a[2][3]);
    return r;
}

double ts_mat_diff(const ossa_mat34 *a, const ts_dmat *b)
{
    double d = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
            double e = fabs((double)a->m[i][j] - b->m[i][j]);
            if (!(e <= d))
                d = e; /* NaN propagates as a failure */
        }
    return d;
}

ts_dquat ts_dquat_from(ossa_quat q)
{
    ts_dquat r = {q.x, q.y, q.z, q.w};
    return r;
}

ts_dquat ts_dquat_mul(ts_dquat a, ts_dquat b)
{
    ts_dquat r = {a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                  a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z};
    return r;
}

ts_dquat ts_dquat_normalize(ts_dquat q)
{
    double l = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    ts_dquat r = {q.x / l, q.y / l, q.z / l, q.w / l};
    return r;
}

double ts_quat_angle(ossa_quat a, ts_dquat b)
{
    ts_dquat x = ts_dquat_normalize(ts_dquat_from(a));
    b = ts_dquat_normalize(b);
    double d = fabs(x.x * b.x + x.y * b.y + x.z * b.z + x.w * b.w);
    return 2.0 * acos(d > 1.0 ? 1.0 : d);
}

double ts_dquat_angle(ts_dquat a, ts_dquat b)
{
    a = ts_dquat_normalize(a);
    b = ts_dquat_normalize(b);
    /* atan2 of the relative rotation's vector and scalar parts: accurate near 0. */
    ts_dquat c = {-a.x, -a.y, -a.z, a.w};
    ts_dquat d = ts_dquat_mul(c, b);
    return 2.0 * atan2(sqrt(d.x * d.x + d.y * d.y + d.z * d.z), fabs(d.w));
}

static ts_dquat shortest(ts_dquat a, ts_dquat b)
{
    if (a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w < 0) {
        ts_dquat n = {-b.x, -b.y, -b.z, -b.w};
        return n;
    }
    return b;
}

ts_dquat ts_dquat_nlerp(ts_dquat a, ts_dquat b, double t)
{
    b = shortest(a, b);
    ts_dquat r = {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
                  a.w + (b.w - a.w) * t};
    return ts_dquat_normalize(r);
}

ts_dquat ts_dquat_slerp(ts_dquat a, ts_dquat b, double t)
{
    a = ts_dquat_normalize(a);
    b = shortest(a, ts_dquat_normalize(b));
    double theta = ts_dquat_angle(a, b) / 2.0; /* half the rotation angle */
    if (theta < 1e-9)
        return ts_dquat_nlerp(a, b, t);
    double wa = sin((1 - t) * theta) / sin(theta), wb = sin(t * theta) / sin(theta);
    ts_dquat r = {a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb,
                  a.w * wa + b.w * wb};
    return ts_dquat_normalize(r);
}

static void recurse(const int *parents, const ossa_transform *local, int n, int joint,
                    const ts_dmat *parent_model, ts_dmat *model)
{
    ts_dmat m = ts_dmat_from_transform(local[joint]);
    model[joint] = parent_model ? ts_dmat_mul(parent_model, &m) : m;
    for (int c = 0; c < n; ++c)
        if (parents[c] == joint)
            recurse(parents, local, n, c, &model[joint], model);
}

void ts_model_by_recursion(const int *parents, const ossa_transform *local, int n,
                           ts_dmat *model)
{
    for (int i = 0; i < n; ++i)
        if (parents[i] < 0)
            recurse(parents, local, n, i, NULL, model);
}

void ts_model_flat(const uint16_t *parents, const ossa_transform *local, int n,
                   const ts_dmat *root, ts_dmat *model)
{
    for (int i = 0; i < n; ++i) {
        ts_dmat m = ts_dmat_from_transform(local[i]);
        if (parents[i] != 0xFFFFu)
            model[i] = ts_dmat_mul(&model[parents[i]], &m);
        else
            model[i] = root ? ts_dmat_mul(root, &m) : m;
    }
}

void *ts_exact_copy(const void *data, size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 16, bytes ? bytes : 1) != 0) {
        fprintf(stderr, "ts_exact_copy: out of memory\n");
        exit(1);
    }
    if (bytes)
        memcpy(p, data, bytes);
    return p;
}

void *ts_aligned(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 1) != 0) {
        fprintf(stderr, "ts_aligned: out of memory\n");
        exit(1);
    }
    return p;
}

const char *ts_models_dir(void)
{
    const char *env = getenv("OSSA_MODELS");
    const char *dir = env && *env ? env : OSSA_TEST_MODELS_DIR;
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) ? dir : NULL;
}

const char *ts_model_path(const char *name)
{
    static char path[4096];
    const char *dir = ts_models_dir();
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, R_OK) == 0 ? path : NULL;
}

const char *ts_temp_dir(void)
{
    static char dir[256];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ossa-test-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            exit(1);
        }
    }
    return dir;
}

static void *failing_alloc(size_t bytes, size_t alignment, void *user)
{
    ts_failing_allocator *a = (ts_failing_allocator *)user;
    if (a->count++ == a->fail_at)
        return NULL;
    if (alignment < sizeof(void *))
        alignment = sizeof(void *);
    size_t rounded = (bytes + alignment - 1) / alignment * alignment;
    void *p = aligned_alloc(alignment, rounded);
    if (p)
        a->live++;
    return p;
}

static void failing_free(void *p, void *user)
{
    ts_failing_allocator *a = (ts_failing_allocator *)user;
    if (p)
        a->live--;
    free(p);
}

void ts_failing_allocator_init(ts_failing_allocator *a, int fail_at)
{
    memset(a, 0, sizeof *a);
    a->allocator.alloc = failing_alloc;
    a->allocator.free = failing_free;
    a->allocator.user = a;
    a->fail_at = fail_at;
}
