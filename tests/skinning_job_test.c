/* skinning_job_test.c - every skinning path this CPU runs, and the
 * benchmarks' "before" versions, against a double-precision reference on
 * random meshes and palettes; identity palettes; vertex ranges; validity. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "utest.h"
#include "simd_paths.h"

#ifdef OSSA_TEST_HAVE_BENCH
#include "naive_skinning.h"
#include "skinning_crowd.h"
#endif

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_BENCH */

/* Skinned values may differ from the double-precision reference by this much
 * relative to (1 + |reference|): palettes here scale by up to 2 and translate
 * by up to 1, inputs are in [-1, 1], so a few float roundings of values up to
 * ~10 stay well below it. */
#define SKIN_TOLERANCE 2e-6

static float *alloc_output(const ossa_mesh *mesh)
{
    const size_t bytes = (size_t)ossa_mesh_vertex_count(mesh) * (size_t)ossa_mesh_skinned_stride(mesh);
    float *out = ts_aligned(bytes);
    memset(out, 0xCD, bytes);
    return out;
}

/* Every call below runs with ordinary and with streaming stores in turn
 * (streaming is set for the whole test by the loops over `stream`). */
static bool stream;

static ossa_result skin(const ossa_mesh *mesh, const ossa_mat34 *palette, float *out,
                        ossa_simd_path path, int begin, int end)
{
    ossa_skinning_job job = {0};
    job.mesh = mesh;
    job.palette = palette;
    job.palette_count = ossa_mesh_skin_joint_count(mesh);
    job.vertex_begin = begin;
    job.vertex_end = end;
    job.output = out;
    job.output_bytes = (size_t)ossa_mesh_vertex_count(mesh) * (size_t)ossa_mesh_skinned_stride(mesh);
    job.path = path;
    job.stream_output = stream;
    return ossa_skinning_job_run(&job);
}

/* Largest relative error of the skinned stream against the reference, and
 * whether every w came out exact (1, 0, the tangent's handedness). */
static double reference_error(const ts_mesh *m, const ossa_mesh *mesh, const ossa_mat34 *palette,
                              const float *out, int *w_exact)
{
    const int floats = ossa_mesh_skinned_stride(mesh) / 4;
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    double worst = 0.0;
    *w_exact = 1;
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v) {
        double want[12];
        ts_mesh_reference_skin(m, (int)source[v], palette, want);
        const float *got = out + (size_t)v * (size_t)floats;
        double e = ts_relative_error(got, want, floats);
        if (!(e <= worst))
            worst = e;
        for (int a = 3; a < floats; a += 4)
            *w_exact &= got[a] == (float)want[a];
    }
    return worst;
}

static const ossa_simd_path all_paths[] = {OSSA_SIMD_AUTO, OSSA_SIMD_PORTABLE,
                                               OSSA_SIMD_SSE, OSSA_SIMD_AVX2,
                                               OSSA_SIMD_AVX512};
#define PATH_COUNT ((int)(sizeof all_paths / sizeof all_paths[0]))

TEST(every_path_matches_the_double_precision_reference)
{
    int tested = 0;
    for (int trial = 0; trial < 6; ++trial) {
        ts_rng r = ts_rng_make(100 + (uint64_t)trial);
        ts_mesh m;
        ts_mesh_options o = {300 + 37 * trial, 50, 5 + 9 * trial, 4, trial % 2 == 0, false,
                             10};
        ts_mesh_random(&m, &r, &o);
        ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
        REQUIRE(mesh);
        ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * (size_t)o.skin_joints);
        ts_random_palette(&r, palette, o.skin_joints);
        for (int p = 0; p < 2 * PATH_COUNT; ++p) {
            stream = p >= PATH_COUNT;
            if (!ts_path_runs(all_paths[p % PATH_COUNT]))
                continue;
            float *out = alloc_output(mesh);
            CHECK_RESULT(skin(mesh, palette, out, all_paths[p % PATH_COUNT], 0, 0), OSSA_OK);
            int w_exact;
            const double e = reference_error(&m, mesh, palette, out, &w_exact);
            if (!(e <= SKIN_TOLERANCE))
                fprintf(stderr, "path %s%s, trial %d: relative error %.3g\n",
                        ossa_simd_path_name(all_paths[p % PATH_COUNT]),
                        stream ? " streaming" : "", trial, e);
            CHECK(e <= SKIN_TOLERANCE);
            CHECK(w_exact);
            free(out);
            ++tested;
        }
        free(palette);
        ossa_mesh_free(mesh, NULL);
        ts_mesh_free(&m);
    }
    stream = false;
    CHECK(tested >= 24); /* at least auto and scalar, both ways, every trial */
    fprintf(stderr, "skinning paths on this machine: best %s\n",
            ossa_simd_path_name(ossa_simd_best_path()));
}

