/* build_output_test.c - `ossa build`'s output and its import limits, run as
 * a user runs the tool: it replaces only regular files (a symlink, a FIFO,
 * a directory or a device is refused and left as it was), `-o -` writes the
 * blob to stdout, an unwritable output is refused before any import, the
 * child import's time and memory limits end in clear messages, and `ossa
 * dump` prints a blob whose vertex-order table repeats entries without
 * reading memory nothing wrote. Inputs are generated here. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "import_gltf_writer.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* For helpers that return a value: a broken set-up ends the test run. */
#define NEED(cond)                                                                             \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "%s:%d: set-up failed: %s\n", __FILE__, __LINE__, #cond);          \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

static const char turn[] = "[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
                           "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7}]}]";

static const char *path_of(const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, 1024, "%s/%s", ts_temp_dir(), name);
    return p;
}

static const char *character(void)
{
    static const char *path;
    if (!path) {
        path = strdup(path_of("character.gltf"));
        if (tg_write_skinned(path, "A", "B", turn) != 0)
            abort();
    }
    return path;
}

/* Runs a shell command; its stdout and stderr (2>&1 unless the command
 * redirects) in out; returns the exit code. */
static int run(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, size - 1, p) : 0;
    out[n] = '\0';
    const int status = p ? pclose(p) : -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int build_to(const char *output, const char *extra, char *out, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' build -q '%s' %s -o '%s' 2>&1", OSSA_TEST_TOOL,
             character(), extra, output);
    return run(cmd, out, size);
}

/* Whether the files at x and y hold the same bytes. */
static bool same_bytes(const char *x, const char *y)
{
    void *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    ossa_error e;
    const bool same = ossa_file_read(x, NULL, &a, &na, &e) == OSSA_OK &&
                      ossa_file_read(y, NULL, &b, &nb, &e) == OSSA_OK && na == nb &&
                      memcmp(a, b, na) == 0;
    ossa_free(NULL, a);
    ossa_free(NULL, b);
    return same;
}

TEST(build_replaces_only_regular_files)
{
    char out[2048];
    /* A symlink: refused, and neither it nor its target changes. */
    const char *target = path_of("target.txt"), *link = path_of("link.ossa");
    REQUIRE(tg_write_text(target, "keep me\n") == 0);
    unlink(link);
    REQUIRE(symlink(target, link) == 0);
    CHECK_INT(build_to(link, "", out, sizeof out), 1);
    CHECK(strstr(out, "link.ossa: is a symbolic link"));
    struct stat st;
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK(stat(target, &st) == 0 && st.st_size == 8);
    /* A FIFO (nothing reads it: a write through it would hang the test). */
    const char *fifo = path_of("fifo.ossa");
    unlink(fifo);
    REQUIRE(mkfifo(fifo, 0600) == 0);
    CHECK_INT(build_to(fifo, "", out, sizeof out), 1);
    CHECK(strstr(out, "fifo.ossa: is a FIFO"));
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    /* A directory, and a device (as root, rename would replace /dev/null). */
    const char *dir = path_of("dir.ossa");
    mkdir(dir, 0700);
    CHECK_INT(build_to(dir, "", out, sizeof out), 1);
    CHECK(strstr(out, "dir.ossa: is a directory"));
    CHECK_INT(build_to("/dev/null", "", out, sizeof out), 1);
    CHECK(strstr(out, "/dev/null: is a device"));
    CHECK(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode));
    /* A regular file is replaced. */
    const char *plain = path_of("plain.ossa");
    REQUIRE(tg_write_text(plain, "old\n") == 0);
    CHECK_INT(build_to(plain, "", out, sizeof out), 0);
    CHECK(stat(plain, &st) == 0 && st.st_size > 1000);
}

TEST(build_writes_to_stdout_with_a_dash)
{
    char out[2048], cmd[4096];
    const char *file = path_of("file.ossa"), *piped = path_of("piped.ossa");
    CHECK_INT(build_to(file, "", out, sizeof out), 0);
    /* The summary goes to stderr, the blob alone to stdout. */
    snprintf(cmd, sizeof cmd, "'%s' build '%s' -o - > '%s' 2>/dev/null", OSSA_TEST_TOOL,
             character(), piped);
    CHECK_INT(run(cmd, out, sizeof out), 0);
    CHECK(same_bytes(file, piped));
}

/* Clips are built on as many threads as OpenMP is given: the blob is the
 * same byte for byte on one and on two. */
