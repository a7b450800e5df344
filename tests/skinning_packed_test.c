/* skinning_packed_test.c - packed skinned output (OSSA_SKIN_FORMAT_PACKED)
 * against the float4 output of the same path, on every path this machine
 * runs, with and without a skin plan, with ordinary and streaming stores:
 * positions bit for bit, normals and tangents within the packing's
 * rounding, handedness exact; vertex ranges that cut the influence groups,
 * guard bytes around every output, every output alignment the format
 * allows; sizes and the validity table. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "simd_paths.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* A packed component is round(511 c) for the float component c clamped to
 * [-1, 1]: at most half a step (1/511) from it, plus the float rounding of
 * 511 c + 512 on the way (at most 2^-14 of a step). */
#define HALF_STEP_PLUS (0.5 + 1.0 / 16384.0)

static const ossa_simd_path all_paths[] = {OSSA_SIMD_AUTO, OSSA_SIMD_PORTABLE, OSSA_SIMD_SSE,
                                           OSSA_SIMD_AVX2, OSSA_SIMD_AVX512};
#define PATH_COUNT ((int)(sizeof all_paths / sizeof all_paths[0]))

/* A decoded 10:10:10:2 word: fields as two's complement integers. */
typedef struct decoded {
    int c[3];
    int w;
} decoded;

static decoded decode(uint32_t word)
{
    decoded d;
    for (int k = 0; k < 3; ++k) {
        const int f = (int)((word >> (10 * k)) & 0x3FFu);
        d.c[k] = f >= 512 ? f - 1024 : f;
    }
    const int w = (int)(word >> 30);
    d.w = w >= 2 ? w - 4 : w;
    return d;
}

/* Worst packing error, in steps, of a direction against the float4 one. */
static double direction_error(const decoded *d, const float *f)
{
    double worst = 0.0;
    for (int k = 0; k < 3; ++k) {
        const double want = f[k] > 1.0f ? 1.0 : f[k] < -1.0f ? -1.0 : (double)f[k];
        /* OpenGL 4.2+ / Vulkan: c / 511, clamped to -1 */
        const double got = fmax(d->c[k] / 511.0, -1.0);
        const double e = fabs(got - want) * 511.0;
        if (!(e <= worst))
            worst = e;
    }
    return worst;
}

typedef struct comparison {
    long vertices;
    long positions_differing;
    long handedness_wrong;
    long normal_w_nonzero;
    double worst_steps;
} comparison;

/* Compares vertices [begin, end) of a packed output with a float4 one. */
static void compare(comparison *c, const ossa_mesh *mesh, const unsigned char *packed,
                    const float *float4, int begin, int end)
{
    const bool tangents = ossa_mesh_has_tangents(mesh);
    const size_t bytes = ossa_skin_vertex_bytes(mesh, OSSA_SKIN_FORMAT_PACKED);
    const int floats = ossa_mesh_skinned_stride(mesh) / 4;
    for (int v = begin; v < end; ++v) {
        const unsigned char *p = packed + (size_t)v * bytes;
        const float *f = float4 + (size_t)v * (size_t)floats;
        c->positions_differing += memcmp(p, f, 12) != 0;
        uint32_t words[2];
        memcpy(words, p + 12, tangents ? 8 : 4);
        const decoded n = decode(words[0]);
        c->normal_w_nonzero += n.w != 0;
        double e = direction_error(&n, f + 4);
        if (tangents) {
            const decoded t = decode(words[1]);
            const double t_error = direction_error(&t, f + 8);
            e = t_error > e ? t_error : e;
            /* the handedness decodes to exactly w under the rule in use
             * since OpenGL 4.2 (max(c, -1)) and the older (2c + 1) / 3 */
            const double newer = t.w < -1 ? -1.0 : (double)t.w;
            const double older = (2.0 * t.w + 1.0) / 3.0;
            c->handedness_wrong += !(newer == f[11] && older == f[11]);
        }
        if (!(e <= c->worst_steps))
            c->worst_steps = e;
        ++c->vertices;
    }
}

static bool comparison_ok(const comparison *c)
{
    return c->positions_differing == 0 && c->handedness_wrong == 0 && c->normal_w_nonzero == 0 &&
           c->worst_steps <= HALF_STEP_PLUS;
}

