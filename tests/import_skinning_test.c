/* import_skinning_test.c - real characters through the whole pipeline:
 * import -> build (skeleton, clips, meshes) -> write the blob -> load it ->
 * pose -> local->model -> palette -> skinning.
 * - In the bind pose, skinning gives back the vertices the source file
 *   stores (glTF: read by the test's own reader; FBX: assimp's vertices as
 *   the importer hands them over, since the test has no FBX reader of its
 *   own), in source order. The bind pose comes from the source's inverse
 *   bind matrices: model = inverse(IBM), local = inverse(parent model) *
 *   model, split into T, R, S - the glTF files' rest pose is not their bind
 *   pose.
 * - Animated (arnaud walking), every skinned vertex is finite and stays at
 *   its bind-pose distance from its heaviest joint. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "import_gltf_reference.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER OSSA_TEST_NEEDS_CJSON */

/* Bind-pose positions may differ from the source by this fraction of the
 * model's size (its bounding box diagonal). The pose is rebuilt in float
 * through ~15 products down the deepest chain, a palette product and the
 * skinning blend: rounding of ~1e-7 relative per step stays below 1e-6 of the
 * model's size (measured: 1.2e-7 arnaud, 1.5e-7 cesium_man and
 * rigged_simple). A wrong joint, matrix, weight or vertex order moves
 * vertices by a sizeable fraction of the model. */
#define BIND_POSITION_TOLERANCE 2e-6
/* Normals in the bind pose: the palette is the identity up to the same
 * rounding, and normals are unit vectors. */
#define BIND_NORMAL_TOLERANCE 1e-5
/* Animated, a 1-influence vertex moves rigidly with its joint: its distance
 * to it changes only by rounding (same bound as the bind pose). A blended
 * vertex lies between where its joints would carry it; near a bending knee
 * or elbow its distance to the heaviest joint changes by a few centimetres
 * (3.9 cm, 1.5% of arnaud's 254 cm, measured over walk). A vertex skinned by
 * a wrong joint or matrix lands tens of centimetres to metres away. */
#define BLENDED_DISTANCE_TOLERANCE 0.03
/* The bind pose's local transforms must be plain T, R, S: the largest
 * cosine between two of a local matrix's normalised axes. */
#define SHEAR_TOLERANCE 1e-4

/* ---- what the source file says ---- */

typedef struct source_mesh {
    int vertex_count;
    double *positions, *normals; /* 3 per vertex, source order */
    int skin_count;
    char (*names)[64];           /* skin joint names */
    ts_dmat *inverse_binds;      /* per skin joint */
} source_mesh;

static void source_free(source_mesh *s)
{
    free(s->positions), free(s->normals), free(s->names), free(s->inverse_binds);
    memset(s, 0, sizeof *s);
}

/* glTF: the first primitive of the first mesh and the first skin, read
 * straight from the file's accessors (nodes without a name are called
 * "nodes[i]", as the importer does). */
static bool source_from_gltf(source_mesh *s, const char *path)
{
    memset(s, 0, sizeof *s);
    ref_gltf g;
    if (ref_open(&g, path) != 0)
        return false;
    const cJSON *prim = cJSON_GetArrayItem(
        cJSON_GetObjectItem(ref_item(&g, "meshes", 0), "primitives"), 0);
    const cJSON *attr = cJSON_GetObjectItem(prim, "attributes");
    int n, c;
    s->positions = ref_accessor(&g, ref_int(attr, "POSITION", -1), &s->vertex_count, &c);
    s->normals = ref_accessor(&g, ref_int(attr, "NORMAL", -1), &n, &c);
    const cJSON *skin = ref_item(&g, "skins", 0);
    const cJSON *joints = cJSON_GetObjectItem(skin, "joints");
    s->skin_count = cJSON_GetArraySize(joints);
    s->names = calloc((size_t)s->skin_count, sizeof *s->names);
    s->inverse_binds = calloc((size_t)s->skin_count, sizeof *s->inverse_binds);
    double *ibm = ref_accessor(&g, ref_int(skin, "inverseBindMatrices", -1), &n, &c);
    for (int k = 0; k < s->skin_count; ++k) {
        const int node = cJSON_GetArrayItem(joints, k)->valueint;
        const char *name =
            cJSON_GetStringValue(cJSON_GetObjectItem(ref_item(&g, "nodes", node), "name"));
        if (name)
            snprintf(s->names[k], sizeof s->names[k], "%s", name);
        else
            snprintf(s->names[k], sizeof s->names[k], "nodes[%d]", node);
        for (int r = 0; r < 3; ++r)
            for (int col = 0; col < 4; ++col) /* column-major */
                s->inverse_binds[k].m[r][col] = ibm[16 * k + 4 * col + r];
    }
    free(ibm);
    ref_close(&g);
    return true;
}

