/* mesh_builder_test.c - raw mesh -> runtime mesh: influence grouping,
 * reduction and renormalisation, remapped triangles, split streams, errors. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* Distinct joints with a positive weight: the raw vertex's influence count
 * after cleaning, capped at 4 (computed here from the raw data). */
static int raw_influence_count(const ossa_raw_mesh *raw, int v)
{
    int joints[64], n = 0;
    for (int i = raw->influence_offsets[v]; i < raw->influence_offsets[v + 1]; ++i) {
        if (raw->influences[i].weight == 0.0f)
            continue;
        int k = 0;
        while (k < n && joints[k] != raw->influences[i].joint)
            ++k;
        if (k == n)
            joints[n++] = raw->influences[i].joint;
    }
    return n > 4 ? 4 : n;
}

TEST(builder_groups_vertices_by_influence_count)
{
    ts_rng r = ts_rng_make(11);
    ts_mesh m;
    ts_mesh_options o = {500, 300, 20, 6, true, true, 40};
    ts_mesh_random(&m, &r, &o);
    ossa_mesh_build_report report;
    ossa_mesh *mesh = ts_mesh_build(&m, NULL, &report);
    REQUIRE(mesh);
    int expected[4] = {0, 0, 0, 0}, counts[4];
    for (int v = 0; v < o.vertices; ++v)
        expected[raw_influence_count(&m.raw, v) - 1]++;
    ossa_mesh_influence_counts(mesh, counts);
    for (int g = 0; g < 4; ++g) {
        CHECK_INT(counts[g], expected[g]);
        CHECK_INT(report.influence_histogram[g], expected[g]);
    }
    CHECK_INT(report.vertex_count, o.vertices);
    CHECK_INT(report.triangle_count, o.triangles);
    CHECK_INT(ossa_mesh_vertex_count(mesh), o.vertices);
    /* Runtime vertices come in groups 1, 2, 3, 4; group 1 sorted by joint
     * (then source order), the others in source order; the source map is a
     * permutation. */
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    char *seen = calloc((size_t)o.vertices, 1);
    int group = 1;
    long previous = -1; /* group 1: joint * vertices + source; others: source */
    for (int v = 0; v < o.vertices; ++v) {
        REQUIRE(source[v] < (uint32_t)o.vertices);
        CHECK(!seen[source[v]]);
        seen[source[v]] = 1;
        const int g = raw_influence_count(&m.raw, (int)source[v]);
        CHECK(g >= group);
        if (g != group)
            previous = -1;
        uint16_t joints[4];
        float weights[4];
        CHECK_INT(ossa_mesh_vertex_influences(mesh, v, joints, weights), g);
        const long key = g == 1 ? (long)joints[0] * o.vertices + (long)source[v] : (long)source[v];
        CHECK(key > previous);
        group = g;
        previous = key;
    }
    free(seen);
    ossa_mesh_free(mesh, NULL);
    ts_mesh_free(&m);
}

TEST(builder_keeps_every_triangle)
{
    ts_rng r = ts_rng_make(12);
    ts_mesh m;
    ts_mesh_options o = {300, 700, 12, 4, false, false, 0};
    ts_mesh_random(&m, &r, &o);
    ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
    REQUIRE(mesh);
    CHECK_INT(ossa_mesh_triangle_count(mesh), o.triangles);
    const uint32_t *indices = ossa_mesh_indices(mesh);
    for (int t = 0; t < o.triangles; ++t)
        for (int k = 0; k < 3; ++k) {
            const ossa_float3 want = m.positions[m.indices[3 * t + k]];
            const float *got = ts_mesh_stream_vertex(mesh, (int)indices[3 * t + k]);
            CHECK(got[0] == want.x && got[1] == want.y && got[2] == want.z);
        }
    ossa_mesh_free(mesh, NULL);
    ts_mesh_free(&m);
}

