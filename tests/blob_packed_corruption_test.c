/* blob_packed_corruption_test.c - the compressed clip section on bad bytes:
 * every field of its header, masks, block and segments corrupted (the
 * checksum recomputed, so that the section validator sees it) is rejected
 * with its code and a message naming it; the blob cut at every length is
 * truncated; every byte flipped (checksum recomputed) is rejected or, where
 * it still validates, samples on the reference and every lane path without
 * reading outside the blob (ASan runs this under ./run sanitize). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "blob_test_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "packed_clip_support.h"
#include "test_support.h"
#include "utest.h"
#include "simd_paths.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef struct packed_fixture {
    ossa_skeleton *skeleton;
    unsigned char *clip_bytes; /* the clip written by hand (packed_clip_support.h) */
    ossa_clip *built;          /* one the builder compressed: STEP, constant and rest tracks */
    unsigned char *data;
    size_t bytes;
    uint64_t at[2];            /* the two clips' sections */
} packed_fixture;

static bool packed_fixture_make(packed_fixture *f)
{
    memset(f, 0, sizeof *f);
    ts_rng r = ts_rng_make(71);
    uint16_t parents[PC_JOINTS];
    ossa_transform rest[PC_JOINTS];
    for (int j = 0; j < PC_JOINTS; ++j) {
        parents[j] = j == 0 ? OSSA_NO_PARENT : (uint16_t)(j / 2);
        rest[j] = ts_transform(&r, TS_SCALE_UNIFORM);
    }
    f->skeleton = ts_skeleton_make(parents, rest, PC_JOINTS);
    if (!f->skeleton)
        return false;
    size_t clip_bytes;
    f->clip_bytes = pc_make_clip(&r, f->skeleton, &clip_bytes);
    /* a built clip: joint 1 animated (STEP translation), joint 2 constant,
     * the others the rest pose */
    float times[4] = {0.0f, 0.3f, 0.6f, 1.0f};
    ossa_float3 t[4] = {{0, 1, 0}, {0, 1.2f, 0}, {0.1f, 1, 0}, {0, 1, 0.3f}};
    ossa_quat q[4], still[4];
    for (int k = 0; k < 4; ++k) {
        q[k] = ossa_quat_normalize(ossa_quat_mul(
            rest[1].rotation, ossa_quat_from_axis_angle((ossa_float3){0, 0, 1}, 0.4f * (float)k)));
        still[k] = ossa_quat_from_axis_angle((ossa_float3){1, 0, 0}, 1.0f);
    }
    ossa_raw_joint_track tracks[2] = {
        {ossa_skeleton_joint_name(f->skeleton, 1), {times, t, NULL, NULL, 4, OSSA_INTERP_STEP},
         {times, q, NULL, NULL, 4, OSSA_INTERP_LINEAR}, {0}},
        {ossa_skeleton_joint_name(f->skeleton, 2), {0}, {times, still, NULL, NULL, 4,
                                                         OSSA_INTERP_LINEAR}, {0}},
    };
    ossa_raw_clip raw = {"built", 0.0f, tracks, 2};
    ossa_clip_build_options options = {0};
    options.rate = 30.0f;
    if (ossa_clip_build(&raw, f->skeleton, &options, &f->built, NULL, NULL) != OSSA_OK)
        return false;
    const ossa_clip *clips[2] = {(const ossa_clip *)(const void *)f->clip_bytes, f->built};
    ossa_blob_contents contents = {f->skeleton, clips, 2, NULL, 0};
    void *data = NULL;
    if (ossa_blob_write_memory(&contents, NULL, &data, &f->bytes, NULL) != OSSA_OK)
        return false;
    f->data = data;
    ossa_blob blob;
    if (ossa_blob_open(&blob, f->data, f->bytes, 0, NULL) != OSSA_OK)
        return false;
    ossa_blob_section(&blob, 1, &f->at[0], NULL);
    ossa_blob_section(&blob, 2, &f->at[1], NULL);
    return true;
}