TEST(build_is_the_same_on_any_number_of_threads)
{
    static const char turns[] =
        "[{\"name\":\"a\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
        "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7}]},"
        "{\"name\":\"b\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
        "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7,"
        "\"interpolation\":\"STEP\"}]},"
        "{\"name\":\"c\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,"
        "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7}]}]";
    const char *input = path_of("three_clips.gltf");
    REQUIRE(tg_write_skinned(input, "A", "B", turns) == 0);
    char out[2048], cmd[4096];
    const char *one = path_of("one_thread.ossa"), *two = path_of("two_threads.ossa");
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=1 '%s' build -q '%s' -o '%s' 2>&1",
             OSSA_TEST_TOOL, input, one);
    CHECK_INT(run(cmd, out, sizeof out), 0);
    snprintf(cmd, sizeof cmd, "OMP_NUM_THREADS=2 '%s' build -q '%s' -o '%s' 2>&1",
             OSSA_TEST_TOOL, input, two);
    CHECK_INT(run(cmd, out, sizeof out), 0);
    CHECK(same_bytes(one, two));
    /* and all three clips are in it */
    void *a = NULL;
    size_t na = 0;
    ossa_error e;
    REQUIRE(ossa_file_read(one, NULL, &a, &na, &e) == OSSA_OK);
    ossa_blob blob;
    REQUIRE(ossa_blob_open(&blob, a, na, OSSA_BLOB_DEFAULT, &e) == OSSA_OK);
    CHECK_INT(blob.clip_count, 3);
    ossa_free(NULL, a);
}

TEST(build_refuses_an_unwritable_output_before_importing)
{
    char out[2048], cmd[4096];
    /* The input does not exist: the message is about the output, so the
     * output was checked first. */
    snprintf(cmd, sizeof cmd, "'%s' build '%s' -o /nonexistent-dir/x.ossa 2>&1",
             OSSA_TEST_TOOL, path_of("missing.gltf"));
    CHECK_INT(run(cmd, out, sizeof out), 1);
    CHECK(strstr(out, "/nonexistent-dir/x.ossa: cannot create a file there"));
    CHECK(!strstr(out, "missing.gltf"));
    /* A missing input's message starts the output: no blank line first. */
    snprintf(cmd, sizeof cmd, "'%s' build '%s' -o '%s' 2>&1", OSSA_TEST_TOOL,
             path_of("nosuch.fbx"), path_of("x.ossa"));
    CHECK_INT(run(cmd, out, sizeof out), 1);
    CHECK(strncmp(out, "ossa build: ", 12) == 0);
    CHECK(strstr(out, "nosuch.fbx: no such file"));
}

/* A skinned glTF with a heavy mesh: a strip of `quads` quads. */
static const char *big_mesh(void)
{
    static const char *path;
    if (path)
        return path;
    path = strdup(path_of("big.obj"));
    FILE *f = fopen(path, "w");
    NEED(f);
    enum { QUADS = 200000 };
    for (int i = 0; i <= QUADS; ++i)
        fprintf(f, "v %d 0 0\nv %d 1 0\n", i, i);
    fprintf(f, "vn 0 0 1\n");
    for (int i = 0; i < QUADS; ++i)
        fprintf(f, "f %d//1 %d//1 %d//1 %d//1\n", 2 * i + 1, 2 * i + 3, 2 * i + 4, 2 * i + 2);
    fclose(f);
    return path;
}

TEST(build_stops_an_import_past_its_time_limit)
{
    char out[2048], cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' build '%s' --import-timeout 0.001 -o '%s' 2>&1",
             OSSA_TEST_TOOL, big_mesh(), path_of("slow.ossa"));
    CHECK_INT(run(cmd, out, sizeof out), 1);
    CHECK(strstr(out, "big.obj: the import took longer than 0.001 s, the limit "
                      "(--import-timeout S raises it)"));
    if (!strstr(out, "took longer"))
        fprintf(stderr, "  got: %s", out);
    CHECK(access(path_of("slow.ossa"), F_OK) != 0);
}

