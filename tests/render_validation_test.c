/* render_validation_test.c - libossa_render, headless, on bad input: frames
 * with a bad camera, count, stream, stride or skinning mode, and renderer and
 * headless descriptions out of range (a bad vertex format among them), each
 * refused with its code. Skipped
 * only when no EGL display can be opened at all. */
#include <stdint.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/render.h"
#include "render_test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_RENDER */

TEST(renderer_rejects_bad_frames)
{
    fixture f;
    OPEN_FIXTURE(f, 2);
    const ossa_mesh *mesh = f.character.mesh;
    ossa_mat34 *pal = palettes(&f.character, NULL, 0.0f, 2);
    float *streams = skin_streams(mesh, pal, 2);
    const size_t stream_bytes =
        (size_t)ossa_mesh_vertex_count(mesh) * (size_t)ossa_mesh_skinned_stride(mesh);
    ossa_render_frame zero;
    memset(&zero, 0, sizeof zero);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &zero, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, NULL, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    ossa_render_frame good = zero;
    good.width = W;
    good.height = H;
    good.character_count = 2;
    good.skinned_streams = streams;
    good.palettes = pal;
    good.camera = ossa_render_camera_frame((ossa_float3){-1, 0, -1}, (ossa_float3){1, 2, 1},
                                           (float)W / H, 0.0f, 0.3f, 0.0f);
    ossa_render_frame bad = good;
    bad.camera = zero.camera;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_VALUE);
    bad = good;
    bad.camera.z_far = bad.camera.z_near;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_VALUE);
    bad = good;
    bad.camera.eye = bad.camera.target;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_VALUE);
    bad = good;
    bad.character_count = 3;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    bad = good;
    bad.character_count = -1;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    bad = good;
    bad.skinned_streams = NULL;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    bad = good;
    bad.skinned_stream_stride = stream_bytes - 16;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    bad = good;
    bad.skinning = OSSA_RENDER_SKINNING_GPU;
    bad.palettes = NULL;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_MISSING_INPUT);
    bad = good;
    bad.skinning = OSSA_RENDER_SKINNING_COUNT;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    /* a relief: at least 2 x 2 samples, a finite origin, a cell size > 0 */
    const float heights[6] = {0, 0.1f, 0.2f, 0.1f, 0, -0.1f};
    bad = good;
    bad.ground_heights = heights;
    bad.ground_columns = 3;
    bad.ground_rows = 1;
    bad.ground_cell = 0.5f;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    bad.ground_rows = 2;
    bad.ground_cell = 0.0f;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_VALUE);
    bad.ground_cell = 0.5f;
    bad.ground_origin_x = NAN;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_ERR_BAD_VALUE);
    bad.ground_origin_x = -1.0f;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &bad, NULL, NULL), OSSA_OK);
    ossa_render_timings t;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &good, &t, NULL), OSSA_OK);
    /* the buffer holds each character on a cache line: whole lines go up */
    const size_t stride = ossa_renderer_stream_bytes(f.renderer);
    CHECK_INT(stride, (stream_bytes + 63) / 64 * 64);
    CHECK_INT(t.upload_bytes, 2 * stride);
    good.skinning = OSSA_RENDER_SKINNING_GPU;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &good, &t, NULL), OSSA_OK);
    CHECK_INT(t.upload_bytes, 2 * sizeof(ossa_mat34) * (size_t)ossa_mesh_skin_joint_count(mesh));
    CHECK(ossa_renderer_finish(f.renderer) >= 0.0);
    /* Mapped streams: a count out of range maps nothing; a frame claiming
     * more mapped characters than were mapped, or any after a frame has
     * released the mapping, is refused. */
    ossa_error e;
    CHECK(ossa_renderer_map_streams(f.renderer, 0, &e) == NULL);
    CHECK_RESULT(e.code, OSSA_ERR_BAD_ARGUMENT);
    CHECK(ossa_renderer_map_streams(f.renderer, 3, &e) == NULL);
    CHECK_RESULT(e.code, OSSA_ERR_BAD_ARGUMENT);
    ossa_render_frame mapped = good;
    mapped.skinning = OSSA_RENDER_SKINNING_CPU;
    mapped.skinned_streams = NULL;
    mapped.streams_mapped = true;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &mapped, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    unsigned char *to = ossa_renderer_map_streams(f.renderer, 1, &e);
    REQUIRE(to != NULL);
    memcpy(to, streams, stream_bytes);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &mapped, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    mapped.character_count = 1;
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &mapped, &t, NULL), OSSA_OK);
    CHECK_INT(t.upload_bytes, stride);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &mapped, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    /* a GPU frame drawn while streams are mapped releases them */
    REQUIRE(ossa_renderer_map_streams(f.renderer, 2, &e) != NULL);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &good, NULL, NULL), OSSA_OK);
    CHECK_RESULT(ossa_renderer_draw(f.renderer, &mapped, NULL, NULL), OSSA_ERR_BAD_ARGUMENT);
    uint8_t small[16];
    CHECK_RESULT(ossa_render_headless_read(f.headless, small, sizeof small),
                 OSSA_ERR_OUTPUT_TOO_SMALL);
    free(streams);
    free(pal);
    close_fixture(&f);
}

TEST(renderer_and_headless_reject_bad_descriptions)
{
    fixture f;
    OPEN_FIXTURE(f, 1);
    ossa_renderer *r = (ossa_renderer *)&f; /* must be overwritten with NULL */
    ossa_error e;
    ossa_renderer_desc desc = {NULL, 1, OSSA_SKIN_FORMAT_FLOAT4};
    CHECK_RESULT(ossa_renderer_create(&desc, &r, &e), OSSA_ERR_MISSING_INPUT);
    CHECK(r == NULL);
    desc.mesh = f.character.mesh;
    desc.max_characters = -1;
    CHECK_RESULT(ossa_renderer_create(&desc, &r, &e), OSSA_ERR_BAD_ARGUMENT);
    desc.max_characters = 1 << 30;
    CHECK_RESULT(ossa_renderer_create(&desc, &r, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_renderer_create(&desc, NULL, &e), OSSA_ERR_MISSING_OUTPUT);
    desc.max_characters = 1;
    desc.skinned_format = OSSA_SKIN_FORMAT_COUNT;
    CHECK_RESULT(ossa_renderer_create(&desc, &r, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK(r == NULL);
    desc.skinned_format = OSSA_SKIN_FORMAT_PACKED;
    CHECK_RESULT(ossa_renderer_create(&desc, &r, &e), OSSA_OK);
    CHECK(ossa_renderer_skinned_format(r) == OSSA_SKIN_FORMAT_PACKED);
    CHECK(ossa_renderer_stream_bytes(r) >=
          ossa_skin_output_bytes(f.character.mesh, OSSA_SKIN_FORMAT_PACKED));
    ossa_renderer_destroy(r);
    ossa_render_headless *h = NULL;
    const ossa_render_headless_desc bad_sizes[] = {{0, 10, 0}, {10, 0, 0}, {16385, 10, 0},
                                                   {10, 10, -1}, {10, 10, 17}};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof bad_sizes[0]; ++i) {
        CHECK_RESULT(ossa_render_headless_create(&bad_sizes[i], &h, &e), OSSA_ERR_BAD_ARGUMENT);
        CHECK(h == NULL);
    }
    CHECK_RESULT(ossa_render_headless_create(NULL, &h, &e), OSSA_ERR_BAD_ARGUMENT);
    close_fixture(&f);
}

UTEST_MAIN(renderer_rejects_bad_frames, renderer_and_headless_reject_bad_descriptions)
