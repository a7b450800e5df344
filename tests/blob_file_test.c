/* blob_file_test.c - the runtime's own file loader (ossa_blob_file_bytes,
 * ossa_blob_file_read): a file written by the pipeline reads back byte for
 * byte and opens as ossa_blob_open opens the same bytes read here with
 * stdio; a missing file, a directory, a short read, a file that grew,
 * misaligned memory, missing arguments and corrupt bytes each give their
 * code and a message naming the file. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

static const char *temp_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), name);
    return path;
}

/* The default character's skeleton, clips and mesh written to path. */
static bool write_character(const char *path)
{
    ossa_default_character c;
    if (ossa_default_character_build(&c, NULL, NULL) != OSSA_OK)
        return false;
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        clips[i] = c.clips[i];
    const ossa_mesh *meshes[1] = {c.mesh};
    const ossa_blob_contents contents = {c.skeleton, clips, OSSA_DEFAULT_CLIP_COUNT, meshes, 1};
    ossa_error e;
    const bool ok = ossa_blob_write_file(path, &contents, &e) == OSSA_OK;
    ossa_default_character_free(&c, NULL);
    return ok;
}

/* The file's bytes read here with stdio, into exactly-sized aligned memory. */
static void *slurp(const char *path, size_t *bytes)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    *bytes = (size_t)st.st_size;
    void *data = ts_aligned(*bytes);
    FILE *f = fopen(path, "rb");
    const bool ok = f && fread(data, 1, *bytes, f) == *bytes;
    if (f)
        fclose(f);
    if (!ok) {
        free(data);
        return NULL;
    }
    return data;
}

static bool blob_zeroed(const ossa_blob *b)
{
    static const ossa_blob zero;
    return memcmp(b, &zero, sizeof zero) == 0;
}

TEST(file_reads_back_and_opens_as_its_bytes_do)
{
    const char *path = temp_path("character.ossa");
    REQUIRE(write_character(path));
    size_t expected_bytes = 0;
    void *expected = slurp(path, &expected_bytes);
    REQUIRE(expected != NULL);
    ossa_blob reference;
    ossa_error e;
    REQUIRE(ossa_blob_open(&reference, expected, expected_bytes, 0, &e) == OSSA_OK);

    size_t bytes = 1;
    CHECK_RESULT(ossa_blob_file_bytes(path, &bytes, &e), OSSA_OK);
    CHECK(bytes == expected_bytes);
    void *memory = ts_aligned(bytes);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, OSSA_BLOB_DEFAULT, &e), OSSA_OK);
    CHECK(memcmp(memory, expected, bytes) == 0);
    CHECK(blob.data == memory && blob.bytes == bytes);
    CHECK(blob.checksum == reference.checksum && blob.version == reference.version);
    CHECK_INT(blob.clip_count, reference.clip_count);
    CHECK_INT(blob.mesh_count, reference.mesh_count);
    CHECK_INT(blob.section_count, reference.section_count);
    /* In place: the skeleton sits at the same offset in both copies. */
    REQUIRE(blob.skeleton && reference.skeleton);
    CHECK((const char *)blob.skeleton - (const char *)memory ==
          (const char *)reference.skeleton - (const char *)expected);
    CHECK(ossa_blob_find_clip(&blob, "walk") == ossa_blob_find_clip(&reference, "walk"));
    free(memory);
    free(expected);
    unlink(path);
}

TEST(missing_files_and_directories_are_named)
{
    const char *missing = temp_path("no/such/file.ossa");
    size_t bytes = 7;
    ossa_error e;
    CHECK_RESULT(ossa_blob_file_bytes(missing, &bytes, &e), OSSA_ERR_IO);
    CHECK(bytes == 0);
    CHECK(strstr(e.message, missing) != NULL && strstr(e.message, "cannot open") != NULL);
    void *memory = ts_aligned(64);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_file_read(&blob, missing, memory, 64, 0, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, missing) != NULL);
    CHECK(blob_zeroed(&blob));
    /* A directory opens on POSIX but does not read. */
    CHECK_RESULT(ossa_blob_file_bytes(ts_temp_dir(), &bytes, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, ts_temp_dir()) != NULL && strstr(e.message, "cannot read") != NULL);
    CHECK_RESULT(ossa_blob_file_read(&blob, ts_temp_dir(), memory, 64, 0, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, ts_temp_dir()) != NULL);
    free(memory);
}

