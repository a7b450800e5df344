/* mesh_builder.c - raw skinned mesh -> runtime mesh section: influences
 * cleaned (zeros dropped, duplicates merged, reduced to the 4 largest,
 * renormalised), vertices grouped by influence count, streams split. */
#include "ossa/mesh_builder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blob/format.h"
#include "core/math_internal.h"

#define WEIGHT_SUM_SLACK 1e-3 /* a source sum further than this from 1 is reported */

typedef struct name_ref {
    const char *name;
    int index;
} name_ref;

static int compare_names(const void *a, const void *b)
{
    return strcmp(((const name_ref *)a)->name, ((const name_ref *)b)->name);
}

static int compare_by_joint(const void *a, const void *b)
{
    const ossa_raw_influence *x = a, *y = b;
    return (x->joint > y->joint) - (x->joint < y->joint);
}

/* Heavier first; equal weights by joint, so the result does not depend on
 * the source's order. */
static int compare_by_weight(const void *a, const void *b)
{
    const ossa_raw_influence *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight < y->weight ? 1 : -1;
    return (x->joint > y->joint) - (x->joint < y->joint);
}

/* One vertex's cleaned influences. */
typedef struct kept {
    uint16_t joints[OSSA_MAX_INFLUENCES];
    float weights[OSSA_MAX_INFLUENCES];
    int count;
} kept;

typedef struct builder {
    const ossa_raw_mesh *raw;
    const char *name;
    const ossa_allocator *allocator;
    ossa_mesh_build_report report;
    ossa_error *error;
} builder;

static ossa_result fail_vertex(builder *b, ossa_result code, int v, const char *what)
{
    return ossa_error_set(b->error, code, v, -1, "mesh '%s': vertex %d %s", b->name, v, what);
}

static ossa_result check_inputs(builder *b, const ossa_skeleton *skeleton)
{
    const ossa_raw_mesh *raw = b->raw;
    if (!skeleton)
        return ossa_error_set(b->error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "mesh '%s': no skeleton to bind the skin joints to", b->name);
    if (raw->vertex_count <= 0 || raw->index_count <= 0)
        return ossa_error_set(b->error, OSSA_ERR_MESH_EMPTY, -1, -1,
                              "mesh '%s': %d vertices and %d indices; it needs both", b->name,
                              raw->vertex_count, raw->index_count);
    if (!raw->positions || !raw->normals || !raw->indices || !raw->influence_offsets ||
        !raw->influences || !raw->skin_joints)
        return ossa_error_set(b->error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "mesh '%s': positions, normals, indices, influence_offsets, "
                              "influences and skin_joints are all required",
                              b->name);
    if (raw->index_count % 3 != 0)
        return ossa_error_set(b->error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                              "mesh '%s': %d indices is not a whole number of triangles",
                              b->name, raw->index_count);
    if (raw->skin_joint_count <= 0)
        return ossa_error_set(b->error, OSSA_ERR_MESH_BAD_JOINT, -1, -1,
                              "mesh '%s': it has no skin joints", b->name);
    if (raw->skin_joint_count > 65535)
        return ossa_error_set(b->error, OSSA_ERR_MESH_TOO_LARGE, -1, -1,
                              "mesh '%s': %d skin joints, at most 65535 fit", b->name,
                              raw->skin_joint_count);
    return OSSA_OK;
}

