/* blob_corruption_test.c - the blob loader and section validators on bad
 * bytes: a blob truncated at every length, every header, section table,
 * skeleton and clip field corrupted (each rejected with its own code, naming
 * the field), and every byte flipped. Run under ASan + UBSan by
 * ./run sanitize: a read past the data is a failure there. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob_test_support.h"
#include "blob_layout.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

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

#define HDR(field) offsetof(tl_header, field)
#define SEC(i, field) (sizeof(tl_header) + (i) * sizeof(tl_section) + offsetof(tl_section, field))

TEST(blob_header_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    const uint64_t n = f.bytes;
    const corruption cases[] = {
        {"magic", 0, -1, 'X', 1, OSSA_ERR_BLOB_MAGIC, "magic"},
        {"magic end", 7, -1, 0, 1, OSSA_ERR_BLOB_MAGIC, "magic"},
        {"version 1", HDR(version), -1, 1, 4, OSSA_ERR_BLOB_VERSION, "version 1"},
        {"version 3", HDR(version), -1, 3, 4, OSSA_ERR_BLOB_VERSION, "version 3"},
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

#define SKEL(field) offsetof(tl_skeleton, field)
#define CLIP(field) offsetof(tl_clip, field)

TEST(skeleton_section_fields_corrupted_are_rejected_with_their_code)
{
    fixture f;
    REQUIRE(fixture_make(&f, true));
    const tl_skeleton *s = (const tl_skeleton *)(const void *)f.skeleton;
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
    const tl_clip *c = (const tl_clip *)(const void *)f.clips[1]; /* section 2, with STEP */
    const uint64_t frame = 4ull * TL_COMPONENTS * c->joint_stride;
    float half;
    uint32_t half_bits, nan_bits = 0x7FC00000u;
    half = c->rate * 0.5f;
    memcpy(&half_bits, &half, 4);
    const uint64_t qw = c->frames_offset + frame * 2 + 4ull * (TL_QW * c->joint_stride + 3);
    const corruption cases[] = {
        {"tag", CLIP(tag), 2, 0, 4, OSSA_ERR_BLOB_SECTION, "expected 'CLIP'"},
        {"bytes too many", CLIP(bytes), 2, c->bytes + 64, 4, OSSA_ERR_BLOB_SIZE, "field bytes"},
        {"no joints", CLIP(joint_count), 2, 0, 4, OSSA_ERR_BLOB_INVARIANT, "joint_count = 0"},
        {"joints vs stride", CLIP(joint_count), 2, 17, 4, OSSA_ERR_BLOB_INVARIANT, "joint_stride"},
        {"joints vs skeleton", CLIP(joint_count), 2, 6, 4, OSSA_ERR_BLOB_INVARIANT, "the skeleton has 7"},
        {"stride", CLIP(joint_stride), 2, 32, 4, OSSA_ERR_BLOB_INVARIANT, "joint_stride = 32"},
        {"no frames", CLIP(frame_count), 2, 0, 4, OSSA_ERR_BLOB_INVARIANT, "frame_count is 0"},
        {"frame count vs duration", CLIP(frame_count), 2, 5000, 4, OSSA_ERR_BLOB_INVARIANT, "do not span"},
        {"flags", CLIP(flags), 2, 8, 4, OSSA_ERR_BLOB_INVARIANT, "unknown flags"},
        {"compressed flag on a raw clip", CLIP(flags), 2, 2, 4, OSSA_ERR_BLOB_INVARIANT,
         "step_offset"},
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
        {"tracks past the end", CLIP(tracks_offset), 2, 0x80000000u, 4, OSSA_ERR_BLOB_TRUNCATED, "tracks block"},
        {"tracks in the header", CLIP(tracks_offset), 2, 32, 4, OSSA_ERR_BLOB_INVARIANT, "tracks_offset 32"},
        {"tracks misaligned", CLIP(tracks_offset), 2, c->frames_offset + 16, 4, OSSA_ERR_BLOB_ALIGNMENT, "tracks block"},
        {"tracks not a block", CLIP(tracks_offset), 2, c->frames_offset, 4, OSSA_ERR_BLOB_INVARIANT, "'TRKS'"},
    };
    check_corruptions(&f, cases, sizeof cases / sizeof cases[0], true);
    /* Errors inside a section carry the section's position. */
    unsigned char *copy = malloc(f.bytes);
    memcpy(copy, f.data, f.bytes);
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, f.data, f.bytes, 0, NULL) == OSSA_OK);
    uint64_t at = 0;
    ossa_blob_section(&blob, 2, &at, NULL);
    copy[at + CLIP(flags)] = 0x10;
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

UTEST_MAIN(blob_truncated_at_every_length_is_rejected,
           blob_header_fields_corrupted_are_rejected_with_their_code,
           blob_section_table_fields_corrupted_are_rejected_with_their_code,
           skeleton_section_fields_corrupted_are_rejected_with_their_code,
           clip_section_fields_corrupted_are_rejected_with_their_code,
           every_byte_flipped_is_caught_by_the_checksum_or_safe_to_use)
