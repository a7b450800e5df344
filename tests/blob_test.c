/* blob_test.c - the blob loader and section validators: CRC-32C against a
 * bitwise reference, a blob truncated at every length, every header, section
 * table, skeleton and clip field corrupted (each rejected with its own code,
 * naming the field), and every byte flipped. Run under ASan + UBSan by
 * ./run sanitize: a read past the data is a failure there. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* ---- an independent CRC-32C: bit by bit, reflected polynomial 0x82F63B78 ---- */

static uint32_t crc_reference(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < bytes; ++i) {
        crc ^= p[i];
        for (int b = 0; b < 8; ++b)
            crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* The checksum a blob should carry: the CRC of the blob with the field zeroed. */
static uint32_t crc_reference_sealed(const unsigned char *blob, size_t bytes)
{
    unsigned char *copy = malloc(bytes);
    memcpy(copy, blob, bytes);
    memset(copy + OSSAI_CHECKSUM_OFFSET, 0, 4);
    const uint32_t crc = crc_reference(copy, bytes);
    free(copy);
    return crc;
}

/* Recomputes a blob's checksum (the CRC of the blob with its field zeroed),
 * so that a corruption reaches the structural checks behind it. */
static void reseal(unsigned char *blob, size_t bytes)
{
    memset(blob + OSSAI_CHECKSUM_OFFSET, 0, 4);
    uint32_t crc = crc_reference(blob, bytes);
    memcpy(blob + OSSAI_CHECKSUM_OFFSET, &crc, 4);
}

/* ---- the blob under test: a skeleton and two clips (one with STEP) ---- */

typedef struct fixture {
    ossa_skeleton *skeleton;
    ossa_clip *clips[2];
    unsigned char *data;
    size_t bytes;
} fixture;

static bool fixture_make(fixture *f, bool with_skeleton)
{
    memset(f, 0, sizeof *f);
    ts_rng r = ts_rng_make(201);
    uint16_t parents[7];
    ossa_transform rest[7], keys[7 * 9];
    ts_parents(&r, 7, 2, parents);
    for (int j = 0; j < 7; ++j)
        rest[j] = ts_transform(&r, TS_SCALE_ANY);
    for (int k = 0; k < 7 * 9; ++k)
        keys[k] = ts_transform(&r, TS_SCALE_ANY);
    const uint8_t step[7] = {0, 1, 2, 4, 7, 0, 3};
    f->skeleton = ts_skeleton_make(parents, rest, 7);
    if (!f->skeleton)
        return false;
    f->clips[0] = ts_clip_make(f->skeleton, keys, 9, 24.0f, NULL, "idle");
    f->clips[1] = ts_clip_make(f->skeleton, keys, 5, 10.0f, step, "wave");
    const ossa_clip *clips[2] = {f->clips[0], f->clips[1]};
    ossa_blob_contents contents = {with_skeleton ? f->skeleton : NULL, clips, 2, NULL, 0};
    void *data = NULL;
    if (!f->clips[0] || !f->clips[1] ||
        ossa_blob_write_memory(&contents, NULL, &data, &f->bytes, NULL) != OSSA_OK)
        return false;
    f->data = data;
    return true;
}

static void fixture_free(fixture *f)
{
    ossa_free(NULL, f->data);
    ossa_clip_free(f->clips[0], NULL);
    ossa_clip_free(f->clips[1], NULL);
    ossa_skeleton_free(f->skeleton, NULL);
}

/* Everything a caller may read from an opened blob, read. */
static void use_blob(const ossa_blob *blob)
{
    if (blob->skeleton)
        for (int j = 0; j < ossa_skeleton_joint_count(blob->skeleton); ++j)
            (void)strlen(ossa_skeleton_joint_name(blob->skeleton, j));
    for (int c = 0; c < blob->clip_count; ++c) {
        const ossa_clip *clip = ossa_blob_clip(blob, c);
        const float d = ossa_clip_duration(clip);
        for (int j = 0; j < ossa_clip_joint_count(clip); ++j)
            for (int k = 0; k <= 4; ++k)
                (void)ossa_clip_sample_joint(clip, j, d * (float)k / 4, OSSA_ROTATION_SLERP);
        (void)strlen(ossa_clip_name(clip));
    }
}

/* Opens an exact-size copy; checks the code, that a failure leaves the blob
 * zeroed and says something, and that a success is safe to use. */
static ossa_result open_copy(const unsigned char *data, size_t bytes, unsigned flags,
                             ossa_error *error)
{
    void *copy = ts_exact_copy(data, bytes);
    ossa_blob blob;
    memset(&blob, 0xAB, sizeof blob);
    ossa_result r = ossa_blob_open(&blob, copy, bytes, flags, error);
    if (r == OSSA_OK) {
        use_blob(&blob);
    } else {
        ossa_blob zero;
        memset(&zero, 0, sizeof zero);
        CHECK(memcmp(&blob, &zero, sizeof blob) == 0);
        CHECK(error->code == r && error->message[0] != '\0');
    }
    free(copy);
    return r;
}

/* ---- tests ---- */

TEST(crc32c_matches_the_bitwise_definition)
{
    CHECK(ossa_crc32c(0, "123456789", 9) == 0xE3069283u); /* the standard check value */
    CHECK(crc_reference("123456789", 9) == 0xE3069283u);
    CHECK(ossa_crc32c(0, "", 0) == 0u);
    ts_rng r = ts_rng_make(202);
    unsigned char buf[1100];
    for (size_t i = 0; i < sizeof buf; ++i)
        buf[i] = (unsigned char)ts_u32(&r);
    int wrong = 0;
    for (size_t len = 0; len < 300; ++len) {
        const size_t start = (size_t)ts_int(&r, 16);
        const uint32_t whole = ossa_crc32c(0, buf + start, len);
        wrong += whole != crc_reference(buf + start, len);
        const size_t cut = len ? (size_t)ts_int(&r, (int)len) : 0; /* in two pieces */
        wrong += whole != ossa_crc32c(ossa_crc32c(0, buf + start, cut), buf + start + cut, len - cut);
    }
    wrong += ossa_crc32c(0, buf, sizeof buf) != crc_reference(buf, sizeof buf);
    CHECK_INT(wrong, 0);
}

TEST(blob_opens_and_points_into_its_data)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    ossa_blob blob;
    ossa_error e;
    CHECK_RESULT(ossa_blob_open(&blob, f.data, f.bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK(blob.data == f.data && blob.bytes == f.bytes);
    CHECK(blob.version == OSSA_BLOB_VERSION);
    CHECK(blob.checksum == crc_reference_sealed(f.data, f.bytes));
    CHECK_INT(blob.clip_count, 2);
    CHECK_INT(blob.mesh_count, 0);
    CHECK_INT(blob.section_count, 3);
    CHECK(blob.skeleton && (const unsigned char *)blob.skeleton > f.data &&
          (const unsigned char *)blob.skeleton < f.data + f.bytes);
    CHECK_INT(ossa_blob_find_clip(&blob, "wave"), 1);
    CHECK_INT(ossa_blob_find_clip(&blob, "walk"), -1);
    CHECK_INT(ossa_blob_find_clip(&blob, NULL), -1);
    CHECK(ossa_blob_clip(&blob, 2) == NULL && ossa_blob_clip(&blob, -1) == NULL);
    CHECK(ossa_blob_mesh(&blob, 0) == NULL);
    for (int i = 0; i < 3; ++i) {
        uint64_t offset = 1, bytes = 0;
        CHECK(ossa_blob_section(&blob, i, &offset, &bytes) ==
              (i == 0 ? OSSA_SECTION_SKELETON : OSSA_SECTION_CLIP));
        CHECK(offset % OSSA_BLOB_SECTION_ALIGNMENT == 0 && offset + bytes <= f.bytes);
    }
    CHECK(ossa_blob_section(&blob, 3, NULL, NULL) == OSSA_SECTION_NONE);
    CHECK(ossa_blob_section(&blob, -1, NULL, NULL) == OSSA_SECTION_NONE);
    /* A blob with clips and no skeleton, and an empty blob, open too. */
    fixture g;
    REQUIRE(fixture_make(&g, false));
    CHECK_RESULT(ossa_blob_open(&blob, g.data, g.bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK(blob.skeleton == NULL && blob.clip_count == 2);
    ossa_blob_contents nothing = {NULL, NULL, 0, NULL, 0};
    void *empty;
    size_t empty_bytes;
    REQUIRE(ossa_blob_write_memory(&nothing, NULL, &empty, &empty_bytes, &e) == OSSA_OK);
    CHECK_RESULT(ossa_blob_open(&blob, empty, empty_bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK(blob.section_count == 0 && blob.skeleton == NULL && blob.clip_count == 0);
    ossa_free(NULL, empty);
    fixture_free(&g);
    fixture_free(&f);
}

TEST(blob_finds_each_clip_at_its_section_with_or_without_a_skeleton)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    /* Many clips, names repeating after 250: the first of a name wins. */
    enum { CLIPS = 300, NAMES = 250 };
    static char names[CLIPS][16];
    ossa_clip *clips[CLIPS];
    const ossa_clip *view[CLIPS];
    for (int i = 0; i < CLIPS; ++i) {
        snprintf(names[i], sizeof names[i], "c%d", i % NAMES);
        clips[i] = ts_clip_make(f.skeleton, ossa_skeleton_rest_pose(f.skeleton), 1, 30.0f, NULL,
                                names[i]);
        REQUIRE(clips[i]);
        view[i] = clips[i];
    }
    for (int with_skeleton = 0; with_skeleton < 2; ++with_skeleton) {
        ossa_blob_contents contents = {with_skeleton ? f.skeleton : NULL, view, CLIPS, NULL, 0};
        void *data = NULL;
        size_t bytes = 0;
        ossa_blob blob;
        REQUIRE(ossa_blob_write_memory(&contents, NULL, &data, &bytes, NULL) == OSSA_OK);
        REQUIRE(ossa_blob_open(&blob, data, bytes, OSSA_BLOB_DEFAULT, NULL) == OSSA_OK);
        int wrong = 0;
        for (int i = 0; i < CLIPS; ++i) {
            uint64_t offset = 0;
            const bool is_clip =
                ossa_blob_section(&blob, with_skeleton + i, &offset, NULL) == OSSA_SECTION_CLIP;
            wrong += !is_clip ||
                     (const void *)ossa_blob_clip(&blob, i) != (const char *)data + offset ||
                     ossa_blob_find_clip(&blob, names[i]) != i % NAMES;
        }
        CHECK_INT(wrong, 0);
        CHECK(ossa_blob_clip(&blob, CLIPS) == NULL && ossa_blob_mesh(&blob, 0) == NULL);
        CHECK_INT(ossa_blob_find_clip(&blob, "c250"), -1);
        ossa_free(NULL, data);
    }
    for (int i = 0; i < CLIPS; ++i)
        ossa_clip_free(clips[i], NULL);
    fixture_free(&f);
}

TEST(one_frame_clip_must_have_no_duration)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    ossa_clip *pose =
        ts_clip_make(f.skeleton, ossa_skeleton_rest_pose(f.skeleton), 1, 30.0f, NULL, "pose");
    REQUIRE(pose);
    CHECK_INT(ossa_clip_frame_count(pose), 1);
    CHECK(ossa_clip_duration(pose) == 0.0f && ossa_clip_rate(pose) == 0.0f);
    CHECK_RESULT(ossa_clip_validate(pose, ossa_clip_bytes(pose), NULL, NULL), OSSA_OK);
    const float lasts = 0.5f;
    memcpy((char *)pose + offsetof(struct ossa_clip, duration), &lasts, sizeof lasts);
    ossa_error e;
    CHECK_RESULT(ossa_clip_validate(pose, ossa_clip_bytes(pose), NULL, &e),
                 OSSA_ERR_BLOB_INVARIANT);
    CHECK(strstr(e.message, "duration is 0.5 s") != NULL);
    CHECK_INT(e.offset, (int64_t)offsetof(struct ossa_clip, duration));
    ossa_clip_free(pose, NULL);
    fixture_free(&f);
}

TEST(blob_open_rejects_missing_and_misaligned_memory)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    ossa_blob blob;
    ossa_error e;
    CHECK_RESULT(ossa_blob_open(NULL, f.data, f.bytes, 0, &e), OSSA_ERR_MISSING_OUTPUT);
    CHECK_RESULT(ossa_blob_open(&blob, NULL, f.bytes, 0, &e), OSSA_ERR_MISSING_INPUT);
    unsigned char *shifted = malloc(f.bytes + 16);
    unsigned char *odd = shifted + (((uintptr_t)shifted & 15) == 8 ? 0 : 8);
    if (((uintptr_t)odd & 15) == 0)
        odd += 4;
    memcpy(odd, f.data, f.bytes);
    CHECK_RESULT(ossa_blob_open(&blob, odd, f.bytes, 0, &e), OSSA_ERR_BLOB_ALIGNMENT);
    CHECK_RESULT(ossa_blob_open(&blob, f.data, f.bytes, 0, NULL), OSSA_OK); /* error may be NULL */
    CHECK_RESULT(ossa_blob_open(&blob, odd, f.bytes, 0, NULL), OSSA_ERR_BLOB_ALIGNMENT);
    /* The section validators alone. */
    const ossa_skeleton *s = NULL;
    const ossa_clip *c = NULL;
    CHECK_RESULT(ossa_skeleton_validate(f.skeleton, ossa_skeleton_bytes(f.skeleton), &s, &e), OSSA_OK);
    CHECK(s == f.skeleton);
    CHECK_RESULT(ossa_clip_validate(f.clips[1], ossa_clip_bytes(f.clips[1]), &c, &e), OSSA_OK);
    CHECK(c == f.clips[1]);
    CHECK_RESULT(ossa_skeleton_validate(NULL, 64, &s, &e), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_clip_validate(odd + 64, 64, &c, &e), OSSA_ERR_BLOB_ALIGNMENT);
    CHECK(c == NULL);
    CHECK_RESULT(ossa_clip_validate(f.skeleton, ossa_skeleton_bytes(f.skeleton), &c, &e),
                 OSSA_ERR_BLOB_SECTION); /* a skeleton is not a clip */
    free(shifted);
    fixture_free(&f);
}

TEST(blob_truncated_at_every_length_is_rejected)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    int wrong = 0;
    for (size_t len = 0; len < f.bytes; ++len)
        for (unsigned flags = 0; flags <= OSSA_BLOB_SKIP_CHECKSUM; ++flags) {
            ossa_error e;
            ossa_result r = open_copy(f.data, len, flags, &e);
            if (r != OSSA_ERR_BLOB_TRUNCATED && wrong++ < 3)
                fprintf(stderr, "%zu of %zu bytes: %s (%s)\n", len, f.bytes, ossa_result_name(r),
                        e.message);
        }
    CHECK_INT(wrong, 0);
    /* One byte too many: the recorded size does not match. */
    unsigned char *longer = calloc(1, f.bytes + 1);
    memcpy(longer, f.data, f.bytes);
    ossa_error e;
    CHECK_RESULT(open_copy(longer, f.bytes + 1, 0, &e), OSSA_ERR_BLOB_SIZE);
    free(longer);
    fixture_free(&f);
}

/* One corruption: bytes written at an offset, the code expected, and a word
 * the message must contain. */
typedef struct corruption {
    const char *what;
    size_t offset; /* from the blob's start, or from the section's (see base) */
    int base;      /* -1: the blob; 0, 1, 2: that section's start */
    uint64_t value;
    int size; /* bytes of value written (little-endian) */
    ossa_result expect;
    const char *mention;
} corruption;

static void check_corruptions(const fixture *f, const corruption *cases, size_t count,
                              bool sealed)
{
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, f->data, f->bytes, 0, NULL) == OSSA_OK);
    for (size_t i = 0; i < count; ++i) {
        const corruption *c = &cases[i];
        unsigned char *copy = malloc(f->bytes);
        memcpy(copy, f->data, f->bytes);
        uint64_t base = 0;
        if (c->base >= 0)
            ossa_blob_section(&blob, c->base, &base, NULL);
        memcpy(copy + base + c->offset, &c->value, (size_t)c->size);
        if (sealed)
            reseal(copy, f->bytes);
        ossa_error e;
        ossa_result r = open_copy(copy, f->bytes, 0, &e);
        const bool mentioned = !c->mention || strstr(e.message, c->mention);
        if (r != c->expect || !mentioned)
            fprintf(stderr, "%s: %s, expected %s: %s\n", c->what, ossa_result_name(r),
                    ossa_result_name(c->expect), e.message);
        CHECK(r == c->expect && mentioned);
        free(copy);
    }
}