TEST(builder_splits_the_skinned_stream_from_the_static_one)
{
    ts_rng r = ts_rng_make(13);
    ts_mesh m;
    ts_mesh_options o = {200, 100, 9, 4, true, true, 0};
    ts_mesh_random(&m, &r, &o);
    ossa_mesh *mesh = ts_mesh_build(&m, NULL, NULL);
    REQUIRE(mesh);
    CHECK(ossa_mesh_has_tangents(mesh));
    CHECK_INT(ossa_mesh_skinned_stride(mesh), 48);
    CHECK((uintptr_t)ossa_mesh_bind_stream(mesh) % 64 == 0);
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    const float *uvs = ossa_mesh_uvs(mesh);
    const uint32_t *colors = ossa_mesh_colors(mesh);
    REQUIRE(uvs && colors);
    for (int v = 0; v < o.vertices; ++v) {
        const int s = (int)source[v];
        CHECK(ts_mesh_vertex_is_source(&m, s, ts_mesh_stream_vertex(mesh, v), true));
        CHECK(uvs[2 * v] == m.uvs[2 * s] && uvs[2 * v + 1] == m.uvs[2 * s + 1]);
        CHECK(colors[v] == m.colors[s]);
    }
    /* Skin joints bind the skeleton joints of the same name. */
    const uint16_t *skin = ossa_mesh_skin_joints(mesh);
    for (int k = 0; k < o.skin_joints; ++k)
        CHECK(strcmp(ossa_skeleton_joint_name(m.skeleton, skin[k]), m.skin_joints[k].name) == 0);
    ossa_mesh_free(mesh, NULL);

    ossa_mesh_build_options no_tangents = {0};
    no_tangents.no_tangents = true;
    mesh = ts_mesh_build(&m, &no_tangents, NULL);
    REQUIRE(mesh);
    CHECK(!ossa_mesh_has_tangents(mesh));
    CHECK_INT(ossa_mesh_skinned_stride(mesh), 32);
    ossa_mesh_free(mesh, NULL);
    ts_mesh_free(&m);
}

/* A four-vertex mesh whose influences exercise every cleaning rule. */
TEST(builder_reduces_renormalises_and_reports)
{
    ts_rng r = ts_rng_make(14);
    ts_mesh m;
    ts_mesh_options o = {4, 2, 8, 1, false, false, 0};
    ts_mesh_random(&m, &r, &o);
    static const ossa_raw_influence influences[] = {
        /* 0: six influences summing to 1: keep 0.3 0.25 0.2 0.1 (joint 3 before
         * joint 4 at equal weight), drop 0.1 and 0.05 */
        {0, 0.3f}, {4, 0.1f}, {1, 0.25f}, {2, 0.2f}, {3, 0.1f}, {5, 0.05f},
        /* 1: sums to 4 */
        {6, 2.0f}, {7, 2.0f},
        /* 2: two zero weights */
        {1, 0.0f}, {2, 1.0f}, {3, 0.0f},
        /* 3: joint 5 twice: merged into 0.5 + 0.25 */
        {5, 0.5f}, {0, 0.25f}, {5, 0.25f},
    };
    int offsets[5] = {0, 6, 8, 11, 14};
    m.raw.influences = influences;
    m.raw.influence_offsets = offsets;
    ossa_mesh_build_report report;
    ossa_mesh *mesh = ts_mesh_build(&m, NULL, &report);
    REQUIRE(mesh);
    CHECK_INT(report.reduced_vertices, 1);
    CHECK_NEAR(report.largest_dropped_weight, 0.1, 1e-6);
    CHECK_INT(report.dropped_zero_weights, 2);
    CHECK_INT(report.renormalized_vertices, 1);
    CHECK_INT(report.merged_influences, 1);
    int counts[4];
    ossa_mesh_influence_counts(mesh, counts);
    CHECK_INT(counts[0], 1);
    CHECK_INT(counts[1], 2);
    CHECK_INT(counts[2], 0);
    CHECK_INT(counts[3], 1);
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    for (int v = 0; v < 4; ++v) {
        uint16_t j[4];
        float w[4];
        const int n = ossa_mesh_vertex_influences(mesh, v, j, w);
        switch (source[v]) {
        case 0:
            REQUIRE(n == 4);
            CHECK(j[0] == 0 && j[1] == 1 && j[2] == 2 && j[3] == 3);
            CHECK_NEAR(w[0], 0.3 / 0.85, 1e-6);
            CHECK_NEAR(w[1], 0.25 / 0.85, 1e-6);
            CHECK_NEAR(w[2], 0.2 / 0.85, 1e-6);
            CHECK_NEAR(w[3], 0.1 / 0.85, 1e-6);
            break;
        case 1:
            REQUIRE(n == 2);
            CHECK(j[0] == 6 && j[1] == 7);
            CHECK_NEAR(w[0], 0.5, 1e-7);
            CHECK_NEAR(w[1], 0.5, 1e-7);
            break;
        case 2:
            REQUIRE(n == 1);
            CHECK(j[0] == 2 && w[0] == 1.0f);
            break;
        default:
            REQUIRE(n == 2);
            CHECK(j[0] == 5 && j[1] == 0);
            CHECK_NEAR(w[0], 0.75, 1e-7);
            CHECK_NEAR(w[1], 0.25, 1e-7);
            break;
        }
    }
    CHECK_INT(ossa_mesh_vertex_influences(mesh, 4, NULL, NULL), 0);
    CHECK_INT(ossa_mesh_vertex_influences(mesh, -1, NULL, NULL), 0);
    ossa_mesh_free(mesh, NULL);
    ts_mesh_free(&m);
}

