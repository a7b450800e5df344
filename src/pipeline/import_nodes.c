/* import_nodes.c - assimp's node hierarchy flattened into a table
 * (depth-first, parents first), with FBX pivot helpers tied to the node they
 * belong to, and cameras, lights and mesh holders recognised. */
#include <assimp/material.h>
#include <assimp/scene.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

typedef struct pending {
    const struct aiNode *node;
    int parent;
} pending;

bool ossai_mesh_is_display(const struct aiScene *scene, unsigned mesh)
{
    const struct aiMesh *m = scene->mMeshes[mesh];
    if (!m || m->mMaterialIndex >= scene->mNumMaterials || !scene->mMaterials)
        return false;
    struct aiString name;
    return aiGetMaterialString(scene->mMaterials[m->mMaterialIndex], AI_MATKEY_NAME, &name) ==
               aiReturn_SUCCESS &&
           strcmp(name.data, "SkeletonMaterial") == 0;
}

/* assimp's FBX reader records whether a model is a null as node metadata. */
static bool is_fbx_null(const struct aiNode *node)
{
    const struct aiMetadata *meta = node->mMetaData;
    for (unsigned i = 0; meta && meta->mKeys && meta->mValues && i < meta->mNumProperties; ++i)
        if (strcmp(meta->mKeys[i].data, "IsNull") == 0 && meta->mValues[i].mType == AI_BOOL &&
            meta->mValues[i].mData)
            return *(const bool *)meta->mValues[i].mData;
    return false;
}

/* Meshes of a node, assimp's bone-display meshes not counted. */
static unsigned file_meshes(const struct aiScene *scene, const struct aiNode *node)
{
    unsigned count = 0;
    for (unsigned k = 0; k < node->mNumMeshes; ++k)
        count += node->mMeshes[k] < scene->mNumMeshes &&
                 !ossai_mesh_is_display(scene, node->mMeshes[k]);
    return count;
}

static int compare_by_name(const void *a, const void *b, const ossai_node *nodes)
{
    const int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(nodes[x].name, nodes[y].name);
    return c ? c : (x > y) - (x < y);
}

/* Merge sort of node indices by (name, index): qsort has no context
 * argument, and a global would make imports thread-unsafe. */
static void merge_sort(int *v, int *tmp, int n, const ossai_node *nodes)
{
    if (n < 2)
        return;
    const int h = n / 2;
    merge_sort(v, tmp, h, nodes);
    merge_sort(v + h, tmp, n - h, nodes);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = compare_by_name(&v[j], &v[i], nodes) < 0 ? v[j++] : v[i++];
    while (i < h)
        tmp[k++] = v[i++];
    while (j < n)
        tmp[k++] = v[j++];
    memcpy(v, tmp, sizeof(int) * (size_t)n);
}