static void report(const comparison *c, const char *what)
{
    if (!comparison_ok(c))
        fprintf(stderr,
                "%s: %ld vertices, positions differing %ld, handedness wrong %ld, normal w "
                "set %ld, worst %.6f steps\n",
                what, c->vertices, c->positions_differing, c->handedness_wrong,
                c->normal_w_nonzero, c->worst_steps);
}

typedef struct setup {
    ts_mesh m;
    ossa_mesh *mesh;
    ossa_mat34 *palette;
    int palette_count;
    void *plan_memory;
    const ossa_skin_plan *plan;
} setup;

static bool setup_make(setup *s, uint64_t seed, const ts_mesh_options *o)
{
    memset(s, 0, sizeof *s);
    ts_rng r = ts_rng_make(seed);
    ts_mesh_random(&s->m, &r, o);
    s->mesh = ts_mesh_build(&s->m, NULL, NULL);
    if (!s->mesh)
        return false;
    s->palette_count = ossa_mesh_skin_joint_count(s->mesh);
    s->palette = ts_aligned(sizeof(ossa_mat34) * (size_t)s->palette_count);
    ts_random_palette(&r, s->palette, s->palette_count);
    const size_t bytes = ossa_skin_plan_size(s->mesh);
    s->plan_memory = ts_aligned(bytes);
    return ossa_skin_plan_init(&s->plan, s->plan_memory, bytes, s->mesh) == OSSA_OK;
}

static void setup_free(setup *s)
{
    free(s->plan_memory);
    free(s->palette);
    ossa_mesh_free(s->mesh, NULL);
    ts_mesh_free(&s->m);
}

static ossa_result skin(const setup *s, ossa_skin_format format, void *out, ossa_simd_path path,
                        int begin, int end, bool stream, bool plan)
{
    ossa_skinning_job job = {0};
    job.mesh = s->mesh;
    job.palette = s->palette;
    job.palette_count = s->palette_count;
    job.vertex_begin = begin;
    job.vertex_end = end;
    job.output = out;
    job.output_bytes = ossa_skin_output_bytes(s->mesh, format);
    job.format = format;
    job.plan = plan ? s->plan : NULL;
    job.path = path;
    job.stream_output = stream;
    return ossa_skinning_job_run(&job);
}

/* The float4 output of a path, for comparison. */
static float *float4_output(const setup *s, ossa_simd_path path)
{
    const size_t bytes = ossa_skin_output_bytes(s->mesh, OSSA_SKIN_FORMAT_FLOAT4);
    float *out = ts_aligned(bytes);
    memset(out, 0xCD, bytes);
    CHECK_RESULT(skin(s, OSSA_SKIN_FORMAT_FLOAT4, out, path, 0, 0, false, false), OSSA_OK);
    return out;
}

/* Meshes for the tests: with and without tangents, few skin joints (blocks
 * of at most 8 distinct joints: the plan's table blocks) and many (general
 * blocks), up to 4 influences. */
static ts_mesh_options mesh_options(int trial)
{
    ts_mesh_options o = {0};
    o.vertices = 301 + 97 * trial;
    o.triangles = 40;
    o.skin_joints = trial % 3 == 0 ? 5 : 7 + 13 * trial;
    o.max_influences = 4 + trial % 2;
    o.tangents = trial % 4 != 1;
    o.zero_weights = 7;
    return o;
}

TEST(packed_matches_float4_on_every_path)
{
    int runs = 0;
    for (int trial = 0; trial < 6; ++trial) {
        setup s;
        const ts_mesh_options o = mesh_options(trial);
        REQUIRE(setup_make(&s, 500 + (uint64_t)trial, &o));
        const size_t bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
        for (int p = 0; p < PATH_COUNT; ++p) {
            if (!ts_path_runs(all_paths[p]))
                continue;
            float *f = float4_output(&s, all_paths[p]);
            for (int way = 0; way < 4; ++way) {
                const bool stream = way & 1, plan = way & 2;
                unsigned char *out = ts_aligned(bytes);
                memset(out, 0xCD, bytes);
                CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, out, all_paths[p], 0, 0, stream,
                                  plan),
                             OSSA_OK);
                comparison c = {0};
                compare(&c, s.mesh, out, f, 0, ossa_mesh_vertex_count(s.mesh));
                char what[96];
                snprintf(what, sizeof what, "trial %d, path %s%s%s", trial,
                         ossa_simd_path_name(all_paths[p]), stream ? ", streaming" : "",
                         plan ? ", plan" : "");
                report(&c, what);
                CHECK(comparison_ok(&c));
                CHECK(c.vertices == ossa_mesh_vertex_count(s.mesh));
                free(out);
                ++runs;
            }
            free(f);
        }
        setup_free(&s);
    }
    CHECK(runs >= 6 * 2 * 4); /* auto and portable at least, four ways, every trial */
}

