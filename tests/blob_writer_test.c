/* blob_writer_test.c - writing blobs: write -> open is bit-exact (and writing
 * what was opened gives the same bytes), the layout docs/blob-format.md
 * describes, files written atomically and read back, bad arguments, and
 * allocation failure at every step. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blob_layout.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef struct contents {
    ossa_default_character c;
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    ossa_blob_contents blob;
} contents;

static bool contents_make(contents *x)
{
    if (ossa_default_character_build(&x->c, NULL, NULL) != OSSA_OK)
        return false;
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g)
        x->clips[g] = x->c.clips[g];
    x->blob = (ossa_blob_contents){x->c.skeleton, x->clips, OSSA_DEFAULT_CLIP_COUNT, NULL, 0};
    return true;
}

static char *path_in_temp(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", ts_temp_dir(), name);
    return path;
}

/* Names in the temporary directory, counted (to spot leftover temp files). */
static int files_in_temp(void)
{
    DIR *d = opendir(ts_temp_dir());
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

TEST(write_then_open_is_bit_exact)
{
    contents x;
    REQUIRE(contents_make(&x));
    void *data = NULL;
    size_t bytes = 0;
    ossa_error e;
    REQUIRE(ossa_blob_write_memory(&x.blob, NULL, &data, &bytes, &e) == OSSA_OK);
    CHECK(((uintptr_t)data & 63) == 0);
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, data, bytes, OSSA_BLOB_DEFAULT, &e) == OSSA_OK);
    /* Every section is the built object, byte for byte. */
    REQUIRE(blob.skeleton);
    CHECK(ossa_skeleton_bytes(blob.skeleton) == ossa_skeleton_bytes(x.c.skeleton));
    CHECK(memcmp(blob.skeleton, x.c.skeleton, ossa_skeleton_bytes(x.c.skeleton)) == 0);
    REQUIRE(blob.clip_count == OSSA_DEFAULT_CLIP_COUNT);
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g) {
        const ossa_clip *c = ossa_blob_clip(&blob, g);
        CHECK(ossa_clip_bytes(c) == ossa_clip_bytes(x.c.clips[g]));
        CHECK(memcmp(c, x.c.clips[g], ossa_clip_bytes(c)) == 0);
        CHECK_INT(ossa_blob_find_clip(&blob, ossa_clip_name(x.c.clips[g])), g);
    }
    /* Writing what was opened gives the same blob. */
    const ossa_clip *opened[OSSA_DEFAULT_CLIP_COUNT];
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g)
        opened[g] = ossa_blob_clip(&blob, g);
    ossa_blob_contents again = {blob.skeleton, opened, OSSA_DEFAULT_CLIP_COUNT, NULL, 0};
    void *data2 = NULL;
    size_t bytes2 = 0;
    REQUIRE(ossa_blob_write_memory(&again, NULL, &data2, &bytes2, &e) == OSSA_OK);
    CHECK(bytes2 == bytes && memcmp(data, data2, bytes) == 0);
    ossa_free(NULL, data2);
    ossa_free(NULL, data);
    ossa_default_character_free(&x.c, NULL);
}

TEST(written_blob_has_the_documented_layout)
{
    contents x;
    REQUIRE(contents_make(&x));
    void *data = NULL;
    size_t bytes = 0;
    REQUIRE(ossa_blob_write_memory(&x.blob, NULL, &data, &bytes, NULL) == OSSA_OK);
    const unsigned char *p = data;
    tl_header h;
    memcpy(&h, p, sizeof h);
    CHECK(memcmp(p, "OSSA\r\n\x1a\n", 8) == 0);
    CHECK(h.version == 2 && h.endian == 0x01020304u && h.total_bytes == bytes);
    CHECK(h.header_bytes == 64 && h.section_table_offset == 64 && h.section_count == 4);
    CHECK(h.flags == 0 && bytes % 64 == 0);
    /* Sections in order, 64-aligned, after the table; the gaps are zeros. */
    uint64_t end = 64 + 4 * 32;
    int wrong = 0;
    for (uint32_t i = 0; i < h.section_count; ++i) {
        tl_section s;
        memcpy(&s, p + 64 + 32 * i, sizeof s);
        wrong += s.kind != (i == 0 ? OSSA_SECTION_SKELETON : OSSA_SECTION_CLIP);
        wrong += s.offset % 64 != 0 || s.offset < end || s.reserved0 || s.reserved1;
        for (uint64_t k = end; k < s.offset; ++k)
            wrong += p[k] != 0;
        uint32_t tag;
        memcpy(&tag, p + s.offset, 4);
        wrong += tag != (i == 0 ? 0x4C454B53u /* "SKEL" */ : 0x50494C43u /* "CLIP" */);
        end = s.offset + s.bytes;
    }
    for (uint64_t k = end; k < bytes; ++k)
        wrong += p[k] != 0;
    CHECK_INT(wrong, 0);
    ossa_free(NULL, data);
    ossa_default_character_free(&x.c, NULL);
}

