/* import_gltf_check.c - a glTF / GLB file checked before assimp reads it.
 *
 * assimp 5.2's glTF reader trusts the file: the import fuzzer crashed it
 * within seconds on accessors that run past their buffer, attributes of
 * different lengths, indices past the vertices, skins without inverse bind
 * matrices (which the spec allows). Every index, count and range assimp
 * will follow is checked here first, so such files end in an error naming
 * the file and the field. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf.h"

static int array_size(ossai_gltf *g, const char *name)
{
    return ossai_gltf_count(g, name);
}

/* member (an index) must be absent or name an element of `array`. */
static ossa_result check_ref(ossai_gltf *g, const cJSON *object, const char *member,
                             const char *array, const char *what, int *out)
{
    int v;
    if (!ossai_gltf_int(g, object, member, -1, &v, what))
        return g->error->code;
    if (v >= array_size(g, array))
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, v, -1,
                              "%s: %s: '%s' is %d, but there are %d %s", g->path, what, member,
                              v, array_size(g, array), array);
    if (out)
        *out = v;
    return OSSA_OK;
}

/* Each node has one parent at most, and no node is its own ancestor. */
static ossa_result check_nodes(ossai_gltf *g)
{
    const int n = array_size(g, "nodes");
    int *parent = ossai_import_alloc(g->im, (size_t)n + 1, sizeof(int));
    if (!parent)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              g->path);
    for (int i = 0; i < n; ++i)
        parent[i] = -1;
    ossa_result r;
    for (int i = 0; i < n; ++i) {
        const cJSON *node = ossai_gltf_item(g, "nodes", i);
        char what[48];
        snprintf(what, sizeof what, "node %d", i);
        if (!node)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1, "%s: %s is not an object",
                                  g->path, what);
        if ((r = check_ref(g, node, "mesh", "meshes", what, NULL)) ||
            (r = check_ref(g, node, "skin", "skins", what, NULL)) ||
            (r = check_ref(g, node, "camera", "cameras", what, NULL)))
            return r;
        const cJSON *children = cJSON_GetObjectItemCaseSensitive(node, "children");
        for (const cJSON *c = cJSON_IsArray(children) ? children->child : NULL; c; c = c->next) {
            const double d = cJSON_IsNumber(c) ? c->valuedouble : -1.0;
            const int child = d >= 0.0 && d < (double)n ? (int)d : -1;
            if (child < 0 || (double)child != d || parent[child] >= 0 || child == i)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1,
                                      "%s: %s: a child is not a node, or has two parents",
                                      g->path, what);
            parent[child] = i;
        }
    }
    for (int i = 0; i < n; ++i) {
        int steps = 0;
        for (int p = parent[i]; p >= 0; p = parent[p])
            if (++steps > n)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1,
                                      "%s: node %d is its own ancestor", g->path, i);
    }
    const cJSON *scenes = cJSON_GetObjectItemCaseSensitive(g->json, "scenes");
    for (const cJSON *sc = cJSON_IsArray(scenes) ? scenes->child : NULL; sc; sc = sc->next) {
        const cJSON *roots = cJSON_GetObjectItemCaseSensitive(sc, "nodes");
        for (const cJSON *v = cJSON_IsArray(roots) ? roots->child : NULL; v; v = v->next)
            if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble >= n)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, -1, -1,
                                      "%s: a scene names a node that does not exist", g->path);
    }
    return OSSA_OK;
}

/* Zeros an accessor without a buffer view may stand for: assimp 5.2
 * allocates them all (a 2 KB file asked it for 8 GB). */
#define MAX_ZERO_BYTES ((size_t)256 << 20)

/* Every accessor (its sparse part included) is read once whole. assimp
 * 5.2 applies sparse substitutes, but copies a sparse accessor's base as if
 * it were packed and then reads it with the view's byteStride: wrong values
 * and a read past its copy (seen under valgrind), so that is refused. */
static ossa_result check_accessors(ossai_gltf *g)
{
    const int n = array_size(g, "accessors");
    for (int i = 0; i < n; ++i) {
        ossai_gltf_accessor a;
        ossa_result r = ossai_gltf_accessor_get(g, i, &a, NULL);
        if (r)
            return r;
        const size_t element = (size_t)a.component_bytes * (size_t)a.components;
        if (!a.base && (size_t)a.count > MAX_ZERO_BYTES / element)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, i, -1,
                                  "%s: accessor %d has no bufferView and %d elements of %zu "
                                  "bytes: more than the %zu MiB of zeros ossa accepts",
                                  g->path, i, a.count, element, MAX_ZERO_BYTES >> 20);
        if (a.sparse.count && a.base && a.stride != element)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, i, -1,
                                  "%s: accessor %d is sparse over a bufferView with byteStride "
                                  "%zu (elements of %zu bytes), which assimp 5.2 reads wrongly",
                                  g->path, i, a.stride, element);
    }
    return OSSA_OK;
}