/* FBX: assimp's vertices and bones as the importer passes them on (corners
 * equal in every attribute welded, which keeps every position). */
static bool source_from_import(source_mesh *s, const ossa_raw_mesh *m)
{
    memset(s, 0, sizeof *s);
    s->vertex_count = m->vertex_count;
    s->positions = malloc(sizeof(double) * 3 * (size_t)m->vertex_count);
    s->normals = malloc(sizeof(double) * 3 * (size_t)m->vertex_count);
    for (int v = 0; v < m->vertex_count; ++v) {
        const double p[3] = {m->positions[v].x, m->positions[v].y, m->positions[v].z};
        const double q[3] = {m->normals[v].x, m->normals[v].y, m->normals[v].z};
        memcpy(s->positions + 3 * v, p, sizeof p);
        memcpy(s->normals + 3 * v, q, sizeof q);
    }
    s->skin_count = m->skin_joint_count;
    s->names = calloc((size_t)s->skin_count, sizeof *s->names);
    s->inverse_binds = calloc((size_t)s->skin_count, sizeof *s->inverse_binds);
    for (int k = 0; k < s->skin_count; ++k) {
        snprintf(s->names[k], sizeof s->names[k], "%s", m->skin_joints[k].name);
        s->inverse_binds[k] = ts_dmat_from_mat34(&m->skin_joints[k].inverse_bind);
    }
    return true;
}

/* ---- the pipeline: import, build, write, load ---- */

typedef struct character {
    ossa_import import;
    ossa_import anim;
    void *data; /* the loaded blob */
    ossa_blob blob;
} character;

static void character_free(character *c)
{
    ossa_import_free(&c->import);
    ossa_import_free(&c->anim);
    ossa_free(NULL, c->data);
    memset(c, 0, sizeof *c);
}

/* Imports `model` (and the clips of `clip_file` when not NULL), builds its
 * skeleton, clips and meshes, writes them to a file and loads that. */
static bool character_load(character *c, const char *model, const char *clip_file)
{
    memset(c, 0, sizeof *c);
    ossa_error e;
    if (ossa_import_file(ts_model_path(model), NULL, &c->import, &e) != OSSA_OK ||
        (clip_file && ossa_import_file(ts_model_path(clip_file), NULL, &c->anim, &e))) {
        fprintf(stderr, "import: %s\n", e.message);
        return false;
    }
    ossa_skeleton *skeleton = NULL;
    ossa_clip *clips[8] = {NULL};
    ossa_mesh *meshes[8] = {NULL};
    const ossa_import *clip_source = clip_file ? &c->anim : &c->import;
    const int clip_count = clip_source->clip_count < 8 ? clip_source->clip_count : 8;
    const int mesh_count = c->import.mesh_count < 8 ? c->import.mesh_count : 8;
    bool ok = ossa_skeleton_build(&c->import.skeleton, NULL, &skeleton, NULL, &e) == OSSA_OK;
    for (int i = 0; ok && i < clip_count; ++i)
        ok = ossa_clip_build(&clip_source->clips[i], skeleton, NULL, &clips[i], NULL, &e) ==
             OSSA_OK;
    for (int i = 0; ok && i < mesh_count; ++i)
        ok = ossa_mesh_build(&c->import.meshes[i], skeleton, NULL, &meshes[i], NULL, &e) ==
             OSSA_OK;
    char path[512];
    snprintf(path, sizeof path, "%s/character.ossa", ts_temp_dir());
    if (ok) {
        ossa_blob_contents contents = {skeleton, (const ossa_clip *const *)clips, clip_count,
                                       (const ossa_mesh *const *)meshes, mesh_count};
        ok = ossa_blob_write_file(path, &contents, &e) == OSSA_OK &&
             ossa_blob_load_file(path, NULL, &c->blob, &c->data, &e) == OSSA_OK;
        unlink(path);
    }
    if (!ok)
        fprintf(stderr, "%s: %s\n", model, e.message);
    for (int i = 0; i < 8; ++i) {
        ossa_clip_free(clips[i], NULL);
        ossa_mesh_free(meshes[i], NULL);
    }
    ossa_skeleton_free(skeleton, NULL);
    return ok;
}