TEST(identity_palette_reproduces_the_source_mesh)
{
    ts_rng r = ts_rng_make(7);
    for (int tangents = 0; tangents < 2; ++tangents) {
        ts_mesh m;
        ts_mesh_options o = {400, 10, 12, 4, tangents != 0, false, 0};
        ts_mesh_random(&m, &r, &o);
        ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
        REQUIRE(mesh);
        ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * 12);
        for (int k = 0; k < 12; ++k)
            palette[k] = ossa_mat34_identity();
        const uint32_t *source = ossa_mesh_source_vertices(mesh);
        const int floats = ossa_mesh_skinned_stride(mesh) / 4;
        for (int p = 0; p < 2 * PATH_COUNT; ++p) {
            stream = p >= PATH_COUNT;
            if (!ts_path_runs(all_paths[p % PATH_COUNT]))
                continue;
            float *out = alloc_output(mesh);
            CHECK_RESULT(skin(mesh, palette, out, all_paths[p % PATH_COUNT], 0, 0), OSSA_OK);
            bool equal = true;
            for (int v = 0; v < o.vertices; ++v)
                equal &= ts_mesh_vertex_is_source(&m, (int)source[v],
                                                  out + (size_t)v * (size_t)floats, tangents);
            if (!equal)
                fprintf(stderr, "path %s%s differs from the source mesh\n",
                        ossa_simd_path_name(all_paths[p % PATH_COUNT]),
                        stream ? " streaming" : "");
            CHECK(equal);
            free(out);
        }
        stream = false;
        free(palette);
        ossa_mesh_free(mesh, NULL);
        ts_mesh_free(&m);
    }
}

TEST(vertex_ranges_write_only_their_vertices_and_match_the_whole)
{
    for (int tangents = 0; tangents < 2; ++tangents) {
        ts_rng r = ts_rng_make(8 + (uint64_t)tangents);
        ts_mesh m;
        ts_mesh_options o = {333, 10, 9, 4, tangents != 0, false, 0};
        ts_mesh_random(&m, &r, &o);
        ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
        REQUIRE(mesh);
        ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * 9);
        ts_random_palette(&r, palette, 9);
        const size_t stride = (size_t)ossa_mesh_skinned_stride(mesh);
        const size_t bytes = (size_t)o.vertices * stride;
        for (int p = 0; p < PATH_COUNT; ++p) {
            if (!ts_path_runs(all_paths[p]))
                continue;
            stream = false;
            float *whole = alloc_output(mesh);
            CHECK_RESULT(skin(mesh, palette, whole, all_paths[p], 0, 0), OSSA_OK);
            /* Uneven pieces that cut through the influence groups, with
             * ordinary and streaming stores, into outputs at every 16-byte
             * offset from a cache line (streaming stores align themselves). */
            int cuts[] = {0, 1, 50, 51, 130, 200, 201, 290, 333};
            for (int way = 0; way < 8; ++way) {
                stream = way >= 4;
                const size_t offset = 16u * (size_t)(way % 4);
                unsigned char *base = ts_aligned(bytes + 64);
                memset(base, 0xCD, bytes + 64);
                float *pieces = (float *)(void *)(base + offset);
                for (int c = 0; c + 1 < (int)(sizeof cuts / sizeof cuts[0]); ++c) {
                    unsigned char *probe = ts_aligned(bytes + 64);
                    memset(probe, 0xCD, bytes + 64);
                    CHECK_RESULT(skin(mesh, palette, (float *)(void *)(probe + offset),
                                      all_paths[p], cuts[c], cuts[c + 1]),
                                 OSSA_OK);
                    int untouched = 1;
                    for (size_t i = 0; i < bytes + 64; ++i)
                        if (i < offset + (size_t)cuts[c] * stride ||
                            i >= offset + (size_t)cuts[c + 1] * stride)
                            untouched &= probe[i] == 0xCD;
                    CHECK(untouched);
                    free(probe);
                    CHECK_RESULT(skin(mesh, palette, pieces, all_paths[p], cuts[c], cuts[c + 1]),
                                 OSSA_OK);
                }
                if (memcmp(whole, pieces, bytes) != 0)
                    fprintf(stderr, "path %s%s, offset %zu: pieces differ from the whole\n",
                            ossa_simd_path_name(all_paths[p]), stream ? " streaming" : "",
                            offset);
                CHECK(memcmp(whole, pieces, bytes) == 0);
                free(base);
            }
            stream = false;
            free(whole);
        }
        free(palette);
        ossa_mesh_free(mesh, NULL);
        ts_mesh_free(&m);
    }
}

