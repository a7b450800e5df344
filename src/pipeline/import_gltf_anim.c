/* import_gltf_anim.c - glTF animations read from the file itself.
 *
 * assimp 5.2 keeps only the values of glTF samplers: STEP and CUBICSPLINE
 * come out as plain keys (the in/out tangents are dropped, the mode is not
 * recorded), so a STEP curve would be interpolated and a cubic one turned
 * into straight segments. This reads the samplers exactly as the glTF 2.0
 * spec defines them and maps glTF nodes onto assimp's node table. */
#include <assimp/scene.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf.h"

/* assimp's glTF importer builds its nodes from the scene's roots in order,
 * depth-first, under a "ROOT" node when there are several roots: the same
 * sequence as a pre-order walk of the glTF scene. Returns false when the
 * two disagree (then nodes are matched by name). */
static bool map_by_structure(const ossai_scene *sc, ossai_gltf *g, int gltf_nodes,
                             int *map, int *stack)
{
    int scene_index;
    const cJSON *scene_value = cJSON_GetObjectItemCaseSensitive(g->json, "scene");
    scene_index = cJSON_IsNumber(scene_value) ? (int)scene_value->valuedouble : 0;
    const cJSON *scene = ossai_gltf_item(g, "scenes", scene_index);
    const cJSON *roots = scene ? cJSON_GetObjectItemCaseSensitive(scene, "nodes") : NULL;
    const int root_count = cJSON_IsArray(roots) ? cJSON_GetArraySize(roots) : 0;
    if (root_count == 0 || root_count > gltf_nodes)
        return false;
    int next = 0;
    if (root_count > 1) {
        if (sc->nodes[0].ai->mNumChildren != (unsigned)root_count)
            return false;
        next = 1;
    }
    int top = 0;
    for (int i = root_count; i-- > 0;) {
        const cJSON *v = cJSON_GetArrayItem(roots, i);
        stack[top++] = cJSON_IsNumber(v) ? (int)v->valuedouble : -1;
    }
    while (top > 0) {
        const int n = stack[--top];
        if (n < 0 || n >= gltf_nodes || map[n] >= 0 || next >= sc->node_count)
            return false;
        const cJSON *node = ossai_gltf_item(g, "nodes", n);
        const cJSON *children = node ? cJSON_GetObjectItemCaseSensitive(node, "children") : NULL;
        const int child_count = cJSON_IsArray(children) ? cJSON_GetArraySize(children) : 0;
        const char *name = node ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "name"))
                                : NULL;
        const ossai_node *t = &sc->nodes[next];
        if (!node || t->ai->mNumChildren != (unsigned)child_count ||
            (name && name[0] && strcmp(name, t->name) != 0) || top + child_count > gltf_nodes)
            return false;
        map[n] = next++;
        for (int c = child_count; c-- > 0;) {
            const cJSON *v = cJSON_GetArrayItem(children, c);
            stack[top++] = cJSON_IsNumber(v) ? (int)v->valuedouble : -1;
        }
    }
    return true;
}

/* Fallback: assimp names a node by its "name", or "nodes[i]" without one. */
static void map_by_name(const ossai_scene *sc, ossai_gltf *g, int gltf_nodes, int *map)
{
    for (int n = 0; n < gltf_nodes; ++n) {
        const cJSON *node = ossai_gltf_item(g, "nodes", n);
        const char *name =
            node ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "name")) : NULL;
        char fallback[32];
        if (!name || !name[0]) {
            snprintf(fallback, sizeof fallback, "nodes[%d]", n);
            name = fallback;
        }
        map[n] = ossai_node_find(sc, name);
    }
}

typedef struct sampler_data {
    ossa_interpolation interpolation;
    float *times;
    int key_count;
    float *values, *in_tangents, *out_tangents; /* components per key each */
} sampler_data;

