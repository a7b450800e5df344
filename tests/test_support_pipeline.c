/* test_support_pipeline.c - the helpers of test_support.h that build
 * skeletons and clips through the pipeline (linked only when it exists). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/pipeline.h"
#include "test_support.h"

ossa_skeleton *ts_skeleton_make(const uint16_t *parents, const ossa_transform *rest, int n)
{
    ossa_raw_joint *joints = calloc((size_t)n, sizeof *joints);
    char (*names)[24] = calloc((size_t)n, sizeof *names);
    ossa_skeleton *skeleton = NULL;
    if (joints && names) {
        for (int i = 0; i < n; ++i) {
            snprintf(names[i], sizeof names[i], "j%d", i);
            joints[i].name = names[i];
            joints[i].parent = parents[i] == OSSA_NO_PARENT ? -1 : (int)parents[i];
            joints[i].rest = rest ? rest[i] : ossa_transform_identity();
        }
        ossa_raw_skeleton raw = {joints, n};
        ossa_error error;
        if (ossa_skeleton_build(&raw, NULL, &skeleton, NULL, &error) != OSSA_OK)
            fprintf(stderr, "ts_skeleton_make: %s\n", error.message);
    }
    free(joints);
    free(names);
    return skeleton;
}

ossa_clip *ts_clip_make(const ossa_skeleton *skeleton, const ossa_transform *keys, int frames,
                        float rate, const uint8_t *step, const char *name)
{
    const int n = ossa_skeleton_joint_count(skeleton);
    float *times = malloc(sizeof *times * (size_t)frames);
    ossa_float3 *t = malloc(sizeof *t * (size_t)frames * (size_t)n);
    ossa_quat *q = malloc(sizeof *q * (size_t)frames * (size_t)n);
    ossa_float3 *s = malloc(sizeof *s * (size_t)frames * (size_t)n);
    ossa_raw_joint_track *tracks = calloc((size_t)n, sizeof *tracks);
    ossa_clip *clip = NULL;
    if (times && t && q && s && tracks) {
        for (int f = 0; f < frames; ++f)
            times[f] = (float)f / rate;
        for (int j = 0; j < n; ++j) {
            for (int f = 0; f < frames; ++f) {
                const ossa_transform *k = &keys[(size_t)f * (size_t)n + (size_t)j];
                t[(size_t)j * (size_t)frames + (size_t)f] = k->translation;
                q[(size_t)j * (size_t)frames + (size_t)f] = k->rotation;
                s[(size_t)j * (size_t)frames + (size_t)f] = k->scale;
            }
            const uint8_t bits = step ? step[j] : 0;
            ossa_raw_joint_track *tr = &tracks[j];
            tr->joint_name = ossa_skeleton_joint_name(skeleton, j);
            tr->translation = (ossa_raw_track3){times, t + (size_t)j * (size_t)frames, NULL, NULL,
                                                frames,
                                                bits & 1 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR};
            tr->rotation = (ossa_raw_track_quat){times, q + (size_t)j * (size_t)frames, NULL,
                                                 NULL, frames,
                                                 bits & 2 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR};
            tr->scale = (ossa_raw_track3){times, s + (size_t)j * (size_t)frames, NULL, NULL, frames,
                                          bits & 4 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR};
        }
        ossa_raw_clip raw = {name, (float)(frames - 1) / rate, tracks, n};
        ossa_clip_build_options options;
        memset(&options, 0, sizeof options);
        options.rate = rate;
        options.raw = true; /* the keys as they are */
        ossa_error error;
        if (ossa_clip_build(&raw, skeleton, &options, &clip, NULL, &error) != OSSA_OK)
            fprintf(stderr, "ts_clip_make: %s\n", error.message);
    }
    free(times);
    free(t);
    free(q);
    free(s);
    free(tracks);
    return clip;
}

bool ts_import_model(const char *name, const ossa_import_options *options, ossa_import *out)
{
    const char *path = ts_model_path(name);
    if (!path)
        return false;
    ossa_error e;
    if (ossa_import_file(path, options, out, &e) != OSSA_OK) {
        fprintf(stderr, "import %s: %s\n", name, e.message);
        return false;
    }
    return true;
}

ossa_skeleton *ts_import_skeleton(const ossa_import *im)
{
    ossa_skeleton *s = NULL;
    ossa_error e;
    /* the import's units, as `ossa build` records them: the clip builder's
     * tolerance (in metres) is then the same physical bound as the tool's */
    ossa_skeleton_build_options o;
    memset(&o, 0, sizeof o);
    o.metres_per_unit = im->metres_per_unit;
    if (ossa_skeleton_build(&im->skeleton, &o, &s, NULL, &e) != OSSA_OK)
        fprintf(stderr, "skeleton: %s\n", e.message);
    return s;
}

ossa_clip *ts_clip_build(const ossa_raw_clip *raw, const ossa_skeleton *skeleton, float rate)
{
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options);
    options.rate = rate;
    options.raw = true;
    ossa_clip *clip = NULL;
    ossa_error e;
    if (ossa_clip_build(raw, skeleton, &options, &clip, NULL, &e) != OSSA_OK)
        fprintf(stderr, "clip: %s\n", e.message);
    return clip;
}
