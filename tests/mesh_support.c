/* mesh_support.c - see mesh_support.h. */
#include "mesh_support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/skeleton_builder.h"

static void *zalloc(size_t bytes)
{
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "mesh_support: out of memory\n");
        exit(1);
    }
    return p;
}

static ossa_float3 random3(ts_rng *r)
{
    return (ossa_float3){(float)ts_uniform(r, -1, 1), (float)ts_uniform(r, -1, 1),
                         (float)ts_uniform(r, -1, 1)};
}

void ts_mesh_random(ts_mesh *m, ts_rng *r, const ts_mesh_options *o)
{
    memset(m, 0, sizeof *m);
    const int n = o->vertices, skins = o->skin_joints, joints = o->skin_joints + 3;
    /* Skeleton: `joints` named joints; skin joint k binds a shuffled one. */
    m->names = zalloc(sizeof *m->names * (size_t)joints);
    ossa_raw_joint *raw_joints = zalloc(sizeof *raw_joints * (size_t)joints);
    uint16_t *parents = zalloc(sizeof *parents * (size_t)joints);
    ts_parents(r, joints, 1, parents);
    for (int j = 0; j < joints; ++j) {
        snprintf(m->names[j], sizeof m->names[j], "joint_%d", j);
        raw_joints[j].name = m->names[j];
        raw_joints[j].parent = parents[j] == 0xFFFFu ? -1 : parents[j];
        raw_joints[j].rest = ts_transform(r, TS_SCALE_ONE);
    }
    ossa_raw_skeleton rs = {raw_joints, joints};
    ossa_error e;
    if (ossa_skeleton_build(&rs, NULL, &m->skeleton, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "mesh_support: %s\n", e.message);
        exit(1);
    }
    free(raw_joints);
    free(parents);
    int *order = zalloc(sizeof(int) * (size_t)joints);
    for (int j = 0; j < joints; ++j)
        order[j] = j;
    for (int j = joints - 1; j > 0; --j) {
        int k = ts_int(r, j + 1), t = order[j];
        order[j] = order[k];
        order[k] = t;
    }
    m->skin_joints = zalloc(sizeof *m->skin_joints * (size_t)skins);
    for (int k = 0; k < skins; ++k) {
        m->skin_joints[k].name = m->names[order[k]];
        ossa_mat34 ib = ossa_mat34_from_transform(ts_transform(r, TS_SCALE_UNIFORM));
        m->skin_joints[k].inverse_bind = ib;
    }
    free(order);

    m->positions = zalloc(sizeof *m->positions * (size_t)n);
    m->normals = zalloc(sizeof *m->normals * (size_t)n);
    m->uvs = zalloc(sizeof(float) * 2 * (size_t)n);
    if (o->tangents)
        m->tangents = zalloc(sizeof *m->tangents * (size_t)n);
    if (o->colors)
        m->colors = zalloc(sizeof(uint32_t) * (size_t)n);
    m->offsets = zalloc(sizeof(int) * ((size_t)n + 1));
    const int most = o->max_influences < skins ? o->max_influences : skins;
    m->influences = zalloc(sizeof *m->influences * ((size_t)n * (size_t)most + (size_t)o->zero_weights));
    int cursor = 0, zeros = o->zero_weights;
    for (int v = 0; v < n; ++v) {
        m->positions[v] = random3(r);
        m->normals[v] = random3(r);
        if (m->tangents) {
            ossa_float3 t = random3(r);
            m->tangents[v] = (ossa_float4){t.x, t.y, t.z, ts_int(r, 2) ? 1.0f : -1.0f};
        }
        if (m->colors)
            m->colors[v] = ts_u32(r);
        m->uvs[2 * v] = (float)ts_uniform(r, 0, 1);
        m->uvs[2 * v + 1] = (float)ts_uniform(r, 0, 1);
        m->offsets[v] = cursor;
        const int count = 1 + ts_int(r, most);
        for (int i = 0; i < count; ++i) {
            int joint;
            int fresh;
            do { /* distinct joints */
                joint = ts_int(r, skins);
                fresh = 1;
                for (int k = m->offsets[v]; k < cursor; ++k)
                    fresh &= m->influences[k].joint != joint;
            } while (!fresh);
            m->influences[cursor++] = (ossa_raw_influence){joint, (float)ts_uniform(r, 0.05, 1.0)};
        }
        if (zeros > 0 && ts_int(r, 4) == 0) {
            m->influences[cursor++] = (ossa_raw_influence){ts_int(r, skins), 0.0f};
            --zeros;
        }
    }
    m->offsets[n] = cursor;
    m->indices = zalloc(sizeof(uint32_t) * 3 * (size_t)o->triangles);
    for (int i = 0; i < 3 * o->triangles; ++i)
        m->indices[i] = (uint32_t)ts_int(r, n);

    ossa_raw_mesh *raw = &m->raw;
    raw->name = "random";
    raw->vertex_count = n;
    raw->positions = m->positions;
    raw->normals = m->normals;
    raw->tangents = m->tangents;
    raw->uvs = m->uvs;
    raw->colors = m->colors;
    raw->indices = m->indices;
    raw->index_count = 3 * o->triangles;
    raw->influence_offsets = m->offsets;
    raw->influences = m->influences;
    raw->skin_joints = m->skin_joints;
    raw->skin_joint_count = skins;
}