TEST(a_file_that_changed_since_it_was_measured_is_refused)
{
    const char *path = temp_path("changing.ossa");
    REQUIRE(write_character(path));
    size_t bytes = 0;
    ossa_error e;
    REQUIRE(ossa_blob_file_bytes(path, &bytes, &e) == OSSA_OK);
    REQUIRE(bytes > 1000);
    void *memory = ts_aligned(bytes + 64);
    ossa_blob blob;
    /* Shorter: the read stops early. */
    REQUIRE(truncate(path, (off_t)(bytes - 100)) == 0);
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, 0, &e), OSSA_ERR_IO);
    char said[128];
    snprintf(said, sizeof said, "short read: the file ended after %zu of the %zu bytes",
             bytes - 100, bytes);
    CHECK(strstr(e.message, path) != NULL && strstr(e.message, said) != NULL);
    CHECK(e.offset == (int64_t)(bytes - 100));
    CHECK(blob_zeroed(&blob));
    /* Longer: bytes are left over. */
    REQUIRE(truncate(path, (off_t)(bytes + 10)) == 0);
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, 0, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, path) != NULL && strstr(e.message, "longer than") != NULL);
    CHECK(blob_zeroed(&blob));
    free(memory);
    unlink(path);
}

TEST(misaligned_or_missing_memory_is_refused_before_reading)
{
    const char *path = temp_path("aligned.ossa");
    REQUIRE(write_character(path));
    size_t bytes = 0;
    ossa_error e;
    REQUIRE(ossa_blob_file_bytes(path, &bytes, &e) == OSSA_OK);
    unsigned char *memory = ts_aligned(bytes + 64);
    memset(memory, 0xAB, bytes + 64);
    ossa_blob blob;
    for (int shift = 1; shift < OSSA_BLOB_MIN_ALIGNMENT; shift += 3) {
        CHECK_RESULT(ossa_blob_file_read(&blob, path, memory + shift, bytes, 0, &e),
                     OSSA_ERR_MISALIGNED);
        CHECK(strstr(e.message, path) != NULL && strstr(e.message, "16-byte aligned") != NULL);
        CHECK(blob_zeroed(&blob));
        CHECK(memory[shift] == 0xAB); /* nothing was read */
    }
    CHECK_RESULT(ossa_blob_file_read(&blob, path, NULL, bytes, 0, &e), OSSA_ERR_MISSING_OUTPUT);
    CHECK_RESULT(ossa_blob_file_read(NULL, path, memory, bytes, 0, &e), OSSA_ERR_MISSING_OUTPUT);
    CHECK_RESULT(ossa_blob_file_read(&blob, NULL, memory, bytes, 0, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_blob_file_read(&blob, "", memory, bytes, 0, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_blob_file_bytes(path, NULL, &e), OSSA_ERR_MISSING_OUTPUT);
    size_t unread = 5;
    CHECK_RESULT(ossa_blob_file_bytes(NULL, &unread, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK(unread == 0);
    /* No error record: the codes alone. */
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory + 4, bytes, 0, NULL),
                 OSSA_ERR_MISALIGNED);
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, 0, NULL), OSSA_OK);
    free(memory);
    unlink(path);
}

TEST(corrupt_and_empty_files_say_what_the_blob_check_says)
{
    const char *path = temp_path("corrupt.ossa");
    REQUIRE(write_character(path));
    size_t bytes = 0;
    ossa_error e;
    REQUIRE(ossa_blob_file_bytes(path, &bytes, &e) == OSSA_OK);
    FILE *f = fopen(path, "r+b");
    REQUIRE(f != NULL);
    fseek(f, (long)(bytes / 2), SEEK_SET);
    const int old = fgetc(f);
    fseek(f, (long)(bytes / 2), SEEK_SET);
    fputc(old ^ 0x55, f);
    fclose(f);
    void *memory = ts_aligned(bytes);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, 0, &e), OSSA_ERR_BLOB_CHECKSUM);
    CHECK(strncmp(e.message, path, strlen(path)) == 0 && strstr(e.message, "checksum"));
    CHECK(blob_zeroed(&blob));
    /* Flags pass through: skipping the checksum, the result is what
     * ossa_blob_open says of the same bytes read here. */
    size_t read_bytes = 0;
    void *copy = slurp(path, &read_bytes);
    REQUIRE(copy != NULL && read_bytes == bytes);
    ossa_blob reference;
    const ossa_result expected =
        ossa_blob_open(&reference, copy, read_bytes, OSSA_BLOB_SKIP_CHECKSUM, NULL);
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, bytes, OSSA_BLOB_SKIP_CHECKSUM, &e),
                 expected);
    free(copy);
    free(memory);
    /* An empty file measures 0 bytes and is no blob. */
    f = fopen(path, "wb");
    REQUIRE(f != NULL);
    fclose(f);
    CHECK_RESULT(ossa_blob_file_bytes(path, &bytes, &e), OSSA_OK);
    CHECK(bytes == 0);
    memory = ts_aligned(64);
    CHECK_RESULT(ossa_blob_file_read(&blob, path, memory, 0, 0, &e), OSSA_ERR_BLOB_TRUNCATED);
    CHECK(strncmp(e.message, path, strlen(path)) == 0);
    free(memory);
    unlink(path);
}

UTEST_MAIN(file_reads_back_and_opens_as_its_bytes_do, missing_files_and_directories_are_named,
           a_file_that_changed_since_it_was_measured_is_refused,
           misaligned_or_missing_memory_is_refused_before_reading,
           corrupt_and_empty_files_say_what_the_blob_check_says)
