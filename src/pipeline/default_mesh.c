/* default_mesh.c - the default character's body, built: the mesher's
 * memory, the rest-pose bones (default_mesh_weights.c), the parts
 * (default_mesh_shape.c), the skin joints the vertices use, and the mesh
 * builder. About 5,000 triangles, one to four influences per vertex. */
#include "default_mesh.h"

#include <string.h>

#include "default_mesher.h"

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
    if (!ossai_mesher_bones(m, model)) {
        r = ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1,
                           "default mesh: the skeleton's rest pose is invalid");
        goto fail;
    }
    m->offsets[0] = 0;
    ossai_mesher_body(m);
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
