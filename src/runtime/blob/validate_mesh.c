/* validate_mesh.c - the mesh section's validator, which checks every count,
 * offset and value before anything reads the section. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "blob/format.h"
#include "blob/validate_internal.h"
#include "ossa/mesh.h"

/* ---- validation ---- */

static const char *const where = "mesh";

static const void *at(const ossa_mesh *mesh, uint32_t offset)
{
    return (const char *)mesh + offset;
}

static ossa_result check_arrays(const ossa_mesh *m, uint64_t joints, uint64_t weights,
                                ossa_error *error)
{
    const uint64_t limit = m->bytes, n = m->vertex_count, skins = m->skin_joint_count;
    ossa_result r;
    if ((r = ossai_check_array(limit, m->stream_offset, n, m->stride, OSSAI_MESH_STREAM_ALIGN,
                               where, "skinned stream", error)) ||
        (r = ossai_check_array(limit, m->joints_offset, joints, 2, 2, where, "joints", error)) ||
        (r = ossai_check_array(limit, m->weights_offset, weights, 4, 4, where, "weights",
                               error)) ||
        (r = ossai_check_array(limit, m->indices_offset, m->index_count, 4, 4, where, "indices",
                               error)) ||
        (r = ossai_check_array(limit, m->skin_joints_offset, skins, 2, 2, where, "skin joints",
                               error)) ||
        (r = ossai_check_array(limit, m->inverse_binds_offset, skins, sizeof(ossa_mat34), 16,
                               where, "inverse bind matrices", error)) ||
        (r = ossai_check_array(limit, m->source_offset, n, 4, 4, where, "source vertex map",
                               error)) ||
        (r = ossai_check_array(limit, m->name_offset, m->name_bytes, 1, 1, where, "name",
                               error)))
        return r;
    if (m->flags & OSSAI_MESH_HAS_UVS) {
        if ((r = ossai_check_array(limit, m->uvs_offset, n, 8, 4, where, "uvs", error)))
            return r;
    } else if (m->uvs_offset != 0) {
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_mesh, uvs_offset),
                              "%s: uvs_offset = %u but the mesh has no uvs", where,
                              m->uvs_offset);
    }
    if (m->flags & OSSAI_MESH_HAS_COLORS) {
        if ((r = ossai_check_array(limit, m->colors_offset, n, 4, 4, where, "colours", error)))
            return r;
    } else if (m->colors_offset != 0) {
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_mesh, colors_offset),
                              "%s: colors_offset = %u but the mesh has no colours", where,
                              m->colors_offset);
    }
    return OSSA_OK;
}

static int finite4(const float *v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]) && isfinite(v[3]);
}

static ossa_result check_stream(const ossa_mesh *m, ossa_error *error)
{
    static const char *const attribute[3] = {"position", "normal", "tangent"};
    const float *stream = (const float *)at(m, m->stream_offset);
    const uint32_t floats = m->stride / 4u;
    for (uint32_t v = 0; v < m->vertex_count; ++v) {
        const float *x = stream + (size_t)v * floats;
        for (uint32_t a = 0; a < floats / 4u; ++a) {
            const float *f = x + 4 * a;
            const int w_ok = a == 0 ? f[3] == 1.0f : a == 1 ? f[3] == 0.0f
                                                            : (f[3] == 1.0f || f[3] == -1.0f);
            if (!finite4(f) || !w_ok)
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)v,
                                      (int64_t)m->stream_offset + (int64_t)v * m->stride + 16 * a,
                                      "%s: vertex %u's %s (%g, %g, %g, %g) is not finite or its "
                                      "w is not %s",
                                      where, v, attribute[a], (double)f[0], (double)f[1],
                                      (double)f[2], (double)f[3],
                                      a == 0 ? "1" : a == 1 ? "0" : "+1 or -1");
        }
    }
    return OSSA_OK;
}

static ossa_result check_influences(const ossa_mesh *m, ossa_error *error)
{
    const uint16_t *joints = (const uint16_t *)at(m, m->joints_offset);
    const float *weights = (const float *)at(m, m->weights_offset);
    uint32_t vertex = 0;
    uint64_t j = 0, w = 0;
    for (int g = 1; g <= OSSA_MAX_INFLUENCES; ++g) {
        for (uint32_t i = 0; i < m->group_counts[g - 1]; ++i, ++vertex) {
            for (int k = 0; k < g; ++k, ++j)
                if (joints[j] >= m->skin_joint_count)
                    return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)vertex,
                                          (int64_t)(m->joints_offset + 2 * j),
                                          "%s: vertex %u's influence %d names skin joint %u, "
                                          "there are %u",
                                          where, vertex, k, joints[j], m->skin_joint_count);
            float sum = 0.0f;
            for (int k = 0; k + 1 < g; ++k, ++w) {
                const float x = weights[w];
                if (!(x >= 0.0f && x <= 1.0f))
                    return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)vertex,
                                          (int64_t)(m->weights_offset + 4 * w),
                                          "%s: vertex %u's weight %d is %g, not a finite value "
                                          "in [0, 1]",
                                          where, vertex, k, (double)x);
                sum += x;
            }
            if (!(sum <= 1.0f + OSSAI_WEIGHT_SUM_TOLERANCE))
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)vertex,
                                      (int64_t)(m->weights_offset + 4 * (w - (uint64_t)(g - 1))),
                                      "%s: vertex %u's %d stored weights sum to %.7g, more "
                                      "than 1 (the weights are not normalised)",
                                      where, vertex, g - 1, (double)sum);
        }
    }
    return OSSA_OK;
}