TEST(skinning_job_validity_table)
{
    ts_rng r = ts_rng_make(9);
    ts_mesh m;
    ts_mesh_options o = {40, 10, 4, 4, false, false, 0};
    ts_mesh_random(&m, &r, &o);
    ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
    REQUIRE(mesh);
    ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * 5);
    ts_random_palette(&r, palette, 5);
    float *out = alloc_output(mesh);
    ossa_skinning_job ok = {0};
    ok.mesh = mesh;
    ok.palette = palette;
    ok.palette_count = 4;
    ok.output = out;
    ok.output_bytes = 40 * 32;
    ossa_skinning_job job = {0};
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_skinning_job_validate(NULL), OSSA_ERR_MISSING_INPUT);
    job = ok, job.mesh = NULL;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job = ok, job.palette = NULL;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISSING_INPUT);
    job = ok, job.palette = (const ossa_mat34 *)(const void *)((const char *)palette + 4);
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISALIGNED);
    job = ok, job.palette_count = 3;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_INPUT_TOO_SMALL);
    job = ok, job.vertex_begin = -1, job.vertex_end = 3;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job = ok, job.vertex_begin = 0, job.vertex_end = 41;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job = ok, job.vertex_begin = 5, job.vertex_end = 4;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_RANGE);
    job = ok, job.output = NULL;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job = ok, job.output = (char *)out + 8;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISALIGNED);
    job = ok, job.output_bytes = 40 * 32 - 1;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job = ok, job.path = OSSA_SIMD_PATH_COUNT;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job = ok, job.path = (ossa_simd_path)-1;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    for (int p = OSSA_SIMD_PORTABLE; p < OSSA_SIMD_PATH_COUNT; ++p) {
        job = ok, job.path = (ossa_simd_path)p;
        CHECK_RESULT(ossa_skinning_job_validate(&job), ossa_simd_path_supported(job.path)
                                                           ? OSSA_OK
                                                           : OSSA_ERR_UNSUPPORTED);
    }
    /* A failing job writes nothing; a valid one (zeroed range: all) writes. */
    job = ok, job.output_bytes = 8;
    CHECK_RESULT(ossa_skinning_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK(((const unsigned char *)out)[0] == 0xCD);
    CHECK_RESULT(ossa_skinning_job_run(&ok), OSSA_OK);
    CHECK(out[3] == 1.0f);
    CHECK(ossa_simd_path_supported(OSSA_SIMD_PORTABLE));
    CHECK(ossa_simd_path_supported(ossa_simd_best_path()));
    CHECK(!ossa_simd_path_supported(OSSA_SIMD_PATH_COUNT));
    CHECK(strcmp(ossa_simd_path_name(OSSA_SIMD_AVX512), "avx512") == 0);
    free(out);
    free(palette);
    ossa_mesh_free(mesh, NULL);
    ts_mesh_free(&m);
}

#ifdef OSSA_TEST_HAVE_BENCH
/* Seed 002's steps (a)-(d), as the benchmark runs them, against the same
 * reference (positions and normals; they have no tangents). */