void ts_mesh_free(ts_mesh *m)
{
    ossa_skeleton_free(m->skeleton, NULL);
    void *blocks[] = {m->positions, m->normals, m->tangents, m->uvs, m->colors, m->indices,
                      m->offsets, m->influences, m->skin_joints, m->names};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        free(blocks[i]);
    memset(m, 0, sizeof *m);
}

ossa_mesh *ts_mesh_build(const ts_mesh *m, const ossa_mesh_build_options *options,
                         ossa_mesh_build_report *report)
{
    ossa_mesh *mesh = NULL;
    ossa_error e;
    if (ossa_mesh_build(&m->raw, m->skeleton, options, &mesh, report, &e) != OSSA_OK) {
        fprintf(stderr, "mesh_support: building the mesh failed: %s\n", e.message);
        return NULL;
    }
    return mesh;
}

void ts_random_palette(ts_rng *r, ossa_mat34 *palette, int count)
{
    for (int k = 0; k < count; ++k) {
        ts_dmat d = ts_dmat_from_transform(ts_transform(r, TS_SCALE_ANY));
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j)
                palette[k].m[i][j] = (float)d.m[i][j];
    }
}

typedef struct dinf {
    int joint;
    double weight;
} dinf;

static int heavier_first(const void *a, const void *b)
{
    const dinf *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight < y->weight ? 1 : -1;
    return (x->joint > y->joint) - (x->joint < y->joint);
}

void ts_mesh_reference_skin(const ts_mesh *m, int v, const ossa_mat34 *palette, double out[12])
{
    const ossa_raw_mesh *raw = &m->raw;
    dinf list[64];
    int n = 0;
    for (int i = raw->influence_offsets[v]; i < raw->influence_offsets[v + 1]; ++i) {
        const ossa_raw_influence in = raw->influences[i];
        if (in.weight == 0.0f)
            continue;
        int k = 0;
        while (k < n && list[k].joint != in.joint)
            ++k;
        if (k == n && n < 64)
            list[n++] = (dinf){in.joint, 0.0};
        if (k < n)
            list[k].weight += in.weight;
    }
    qsort(list, (size_t)n, sizeof *list, heavier_first);
    if (n > 4)
        n = 4;
    double sum = 0.0, mat[3][4] = {{0}};
    for (int k = 0; k < n; ++k)
        sum += list[k].weight;
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j)
                mat[i][j] += list[k].weight / sum * palette[list[k].joint].m[i][j];
    const ossa_float3 p = raw->positions[v], q = raw->normals[v];
    const double in[3][4] = {{p.x, p.y, p.z, 1.0},
                             {q.x, q.y, q.z, 0.0},
                             {raw->tangents ? raw->tangents[v].x : 0.0,
                              raw->tangents ? raw->tangents[v].y : 0.0,
                              raw->tangents ? raw->tangents[v].z : 0.0, 0.0}};
    for (int a = 0; a < 3; ++a) {
        for (int i = 0; i < 3; ++i)
            out[4 * a + i] = mat[i][0] * in[a][0] + mat[i][1] * in[a][1] +
                             mat[i][2] * in[a][2] + mat[i][3] * in[a][3];
        out[4 * a + 3] = in[a][3];
    }
    out[11] = raw->tangents ? (raw->tangents[v].w < 0.0f ? -1.0 : 1.0) : 0.0;
}

double ts_relative_error(const float *a, const double *b, int n)
{
    double worst = 0.0;
    for (int i = 0; i < n; ++i) {
        double e = fabs((double)a[i] - b[i]) / (1.0 + fabs(b[i]));
        if (!(e <= worst))
            worst = e; /* NaN propagates as a failure */
    }
    return worst;
}

const float *ts_mesh_stream_vertex(const ossa_mesh *mesh, int v)
{
    return ossa_mesh_bind_stream(mesh) + (size_t)v * (size_t)ossa_mesh_skinned_stride(mesh) / 4;
}

bool ts_mesh_vertex_is_source(const ts_mesh *m, int s, const float *x, bool tangents)
{
    const ossa_float3 p = m->positions[s], n = m->normals[s];
    bool same = x[0] == p.x && x[1] == p.y && x[2] == p.z && x[3] == 1.0f;
    same &= x[4] == n.x && x[5] == n.y && x[6] == n.z && x[7] == 0.0f;
    if (tangents) {
        const ossa_float4 t = m->tangents[s];
        same &= x[8] == t.x && x[9] == t.y && x[10] == t.z && x[11] == t.w;
    }
    return same;
}
