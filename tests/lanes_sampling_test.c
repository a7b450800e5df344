/* lanes_sampling_test.c - the lane sampling job (characters in SIMD lanes)
 * against the reference sampling job, on every path this machine runs, every
 * batch width and partly filled batches, STEP tracks and the default character. */
#include <stdlib.h>
#include <string.h>

#include "lanes_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* ---- a random character: skeleton, three clips with mixed STEP tracks ---- */

typedef struct character {
    ossa_skeleton *skeleton;
    ossa_clip *clips[3];
    int joints;
} character;

#define MAX_KEYS 6

typedef struct joint_keys {
    float t_times[MAX_KEYS], r_times[MAX_KEYS], s_times[MAX_KEYS];
    ossa_float3 t[MAX_KEYS], s[MAX_KEYS];
    ossa_quat r[MAX_KEYS];
} joint_keys;

static int random_keys(ts_rng *rng, float duration, float *times)
{
    const int n = 1 + ts_int(rng, MAX_KEYS);
    for (int k = 0; k < n; ++k)
        times[k] = duration * (float)k / (float)(n > 1 ? n - 1 : 1);
    return n;
}

static ossa_interpolation random_interp(ts_rng *rng, int steps)
{
    return steps && ts_int(rng, 4) == 0 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR;
}

static void character_free(character *c)
{
    for (int k = 0; k < 3; ++k)
        ossa_clip_free(c->clips[k], NULL);
    ossa_skeleton_free(c->skeleton, NULL);
    memset(c, 0, sizeof *c);
}

static int character_make(ts_rng *rng, int joints, int steps, character *out)
{
    memset(out, 0, sizeof *out);
    ossa_raw_joint *raw = calloc((size_t)joints, sizeof *raw);
    uint16_t *parents = calloc((size_t)joints, sizeof *parents);
    char(*names)[16] = calloc((size_t)joints, sizeof *names);
    joint_keys *keys = calloc((size_t)joints, sizeof *keys);
    ossa_raw_joint_track *tracks = calloc((size_t)joints, sizeof *tracks);
    ossa_error e;
    int ok = raw && parents && names && keys && tracks;
    if (ok) {
        ts_parents(rng, joints, 1 + ts_int(rng, 2), parents);
        for (int j = 0; j < joints; ++j) {
            snprintf(names[j], sizeof names[j], "j%d", j);
            raw[j].name = names[j];
            raw[j].parent = parents[j] == 0xFFFFu ? -1 : parents[j];
            raw[j].rest = ts_transform(rng, TS_SCALE_ANY);
        }
        ossa_raw_skeleton rs = {raw, joints};
        ok = ossa_skeleton_build(&rs, NULL, &out->skeleton, NULL, &e) == OSSA_OK;
    }
    for (int k = 0; ok && k < 3; ++k) {
        const float duration = (float)ts_uniform(rng, 0.5, 2.0);
        for (int j = 0; j < joints; ++j) {
            joint_keys *jk = &keys[j];
            ossa_raw_joint_track *t = &tracks[j];
            memset(t, 0, sizeof *t);
            t->joint_name = names[j];
            t->translation.key_count = random_keys(rng, duration, jk->t_times);
            t->rotation.key_count = random_keys(rng, duration, jk->r_times);
            t->scale.key_count = random_keys(rng, duration, jk->s_times);
            for (int i = 0; i < MAX_KEYS; ++i) {
                ossa_transform x = ts_transform(rng, TS_SCALE_ANY);
                jk->t[i] = x.translation;
                jk->r[i] = x.rotation;
                jk->s[i] = x.scale;
            }
            t->translation.times_s = jk->t_times;
            t->translation.values = jk->t;
            t->translation.interpolation = random_interp(rng, steps);
            t->rotation.times_s = jk->r_times;
            t->rotation.values = jk->r;
            t->rotation.interpolation = random_interp(rng, steps);
            t->scale.times_s = jk->s_times;
            t->scale.values = jk->s;
            t->scale.interpolation = random_interp(rng, steps);
        }
        ossa_raw_clip rc = {"random", duration, tracks, joints};
        ossa_clip_build_options o = {0};
        o.rate = 30.0f;
        o.raw = true; /* compressed clips: lanes_packed_test.c */
        ok = ossa_clip_build(&rc, out->skeleton, &o, &out->clips[k], NULL, &e) == OSSA_OK;
    }
    out->joints = joints;
    free(raw);
    free(parents);
    free(names);
    free(keys);
    free(tracks);
    if (!ok)
        character_free(out);
    return ok;
}

/* ---- sampling ---- */