TEST(bench_baselines_match_the_reference)
{
    for (int trial = 0; trial < 3; ++trial) {
        ts_rng r = ts_rng_make(300 + (uint64_t)trial);
        ts_mesh m;
        ts_mesh_options o = {257 + 101 * trial, 30, 6 + 11 * trial, 4, trial == 1, false, 5};
        ts_mesh_random(&m, &r, &o);
        ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
        REQUIRE(mesh);
        ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * 32);
        naive_mat4 *palette4 = ts_aligned(sizeof(naive_mat4) * 32);
        ts_random_palette(&r, palette, o.skin_joints);
        naive_palette(palette, o.skin_joints, palette4);
        naive_mesh nm;
        REQUIRE(naive_mesh_init(&nm, mesh));
        const int n = o.vertices;
        naive_vertex *aos = ts_aligned(sizeof(naive_vertex) * (size_t)n);
        naive_skinned *split = ts_aligned(64 * (size_t)n);
        float *f4 = ts_aligned(32 * (size_t)n), *sorted = ts_aligned(32 * (size_t)n);
        naive_skin_aos(&nm, palette4, aos);
        naive_skin_split(&nm, palette4, split);
        naive_skin_float4(&nm, palette4, f4);
        naive_skin_sorted(&nm, palette4, sorted);
        const uint32_t *source = ossa_mesh_source_vertices(mesh);
        double worst[4] = {0, 0, 0, 0};
        int uv_copied = 1;
        for (int v = 0; v < n; ++v) {
            double want[12];
            ts_mesh_reference_skin(&m, v, palette, want);
            const double pn[6] = {want[0], want[1], want[2], want[4], want[5], want[6]};
            float got[4][6];
            memcpy(got[0], aos[v].position, 12);
            memcpy(got[0] + 3, aos[v].normal, 12);
            memcpy(got[1], split[v].position, 12);
            memcpy(got[1] + 3, split[v].normal, 12);
            memcpy(got[2], f4 + 8 * v, 12);
            memcpy(got[2] + 3, f4 + 8 * v + 4, 12);
            uv_copied &= aos[v].uv[0] == m.uvs[2 * v] && aos[v].uv[1] == m.uvs[2 * v + 1];
            for (int k = 0; k < 3; ++k) {
                const double e = ts_relative_error(got[k], pn, 6);
                worst[k] = e > worst[k] || e != e ? e : worst[k];
            }
            CHECK(f4[8 * v + 3] == 1.0f && f4[8 * v + 7] == 0.0f);
        }
        for (int rv = 0; rv < n; ++rv) { /* (d) is in the runtime order */
            double want[12];
            ts_mesh_reference_skin(&m, (int)source[rv], palette, want);
            const double pn[6] = {want[0], want[1], want[2], want[4], want[5], want[6]};
            float got[6];
            memcpy(got, sorted + 8 * rv, 12);
            memcpy(got + 3, sorted + 8 * rv + 4, 12);
            const double e = ts_relative_error(got, pn, 6);
            worst[3] = e > worst[3] || e != e ? e : worst[3];
        }
        for (int k = 0; k < 4; ++k) {
            if (!(worst[k] <= SKIN_TOLERANCE))
                fprintf(stderr, "step (%c), trial %d: relative error %.3g\n", 'a' + k, trial,
                        worst[k]);
            CHECK(worst[k] <= SKIN_TOLERANCE);
        }
        CHECK(uv_copied);
        naive_mesh_fini(&nm);
        free(aos);
        free(split);
        free(f4);
        free(sorted);
        free(palette);
        free(palette4);
        ossa_mesh_free(mesh, NULL);
        ts_mesh_free(&m);
    }
}

/* The benchmark's crowd, every step, on 1..4 threads: the same bytes. */
TEST(bench_threads_give_identical_output)
{
    ossa_default_character c;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&c, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[3] = {c.clips[0], c.clips[1], c.clips[2]};
    skin_crowd crowd;
    char err[200];
    REQUIRE(skin_crowd_init(&crowd, c.skeleton, clips, 3, c.mesh, 7, err, sizeof err));
    unsigned char *first = malloc(crowd.output_stride * 7);
    for (int step = 0; step < SKIN_STEP_COUNT; ++step) {
        /* Steps have buffers of their own: clear the step's, compare it. */
        const size_t bytes = skin_crowd_stride(&crowd, (skin_step)step) * 7;
        memset(skin_crowd_buffer(&crowd, (skin_step)step), 0, bytes);
        skin_crowd_run(&crowd, (skin_step)step, OSSA_SIMD_AUTO, 1);
        memcpy(first, skin_crowd_output(&crowd, 0), bytes);
        bool written = false; /* the step wrote where it is compared */
        for (size_t i = 0; i < bytes; ++i)
            written |= first[i] != 0;
        CHECK(written);
        for (int threads = 2; threads <= 4; ++threads) {
            memset(skin_crowd_buffer(&crowd, (skin_step)step), 0, bytes);
            skin_crowd_run(&crowd, (skin_step)step, OSSA_SIMD_AUTO, threads);
            CHECK(memcmp(first, skin_crowd_output(&crowd, 0), bytes) == 0);
        }
    }
    /* The characters really differ (their own clip and time; the last step's
     * output). */
    CHECK(memcmp(skin_crowd_output(&crowd, 0), skin_crowd_output(&crowd, 3),
                 skin_crowd_output_bytes(&crowd, (skin_step)(SKIN_STEP_COUNT - 1))) != 0);
    free(first);
    skin_crowd_fini(&crowd);
    ossa_default_character_free(&c, NULL);
}

#define BENCH_TESTS , bench_baselines_match_the_reference, bench_threads_give_identical_output
#else
#define BENCH_TESTS
#endif

UTEST_MAIN(every_path_matches_the_double_precision_reference,
           identity_palette_reproduces_the_source_mesh,
           vertex_ranges_write_only_their_vertices_and_match_the_whole,
           skinning_job_validity_table BENCH_TESTS)