/* ---- posing and skinning through the runtime ---- */

/* model = local->model of the local pose, then palette and skinning of the
 * mesh; the skinned stream is returned in source order, 3 floats per vertex
 * for positions and normals. */
static bool skin_pose(const ossa_blob *blob, const ossa_mesh *mesh, const ossa_transform *local,
                      ossa_mat34 *model, float *positions, float *normals)
{
    const ossa_skeleton *s = blob->skeleton;
    const int joints = ossa_skeleton_joint_count(s), skins = ossa_mesh_skin_joint_count(mesh);
    const int n = ossa_mesh_vertex_count(mesh);
    const size_t stride = (size_t)ossa_mesh_skinned_stride(mesh);
    ossa_mat34 *palette = ts_aligned(sizeof(ossa_mat34) * (size_t)skins);
    float *skinned = ts_aligned(stride * (size_t)n);
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(s);
    l2m.joint_count = joints;
    l2m.local = local;
    l2m.local_count = joints;
    l2m.character_count = 1;
    l2m.model = model;
    l2m.model_count = joints;
    ossa_palette_job pj = {0};
    pj.model = model;
    pj.model_count = joints;
    pj.joint_count = joints;
    pj.skin_joint = ossa_mesh_skin_joints(mesh);
    pj.inverse_bind = ossa_mesh_inverse_binds(mesh);
    pj.skin_joint_count = skins;
    pj.character_count = 1;
    pj.palette = palette;
    pj.palette_count = skins;
    ossa_skinning_job sj = {0};
    sj.mesh = mesh;
    sj.palette = palette;
    sj.palette_count = skins;
    sj.output = skinned;
    sj.output_bytes = stride * (size_t)n;
    const bool ok = ossa_local_to_model_job_run(&l2m) == OSSA_OK &&
                    ossa_palette_job_run(&pj) == OSSA_OK && ossa_skinning_job_run(&sj) == OSSA_OK;
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    for (int v = 0; ok && v < n; ++v) {
        const float *x = skinned + (size_t)v * stride / sizeof(float);
        memcpy(positions + 3 * (size_t)source[v], x, 3 * sizeof(float));
        memcpy(normals + 3 * (size_t)source[v], x + 4, 3 * sizeof(float));
    }
    free(palette);
    free(skinned);
    return ok;
}

/* ---- the bind pose from the inverse bind matrices ---- */

/* m = T * R * S in double, without shear; returns the shear found (the
 * largest cosine between two normalised axes). */
