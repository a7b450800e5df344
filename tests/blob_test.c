/* blob_test.c - the blob loader on good blobs: CRC-32C against a bitwise
 * reference, a blob's sections found and pointed into in place, with or
 * without a skeleton, and missing or misaligned memory refused. Corrupt blobs
 * are in blob_corruption_test.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blob_test_support.h"
#include "blob_layout.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

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
    memcpy((char *)pose + offsetof(tl_clip, duration), &lasts, sizeof lasts);
    ossa_error e;
    CHECK_RESULT(ossa_clip_validate(pose, ossa_clip_bytes(pose), NULL, &e),
                 OSSA_ERR_BLOB_INVARIANT);
    CHECK(strstr(e.message, "duration is 0.5 s") != NULL);
    CHECK_INT(e.offset, (int64_t)offsetof(tl_clip, duration));
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

UTEST_MAIN(crc32c_matches_the_bitwise_definition, blob_opens_and_points_into_its_data,
           blob_finds_each_clip_at_its_section_with_or_without_a_skeleton,
           one_frame_clip_must_have_no_duration, blob_open_rejects_missing_and_misaligned_memory)
