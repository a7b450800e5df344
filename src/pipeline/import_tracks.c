/* import_tracks.c - per-node curves -> raw clips whose tracks name joints.
 *
 * A curve on a joint's own node is its whole local transform and is kept as
 * it is (scaled). That includes assimp 5.2's FBX output with pivots
 * preserved: the channel named after the node already holds the
 * translation, pre-rotation and rotation that its "$AssimpFbx$" helpers also
 * carry, so the helpers' static transforms must not be applied on top.
 * When the curves are on helpers instead (FBX pivots and offsets), the chain
 * helper * ... * node is evaluated at every key time and split back into a
 * translation, rotation and scale track. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "import_internal.h"

static bool scale_track3(ossai_scene *sc, ossa_raw_track3 *t)
{
    if (sc->scale == 1.0 || t->key_count == 0)
        return true;
    const size_t n = (size_t)t->key_count;
    const int arrays = t->interpolation == OSSA_INTERP_CUBICSPLINE ? 3 : 1;
    ossa_float3 *copy = ossai_import_alloc(sc->im, n * (size_t)arrays, sizeof(ossa_float3));
    if (!copy)
        return false;
    const ossa_float3 *sources[3] = {t->values, t->in_tangents, t->out_tangents};
    const float s = (float)sc->scale;
    for (int a = 0; a < arrays; ++a)
        for (size_t k = 0; k < n; ++k) {
            copy[a * n + k].x = sources[a][k].x * s;
            copy[a * n + k].y = sources[a][k].y * s;
            copy[a * n + k].z = sources[a][k].z * s;
        }
    t->values = copy;
    if (arrays == 3) {
        t->in_tangents = copy + n;
        t->out_tangents = copy + 2 * n;
    }
    return true;
}

/* A clip with no name takes the file's: "walk.fbx" -> "walk" (then
 * "walk_1", "walk_2"... when the file has several unnamed clips). */
static char *default_name(ossai_scene *sc, int index)
{
    const char *base = strrchr(sc->path, '/');
    base = base ? base + 1 : sc->path;
    const char *dot = strrchr(base, '.');
    const int length = (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base));
    char name[256];
    if (sc->clip_count == 1)
        snprintf(name, sizeof name, "%.*s", length > 200 ? 200 : length, base);
    else
        snprintf(name, sizeof name, "%.*s_%d", length > 200 ? 200 : length, base, index);
    return ossai_import_strdup(sc->im, name);
}

ossa_result ossai_clips_finish(ossai_scene *sc)
{
    ossa_import *im = sc->im;
    ossa_raw_clip *clips = ossai_import_alloc(im, (size_t)sc->clip_count + 1, sizeof *clips);
    if (!clips)
        goto oom;
    for (int c = 0; c < sc->clip_count; ++c) {
        const ossai_node_clip *clip = &sc->clips[c];
        ossa_raw_joint_track *tracks =
            ossai_import_alloc(im, (size_t)clip->track_count + 1, sizeof *tracks);
        if (!tracks)
            goto oom;
        int count = 0;
        for (int t = 0; t < clip->track_count; ++t) {
            const ossai_node_track *src = &clip->tracks[t];
            const ossai_node *node = &sc->nodes[src->node];
            const int target = node->is_helper ? node->owner : src->node;
            /* A helper curve of a node that is not a joint moves nothing. */
            if (node->is_helper && !sc->nodes[target].selected)
                continue;
            bool folded = false, seen = false;
            for (int u = 0; u < clip->track_count; ++u) {
                const ossai_node *other = &sc->nodes[clip->tracks[u].node];
                folded |= other->is_helper && other->owner == target;
                /* One track per target: the first curve of the chain makes it. */
                if (u < t && (clip->tracks[u].node == target ||
                              (other->is_helper && other->owner == target)))
                    seen = true;
            }
            if (seen)
                continue;
            ossa_raw_joint_track *out = &tracks[count++];
            out->joint_name = ossai_import_strdup(im, sc->nodes[target].name);
            if (!out->joint_name)
                goto oom;
            if (folded && sc->nodes[target].selected) {
                if (!ossai_fold_chain(sc, clip, target, out))
                    goto oom;
                continue;
            }
            out->translation = src->translation;
            out->rotation = src->rotation;
            out->scale = src->scale;
            if (!scale_track3(sc, &out->translation))
                goto oom;
        }
        clips[c].name = clip->name && clip->name[0] ? clip->name : default_name(sc, c);
        if (!clips[c].name)
            goto oom;
        clips[c].duration_s = clip->duration_s;
        clips[c].tracks = tracks;
        clips[c].track_count = count;
    }
    im->clips = clips;
    im->clip_count = sc->clip_count;
    return OSSA_OK;
oom:
    return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                          "%s: out of memory for the clips", sc->path);
}