#define HDR(field) offsetof(ossai_blob_header, field)
#define SEC(i, field) (sizeof(ossai_blob_header) + (i) * sizeof(ossai_section) + offsetof(ossai_section, field))

TEST(blob_header_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    const uint64_t n = f.bytes;
    const corruption cases[] = {
        {"magic", 0, -1, 'X', 1, OSSA_ERR_BLOB_MAGIC, "magic"},
        {"magic end", 7, -1, 0, 1, OSSA_ERR_BLOB_MAGIC, "magic"},
        {"version 2", HDR(version), -1, 2, 4, OSSA_ERR_BLOB_VERSION, "version 2"},
        {"version 0", HDR(version), -1, 0, 4, OSSA_ERR_BLOB_VERSION, "version 0"},
        {"other byte order", HDR(endian), -1, 0x04030201u, 4, OSSA_ERR_BLOB_ENDIAN, "byte-order"},
        {"garbage byte order", HDR(endian), -1, 0x11111111u, 4, OSSA_ERR_BLOB_INVARIANT, "byte-order"},
        {"total too big", HDR(total_bytes), -1, n + 64, 8, OSSA_ERR_BLOB_TRUNCATED, "header says"},
        {"total too small", HDR(total_bytes), -1, n - 64, 8, OSSA_ERR_BLOB_SIZE, "header says"},
        {"header size", HDR(header_bytes), -1, 32, 4, OSSA_ERR_BLOB_INVARIANT, "header size"},
        {"table offset", HDR(section_table_offset), -1, 128, 8, OSSA_ERR_BLOB_INVARIANT, "section table offset"},
        {"section count", HDR(section_count), -1, 0x7FFFFFFFu, 4, OSSA_ERR_BLOB_TRUNCATED, "section table"},
        {"flags", HDR(flags), -1, 1, 4, OSSA_ERR_BLOB_INVARIANT, "flags"},
        {"reserved", HDR(reserved) + 15, -1, 1, 1, OSSA_ERR_BLOB_INVARIANT, "reserved header byte 15"},
        {"checksum", HDR(checksum), -1, 0xDEADBEEFu, 4, OSSA_ERR_BLOB_CHECKSUM, "checksum"},
    };
    check_corruptions(&f, cases, sizeof cases / sizeof cases[0], false);
    /* Reported at the field. */
    unsigned char *copy = malloc(f.bytes);
    memcpy(copy, f.data, f.bytes);
    copy[HDR(flags)] = 2;
    ossa_error e;
    CHECK_RESULT(open_copy(copy, f.bytes, 0, &e), OSSA_ERR_BLOB_INVARIANT);
    CHECK_INT(e.offset, HDR(flags));
    free(copy);
    fixture_free(&f);
}

