/* mesh_test.c - the runtime mesh section: blob round trip, accessors, and
 * validation of corrupted sections (every broken invariant gets its code). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blob_layout.h"
#include "mesh_support.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef struct fixture {
    ts_mesh raw;
    ossa_mesh *mesh;
} fixture;

static int fixture_init(fixture *f, uint64_t seed)
{
    ts_rng r = ts_rng_make(seed);
    ts_mesh_options o = {120, 80, 10, 4, true, true, 0};
    ts_mesh_random(&f->raw, &r, &o);
    f->mesh = ts_mesh_build(&f->raw, NULL, NULL);
    return f->mesh != NULL;
}

static void fixture_fini(fixture *f)
{
    ossa_mesh_free(f->mesh, NULL);
    ts_mesh_free(&f->raw);
}

TEST(mesh_round_trips_through_a_blob)
{
    fixture f;
    REQUIRE(fixture_init(&f, 21));
    const ossa_mesh *meshes[2] = {f.mesh, f.mesh};
    ossa_blob_contents contents = {f.raw.skeleton, NULL, 0, meshes, 2};
    void *data;
    size_t bytes;
    ossa_error e;
    REQUIRE(ossa_blob_write_memory(&contents, NULL, &data, &bytes, &e) == OSSA_OK);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_open(&blob, data, bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK_INT(blob.mesh_count, 2);
    const ossa_mesh *m = ossa_blob_mesh(&blob, 1);
    REQUIRE(m != NULL);
    CHECK(ossa_blob_mesh(&blob, 2) == NULL);
    CHECK(ossa_mesh_bytes(m) == ossa_mesh_bytes(f.mesh));
    CHECK(memcmp(m, f.mesh, ossa_mesh_bytes(m)) == 0);
    CHECK(strcmp(ossa_mesh_name(m), "random") == 0);
    CHECK_INT(ossa_mesh_vertex_count(m), 120);
    CHECK_INT(ossa_mesh_triangle_count(m), 80);
    CHECK_INT(ossa_mesh_skin_joint_count(m), 10);
    CHECK((uintptr_t)ossa_mesh_bind_stream(m) % 16 == 0);
    CHECK((uintptr_t)ossa_mesh_inverse_binds(m) % 16 == 0);
    for (int k = 0; k < 10; ++k)
        CHECK(memcmp(&ossa_mesh_inverse_binds(m)[k], &f.raw.skin_joints[k].inverse_bind,
                     sizeof(ossa_mat34)) == 0);
    /* Every vertex's weights sum to 1 and its joints exist. */
    for (int v = 0; v < 120; ++v) {
        uint16_t j[4];
        float w[4];
        const int n = ossa_mesh_vertex_influences(m, v, j, w);
        REQUIRE(n >= 1 && n <= 4);
        double sum = 0;
        for (int k = 0; k < n; ++k) {
            CHECK(j[k] < 10);
            CHECK(w[k] > 0.0f);
            sum += w[k];
        }
        CHECK_NEAR(sum, 1.0, 1e-6);
    }
    ossa_free(NULL, data);
    fixture_fini(&f);
}

typedef enum corruption {
    JOINT_OUT_OF_RANGE, WEIGHT_NAN, WEIGHT_ABOVE_ONE, WEIGHTS_NOT_NORMALISED, GROUPS_SHORT,
    GROUPS_LONG, INDEX_OUT_OF_RANGE, INDEX_COUNT_NOT_TRIANGLES, SKIN_JOINT_NOT_IN_SKELETON,
    NO_SKIN_JOINTS, POSITION_W, NORMAL_NAN, TANGENT_W, INVERSE_BIND_INF, UV_NAN,
    SOURCE_OUT_OF_RANGE, STREAM_MISALIGNED, STREAM_PAST_END, WEIGHTS_PAST_END, BAD_TAG,
    BAD_BYTES, BAD_STRIDE, UNKNOWN_FLAGS, UVS_WITHOUT_FLAG, NAME_UNTERMINATED, RESERVED,
    CORRUPTION_COUNT
} corruption;