static ossa_result check_tables(const ossa_mesh *m, const ossa_skeleton *skeleton,
                                ossa_error *error)
{
    const uint32_t *indices = (const uint32_t *)at(m, m->indices_offset);
    for (uint32_t i = 0; i < m->index_count; ++i)
        if (indices[i] >= m->vertex_count)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)(i / 3u),
                                  (int64_t)m->indices_offset + 4 * (int64_t)i,
                                  "%s: triangle %u refers to vertex %u, there are %u", where,
                                  i / 3u, indices[i], m->vertex_count);
    const uint32_t *source = (const uint32_t *)at(m, m->source_offset);
    for (uint32_t v = 0; v < m->vertex_count; ++v)
        if (source[v] >= m->vertex_count)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)v,
                                  (int64_t)m->source_offset + 4 * (int64_t)v,
                                  "%s: vertex %u maps to source vertex %u, there are %u", where,
                                  v, source[v], m->vertex_count);
    const uint16_t *skin = (const uint16_t *)at(m, m->skin_joints_offset);
    const ossa_mat34 *inverse = (const ossa_mat34 *)at(m, m->inverse_binds_offset);
    const uint32_t joints = skeleton ? skeleton->joint_count : 65535u;
    for (uint32_t k = 0; k < m->skin_joint_count; ++k) {
        if (skin[k] >= joints)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k,
                                  (int64_t)m->skin_joints_offset + 2 * (int64_t)k,
                                  "%s: skin joint %u binds skeleton joint %u, the skeleton has "
                                  "%u joints",
                                  where, k, skin[k], joints);
        const float *f = &inverse[k].m[0][0];
        if (!finite4(f) || !finite4(f + 4) || !finite4(f + 8))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)k,
                                  (int64_t)m->inverse_binds_offset +
                                      (int64_t)sizeof(ossa_mat34) * k,
                                  "%s: skin joint %u's inverse bind matrix is not finite", where,
                                  k);
    }
    if (m->flags & OSSAI_MESH_HAS_UVS) {
        const float *uv = (const float *)at(m, m->uvs_offset);
        for (uint32_t v = 0; v < m->vertex_count; ++v)
            if (!isfinite(uv[2 * v]) || !isfinite(uv[2 * v + 1]))
                return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)v,
                                      (int64_t)m->uvs_offset + 8 * (int64_t)v,
                                      "%s: vertex %u's uv is not finite", where, v);
    }
    return OSSA_OK;
}

ossa_result ossai_mesh_validate_section(const void *data, size_t bytes,
                                        const ossa_skeleton *skeleton, ossa_error *error)
{
    ossa_result r;
    if ((r = ossai_check_section_start(data, bytes, sizeof(ossa_mesh), OSSAI_TAG_MESH, where,
                                       error)))
        return r;
    const ossa_mesh *m = (const ossa_mesh *)data;
    if (m->flags & ~OSSAI_MESH_FLAGS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, (int64_t)offsetof(ossa_mesh, flags),
                              "%s: unknown flags 0x%x", where, m->flags);
    const uint32_t stride = m->flags & OSSAI_MESH_HAS_TANGENTS ? 48u : 32u;
    if (m->stride != stride)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, (int64_t)offsetof(ossa_mesh, stride),
                              "%s: stride = %u, expected %u for a mesh %s tangents", where,
                              m->stride, stride,
                              m->flags & OSSAI_MESH_HAS_TANGENTS ? "with" : "without");
    uint64_t sum = 0;
    for (int k = 0; k < OSSA_MAX_INFLUENCES; ++k)
        sum += m->group_counts[k];
    if (m->vertex_count == 0 || m->vertex_count > INT32_MAX || sum != m->vertex_count)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_mesh, vertex_count),
                              "%s: vertex_count = %u but the influence groups hold %u + %u + "
                              "%u + %u = %llu vertices",
                              where, m->vertex_count, m->group_counts[0], m->group_counts[1],
                              m->group_counts[2], m->group_counts[3], (unsigned long long)sum);
    if (m->index_count < 3 || m->index_count % 3 != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_mesh, index_count),
                              "%s: index_count = %u, not a positive multiple of 3", where,
                              m->index_count);
    if (m->skin_joint_count == 0 || m->skin_joint_count > 65535u)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                              (int64_t)offsetof(ossa_mesh, skin_joint_count),
                              "%s: skin_joint_count = %u, must be 1..65535", where,
                              m->skin_joint_count);
    if (m->reserved[0] != 0 || m->reserved[1] != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, (int64_t)offsetof(ossa_mesh, reserved),
                              "%s: reserved fields are not zero", where);
    r = check_arrays(m, ossai_mesh_joints_before(m->group_counts, 5),
                                 ossai_mesh_weights_before(m->group_counts, 5), error);
    if (r)
        return r;
    if (m->name_bytes == 0 || ((const char *)m)[m->name_offset + m->name_bytes - 1] != '\0')
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, m->name_offset,
                              "%s: the name does not end with a NUL", where);
    if ((r = check_stream(m, error)) || (r = check_influences(m, error)) ||
        (r = check_tables(m, skeleton, error)))
        return r;
    return OSSA_OK;
}

ossa_result ossa_mesh_validate(const void *data, size_t bytes, const ossa_skeleton *skeleton,
                               const ossa_mesh **out, ossa_error *error)
{
    if (out)
        *out = NULL;
    ossa_result r = ossai_mesh_validate_section(data, bytes, skeleton, error);
    if (r == OSSA_OK && out)
        *out = (const ossa_mesh *)data;
    return r;
}