TEST(blob_file_round_trips_and_is_written_atomically)
{
    contents x;
    REQUIRE(contents_make(&x));
    const int before = files_in_temp();
    char path[512];
    snprintf(path, sizeof path, "%s", path_in_temp("character.ossa"));
    ossa_error e;
    CHECK_RESULT(ossa_blob_write_file(path, &x.blob, &e), OSSA_OK);
    CHECK_RESULT(ossa_blob_write_file(path, &x.blob, &e), OSSA_OK); /* over an old one */
    CHECK_INT(files_in_temp(), before + 1); /* no temporary left behind */
    struct stat st;
    CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
    void *memory = NULL, *file = NULL;
    size_t memory_bytes = 0;
    REQUIRE(ossa_blob_write_memory(&x.blob, NULL, &memory, &memory_bytes, &e) == OSSA_OK);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_load_file(path, NULL, &blob, &file, &e), OSSA_OK);
    CHECK(file && blob.bytes == memory_bytes && memcmp(file, memory, memory_bytes) == 0);
    CHECK(((uintptr_t)file & 63) == 0);
    ossa_free(NULL, file);
    /* A corrupt file: the message starts with its path; nothing is returned. */
    FILE *f = fopen(path, "r+b");
    REQUIRE(f);
    fseek(f, 100, SEEK_SET);
    fputc(0x55, f);
    fclose(f);
    file = (void *)path;
    CHECK_RESULT(ossa_blob_load_file(path, NULL, &blob, &file, &e), OSSA_ERR_BLOB_CHECKSUM);
    CHECK(file == NULL && strncmp(e.message, path, strlen(path)) == 0);
    CHECK(unlink(path) == 0);
    ossa_free(NULL, memory);
    ossa_default_character_free(&x.c, NULL);
}