/* Skin joint k -> skeleton joint, by name (sorted lookup). */
static ossa_result map_skin_joints(builder *b, const ossa_skeleton *skeleton, uint16_t *out)
{
    const ossa_raw_mesh *raw = b->raw;
    const int joints = ossa_skeleton_joint_count(skeleton);
    name_ref *names = ossa_alloc(b->allocator, sizeof *names * (size_t)joints, 16);
    if (!names)
        return ossa_error_set(b->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "mesh '%s': out of memory", b->name);
    for (int j = 0; j < joints; ++j)
        names[j] = (name_ref){ossa_skeleton_joint_name(skeleton, j), j};
    qsort(names, (size_t)joints, sizeof *names, compare_names);
    ossa_result r = OSSA_OK;
    for (int k = 0; k < raw->skin_joint_count && r == OSSA_OK; ++k) {
        const ossa_raw_skin_joint *s = &raw->skin_joints[k];
        const name_ref key = {s->name, 0};
        const name_ref *found =
            s->name ? bsearch(&key, names, (size_t)joints, sizeof *names, compare_names) : NULL;
        const float *m = &s->inverse_bind.m[0][0];
        int finite = 1;
        for (int e = 0; e < 12; ++e)
            finite &= isfinite(m[e]) != 0;
        if (!found)
            r = ossa_error_set(b->error, OSSA_ERR_MESH_BAD_JOINT, k, -1,
                               "mesh '%s': skin joint %d ('%s') is not a joint of the skeleton",
                               b->name, k, s->name ? s->name : "(no name)");
        else if (!finite)
            r = ossa_error_set(b->error, OSSA_ERR_BAD_VALUE, k, -1,
                               "mesh '%s': skin joint %d ('%s') has a non-finite inverse bind "
                               "matrix",
                               b->name, k, s->name);
        else
            out[k] = (uint16_t)found->index;
    }
    ossa_free(b->allocator, names);
    return r;
}

static int finite3(ossa_float3 v)
{
    return ossai_isfinite3(v);
}

/* Checks vertex v's attributes. */
static ossa_result check_vertex(builder *b, int v, bool tangents)
{
    const ossa_raw_mesh *raw = b->raw;
    if (!finite3(raw->positions[v]))
        return fail_vertex(b, OSSA_ERR_BAD_VALUE, v, "has a non-finite position");
    if (!finite3(raw->normals[v]))
        return fail_vertex(b, OSSA_ERR_BAD_VALUE, v, "has a non-finite normal");
    if (tangents) {
        const ossa_float4 t = raw->tangents[v];
        if (!isfinite(t.x) || !isfinite(t.y) || !isfinite(t.z) || !isfinite(t.w))
            return fail_vertex(b, OSSA_ERR_BAD_VALUE, v, "has a non-finite tangent");
    }
    if (raw->uvs && (!isfinite(raw->uvs[2 * v]) || !isfinite(raw->uvs[2 * v + 1])))
        return fail_vertex(b, OSSA_ERR_BAD_VALUE, v, "has a non-finite uv");
    return OSSA_OK;
}

/* Cleans vertex v's influences into *k; scratch holds at least as many
 * influences as the vertex has. */
static ossa_result clean_influences(builder *b, int v, ossa_raw_influence *scratch, kept *k)
{
    const ossa_raw_mesh *raw = b->raw;
    const int first = raw->influence_offsets[v], end = raw->influence_offsets[v + 1];
    int n = 0;
    double total = 0.0;
    for (int i = first; i < end; ++i) {
        const ossa_raw_influence in = raw->influences[i];
        if (in.joint < 0 || in.joint >= raw->skin_joint_count)
            return ossa_error_set(b->error, OSSA_ERR_MESH_BAD_JOINT, v, -1,
                                  "mesh '%s': vertex %d's influence %d names skin joint %d, "
                                  "there are %d",
                                  b->name, v, i - first, in.joint, raw->skin_joint_count);
        if (!isfinite(in.weight) || in.weight < 0.0f)
            return ossa_error_set(b->error, OSSA_ERR_MESH_BAD_WEIGHTS, v, -1,
                                  "mesh '%s': vertex %d's influence %d has weight %g, not a "
                                  "finite value >= 0",
                                  b->name, v, i - first, (double)in.weight);
        if (in.weight == 0.0f) {
            b->report.dropped_zero_weights++;
            continue;
        }
        scratch[n++] = in;
        total += in.weight;
    }
    if (n == 0)
        return fail_vertex(b, OSSA_ERR_MESH_BAD_WEIGHTS, v, "has no influence with a positive "
                                                        "weight");
    /* The same joint listed twice counts once with the weights added. */
    qsort(scratch, (size_t)n, sizeof *scratch, compare_by_joint);
    int merged = 0;
    for (int i = 0; i < n; ++i) {
        if (merged > 0 && scratch[merged - 1].joint == scratch[i].joint) {
            scratch[merged - 1].weight += scratch[i].weight;
            b->report.merged_influences++;
        } else {
            scratch[merged++] = scratch[i];
        }
    }
    n = merged;
    qsort(scratch, (size_t)n, sizeof *scratch, compare_by_weight);
    if (n > OSSA_MAX_INFLUENCES) {
        b->report.reduced_vertices++;
        const float dropped = (float)(scratch[OSSA_MAX_INFLUENCES].weight / total);
        if (dropped > b->report.largest_dropped_weight)
            b->report.largest_dropped_weight = dropped;
        n = OSSA_MAX_INFLUENCES;
    }
    if (fabs(total - 1.0) > WEIGHT_SUM_SLACK)
        b->report.renormalized_vertices++;
    double kept_sum = 0.0;
    for (int i = 0; i < n; ++i)
        kept_sum += scratch[i].weight;
    k->count = n;
    for (int i = 0; i < n; ++i) {
        k->joints[i] = (uint16_t)scratch[i].joint;
        k->weights[i] = (float)(scratch[i].weight / kept_sum);
    }
    return OSSA_OK;
}