int ossai_node_find(const ossai_scene *sc, const char *name)
{
    const int *order = sc->node_order;
    int lo = 0, hi = sc->node_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (strcmp(sc->nodes[order[mid]].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sc->node_count && strcmp(sc->nodes[order[lo]].name, name) == 0 ? order[lo] : -1;
}

static void mark_named(ossai_scene *sc, const char *name)
{
    int n = ossai_node_find(sc, name);
    if (n >= 0)
        sc->nodes[n].is_camera = true;
}

/* Helpers are named "<node>_$AssimpFbx$_<part>" and form a single-child
 * chain ending at <node>. Ties each helper to that node; a helper that is
 * not in such a chain stays an ordinary node. */
static bool link_helpers(ossai_scene *sc)
{
    for (int i = 0; i < sc->node_count; ++i) {
        ossai_node *h = &sc->nodes[i];
        if (!h->is_helper || h->owner >= 0)
            continue;
        const size_t prefix = (size_t)(strstr(h->name, OSSAI_FBX_HELPER_TAG) - h->name);
        int j = i;
        /* A single child is visited right after its parent. */
        while (j < sc->node_count && sc->nodes[j].is_helper && sc->nodes[j].ai->mNumChildren == 1)
            ++j;
        const bool ok = j < sc->node_count && j > i && !sc->nodes[j].is_helper &&
                        sc->nodes[j].parent == j - 1 &&
                        strncmp(sc->nodes[j].name, h->name, prefix) == 0 &&
                        sc->nodes[j].name[prefix] == '\0';
        const int end = j > i ? j : i + 1;
        for (int k = i; k < end && k < sc->node_count; ++k) {
            sc->nodes[k].owner = ok ? j : -1;
            sc->nodes[k].is_helper = ok;
        }
        if (!ok && !ossai_import_warn(sc->im, "node '%s' looks like an FBX pivot helper but is "
                                              "not followed by its node: kept as a node",
                                      h->name))
            return false;
    }
    return true;
}

ossa_result ossai_nodes_build(ossai_scene *sc)
{
    ossa_import *im = sc->im;
    const struct aiScene *scene = sc->ai;
    /* Depth-first with an explicit stack that grows by doubling. */
    int capacity = 64, count = 0, top = 0, stack_capacity = 64;
    ossai_node *nodes = ossai_import_alloc(im, (size_t)capacity, sizeof *nodes);
    pending *stack = ossai_import_alloc(im, (size_t)stack_capacity, sizeof *stack);
    if (!nodes || !stack)
        goto oom;
    stack[top++] = (pending){scene->mRootNode, -1};
    while (top > 0) {
        pending p = stack[--top];
        if (count == capacity) {
            if (capacity > (1 << 24))
                return ossa_error_set(sc->error, OSSA_ERR_UNSUPPORTED, -1, -1,
                                      "%s: more than %d nodes", sc->path, capacity);
            ossai_node *grown = ossai_import_alloc(im, (size_t)capacity * 2, sizeof *nodes);
            if (!grown)
                goto oom;
            memcpy(grown, nodes, sizeof *nodes * (size_t)capacity);
            nodes = grown;
            capacity *= 2;
        }
        ossai_node *n = &nodes[count];
        n->ai = p.node;
        n->name = p.node->mName.data;
        n->parent = p.parent;
        n->owner = -1;
        n->joint = -1;
        n->is_helper = strstr(n->name, OSSAI_FBX_HELPER_TAG) != NULL;
        n->has_mesh = file_meshes(scene, p.node) > 0;
        n->is_null = is_fbx_null(p.node);
        n->local = ossai_dmat_from_ai(&p.node->mTransformation);
        if (!ossai_dmat_is_finite(&n->local))
            return ossa_error_set(sc->error, OSSA_ERR_BAD_VALUE, count, -1,
                                  "%s: node '%s' has a transform that is not finite", sc->path,
                                  n->name);
        const unsigned children = p.node->mNumChildren;
        if (children > 0 && !p.node->mChildren)
            return ossa_error_set(sc->error, OSSA_ERR_IMPORT, count, -1,
                                  "%s: node '%s' has %u children but no list of them",
                                  sc->path, n->name, children);
        while ((size_t)top + children > (size_t)stack_capacity) {
            pending *grown = ossai_import_alloc(im, (size_t)stack_capacity * 2, sizeof *stack);
            if (!grown)
                goto oom;
            memcpy(grown, stack, sizeof *stack * (size_t)top);
            stack = grown;
            stack_capacity *= 2;
        }
        for (unsigned c = children; c-- > 0;)
            stack[top++] = (pending){p.node->mChildren[c], count};
        ++count;
    }
    int *order = ossai_import_alloc(im, (size_t)count, sizeof(int));
    int *scratch = ossai_import_alloc(im, (size_t)count, sizeof(int));
    if (!order || !scratch)
        goto oom;
    sc->nodes = nodes;
    sc->node_count = count;
    for (int i = 0; i < count; ++i)
        order[i] = i;
    merge_sort(order, scratch, count, nodes);
    sc->node_order = order;

    for (unsigned i = 0; i < scene->mNumCameras; ++i)
        if (scene->mCameras[i])
            mark_named(sc, scene->mCameras[i]->mName.data);
    for (unsigned i = 0; i < scene->mNumLights; ++i)
        if (scene->mLights[i])
            mark_named(sc, scene->mLights[i]->mName.data);
    if (!link_helpers(sc))
        goto oom;
    for (int i = 0; i < count; ++i)
        sc->im->folded_helpers += sc->nodes[i].is_helper;
    return OSSA_OK;
oom:
    return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                          "%s: out of memory for the node table", sc->path);
}
