/* import_clips.c - assimp's animations -> per-node curves, for every format
 * but glTF (see import_gltf_anim.c). assimp gives linear keys in ticks; they
 * become seconds from the clip's start. */
#include <assimp/scene.h>
#include <math.h>
#include <string.h>

#include "import_internal.h"

/* assimp's convention when a file gives no tick rate. */
#define DEFAULT_TICKS_PER_SECOND 25.0
#define SAME_VALUE 1e-6f

static bool same3(ossa_float3 a, ossa_float3 b)
{
    return fabsf(a.x - b.x) <= SAME_VALUE && fabsf(a.y - b.y) <= SAME_VALUE &&
           fabsf(a.z - b.z) <= SAME_VALUE;
}

static bool same_rotation(ossa_quat a, ossa_quat b)
{
    const float d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    const float s = d < 0.0f ? -1.0f : 1.0f;
    return fabsf(a.x - s * b.x) <= SAME_VALUE && fabsf(a.y - s * b.y) <= SAME_VALUE &&
           fabsf(a.z - s * b.z) <= SAME_VALUE && fabsf(a.w - s * b.w) <= SAME_VALUE;
}

static bool varies3(const ossa_raw_track3 *t)
{
    for (int k = 1; k < t->key_count; ++k)
        if (!same3(t->values[k], t->values[0]))
            return true;
    /* A cubic curve with non-zero tangents moves between equal keys. */
    if (t->interpolation == OSSA_INTERP_CUBICSPLINE && t->key_count > 1) {
        const ossa_float3 zero = {0.0f, 0.0f, 0.0f};
        for (int k = 0; k < t->key_count; ++k)
            if (!same3(t->in_tangents[k], zero) || !same3(t->out_tangents[k], zero))
                return true;
    }
    return false;
}

static bool varies_quat(const ossa_raw_track_quat *t)
{
    for (int k = 1; k < t->key_count; ++k)
        if (!same_rotation(t->values[k], t->values[0]))
            return true;
    if (t->interpolation == OSSA_INTERP_CUBICSPLINE && t->key_count > 1) {
        const ossa_quat zero = {0.0f, 0.0f, 0.0f, 0.0f};
        for (int k = 0; k < t->key_count; ++k)
            if (!same_rotation(t->in_tangents[k], zero) ||
                !same_rotation(t->out_tangents[k], zero))
                return true;
    }
    return false;
}

bool ossai_node_track_varies(const ossai_node_track *t)
{
    return varies3(&t->translation) || varies_quat(&t->rotation) || varies3(&t->scale);
}

/* assimp's keys in ticks -> a linear track in seconds. aiVectorKey and
 * aiQuatKey differ only in their value, so one body defines both
 * converters; VALUE(v) makes the track's value of a key's. False when out of
 * memory. */
#define DEFINE_CONVERT_KEYS(name, key_type, track_type, value_type, VALUE)                       \
    static bool name(ossai_scene *sc, const struct key_type *keys, unsigned count, double tps,  \
                     track_type *out)                                                           \
    {                                                                                           \
        if (count == 0 || !keys)                                                                \
            return true;                                                                        \
        float *times = ossai_import_alloc(sc->im, count, sizeof *times);                       \
        value_type *values = ossai_import_alloc(sc->im, count, sizeof *values);                \
        if (!times || !values)                                                                  \
            return false;                                                                       \
        for (unsigned k = 0; k < count; ++k) {                                                  \
            times[k] = (float)(keys[k].mTime / tps);                                            \
            values[k] = VALUE(keys[k].mValue);                                                  \
        }                                                                                       \
        *out = (track_type){times, values, NULL, NULL, (int)count, OSSA_INTERP_LINEAR};        \
        return true;                                                                            \
    }
