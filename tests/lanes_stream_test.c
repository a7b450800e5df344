/* lanes_stream_test.c - ossa_lane_pose_out_job with stream_output: every path
 * and width writes what the lane layout says (model transforms read straight
 * from [batch][joint][component][lane]), to outputs at every 16-byte offset
 * from a cache line, and bit for bit what ordinary stores write; nothing
 * outside the outputs is touched. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/lanes.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

enum { MAX_CHARACTERS = 40, MAX_JOINTS = 23, GUARD = 64 };

typedef struct fixture {
    int joints, characters, width;
    float *model; /* lane model */
    int model_floats;
    size_t offset; /* bytes from a 64-byte boundary to each output */
    unsigned char *block[MAX_CHARACTERS]; /* GUARD + offset + matrices + GUARD */
    ossa_mat34 *out[MAX_CHARACTERS];
} fixture;

static void fixture_make(fixture *f, ts_rng *r, int joints, int characters, int width,
                         size_t offset, int outputs)
{
    f->joints = joints;
    f->characters = characters;
    f->width = width;
    f->offset = offset;
    f->model_floats = ossa_lane_model_floats(joints, characters, width);
    f->model = ts_aligned(sizeof(float) * (size_t)f->model_floats);
    for (int i = 0; i < f->model_floats; ++i)
        f->model[i] = (float)ts_uniform(r, -4.0, 4.0);
    for (int c = 0; c < characters; ++c) {
        const size_t bytes = GUARD + offset + sizeof(ossa_mat34) * (size_t)outputs + GUARD;
        f->block[c] = ts_aligned(bytes);
        memset(f->block[c], 0xA5, bytes);
        f->out[c] = (ossa_mat34 *)(void *)(f->block[c] + GUARD + offset);
    }
}

static void fixture_free(fixture *f)
{
    free(f->model);
    for (int c = 0; c < f->characters; ++c)
        free(f->block[c]);
}

/* Bytes around every output still hold the fill pattern. */
static bool guards_intact(const fixture *f, int outputs)
{
    for (int c = 0; c < f->characters; ++c) {
        const unsigned char *b = f->block[c];
        const size_t end = GUARD + f->offset + sizeof(ossa_mat34) * (size_t)outputs;
        for (size_t i = 0; i < GUARD + f->offset; ++i)
            if (b[i] != 0xA5)
                return false;
        for (size_t i = end; i < end + GUARD; ++i)
            if (b[i] != 0xA5)
                return false;
    }
    return true;
}

static ossa_lane_pose_out_job poses_job(fixture *f, ossa_simd_path path, bool stream)
{
    ossa_lane_pose_out_job job = {0};
    job.model = f->model;
    job.model_count = f->model_floats;
    job.joint_count = f->joints;
    job.character_count = f->characters;
    job.width = f->width;
    job.path = path;
    job.outputs = f->out;
    job.stream_output = stream;
    return job;
}

TEST(streamed_poses_are_the_lane_model_at_every_alignment)
{
    ts_rng r = ts_rng_make(51);
    static const int widths[] = {4, 8, 16};
    static const int joint_counts[] = {1, 3, 4, 5, 23};
    int runs = 0;
    for (int p = OSSA_SIMD_AUTO; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (int wi = 0; wi < 3; ++wi) {
            const int w = widths[wi];
            const int counts[] = {1, w - 1, w, 2 * w + 3};
            for (int ci = 0; ci < 4; ++ci) {
                for (int ji = 0; ji < 5; ++ji) {
                    const size_t offset = 16u * (size_t)((ci + ji) % 4);
                    fixture f;
                    fixture_make(&f, &r, joint_counts[ji], counts[ci], w, offset,
                                 joint_counts[ji]);
                    ossa_lane_pose_out_job job = poses_job(&f, (ossa_simd_path)p, true);
                    CHECK_RESULT(ossa_lane_pose_out_job_run(&job), OSSA_OK);
                    bool equal = true;
                    for (int c = 0; c < f.characters; ++c) {
                        const int b = c / w, l = c % w;
                        for (int j = 0; j < f.joints; ++j)
                            for (int k = 0; k < OSSA_LANE_MODEL_COMPONENTS; ++k) {
                                const size_t at =
                                    (((size_t)b * (size_t)f.joints + (size_t)j) *
                                         OSSA_LANE_MODEL_COMPONENTS +
                                     (size_t)k) *
                                        (size_t)w +
                                    (size_t)l;
                                equal &= f.out[c][j].m[k / 4][k % 4] == f.model[at];
                            }
                    }
                    if (!equal)
                        fprintf(stderr, "path %s, width %d, %d characters, %d joints, offset %zu\n",
                                ossa_simd_path_name((ossa_simd_path)p), w, f.characters,
                                f.joints, offset);
                    CHECK(equal);
                    CHECK(guards_intact(&f, f.joints));
                    fixture_free(&f);
                    ++runs;
                }
            }
        }
    }
    CHECK(runs >= 2 * 3 * 4 * 5); /* auto and portable at least */
}

TEST(streamed_poses_equal_ordinary_ones_bit_for_bit)
{
    ts_rng r = ts_rng_make(52);
    enum { JOINTS = 23 };
    for (int p = OSSA_SIMD_AUTO; p < OSSA_SIMD_PATH_COUNT; ++p) {
        if (!ts_path_runs((ossa_simd_path)p))
            continue;
        for (int offset = 0; offset < 64; offset += 16) {
            const int w = ossa_lane_width(), n = 2 * w + 5;
            fixture plain, streamed;
            ts_rng copy = r;
            fixture_make(&plain, &r, JOINTS, n, w, (size_t)offset, JOINTS);
            fixture_make(&streamed, &copy, JOINTS, n, w, (size_t)offset, JOINTS);
            for (int stream = 0; stream < 2; ++stream) {
                fixture *f = stream ? &streamed : &plain;
                ossa_lane_pose_out_job job = poses_job(f, (ossa_simd_path)p, stream != 0);
                CHECK_RESULT(ossa_lane_pose_out_job_run(&job), OSSA_OK);
                CHECK(guards_intact(f, JOINTS));
            }
            bool equal = true;
            for (int c = 0; c < n; ++c)
                equal &= memcmp(plain.out[c], streamed.out[c], sizeof(ossa_mat34) * JOINTS) == 0;
            CHECK(equal);
            fixture_free(&plain);
            fixture_free(&streamed);
        }
    }
}

UTEST_MAIN(streamed_poses_are_the_lane_model_at_every_alignment,
           streamed_poses_equal_ordinary_ones_bit_for_bit)
