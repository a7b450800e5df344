/* import_mesh.c - assimp meshes -> raw meshes: skinned meshes with their
 * bones as skin joints, rigid meshes bound whole to the joint that carries
 * them, and one-vertex-per-corner meshes (FBX) welded back together. */
#include <assimp/scene.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "import_internal.h"

#define OOM(sc) ossa_error_set((sc)->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, \
                               "%s: out of memory for the meshes", (sc)->path)

static uint32_t rgba8(const struct aiColor4D *c)
{
    const float v[4] = {c->r, c->g, c->b, c->a};
    uint32_t out = 0;
    for (int i = 0; i < 4; ++i) {
        float x = v[i] * 255.0f + 0.5f;
        x = x < 0.0f ? 0.0f : (x > 255.0f ? 255.0f : x);
        out |= (uint32_t)x << (8 * i);
    }
    return out;
}

static bool finite3(const struct aiVector3D *v)
{
    return isfinite(v->x) && isfinite(v->y) && isfinite(v->z);
}

/* Influences from the bones, as offsets + list (bones in order, so each
 * vertex's influences are sorted by skin joint). */
static ossa_result gather_influences(ossai_scene *sc, const struct aiMesh *mesh,
                                     ossa_raw_mesh *out)
{
    const unsigned n = mesh->mNumVertices;
    int *offsets = ossai_import_alloc(sc->im, (size_t)n + 1, sizeof(int));
    if (!offsets)
        return OOM(sc);
    size_t total = 0;
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
        const struct aiBone *bone = mesh->mBones[b];
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const struct aiVertexWeight *vw = &bone->mWeights[w];
            if (vw->mVertexId >= n || !isfinite(vw->mWeight) || vw->mWeight < 0.0f)
                return ossa_error_set(sc->error, OSSA_ERR_BAD_VALUE, (int)vw->mVertexId, -1,
                                      "%s: mesh '%s': bone '%s' weight %u names vertex %u of "
                                      "%u with weight %g",
                                      sc->path, mesh->mName.data, bone->mName.data, w,
                                      vw->mVertexId, n, (double)vw->mWeight);
            offsets[vw->mVertexId + 1]++;
            ++total;
        }
    }
    if (total > INT32_MAX)
        return ossa_error_set(sc->error, OSSA_ERR_MESH_TOO_LARGE, -1, -1,
                              "%s: mesh '%s' has %zu influences", sc->path, mesh->mName.data,
                              total);
    for (unsigned v = 0; v < n; ++v)
        offsets[v + 1] += offsets[v];
    ossa_raw_influence *list = ossai_import_alloc(sc->im, total + 1, sizeof *list);
    int *fill = ossai_import_alloc(sc->im, (size_t)n + 1, sizeof(int));
    if (!list || !fill)
        return OOM(sc);
    memcpy(fill, offsets, sizeof(int) * n);
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
        const struct aiBone *bone = mesh->mBones[b];
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const struct aiVertexWeight *vw = &bone->mWeights[w];
            list[fill[vw->mVertexId]++] = (ossa_raw_influence){(int)b, vw->mWeight};
        }
    }
    out->influence_offsets = offsets;
    out->influences = list;
    return OSSA_OK;
}