static ossa_result read_sampler(ossai_scene *sc, ossai_gltf *g, const cJSON *sampler,
                                int components, const char *what, sampler_data *out)
{
    int input, output;
    if (!ossai_gltf_int(g, sampler, "input", -1, &input, what) ||
        !ossai_gltf_int(g, sampler, "output", -1, &output, what))
        return sc->error->code;
    const char *interp =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sampler, "interpolation"));
    if (!interp || strcmp(interp, "LINEAR") == 0)
        out->interpolation = OSSA_INTERP_LINEAR;
    else if (strcmp(interp, "STEP") == 0)
        out->interpolation = OSSA_INTERP_STEP;
    else if (strcmp(interp, "CUBICSPLINE") == 0)
        out->interpolation = OSSA_INTERP_CUBICSPLINE;
    else
        return ossa_error_set(sc->error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "%s: %s: interpolation '%.40s' is not STEP, LINEAR or CUBICSPLINE",
                              sc->path, what, interp);
    ossa_result r = ossai_gltf_read_floats(g, input, 1, &out->times, &out->key_count, what);
    if (r)
        return r;
    float *values;
    int value_count;
    if ((r = ossai_gltf_read_floats(g, output, components, &values, &value_count, what)))
        return r;
    const int per_key = out->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1;
    if ((long long)value_count != (long long)out->key_count * per_key)
        return ossa_error_set(sc->error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: %s: %d output values for %d keys, expected %d", sc->path,
                              what, value_count, out->key_count, out->key_count * per_key);
    if (per_key == 1) {
        out->values = values;
        return OSSA_OK;
    }
    /* CUBICSPLINE keys are (in-tangent, value, out-tangent) triplets. */
    const size_t n = (size_t)out->key_count, c = (size_t)components;
    float *split = ossai_import_alloc(sc->im, 3 * n * c, sizeof(float));
    if (!split)
        return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              sc->path);
    out->in_tangents = split;
    out->values = split + n * c;
    out->out_tangents = split + 2 * n * c;
    for (size_t k = 0; k < n; ++k) {
        memcpy(out->in_tangents + k * c, values + (3 * k) * c, c * sizeof(float));
        memcpy(out->values + k * c, values + (3 * k + 1) * c, c * sizeof(float));
        memcpy(out->out_tangents + k * c, values + (3 * k + 2) * c, c * sizeof(float));
    }
    return OSSA_OK;
}

/* A morph weights channel: its output holds one weight per morph target
 * per key (and tangents for CUBICSPLINE), read as scalars and split into a
 * float track per target named after the node. */
static ossa_result read_weights(ossai_scene *sc, ossai_gltf *g, const cJSON *sampler,
                                ossai_node_clip *clip, int node, const int *map, const char *what,
                                double *duration)
{
    int input, output, keys, values;
    float *times, *all;
    ossa_result r;
    if (!ossai_gltf_int(g, sampler, "input", -1, &input, what) ||
        !ossai_gltf_int(g, sampler, "output", -1, &output, what))
        return sc->error->code;
    if ((r = ossai_gltf_read_floats(g, input, 1, &times, &keys, what)) ||
        (r = ossai_gltf_read_floats(g, output, 1, &all, &values, what)))
        return r;
    const char *interp =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(sampler, "interpolation"));
    const ossa_interpolation mode = !interp || strcmp(interp, "LINEAR") == 0 ? OSSA_INTERP_LINEAR
                                    : strcmp(interp, "STEP") == 0           ? OSSA_INTERP_STEP
                                    : strcmp(interp, "CUBICSPLINE") == 0 ? OSSA_INTERP_CUBICSPLINE
                                                                         : OSSA_INTERP_COUNT;
    if (mode == OSSA_INTERP_COUNT)
        return ossa_error_set(sc->error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "%s: %s: interpolation '%.40s' is not STEP, LINEAR or CUBICSPLINE",
                              sc->path, what, interp);
    const int per_key = mode == OSSA_INTERP_CUBICSPLINE ? 3 : 1;
    if (keys < 1 || values % (keys * per_key) != 0 || values == 0)
        return ossa_error_set(sc->error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: %s: %d weights for %d keys is not a whole number per key",
                              sc->path, what, values, keys);
    for (int k = 0; k < keys; ++k)
        *duration = times[k] > *duration ? times[k] : *duration;
    const int targets = values / (keys * per_key);
    /* per key: all targets' values (CUBICSPLINE: in-tangents, values, out-tangents) */
    const float *in = NULL, *out = NULL, *v = all;
    float *split = NULL;
    if (per_key == 3) {
        split = ossai_import_alloc(sc->im, (size_t)values, sizeof(float));
        if (!split)
            return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                  "%s: out of memory", sc->path);
        const size_t n = (size_t)keys * (size_t)targets;
        for (size_t k = 0; k < (size_t)keys; ++k)
            for (int part = 0; part < 3; ++part)
                memcpy(split + part * n + k * (size_t)targets,
                       all + (3 * k + (size_t)part) * (size_t)targets,
                       sizeof(float) * (size_t)targets);
        in = split, v = split + n, out = split + 2 * n;
    }
    char fallback[32];
    const char *name = map[node] >= 0 ? sc->nodes[map[node]].name : NULL;
    if (!name) {
        snprintf(fallback, sizeof fallback, "nodes[%d]", node);
        name = fallback;
    }
    if (!ossai_gltf_weight_tracks(sc, clip, name, mode, times, keys, v, in, out, targets))
        return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              sc->path);
    return OSSA_OK;
}