static uint64_t align(uint64_t v, uint64_t a)
{
    return (v + a - 1) / a * a;
}

typedef struct layout {
    uint64_t stream, joints, weights, indices, uvs, colors, skin_joints, inverse_binds, source,
        name, total;
} layout;

static layout plan(const ossa_raw_mesh *raw, uint32_t stride, const uint32_t counts[4],
                   size_t name_bytes)
{
    const uint64_t n = (uint64_t)raw->vertex_count, skins = (uint64_t)raw->skin_joint_count;
    layout l;
    l.stream = align(sizeof(ossa_mesh), OSSAI_MESH_STREAM_ALIGN);
    l.joints = align(l.stream + n * stride, 16);
    l.weights = align(l.joints + 2 * ossai_mesh_joints_before(counts, 5), 16);
    l.indices = align(l.weights + 4 * ossai_mesh_weights_before(counts, 5), 16);
    uint64_t cursor = l.indices + 4 * (uint64_t)raw->index_count;
    l.uvs = raw->uvs ? align(cursor, 16) : 0;
    cursor = raw->uvs ? l.uvs + 8 * n : cursor;
    l.colors = raw->colors ? align(cursor, 16) : 0;
    cursor = raw->colors ? l.colors + 4 * n : cursor;
    l.skin_joints = align(cursor, 16);
    l.inverse_binds = align(l.skin_joints + 2 * skins, 16);
    l.source = align(l.inverse_binds + sizeof(ossa_mat34) * skins, 16);
    l.name = l.source + 4 * n;
    l.total = align(l.name + name_bytes, 64);
    return l;
}

static void fill(ossa_mesh *m, const layout *l, const ossa_raw_mesh *raw, bool tangents,
                 const kept *influences, const uint32_t *runtime_of, const uint32_t *source_of,
                 const uint16_t *skin_joints, const char *name, size_t name_bytes)
{
    char *base = (char *)m;
    const int n = raw->vertex_count;
    float *stream = (float *)(void *)(base + l->stream);
    uint16_t *joints = (uint16_t *)(void *)(base + l->joints);
    float *weights = (float *)(void *)(base + l->weights);
    const size_t floats = m->stride / 4u;
    for (int r = 0; r < n; ++r) { /* runtime order: groups are contiguous */
        const int v = (int)source_of[r];
        float *s = stream + (size_t)r * floats;
        const ossa_float3 p = raw->positions[v], q = raw->normals[v];
        s[0] = p.x, s[1] = p.y, s[2] = p.z, s[3] = 1.0f;
        s[4] = q.x, s[5] = q.y, s[6] = q.z, s[7] = 0.0f;
        if (tangents) {
            const ossa_float4 t = raw->tangents[v];
            s[8] = t.x, s[9] = t.y, s[10] = t.z, s[11] = t.w < 0.0f ? -1.0f : 1.0f;
        }
        const kept *k = &influences[v];
        for (int i = 0; i < k->count; ++i)
            *joints++ = k->joints[i];
        for (int i = 0; i + 1 < k->count; ++i)
            *weights++ = k->weights[i];
    }
    uint32_t *indices = (uint32_t *)(void *)(base + l->indices);
    for (int i = 0; i < raw->index_count; ++i)
        indices[i] = runtime_of[raw->indices[i]];
    if (raw->uvs) {
        float *uvs = (float *)(void *)(base + l->uvs);
        for (int r = 0; r < n; ++r)
            memcpy(uvs + 2 * (size_t)r, raw->uvs + 2 * (size_t)source_of[r], 2 * sizeof(float));
    }
    if (raw->colors) {
        uint32_t *colors = (uint32_t *)(void *)(base + l->colors);
        for (int r = 0; r < n; ++r)
            colors[r] = raw->colors[source_of[r]];
    }
    memcpy(base + l->skin_joints, skin_joints, 2 * (size_t)raw->skin_joint_count);
    ossa_mat34 *inverse = (ossa_mat34 *)(void *)(base + l->inverse_binds);
    for (int k = 0; k < raw->skin_joint_count; ++k)
        inverse[k] = raw->skin_joints[k].inverse_bind;
    memcpy(base + l->source, source_of, 4 * (size_t)n);
    memcpy(base + l->name, name, name_bytes);
}

