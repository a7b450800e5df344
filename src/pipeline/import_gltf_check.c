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

/* glTF node `i` as errors name it: "node 7 ('Hips')". */
static void node_label(ossai_gltf *g, int i, char *out, size_t size)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(ossai_gltf_item(g, "nodes", i), "name");
    const char *text = cJSON_GetStringValue(name);
    if (text)
        snprintf(out, size, "node %d ('%.64s')", i, text);
    else
        snprintf(out, size, "node %d", i);
}

/* Each node's depth below its root (0 for a root), in time linear in the
 * node count: every walk up stops at the first node whose depth is known,
 * and the nodes it passed get theirs on the way back. A walk that meets its
 * own path is a cycle; a node deeper than OSSA_IMPORT_MAX_DEPTH is refused
 * (assimp reads the hierarchy recursively: a 20,000-deep chain overflowed
 * its stack). */
static ossa_result check_depths(ossai_gltf *g, const int *parent, int n)
{
    int *depth = ossai_import_alloc(g->im, (size_t)n + 1, sizeof(int));
    int *path = ossai_import_alloc(g->im, (size_t)n + 1, sizeof(int));
    if (!depth || !path)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              g->path);
    enum { UNKNOWN = -1, ON_PATH = -2 };
    for (int i = 0; i < n; ++i)
        depth[i] = UNKNOWN;
    for (int i = 0; i < n; ++i) {
        int length = 0, p = i;
        while (p >= 0 && depth[p] == UNKNOWN) {
            depth[p] = ON_PATH;
            path[length++] = p;
            p = parent[p];
        }
        if (p >= 0 && depth[p] == ON_PATH)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, p, -1,
                                  "%s: node %d is its own ancestor", g->path, p);
        int d = p >= 0 ? depth[p] : -1;
        while (length > 0)
            depth[path[--length]] = ++d;
        if (depth[i] > OSSA_IMPORT_MAX_DEPTH) {
            /* The first node past the limit on the way down to i. */
            int deep = i;
            while (depth[deep] > OSSA_IMPORT_MAX_DEPTH + 1)
                deep = parent[deep];
            char label[96];
            node_label(g, deep, label, sizeof label);
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, deep, -1,
                                  "%s: %s is %d levels below its root: deeper than the %d ossa "
                                  "accepts",
                                  g->path, label, depth[deep], OSSA_IMPORT_MAX_DEPTH);
        }
    }
    return OSSA_OK;
}

/* Each node has one parent at most, no node is its own ancestor, and no
 * chain is deeper than the limit. */
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
    if ((r = check_depths(g, parent, n)))
        return r;
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

/* What the accessor checks learn once, so that the mesh checks, which may
 * name one accessor from many primitives, stay linear in the file size. */
typedef struct accessor_table {
    ossai_gltf_accessor *accessors; /* every accessor, read and checked */
    int64_t *max_value;             /* largest component of an unsigned
                                       accessor; -1 until computed */
    int count;
} accessor_table;

/* Every accessor (its sparse part included) is read once whole. assimp
 * 5.2 applies sparse substitutes, but copies a sparse accessor's base as if
 * it were packed and then reads it with the view's byteStride: wrong values
 * and a read past its copy (seen under valgrind), so that is refused. */