static ossai_node_track *track_of(ossai_node_clip *clip, int node)
{
    for (int i = 0; i < clip->track_count; ++i)
        if (clip->tracks[i].node == node)
            return &clip->tracks[i];
    ossai_node_track *t = &clip->tracks[clip->track_count++];
    t->node = node;
    return t;
}

static ossa_result read_animation(ossai_scene *sc, ossai_gltf *g, int index, const int *map,
                                  int gltf_nodes)
{
    ossai_node_clip *clip = &sc->clips[index];
    const cJSON *anim = ossai_gltf_item(g, "animations", index);
    const cJSON *channels = anim ? cJSON_GetObjectItemCaseSensitive(anim, "channels") : NULL;
    const cJSON *samplers = anim ? cJSON_GetObjectItemCaseSensitive(anim, "samplers") : NULL;
    const char *name = anim ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(anim, "name"))
                            : NULL;
    clip->name = ossai_import_strdup(sc->im, name ? name : "");
    const int channel_count = cJSON_IsArray(channels) ? cJSON_GetArraySize(channels) : 0;
    clip->tracks = ossai_import_alloc(sc->im, (size_t)channel_count + 1, sizeof *clip->tracks);
    if (!clip->name || !clip->tracks)
        return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              sc->path);
    double duration = 0.0;
    int c = 0;
    for (const cJSON *ch = channels ? channels->child : NULL; ch; ch = ch->next, ++c) {
        char what[96];
        snprintf(what, sizeof what, "animation %d ('%.32s') channel %d", index,
                 clip->name, c);
        const cJSON *target = cJSON_GetObjectItemCaseSensitive(ch, "target");
        const char *path =
            cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(target, "path"));
        int sampler_index, node;
        if (!cJSON_IsObject(ch) || !cJSON_IsObject(target) || !path ||
            !ossai_gltf_int(g, ch, "sampler", -1, &sampler_index, what) ||
            !ossai_gltf_int(g, target, "node", -1, &node, what))
            return sc->error->code ? sc->error->code
                                   : ossa_error_set(sc->error, OSSA_ERR_IMPORT, c, -1,
                                                    "%s: %s has no target path", sc->path,
                                                    what);
        const cJSON *sampler = cJSON_IsArray(samplers) && sampler_index >= 0
                                   ? cJSON_GetArrayItem(samplers, sampler_index)
                                   : NULL;
        if (!cJSON_IsObject(sampler))
            return ossa_error_set(sc->error, OSSA_ERR_IMPORT, c, -1,
                                  "%s: %s uses sampler %d, which does not exist", sc->path, what,
                                  sampler_index);
        const bool weights = strcmp(path, "weights") == 0;
        const int components = strcmp(path, "rotation") == 0 ? 4 : 3;
        if (!weights && strcmp(path, "translation") != 0 && strcmp(path, "scale") != 0 &&
            components != 4)
            return ossa_error_set(sc->error, OSSA_ERR_IMPORT, c, -1,
                                  "%s: %s: unknown target path '%.32s'", sc->path, what, path);
        if (node < 0) /* no target node: for extensions, ignored as the spec says */
            continue;
        if (node >= gltf_nodes)
            return ossa_error_set(sc->error, OSSA_ERR_IMPORT, c, -1,
                                  "%s: %s targets node %d, which does not exist", sc->path, what,
                                  node);
        if (weights) {
            /* Morph target weights: a float track per target (their keys
             * count towards the clip's length too). */
            ossa_result r = read_weights(sc, g, sampler, clip, node, map, what, &duration);
            if (r)
                return r;
            continue;
        }
        sampler_data s = {0};
        ossa_result r = read_sampler(sc, g, sampler, components, what, &s);
        if (r)
            return r;
        for (int k = 0; k < s.key_count; ++k)
            duration = s.times[k] > duration ? s.times[k] : duration;
        if (map[node] < 0) {
            if (!ossai_import_warn(sc->im, "%s targets glTF node %d, which assimp did not "
                                           "import: ignored", what, node))
                return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", sc->path);
            continue;
        }
        ossai_node_track *t = track_of(clip, map[node]);
        int *existing = components == 4 ? &t->rotation.key_count
                                        : (path[0] == 't' ? &t->translation.key_count
                                                          : &t->scale.key_count);
        if (*existing)
            return ossa_error_set(sc->error, OSSA_ERR_IMPORT, c, -1,
                                  "%s: %s: node '%s' has two %s channels", sc->path, what,
                                  sc->nodes[map[node]].name, path);
        if (components == 4) {
            t->rotation.times_s = s.times;
            t->rotation.values = (const ossa_quat *)(const void *)s.values;
            t->rotation.in_tangents = (const ossa_quat *)(const void *)s.in_tangents;
            t->rotation.out_tangents = (const ossa_quat *)(const void *)s.out_tangents;
            t->rotation.key_count = s.key_count;
            t->rotation.interpolation = s.interpolation;
        } else {
            ossa_raw_track3 *t3 = path[0] == 't' ? &t->translation : &t->scale;
            t3->times_s = s.times;
            t3->values = (const ossa_float3 *)(const void *)s.values;
            t3->in_tangents = (const ossa_float3 *)(const void *)s.in_tangents;
            t3->out_tangents = (const ossa_float3 *)(const void *)s.out_tangents;
            t3->key_count = s.key_count;
            t3->interpolation = s.interpolation;
        }
    }
    clip->duration_s = (float)duration;
    return OSSA_OK;
}