ossa_result ossa_mesh_build(const ossa_raw_mesh *raw, const ossa_skeleton *skeleton,
                            const ossa_mesh_build_options *options, ossa_mesh **out,
                            ossa_mesh_build_report *report, ossa_error *error)
{
    static const ossa_mesh_build_options defaults;
    if (!options)
        options = &defaults;
    builder b;
    memset(&b, 0, sizeof b);
    b.raw = raw;
    b.allocator = &options->allocator;
    b.error = error;
    b.name = raw && raw->name ? raw->name : "";
    ossa_error_clear(error);
    if (report)
        memset(report, 0, sizeof *report);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "mesh: no output");
    *out = NULL;
    if (!raw)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "mesh: no raw mesh");
    ossa_result r = check_inputs(&b, skeleton);
    if (r != OSSA_OK)
        return r;

    const int n = raw->vertex_count;
    const bool tangents = raw->tangents && !options->no_tangents;
    int most = 0; /* most influences listed for one vertex */
    if (raw->influence_offsets[0] < 0)
        return fail_vertex(&b, OSSA_ERR_BAD_ARGUMENT, 0, "has a negative influence offset");
    for (int v = 0; v < n; ++v) {
        if (raw->influence_offsets[v + 1] < raw->influence_offsets[v])
            return fail_vertex(&b, OSSA_ERR_BAD_ARGUMENT, v,
                               "has influence offsets that decrease");
        const int count = raw->influence_offsets[v + 1] - raw->influence_offsets[v];
        if (count > most)
            most = count;
    }

    kept *influences = ossa_alloc(b.allocator, sizeof(kept) * (size_t)n, 16);
    ossa_raw_influence *scratch =
        ossa_alloc(b.allocator, sizeof(ossa_raw_influence) * (size_t)(most > 0 ? most : 1), 16);
    uint32_t *runtime_of = ossa_alloc(b.allocator, sizeof(uint32_t) * (size_t)n, 16);
    uint32_t *source_of = ossa_alloc(b.allocator, sizeof(uint32_t) * (size_t)n, 16);
    uint16_t *skin_joints =
        ossa_alloc(b.allocator, sizeof(uint16_t) * (size_t)raw->skin_joint_count, 16);
    uint32_t *joint_start =
        ossa_alloc(b.allocator, sizeof(uint32_t) * ((size_t)raw->skin_joint_count + 1), 16);
    ossa_mesh *m = NULL;
    if (joint_start)
        memset(joint_start, 0, sizeof(uint32_t) * ((size_t)raw->skin_joint_count + 1));
    if (!influences || !scratch || !runtime_of || !source_of || !skin_joints || !joint_start) {
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                           "mesh '%s': out of memory for %d vertices", b.name, n);
        goto fail;
    }
    if ((r = map_skin_joints(&b, skeleton, skin_joints)))
        goto fail;
    for (int v = 0; v < n; ++v)
        if ((r = check_vertex(&b, v, tangents)) ||
            (r = clean_influences(&b, v, scratch, &influences[v])))
            goto fail;
    for (int i = 0; i < raw->index_count; ++i)
        if (raw->indices[i] >= (uint32_t)n) {
            r = ossa_error_set(error, OSSA_ERR_MESH_BAD_INDEX, i / 3, -1,
                               "mesh '%s': triangle %d refers to vertex %u, there are %d",
                               b.name, i / 3, raw->indices[i], n);
            goto fail;
        }

    /* Group by influence count, keeping the source order inside a group,
     * except that 1-influence vertices are ordered by joint: runs that share
     * one matrix, which a kernel can transform without blending or re-deriving
     * it (group 1 starts at 0, so joint_start[k] is a runtime index). */
    uint32_t counts[OSSA_MAX_INFLUENCES] = {0, 0, 0, 0}, next[OSSA_MAX_INFLUENCES];
    for (int v = 0; v < n; ++v) {
        counts[influences[v].count - 1]++;
        if (influences[v].count == 1)
            joint_start[influences[v].joints[0] + 1]++;
    }
    for (int k = 0; k < raw->skin_joint_count; ++k)
        joint_start[k + 1] += joint_start[k];
    next[0] = 0;
    for (int g = 1; g < OSSA_MAX_INFLUENCES; ++g)
        next[g] = next[g - 1] + counts[g - 1];
    for (int v = 0; v < n; ++v) {
        const kept *k = &influences[v];
        const uint32_t at = k->count == 1 ? joint_start[k->joints[0]]++ : next[k->count - 1]++;
        runtime_of[v] = at;
        source_of[at] = (uint32_t)v;
    }

    const size_t name_bytes = strlen(b.name) + 1;
    const uint32_t stride = tangents ? 48u : 32u;
    const layout l = plan(raw, stride, counts, name_bytes);
    if (l.total > UINT32_MAX) {
        r = ossa_error_set(error, OSSA_ERR_MESH_TOO_LARGE, -1, -1,
                           "mesh '%s': %d vertices and %d indices need %llu bytes, more than a "
                           "section holds",
                           b.name, n, raw->index_count, (unsigned long long)l.total);
        goto fail;
    }
    m = l.total <= SIZE_MAX ? ossa_alloc(b.allocator, (size_t)l.total, 64) : NULL;
    if (!m) {
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                           "mesh '%s': out of memory for %llu bytes", b.name,
                           (unsigned long long)l.total);
        goto fail;
    }
    memset(m, 0, (size_t)l.total);
    m->tag = OSSAI_TAG_MESH;
    m->bytes = (uint32_t)l.total;
    m->vertex_count = (uint32_t)n;
    m->index_count = (uint32_t)raw->index_count;
    memcpy(m->group_counts, counts, sizeof counts);
    m->flags = (tangents ? OSSAI_MESH_HAS_TANGENTS : 0u) | (raw->uvs ? OSSAI_MESH_HAS_UVS : 0u) |
               (raw->colors ? OSSAI_MESH_HAS_COLORS : 0u);
    m->stride = stride;
    m->skin_joint_count = (uint32_t)raw->skin_joint_count;
    m->stream_offset = (uint32_t)l.stream;
    m->joints_offset = (uint32_t)l.joints;
    m->weights_offset = (uint32_t)l.weights;
    m->indices_offset = (uint32_t)l.indices;
    m->uvs_offset = (uint32_t)l.uvs;
    m->colors_offset = (uint32_t)l.colors;
    m->skin_joints_offset = (uint32_t)l.skin_joints;
    m->inverse_binds_offset = (uint32_t)l.inverse_binds;
    m->source_offset = (uint32_t)l.source;
    m->name_offset = (uint32_t)l.name;
    m->name_bytes = (uint32_t)name_bytes;
    fill(m, &l, raw, tangents, influences, runtime_of, source_of, skin_joints, b.name,
         name_bytes);

    b.report.vertex_count = n;
    b.report.triangle_count = raw->index_count / 3;
    for (int g = 0; g < OSSA_MAX_INFLUENCES; ++g)
        b.report.influence_histogram[g] = (int)counts[g];
    b.report.skin_joint_count = raw->skin_joint_count;
    if (report)
        *report = b.report;
    *out = m;
    m = NULL;

fail:
    ossa_free(b.allocator, m);
    ossa_free(b.allocator, influences);
    ossa_free(b.allocator, scratch);
    ossa_free(b.allocator, runtime_of);
    ossa_free(b.allocator, source_of);
    ossa_free(b.allocator, skin_joints);
    ossa_free(b.allocator, joint_start);
    return r;
}

void ossa_mesh_free(ossa_mesh *mesh, const ossa_allocator *allocator)
{
    ossa_free(allocator, mesh);
}