static double decompose(const ts_dmat *m, ossa_transform *out)
{
    double axis[3][3], scale[3];
    for (int c = 0; c < 3; ++c) {
        scale[c] = sqrt(m->m[0][c] * m->m[0][c] + m->m[1][c] * m->m[1][c] +
                        m->m[2][c] * m->m[2][c]);
        for (int r = 0; r < 3; ++r)
            axis[c][r] = m->m[r][c] / scale[c];
    }
    const double det = axis[0][0] * (axis[1][1] * axis[2][2] - axis[1][2] * axis[2][1]) -
                       axis[1][0] * (axis[0][1] * axis[2][2] - axis[0][2] * axis[2][1]) +
                       axis[2][0] * (axis[0][1] * axis[1][2] - axis[0][2] * axis[1][1]);
    if (det < 0.0) {
        scale[0] = -scale[0];
        for (int r = 0; r < 3; ++r)
            axis[0][r] = -axis[0][r];
    }
    double shear = 0.0;
    for (int a = 0; a < 3; ++a)
        for (int b = a + 1; b < 3; ++b)
            shear = fmax(shear, fabs(axis[a][0] * axis[b][0] + axis[a][1] * axis[b][1] +
                                     axis[a][2] * axis[b][2]));
    /* Rotation matrix R[r][c] = axis[c][r] -> quaternion (largest component
     * first, for precision). */
    const double r00 = axis[0][0], r11 = axis[1][1], r22 = axis[2][2];
    double q[4]; /* x, y, z, w */
    const double trace = r00 + r11 + r22;
    if (trace > 0.0) {
        const double t = sqrt(trace + 1.0) * 2.0;
        q[3] = 0.25 * t;
        q[0] = (axis[1][2] - axis[2][1]) / t;
        q[1] = (axis[2][0] - axis[0][2]) / t;
        q[2] = (axis[0][1] - axis[1][0]) / t;
    } else if (r00 > r11 && r00 > r22) {
        const double t = sqrt(1.0 + r00 - r11 - r22) * 2.0;
        q[3] = (axis[1][2] - axis[2][1]) / t;
        q[0] = 0.25 * t;
        q[1] = (axis[1][0] + axis[0][1]) / t;
        q[2] = (axis[2][0] + axis[0][2]) / t;
    } else if (r11 > r22) {
        const double t = sqrt(1.0 + r11 - r00 - r22) * 2.0;
        q[3] = (axis[2][0] - axis[0][2]) / t;
        q[0] = (axis[1][0] + axis[0][1]) / t;
        q[1] = 0.25 * t;
        q[2] = (axis[2][1] + axis[1][2]) / t;
    } else {
        const double t = sqrt(1.0 + r22 - r00 - r11) * 2.0;
        q[3] = (axis[0][1] - axis[1][0]) / t;
        q[0] = (axis[2][0] + axis[0][2]) / t;
        q[1] = (axis[2][1] + axis[1][2]) / t;
        q[2] = 0.25 * t;
    }
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    out->translation = (ossa_float3){(float)m->m[0][3], (float)m->m[1][3], (float)m->m[2][3]};
    out->rotation = (ossa_quat){(float)(q[0] / len), (float)(q[1] / len), (float)(q[2] / len),
                                (float)(q[3] / len)};
    out->scale = (ossa_float3){(float)scale[0], (float)scale[1], (float)scale[2]};
    return shear;
}

/* The bind pose's local transforms: skin joints at inverse(IBM) in model
 * space, the other joints at their rest transform below their parent.
 * Returns the largest shear a local matrix had, or INFINITY when a skin
 * joint is missing from the skeleton. */
static double bind_pose(const ossa_skeleton *s, const source_mesh *src, ossa_transform *local,
                        ts_dmat *model)
{
    const int n = ossa_skeleton_joint_count(s);
    const uint16_t *parents = ossa_skeleton_parents(s);
    const ossa_transform *rest = ossa_skeleton_rest_pose(s);
    bool *bound = calloc((size_t)n, sizeof *bound);
    for (int k = 0; k < src->skin_count; ++k) {
        const int j = ossa_skeleton_find_joint(s, src->names[k]);
        if (j < 0) {
            free(bound);
            return INFINITY;
        }
        model[j] = ts_dmat_inverse(&src->inverse_binds[k]);
        bound[j] = true;
    }
    double shear = 0.0;
    for (int j = 0; j < n; ++j) {
        const bool root = parents[j] == OSSA_NO_PARENT;
        if (!bound[j]) {
            const ts_dmat r = ts_dmat_from_transform(rest[j]);
            model[j] = root ? r : ts_dmat_mul(&model[parents[j]], &r);
        }
        const ts_dmat parent_inverse = root ? ts_dmat_identity()
                                            : ts_dmat_inverse(&model[parents[j]]);
        const ts_dmat l = ts_dmat_mul(&parent_inverse, &model[j]);
        shear = fmax(shear, decompose(&l, &local[j]));
    }
    free(bound);
    return shear;
}

static double diagonal(const double *p, int n)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (int v = 0; v < n; ++v)
        for (int k = 0; k < 3; ++k) {
            lo[k] = fmin(lo[k], p[3 * v + k]);
            hi[k] = fmax(hi[k], p[3 * v + k]);
        }
    return sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                (hi[2] - lo[2]) * (hi[2] - lo[2]));
}