TEST(blob_section_table_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, f.data, f.bytes, 0, NULL) == OSSA_OK);
    uint64_t clip0 = 0, clip1 = 0;
    ossa_blob_section(&blob, 1, &clip0, NULL);
    ossa_blob_section(&blob, 2, &clip1, NULL);
    const corruption cases[] = {
        {"kind none", SEC(0, kind), -1, 0, 4, OSSA_ERR_BLOB_SECTION, "unknown kind 0"},
        {"kind unknown", SEC(1, kind), -1, 9, 4, OSSA_ERR_BLOB_SECTION, "unknown kind 9"},
        {"skeleton labelled clip", SEC(0, kind), -1, OSSA_SECTION_CLIP, 4, OSSA_ERR_BLOB_SECTION, "expected 'CLIP'"},
        {"two skeletons", SEC(1, kind), -1, OSSA_SECTION_SKELETON, 4, OSSA_ERR_BLOB_SECTION, "out of order"},
        /* A clip relabelled as a mesh: the mesh validator rejects its tag. */
        {"clip as mesh", SEC(2, kind), -1, OSSA_SECTION_MESH, 4, OSSA_ERR_BLOB_SECTION, "MESH"},
        {"reserved0", SEC(1, reserved0), -1, 1, 4, OSSA_ERR_BLOB_SECTION, "reserved"},
        {"reserved1", SEC(2, reserved1), -1, 1, 8, OSSA_ERR_BLOB_SECTION, "reserved"},
        {"misaligned offset", SEC(1, offset), -1, clip0 + 16, 8, OSSA_ERR_BLOB_ALIGNMENT, "64-byte aligned"},
        {"overlapping offset", SEC(2, offset), -1, clip0, 8, OSSA_ERR_BLOB_SECTION, "overlap"},
        {"offset into the table", SEC(0, offset), -1, 64, 8, OSSA_ERR_BLOB_SECTION, "overlap"},
        {"offset past the end", SEC(2, offset), -1, f.bytes + 64, 8, OSSA_ERR_BLOB_SECTION, "past"},
        {"bytes past the end", SEC(2, bytes), -1, f.bytes - clip1 + 1, 8, OSSA_ERR_BLOB_SECTION, "past"},
        {"huge bytes", SEC(1, bytes), -1, UINT64_MAX - 3, 8, OSSA_ERR_BLOB_SECTION, "past"},
        {"no bytes", SEC(1, bytes), -1, 0, 8, OSSA_ERR_BLOB_TRUNCATED, "section 1"},
    };
    check_corruptions(&f, cases, sizeof cases / sizeof cases[0], true);
    fixture_free(&f);
}