static ossa_result gather_skin(ossai_scene *sc, const struct aiMesh *mesh, int rigid_node,
                               ossa_raw_mesh *out)
{
    const unsigned bones = mesh->mNumBones;
    ossa_raw_skin_joint *skin =
        ossai_import_alloc(sc->im, bones ? bones : 1u, sizeof *skin);
    if (!skin)
        return OOM(sc);
    const float s = (float)sc->scale;
    if (bones == 0) {
        /* A rigid mesh: one skin joint, the joint carrying the node, with the
         * node's transform relative to that joint; every vertex weight 1. */
        int joint = rigid_node;
        while (joint >= 0 && !sc->nodes[joint].selected)
            joint = sc->nodes[joint].parent;
        skin[0].name = ossai_import_strdup(sc->im, sc->nodes[joint].name);
        const ossai_dmat rel = joint == rigid_node ? ossai_dmat_identity()
                                                   : ossai_node_joint_local(sc, rigid_node);
        skin[0].inverse_bind = ossai_dmat_to_mat34(&rel);
        const unsigned n = mesh->mNumVertices;
        int *offsets = ossai_import_alloc(sc->im, (size_t)n + 1, sizeof(int));
        ossa_raw_influence *list = ossai_import_alloc(sc->im, n, sizeof *list);
        if (!skin[0].name || !offsets || !list)
            return OOM(sc);
        for (unsigned v = 0; v < n; ++v) {
            offsets[v + 1] = (int)v + 1;
            list[v] = (ossa_raw_influence){0, 1.0f};
        }
        out->influence_offsets = offsets;
        out->influences = list;
        out->skin_joint_count = 1;
    } else {
        for (unsigned b = 0; b < bones; ++b) {
            const struct aiBone *bone = mesh->mBones[b];
            const ossai_dmat offset = ossai_dmat_from_ai(&bone->mOffsetMatrix);
            if (!ossai_dmat_is_finite(&offset))
                return ossa_error_set(sc->error, OSSA_ERR_BAD_VALUE, (int)b, -1,
                                      "%s: mesh '%s': bone '%s' has an inverse bind matrix "
                                      "that is not finite",
                                      sc->path, mesh->mName.data, bone->mName.data);
            skin[b].name = ossai_import_strdup(sc->im, bone->mName.data);
            skin[b].inverse_bind = ossai_dmat_to_mat34(&offset);
            if (!skin[b].name)
                return OOM(sc);
        }
        out->skin_joint_count = (int)bones;
        ossa_result r = gather_influences(sc, mesh, out);
        if (r)
            return r;
    }
    for (int j = 0; j < out->skin_joint_count; ++j)
        for (int row = 0; row < 3; ++row)
            skin[j].inverse_bind.m[row][3] *= s;
    out->skin_joints = skin;
    return OSSA_OK;
}

/* ---- welding: one vertex per distinct corner, first appearance first ---- */