#define VECTOR(v) ((ossa_float3){(v).x, (v).y, (v).z})
#define QUATERNION(v) ((ossa_quat){(v).x, (v).y, (v).z, (v).w})
DEFINE_CONVERT_KEYS(convert_vector_keys, aiVectorKey, ossa_raw_track3, ossa_float3, VECTOR)
DEFINE_CONVERT_KEYS(convert_quat_keys, aiQuatKey, ossa_raw_track_quat, ossa_quat, QUATERNION)

/* A clip's name: assimp's, but for Collada, whose animations assimp 5.2
 * names after their first channel (a clip called after its camera), the
 * file's <animation_clip> names when there is one per animation, else
 * nothing: the clip then takes the file's name (import_tracks.c). */
static const char *clip_name(const ossai_scene *sc, const struct aiAnimation *anim, unsigned a,
                             unsigned count)
{
    if (sc->im->format != OSSA_SOURCE_COLLADA)
        return anim->mName.data;
    if (sc->dae.clip_name_count == (int)count)
        return sc->dae.clip_names[a];
    return "";
}

ossa_result ossai_clips_from_assimp(ossai_scene *sc)
{
    const struct aiScene *scene = sc->ai;
    const unsigned count = scene->mAnimations ? scene->mNumAnimations : 0;
    sc->clips = ossai_import_alloc(sc->im, (size_t)count + 1, sizeof *sc->clips);
    if (!sc->clips)
        goto oom;
    for (unsigned a = 0; a < count; ++a) {
        const struct aiAnimation *anim = scene->mAnimations[a];
        ossai_node_clip *clip = &sc->clips[a];
        const double tps = anim->mTicksPerSecond > 0.0 && isfinite(anim->mTicksPerSecond)
                               ? anim->mTicksPerSecond
                               : DEFAULT_TICKS_PER_SECOND;
        const unsigned channels = anim->mChannels ? anim->mNumChannels : 0;
        clip->name = ossai_import_strdup(sc->im, clip_name(sc, anim, a, count));
        clip->tracks = ossai_import_alloc(sc->im, (size_t)channels + 1, sizeof *clip->tracks);
        if (!clip->name || !clip->tracks)
            goto oom;
        double last_key = 0.0;
        for (unsigned c = 0; c < channels; ++c) {
            const struct aiNodeAnim *ch = anim->mChannels[c];
            const int node = ossai_node_find(sc, ch->mNodeName.data);
            bool duplicate = false;
            for (int i = 0; i < clip->track_count && node >= 0; ++i)
                duplicate |= clip->tracks[i].node == node;
            if (node < 0 || duplicate) {
                if (!ossai_import_warn(sc->im, "clip '%s': %s channel for '%s' ignored",
                                       clip->name, node < 0 ? "no node for the" : "a second",
                                       ch->mNodeName.data))
                    goto oom;
                continue;
            }
            ossai_node_track *t = &clip->tracks[clip->track_count++];
            t->node = node;
            if (!convert_vector_keys(sc, ch->mPositionKeys, ch->mNumPositionKeys, tps,
                                     &t->translation) ||
                !convert_quat_keys(sc, ch->mRotationKeys, ch->mNumRotationKeys, tps,
                                   &t->rotation) ||
                !convert_vector_keys(sc, ch->mScalingKeys, ch->mNumScalingKeys, tps, &t->scale))
                goto oom;
            const ossa_raw_track3 *curves3[2] = {&t->translation, &t->scale};
            for (int k = 0; k < 2; ++k)
                if (curves3[k]->key_count)
                    last_key = fmax(last_key, curves3[k]->times_s[curves3[k]->key_count - 1]);
            if (t->rotation.key_count)
                last_key = fmax(last_key, t->rotation.times_s[t->rotation.key_count - 1]);
        }
        /* The source's own length when it states one, else its last key. */
        const double duration = anim->mDuration > 0.0 ? anim->mDuration / tps : last_key;
        clip->duration_s = isfinite(duration) ? (float)duration : 0.0f;
        sc->clip_count = (int)a + 1;
    }
    return OSSA_OK;
oom:
    return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                          "%s: out of memory for the clips", sc->path);
}
