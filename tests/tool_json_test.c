/* tool_json_test.c - the JSON that `ossa info --json` and `ossa dump --json`
 * print, the stable interfaces outside tools read (docs/importing.md),
 * checked against the source file itself: a blob built from cesium_man by
 * `ossa build`, its dump's skinned vertices against a double-precision
 * skinning of the file's own vertices, weights and inverse bind matrices
 * by the dump's joint matrices, in the file's vertex order. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "import_gltf_reference.h"
#include "import_gltf_writer.h"
#include "ossa/ossa.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_CJSON OSSA_TEST_NEEDS_IMPORTER */

/* Dumped positions against the double-precision skinning, as a fraction of
 * the model's size (1.9 m): the runtime skins in float (about 1e-7 relative
 * per operation over a blend of four 3x4 products), and the JSON numbers
 * read back to the same floats. A vertex of another order or joint is off
 * by a large fraction of the body. */
#define DUMP_POSITION_TOLERANCE 2e-6
/* Normals, unit length, through the same float products. */
#define DUMP_NORMAL_TOLERANCE 1e-5

#define CESIUM "khronos/cesium_man.gltf"

/* B turns 90 degrees about z over 1 s (accessors 6 and 7 of the triangle). */
static const char turn[] = "[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,"
                           "\"path\":\"rotation\"}}],\"samplers\":[{\"input\":6,\"output\":7}]}]";

/* Runs a shell command and returns everything it printed (caller frees), or
 * NULL when it exits with another status than 0. */
static char *run(const char *command)
{
    FILE *p = popen(command, "r");
    if (!p)
        return NULL;
    size_t size = 1 << 16, used = 0;
    char *out = malloc(size);
    for (size_t got; out && (got = fread(out + used, 1, size - used - 1, p)) > 0;) {
        used += got;
        if (size - used < 2) {
            char *bigger = realloc(out, size * 2);
            if (!bigger)
                break;
            out = bigger;
            size *= 2;
        }
    }
    const int status = pclose(p);
    if (out)
        out[used] = '\0';
    if (!out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "  `%s` failed (status %d)\n", command, status);
        free(out);
        return NULL;
    }
    return out;
}

/* `ossa build -q SOURCE BUILD_OPTIONS -o DIR/NAME.ossa`, then `ossa ARGS`
 * on it, parsed. */
static cJSON *build_with(const char *source, const char *build_options, const char *name,
                         const char *args)
{
    char blob[600], command[2400];
    snprintf(blob, sizeof blob, "%s/%s.ossa", ts_temp_dir(), name);
    snprintf(command, sizeof command, "'%s' build -q '%s' %s -o '%s' && '%s' %s '%s' %s",
             OSSA_TEST_TOOL, source, build_options, blob, OSSA_TEST_TOOL,
             strncmp(args, "info", 4) == 0 ? "info" : "dump", blob, args + 4);
    char *out = run(command);
    unlink(blob);
    cJSON *json = out ? cJSON_Parse(out) : NULL;
    if (out && !json)
        fprintf(stderr, "  not JSON: %.200s\n", out);
    free(out);
    return json;
}

static cJSON *build_and_run(const char *source, const char *name, const char *args)
{
    return build_with(source, "--raw", name, args);
}

static double number(const cJSON *item)
{
    return cJSON_IsNumber(item) ? item->valuedouble : NAN;
}

/* How many of info's clips say "compressed": true, and how many false;
 * compressed ones must also be smaller than their raw size. */
static void count_clip_kinds(const cJSON *info, int *compressed, int *raw, int *not_smaller)
{
    *compressed = *raw = *not_smaller = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItem(info, "clips"))
    {
        const cJSON *flag = cJSON_GetObjectItem(c, "compressed");
        if (cJSON_IsTrue(flag)) {
            ++*compressed;
            *not_smaller += !(number(cJSON_GetObjectItem(c, "bytes")) <
                              number(cJSON_GetObjectItem(c, "raw_bytes")));
        } else if (cJSON_IsFalse(flag)) {
            ++*raw;
        }
    }
}