static const struct {
    const char *name;
    ossa_result code;
} corruptions[CORRUPTION_COUNT] = {
    [JOINT_OUT_OF_RANGE] = {"joint out of range", OSSA_ERR_BLOB_INVARIANT},
    [WEIGHT_NAN] = {"weight NaN", OSSA_ERR_BLOB_INVARIANT},
    [WEIGHT_ABOVE_ONE] = {"weight above one", OSSA_ERR_BLOB_INVARIANT},
    [WEIGHTS_NOT_NORMALISED] = {"weights sum past one", OSSA_ERR_BLOB_INVARIANT},
    [GROUPS_SHORT] = {"groups hold fewer vertices", OSSA_ERR_BLOB_INVARIANT},
    [GROUPS_LONG] = {"groups hold more vertices", OSSA_ERR_BLOB_INVARIANT},
    [INDEX_OUT_OF_RANGE] = {"index out of range", OSSA_ERR_BLOB_INVARIANT},
    [INDEX_COUNT_NOT_TRIANGLES] = {"index count", OSSA_ERR_BLOB_INVARIANT},
    [SKIN_JOINT_NOT_IN_SKELETON] = {"skin joint", OSSA_ERR_BLOB_INVARIANT},
    [NO_SKIN_JOINTS] = {"no skin joints", OSSA_ERR_BLOB_INVARIANT},
    [POSITION_W] = {"position w", OSSA_ERR_BLOB_INVARIANT},
    [NORMAL_NAN] = {"normal NaN", OSSA_ERR_BLOB_INVARIANT},
    [TANGENT_W] = {"tangent w", OSSA_ERR_BLOB_INVARIANT},
    [INVERSE_BIND_INF] = {"inverse bind", OSSA_ERR_BLOB_INVARIANT},
    [UV_NAN] = {"uv NaN", OSSA_ERR_BLOB_INVARIANT},
    [SOURCE_OUT_OF_RANGE] = {"source map", OSSA_ERR_BLOB_INVARIANT},
    [STREAM_MISALIGNED] = {"stream misaligned", OSSA_ERR_BLOB_ALIGNMENT},
    [STREAM_PAST_END] = {"stream past the end", OSSA_ERR_BLOB_TRUNCATED},
    [WEIGHTS_PAST_END] = {"weights past the end", OSSA_ERR_BLOB_TRUNCATED},
    [BAD_TAG] = {"tag", OSSA_ERR_BLOB_SECTION},
    [BAD_BYTES] = {"bytes", OSSA_ERR_BLOB_SIZE},
    [BAD_STRIDE] = {"stride", OSSA_ERR_BLOB_INVARIANT},
    [UNKNOWN_FLAGS] = {"flags", OSSA_ERR_BLOB_INVARIANT},
    [UVS_WITHOUT_FLAG] = {"uvs without flag", OSSA_ERR_BLOB_INVARIANT},
    [NAME_UNTERMINATED] = {"name", OSSA_ERR_BLOB_INVARIANT},
    [RESERVED] = {"reserved", OSSA_ERR_BLOB_INVARIANT},
};

static void corrupt(void *section, corruption c)
{
    tl_mesh *m = section;
    char *base = (char *)section;
    uint16_t *joints = (uint16_t *)(void *)(base + m->joints_offset);
    float *weights = (float *)(void *)(base + m->weights_offset);
    float *stream = (float *)(void *)(base + m->stream_offset);
    const uint64_t w3 = tl_mesh_weights_before(m->group_counts, 3); /* first 3-influence */
    switch (c) {
    case JOINT_OUT_OF_RANGE: joints[tl_mesh_joints_before(m->group_counts, 2) + 1] = 10; break;
    case WEIGHT_NAN: weights[0] = NAN; break;
    case WEIGHT_ABOVE_ONE: weights[0] = 1.5f; break;
    case WEIGHTS_NOT_NORMALISED: weights[w3] = 0.7f, weights[w3 + 1] = 0.6f; break;
    case GROUPS_SHORT: m->group_counts[3]--; break;
    case GROUPS_LONG: m->group_counts[0]++; break;
    case INDEX_OUT_OF_RANGE: ((uint32_t *)(void *)(base + m->indices_offset))[40] = 120; break;
    case INDEX_COUNT_NOT_TRIANGLES: m->index_count--; break;
    case SKIN_JOINT_NOT_IN_SKELETON:
        ((uint16_t *)(void *)(base + m->skin_joints_offset))[2] = 13; /* 13 joints: 0..12 */
        break;
    case NO_SKIN_JOINTS: m->skin_joint_count = 0; break;
    case POSITION_W: stream[12 * 7 + 3] = 0.5f; break;
    case NORMAL_NAN: stream[12 * 7 + 5] = NAN; break;
    case TANGENT_W: stream[12 * 7 + 11] = 0.0f; break;
    case INVERSE_BIND_INF:
        ((ossa_mat34 *)(void *)(base + m->inverse_binds_offset))[4].m[2][3] = INFINITY;
        break;
    case UV_NAN: ((float *)(void *)(base + m->uvs_offset))[9] = NAN; break;
    case SOURCE_OUT_OF_RANGE: ((uint32_t *)(void *)(base + m->source_offset))[3] = 500; break;
    case STREAM_MISALIGNED: m->stream_offset += 16; break;
    case STREAM_PAST_END: m->stream_offset = m->bytes - 64; break;
    case WEIGHTS_PAST_END: m->weights_offset = m->bytes - 4; break;
    case BAD_TAG: m->tag = TL_TAG('C', 'L', 'I', 'P'); break;
    case BAD_BYTES: m->bytes += 64; break;
    case BAD_STRIDE: m->stride = 32; break;
    case UNKNOWN_FLAGS: m->flags |= 0x100; break;
    case UVS_WITHOUT_FLAG: m->flags &= ~TL_MESH_HAS_UVS; break;
    case NAME_UNTERMINATED: base[m->name_offset + m->name_bytes - 1] = 'x'; break;
    case RESERVED: m->reserved[1] = 1; break;
    default: break;
    }
}