static ossa_result check_accessors(ossai_gltf *g, accessor_table *table)
{
    const int n = array_size(g, "accessors");
    table->count = n;
    table->accessors = ossai_import_alloc(g->im, (size_t)n + 1, sizeof *table->accessors);
    table->max_value = ossai_import_alloc(g->im, (size_t)n + 1, sizeof *table->max_value);
    if (!table->accessors || !table->max_value)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              g->path);
    for (int i = 0; i < n; ++i) {
        ossai_gltf_accessor *a = &table->accessors[i];
        table->max_value[i] = -1;
        ossa_result r = ossai_gltf_accessor_get(g, i, a, NULL);
        if (r)
            return r;
        const size_t element = (size_t)a->component_bytes * (size_t)a->components;
        if (!a->base && (size_t)a->count > MAX_ZERO_BYTES / element)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, i, -1,
                                  "%s: accessor %d has no bufferView and %d elements of %zu "
                                  "bytes: more than the %zu MiB of zeros ossa accepts",
                                  g->path, i, a->count, element, MAX_ZERO_BYTES >> 20);
        if (a->sparse.count && a->base && a->stride != element)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, i, -1,
                                  "%s: accessor %d is sparse over a bufferView with byteStride "
                                  "%zu (elements of %zu bytes), which assimp 5.2 reads wrongly",
                                  g->path, i, a->stride, element);
    }
    return OSSA_OK;
}

/* The largest component of an unsigned integer accessor, computed once. */
static int64_t max_value(accessor_table *table, int index)
{
    if (table->max_value[index] < 0) {
        const ossai_gltf_accessor *a = &table->accessors[index];
        uint32_t max = 0;
        for (int v = 0; v < a->count; ++v)
            for (int c = 0; c < a->components; ++c) {
                const uint32_t x = ossai_gltf_index(a, v, c);
                max = x > max ? x : max;
            }
        table->max_value[index] = max;
    }
    return table->max_value[index];
}

/* The first element of an unsigned accessor with a component >= limit (one
 * exists: its largest value is). */
static int first_at_or_past(const ossai_gltf_accessor *a, uint32_t limit, uint32_t *value)
{
    for (int v = 0; v < a->count; ++v)
        for (int c = 0; c < a->components; ++c)
            if ((*value = ossai_gltf_index(a, v, c)) >= limit)
                return v;
    return -1;
}

/* The joint count of every skin (0 when it has none). */
static int *skin_joint_counts(ossai_gltf *g)
{
    const int skins = array_size(g, "skins");
    int *count = ossai_import_alloc(g->im, (size_t)skins + 1, sizeof(int));
    for (int s = 0; count && s < skins; ++s) {
        const cJSON *joints =
            cJSON_GetObjectItemCaseSensitive(ossai_gltf_item(g, "skins", s), "joints");
        count[s] = cJSON_IsArray(joints) ? cJSON_GetArraySize(joints) : 0;
    }
    return count;
}

/* Joint indices each mesh's skinned primitives may use: the smallest skin
 * among the nodes that draw the mesh with a skin; -1 when none does. */
static int *skin_joints_per_mesh(ossai_gltf *g)
{
    const int meshes = array_size(g, "meshes"), nodes = array_size(g, "nodes"),
              skins = array_size(g, "skins");
    const int *joints = skin_joint_counts(g);
    int *limit = ossai_import_alloc(g->im, (size_t)meshes + 1, sizeof(int));
    if (!joints)
        return NULL;
    for (int m = 0; limit && m < meshes; ++m)
        limit[m] = -1;
    for (int i = 0; limit && i < nodes; ++i) {
        const cJSON *node = ossai_gltf_item(g, "nodes", i);
        int m = -1, s = -1;
        ossai_gltf_int(g, node, "mesh", -1, &m, "node");
        ossai_gltf_int(g, node, "skin", -1, &s, "node");
        if (m < 0 || m >= meshes || s < 0 || s >= skins)
            continue;
        limit[m] = limit[m] < 0 || joints[s] < limit[m] ? joints[s] : limit[m];
    }
    return limit;
}

/* An accessor index held by `item` (a member value): -1 when it is not a
 * non-negative integer, -2 when it names no accessor. */
static int accessor_ref(const cJSON *item, int accessors)
{
    const double d = cJSON_IsNumber(item) ? item->valuedouble : -1.0;
    if (!(d >= 0.0 && d < 2147483648.0) || d != (double)(int)d)
        return -1;
    return (int)d < accessors ? (int)d : -2;
}