/* The JSON joint with this name, or NULL. */
static const cJSON *joint_named(const cJSON *joints, const char *name)
{
    const cJSON *j;
    cJSON_ArrayForEach(j, joints)
    {
        const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(j, "name"));
        if (n && strcmp(n, name) == 0)
            return j;
    }
    return NULL;
}

/* Skin joint k's name in the file (unnamed nodes are "nodes[i]", as the
 * importer names them). */
static void skin_joint_name(const ref_gltf *g, int k, char *out, size_t size)
{
    const int node = cJSON_GetArrayItem(cJSON_GetObjectItem(ref_item(g, "skins", 0), "joints"),
                                        k)->valueint;
    const char *n = cJSON_GetStringValue(cJSON_GetObjectItem(ref_item(g, "nodes", node), "name"));
    if (n)
        snprintf(out, size, "%s", n);
    else
        snprintf(out, size, "nodes[%d]", node);
}

static const cJSON *attribute(const ref_gltf *g, const char *name)
{
    const cJSON *prim = cJSON_GetArrayItem(
        cJSON_GetObjectItem(ref_item(g, "meshes", 0), "primitives"), 0);
    return cJSON_GetObjectItem(cJSON_GetObjectItem(prim, "attributes"), name);
}

TEST(dump_json_skins_every_vertex_in_source_order)
{
    const char *path = ts_model_path(CESIUM);
    if (!path)
        SKIP("model " CESIUM " not found (set OSSA_MODELS or add ../shared/models)");
    cJSON *dump = build_and_run(path, "cesium_dump", "dump --time 2.7 --json");
    REQUIRE(dump);
    /* The documented shape. */
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(dump, "clip")), "cesium_man") == 0);
    CHECK_NEAR(number(cJSON_GetObjectItem(dump, "time")), 2.7, 1e-6);
    const cJSON *joints = cJSON_GetObjectItem(dump, "joints");
    REQUIRE(cJSON_GetArraySize(joints) > 0);
    const cJSON *j;
    int bad_joints = 0;
    cJSON_ArrayForEach(j, joints)
    {
        const cJSON *parent = cJSON_GetObjectItem(j, "parent");
        bad_joints += !cJSON_IsString(cJSON_GetObjectItem(j, "name")) ||
                      !(cJSON_IsNull(parent) ||
                        joint_named(joints, cJSON_GetStringValue(parent)) != NULL) ||
                      cJSON_GetArraySize(cJSON_GetObjectItem(j, "model")) != 12;
    }
    CHECK_INT(bad_joints, 0);
    const cJSON *meshes = cJSON_GetObjectItem(dump, "meshes");
    REQUIRE(cJSON_GetArraySize(meshes) == 1);
    const cJSON *mesh = cJSON_GetArrayItem(meshes, 0);
    CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(mesh, "name")), "Cesium_Man") == 0);
    const cJSON *positions = cJSON_GetObjectItem(mesh, "positions");
    const cJSON *normals = cJSON_GetObjectItem(mesh, "normals");

    /* The expectation: the file's vertices skinned in double by the
     * dumped joint matrices and the file's inverse bind matrices. */
    ref_gltf g;
    REQUIRE(ref_open(&g, path) == 0);
    int n, c, wn;
    double *pos = ref_accessor(&g, attribute(&g, "POSITION")->valueint, &n, &c);
    double *nrm = ref_accessor(&g, attribute(&g, "NORMAL")->valueint, &n, &c);
    double *wj = ref_accessor(&g, attribute(&g, "JOINTS_0")->valueint, &wn, &c);
    double *ww = ref_accessor(&g, attribute(&g, "WEIGHTS_0")->valueint, &wn, &c);
    const cJSON *skin = ref_item(&g, "skins", 0);
    const int skins = cJSON_GetArraySize(cJSON_GetObjectItem(skin, "joints"));
    double *ibm = ref_accessor(&g, ref_int(skin, "inverseBindMatrices", -1), &wn, &c);
    REQUIRE(cJSON_GetArraySize(positions) == n && cJSON_GetArraySize(normals) == n);
    ts_dmat *palette = malloc(sizeof *palette * (size_t)skins);
    for (int k = 0; k < skins; ++k) {
        char name[64];
        skin_joint_name(&g, k, name, sizeof name);
        const cJSON *joint = joint_named(joints, name);
        REQUIRE(joint);
        ts_dmat model, inverse_bind;
        for (int e = 0; e < 12; ++e)
            model.m[e / 4][e % 4] = number(cJSON_GetArrayItem(cJSON_GetObjectItem(joint, "model"), e));
        for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 4; ++col)
                inverse_bind.m[r][col] = ibm[16 * k + 4 * col + r];
        palette[k] = ts_dmat_mul(&model, &inverse_bind);
    }
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    double worst_p = 0.0, worst_n = 0.0;
    int worst_vertex = -1;
    for (int v = 0; v < n; ++v) {
        double m[3][4] = {{0}}, total = 0.0;
        for (int i = 0; i < 4; ++i)
            total += ww[4 * v + i];
        for (int i = 0; i < 4; ++i)
            for (int r = 0; r < 3; ++r)
                for (int col = 0; col < 4; ++col)
                    m[r][col] += ww[4 * v + i] / total * palette[(int)wj[4 * v + i]].m[r][col];
        const cJSON *p = cJSON_GetArrayItem(positions, v), *q = cJSON_GetArrayItem(normals, v);
        for (int r = 0; r < 3; ++r) {
            const double want_p = m[r][0] * pos[3 * v] + m[r][1] * pos[3 * v + 1] +
                                  m[r][2] * pos[3 * v + 2] + m[r][3];
            const double want_n = m[r][0] * nrm[3 * v] + m[r][1] * nrm[3 * v + 1] +
                                  m[r][2] * nrm[3 * v + 2];
            const double dp = fabs(number(cJSON_GetArrayItem(p, r)) - want_p);
            const double dn = fabs(number(cJSON_GetArrayItem(q, r)) - want_n);
            if (!(dp <= worst_p)) /* NaN counts as larger */
                worst_p = dp, worst_vertex = v;
            worst_n = dn <= worst_n ? worst_n : dn;
            lo[r] = fmin(lo[r], want_p);
            hi[r] = fmax(hi[r], want_p);
        }
    }
    const double size = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) +
                             (hi[1] - lo[1]) * (hi[1] - lo[1]) + (hi[2] - lo[2]) * (hi[2] - lo[2]));
    fprintf(stderr, "  %d vertices: largest difference %.3g (%.2g of the size %.3g) at vertex %d, "
                    "normals %.3g\n",
            n, worst_p, worst_p / size, size, worst_vertex, worst_n);
    CHECK(size > 1.0); /* the skinned man is not collapsed */
    CHECK_NEAR(worst_p / size, 0.0, DUMP_POSITION_TOLERANCE);
    CHECK_NEAR(worst_n, 0.0, DUMP_NORMAL_TOLERANCE);
    free(pos), free(nrm), free(wj), free(ww), free(ibm), free(palette);
    ref_close(&g);
    cJSON_Delete(dump);
}