static void packed_fixture_free(packed_fixture *f)
{
    ossa_free(NULL, f->data);
    free(f->clip_bytes);
    ossa_clip_free(f->built, NULL);
    ossa_skeleton_free(f->skeleton, NULL);
}

/* A validated blob's clips sampled everywhere: the reference and every lane
 * path and width, at times across them and past their ends. */
static void sample_everything(const ossa_blob *blob)
{
    const int joints = blob->skeleton ? ossa_skeleton_joint_count(blob->skeleton) : 0;
    for (int c = 0; c < blob->clip_count; ++c) {
        const ossa_clip *clip = ossa_blob_clip(blob, c);
        const int n = ossa_clip_joint_count(clip);
        const ossa_transform *rest = n == joints ? ossa_skeleton_rest_pose(blob->skeleton) : NULL;
        const float d = ossa_clip_duration(clip);
        float times[9];
        for (int i = 0; i < 9; ++i)
            times[i] = d * (float)(i - 2) / 4.0f;
        ossa_transform *out = malloc(sizeof *out * (size_t)n * 9);
        ossa_sampling_job job = {0};
        job.clips = &clip;
        job.clip_count = 1;
        job.time_s = times;
        job.character_count = 9;
        job.rest_pose = rest;
        job.rest_pose_count = rest ? n : 0;
        job.output = out;
        job.output_count = n * 9;
        (void)ossa_sampling_job_run(&job);
        for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
            if (!ts_path_runs((ossa_simd_path)p))
                continue;
            for (int w = 4; w <= 16; w *= 2) {
                const int floats = ossa_lane_pose_floats(n, 9, w);
                float *lanes = malloc(sizeof(float) * (size_t)floats);
                ossa_lane_sampling_job lj = {0};
                lj.clips = &clip;
                lj.clip_count = 1;
                lj.time_s = times;
                lj.character_count = 9;
                lj.rest_pose = rest;
                lj.rest_pose_count = rest ? n : 0;
                lj.width = w;
                lj.path = (ossa_simd_path)p;
                lj.output = lanes;
                lj.output_count = floats;
                (void)ossa_lane_sampling_job_run(&lj);
                free(lanes);
            }
        }
        free(out);
    }
}

static ossa_result open_and_use(const unsigned char *data, size_t bytes, ossa_error *e)
{
    void *copy = ts_exact_copy(data, bytes);
    ossa_blob blob;
    const ossa_result r = ossa_blob_open(&blob, copy, bytes, 0, e);
    if (r == OSSA_OK)
        sample_everything(&blob);
    free(copy);
    return r;
}

TEST(compressed_blob_truncated_at_every_length_is_rejected)
{
    packed_fixture f;
    REQUIRE(packed_fixture_make(&f));
    int wrong = 0;
    for (size_t len = 0; len < f.bytes; ++len) {
        ossa_error e;
        const ossa_result r = open_copy(f.data, len, OSSA_BLOB_SKIP_CHECKSUM, &e);
        if (r != OSSA_ERR_BLOB_TRUNCATED && wrong++ < 3)
            fprintf(stderr, "%zu of %zu bytes: %s\n", len, f.bytes, e.message);
    }
    CHECK_INT(wrong, 0);
    packed_fixture_free(&f);
}

/* Every byte of both compressed sections flipped (each of two bit
 * patterns) with the checksum recomputed: rejected, or safe to sample. */
TEST(compressed_sections_with_any_byte_flipped_are_rejected_or_safe)
{
    packed_fixture f;
    REQUIRE(packed_fixture_make(&f));
    unsigned char *copy = malloc(f.bytes);
    int accepted = 0, rejected = 0;
    for (int s = 0; s < 2; ++s) {
        const size_t end = s == 0 ? f.at[1] : f.bytes;
        for (size_t i = f.at[s]; i < end; ++i)
            for (int pattern = 0; pattern < 2; ++pattern) {
                memcpy(copy, f.data, f.bytes);
                copy[i] ^= pattern ? 0x80 : 0x05;
                reseal(copy, f.bytes);
                ossa_error e;
                if (open_and_use(copy, f.bytes, &e) == OSSA_OK) {
                    ++accepted;
                } else {
                    ++rejected;
                    CHECK(e.message[0] != '\0');
                }
            }
    }
    fprintf(stderr, "  %d flips rejected, %d accepted (and sampled safely)\n", rejected, accepted);
    CHECK(rejected > 0);
    free(copy);
    packed_fixture_free(&f);
}

