/* import_errors_test.c - every way an import can fail gives a one-line
 * message naming the file and the problem, a non-zero exit from
 * `ossa build`, and no file left behind; allocation failures at any point
 * end cleanly with nothing leaked. Inputs are written by the test. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
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

static const char turn[] = "[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
                           "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7}]}]";

static char inputs[512];

static const char *input(const char *name)
{
    static char path[4][1024];
    static int next;
    if (!inputs[0]) {
        snprintf(inputs, sizeof inputs, "%s/inputs", ts_temp_dir());
        mkdir(inputs, 0700);
    }
    char *p = path[next++ % 4];
    snprintf(p, 1024, "%s/%s", inputs, name);
    return p;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Runs `ossa build -q ARGS -o <fresh dir>/out.ossa`; returns the exit code,
 * the output in out, and in *left the number of files in that directory. */
static int run_build(const char *args, char *out, size_t size, int *left)
{
    static int run;
    char dir[600], cmd[4096];
    snprintf(dir, sizeof dir, "%s/out%d", ts_temp_dir(), run++);
    mkdir(dir, 0700);
    snprintf(cmd, sizeof cmd, "'%s' build -q %s -o '%s/out.ossa' 2>&1", OSSA_TEST_TOOL, args, dir);
    FILE *p = popen(cmd, "r");
    size_t n = p ? fread(out, 1, size - 1, p) : 0;
    out[n] = '\0';
    int status = p ? pclose(p) : -1;
    *left = count_entries(dir);
    char path[700];
    snprintf(path, sizeof path, "%s/out.ossa", dir);
    unlink(path);
    rmdir(dir);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* One failing build: exit 1, one line naming `file` and saying `what`. */
static void expect_failure(const char *args, const char *file, const char *what)
{
    char out[2048];
    int left = -1;
    const int code = run_build(args, out, sizeof out, &left);
    CHECK_INT(code, 1);
    CHECK_INT(left, 0);
    const bool named = strstr(out, file) != NULL, said = strstr(out, what) != NULL;
    CHECK(named);
    CHECK(said);
    CHECK(strchr(out, '\n') == out + strlen(out) - 1); /* exactly one line */
    if (!named || !said || code != 1)
        fprintf(stderr, "  ossa build %s\n  -> exit %d: %s", args, code, out);
}

TEST(build_names_a_missing_file)
{
    char args[1100];
    snprintf(args, sizeof args, "'%s'", input("nothere.fbx"));
    expect_failure(args, "nothere.fbx", "no such file");
}

TEST(build_names_a_file_it_cannot_read)
{
    char args[1100];
    const char *dir = input("folder.gltf");
    mkdir(dir, 0700);
    snprintf(args, sizeof args, "'%s'", dir);
    expect_failure(args, "folder.gltf", "not a regular file");
    if (geteuid() != 0) { /* root reads any file, so only others can test modes */
        const char *locked = input("locked.gltf");
        REQUIRE(tg_write_skinned(locked, "A", "B", turn) == 0);
        chmod(locked, 0);
        snprintf(args, sizeof args, "'%s'", locked);
        expect_failure(args, "locked.gltf", "cannot read");
    }
}

TEST(build_names_an_unsupported_format)
{
    char args[1100];
    const char *notes = input("notes.txt");
    REQUIRE(tg_write_text(notes, "shopping list: bread, milk\n") == 0);
    snprintf(args, sizeof args, "'%s'", notes);
    expect_failure(args, "notes.txt", "unsupported format");
}

TEST(build_names_a_file_with_no_skeleton)
{
    char args[1100];
    const char *obj = input("triangle.obj");
    REQUIRE(tg_write_text(obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1\n") == 0);
    snprintf(args, sizeof args, "'%s'", obj);
    expect_failure(args, "triangle.obj", "no skeleton");
}

/* The inputs after the first only add clips: a second file's skinned mesh,
 * on bones the first file's skeleton does not have, is ignored with a note
 * (it used to stop the build). */
TEST(build_ignores_the_meshes_of_animation_inputs)
{
    const char *base = input("base.gltf"), *other = input("other_skin.gltf");
    REQUIRE(tg_write_skinned(base, "A", "B", turn) == 0);
    REQUIRE(tg_write_skinned(other, "X", "Y", "[]") == 0);
    char blob[1100], cmd[4096], out[4096];
    snprintf(blob, sizeof blob, "%s/two.ossa", inputs);
    snprintf(cmd, sizeof cmd, "'%s' build '%s' '%s' -o '%s' 2>/dev/null && '%s' info --json '%s'",
             OSSA_TEST_TOOL, base, other, blob, OSSA_TEST_TOOL, blob);
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    const size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    CHECK_INT(pclose(p), 0);
    CHECK(strstr(out, "note: ") && strstr(out, "other_skin.gltf: 1 mesh ignored (the inputs "
                                                 "after the first only add clips; --mesh FILE "
                                                 "keeps them)"));
    /* One mesh in the blob: the first file's. */
    const char *meshes = strstr(out, "\"meshes\"");
    REQUIRE(meshes);
    int names = 0;
    for (const char *c = meshes; (c = strstr(c, "\"name\"")); ++c)
        ++names;
    CHECK_INT(names, 1);
    unlink(blob);
}

/* Counts the "name" keys after "meshes" in `ossa info --json` output. */
static int json_mesh_names(const char *out)
{
    const char *meshes = strstr(out, "\"meshes\"");
    int names = 0;
    for (const char *c = meshes; c && (c = strstr(c, "\"name\"")); ++c)
        ++names;
    return names;
}

/* --mesh FILE builds that input's meshes on the first input's joints (a
 * character exported apart from its rig); bones the skeleton lacks stop the
 * build, naming the file and the bone. */
TEST(build_mesh_option_keeps_an_inputs_meshes)
{
    const char *base = input("rig.gltf"), *skin = input("same_bones.gltf"),
               *other = input("other_bones.gltf");
    REQUIRE(tg_write_skinned(base, "A", "B", turn) == 0);
    REQUIRE(tg_write_skinned(skin, "A", "B", "[]") == 0);
    REQUIRE(tg_write_skinned(other, "X", "Y", "[]") == 0);
    char blob[1100], cmd[4096], out[4096];
    snprintf(blob, sizeof blob, "%s/kept.ossa", inputs);
    snprintf(cmd, sizeof cmd,
             "'%s' build '%s' --mesh '%s' -o '%s' -q 2>&1 && '%s' info --json '%s'",
             OSSA_TEST_TOOL, base, skin, blob, OSSA_TEST_TOOL, blob);
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    const size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    CHECK_INT(pclose(p), 0);
    CHECK_INT(json_mesh_names(out), 2); /* the rig's mesh and the --mesh input's */
    unlink(blob);
    char args[2400];
    snprintf(args, sizeof args, "'%s' --mesh '%s'", base, other);
    expect_failure(args, "other_bones.gltf", "bone 'X' is not a joint of the skeleton");
}

TEST(build_names_an_animation_file_that_matches_no_joint)
{
    char args[2200];
    const char *base = input("base.gltf"), *anim = input("strangers.gltf");
    REQUIRE(tg_write_skinned(base, "A", "B", turn) == 0);
    /* The same rig under other names (its skin is not read). */
    REQUIRE(tg_write_skinned(anim, "P", "Q", turn) == 0);
    snprintf(args, sizeof args, "'%s' '%s'", base, anim);
    expect_failure(args, "strangers.gltf", "none of its 1 tracks names a joint of the skeleton");
    /* An animation-only glTF of another node. */
    const char *only = input("only_anim.gltf");
    REQUIRE(tg_write_text(only,
                          "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
                          "\"nodes\":[{\"name\":\"Elsewhere\"}],"
                          "\"animations\":[{\"name\":\"drift\",\"channels\":[{\"sampler\":0,"
                          "\"target\":{\"node\":0,\"path\":\"translation\"}}],\"samplers\":"
                          "[{\"input\":0,\"output\":1}]}],"
                          "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,"
                          "\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},{\"bufferView\":0,"
                          "\"byteOffset\":8,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
                          "\"bufferViews\":[{\"buffer\":0,\"byteLength\":32}],"
                          "\"buffers\":[{\"byteLength\":32,\"uri\":\"data:application/"
                          "octet-stream;base64,AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA=\"}]}") == 0);
    snprintf(args, sizeof args, "'%s' '%s'", base, only);
    expect_failure(args, "only_anim.gltf", "none of its 1 tracks names a joint of the skeleton");
}

static const char with_morph[] =
    "[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}],"
    "\"samplers\":[{\"input\":6,\"output\":7}]},"
    "{\"name\":\"morph\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}],"
    "\"samplers\":[{\"input\":6,\"output\":6}]}]";

TEST(build_names_an_empty_clip_and_builds_around_it_when_asked)
{
    char args[1100], out[2048];
    const char *file = input("morph_only.gltf");
    REQUIRE(tg_write_skinned(file, "A", "B", with_morph) == 0);
    snprintf(args, sizeof args, "'%s'", file);
    /* "morph" moves no joint (morph weights only): an empty clip. */
    expect_failure(args, "morph_only.gltf", "clip 'morph' is empty");
    snprintf(args, sizeof args, "'%s' --clip turn", file);
    int left = -1;
    CHECK_INT(run_build(args, out, sizeof out, &left), 0);
    CHECK_INT(left, 1);
}

TEST(build_writes_a_blob_that_info_and_dump_read)
{
    char args[1100], out[2048];
    const char *file = input("good.gltf");
    REQUIRE(tg_write_skinned(file, "A", "B", turn) == 0);
    snprintf(args, sizeof args, "'%s'", file);
    int left = -1;
    CHECK_INT(run_build(args, out, sizeof out, &left), 0);
    CHECK_INT(left, 1);
    char blob[1100], cmd[3000];
    snprintf(blob, sizeof blob, "%s/good.ossa", inputs);
    snprintf(cmd, sizeof cmd, "'%s' build -q --raw '%s' -o '%s' && '%s' dump '%s' --time 1.5 --json",
             OSSA_TEST_TOOL, file, blob, OSSA_TEST_TOOL, blob);
    FILE *p = popen(cmd, "r");
    REQUIRE(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    CHECK_INT(pclose(p), 0);
    /* At 1.5 s the 1 s clip loops to 0.5 s: B turned 45 degrees about z,
     * its model x axis is (cos 45, sin 45, 0), at (0, 1, 0). */
    CHECK(strstr(out, "\"clip\": \"turn\"") != NULL);
    const char *b = strstr(out, "{\"name\": \"B\", \"parent\": \"A\", \"model\": [");
    REQUIRE(b);
    float m[12];
    REQUIRE(sscanf(b + strlen("{\"name\": \"B\", \"parent\": \"A\", \"model\": ["),
                   "%f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f, %f", &m[0], &m[1], &m[2], &m[3],
                   &m[4], &m[5], &m[6], &m[7], &m[8], &m[9], &m[10], &m[11]) == 12);
    CHECK_NEAR(m[0], 0.70710678, 1e-5);
    CHECK_NEAR(m[4], 0.70710678, 1e-5);
    CHECK_NEAR(m[7], 1.0, 1e-6);
    unlink(blob);
}

TEST(import_fails_cleanly_at_every_allocation)
{
    const char *file = input("alloc.gltf");
    REQUIRE(tg_write_skinned(file, "A", "B", turn) == 0);
    int failures = 0;
    for (int fail_at = 0;; ++fail_at) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, fail_at);
        ossa_import_options options = {0};
        options.allocator = a.allocator;
        ossa_import im;
        ossa_error e;
        ossa_result r = ossa_import_file(file, &options, &im, &e);
        if (r == OSSA_OK) {
            /* Some allocations are optional (an index that speeds lookups up):
             * failing one still succeeds. The sweep ends when none failed. */
            CHECK(im.skeleton.joint_count == 2 && im.clip_count == 1 && im.mesh_count == 1);
            ossa_import_free(&im);
            CHECK_INT(a.live, 0);
            if (a.count <= fail_at)
                break;
            continue;
        }
        CHECK_RESULT(r, OSSA_ERR_OUT_OF_MEMORY);
        CHECK(strstr(e.message, "alloc.gltf") != NULL);
        CHECK_INT(a.live, 0);
        CHECK(im.blocks_ == NULL);
        ++failures;
        REQUIRE(fail_at < 10000);
    }
    CHECK(failures > 20); /* the sweep reached deep into the import */
}

TEST(import_rejects_bad_arguments)
{
    ossa_import im;
    ossa_error e;
    ossa_import_options options = {0};
    options.scale = -1.0f;
    CHECK_RESULT(ossa_import_file(input("alloc.gltf"), &options, &im, &e), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_import_file(NULL, NULL, &im, &e), OSSA_ERR_MISSING_INPUT);
    CHECK_RESULT(ossa_import_file(input("alloc.gltf"), NULL, NULL, &e), OSSA_ERR_MISSING_OUTPUT);
    CHECK_RESULT(ossa_import_file(input("nothere.gltf"), NULL, &im, NULL), OSSA_ERR_IO);
    ossa_import_free(NULL);
}

UTEST_MAIN(build_names_a_missing_file, build_names_a_file_it_cannot_read,
           build_names_an_unsupported_format, build_names_a_file_with_no_skeleton,
           build_ignores_the_meshes_of_animation_inputs, build_mesh_option_keeps_an_inputs_meshes,
           build_names_an_animation_file_that_matches_no_joint,
           build_names_an_empty_clip_and_builds_around_it_when_asked,
           build_writes_a_blob_that_info_and_dump_read, import_fails_cleanly_at_every_allocation,
           import_rejects_bad_arguments)
