/* crowd_skin_test.c - the whole frame in the library: ossa_crowd_update
 * skins the skinned characters into the caller's buffer. Its vertices equal,
 * bit for bit, what the tools assembled before (the update, then
 * ossa_skinning_job per skinned character from ossa_crowd_palette), for 1,
 * 2 and 3 threads, in float4 and in packed output (the crowd's skin plan
 * against the job without one); the skin output is validated; the stage hook
 * sees the skinning. OSSA_TEST_NEEDS_PIPELINE (the default character). */
#include <stdlib.h>
#include <string.h>

#include "crowd_support.h"
#include "utest.h"

enum { N = 200, SKINNED = 24, FRAMES = 6 };

static size_t stride_of(const ossa_mesh *mesh)
{
    const size_t bytes = (size_t)ossa_mesh_vertex_count(mesh) * (size_t)ossa_mesh_skinned_stride(mesh);
    return (bytes + 63) / 64 * 64;
}

static void populate(ts_crowd *f)
{
    ts_rng r = ts_rng_make(7); /* the same characters in every crowd */
    for (int i = 0; i < N; ++i) {
        ossa_character_desc d = ts_crowd_random_character(&r, 0);
        d.skinned = i % 5 == 0 && i / 5 < SKINNED;
        d.inactive = d.inactive && !d.skinned;
        ossa_entity e;
        REQUIRE(ossa_crowd_spawn(f->crowd, &d, &e) == OSSA_OK);
    }
}

TEST(library_frame_skins_what_the_tools_assembled_bit_for_bit)
{
    /* before: the frame without a skin output, then each skinned slot's
     * palette (slot -> entity -> palette) through ossa_skinning_job */
    ts_crowd before;
    REQUIRE(ts_crowd_make(&before, N, 0, SKINNED));
    populate(&before);
    const ossa_mesh *mesh = before.dc.mesh;
    const size_t stride = stride_of(mesh);
    unsigned char *expected = ts_aligned(stride * SKINNED);
    for (int frame = 0; frame < FRAMES; ++frame)
        REQUIRE(ts_crowd_frame(&before, 1.0f / 30.0f, 1) == OSSA_OK);
    const int skinned = ossa_crowd_skinned_count(before.crowd);
    REQUIRE(skinned == SKINNED);
    for (int s = 0; s < skinned; ++s) {
        ossa_skinning_job job = {0};
        job.mesh = mesh;
        job.palette = ossa_crowd_palette(before.crowd, ossa_crowd_entity_at(before.crowd, s));
        job.palette_count = ossa_crowd_skin_joint_count(before.crowd);
        job.output = expected + (size_t)s * stride;
        job.output_bytes = stride;
        job.stream_output = true;
        REQUIRE(ossa_skinning_job_run(&job) == OSSA_OK);
    }
    /* now: the library's frame, on 1, 2 and 3 threads */
    for (int threads = 1; threads <= 3; ++threads) {
        ts_crowd now;
        REQUIRE(ts_crowd_make_wearing_mesh(&now, N, 0, SKINNED));
        populate(&now);
        unsigned char *vertices = ts_aligned(stride * SKINNED);
        memset(vertices, 0, stride * SKINNED);
        ossa_crowd_skin_output out = {0};
        out.vertices = vertices;
        out.vertices_bytes = stride * SKINNED;
        out.character_stride = stride;
        out.stream_output = threads != 2; /* both kinds of store give the same bits */
        REQUIRE(ossa_crowd_set_skin_output(now.crowd, &out) == OSSA_OK);
        for (int frame = 0; frame < FRAMES; ++frame)
            REQUIRE(ts_crowd_frame(&now, 1.0f / 30.0f, threads) == OSSA_OK);
        CHECK_INT(ossa_crowd_skinned_count(now.crowd), skinned);
        int same = 1;
        for (int s = 0; s < skinned; ++s)
            same &= memcmp(vertices + (size_t)s * stride, expected + (size_t)s * stride,
                           (size_t)ossa_mesh_vertex_count(mesh) *
                               (size_t)ossa_mesh_skinned_stride(mesh)) == 0;
        CHECK(same);
        free(vertices);
        ts_crowd_free(&now);
    }
    free(expected);
    ts_crowd_free(&before);
}

/* Packed output: the crowd (with its skin plan) writes what the skinning job
 * writes without one, at a stride that is a multiple of 4 only (odd
 * character starts) and of 64, on 1, 2 and 3 threads. */
