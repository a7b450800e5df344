/* naive_skinning.c - seed 002's steps (a)-(d) over a small SSE maths layer
 * (plain C where SSE2 is absent), as the seed describes them. */
#include "naive_skinning.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 vec4;
static inline vec4 v4_load(const float *p) { return _mm_load_ps(p); }
static inline void v4_store(float *p, vec4 v) { _mm_store_ps(p, v); }
static inline vec4 v4_splat(float s) { return _mm_set1_ps(s); }
static inline vec4 v4_add(vec4 a, vec4 b) { return _mm_add_ps(a, b); }
static inline vec4 v4_mul(vec4 a, vec4 b) { return _mm_mul_ps(a, b); }
#define V4_LANE(v, i) _mm_shuffle_ps((v), (v), _MM_SHUFFLE(i, i, i, i))
/* float3 in memory: gathered into a register, and scattered back out. */
static inline vec4 v4_load3(const float *p, float w) { return _mm_setr_ps(p[0], p[1], p[2], w); }
static inline void v4_store3(float *p, vec4 v)
{
    _mm_store_ss(p, v);
    _mm_store_ss(p + 1, V4_LANE(v, 1));
    _mm_store_ss(p + 2, V4_LANE(v, 2));
}
#else
typedef struct vec4 {
    float v[4];
} vec4;
static inline vec4 v4_load(const float *p) { vec4 r; memcpy(r.v, p, 16); return r; }
static inline void v4_store(float *p, vec4 v) { memcpy(p, v.v, 16); }
static inline vec4 v4_splat(float s) { vec4 r = {{s, s, s, s}}; return r; }
static inline vec4 v4_add(vec4 a, vec4 b)
{
    vec4 r = {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}};
    return r;
}
static inline vec4 v4_mul(vec4 a, vec4 b)
{
    vec4 r = {{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}};
    return r;
}
#define V4_LANE(x, i) v4_splat((x).v[i])
static inline vec4 v4_load3(const float *p, float w) { vec4 r = {{p[0], p[1], p[2], w}}; return r; }
static inline void v4_store3(float *p, vec4 v) { memcpy(p, v.v, 12); }
#endif

typedef struct mat4 {
    vec4 c[4];
} mat4;

static inline mat4 mat4_load(const naive_mat4 *m)
{
    mat4 r = {{v4_load(m->m), v4_load(m->m + 4), v4_load(m->m + 8), v4_load(m->m + 12)}};
    return r;
}

static inline mat4 mat4_scale(mat4 m, float w)
{
    const vec4 s = v4_splat(w);
    mat4 r = {{v4_mul(m.c[0], s), v4_mul(m.c[1], s), v4_mul(m.c[2], s), v4_mul(m.c[3], s)}};
    return r;
}

static inline mat4 mat4_add(mat4 a, mat4 b)
{
    mat4 r = {{v4_add(a.c[0], b.c[0]), v4_add(a.c[1], b.c[1]), v4_add(a.c[2], b.c[2]),
               v4_add(a.c[3], b.c[3])}};
    return r;
}

static inline vec4 mat4_transform(const mat4 *m, vec4 v)
{
    vec4 r = v4_mul(m->c[0], V4_LANE(v, 0));
    r = v4_add(r, v4_mul(m->c[1], V4_LANE(v, 1)));
    r = v4_add(r, v4_mul(m->c[2], V4_LANE(v, 2)));
    return v4_add(r, v4_mul(m->c[3], V4_LANE(v, 3)));
}

/* The seed's weighted matrix of all four influences. */
static inline mat4 weighted4(const naive_mat4 *palette, const uint16_t *j, const float *w)
{
    const mat4 m0 = mat4_scale(mat4_load(&palette[j[0]]), w[0]);
    const mat4 m1 = mat4_scale(mat4_load(&palette[j[1]]), w[1]);
    const mat4 m2 = mat4_scale(mat4_load(&palette[j[2]]), w[2]);
    const mat4 m3 = mat4_scale(mat4_load(&palette[j[3]]), w[3]);
    return mat4_add(m0, mat4_add(m1, mat4_add(m2, m3)));
}

void naive_skin_aos(const naive_mesh *m, const naive_mat4 *palette, naive_vertex *out)
{
    for (int i = 0; i < m->vertex_count; ++i) {
        const mat4 w = weighted4(palette, m->joints4 + 4 * i, m->weights4 + 4 * i);
        const naive_vertex *src = &m->vertices[i];
        v4_store3(out[i].position, mat4_transform(&w, v4_load3(src->position, 1.0f)));
        v4_store3(out[i].normal, mat4_transform(&w, v4_load3(src->normal, 0.0f)));
        out[i].uv[0] = src->uv[0]; /* copied, though it never changes */
        out[i].uv[1] = src->uv[1];
    }
}

void naive_skin_split(const naive_mesh *m, const naive_mat4 *palette, naive_skinned *out)
{
    for (int i = 0; i < m->vertex_count; ++i) {
        const mat4 w = weighted4(palette, m->joints4 + 4 * i, m->weights4 + 4 * i);
        const naive_skinned *src = &m->skinned[i];
        v4_store3(out[i].position, mat4_transform(&w, v4_load3(src->position, 1.0f)));
        v4_store3(out[i].normal, mat4_transform(&w, v4_load3(src->normal, 0.0f)));
    }
}

void naive_skin_float4(const naive_mesh *m, const naive_mat4 *palette, float *out)
{
    for (int i = 0; i < m->vertex_count; ++i) {
        const mat4 w = weighted4(palette, m->joints4 + 4 * i, m->weights4 + 4 * i);
        const float *src = m->stream4 + 8 * (size_t)i;
        v4_store(out + 8 * (size_t)i, mat4_transform(&w, v4_load(src)));
        v4_store(out + 8 * (size_t)i + 4, mat4_transform(&w, v4_load(src + 4)));
    }
}