typedef struct mutation {
    const char *what;
    int clip;       /* 0: the hand-written clip, 1: the built one */
    size_t offset;  /* from the clip's start */
    uint64_t value;
    int size;
    ossa_result expect;
    const char *mention;
} mutation;

TEST(compressed_clip_fields_corrupted_are_rejected_with_their_code)
{
    packed_fixture f;
    REQUIRE(packed_fixture_make(&f));
    const unsigned char *c0 = f.data + f.at[0], *c1 = f.data + f.at[1];
    const size_t p0 = TL_CAT(tl_clip, c0, 0)->frames_offset, p1 = TL_CAT(tl_clip, c1, 0)->frames_offset;
    const tl_clip_packed *h0 = TL_CAT(tl_clip_packed, c0, p0), *h1 = TL_CAT(tl_clip_packed, c1, p1);
    const tl_packed_block *b0 = &h0->block;
#define PK(field) (p0 + offsetof(tl_clip_packed, field))
#define PK1(field) (p1 + offsetof(tl_clip_packed, field))
#define BK(field) (p0 + offsetof(tl_clip_packed, block) + offsetof(tl_packed_block, field))
    float nan_value = NAN, minus_one = -1.0f;
    uint32_t nan_bits, minus_bits;
    memcpy(&nan_bits, &nan_value, 4);
    memcpy(&minus_bits, &minus_one, 4);
    const size_t seg1 = b0->seg_data_offset + 3 * PC_N; /* segment 1's widths */
    const mutation cases[] = {
        {"step offset", 0, offsetof(tl_clip, step_offset), 4, 4, OSSA_ERR_BLOB_INVARIANT, "step_offset"},
        {"header misaligned", 0, offsetof(tl_clip, frames_offset), p0 + 4, 4, OSSA_ERR_BLOB_ALIGNMENT, "compressed header"},
        {"header outside", 0, offsetof(tl_clip, frames_offset), TL_CAT(tl_clip, c0, 0)->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "compressed header"},
        {"extension", 0, PK(extension_offset), 64, 4, OSSA_ERR_BLOB_INVARIANT, "extension_offset"},
        {"tolerance NaN", 0, PK(tolerance), nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "tolerance"},
        {"masks outside", 0, PK(masks_offset), TL_CAT(tl_clip, c0, 0)->bytes - 2, 4, OSSA_ERR_BLOB_TRUNCATED, "joint masks"},
        {"mask past the last joint", 0, h0->masks_offset + 2, 0x001F, 2, OSSA_ERR_BLOB_INVARIANT, "past the last"},
        {"animated and constant", 0, h0->masks_offset + 3 * PC_CHUNKS * 2, 0x0001, 2, OSSA_ERR_BLOB_INVARIANT, "both animated and constant"},
        {"rest flag", 0, offsetof(tl_clip, flags), TL_CLIP_COMPRESSED, 4, OSSA_ERR_BLOB_INVARIANT, "rest-pose flag"},
        {"step flag without step rows", 0, offsetof(tl_clip, flags), TL_CLIP_COMPRESSED | TL_CLIP_USES_REST | TL_CLIP_HAS_STEP, 4, OSSA_ERR_BLOB_INVARIANT, NULL},
        {"constant count", 1, PK1(constant_count), h1->constant_count + 1, 4, OSSA_ERR_BLOB_INVARIANT, "constant_count"},
        {"component count", 0, BK(component_count), PC_N + 3, 4, OSSA_ERR_BLOB_INVARIANT, "component_count"},
        {"segment shift", 0, BK(segment_shift), 17, 4, OSSA_ERR_BLOB_INVARIANT, "segment_shift"},
        {"segment count", 0, BK(segment_count), PC_SEGMENTS + 1, 4, OSSA_ERR_BLOB_INVARIANT, "segment_count"},
        {"block flags", 0, BK(flags), 3, 4, OSSA_ERR_BLOB_INVARIANT, "packed block flags"},
        {"block reserved", 0, BK(reserved), 1, 4, OSSA_ERR_BLOB_INVARIANT, "reserved"},
        {"ranges outside", 0, BK(ranges_offset), TL_CAT(tl_clip, c0, 0)->bytes - 8, 4, OSSA_ERR_BLOB_TRUNCATED, "component ranges"},
        {"ranges misaligned", 0, BK(ranges_offset), b0->ranges_offset + 2, 4, OSSA_ERR_BLOB_ALIGNMENT, "component ranges"},
        {"segments outside", 0, BK(segments_offset), TL_CAT(tl_clip, c0, 0)->bytes - 4, 4, OSSA_ERR_BLOB_TRUNCATED, "segment table"},
        {"segment data outside", 0, BK(seg_data_offset), TL_CAT(tl_clip, c0, 0)->bytes - 10, 4, OSSA_ERR_BLOB_TRUNCATED, "segment widths"},
        {"bits outside", 0, BK(bits_offset), TL_CAT(tl_clip, c0, 0)->bytes - 4, 4, OSSA_ERR_BLOB_TRUNCATED, "bits"},
        {"no padding", 0, BK(bits_bytes), 4, 4, OSSA_ERR_BLOB_INVARIANT, "bits_bytes"},
        {"range NaN", 0, b0->ranges_offset + 4 * 5, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "component 5's range"},
        {"extent negative", 0, b0->ranges_offset + 4 * (PC_N + 7), minus_bits, 4, OSSA_ERR_BLOB_INVARIANT, "component 7's range"},
        {"width 24", 0, seg1 + 2, 24, 1, OSSA_ERR_BLOB_INVARIANT, "24 bits wide"},
        {"frame bits", 0, b0->segments_offset + 8 * 3 + 4, 5, 4, OSSA_ERR_BLOB_INVARIANT, "frame_bits"},
        {"segment past the bits", 0, b0->segments_offset + 8 * 8, b0->bits_bytes, 4, OSSA_ERR_BLOB_INVARIANT, "run past"},
        {"another rest pose", 0, PK(rest_crc), h0->rest_crc ^ 1u, 4, OSSA_ERR_BLOB_INVARIANT, "another rest pose"},
        {"constant not finite", 1, h1->constants_offset, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "constant 0"},
    };
#undef PK
#undef PK1
#undef BK
    CHECK(h1->constant_count == 4); /* joint 2's rotation */
    fprintf(stderr, "  built clip: %u constants, %u animated components\n", h1->constant_count, h1->block.component_count);
    unsigned char *copy = malloc(f.bytes);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const mutation *m = &cases[i];
        memcpy(copy, f.data, f.bytes);
        memcpy(copy + f.at[m->clip] + m->offset, &m->value, (size_t)m->size);
        reseal(copy, f.bytes);
        ossa_error e;
        const ossa_result r = open_copy(copy, f.bytes, 0, &e);
        const bool mentioned = !m->mention || strstr(e.message, m->mention);
        if (r != m->expect || !mentioned)
            fprintf(stderr, "%s: %s, expected %s: %s\n", m->what, ossa_result_name(r),
                    ossa_result_name(m->expect), e.message);
        CHECK(r == m->expect && mentioned);
    }
    free(copy);
    (void)c1;
    packed_fixture_free(&f);
}

UTEST_MAIN(compressed_blob_truncated_at_every_length_is_rejected,
           compressed_sections_with_any_byte_flipped_are_rejected_or_safe,
           compressed_clip_fields_corrupted_are_rejected_with_their_code)