/* An exact-size heap copy (so any read past it is an ASan error), 16-aligned. */
static void *exact_copy(const void *data, size_t bytes, size_t copy_bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, copy_bytes ? copy_bytes : 1) != 0)
        abort();
    memcpy(p, data, bytes < copy_bytes ? bytes : copy_bytes);
    return p;
}

TEST(mesh_validation_rejects_each_broken_invariant)
{
    fixture f;
    REQUIRE(fixture_init(&f, 22));
    int counts[4];
    ossa_mesh_influence_counts(f.mesh, counts);
    REQUIRE(counts[0] > 0 && counts[1] > 0 && counts[2] > 0 && counts[3] > 0);
    REQUIRE(ossa_skeleton_joint_count(f.raw.skeleton) == 13);
    const size_t bytes = ossa_mesh_bytes(f.mesh);
    /* The same mesh inside a blob, after the skeleton: section 1. */
    const ossa_mesh *meshes[1] = {f.mesh};
    ossa_blob_contents contents = {f.raw.skeleton, NULL, 0, meshes, 1};
    void *blob_data;
    size_t blob_bytes;
    ossa_error e;
    REQUIRE(ossa_blob_write_memory(&contents, NULL, &blob_data, &blob_bytes, &e) == OSSA_OK);
    const tl_section *table = TL_CAT(tl_section, blob_data, 64);
    REQUIRE(table[1].kind == OSSA_SECTION_MESH);
    for (int c = 0; c < CORRUPTION_COUNT; ++c) {
        void *copy = exact_copy(f.mesh, bytes, bytes);
        corrupt(copy, (corruption)c);
        const ossa_mesh *out = (const ossa_mesh *)copy;
        ossa_result r = ossa_mesh_validate(copy, bytes, f.raw.skeleton, &out, &e);
        if (r != corruptions[c].code)
            fprintf(stderr, "corruption '%s': %s\n", corruptions[c].name, e.message);
        CHECK_RESULT(r, corruptions[c].code);
        CHECK(out == NULL);
        CHECK(strncmp(e.message, "mesh: ", 6) == 0);
        free(copy);

        /* Inside a blob, the message says which section. */
        unsigned char *blob = exact_copy(blob_data, blob_bytes, blob_bytes);
        corrupt(blob + table[1].offset, (corruption)c);
        ossa_blob view;
        CHECK_RESULT(ossa_blob_open(&view, blob, blob_bytes, OSSA_BLOB_SKIP_CHECKSUM, &e),
                     corruptions[c].code);
        CHECK(strstr(e.message, "section 1") != NULL);
        free(blob);
    }
    ossa_free(NULL, blob_data);
    /* The uncorrupted mesh passes, with and without the skeleton. */
    CHECK_RESULT(ossa_mesh_validate(f.mesh, bytes, f.raw.skeleton, NULL, NULL), OSSA_OK);
    CHECK_RESULT(ossa_mesh_validate(f.mesh, bytes, NULL, NULL, NULL), OSSA_OK);
    fixture_fini(&f);
}

TEST(mesh_validation_survives_every_truncation)
{
    fixture f;
    REQUIRE(fixture_init(&f, 23));
    const size_t bytes = ossa_mesh_bytes(f.mesh);
    const tl_mesh *header = (const tl_mesh *)(const void *)f.mesh;
    const size_t name_end = header->name_offset + header->name_bytes;
    for (size_t len = 0; len < bytes; ++len) {
        /* Exact-size heap copies: reading past len is an ASan error. Both the
         * outer size and the header's own `bytes` shrink. */
        unsigned char *copy = exact_copy(f.mesh, len, len);
        if (len >= sizeof(tl_mesh))
            ((tl_mesh *)(void *)copy)->bytes = (uint32_t)len;
        ossa_result r = ossa_mesh_validate(copy, len, f.raw.skeleton, NULL, NULL);
        if (len < name_end)
            CHECK(r != OSSA_OK);
        else
            CHECK_RESULT(r, OSSA_OK); /* only the padding after the name is gone */
        free(copy);
    }
    fixture_fini(&f);
}

UTEST_MAIN(mesh_round_trips_through_a_blob, mesh_validation_rejects_each_broken_invariant,
           mesh_validation_survives_every_truncation)