static void check_bind_pose(const char *model_name, bool gltf)
{
    character c;
    REQUIRE(character_load(&c, model_name, NULL));
    REQUIRE(c.blob.mesh_count == 1);
    source_mesh src;
    REQUIRE(gltf ? source_from_gltf(&src, ts_model_path(model_name))
                 : source_from_import(&src, &c.import.meshes[0]));
    const ossa_mesh *mesh = ossa_blob_mesh(&c.blob, 0);
    const int n = ossa_mesh_vertex_count(mesh);
    REQUIRE(n == src.vertex_count);
    const int joints = ossa_skeleton_joint_count(c.blob.skeleton);
    ossa_transform *local = malloc(sizeof *local * (size_t)joints);
    ts_dmat *model_d = malloc(sizeof *model_d * (size_t)joints);
    ossa_mat34 *model = ts_aligned(sizeof(ossa_mat34) * (size_t)joints);
    float *positions = malloc(sizeof(float) * 3 * (size_t)n);
    float *normals = malloc(sizeof(float) * 3 * (size_t)n);
    const double shear = bind_pose(c.blob.skeleton, &src, local, model_d);
    CHECK_NEAR(shear, 0.0, SHEAR_TOLERANCE);
    REQUIRE(skin_pose(&c.blob, mesh, local, model, positions, normals));
    const double size = diagonal(src.positions, n);
    double worst_p = 0.0, worst_n = 0.0;
    int worst_vertex = 0;
    for (int v = 0; v < n; ++v)
        for (int k = 0; k < 3; ++k) {
            const double dp = fabs(positions[3 * v + k] - src.positions[3 * v + k]);
            if (!(dp <= worst_p)) /* NaN counts as larger */
                worst_p = dp, worst_vertex = v;
            const double dn = fabs(normals[3 * v + k] - src.normals[3 * v + k]);
            worst_n = dn <= worst_n ? worst_n : dn;
        }
    fprintf(stderr, "  %s: %d vertices, largest bind-pose difference %.3g (%.2g of the model's "
                    "size %.4g) at source vertex %d, normals %.3g\n",
            model_name, n, worst_p, worst_p / size, size, worst_vertex, worst_n);
    CHECK_NEAR(worst_p / size, 0.0, BIND_POSITION_TOLERANCE);
    CHECK_NEAR(worst_n, 0.0, BIND_NORMAL_TOLERANCE);
    free(local), free(model_d), free(model), free(positions), free(normals);
    source_free(&src);
    character_free(&c);
}

#define MODEL_OR_SKIP(name)                                                                    \
    do {                                                                                       \
        if (!ts_model_path(name))                                                              \
            SKIP("model " name " not found (set OSSA_MODELS or add ../shared/models)");         \
    } while (0)

TEST(bind_pose_skins_cesium_man_to_its_source_positions)
{
    MODEL_OR_SKIP("khronos/cesium_man.gltf");
    check_bind_pose("khronos/cesium_man.gltf", true);
}

TEST(bind_pose_skins_rigged_simple_to_its_source_positions)
{
    MODEL_OR_SKIP("khronos/rigged_simple.gltf");
    check_bind_pose("khronos/rigged_simple.gltf", true);
}

TEST(bind_pose_skins_arnaud_to_its_source_positions)
{
    MODEL_OR_SKIP("pab/arnaud.fbx");
    check_bind_pose("pab/arnaud.fbx", false);
}

/* ---- animated: vertices stay attached ---- */

static double distance(const float *p, const double q[3])
{
    return sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                (p[2] - q[2]) * (p[2] - q[2]));
}