typedef enum breakage {
    NO_VERTICES, NO_TRIANGLES, NO_POSITIONS, PARTIAL_TRIANGLE, INDEX_OUT_OF_RANGE,
    JOINT_OUT_OF_RANGE, NEGATIVE_WEIGHT, NAN_WEIGHT, ALL_ZERO_WEIGHTS, NAN_POSITION,
    INF_NORMAL, NAN_TANGENT, NAN_UV, UNKNOWN_SKIN_JOINT, NAN_INVERSE_BIND, NO_SKIN_JOINTS,
    TOO_MANY_SKIN_JOINTS, DECREASING_OFFSETS, NO_SKELETON, BREAKAGE_COUNT
} breakage;

TEST(builder_rejects_bad_input_naming_where)
{
    static const struct {
        ossa_result code;
        int index; /* vertex, triangle or joint named; -1 for none */
    } expected[BREAKAGE_COUNT] = {
        [NO_VERTICES] = {OSSA_ERR_MESH_EMPTY, -1},
        [NO_TRIANGLES] = {OSSA_ERR_MESH_EMPTY, -1},
        [NO_POSITIONS] = {OSSA_ERR_MISSING_INPUT, -1},
        [PARTIAL_TRIANGLE] = {OSSA_ERR_BAD_ARGUMENT, -1},
        [INDEX_OUT_OF_RANGE] = {OSSA_ERR_MESH_BAD_INDEX, 7},
        [JOINT_OUT_OF_RANGE] = {OSSA_ERR_MESH_BAD_JOINT, 5},
        [NEGATIVE_WEIGHT] = {OSSA_ERR_MESH_BAD_WEIGHTS, 5},
        [NAN_WEIGHT] = {OSSA_ERR_MESH_BAD_WEIGHTS, 5},
        [ALL_ZERO_WEIGHTS] = {OSSA_ERR_MESH_BAD_WEIGHTS, 5},
        [NAN_POSITION] = {OSSA_ERR_BAD_VALUE, 5},
        [INF_NORMAL] = {OSSA_ERR_BAD_VALUE, 5},
        [NAN_TANGENT] = {OSSA_ERR_BAD_VALUE, 5},
        [NAN_UV] = {OSSA_ERR_BAD_VALUE, 5},
        [UNKNOWN_SKIN_JOINT] = {OSSA_ERR_MESH_BAD_JOINT, 3},
        [NAN_INVERSE_BIND] = {OSSA_ERR_BAD_VALUE, 3},
        [NO_SKIN_JOINTS] = {OSSA_ERR_MESH_BAD_JOINT, -1},
        [TOO_MANY_SKIN_JOINTS] = {OSSA_ERR_MESH_TOO_LARGE, -1},
        [DECREASING_OFFSETS] = {OSSA_ERR_BAD_ARGUMENT, 5},
        [NO_SKELETON] = {OSSA_ERR_MISSING_INPUT, -1},
    };
    for (int b = 0; b < BREAKAGE_COUNT; ++b) {
        ts_rng r = ts_rng_make(15);
        ts_mesh m;
        ts_mesh_options o = {20, 10, 6, 3, true, false, 0};
        ts_mesh_random(&m, &r, &o);
        ossa_raw_mesh raw = m.raw;
        const ossa_skeleton *skeleton = m.skeleton;
        const int i5 = m.offsets[5];
        switch ((breakage)b) {
        case NO_VERTICES: raw.vertex_count = 0; break;
        case NO_TRIANGLES: raw.index_count = 0; break;
        case NO_POSITIONS: raw.positions = NULL; break;
        case PARTIAL_TRIANGLE: raw.index_count = 29; break;
        case INDEX_OUT_OF_RANGE: m.indices[22] = 20; break;
        case JOINT_OUT_OF_RANGE: m.influences[i5].joint = 6; break;
        case NEGATIVE_WEIGHT: m.influences[i5].weight = -0.5f; break;
        case NAN_WEIGHT: m.influences[i5].weight = NAN; break;
        case ALL_ZERO_WEIGHTS:
            for (int i = i5; i < m.offsets[6]; ++i)
                m.influences[i].weight = 0.0f;
            break;
        case NAN_POSITION: m.positions[5].y = NAN; break;
        case INF_NORMAL: m.normals[5].z = INFINITY; break;
        case NAN_TANGENT: m.tangents[5].w = NAN; break;
        case NAN_UV: m.uvs[11] = NAN; break;
        case UNKNOWN_SKIN_JOINT: m.skin_joints[3].name = "nobody"; break;
        case NAN_INVERSE_BIND: m.skin_joints[3].inverse_bind.m[1][2] = NAN; break;
        case NO_SKIN_JOINTS: raw.skin_joint_count = 0; break;
        case TOO_MANY_SKIN_JOINTS: raw.skin_joint_count = 65536; break;
        case DECREASING_OFFSETS: m.offsets[6] = m.offsets[5] - 1; break;
        case NO_SKELETON: skeleton = NULL; break;
        default: break;
        }
        ossa_mesh *mesh = (ossa_mesh *)&m; /* must be reset to NULL */
        ossa_error e;
        CHECK_RESULT(ossa_mesh_build(&raw, skeleton, NULL, &mesh, NULL, &e), expected[b].code);
        CHECK_INT(e.code, expected[b].code);
        CHECK_INT(e.index, expected[b].index);
        CHECK(mesh == NULL);
        CHECK(strstr(e.message, "mesh 'random'") != NULL);
        ts_mesh_free(&m);
    }
}