ossa_result ossai_clips_from_gltf(ossai_scene *sc)
{
    ossai_gltf g;
    ossa_result r = ossai_gltf_open(&g, sc->im, sc->path, sc->error);
    if (r) {
        ossai_gltf_close(&g);
        return r;
    }
    const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(g.json, "nodes");
    const cJSON *anims = cJSON_GetObjectItemCaseSensitive(g.json, "animations");
    const int gltf_nodes = cJSON_IsArray(nodes) ? cJSON_GetArraySize(nodes) : 0;
    const int anim_count = cJSON_IsArray(anims) ? cJSON_GetArraySize(anims) : 0;
    int *map = ossai_import_alloc(sc->im, (size_t)gltf_nodes + 1, sizeof(int));
    int *stack = ossai_import_alloc(sc->im, (size_t)gltf_nodes + 1, sizeof(int));
    sc->clips = ossai_import_alloc(sc->im, (size_t)anim_count + 1, sizeof *sc->clips);
    if (!map || !stack || !sc->clips) {
        r = ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                           sc->path);
        goto done;
    }
    for (int n = 0; n < gltf_nodes; ++n)
        map[n] = -1;
    if (!map_by_structure(sc, &g, gltf_nodes, map, stack)) {
        for (int n = 0; n < gltf_nodes; ++n)
            map[n] = -1;
        map_by_name(sc, &g, gltf_nodes, map);
    }
    for (int a = 0; a < anim_count && !r; ++a) {
        r = read_animation(sc, &g, a, map, gltf_nodes);
        if (!r)
            sc->clip_count = a + 1;
    }
done:
    ossai_gltf_close(&g);
    return r;
}