/* A blob without a clip: "clip" is null and the rest pose is dumped; the
 * test's triangle is bound in its rest pose, so the vertices come back. */
TEST(dump_json_without_a_clip_gives_the_rest_pose)
{
    char file[600];
    snprintf(file, sizeof file, "%s/still.gltf", ts_temp_dir());
    REQUIRE(tg_write_skinned(file, "A", "B", "[]") == 0);
    cJSON *dump = build_and_run(file, "still", "dump --time 3 --json");
    unlink(file);
    REQUIRE(dump);
    CHECK(cJSON_IsNull(cJSON_GetObjectItem(dump, "clip")));
    const cJSON *mesh = cJSON_GetArrayItem(cJSON_GetObjectItem(dump, "meshes"), 0);
    const cJSON *positions = cJSON_GetObjectItem(mesh, "positions");
    REQUIRE(cJSON_GetArraySize(positions) == 3);
    const double want[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}; /* tg_triangle_blob's */
    for (int v = 0; v < 3; ++v)
        for (int k = 0; k < 3; ++k)
            CHECK_NEAR(number(cJSON_GetArrayItem(cJSON_GetArrayItem(positions, v), k)),
                       want[v][k], 1e-6);
    cJSON_Delete(dump);
}

/* s with the first `from` replaced by `to` (caller frees). */
static char *replace_once(const char *s, const char *from, const char *to)
{
    const char *at = strstr(s, from);
    if (!at)
        return NULL;
    const size_t head = (size_t)(at - s), size = strlen(s) - strlen(from) + strlen(to) + 1;
    char *out = malloc(size);
    snprintf(out, size, "%.*s%s%s", (int)head, s, to, at + strlen(from));
    return out;
}