static void check_sampling(const character *ch, ts_rng *rng, ossa_simd_path path, int job_width,
                           int characters, ossa_wrap wrap)
{
    const int width = job_width ? job_width : ossa_lane_width();
    const int joints = ch->joints;
    const ossa_clip *clips[3] = {ch->clips[0], ch->clips[1], ch->clips[2]};
    uint16_t *clip_index = malloc(sizeof(uint16_t) * (size_t)characters);
    float *times = malloc(sizeof(float) * (size_t)characters);
    for (int c = 0; c < characters; ++c) {
        clip_index[c] = (uint16_t)ts_int(rng, 3);
        const float d = ossa_clip_duration(clips[clip_index[c]]);
        switch (ts_int(rng, 4)) {
        case 0: times[c] = 0.0f; break; /* on the first key */
        case 1: times[c] = (float)ts_uniform(rng, -3.0 * d, 3.0 * d); break;
        default: times[c] = (float)ts_uniform(rng, 0.0, d); break;
        }
    }
    ossa_transform *ref = malloc(sizeof(ossa_transform) * (size_t)characters * (size_t)joints);
    ossa_sampling_job rj = {0};
    rj.clips = clips;
    rj.clip_count = 3;
    rj.clip_index = clip_index;
    rj.clip_index_count = characters;
    rj.time_s = times;
    rj.character_count = characters;
    rj.wrap = wrap;
    rj.output = ref;
    rj.output_count = characters * joints;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);

    const int floats = ossa_lane_pose_floats(joints, characters, width);
    float *lanes = lane_alloc(floats);
    ossa_lane_sampling_job lj = {0};
    lj.clips = clips;
    lj.clip_count = 3;
    lj.clip_index = clip_index;
    lj.clip_index_count = characters;
    lj.time_s = times;
    lj.character_count = characters;
    lj.wrap = wrap;
    lj.width = job_width;
    lj.path = path;
    lj.output = lanes;
    lj.output_count = floats;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    /* every character moved one lane on (a clone of character 0 first)
     * gets the same bits: a lane's arithmetic depends neither on its lane
     * nor on its batch */
    {
        const int shifted_n = characters + 1;
        uint16_t *clip_index2 = malloc(sizeof(uint16_t) * (size_t)shifted_n);
        float *times2 = malloc(sizeof(float) * (size_t)shifted_n);
        clip_index2[0] = clip_index[0];
        times2[0] = times[0];
        memcpy(clip_index2 + 1, clip_index, sizeof(uint16_t) * (size_t)characters);
        memcpy(times2 + 1, times, sizeof(float) * (size_t)characters);
        const int floats2 = ossa_lane_pose_floats(joints, shifted_n, width);
        float *shifted = lane_alloc((size_t)floats2);
        ossa_lane_sampling_job sj = lj;
        sj.clip_index = clip_index2;
        sj.clip_index_count = shifted_n;
        sj.time_s = times2;
        sj.character_count = shifted_n;
        sj.output = shifted;
        sj.output_count = floats2;
        CHECK_RESULT(ossa_lane_sampling_job_run(&sj), OSSA_OK);
        int same = 1;
        for (int c = 0; c < characters; ++c)
            for (int j = 0; j < joints; ++j) {
                const ossa_transform a = lane_transform(lanes, joints, width, c, j);
                const ossa_transform b = lane_transform(shifted, joints, width, c + 1, j);
                same &= memcmp(&a, &b, sizeof a) == 0;
            }
        if (!same)
            fprintf(stderr, "sampling %s w%d n%d: a character one lane on differs\n",
                    ossa_simd_path_name(path), width, characters);
        CHECK(same);
        free(shifted);
        free(clip_index2);
        free(times2);
    }
    double worst = 0;
    int exact_keys = 1;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ossa_transform a = lane_transform(lanes, joints, width, c, j);
            const ossa_transform b = ref[(size_t)c * joints + j];
            double d = transform_diff(a, b);
            if (!(d <= worst))
                worst = d;
            /* at a key's time the result is the key, bit for bit */
            if (times[c] == 0.0f && memcmp(&a, &b, sizeof a) != 0)
                exact_keys = 0;
        }
    CHECK(exact_keys);
    if (!(worst <= SAMPLE_TOLERANCE))
        fprintf(stderr, "sampling %s w%d n%d: worst %.3g\n", ossa_simd_path_name(path), width,
                characters, worst);
    CHECK(worst <= SAMPLE_TOLERANCE);
    /* unused lanes of the last batch repeat its first character */
    const int last = characters - 1, first = last / width * width;
    if ((last + 1) % width != 0)
        for (int j = 0; j < joints; ++j)
            CHECK(transform_diff(lane_transform(lanes, joints, width, last + 1, j),
                                 lane_transform(lanes, joints, width, first, j)) == 0.0);
    free(clip_index);
    free(times);
    free(ref);
    free(lanes);
}

TEST(lane_sampling_matches_reference_for_every_path_width_and_fill)
{
    ts_rng rng = ts_rng_make(11);
    character ch;
    REQUIRE(character_make(&rng, 37, 0, &ch));
    int paths = 0;
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        ++paths;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            const int fills[] = {1, width - 1, width, 3 * width + 2};
            for (int f = 0; f < 4; ++f)
                check_sampling(&ch, &rng, (ossa_simd_path)p, width, fills[f] ? fills[f] : 1,
                               (ossa_wrap)(f % OSSA_WRAP_COUNT));
        }
    }
    CHECK(paths >= 1);
    character_free(&ch);
}

TEST(lane_sampling_holds_step_tracks_like_reference)
{
    ts_rng rng = ts_rng_make(12);
    character ch;
    REQUIRE(character_make(&rng, 21, 1, &ch));
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p)
        if (ts_path_runs((ossa_simd_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
                check_sampling(&ch, &rng, (ossa_simd_path)p, widths[w], 2 * widths[w] - 1,
                               OSSA_WRAP_LOOP);
    character_free(&ch);
}

TEST(lane_sampling_of_default_character_matches_reference)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    character ch = {dc.skeleton, {dc.clips[0], dc.clips[1], dc.clips[2]}, 96};
    ts_rng rng = ts_rng_make(13);
    check_sampling(&ch, &rng, OSSA_SIMD_AUTO, 0, 1000,
                   OSSA_WRAP_LOOP);
    ossa_default_character_free(&dc, NULL);
}

UTEST_MAIN(lane_sampling_matches_reference_for_every_path_width_and_fill,
           lane_sampling_holds_step_tracks_like_reference,
           lane_sampling_of_default_character_matches_reference)