/* Joint indices each mesh's skinned primitives may use: the smallest skin
 * among the nodes that draw the mesh with a skin; -1 when none does. */
static int *skin_joints_per_mesh(ossai_gltf *g)
{
    const int meshes = array_size(g, "meshes"), nodes = array_size(g, "nodes");
    int *limit = ossai_import_alloc(g->im, (size_t)meshes + 1, sizeof(int));
    for (int m = 0; limit && m < meshes; ++m)
        limit[m] = -1;
    for (int i = 0; limit && i < nodes; ++i) {
        const cJSON *node = ossai_gltf_item(g, "nodes", i);
        int m = -1, s = -1;
        ossai_gltf_int(g, node, "mesh", -1, &m, "node");
        ossai_gltf_int(g, node, "skin", -1, &s, "node");
        if (m < 0 || m >= meshes || s < 0)
            continue;
        const cJSON *joints = cJSON_GetObjectItemCaseSensitive(ossai_gltf_item(g, "skins", s),
                                                              "joints");
        const int count = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
        limit[m] = limit[m] < 0 || count < limit[m] ? count : limit[m];
    }
    return limit;
}

static ossa_result check_primitive(ossai_gltf *g, const cJSON *prim, int mesh, int skin_joints,
                                   const char *what)
{
    const cJSON *attributes = cJSON_GetObjectItemCaseSensitive(prim, "attributes");
    if (!cJSON_IsObject(attributes))
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1, "%s: %s has no attributes",
                              g->path, what);
    int vertices = -1;
    ossa_result r;
    for (const cJSON *attr = attributes->child; attr; attr = attr->next) {
        int index;
        ossai_gltf_accessor a;
        if ((r = check_ref(g, attributes, attr->string, "accessors", what, &index)))
            return r;
        if (index < 0 || (r = ossai_gltf_accessor_get(g, index, &a, what)))
            return index < 0 ? ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                              "%s: %s: attribute '%.32s' has no accessor",
                                              g->path, what, attr->string)
                             : r;
        if (vertices >= 0 && a.count != vertices)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                  "%s: %s: attribute '%.32s' has %d elements, others %d",
                                  g->path, what, attr->string, a.count, vertices);
        vertices = a.count;
        if (strncmp(attr->string, "JOINTS_", 7) == 0) {
            if (a.component_type != OSSAI_GLTF_UNSIGNED_BYTE &&
                a.component_type != OSSAI_GLTF_UNSIGNED_SHORT)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                      "%s: %s: %s must be unsigned bytes or shorts", g->path,
                                      what, attr->string);
            for (int v = 0; skin_joints >= 0 && v < a.count; ++v)
                for (int c = 0; c < a.components; ++c)
                    if (ossai_gltf_index(&a, v, c) >= (uint32_t)skin_joints)
                        return ossa_error_set(g->error, OSSA_ERR_IMPORT, v, -1,
                                              "%s: %s: vertex %d names joint %u of a %d-joint "
                                              "skin",
                                              g->path, what, v, ossai_gltf_index(&a, v, c),
                                              skin_joints);
        }
    }
    int indices;
    if ((r = check_ref(g, prim, "indices", "accessors", what, &indices)) ||
        (r = check_ref(g, prim, "material", "materials", what, NULL)))
        return r;
    if (indices >= 0) {
        ossai_gltf_accessor a;
        if ((r = ossai_gltf_accessor_get(g, indices, &a, what)))
            return r;
        if (a.components != 1)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, indices, -1,
                                  "%s: %s: indices must be a scalar accessor", g->path, what);
        for (int i = 0; i < a.count; ++i) {
            const uint32_t v = ossai_gltf_index(&a, i, 0);
            if (v >= (uint32_t)(vertices > 0 ? vertices : 0))
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1,
                                      "%s: %s: index %d is %u, past the %d vertices", g->path,
                                      what, i, v, vertices);
        }
    }
    return OSSA_OK;
}

static ossa_result check_meshes(ossai_gltf *g)
{
    const int n = array_size(g, "meshes");
    const int *skin_joints = skin_joints_per_mesh(g);
    if (!skin_joints)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              g->path);
    for (int m = 0; m < n; ++m) {
        const cJSON *prims = cJSON_GetObjectItemCaseSensitive(ossai_gltf_item(g, "meshes", m),
                                                             "primitives");
        int p = 0;
        for (const cJSON *prim = cJSON_IsArray(prims) ? prims->child : NULL; prim;
             prim = prim->next, ++p) {
            char what[64];
            snprintf(what, sizeof what, "mesh %d primitive %d", m, p);
            ossa_result r = check_primitive(g, prim, m, skin_joints[m], what);
            if (r)
                return r;
        }
    }
    return OSSA_OK;
}