/* The FMA paths blend and transform with the same fused operations, so their
 * packed outputs agree bit for bit: AVX2 and AVX-512, each with and without a
 * plan. */
TEST(fma_paths_and_the_plan_give_identical_packed_bytes)
{
    if (!ts_path_runs(OSSA_SIMD_AVX2))
        return;
    for (int trial = 0; trial < 6; ++trial) {
        setup s;
        const ts_mesh_options o = mesh_options(trial);
        REQUIRE(setup_make(&s, 600 + (uint64_t)trial, &o));
        const size_t bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
        unsigned char *want = ts_aligned(bytes), *got = ts_aligned(bytes);
        CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, want, OSSA_SIMD_AVX2, 0, 0, false, false),
                     OSSA_OK);
        for (int way = 0; way < 3; ++way) {
            const ossa_simd_path path = way == 0 ? OSSA_SIMD_AVX2 : OSSA_SIMD_AVX512;
            if (way > 0 && !ts_path_runs(OSSA_SIMD_AVX512))
                break;
            memset(got, 0xCD, bytes);
            CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, got, path, 0, 0, false, way != 1),
                         OSSA_OK);
            if (memcmp(want, got, bytes) != 0)
                fprintf(stderr, "trial %d: %s%s differs from AVX2\n", trial,
                        ossa_simd_path_name(path), way != 1 ? " with a plan" : "");
            CHECK(memcmp(want, got, bytes) == 0);
        }
        free(want);
        free(got);
        setup_free(&s);
    }
}

TEST(identity_palette_packs_the_bind_pose)
{
    for (int tangents = 0; tangents < 2; ++tangents) {
        setup s;
        ts_mesh_options o = mesh_options(2);
        o.tangents = tangents != 0;
        REQUIRE(setup_make(&s, 700 + (uint64_t)tangents, &o));
        for (int k = 0; k < s.palette_count; ++k)
            s.palette[k] = ossa_mat34_identity();
        const int n = ossa_mesh_vertex_count(s.mesh);
        const size_t bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
        for (int p = 0; p < PATH_COUNT; ++p) {
            if (!ts_path_runs(all_paths[p]))
                continue;
            for (int plan = 0; plan < 2; ++plan) {
                unsigned char *out = ts_aligned(bytes);
                CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, out, all_paths[p], 0, 0, false,
                                  plan != 0),
                             OSSA_OK);
                comparison c = {0};
                /* the bind stream is the float4 output of an identity palette */
                compare(&c, s.mesh, out, ossa_mesh_bind_stream(s.mesh), 0, n);
                report(&c, ossa_simd_path_name(all_paths[p]));
                CHECK(comparison_ok(&c));
                free(out);
            }
        }
        setup_free(&s);
    }
}

/* Pieces of the vertex range (cutting the influence groups and the plan's
 * blocks) write exactly their vertices, into outputs at every 4-byte offset
 * from a cache line, and together give the bytes of one whole run. */