static uint64_t hash_bytes(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static uint64_t hash_vertex(const ossa_raw_mesh *m, int v)
{
    uint64_t h = 14695981039346656037ull;
    h = hash_bytes(h, &m->positions[v], sizeof m->positions[v]);
    h = hash_bytes(h, &m->normals[v], sizeof m->normals[v]);
    if (m->uvs)
        h = hash_bytes(h, &m->uvs[2 * v], 2 * sizeof(float));
    const int a = m->influence_offsets[v], b = m->influence_offsets[v + 1];
    return hash_bytes(h, &m->influences[a], sizeof(ossa_raw_influence) * (size_t)(b - a));
}

static bool same_vertex(const ossa_raw_mesh *m, int x, int y)
{
    const int xa = m->influence_offsets[x], xb = m->influence_offsets[x + 1];
    const int ya = m->influence_offsets[y], yb = m->influence_offsets[y + 1];
    return memcmp(&m->positions[x], &m->positions[y], sizeof(ossa_float3)) == 0 &&
           memcmp(&m->normals[x], &m->normals[y], sizeof(ossa_float3)) == 0 &&
           (!m->tangents || memcmp(&m->tangents[x], &m->tangents[y], sizeof(ossa_float4)) == 0) &&
           (!m->uvs || memcmp(&m->uvs[2 * x], &m->uvs[2 * y], 2 * sizeof(float)) == 0) &&
           (!m->colors || m->colors[x] == m->colors[y]) && xb - xa == yb - ya &&
           memcmp(&m->influences[xa], &m->influences[ya],
                  sizeof(ossa_raw_influence) * (size_t)(xb - xa)) == 0;
}

static bool is_unindexed(const ossa_raw_mesh *m)
{
    if (m->index_count != m->vertex_count)
        return false;
    for (int i = 0; i < m->index_count; ++i)
        if (m->indices[i] != (uint32_t)i)
            return false;
    return true;
}

/* Merges identical vertices of an unindexed mesh, in place of m's arrays. */
static ossa_result weld(ossai_scene *sc, ossa_raw_mesh *m)
{
    const int n = m->vertex_count;
    size_t slots = 16;
    while (slots < (size_t)n * 2)
        slots *= 2;
    int *table = ossai_import_alloc(sc->im, slots, sizeof(int));
    int *first = ossai_import_alloc(sc->im, (size_t)n, sizeof(int)); /* new -> old vertex */
    uint32_t *remap = ossai_import_alloc(sc->im, (size_t)n, sizeof(uint32_t));
    if (!table || !first || !remap)
        return OOM(sc);
    for (size_t i = 0; i < slots; ++i)
        table[i] = -1;
    int unique = 0;
    for (int v = 0; v < n; ++v) {
        size_t slot = (size_t)hash_vertex(m, v) & (slots - 1);
        while (table[slot] >= 0 && !same_vertex(m, first[table[slot]], v))
            slot = (slot + 1) & (slots - 1);
        if (table[slot] < 0) {
            table[slot] = unique;
            first[unique++] = v;
        }
        remap[v] = (uint32_t)table[slot];
    }
    if (unique == n)
        return OSSA_OK;
    ossa_float3 *positions = ossai_import_alloc(sc->im, (size_t)unique, sizeof *positions);
    ossa_float3 *normals = ossai_import_alloc(sc->im, (size_t)unique, sizeof *normals);
    ossa_float4 *tangents =
        m->tangents ? ossai_import_alloc(sc->im, (size_t)unique, sizeof *tangents) : NULL;
    float *uvs = m->uvs ? ossai_import_alloc(sc->im, (size_t)unique * 2, sizeof *uvs) : NULL;
    uint32_t *colors = m->colors ? ossai_import_alloc(sc->im, (size_t)unique, sizeof *colors)
                                 : NULL;
    int *offsets = ossai_import_alloc(sc->im, (size_t)unique + 1, sizeof *offsets);
    ossa_raw_influence *influences =
        ossai_import_alloc(sc->im, (size_t)m->influence_offsets[n] + 1, sizeof *influences);
    if (!positions || !normals || (m->tangents && !tangents) || (m->uvs && !uvs) ||
        (m->colors && !colors) || !offsets || !influences)
        return OOM(sc);
    for (int u = 0; u < unique; ++u) {
        const int v = first[u];
        positions[u] = m->positions[v];
        normals[u] = m->normals[v];
        if (tangents)
            tangents[u] = m->tangents[v];
        if (uvs)
            memcpy(&uvs[2 * u], &m->uvs[2 * v], 2 * sizeof(float));
        if (colors)
            colors[u] = m->colors[v];
        const int a = m->influence_offsets[v], b = m->influence_offsets[v + 1];
        offsets[u + 1] = offsets[u] + (b - a);
        memcpy(&influences[offsets[u]], &m->influences[a],
               sizeof *influences * (size_t)(b - a));
    }
    m->vertex_count = unique;
    m->positions = positions;
    m->normals = normals;
    m->tangents = tangents;
    m->uvs = uvs;
    m->colors = colors;
    m->influence_offsets = offsets;
    m->influences = influences;
    m->indices = remap; /* index i was vertex i: now its merged vertex */
    return OSSA_OK;
}

static ossa_result extract(ossai_scene *sc, const struct aiMesh *mesh, int rigid_node,
                           bool file_tangents, ossa_raw_mesh *out)
{
    ossa_import *im = sc->im;
    const unsigned n = mesh->mNumVertices;
    const char *name = mesh->mName.data[0] || rigid_node < 0 ? mesh->mName.data
                                                              : sc->nodes[rigid_node].name;
    out->name = ossai_import_strdup(im, name);
    ossa_float3 *positions = ossai_import_alloc(im, n, sizeof *positions);
    ossa_float3 *normals = ossai_import_alloc(im, n, sizeof *normals);
    uint32_t *indices = ossai_import_alloc(im, (size_t)mesh->mNumFaces * 3 + 1, sizeof *indices);
    if (!out->name || !positions || !normals || !indices)
        return OOM(sc);
    const float s = (float)sc->scale;
    for (unsigned v = 0; v < n; ++v) {
        const struct aiVector3D *p = &mesh->mVertices[v], *q = &mesh->mNormals[v];
        if (!finite3(p) || !finite3(q))
            return ossa_error_set(sc->error, OSSA_ERR_BAD_VALUE, (int)v, -1,
                                  "%s: mesh '%s': vertex %u has a position or normal that is "
                                  "not finite",
                                  sc->path, name, v);
        positions[v] = (ossa_float3){p->x * s, p->y * s, p->z * s};
        normals[v] = (ossa_float3){q->x, q->y, q->z};
    }
    out->vertex_count = (int)n;
    out->positions = positions;
    out->normals = normals;
    if (mesh->mTangents && mesh->mBitangents && !sc->no_tangents) {
        ossa_float4 *tangents = ossai_import_alloc(im, n, sizeof *tangents);
        if (!tangents)
            return OOM(sc);
        for (unsigned v = 0; v < n; ++v) {
            const struct aiVector3D t = mesh->mTangents[v], b = mesh->mBitangents[v];
            const ossa_float3 nv = normals[v];
            /* Handedness: does the bitangent follow n x t or oppose it? */
            const float cx = nv.y * t.z - nv.z * t.y, cy = nv.z * t.x - nv.x * t.z,
                        cz = nv.x * t.y - nv.y * t.x;
            const float w = cx * b.x + cy * b.y + cz * b.z < 0.0f ? -1.0f : 1.0f;
            tangents[v] = (ossa_float4){t.x, t.y, t.z, w};
            if (!isfinite(t.x) || !isfinite(t.y) || !isfinite(t.z))
                tangents[v] = (ossa_float4){1.0f, 0.0f, 0.0f, 1.0f};
        }
        out->tangents = tangents;
        if (!file_tangents)
            im->computed_tangents++;
    }
    if (mesh->mTextureCoords[0] && mesh->mNumUVComponents[0] >= 2) {
        float *uvs = ossai_import_alloc(im, (size_t)n * 2, sizeof *uvs);
        if (!uvs)
            return OOM(sc);
        /* assimp flips glTF's v to v-up; the file's own convention is kept. */
        const bool flip = im->format == OSSA_SOURCE_GLTF;
        for (unsigned v = 0; v < n; ++v) {
            uvs[2 * v] = mesh->mTextureCoords[0][v].x;
            uvs[2 * v + 1] = flip ? 1.0f - mesh->mTextureCoords[0][v].y
                                  : mesh->mTextureCoords[0][v].y;
        }
        out->uvs = uvs;
    }
    if (mesh->mColors[0]) {
        uint32_t *colors = ossai_import_alloc(im, n, sizeof *colors);
        if (!colors)
            return OOM(sc);
        for (unsigned v = 0; v < n; ++v)
            colors[v] = rgba8(&mesh->mColors[0][v]);
        out->colors = colors;
    }
    int count = 0;
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 3) {
            im->skipped_faces++;
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            if (face->mIndices[k] >= n)
                return ossa_error_set(sc->error, OSSA_ERR_MESH_BAD_INDEX, (int)f, -1,
                                      "%s: mesh '%s': face %u uses vertex %u of %u", sc->path,
                                      name, f, face->mIndices[k], n);
            indices[count++] = face->mIndices[k];
        }
    }
    out->indices = indices;
    out->index_count = count;
    ossa_result r = gather_skin(sc, mesh, rigid_node, out);
    if (r)
        return r;
    return is_unindexed(out) ? weld(sc, out) : OSSA_OK;
}