TEST(builder_fails_cleanly_when_memory_runs_out)
{
    ts_rng r = ts_rng_make(16);
    ts_mesh m;
    ts_mesh_options o = {50, 40, 10, 6, true, true, 5};
    ts_mesh_random(&m, &r, &o);
    int failures = 0;
    for (int n = 0;; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        ossa_mesh_build_options options = {0};
        options.allocator = a.allocator;
        ossa_mesh *mesh = NULL;
        ossa_error e;
        ossa_result result = ossa_mesh_build(&m.raw, m.skeleton, &options, &mesh, NULL, &e);
        if (result == OSSA_OK) {
            ossa_mesh_free(mesh, &a.allocator);
            CHECK_INT(a.live, 0);
            break;
        }
        CHECK_RESULT(result, OSSA_ERR_OUT_OF_MEMORY);
        CHECK(mesh == NULL);
        CHECK_INT(a.live, 0);
        ++failures;
        REQUIRE(n < 100);
    }
    CHECK(failures >= 6); /* every allocation was made to fail once */
    ts_mesh_free(&m);
}

UTEST_MAIN(builder_groups_vertices_by_influence_count, builder_keeps_every_triangle,
           builder_splits_the_skinned_stream_from_the_static_one,
           builder_reduces_renormalises_and_reports, builder_rejects_bad_input_naming_where,
           builder_fails_cleanly_when_memory_runs_out)