/* The seed's specialised loop for n influences (n a constant once inlined). */
static inline void sorted_group(const naive_mat4 *palette, const float *src, float *dst,
                                const uint16_t *joints, const float *weights, int count, int n)
{
    for (int i = 0; i < count; ++i) {
        mat4 w = n == 1 ? mat4_load(&palette[joints[0]])
                        : mat4_scale(mat4_load(&palette[joints[0]]), weights[0]);
        for (int k = 1; k < n; ++k)
            w = mat4_add(w, mat4_scale(mat4_load(&palette[joints[k]]), weights[k]));
        v4_store(dst, mat4_transform(&w, v4_load(src)));
        v4_store(dst + 4, mat4_transform(&w, v4_load(src + 4)));
        src += 8;
        dst += 8;
        joints += n;
        weights += n == 1 ? 0 : n; /* a single influence stores no weight */
    }
}

void naive_skin_sorted(const naive_mesh *m, const naive_mat4 *palette, float *out)
{
    const float *src = m->sorted_stream4;
    const uint16_t *joints = m->sorted_joints;
    const float *weights = m->sorted_weights;
    const int *c = m->group_counts;
    sorted_group(palette, src, out, joints, weights, c[0], 1);
    src += 8 * (size_t)c[0], out += 8 * (size_t)c[0], joints += c[0];
    sorted_group(palette, src, out, joints, weights, c[1], 2);
    src += 8 * (size_t)c[1], out += 8 * (size_t)c[1], joints += 2 * c[1], weights += 2 * c[1];
    sorted_group(palette, src, out, joints, weights, c[2], 3);
    src += 8 * (size_t)c[2], out += 8 * (size_t)c[2], joints += 3 * c[2], weights += 3 * c[2];
    sorted_group(palette, src, out, joints, weights, c[3], 4);
}

void naive_palette(const ossa_mat34 *palette, int count, naive_mat4 *out)
{
    for (int k = 0; k < count; ++k)
        for (int col = 0; col < 4; ++col) {
            for (int row = 0; row < 3; ++row)
                out[k].m[4 * col + row] = palette[k].m[row][col];
            out[k].m[4 * col + 3] = col == 3 ? 1.0f : 0.0f;
        }
}

static void *zalloc(size_t bytes)
{
    const size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (p)
        memset(p, 0, rounded ? rounded : 64);
    return p;
}

bool naive_mesh_init(naive_mesh *nm, const ossa_mesh *mesh)
{
    memset(nm, 0, sizeof *nm);
    const int n = ossa_mesh_vertex_count(mesh);
    const size_t v = (size_t)n;
    nm->vertex_count = n;
    nm->vertices = zalloc(sizeof(naive_vertex) * v);
    nm->joints4 = zalloc(sizeof(uint16_t) * 4 * v);
    nm->weights4 = zalloc(sizeof(float) * 4 * v);
    nm->skinned = zalloc(sizeof(naive_skinned) * v);
    nm->uvs = zalloc(sizeof(float) * 2 * v);
    nm->stream4 = zalloc(sizeof(float) * 8 * v);
    nm->sorted_stream4 = zalloc(sizeof(float) * 8 * v);
    nm->sorted_joints = zalloc(sizeof(uint16_t) * 4 * v);
    nm->sorted_weights = zalloc(sizeof(float) * 4 * v);
    if (!nm->vertices || !nm->joints4 || !nm->weights4 || !nm->skinned || !nm->uvs ||
        !nm->stream4 || !nm->sorted_stream4 || !nm->sorted_joints || !nm->sorted_weights) {
        naive_mesh_fini(nm);
        return false;
    }
    ossa_mesh_influence_counts(mesh, nm->group_counts);
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    const float *stream = ossa_mesh_bind_stream(mesh), *uvs = ossa_mesh_uvs(mesh);
    const size_t floats = (size_t)ossa_mesh_skinned_stride(mesh) / 4;
    size_t joint_cursor = 0, weight_cursor = 0;
    for (int r = 0; r < n; ++r) {
        const size_t s = source[r];
        const float *x = stream + (size_t)r * floats;
        uint16_t j[4];
        float w[4];
        const int count = ossa_mesh_vertex_influences(mesh, r, j, w);
        naive_vertex *a = &nm->vertices[s];
        memcpy(a->position, x, 12);
        memcpy(a->normal, x + 4, 12);
        if (uvs)
            memcpy(a->uv, uvs + 2 * (size_t)r, 8);
        memcpy(nm->uvs + 2 * s, a->uv, 8);
        memcpy(nm->skinned[s].position, x, 12);
        memcpy(nm->skinned[s].normal, x + 4, 12);
        memcpy(nm->stream4 + 8 * s, x, 32);
        memcpy(nm->sorted_stream4 + 8 * (size_t)r, x, 32);
        for (int k = 0; k < 4; ++k) {
            nm->joints4[4 * s + (size_t)k] = k < count ? j[k] : 0;
            nm->weights4[4 * s + (size_t)k] = k < count ? w[k] : 0.0f;
        }
        for (int k = 0; k < count; ++k) {
            nm->sorted_joints[joint_cursor++] = j[k];
            if (count > 1)
                nm->sorted_weights[weight_cursor++] = w[k];
        }
    }
    return true;
}

void naive_mesh_fini(naive_mesh *nm)
{
    void *blocks[] = {nm->vertices, nm->joints4,        nm->weights4,       nm->skinned,
                      nm->uvs,      nm->stream4,        nm->sorted_stream4, nm->sorted_joints,
                      nm->sorted_weights};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        free(blocks[i]);
    memset(nm, 0, sizeof *nm);
}