#define SKEL(field) offsetof(struct ossa_skeleton, field)
#define CLIP(field) offsetof(struct ossa_clip, field)

TEST(skeleton_section_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    const struct ossa_skeleton *s = f.skeleton;
    const uint64_t rest0 = s->rest_offset, last_name = s->strings_offset + s->strings_bytes - 1;
    const corruption cases[] = {
        {"tag", SKEL(tag), 0, 0x4C454B53u + 1, 4, OSSA_ERR_BLOB_SECTION, "expected 'SKEL'"},
        {"bytes too many", SKEL(bytes), 0, s->bytes + 64, 4, OSSA_ERR_BLOB_SIZE, "field bytes"},
        {"bytes too few", SKEL(bytes), 0, 32, 4, OSSA_ERR_BLOB_SIZE, "field bytes"},
        {"no joints", SKEL(joint_count), 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "joint_count = 0"},
        {"too many joints", SKEL(joint_count), 0, 70000, 4, OSSA_ERR_BLOB_INVARIANT, "joint_count"},
        {"joints past the arrays", SKEL(joint_count), 0, 60000, 4, OSSA_ERR_BLOB_TRUNCATED, "parents"},
        {"flags", SKEL(flags), 0, 2, 4, OSSA_ERR_BLOB_INVARIANT, "flags"},
        {"max depth", SKEL(max_depth), 0, 7, 4, OSSA_ERR_BLOB_INVARIANT, "max_depth"},
        {"parents misaligned", SKEL(parents_offset), 0, s->parents_offset + 2, 4, OSSA_ERR_BLOB_ALIGNMENT, "parents"},
        {"parents outside", SKEL(parents_offset), 0, 0xFFFFFFF0u, 4, OSSA_ERR_BLOB_TRUNCATED, "parents"},
        {"rest misaligned", SKEL(rest_offset), 0, rest0 + 4, 4, OSSA_ERR_BLOB_ALIGNMENT, "rest pose"},
        {"names misaligned", SKEL(names_offset), 0, s->names_offset + 1, 4, OSSA_ERR_BLOB_ALIGNMENT, "name offsets"},
        {"strings outside", SKEL(strings_bytes), 0, s->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "names"},
        {"strings empty", SKEL(strings_bytes), 0, 0, 4, OSSA_ERR_BLOB_INVARIANT, "NUL"},
        {"strings unterminated", last_name, 0, 'x', 1, OSSA_ERR_BLOB_INVARIANT, "NUL"},
        {"parent after child", s->parents_offset + 2 * 3, 0, 5, 2, OSSA_ERR_BLOB_INVARIANT, "joint 3 has parent 5"},
        {"parent is self", s->parents_offset + 2 * 4, 0, 4, 2, OSSA_ERR_BLOB_INVARIANT, "joint 4"},
        {"name offset outside", s->names_offset + 4 * 2, 0, s->strings_bytes, 4, OSSA_ERR_BLOB_INVARIANT, "joint 2's name"},
        {"rest not finite", rest0 + 40 * 5 + 4, 0, 0x7FC00000u, 4, OSSA_ERR_BLOB_INVARIANT, "joint 5's rest"},
        {"rest scale infinite", rest0 + 40 * 1 + 32, 0, 0x7F800000u, 4, OSSA_ERR_BLOB_INVARIANT, "joint 1's rest"},
        {"rest rotation not unit", rest0 + 40 * 6 + 24, 0, 0x40000000u, 4, OSSA_ERR_BLOB_INVARIANT, "unit quaternion"},
        {"reserved word", SKEL(reserved) + 4 * 4, 0, 1, 4, OSSA_ERR_BLOB_INVARIANT, "reserved word 4"},
    };
    check_corruptions(&f, cases, sizeof cases / sizeof cases[0], true);
    fixture_free(&f);
}

