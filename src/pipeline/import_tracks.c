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
#include <stdlib.h>
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

static int compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void add_times(const float *times, int n, float *all, int *count)
{
    for (int k = 0; k < n; ++k)
        all[(*count)++] = times[k];
}

/* Evaluates one chain factor at t: its curves where it has them, its
 * static transform otherwise. */
static ossai_dmat factor_at(const ossai_scene *sc, int node, const ossai_node_track *track,
                            float t)
{
    if (!track)
        return sc->nodes[node].local;
    ossa_transform rest;
    ossai_dmat_decompose(&sc->nodes[node].local, &rest);
    ossa_float3 tr = track->translation.key_count
                         ? ossa_raw_track3_eval(&track->translation, t)
                         : rest.translation;
    ossa_quat q = track->rotation.key_count ? ossa_raw_track_quat_eval(&track->rotation, t)
                                            : rest.rotation;
    ossa_float3 s = track->scale.key_count ? ossa_raw_track3_eval(&track->scale, t) : rest.scale;
    return ossai_dmat_from_trs(tr, q, s);
}

/* Folds the curves of a joint's helpers (and its own, if any) into one
 * track sampled at the union of their key times. */
static bool fold_chain(ossai_scene *sc, const ossai_node_clip *clip, int joint_node,
                       ossa_raw_joint_track *out)
{
    /* The chain: nodes between the parent joint and this joint, top first. */
    int chain_count = 0;
    for (int p = joint_node; p >= 0 && (p == joint_node || !sc->nodes[p].selected);
         p = sc->nodes[p].parent)
        ++chain_count;
    int *chain = ossai_import_alloc(sc->im, (size_t)chain_count, sizeof(int));
    const ossai_node_track **tracks =
        ossai_import_alloc(sc->im, (size_t)chain_count, sizeof *tracks);
    if (!chain || !tracks)
        return false;
    int k = chain_count;
    for (int p = joint_node; k > 0; p = sc->nodes[p].parent)
        chain[--k] = p;
    size_t total = 0;
    for (int c = 0; c < chain_count; ++c)
        for (int t = 0; t < clip->track_count; ++t)
            if (clip->tracks[t].node == chain[c]) {
                tracks[c] = &clip->tracks[t];
                total += (size_t)tracks[c]->translation.key_count +
                         (size_t)tracks[c]->rotation.key_count +
                         (size_t)tracks[c]->scale.key_count;
            }
    float *times = ossai_import_alloc(sc->im, total + 1, sizeof(float));
    if (!times)
        return false;
    int n = 0;
    for (int c = 0; c < chain_count; ++c)
        if (tracks[c]) {
            add_times(tracks[c]->translation.times_s, tracks[c]->translation.key_count, times, &n);
            add_times(tracks[c]->rotation.times_s, tracks[c]->rotation.key_count, times, &n);
            add_times(tracks[c]->scale.times_s, tracks[c]->scale.key_count, times, &n);
        }
    qsort(times, (size_t)n, sizeof(float), compare_floats);
    int unique = 0;
    for (int i = 0; i < n; ++i)
        if (isfinite(times[i]) && (unique == 0 || times[i] > times[unique - 1]))
            times[unique++] = times[i];
    ossa_float3 *translations = ossai_import_alloc(sc->im, (size_t)unique + 1, sizeof(ossa_float3));
    ossa_float3 *scales = ossai_import_alloc(sc->im, (size_t)unique + 1, sizeof(ossa_float3));
    ossa_quat *rotations = ossai_import_alloc(sc->im, (size_t)unique + 1, sizeof(ossa_quat));
    if (!translations || !scales || !rotations)
        return false;
    for (int i = 0; i < unique; ++i) {
        ossai_dmat m = ossai_dmat_identity();
        for (int c = 0; c < chain_count; ++c) {
            const ossai_dmat f = factor_at(sc, chain[c], tracks[c], times[i]);
            m = ossai_dmat_mul(&m, &f);
        }
        ossa_transform x;
        ossai_dmat_decompose(&m, &x);
        if (i > 0) {
            const ossa_quat p = rotations[i - 1];
            if (p.x * x.rotation.x + p.y * x.rotation.y + p.z * x.rotation.z +
                    p.w * x.rotation.w < 0.0f)
                x.rotation = (ossa_quat){-x.rotation.x, -x.rotation.y, -x.rotation.z,
                                         -x.rotation.w};
        }
        translations[i] = (ossa_float3){x.translation.x * (float)sc->scale,
                                        x.translation.y * (float)sc->scale,
                                        x.translation.z * (float)sc->scale};
        rotations[i] = x.rotation;
        scales[i] = x.scale;
    }
    out->translation = (ossa_raw_track3){times, translations, NULL, NULL, unique,
                                         OSSA_INTERP_LINEAR};
    out->rotation = (ossa_raw_track_quat){times, rotations, NULL, NULL, unique,
                                          OSSA_INTERP_LINEAR};
    out->scale = (ossa_raw_track3){times, scales, NULL, NULL, unique, OSSA_INTERP_LINEAR};
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
                if (!fold_chain(sc, clip, target, out))
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