/* The test triangle plus a second mesh node with a second skin that uses
 * only joint B (a subset of the skeleton, B being skin joint 0 there, joint
 * 1 of the skeleton): its joints accessor is 12 zero bytes of the buffer
 * (the inverse bind matrices' zeros at byte 144), its weights the
 * triangle's, so every vertex of it is bound to B alone; its inverse bind
 * matrix is B's (the buffer's second matrix, at byte 204). */
static int write_two_skins(const char *path)
{
    static const char *const edits[][2] = {
        {"\"scenes\":[{\"nodes\":[0,1]}]", "\"scenes\":[{\"nodes\":[0,1,3]}]"},
        {"\"translation\":[0,1,0]}]",
         "\"translation\":[0,1,0]},{\"name\":\"mesh_b\",\"mesh\":1,\"skin\":1}]"},
        {"\"indices\":4}]}]",
         "\"indices\":4}]},{\"name\":\"only_b\",\"primitives\":[{\"attributes\":{"
         "\"POSITION\":0,\"NORMAL\":1,\"JOINTS_0\":10,\"WEIGHTS_0\":3},\"indices\":4}]}]"},
        {"\"inverseBindMatrices\":5}]",
         "\"inverseBindMatrices\":5},{\"joints\":[2],\"inverseBindMatrices\":11}]"},
        {"\"max\":[0.5]}]",
         "\"max\":[0.5]},{\"bufferView\":0,\"byteOffset\":144,\"componentType\":5121,"
         "\"count\":3,\"type\":\"VEC4\"},{\"bufferView\":0,\"byteOffset\":204,"
         "\"componentType\":5126,\"count\":1,\"type\":\"MAT4\"}]"},
    };
    unsigned char blob[TG_BLOB_BYTES];
    tg_triangle_blob(blob);
    char *b64 = tg_base64(blob, TG_BLOB_BYTES);
    const size_t size = strlen(tg_skinned_json) + strlen(b64) + 4096;
    char *uri = malloc(strlen(b64) + 64), *json = malloc(size);
    snprintf(uri, strlen(b64) + 64, ",\"uri\":\"data:application/octet-stream;base64,%s\"", b64);
    snprintf(json, size, tg_skinned_json, "A", "B", turn, uri);
    int r = 0;
    for (size_t i = 0; i < sizeof edits / sizeof edits[0] && json; ++i) {
        char *next = replace_once(json, edits[i][0], edits[i][1]);
        free(json);
        json = next;
    }
    r = json ? tg_write_text(path, json) : -1;
    free(b64), free(uri), free(json);
    return r;
}