TEST(clip_section_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    const struct ossa_clip *c = f.clips[1]; /* section 2, with STEP tracks */
    const uint64_t frame = 4ull * OSSAI_COMPONENTS * c->joint_stride;
    float half;
    uint32_t half_bits, nan_bits = 0x7FC00000u;
    half = c->rate * 0.5f;
    memcpy(&half_bits, &half, 4);
    const uint64_t qw = c->frames_offset + frame * 2 + 4ull * (OSSAI_QW * c->joint_stride + 3);
    const corruption cases[] = {
        {"tag", CLIP(tag), 2, 0, 4, OSSA_ERR_BLOB_SECTION, "expected 'CLIP'"},
        {"bytes too many", CLIP(bytes), 2, c->bytes + 64, 4, OSSA_ERR_BLOB_SIZE, "field bytes"},
        {"no joints", CLIP(joint_count), 2, 0, 4, OSSA_ERR_BLOB_INVARIANT, "joint_count = 0"},
        {"joints vs stride", CLIP(joint_count), 2, 17, 4, OSSA_ERR_BLOB_INVARIANT, "joint_stride"},
        {"joints vs skeleton", CLIP(joint_count), 2, 6, 4, OSSA_ERR_BLOB_INVARIANT, "the skeleton has 7"},
        {"stride", CLIP(joint_stride), 2, 32, 4, OSSA_ERR_BLOB_INVARIANT, "joint_stride = 32"},
        {"no frames", CLIP(frame_count), 2, 0, 4, OSSA_ERR_BLOB_INVARIANT, "frame_count is 0"},
        {"frame count vs duration", CLIP(frame_count), 2, 5000, 4, OSSA_ERR_BLOB_INVARIANT, "do not span"},
        {"flags", CLIP(flags), 2, 2, 4, OSSA_ERR_BLOB_INVARIANT, "unknown flags"},
        {"step flag off", CLIP(flags), 2, 0, 4, OSSA_ERR_BLOB_INVARIANT, "step flag"},
        {"duration NaN", CLIP(duration), 2, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "duration"},
        {"rate off", CLIP(rate), 2, half_bits, 4, OSSA_ERR_BLOB_INVARIANT, "do not span"},
        {"frames misaligned", CLIP(frames_offset), 2, c->frames_offset + 16, 4, OSSA_ERR_BLOB_ALIGNMENT, "frames"},
        {"frames outside", CLIP(frames_offset), 2, c->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "frames"},
        {"steps outside", CLIP(step_offset), 2, c->bytes - 3, 4, OSSA_ERR_BLOB_TRUNCATED, "step flags"},
        {"name outside", CLIP(name_bytes), 2, c->bytes, 4, OSSA_ERR_BLOB_TRUNCATED, "name"},
        {"name unterminated", c->name_offset + c->name_bytes - 1, 2, 'x', 1, OSSA_ERR_BLOB_INVARIANT, "NUL"},
        {"unknown step bits", c->step_offset + 2, 2, 8, 1, OSSA_ERR_BLOB_INVARIANT, "joint 2 has unknown step bits"},
        {"key not finite", c->frames_offset + frame * 3 + 4, 2, nan_bits, 4, OSSA_ERR_BLOB_INVARIANT, "frame 3, joint 1"},
        {"rotation not unit", qw, 2, 0x40400000u, 4, OSSA_ERR_BLOB_INVARIANT, "frame 2, joint 3's rotation"},
        {"reserved word", CLIP(reserved), 2, 0x80000000u, 4, OSSA_ERR_BLOB_INVARIANT, "reserved word"},
    };
    check_corruptions(&f, cases, sizeof cases / sizeof cases[0], true);
    /* Errors inside a section carry the section's position. */
    unsigned char *copy = malloc(f.bytes);
    memcpy(copy, f.data, f.bytes);
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, f.data, f.bytes, 0, NULL) == OSSA_OK);
    uint64_t at = 0;
    ossa_blob_section(&blob, 2, &at, NULL);
    copy[at + CLIP(flags)] = 6;
    reseal(copy, f.bytes);
    ossa_error e;
    CHECK_RESULT(open_copy(copy, f.bytes, 0, &e), OSSA_ERR_BLOB_INVARIANT);
    CHECK(strstr(e.message, "section 2") != NULL);
    CHECK_INT(e.offset, (int64_t)(at + CLIP(flags)));
    free(copy);
    fixture_free(&f);
}

