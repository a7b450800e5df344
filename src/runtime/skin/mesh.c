/* mesh.c - accessors for the runtime skinned mesh (validated by
 * blob/validate_mesh.c before anything reads it). */
#include <stddef.h>

#include "blob/format.h"
#include "ossa/mesh.h"

static const void *at(const ossa_mesh *mesh, uint32_t offset)
{
    return (const char *)mesh + offset;
}

const char *ossa_mesh_name(const ossa_mesh *mesh)
{
    return (const char *)at(mesh, mesh->name_offset);
}

int ossa_mesh_vertex_count(const ossa_mesh *mesh)
{
    return (int)mesh->vertex_count;
}

int ossa_mesh_triangle_count(const ossa_mesh *mesh)
{
    return (int)(mesh->index_count / 3u);
}

const uint32_t *ossa_mesh_indices(const ossa_mesh *mesh)
{
    return (const uint32_t *)at(mesh, mesh->indices_offset);
}

void ossa_mesh_influence_counts(const ossa_mesh *mesh, int counts[OSSA_MAX_INFLUENCES])
{
    for (int k = 0; k < OSSA_MAX_INFLUENCES; ++k)
        counts[k] = (int)mesh->group_counts[k];
}

bool ossa_mesh_has_tangents(const ossa_mesh *mesh)
{
    return (mesh->flags & OSSAI_MESH_HAS_TANGENTS) != 0;
}

int ossa_mesh_skinned_stride(const ossa_mesh *mesh)
{
    return (int)mesh->stride;
}

const float *ossa_mesh_bind_stream(const ossa_mesh *mesh)
{
    return (const float *)at(mesh, mesh->stream_offset);
}

const float *ossa_mesh_uvs(const ossa_mesh *mesh)
{
    return mesh->flags & OSSAI_MESH_HAS_UVS ? (const float *)at(mesh, mesh->uvs_offset) : NULL;
}

const uint32_t *ossa_mesh_colors(const ossa_mesh *mesh)
{
    return mesh->flags & OSSAI_MESH_HAS_COLORS ? (const uint32_t *)at(mesh, mesh->colors_offset)
                                                : NULL;
}

int ossa_mesh_skin_joint_count(const ossa_mesh *mesh)
{
    return (int)mesh->skin_joint_count;
}

const uint16_t *ossa_mesh_skin_joints(const ossa_mesh *mesh)
{
    return (const uint16_t *)at(mesh, mesh->skin_joints_offset);
}

const ossa_mat34 *ossa_mesh_inverse_binds(const ossa_mesh *mesh)
{
    return (const ossa_mat34 *)at(mesh, mesh->inverse_binds_offset);
}

const uint16_t *ossa_mesh_joints(const ossa_mesh *mesh)
{
    return (const uint16_t *)at(mesh, mesh->joints_offset);
}

const float *ossa_mesh_weights(const ossa_mesh *mesh)
{
    return (const float *)at(mesh, mesh->weights_offset);
}

int ossa_mesh_vertex_influences(const ossa_mesh *mesh, int vertex,
                                uint16_t joints[OSSA_MAX_INFLUENCES],
                                float weights[OSSA_MAX_INFLUENCES])
{
    if (vertex < 0 || (uint32_t)vertex >= mesh->vertex_count)
        return 0;
    uint32_t first = 0;
    for (int g = 1; g <= OSSA_MAX_INFLUENCES; ++g) {
        const uint32_t count = mesh->group_counts[g - 1];
        if ((uint32_t)vertex - first >= count) {
            first += count;
            continue;
        }
        const uint64_t i = (uint64_t)vertex - first;
        const uint16_t *j = ossa_mesh_joints(mesh) + ossai_mesh_joints_before(mesh->group_counts, g) +
                            i * (uint64_t)g;
        const float *w = ossa_mesh_weights(mesh) +
                         ossai_mesh_weights_before(mesh->group_counts, g) + i * (uint64_t)(g - 1);
        float last = 1.0f;
        for (int k = 0; k < g; ++k) {
            joints[k] = j[k];
            if (k + 1 < g) {
                weights[k] = w[k];
                last -= w[k];
            }
        }
        weights[g - 1] = last;
        return g;
    }
    return 0;
}

const uint32_t *ossa_mesh_source_vertices(const ossa_mesh *mesh)
{
    return (const uint32_t *)at(mesh, mesh->source_offset);
}

size_t ossa_mesh_bytes(const ossa_mesh *mesh)
{
    return mesh->bytes;
}