/* Two skins in one file, one of them a subset of the skeleton in its own
 * order: both meshes are built, written and dumped, each vertex where the
 * turn puts it. At 1.5 s the 1 s clip is at 0.5 s: B (at (0, 1, 0)) has
 * turned 45 degrees about z. */
TEST(dump_json_skins_two_skins_one_of_them_a_subset)
{
    char file[600];
    snprintf(file, sizeof file, "%s/two_skins.gltf", ts_temp_dir());
    REQUIRE(write_two_skins(file) == 0);
    cJSON *dump = build_and_run(file, "two_skins", "dump --time 1.5 --json");
    unlink(file);
    REQUIRE(dump);
    const cJSON *meshes = cJSON_GetObjectItem(dump, "meshes");
    REQUIRE(cJSON_GetArraySize(meshes) == 2);
    const double h = sqrt(0.5); /* cos 45 = sin 45 */
    /* tri: v0 on A stays; v1 on B turns about B; v2 half A, half B, both at
     * (0, 1, 0). only_b: every vertex turns rigidly about B. */
    const double want[2][3][3] = {{{0, 0, 0}, {2 * h, 1, 0}, {0, 1, 0}},
                                  {{h, 1 - h, 0}, {2 * h, 1, 0}, {0, 1, 0}}};
    const char *names[2] = {"tri", "only_b"};
    for (int m = 0; m < 2; ++m) {
        const cJSON *mesh = cJSON_GetArrayItem(meshes, m);
        CHECK(strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(mesh, "name")), names[m]) == 0);
        const cJSON *positions = cJSON_GetObjectItem(mesh, "positions");
        const cJSON *normals = cJSON_GetObjectItem(mesh, "normals");
        REQUIRE(cJSON_GetArraySize(positions) == 3 && cJSON_GetArraySize(normals) == 3);
        for (int v = 0; v < 3; ++v)
            for (int k = 0; k < 3; ++k) {
                CHECK_NEAR(number(cJSON_GetArrayItem(cJSON_GetArrayItem(positions, v), k)),
                           want[m][v][k], 1e-6);
                /* Normals (0, 0, 1) are unchanged by a turn about z. */
                CHECK_NEAR(number(cJSON_GetArrayItem(cJSON_GetArrayItem(normals, v), k)),
                           k == 2 ? 1.0 : 0.0, 1e-6);
            }
    }
    cJSON_Delete(dump);
}