static ossa_result check_skins(ossai_gltf *g)
{
    const int n = array_size(g, "skins"), nodes = array_size(g, "nodes");
    for (int s = 0; s < n; ++s) {
        const cJSON *skin = ossai_gltf_item(g, "skins", s);
        char what[32];
        snprintf(what, sizeof what, "skin %d", s);
        const cJSON *joints = skin ? cJSON_GetObjectItemCaseSensitive(skin, "joints") : NULL;
        const int count = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
        if (count == 0)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, s, -1, "%s: %s has no joints",
                                  g->path, what);
        for (const cJSON *j = joints->child; j; j = j->next)
            if (!cJSON_IsNumber(j) || j->valuedouble < 0 || j->valuedouble >= nodes)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, s, -1,
                                      "%s: %s names a joint that is not a node", g->path, what);
        int ibm;
        ossa_result r = check_ref(g, skin, "inverseBindMatrices", "accessors", what, &ibm);
        if (r)
            return r;
        if (ibm < 0)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, s, -1,
                                  "%s: %s has no inverseBindMatrices (identity by the glTF "
                                  "spec, but assimp 5.2 crashes on it)",
                                  g->path, what);
        ossai_gltf_accessor a;
        if ((r = ossai_gltf_accessor_get(g, ibm, &a, what)))
            return r;
        if (a.components != 16 || a.component_type != OSSAI_GLTF_FLOAT || a.count < count)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, s, -1,
                                  "%s: %s: inverseBindMatrices must be %d float MAT4s", g->path,
                                  what, count);
    }
    return OSSA_OK;
}

/* Whether assimp loads any node: it loads the default scene's nodes (with
 * their children) and the nodes channels target, nothing else. */
static bool loads_a_node(ossai_gltf *g)
{
    const cJSON *scene_value = cJSON_GetObjectItemCaseSensitive(g->json, "scene");
    const int scene_index = cJSON_IsNumber(scene_value) ? (int)scene_value->valuedouble : 0;
    const cJSON *roots =
        cJSON_GetObjectItemCaseSensitive(ossai_gltf_item(g, "scenes", scene_index), "nodes");
    return cJSON_GetArraySize(roots) > 0;
}

/* The glTF spec lets a channel have no target node (it is then ignored:
 * extensions use it). assimp 5.2 reads such a channel as node 0 of the
 * nodes it has loaded: with none loaded it indexes an empty list and
 * crashes (found by the import fuzzer), so that case is refused. */
static ossa_result check_animations(ossai_gltf *g)
{
    const int n = array_size(g, "animations");
    int nodeless = -1; /* an animation with a channel without a target node */
    bool targets_a_node = false;
    for (int i = 0; i < n; ++i) {
        const cJSON *anim = ossai_gltf_item(g, "animations", i);
        const cJSON *samplers = anim ? cJSON_GetObjectItemCaseSensitive(anim, "samplers") : NULL;
        const cJSON *channels = anim ? cJSON_GetObjectItemCaseSensitive(anim, "channels") : NULL;
        const int sampler_count = cJSON_IsArray(samplers) ? cJSON_GetArraySize(samplers) : 0;
        char what[48];
        snprintf(what, sizeof what, "animation %d", i);
        ossa_result r;
        for (const cJSON *s = sampler_count ? samplers->child : NULL; s; s = s->next)
            if ((r = check_ref(g, s, "input", "accessors", what, NULL)) ||
                (r = check_ref(g, s, "output", "accessors", what, NULL)))
                return r;
        for (const cJSON *c = cJSON_IsArray(channels) ? channels->child : NULL; c; c = c->next) {
            int sampler, node;
            if (!ossai_gltf_int(g, c, "sampler", -1, &sampler, what))
                return g->error->code;
            if (sampler < 0 || sampler >= sampler_count)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1,
                                      "%s: %s: a channel uses sampler %d of %d", g->path, what,
                                      sampler, sampler_count);
            if ((r = check_ref(g, cJSON_GetObjectItemCaseSensitive(c, "target"), "node", "nodes",
                               what, &node)))
                return r;
            if (node < 0 && nodeless < 0)
                nodeless = i;
            targets_a_node |= node >= 0;
        }
    }
    if (nodeless >= 0 && !targets_a_node && !loads_a_node(g))
        return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, nodeless, -1,
                              "%s: animation %d has a channel without a target node, and no "
                              "node is in the scene or targeted: assimp 5.2 crashes on it",
                              g->path, nodeless);
    return OSSA_OK;
}

ossa_result ossai_gltf_preflight(ossa_import *im, const char *path, ossa_error *error)
{
    ossai_gltf g;
    ossa_result r = ossai_gltf_open(&g, im, path, error);
    const cJSON *asset = g.json ? cJSON_GetObjectItemCaseSensitive(g.json, "asset") : NULL;
    const char *version =
        asset ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(asset, "version")) : NULL;
    /* glTF 1.0 (assimp's other reader) is left alone; anything else,
     * including a file without "asset", is read as 2.0 by assimp. */
    if (!r && !(version && version[0] == '1') &&
        !(r = check_nodes(&g)) && !(r = check_accessors(&g)) && !(r = check_skins(&g)) &&
        !(r = check_meshes(&g)))
        r = check_animations(&g);
    ossai_gltf_close(&g);
    return r;
}