static ossa_result check_primitive(ossai_gltf *g, accessor_table *table, const cJSON *prim,
                                   int mesh, int skin_joints, const char *what)
{
    const cJSON *attributes = cJSON_GetObjectItemCaseSensitive(prim, "attributes");
    if (!cJSON_IsObject(attributes))
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1, "%s: %s has no attributes",
                              g->path, what);
    int vertices = -1;
    ossa_result r;
    /* Members are read in place (looking each up by name would be quadratic
     * in their number). */
    for (const cJSON *attr = attributes->child; attr; attr = attr->next) {
        const int index = accessor_ref(attr, table->count);
        if (index < 0)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                  "%s: %s: attribute '%.32s' %s", g->path, what, attr->string,
                                  index == -1 ? "is not an accessor index"
                                              : "names an accessor that does not exist");
        const ossai_gltf_accessor *a = &table->accessors[index];
        if (vertices >= 0 && a->count != vertices)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                  "%s: %s: attribute '%.32s' has %d elements, others %d",
                                  g->path, what, attr->string, a->count, vertices);
        vertices = a->count;
        if (strncmp(attr->string, "JOINTS_", 7) == 0) {
            if (a->component_type != OSSAI_GLTF_UNSIGNED_BYTE &&
                a->component_type != OSSAI_GLTF_UNSIGNED_SHORT)
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, mesh, -1,
                                      "%s: %s: %.32s must be unsigned bytes or shorts", g->path,
                                      what, attr->string);
            uint32_t joint = 0;
            if (skin_joints >= 0 && max_value(table, index) >= skin_joints) {
                const int v = first_at_or_past(a, (uint32_t)skin_joints, &joint);
                return ossa_error_set(g->error, OSSA_ERR_IMPORT, v, -1,
                                      "%s: %s: vertex %d names joint %u of a %d-joint skin",
                                      g->path, what, v, joint, skin_joints);
            }
        }
    }
    int indices;
    if ((r = check_ref(g, prim, "indices", "accessors", what, &indices)) ||
        (r = check_ref(g, prim, "material", "materials", what, NULL)))
        return r;
    if (indices >= 0) {
        const ossai_gltf_accessor *a = &table->accessors[indices];
        if (a->components != 1)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, indices, -1,
                                  "%s: %s: indices must be a scalar accessor", g->path, what);
        const uint32_t limit = (uint32_t)(vertices > 0 ? vertices : 0);
        uint32_t v = 0;
        if (a->count > 0 && max_value(table, indices) >= limit) {
            const int i = first_at_or_past(a, limit, &v);
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, i, -1,
                                  "%s: %s: index %d is %u, past the %d vertices", g->path, what,
                                  i, v, vertices);
        }
    }
    return OSSA_OK;
}

static ossa_result check_meshes(ossai_gltf *g, accessor_table *table)
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
            ossa_result r = check_primitive(g, table, prim, m, skin_joints[m], what);
            if (r)
                return r;
        }
    }
    return OSSA_OK;
}

static ossa_result check_skins(ossai_gltf *g, const accessor_table *table)
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
        const ossai_gltf_accessor *a = &table->accessors[ibm];
        if (a->components != 16 || a->component_type != OSSAI_GLTF_FLOAT || a->count < count)
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
    accessor_table table;
    memset(&table, 0, sizeof table);
    ossa_result r = ossai_gltf_open(&g, im, path, error);
    const cJSON *asset = g.json ? cJSON_GetObjectItemCaseSensitive(g.json, "asset") : NULL;
    const char *version =
        asset ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(asset, "version")) : NULL;
    /* glTF 1.0 (assimp's other reader) is left alone; anything else,
     * including a file without "asset", is read as 2.0 by assimp. */
    if (!r && !(version && version[0] == '1') &&
        !(r = check_nodes(&g)) && !(r = check_accessors(&g, &table)) &&
        !(r = check_skins(&g, &table)) && !(r = check_meshes(&g, &table)))
        r = check_animations(&g);
    ossai_gltf_close(&g);
    return r;
}
