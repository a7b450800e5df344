/* import_float_tracks.c - an import's float tracks: the animated scalar
 * channels the file readers found (glTF morph weights, FBX animated
 * properties), and the channels
 * of the nodes the caller names, one float
 * track per component that changes over the clip. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_internal.h"

/* Room for one more float track in a node clip (grown by doubling). */
ossa_raw_float_track *ossai_float_track_add(ossai_scene *sc, ossai_node_clip *clip)
{
    const int n = clip->float_track_count;
    if ((n & (n - 1)) == 0) { /* 0, 1, 2, 4...: full */
        ossa_raw_float_track *grown =
            ossai_import_alloc(sc->im, (size_t)(n ? 2 * n : 4), sizeof *grown);
        if (!grown)
            return NULL;
        if (n)
            memcpy(grown, clip->float_tracks, sizeof *grown * (size_t)n);
        clip->float_tracks = grown;
    }
    ossa_raw_float_track *t = &clip->float_tracks[clip->float_track_count++];
    memset(t, 0, sizeof *t);
    return t;
}

/* key_count values of one component out of interleaved keys. */
static float *component(ossai_scene *sc, const float *keys, int key_count, int stride, int c)
{
    if (!keys)
        return NULL;
    float *out = ossai_import_alloc(sc->im, (size_t)key_count, sizeof *out);
    for (int k = 0; out && k < key_count; ++k)
        out[k] = keys[(size_t)k * (size_t)stride + (size_t)c];
    return out;
}

static bool add_component(ossai_scene *sc, ossai_node_clip *clip, const char *name,
                          ossa_interpolation mode, const float *times, int key_count,
                          const float *values, const float *in, const float *out, int stride,
                          int c)
{
    ossa_raw_float_track *t = ossai_float_track_add(sc, clip);
    if (!t)
        return false;
    t->name = ossai_import_strdup(sc->im, name);
    t->times_s = times;
    t->values = component(sc, values, key_count, stride, c);
    t->interpolation = mode;
    t->key_count = key_count;
    if (mode == OSSA_INTERP_CUBICSPLINE) {
        t->in_tangents = component(sc, in, key_count, stride, c);
        t->out_tangents = component(sc, out, key_count, stride, c);
        if (!t->in_tangents || !t->out_tangents)
            return false;
    }
    return t->name && t->values;
}

bool ossai_gltf_weight_tracks(ossai_scene *sc, ossai_node_clip *clip, const char *node,
                              ossa_interpolation interpolation, const float *times,
                              int key_count, const float *values, const float *in_tangents,
                              const float *out_tangents, int targets)
{
    for (int i = 0; i < targets; ++i) {
        char name[300];
        snprintf(name, sizeof name, "%.256s.weights[%d]", node, i);
        if (!add_component(sc, clip, name, interpolation, times, key_count, values, in_tangents,
                           out_tangents, targets, i))
            return false;
    }
    return true;
}

ossa_result ossai_file_tracks_attach(ossai_scene *sc)
{
    const ossai_file_tracks *file = sc->file_tracks;
    for (int t = 0; file && t < file->count; ++t) {
        const ossai_file_track *in = &file->tracks[t];
        ossai_node_clip *clip = !in->clip && sc->clip_count == 1 ? &sc->clips[0] : NULL;
        for (int c = 0; c < sc->clip_count && !clip && in->clip; ++c)
            if (sc->clips[c].name && strcmp(sc->clips[c].name, in->clip) == 0)
                clip = &sc->clips[c];
        if (!clip) {
            /* assimp 5.2 makes no clip of an animation that moves no node */
            if (!ossai_import_warn(sc->im, "float track '%s' ignored: %s%s%s", in->track.name,
                                   in->clip ? "its clip '" : "the file has not one clip but ",
                                   in->clip ? in->clip : (sc->clip_count ? "several" : "none"),
                                   in->clip ? "' moves no node, so it is no clip" : ""))
                return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", sc->path);
            continue;
        }
        ossa_raw_float_track *out = ossai_float_track_add(sc, clip);
        if (!out)
            return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                                  sc->path);
        *out = in->track;
    }
    return OSSA_OK;
}

/* Whether component c of interleaved keys changes. */
static bool changes(const float *values, int key_count, int stride, int c)
{
    for (int k = 1; k < key_count; ++k)
        if (values[(size_t)k * (size_t)stride + (size_t)c] != values[c])
            return true;
    return false;
}

/* The changing components of a node's curves (as the clip has them: FBX
 * helpers folded, lengths scaled), as float tracks. */
static bool node_channels(ossai_scene *sc, ossai_node_clip *clip, const char *node,
                          const ossa_raw_joint_track *t)
{
    static const char *const axes = "xyzw";
    struct {
        const char *what;
        const float *times, *values, *in, *out;
        int keys, components;
        ossa_interpolation mode;
    } curves[3] = {
        {"translation", t->translation.times_s, (const float *)t->translation.values,
         (const float *)t->translation.in_tangents, (const float *)t->translation.out_tangents,
         t->translation.key_count, 3, t->translation.interpolation},
        {"rotation", t->rotation.times_s, (const float *)t->rotation.values,
         (const float *)t->rotation.in_tangents, (const float *)t->rotation.out_tangents,
         t->rotation.key_count, 4, t->rotation.interpolation},
        {"scale", t->scale.times_s, (const float *)t->scale.values,
         (const float *)t->scale.in_tangents, (const float *)t->scale.out_tangents,
         t->scale.key_count, 3, t->scale.interpolation},
    };
    for (int k = 0; k < 3; ++k)
        for (int c = 0; c < curves[k].components && curves[k].keys > 0; ++c) {
            if (!changes(curves[k].values, curves[k].keys, curves[k].components, c))
                continue;
            char name[300];
            snprintf(name, sizeof name, "%.256s.%s.%c", node, curves[k].what, axes[c]);
            if (!add_component(sc, clip, name, curves[k].mode, curves[k].times, curves[k].keys,
                               curves[k].values, curves[k].in, curves[k].out,
                               curves[k].components, c))
                return false;
        }
    return true;
}

ossa_result ossai_float_tracks_finish(ossai_scene *sc, const ossa_import_options *options)
{
    ossa_import *im = sc->im;
    if (options->track_node_count > 0 && !options->track_nodes)
        return ossa_error_set(sc->error, OSSA_ERR_MISSING_INPUT, -1, -1,
                              "%s: %d track nodes but no names", sc->path,
                              options->track_node_count);
    ossa_result r = ossai_file_tracks_attach(sc);
    if (r)
        return r;
    for (int n = 0; n < options->track_node_count; ++n) {
        const char *name = options->track_nodes[n];
        if (!name)
            return ossa_error_set(sc->error, OSSA_ERR_MISSING_INPUT, n, -1,
                                  "%s: track node name %d is NULL", sc->path, n);
        for (int c = 0; c < sc->clip_count; ++c) {
            const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im->clips[c], name);
            if (t && !node_channels(sc, &sc->clips[c], name, t))
                return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", sc->path);
        }
    }
    ossa_raw_float_tracks *lists =
        ossai_import_alloc(im, (size_t)sc->clip_count + 1, sizeof *lists);
    if (!lists)
        return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              sc->path);
    for (int c = 0; c < sc->clip_count; ++c)
        lists[c] = (ossa_raw_float_tracks){sc->clips[c].float_tracks,
                                           sc->clips[c].float_track_count};
    im->clip_float_tracks = lists;
    return OSSA_OK;
}