TEST(packed_frame_equals_the_skinning_job_bit_for_bit)
{
    ts_crowd before;
    REQUIRE(ts_crowd_make(&before, N, 0, SKINNED));
    populate(&before);
    const ossa_mesh *mesh = before.dc.mesh;
    const size_t bytes = ossa_skin_output_bytes(mesh, OSSA_SKIN_FORMAT_PACKED);
    unsigned char *expected = ts_aligned(bytes * SKINNED);
    for (int frame = 0; frame < FRAMES; ++frame)
        REQUIRE(ts_crowd_frame(&before, 1.0f / 30.0f, 1) == OSSA_OK);
    const int skinned = ossa_crowd_skinned_count(before.crowd);
    REQUIRE(skinned == SKINNED);
    for (int s = 0; s < skinned; ++s) {
        ossa_skinning_job job = {0};
        job.mesh = mesh;
        job.palette = ossa_crowd_palette(before.crowd, ossa_crowd_entity_at(before.crowd, s));
        job.palette_count = ossa_crowd_skin_joint_count(before.crowd);
        job.output = expected + (size_t)s * bytes;
        job.output_bytes = bytes;
        job.format = OSSA_SKIN_FORMAT_PACKED;
        REQUIRE(ossa_skinning_job_run(&job) == OSSA_OK);
    }
    for (int threads = 1; threads <= 3; ++threads) {
        for (int lines = 0; lines < 2; ++lines) {
            const size_t stride = lines ? (bytes + 63) / 64 * 64 : bytes + 4;
            ts_crowd now;
            REQUIRE(ts_crowd_make_wearing_mesh(&now, N, 0, SKINNED));
            populate(&now);
            unsigned char *vertices = ts_aligned(stride * SKINNED + 64);
            memset(vertices, 0xCD, stride * SKINNED + 64);
            ossa_crowd_skin_output out = {0};
            out.vertices = vertices + (lines ? 0 : 4);
            out.vertices_bytes = stride * SKINNED;
            out.character_stride = stride;
            out.format = OSSA_SKIN_FORMAT_PACKED;
            out.stream_output = threads != 2;
            REQUIRE(ossa_crowd_set_skin_output(now.crowd, &out) == OSSA_OK);
            for (int frame = 0; frame < FRAMES; ++frame)
                REQUIRE(ts_crowd_frame(&now, 1.0f / 30.0f, threads) == OSSA_OK);
            int same = 1, gaps = 1;
            const unsigned char *base = out.vertices;
            for (int s = 0; s < skinned; ++s) {
                same &= memcmp(base + (size_t)s * stride, expected + (size_t)s * bytes, bytes) == 0;
                for (size_t i = bytes; i < stride; ++i) /* between characters: untouched */
                    gaps &= base[(size_t)s * stride + i] == 0xCD;
            }
            if (!same)
                fprintf(stderr, "%d threads, stride %zu: packed frame differs\n", threads, stride);
            CHECK(same);
            CHECK(gaps);
            free(vertices);
            ts_crowd_free(&now);
        }
    }
    free(expected);
    ts_crowd_free(&before);
}