TEST(file_errors_name_the_path)
{
    contents x;
    REQUIRE(contents_make(&x));
    ossa_error e;
    const int before = files_in_temp();
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no/such/dir/x.ossa", ts_temp_dir());
    CHECK_RESULT(ossa_blob_write_file(missing, &x.blob, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, missing) != NULL);
    CHECK_INT(files_in_temp(), before);
    CHECK_RESULT(ossa_blob_write_file("", &x.blob, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_blob_write_file(NULL, &x.blob, &e), OSSA_ERR_BAD_ARGUMENT);
    void *data = (void *)&e;
    size_t bytes = 7;
    CHECK_RESULT(ossa_file_read(missing, NULL, &data, &bytes, &e), OSSA_ERR_IO);
    CHECK(data == NULL && bytes == 0 && strstr(e.message, missing) != NULL);
    CHECK_RESULT(ossa_file_read(ts_temp_dir(), NULL, &data, &bytes, &e), OSSA_ERR_IO);
    CHECK(strstr(e.message, "not a regular file") != NULL);
    CHECK_RESULT(ossa_file_read(NULL, NULL, &data, &bytes, &e), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_file_read(missing, NULL, NULL, &bytes, &e), OSSA_ERR_MISSING_OUTPUT);
    /* An empty file reads as zero bytes, and is no blob. */
    char empty[512];
    snprintf(empty, sizeof empty, "%s", path_in_temp("empty.ossa"));
    FILE *f = fopen(empty, "wb");
    REQUIRE(f);
    fclose(f);
    CHECK_RESULT(ossa_file_read(empty, NULL, &data, &bytes, &e), OSSA_OK);
    CHECK(bytes == 0);
    ossa_free(NULL, data);
    ossa_blob blob;
    CHECK_RESULT(ossa_blob_load_file(empty, NULL, &blob, &data, &e), OSSA_ERR_BLOB_TRUNCATED);
    unlink(empty);
    ossa_default_character_free(&x.c, NULL);
}

TEST(blob_writer_rejects_missing_contents)
{
    contents x;
    REQUIRE(contents_make(&x));
    void *data = (void *)&x;
    size_t bytes = 9;
    ossa_error e;
    CHECK_RESULT(ossa_blob_write_memory(NULL, NULL, &data, &bytes, &e), OSSA_ERR_MISSING_INPUT);
    CHECK(data == NULL && bytes == 0);
    CHECK_RESULT(ossa_blob_write_memory(&x.blob, NULL, NULL, &bytes, &e), OSSA_ERR_MISSING_OUTPUT);
    ossa_blob_contents bad = x.blob;
    bad.clips = NULL;
    CHECK_RESULT(ossa_blob_write_memory(&bad, NULL, &data, &bytes, &e), OSSA_ERR_MISSING_INPUT);
    bad = x.blob;
    bad.clip_count = -1;
    CHECK_RESULT(ossa_blob_write_memory(&bad, NULL, &data, &bytes, &e), OSSA_ERR_MISSING_INPUT);
    const ossa_clip *holes[2] = {x.c.clips[0], NULL};
    bad = (ossa_blob_contents){x.c.skeleton, holes, 2, NULL, 0};
    CHECK_RESULT(ossa_blob_write_memory(&bad, NULL, &data, &bytes, &e), OSSA_ERR_MISSING_INPUT);
    CHECK(strstr(e.message, "section 2") != NULL);
    ossa_default_character_free(&x.c, NULL);
}

TEST(blob_writer_and_reader_fail_cleanly_at_every_allocation)
{
    contents x;
    REQUIRE(contents_make(&x));
    ts_failing_allocator counter;
    ts_failing_allocator_init(&counter, -1);
    void *data = NULL;
    size_t bytes = 0;
    REQUIRE(ossa_blob_write_memory(&x.blob, &counter.allocator, &data, &bytes, NULL) == OSSA_OK);
    ossa_free(&counter.allocator, data);
    CHECK_INT(counter.live, 0);
    const int allocations = counter.count;
    CHECK(allocations >= 2);
    for (int n = 0; n < allocations; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        ossa_error e;
        CHECK_RESULT(ossa_blob_write_memory(&x.blob, &a.allocator, &data, &bytes, &e),
                     OSSA_ERR_OUT_OF_MEMORY);
        CHECK(data == NULL && bytes == 0);
        CHECK_INT(a.live, 0);
    }
    /* Reading a file: its one allocation. */
    char path[512];
    snprintf(path, sizeof path, "%s", path_in_temp("alloc.ossa"));
    REQUIRE(ossa_blob_write_file(path, &x.blob, NULL) == OSSA_OK);
    ts_failing_allocator a;
    ts_failing_allocator_init(&a, 0);
    ossa_blob blob;
    ossa_error e;
    CHECK_RESULT(ossa_blob_load_file(path, &a.allocator, &blob, &data, &e), OSSA_ERR_OUT_OF_MEMORY);
    CHECK(data == NULL && a.live == 0 && strstr(e.message, path) != NULL);
    ts_failing_allocator_init(&a, -1);
    CHECK_RESULT(ossa_blob_load_file(path, &a.allocator, &blob, &data, &e), OSSA_OK);
    ossa_free(&a.allocator, data);
    CHECK_INT(a.live, 0);
    unlink(path);
    rmdir(ts_temp_dir()); /* the last test: leave /tmp clean */
    ossa_default_character_free(&x.c, NULL);
}

UTEST_MAIN(write_then_open_is_bit_exact, written_blob_has_the_documented_layout,
           blob_file_round_trips_and_is_written_atomically, file_errors_name_the_path,
           blob_writer_rejects_missing_contents,
           blob_writer_and_reader_fail_cleanly_at_every_allocation)