/* The rigid mesh's node has a joint at or above it. */
static bool has_joint(const ossai_scene *sc, int node)
{
    for (; node >= 0; node = sc->nodes[node].parent)
        if (sc->nodes[node].selected)
            return true;
    return false;
}

ossa_result ossai_meshes_extract(ossai_scene *sc, const bool *file_tangents)
{
    const struct aiScene *scene = sc->ai;
    ossa_import *im = sc->im;
    /* Upper bound: each skinned mesh once, each rigid one per node using it. */
    size_t capacity = scene->mNumMeshes;
    for (int i = 0; i < sc->node_count; ++i)
        capacity += sc->nodes[i].ai->mNumMeshes;
    ossa_raw_mesh *meshes = ossai_import_alloc(im, capacity + 1, sizeof *meshes);
    if (!meshes)
        return OOM(sc);
    int count = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        if (ossai_mesh_is_display(scene, m))
            continue;
        if (!mesh->mNormals || mesh->mNumVertices == 0) {
            if (!ossai_import_warn(im, "mesh '%s' has no triangles with normals: left out",
                                   mesh->mName.data))
                return OOM(sc);
            continue;
        }
        if (mesh->mNumBones > 0) {
            ossa_result r = extract(sc, mesh, -1, file_tangents[m], &meshes[count]);
            if (r)
                return r;
            ++count;
            continue;
        }
        bool placed = false;
        for (int i = 0; i < sc->node_count; ++i) {
            const struct aiNode *node = sc->nodes[i].ai;
            for (unsigned k = 0; k < node->mNumMeshes; ++k) {
                if (node->mMeshes[k] != m)
                    continue;
                placed = true;
                if (!has_joint(sc, i)) {
                    if (!ossai_import_warn(im, "mesh '%s' (node '%s') is not skinned and no "
                                               "joint moves it: left out",
                                           mesh->mName.data, sc->nodes[i].name))
                        return OOM(sc);
                    continue;
                }
                ossa_result r = extract(sc, mesh, i, file_tangents[m], &meshes[count]);
                if (r)
                    return r;
                ++count;
            }
        }
        if (!placed && !ossai_import_warn(im, "mesh '%s' is used by no node: left out",
                                          mesh->mName.data))
            return OOM(sc);
    }
    im->meshes = meshes;
    im->mesh_count = count;
    return OSSA_OK;
}