TEST(skin_output_is_validated_and_a_short_buffer_changes_nothing)
{
    ts_crowd plain;
    REQUIRE(ts_crowd_make(&plain, N, 0, SKINNED));
    ts_crowd f;
    REQUIRE(ts_crowd_make_wearing_mesh(&f, N, 0, SKINNED));
    populate(&f);
    const size_t stride = stride_of(f.dc.mesh);
    unsigned char *vertices = ts_aligned(stride * SKINNED + 64);
    ossa_crowd_skin_output out = {0};
    out.vertices = vertices;
    out.vertices_bytes = stride * SKINNED;
    out.character_stride = stride;
    CHECK_RESULT(ossa_crowd_set_skin_output(NULL, &out), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_crowd_set_skin_output(plain.crowd, &out), OSSA_ERR_BAD_ARGUMENT);
    out.vertices = vertices + 4;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_MISALIGNED);
    out.vertices = vertices;
    out.character_stride = stride - 8;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_MISALIGNED);
    out.character_stride = stride - 64;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_OUTPUT_TOO_SMALL);
    out.character_stride = stride;
    out.format = OSSA_SKIN_FORMAT_COUNT;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_BAD_ARGUMENT);
    /* packed vertices need 4-byte alignment only, and their own bytes */
    out.format = OSSA_SKIN_FORMAT_PACKED;
    out.vertices = vertices + 4;
    out.character_stride = ossa_skin_output_bytes(f.dc.mesh, OSSA_SKIN_FORMAT_PACKED);
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_OK);
    out.vertices = vertices + 2;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_MISALIGNED);
    out.vertices = vertices;
    out.character_stride -= 2;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_MISALIGNED);
    out.character_stride -= 2;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_OUTPUT_TOO_SMALL);
    out.format = OSSA_SKIN_FORMAT_FLOAT4;
    out.character_stride = stride;
    out.path = OSSA_SIMD_PATH_COUNT;
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_ERR_BAD_ARGUMENT);
    out.path = OSSA_SIMD_AUTO;
    out.vertices_bytes = stride * (SKINNED - 1); /* one character short */
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_OK);
    int batches;
    REQUIRE(ossa_crowd_begin_frame(f.crowd, 0.01f, &batches) == OSSA_OK);
    memset(vertices, 0xA5, stride * SKINNED + 64);
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, 0, f.scratch, f.scratch_bytes),
                 OSSA_ERR_OUTPUT_TOO_SMALL);
    int untouched = 1;
    for (size_t i = 0; i < stride * SKINNED + 64; ++i)
        untouched &= vertices[i] == 0xA5;
    CHECK(untouched);
    CHECK(ossa_crowd_pose(f.crowd, ossa_crowd_entity_at(f.crowd, 0)) == NULL); /* no update ran */
    /* the last character needs its vertices only, not a whole stride */
    out.vertices_bytes = stride * (SKINNED - 1) +
                         (size_t)ossa_mesh_vertex_count(f.dc.mesh) *
                             (size_t)ossa_mesh_skinned_stride(f.dc.mesh);
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &out), OSSA_OK);
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, 0, f.scratch, f.scratch_bytes), OSSA_OK);
    /* a zeroed output turns skinning off, with or without a mesh */
    ossa_crowd_skin_output none = {0};
    CHECK_RESULT(ossa_crowd_set_skin_output(f.crowd, &none), OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_skin_output(plain.crowd, &none), OSSA_OK);
    free(vertices);
    ts_crowd_free(&f);
    ts_crowd_free(&plain);
}

typedef struct stage_log {
    int calls, skins;
    ossa_crowd_stage last;
    int skin_after_palette;
} stage_log;

static void log_stage(void *user, ossa_crowd_stage stage)
{
    stage_log *log = user;
    log->calls++;
    if (stage == OSSA_CROWD_STAGE_SKIN) {
        log->skins++;
        log->skin_after_palette += log->last == OSSA_CROWD_STAGE_PALETTE;
    }
    log->last = stage;
}

TEST(stage_hook_sees_skinning_right_after_each_skinned_batch_palette)
{
    ts_crowd f;
    REQUIRE(ts_crowd_make_wearing_mesh(&f, N, 0, SKINNED));
    populate(&f);
    const size_t stride = stride_of(f.dc.mesh);
    unsigned char *vertices = ts_aligned(stride * SKINNED);
    ossa_crowd_skin_output out = {0};
    out.vertices = vertices;
    out.vertices_bytes = stride * SKINNED;
    out.character_stride = stride;
    REQUIRE(ossa_crowd_set_skin_output(f.crowd, &out) == OSSA_OK);
    stage_log log = {0};
    ossa_crowd_set_stage_hook(f.crowd, log_stage, &log);
    REQUIRE(ts_crowd_frame(&f, 1.0f / 30.0f, 1) == OSSA_OK);
    const int width = ossa_crowd_width(f.crowd);
    const int skinned_batches = (ossa_crowd_skinned_count(f.crowd) + width - 1) / width;
    CHECK_INT(log.skins, skinned_batches);
    CHECK_INT(log.skin_after_palette, skinned_batches);
    free(vertices);
    ts_crowd_free(&f);
}

UTEST_MAIN(library_frame_skins_what_the_tools_assembled_bit_for_bit,
           packed_frame_equals_the_skinning_job_bit_for_bit,
           skin_output_is_validated_and_a_short_buffer_changes_nothing,
           stage_hook_sees_skinning_right_after_each_skinned_batch_palette)
