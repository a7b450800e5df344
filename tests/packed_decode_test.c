/* packed_decode_test.c - the compressed clip's bits decoded by every path:
 * a clip written here byte by byte from docs/blob-format.md (blob_layout.h),
 * with every width from 0 to 23 bits in turn, random ranges and random bits,
 * sampled at its frames by the reference job and by the lane job on every
 * path and width, each equal to this file's own decoder of the documented
 * formula, bit for bit. */
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "lanes_test_support.h"
#include "packed_clip_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

/* OSSA_TEST_NEEDS_PIPELINE */

TEST(every_width_decodes_to_the_documented_value_on_every_path)
{
    ts_rng rng = ts_rng_make(61);
    uint16_t parents[PC_JOINTS];
    ossa_transform rest[PC_JOINTS];
    for (int j = 0; j < PC_JOINTS; ++j) {
        parents[j] = j == 0 ? OSSA_NO_PARENT : (uint16_t)(j - 1);
        rest[j] = (ossa_transform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    }
    ossa_skeleton *sk = ts_skeleton_make(parents, rest, PC_JOINTS);
    REQUIRE(sk);
    size_t bytes = 0;
    unsigned char *raw = pc_make_clip(&rng, sk, &bytes);
    /* it is a valid clip, in a blob with its skeleton */
    const ossa_clip *clip = NULL;
    ossa_error e;
    CHECK_RESULT(ossa_clip_validate(raw, bytes, &clip, &e), OSSA_OK);
    REQUIRE(clip);
    const ossa_clip *clips[1] = {clip};
    ossa_blob_contents contents = {sk, clips, 1, NULL, 0};
    void *data = NULL;
    size_t blob_bytes = 0;
    REQUIRE(ossa_blob_write_memory(&contents, NULL, &data, &blob_bytes, &e) == OSSA_OK);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_open(&blob, data, blob_bytes, 0, &e), OSSA_OK);
    REQUIRE(blob.clip_count == 1);
    const ossa_clip *loaded = ossa_blob_clip(&blob, 0);
    const unsigned char *bytes_of = (const unsigned char *)loaded;
    const tl_clip_packed *p = TL_CAT(tl_clip_packed, bytes_of, TL_CAT(tl_clip, bytes_of, 0)->frames_offset);
    /* the widths seen: all 24 */
    int seen[24] = {0};
    for (int s = 0; s < PC_SEGMENTS; ++s)
        for (int k = 0; k < PC_N; ++k)
            seen[bytes_of[p->block.seg_data_offset + (size_t)s * 3 * PC_N + (size_t)k]] = 1;
    for (int w = 0; w < 24; ++w)
        CHECK(seen[w]);
    /* every frame, as a playhead: the reference and every lane path */
    float times[PC_FRAMES];
    for (int f = 0; f < PC_FRAMES; ++f)
        times[f] = (float)f / PC_RATE;
    ossa_transform ref[PC_FRAMES * PC_JOINTS];
    ossa_sampling_job rj = {0};
    rj.clips = &loaded;
    rj.clip_count = 1;
    rj.time_s = times;
    rj.character_count = PC_FRAMES;
    rj.wrap = OSSA_WRAP_CLAMP;
    rj.rest_pose = ossa_skeleton_rest_pose(sk);
    rj.rest_pose_count = PC_JOINTS;
    rj.output = ref;
    rj.output_count = PC_FRAMES * PC_JOINTS;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);
    int wrong = 0;
    for (int f = 0; f < PC_FRAMES; ++f)
        for (int j = 0; j < PC_JOINTS; ++j) {
            const float want[3] = {pc_decode(bytes_of, p, pc_component_of(j, 0), f),
                                   pc_decode(bytes_of, p, pc_component_of(j, 1), f),
                                   pc_decode(bytes_of, p, pc_component_of(j, 2), f)};
            const ossa_transform *x = &ref[f * PC_JOINTS + j];
            if (memcmp(&x->translation, want, sizeof want) != 0 && wrong++ < 3)
                fprintf(stderr, "frame %d joint %d: reference %.9g %.9g %.9g, documented %.9g "
                                "%.9g %.9g\n",
                        f, j, (double)x->translation.x, (double)x->translation.y,
                        (double)x->translation.z, (double)want[0], (double)want[1],
                        (double)want[2]);
        }
    CHECK_INT(wrong, 0);
    int paths = 0;
    for (int path = OSSA_SIMD_PORTABLE; path < OSSA_SIMD_PATH_COUNT; ++path) {
        if (!ts_path_runs((ossa_simd_path)path))
            continue;
        ++paths;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int floats = ossa_lane_pose_floats(PC_JOINTS, PC_FRAMES, widths[w]);
            float *lanes = lane_alloc((size_t)floats);
            ossa_lane_sampling_job lj = {0};
            lj.clips = &loaded;
            lj.clip_count = 1;
            lj.time_s = times;
            lj.character_count = PC_FRAMES;
            lj.wrap = OSSA_WRAP_CLAMP;
            lj.rest_pose = rj.rest_pose;
            lj.rest_pose_count = PC_JOINTS;
            lj.width = widths[w];
            lj.path = (ossa_simd_path)path;
            lj.output = lanes;
            lj.output_count = floats;
            CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
            int differ = 0;
            for (int f = 0; f < PC_FRAMES; ++f)
                for (int j = 0; j < PC_JOINTS; ++j) {
                    const ossa_transform a = lane_transform(lanes, PC_JOINTS, widths[w], f, j);
                    differ += memcmp(&a, &ref[f * PC_JOINTS + j], sizeof a) != 0;
                }
            if (differ)
                fprintf(stderr, "%s w%d: %d joints differ\n", ossa_simd_path_name((ossa_simd_path)path),
                        widths[w], differ);
            CHECK_INT(differ, 0);
            free(lanes);
        }
    }
    CHECK(paths >= 1);
    ossa_free(NULL, data);
    free(raw);
    ossa_skeleton_free(sk, NULL);
}

UTEST_MAIN(every_width_decodes_to_the_documented_value_on_every_path)