TEST(build_stops_an_import_past_its_memory_limit)
{
    if (UNDER_ASAN)
        SKIP("built with AddressSanitizer, whose shadow memory rules out an address-space "
             "limit (the tool does not set one then)");
    char out[2048], cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' build '%s' --import-memory 64 -o '%s' 2>&1",
             OSSA_TEST_TOOL, big_mesh(), path_of("big.ossa"));
    CHECK_INT(run(cmd, out, sizeof out), 1);
    /* assimp's allocation fails (a message), or its failure kills it. */
    CHECK(strstr(out, "big.obj: the import needed more than 64 MiB of memory") ||
          strstr(out, "(or it ran out of memory: --import-memory MIB)"));
    if (!strstr(out, "memory"))
        fprintf(stderr, "  got: %s", out);
    CHECK(access(path_of("big.ossa"), F_OK) != 0);
}

/* A blob whose mesh's source map says runtime vertices 0 and 1 are both
 * source vertex s1 (valid: the validator checks only the range), so
 * source vertex s0 has no runtime vertex. Returns its path. */
static const char *repeated_map_blob(uint32_t *s0, uint32_t *s1)
{
    char out[2048];
    const char *blob = path_of("repeat.ossa");
    NEED(build_to(blob, "", out, sizeof out) == 0);
    void *data = NULL;
    size_t bytes = 0;
    ossa_error e;
    NEED(ossa_file_read(blob, NULL, &data, &bytes, &e) == OSSA_OK);
    ossa_blob opened;
    NEED(ossa_blob_open(&opened, data, bytes, OSSA_BLOB_DEFAULT, &e) == OSSA_OK);
    NEED(opened.mesh_count == 1);
    const ossa_mesh *mesh = ossa_blob_mesh(&opened, 0);
    NEED(ossa_mesh_vertex_count(mesh) >= 2);
    uint32_t *source = (uint32_t *)(uintptr_t)ossa_mesh_source_vertices(mesh);
    *s0 = source[0];
    *s1 = source[1];
    source[0] = source[1];
    /* The checksum over the bytes with its own field zero (the header's
     * u32 at byte 40, docs/blob-format.md). */
    enum { CHECKSUM_OFFSET = 40 };
    unsigned char *bytes_ = data;
    memset(bytes_ + CHECKSUM_OFFSET, 0, 4);
    const uint32_t crc = ossa_crc32c(0, bytes_, bytes);
    memcpy(bytes_ + CHECKSUM_OFFSET, &crc, 4);
    NEED(ossa_blob_open(&opened, data, bytes, OSSA_BLOB_DEFAULT, &e) == OSSA_OK);
    FILE *f = fopen(blob, "wb");
    NEED(f && fwrite(data, 1, bytes, f) == bytes && fclose(f) == 0);
    ossa_free(NULL, data);
    return blob;
}

TEST(dump_handles_a_vertex_order_table_with_repeated_entries)
{
    uint32_t s0, s1;
    const char *blob = repeated_map_blob(&s0, &s1);
    char cmd[4096];
    static char out[1 << 16];
    snprintf(cmd, sizeof cmd, "'%s' dump '%s' --time 0.5 --json 2>&1", OSSA_TEST_TOOL, blob);
    CHECK_INT(run(cmd, out, sizeof out), 0);
    /* The positions list: source vertex s0 is null, every other one a
     * triple. */
    const char *c = strstr(out, "\"positions\": [");
    REQUIRE(c);
    c += strlen("\"positions\": [");
    int index = 0, nulls = 0, null_at = -1, depth = 0;
    for (; *c && !(depth == 0 && *c == ']'); ++c) {
        if (depth == 0 && strncmp(c, "null", 4) == 0) {
            ++nulls;
            null_at = index++;
            c += 3;
        } else if (*c == '[') {
            ++depth;
        } else if (*c == ']') {
            --depth;
            ++index;
        }
    }
    CHECK_INT(nulls, 1);
    CHECK_INT(null_at, (int)s0);
    /* The text form says it too. */
    snprintf(cmd, sizeof cmd, "'%s' dump '%s' --time 0.5 2>&1", OSSA_TEST_TOOL, blob);
    CHECK_INT(run(cmd, out, sizeof out), 0);
    CHECK(strstr(out, "(no runtime vertex maps to it)"));
    (void)s1;
}

UTEST_MAIN(build_replaces_only_regular_files, build_writes_to_stdout_with_a_dash,
           build_is_the_same_on_any_number_of_threads,
           build_refuses_an_unwritable_output_before_importing,
           build_stops_an_import_past_its_time_limit, build_stops_an_import_past_its_memory_limit,
           dump_handles_a_vertex_order_table_with_repeated_entries)
