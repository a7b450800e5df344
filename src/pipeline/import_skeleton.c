/* import_skeleton.c - which nodes become joints, and their rest transforms.
 *
 * Joints are the skins' bones, the nodes a clip moves, and every ancestor of
 * those (with all_nodes, also every plain node below a joint). Not joints: FBX pivot helpers (their transforms are folded into the
 * joint they belong to), cameras and lights (unless something hangs below
 * them), nodes nothing needs, and the scene's root when it is an identity
 * that only groups the others. */
#include <assimp/scene.h>
#include <string.h>

#include "import_internal.h"

/* Shear in a folded rest transform above this is reported: the TRS form
 * cannot hold it. */
#define SHEAR_WARNING 1e-3

/* The node a mark lands on: a helper stands for its owner. */
static int target_of(const ossai_scene *sc, int node)
{
    return sc->nodes[node].is_helper ? sc->nodes[node].owner : node;
}

static ossa_result mark_bones(ossai_scene *sc)
{
    const struct aiScene *scene = sc->ai;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const struct aiMesh *mesh = scene->mMeshes[m];
        const bool display = ossai_mesh_is_display(scene, m);
        for (unsigned b = 0; b < mesh->mNumBones; ++b) {
            const struct aiBone *bone = mesh->mBones[b];
            const int node = ossai_node_find(sc, bone->mName.data);
            if (display) { /* a node of a skeleton-only file: see ossai_skeleton_select */
                if (node >= 0)
                    sc->nodes[target_of(sc, node)].display_bone = true;
                continue;
            }
            if (node < 0 && sc->no_meshes) /* the skin is not read */
                continue;
            if (node < 0)
                return ossa_error_set(sc->error, OSSA_ERR_NOT_FOUND, (int)b, -1,
                                      "%s: mesh '%s': bone '%s' is not a node of the file",
                                      sc->path, mesh->mName.data, bone->mName.data);
            sc->nodes[target_of(sc, node)].is_bone = true;
        }
    }
    return OSSA_OK;
}

static void mark_animated(ossai_scene *sc)
{
    for (int c = 0; c < sc->clip_count; ++c) {
        const ossai_node_clip *clip = &sc->clips[c];
        for (int t = 0; t < clip->track_count; ++t)
            if (ossai_node_track_varies(&clip->tracks[t]))
                sc->nodes[target_of(sc, clip->tracks[t].node)].animated = true;
    }
}

ossai_dmat ossai_node_joint_local(const ossai_scene *sc, int node)
{
    ossai_dmat m = sc->nodes[node].local;
    for (int p = sc->nodes[node].parent; p >= 0 && !sc->nodes[p].selected; p = sc->nodes[p].parent)
        m = ossai_dmat_mul(&sc->nodes[p].local, &m);
    return m;
}

ossa_result ossai_skeleton_select(ossai_scene *sc)
{
    ossa_result r = mark_bones(sc);
    if (r)
        return r;
    mark_animated(sc);
    ossai_node *nodes = sc->nodes;
    /* Whether a node with a mesh of the file lies below each node: the
     * table lists children after their parents. */
    bool *mesh_below = ossai_import_alloc(sc->im, (size_t)sc->node_count + 1, sizeof(bool));
    if (!mesh_below)
        goto oom;
    for (int i = sc->node_count - 1; i >= 0; --i) {
        mesh_below[i] |= nodes[i].has_mesh;
        if (nodes[i].parent >= 0)
            mesh_below[nodes[i].parent] |= mesh_below[i];
    }
    for (int i = 0; i < sc->node_count; ++i) {
        /* Cameras, lights and FBX nulls are joints only when a skin binds
         * them, a mesh hangs below them, or all_nodes asks; the nodes of
         * a skeleton-only file (BVH; assimp's display mesh binds them) are
         * joints, the scene root aside (its rule is below). */
        const ossai_node *n = &nodes[i];
        const bool other_kind = (n->is_camera || n->is_null) && !sc->all_nodes && !mesh_below[i];
        const bool seed = n->is_bone || ((n->animated || (n->display_bone && i > 0)) && !other_kind);
        if (!seed || nodes[i].is_helper)
            continue;
        for (int p = i; p >= 0 && !nodes[p].selected; p = nodes[p].parent)
            if (!nodes[p].is_helper)
                nodes[p].selected = true;
    }
    /* The scene root is assimp's container (FBX "RootNode", glTF "ROOT")
     * or the file's single top node: not a joint when it carries nothing. */
    if (sc->node_count > 0 && nodes[0].selected && !nodes[0].is_bone && !nodes[0].animated &&
        ossai_dmat_is_identity(&nodes[0].local, 0.0))
        nodes[0].selected = false;
    /* all_nodes: plain nodes below a joint join too (looking through FBX
     * pivot helpers to the node they belong to), once the root is settled so
     * that the scene container does not pull in its other children. The
     * table lists parents before children: one pass reaches whole subtrees. */
    for (int i = 0; sc->all_nodes && i < sc->node_count; ++i) {
        const ossai_node *n = &nodes[i];
        int p = n->parent;
        while (p >= 0 && nodes[p].is_helper)
            p = nodes[p].parent;
        if (p >= 0 && nodes[p].selected && !n->is_helper && !n->is_camera && !n->has_mesh)
            nodes[i].selected = true;
    }

    int count = 0;
    for (int i = 0; i < sc->node_count; ++i)
        if (nodes[i].selected)
            nodes[i].joint = count++;
    ossa_import *im = sc->im;
    ossa_raw_joint *joints = ossai_import_alloc(im, (size_t)count + 1, sizeof *joints);
    if (!joints)
        goto oom;
    for (int i = 0; i < sc->node_count; ++i) {
        const ossai_node *n = &nodes[i];
        if (!n->selected)
            continue;
        ossa_raw_joint *j = &joints[n->joint];
        j->name = ossai_import_strdup(im, n->name);
        if (!j->name)
            goto oom;
        j->parent = -1;
        for (int p = n->parent; p >= 0; p = nodes[p].parent)
            if (nodes[p].selected) {
                j->parent = nodes[p].joint;
                break;
            }
        const ossai_dmat local = ossai_node_joint_local(sc, i);
        const double shear = ossai_dmat_decompose(&local, &j->rest);
        j->rest.translation.x *= (float)sc->scale;
        j->rest.translation.y *= (float)sc->scale;
        j->rest.translation.z *= (float)sc->scale;
        if (shear > SHEAR_WARNING &&
            !ossai_import_warn(im, "joint '%s': its rest transform has a shear of %.3g that a "
                                   "translation, rotation and scale cannot hold; it was dropped",
                               n->name, shear))
            goto oom;
    }
    im->skeleton.joints = joints;
    im->skeleton.joint_count = count;
    return OSSA_OK;
oom:
    return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                          "%s: out of memory for the skeleton", sc->path);
}