TEST(packed_ranges_write_only_their_vertices_at_every_alignment)
{
    for (int trial = 0; trial < 2; ++trial) {
        setup s;
        ts_mesh_options o = mesh_options(trial);
        o.vertices = 333;
        REQUIRE(setup_make(&s, 800 + (uint64_t)trial, &o));
        const int n = ossa_mesh_vertex_count(s.mesh);
        int groups[4];
        ossa_mesh_influence_counts(s.mesh, groups);
        /* cuts at, beside and between the group boundaries */
        int cuts[16], cut_count = 0, at = 0;
        cuts[cut_count++] = 0;
        cuts[cut_count++] = 1;
        for (int g = 0; g < 3; ++g) {
            at += groups[g];
            if (at - 3 > cuts[cut_count - 1])
                cuts[cut_count++] = at - 3;
            if (at + 5 > cuts[cut_count - 1] && at + 5 < n)
                cuts[cut_count++] = at + 5;
        }
        if (n - 17 > cuts[cut_count - 1])
            cuts[cut_count++] = n - 17;
        cuts[cut_count++] = n;
        const size_t bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
        const size_t vb = ossa_skin_vertex_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
        for (int p = 0; p < PATH_COUNT; ++p) {
            if (!ts_path_runs(all_paths[p]))
                continue;
            unsigned char *whole = ts_aligned(bytes);
            CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, whole, all_paths[p], 0, 0, false,
                              false),
                         OSSA_OK);
            for (int way = 0; way < 4 * 16; ++way) {
                const bool stream = way & 1, plan = way & 2;
                const size_t offset = 4u * (size_t)(way / 4); /* 0, 4, ..., 60 */
                unsigned char *base = ts_aligned(bytes + 128);
                memset(base, 0xCD, bytes + 128);
                unsigned char *pieces = base + 64 + offset;
                bool untouched = true;
                for (int c = 0; c + 1 < cut_count; ++c) {
                    unsigned char *probe = ts_aligned(bytes + 128);
                    memset(probe, 0xCD, bytes + 128);
                    unsigned char *out = probe + 64 + offset;
                    CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, out, all_paths[p], cuts[c],
                                      cuts[c + 1], stream, plan),
                                 OSSA_OK);
                    const size_t lo = 64 + offset + (size_t)cuts[c] * vb;
                    const size_t hi = 64 + offset + (size_t)cuts[c + 1] * vb;
                    for (size_t i = 0; i < bytes + 128; ++i)
                        if (i < lo || i >= hi)
                            untouched &= probe[i] == 0xCD;
                    free(probe);
                    CHECK_RESULT(skin(&s, OSSA_SKIN_FORMAT_PACKED, pieces, all_paths[p], cuts[c],
                                      cuts[c + 1], stream, plan),
                                 OSSA_OK);
                }
                if (!untouched || memcmp(whole, pieces, bytes) != 0)
                    fprintf(stderr, "path %s%s%s, offset %zu: %s\n",
                            ossa_simd_path_name(all_paths[p]), stream ? " streaming" : "",
                            plan ? " plan" : "", offset,
                            untouched ? "pieces differ from the whole" : "wrote outside range");
                CHECK(untouched);
                CHECK(memcmp(whole, pieces, bytes) == 0);
                /* the guard bytes around the assembled output */
                bool guards = true;
                for (unsigned char *g = base; g < pieces; ++g)
                    guards &= *g == 0xCD;
                for (unsigned char *g = pieces + bytes; g < base + bytes + 128; ++g)
                    guards &= *g == 0xCD;
                CHECK(guards);
                free(base);
            }
            free(whole);
        }
        setup_free(&s);
    }
}

TEST(sizes_follow_the_format)
{
    for (int tangents = 0; tangents < 2; ++tangents) {
        setup s;
        ts_mesh_options o = mesh_options(0);
        o.tangents = tangents != 0;
        REQUIRE(setup_make(&s, 900 + (uint64_t)tangents, &o));
        const size_t n = (size_t)ossa_mesh_vertex_count(s.mesh);
        CHECK(ossa_skin_vertex_bytes(s.mesh, OSSA_SKIN_FORMAT_FLOAT4) ==
              (size_t)ossa_mesh_skinned_stride(s.mesh));
        CHECK(ossa_skin_vertex_bytes(s.mesh, OSSA_SKIN_FORMAT_FLOAT4) == (tangents ? 48u : 32u));
        CHECK(ossa_skin_vertex_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED) == (tangents ? 20u : 16u));
        CHECK(ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED) == n * (tangents ? 20 : 16));
        CHECK(ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_FLOAT4) == n * (tangents ? 48 : 32));
        CHECK(ossa_skin_vertex_bytes(s.mesh, OSSA_SKIN_FORMAT_COUNT) == 0);
        CHECK(ossa_skin_vertex_bytes(NULL, OSSA_SKIN_FORMAT_PACKED) == 0);
        CHECK(ossa_skin_output_bytes(s.mesh, (ossa_skin_format)-1) == 0);
        CHECK(ossa_skin_plan_size(s.mesh) > n * 40);
        CHECK(ossa_skin_plan_size(NULL) == 0);
        setup_free(&s);
    }
    CHECK(ossa_skin_output_alignment(OSSA_SKIN_FORMAT_FLOAT4) == 16);
    CHECK(ossa_skin_output_alignment(OSSA_SKIN_FORMAT_PACKED) == 4);
    CHECK(ossa_skin_output_alignment(OSSA_SKIN_FORMAT_COUNT) == 0);
}