TEST(animated_arnaud_skins_to_finite_vertices_that_stay_attached)
{
    MODEL_OR_SKIP("pab/arnaud.fbx");
    MODEL_OR_SKIP("pab/walk.fbx");
    character c;
    REQUIRE(character_load(&c, "pab/arnaud.fbx", "pab/walk.fbx"));
    REQUIRE(c.blob.mesh_count == 1 && c.blob.clip_count == 1);
    const ossa_mesh *mesh = ossa_blob_mesh(&c.blob, 0);
    const ossa_clip *walk = ossa_blob_clip(&c.blob, 0);
    const ossa_raw_mesh *raw = &c.import.meshes[0];
    const int n = ossa_mesh_vertex_count(mesh), joints = ossa_skeleton_joint_count(c.blob.skeleton);
    /* Each source vertex's heaviest joint and its bind-pose distance to it. */
    int *heaviest = malloc(sizeof(int) * (size_t)n), *count = malloc(sizeof(int) * (size_t)n);
    int not_influenced = 0;
    double *bind_distance = malloc(sizeof(double) * (size_t)n);
    double *bind_positions = malloc(sizeof(double) * 3 * (size_t)n);
    const uint32_t *source = ossa_mesh_source_vertices(mesh);
    for (int r = 0; r < n; ++r) {
        uint16_t j[4];
        float w[4];
        const int k = ossa_mesh_vertex_influences(mesh, r, j, w);
        if (k < 1)
            ++not_influenced;
        int best = 0;
        for (int i = 1; i < k; ++i)
            best = w[i] > w[best] ? i : best;
        const int v = (int)source[r];
        heaviest[v] = ossa_mesh_skin_joints(mesh)[j[best]];
        count[v] = k;
        const ts_dmat ib = ts_dmat_from_mat34(&ossa_mesh_inverse_binds(mesh)[j[best]]);
        const ts_dmat bind = ts_dmat_inverse(&ib);
        const double at[3] = {bind.m[0][3], bind.m[1][3], bind.m[2][3]};
        const float p[3] = {raw->positions[v].x, raw->positions[v].y, raw->positions[v].z};
        bind_distance[v] = distance(p, at);
        for (int i = 0; i < 3; ++i)
            bind_positions[3 * v + i] = p[i];
    }
    const double size = diagonal(bind_positions, n);
    ossa_transform *local = malloc(sizeof *local * (size_t)joints);
    ossa_mat34 *model = ts_aligned(sizeof(ossa_mat34) * (size_t)joints);
    float *positions = malloc(sizeof(float) * 3 * (size_t)n);
    float *normals = malloc(sizeof(float) * 3 * (size_t)n);
    const float times[] = {0.1f, 0.45f, 0.8f, 1.2f};
    double worst_rigid = 0.0, worst_blended = 0.0, moved = 0.0;
    int not_finite = 0;
    for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t) {
        ossa_sampling_job sample = {0};
        sample.clips = &walk;
        sample.clip_count = 1;
        sample.time_s = &times[t];
        sample.character_count = 1;
        sample.rest_pose = ossa_skeleton_rest_pose(c.blob.skeleton);
        sample.rest_pose_count = joints;
        sample.output = local;
        sample.output_count = joints;
        REQUIRE(ossa_sampling_job_run(&sample) == OSSA_OK);
        REQUIRE(skin_pose(&c.blob, mesh, local, model, positions, normals));
        for (int v = 0; v < n; ++v) {
            for (int k = 0; k < 3; ++k)
                not_finite += !isfinite(positions[3 * v + k]) || !isfinite(normals[3 * v + k]);
            const ossa_mat34 *m = &model[heaviest[v]];
            const double at[3] = {m->m[0][3], m->m[1][3], m->m[2][3]};
            const double d = distance(&positions[3 * v], at);
            moved = fmax(moved, distance(&positions[3 * v], &bind_positions[3 * v]));
            const double change = fabs(d - bind_distance[v]); /* NaN: counted above */
            if (count[v] == 1)
                worst_rigid = fmax(worst_rigid, change);
            else
                worst_blended = fmax(worst_blended, change);
        }
    }
    fprintf(stderr, "  walk at 4 times: distance to the heaviest joint changed by at most %.3g "
                    "(1 influence) and %.3g (blended), model size %.4g\n",
            worst_rigid, worst_blended, size);
    CHECK(moved > 0.1 * size); /* the walk does move the body */
    CHECK_INT(not_influenced, 0);
    CHECK_INT(not_finite, 0);
    CHECK_NEAR(worst_rigid / size, 0.0, BIND_POSITION_TOLERANCE);
    CHECK_NEAR(worst_blended / size, 0.0, BLENDED_DISTANCE_TOLERANCE);
    free(heaviest), free(count), free(bind_distance), free(bind_positions), free(local),
        free(model), free(positions), free(normals);
    character_free(&c);
}

UTEST_MAIN(bind_pose_skins_cesium_man_to_its_source_positions,
           bind_pose_skins_rigged_simple_to_its_source_positions,
           bind_pose_skins_arnaud_to_its_source_positions,
           animated_arnaud_skins_to_finite_vertices_that_stay_attached)