TEST(info_json_lists_each_mesh_with_its_streams)
{
    const char *path = ts_model_path(CESIUM);
    if (!path)
        SKIP("model " CESIUM " not found (set OSSA_MODELS or add ../shared/models)");
    cJSON *info = build_and_run(path, "cesium_info", "info --json");
    REQUIRE(info);
    const cJSON *meshes = cJSON_GetObjectItem(info, "meshes");
    REQUIRE(cJSON_GetArraySize(meshes) == 1);
    const cJSON *m = cJSON_GetArrayItem(meshes, 0);
    ref_gltf g;
    REQUIRE(ref_open(&g, path) == 0);
    int n, c, indices;
    double *ww = ref_accessor(&g, attribute(&g, "WEIGHTS_0")->valueint, &n, &c);
    const cJSON *prim = cJSON_GetArrayItem(
        cJSON_GetObjectItem(ref_item(&g, "meshes", 0), "primitives"), 0);
    free(ref_accessor(&g, ref_int(prim, "indices", -1), &indices, &c));
    const int vertices = (int)number(cJSON_GetObjectItem(m, "vertices"));
    const int triangles = (int)number(cJSON_GetObjectItem(m, "triangles"));
    CHECK_INT(vertices, n);
    CHECK_INT(triangles, indices / 3);
    /* The histogram: vertices with 1..4 positive weights in the file. */
    int histogram[4] = {0, 0, 0, 0};
    for (int v = 0; v < n; ++v) {
        int count = 0;
        for (int i = 0; i < 4; ++i)
            count += ww[4 * v + i] > 0.0;
        if (count > 0)
            histogram[count - 1]++;
    }
    const cJSON *influences = cJSON_GetObjectItem(m, "influences");
    for (int k = 0; k < 4; ++k)
        CHECK_INT(number(cJSON_GetArrayItem(influences, k)), histogram[k]);
    /* Skin joints: the file's skin, in any order. */
    const cJSON *skin_joints = cJSON_GetObjectItem(m, "skin_joints");
    const int skins = cJSON_GetArraySize(cJSON_GetObjectItem(ref_item(&g, "skins", 0), "joints"));
    CHECK_INT(cJSON_GetArraySize(skin_joints), skins);
    int missing = 0;
    for (int k = 0; k < skins; ++k) {
        char name[64];
        skin_joint_name(&g, k, name, sizeof name);
        bool found = false;
        const cJSON *s;
        cJSON_ArrayForEach(s, skin_joints) found |= strcmp(cJSON_GetStringValue(s), name) == 0;
        missing += !found;
    }
    CHECK_INT(missing, 0);
    /* Streams as docs/skinning.md lays them out: tangents computed (the file
     * has uvs and no tangents), so 48 bytes per skinned vertex; uvs only. */
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(m, "tangents")));
    CHECK(cJSON_IsTrue(cJSON_GetObjectItem(m, "uvs")));
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(m, "colors")));
    const cJSON *streams = cJSON_GetObjectItem(m, "stream_bytes");
    CHECK_INT(number(cJSON_GetObjectItem(streams, "skinned_stride")), 48);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "skinned")), 48 * n);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "static")), 8 * n);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "indices")), 4 * indices);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "source_map")), 4 * n);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "skin_joints")), (2 + 48) * skins);
    const int stored = 2 * (histogram[0] + 2 * histogram[1] + 3 * histogram[2] + 4 * histogram[3]) +
                       4 * (histogram[1] + 2 * histogram[2] + 3 * histogram[3]);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "influences")), stored);
    /* Built --raw: every clip says so. */
    int compressed, raw, not_smaller;
    count_clip_kinds(info, &compressed, &raw, &not_smaller);
    CHECK_INT(compressed, 0);
    CHECK_INT(raw, cJSON_GetArraySize(cJSON_GetObjectItem(g.json, "animations")));
    free(ww);
    ref_close(&g);
    cJSON_Delete(info);
}

/* --no-tangents: the mesh is written without them, 32 bytes per vertex. */
TEST(build_no_tangents_leaves_tangents_out_of_the_blob)
{
    const char *path = ts_model_path(CESIUM);
    if (!path)
        SKIP("model " CESIUM " not found (set OSSA_MODELS or add ../shared/models)");
    cJSON *info = build_with(path, "--no-tangents", "cesium_plain", "info --json");
    REQUIRE(info);
    const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItem(info, "meshes"), 0);
    REQUIRE(m);
    CHECK(cJSON_IsFalse(cJSON_GetObjectItem(m, "tangents")));
    const cJSON *streams = cJSON_GetObjectItem(m, "stream_bytes");
    CHECK_INT(number(cJSON_GetObjectItem(streams, "skinned_stride")), 32);
    CHECK_INT(number(cJSON_GetObjectItem(streams, "skinned")),
              32 * number(cJSON_GetObjectItem(m, "vertices")));
    /* Built by default: the clips are compressed, and smaller than raw. */
    int compressed, raw, not_smaller;
    count_clip_kinds(info, &compressed, &raw, &not_smaller);
    CHECK(compressed >= 1);
    CHECK_INT(raw, 0);
    CHECK_INT(not_smaller, 0);
    cJSON_Delete(info);
}

UTEST_MAIN(dump_json_skins_every_vertex_in_source_order,
           dump_json_without_a_clip_gives_the_rest_pose,
           dump_json_skins_two_skins_one_of_them_a_subset, info_json_lists_each_mesh_with_its_streams,
           build_no_tangents_leaves_tangents_out_of_the_blob)