TEST(packed_validity_table)
{
    setup s, other;
    ts_mesh_options o = mesh_options(0);
    REQUIRE(setup_make(&s, 1000, &o));
    REQUIRE(setup_make(&other, 1001, &o));
    const size_t bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_PACKED);
    unsigned char *out = ts_aligned(bytes + 64);
    memset(out, 0xCD, bytes + 64);
    ossa_skinning_job ok = {0};
    ok.mesh = s.mesh;
    ok.palette = s.palette;
    ok.palette_count = s.palette_count;
    ok.output = out;
    ok.output_bytes = bytes;
    ok.format = OSSA_SKIN_FORMAT_PACKED;
    ok.plan = s.plan;
    ossa_skinning_job job = ok;
    job.format = OSSA_SKIN_FORMAT_COUNT;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job = ok, job.format = (ossa_skin_format)-1;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job = ok, job.output_bytes = bytes - 1;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job = ok, job.output = out + 2;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISALIGNED);
    job = ok, job.output = out + 4; /* packed output needs 4 bytes only */
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_OK);
    job = ok, job.format = OSSA_SKIN_FORMAT_FLOAT4, job.plan = NULL, job.output = out + 4;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISALIGNED);
    job = ok, job.format = OSSA_SKIN_FORMAT_FLOAT4, job.plan = NULL;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    job = ok, job.plan = other.plan; /* another mesh's plan */
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_ARGUMENT);
    job = ok, job.format = OSSA_SKIN_FORMAT_FLOAT4, job.plan = other.plan,
    job.output_bytes = ossa_skin_output_bytes(s.mesh, OSSA_SKIN_FORMAT_FLOAT4);
    unsigned char *f4 = ts_aligned(job.output_bytes);
    job.output = f4;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_OK); /* ignored for float4 */
    free(f4);
    job = ok, job.output = NULL;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_MISSING_OUTPUT);
    job = ok, job.vertex_begin = 3, job.vertex_end = 2;
    CHECK_RESULT(ossa_skinning_job_validate(&job), OSSA_ERR_BAD_RANGE);
    /* a failing job writes nothing; a valid one writes the mesh's bytes only */
    job = ok, job.output_bytes = bytes - 1;
    CHECK_RESULT(ossa_skinning_job_run(&job), OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK(out[0] == 0xCD);
    CHECK_RESULT(ossa_skinning_job_run(&ok), OSSA_OK);
    CHECK(out[0] != 0xCD || out[1] != 0xCD || out[2] != 0xCD || out[3] != 0xCD);
    bool after = true;
    for (size_t i = bytes; i < bytes + 64; ++i)
        after &= out[i] == 0xCD;
    CHECK(after);
    /* plans */
    const size_t plan_bytes = ossa_skin_plan_size(s.mesh);
    unsigned char *memory = ts_aligned(plan_bytes + 64);
    const ossa_skin_plan *plan = (const ossa_skin_plan *)(const void *)memory;
    CHECK_RESULT(ossa_skin_plan_init(NULL, memory, plan_bytes, s.mesh), OSSA_ERR_MISSING_OUTPUT);
    CHECK_RESULT(ossa_skin_plan_init(&plan, NULL, plan_bytes, s.mesh), OSSA_ERR_MISSING_OUTPUT);
    CHECK(plan == NULL);
    CHECK_RESULT(ossa_skin_plan_init(&plan, memory, plan_bytes, NULL), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_skin_plan_init(&plan, memory + 16, plan_bytes, s.mesh), OSSA_ERR_MISALIGNED);
    CHECK_RESULT(ossa_skin_plan_init(&plan, memory, plan_bytes - 1, s.mesh),
                 OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK_RESULT(ossa_skin_plan_init(&plan, memory, plan_bytes, s.mesh), OSSA_OK);
    CHECK(plan != NULL);
    free(memory);
    free(out);
    setup_free(&other);
    setup_free(&s);
}

UTEST_MAIN(packed_matches_float4_on_every_path, fma_paths_and_the_plan_give_identical_packed_bytes,
           identity_palette_packs_the_bind_pose,
           packed_ranges_write_only_their_vertices_at_every_alignment, sizes_follow_the_format,
           packed_validity_table)