TEST(every_byte_flipped_is_caught_by_the_checksum_or_safe_to_use)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    int opened = 0, unsealed_opened = 0;
    for (size_t i = 0; i < f.bytes; ++i) {
        unsigned char *copy = malloc(f.bytes);
        memcpy(copy, f.data, f.bytes);
        copy[i] ^= 0xFF;
        ossa_error e;
        /* A CRC catches every single-byte change. */
        unsealed_opened += open_copy(copy, f.bytes, 0, &e) == OSSA_OK;
        /* Resealed, the structure alone decides: a refusal or a usable blob. */
        reseal(copy, f.bytes);
        opened += open_copy(copy, f.bytes, 0, &e) == OSSA_OK;
        free(copy);
    }
    CHECK_INT(unsealed_opened, 0);
    /* Key values and names can change and stay valid; most bytes cannot. */
    CHECK(opened > 0 && opened < (int)f.bytes);
    fixture_free(&f);
}

UTEST_MAIN(crc32c_matches_the_bitwise_definition, blob_opens_and_points_into_its_data,
           blob_finds_each_clip_at_its_section_with_or_without_a_skeleton,
           one_frame_clip_must_have_no_duration, blob_open_rejects_missing_and_misaligned_memory,
           blob_truncated_at_every_length_is_rejected,
           blob_header_fields_corrupted_are_rejected_with_their_code,
           blob_section_table_fields_corrupted_are_rejected_with_their_code,
           skeleton_section_fields_corrupted_are_rejected_with_their_code,
           clip_section_fields_corrupted_are_rejected_with_their_code,
           every_byte_flipped_is_caught_by_the_checksum_or_safe_to_use)
