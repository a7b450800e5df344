/* import_clip_test.c - imported clips against what their files define:
 * durations (glTF samplers, FBX take stop times), STEP / LINEAR keys exact
 * at the source key times, CUBICSPLINE against the glTF spec's Hermite
 * formula, FBX curves applied once over folded helpers. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_reference.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER OSSA_TEST_NEEDS_CJSON */

/* ---- durations ---- */

/* The take's stop time straight from the FBX binary: the last "LocalStop"
 * property, a KTime (46186158000 ticks per second) after three strings. */
static double fbx_local_stop(const char *path)
{
    size_t size;
    unsigned char *d = ref_read_file(path, &size);
    double stop = -1.0;
    for (size_t i = 0; d && i + 9 < size; ++i) {
        if (memcmp(d + i, "LocalStop", 9) != 0)
            continue;
        size_t p = i + 9;
        int ok = 1;
        for (int k = 0; k < 3 && ok; ++k) {
            uint32_t n;
            ok = p + 5 <= size && d[p] == 'S';
            if (ok) {
                memcpy(&n, d + p + 1, 4);
                p += 5 + n;
            }
        }
        if (ok && p + 9 <= size && d[p] == 'L') {
            int64_t ticks;
            memcpy(&ticks, d + p + 1, 8);
            stop = (double)ticks / 46186158000.0;
        }
    }
    free(d);
    return stop;
}

TEST(import_fbx_clip_duration_is_the_takes_length)
{
    const char *files[] = {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx", "pab/crossarms.fbx"};
    for (int f = 0; f < 4; ++f) {
        const char *path = ts_model_path(files[f]);
        if (!path)
            SKIP("pab models not found");
        const double expected = fbx_local_stop(path);
        REQUIRE(expected > 0.0);
        ossa_import im;
        REQUIRE(ts_import_model(files[f], NULL, &im));
        REQUIRE(im.clip_count == 1);
        CHECK_NEAR(im.clips[0].duration_s, expected, 1e-6);
        ossa_skeleton *s = ts_import_skeleton(&im);
        ossa_clip *clip = ts_clip_build(&im.clips[0], s, 0.0f);
        REQUIRE(clip);
        CHECK_NEAR(ossa_clip_duration(clip), expected, 1e-6);
        /* The files' keys are on a 30 Hz grid (walk's all, the others' mostly:
         * the rate may rise to a multiple to stay within the tolerance). */
        const double multiple = ossa_clip_rate(clip) / 30.0;
        CHECK(multiple >= 1.0 - 1e-6);
        CHECK_NEAR(multiple, floor(multiple + 0.5), 1e-4);
        ossa_clip_free(clip, NULL);
        ossa_skeleton_free(s, NULL);
        ossa_import_free(&im);
    }
}

TEST(import_gltf_clip_duration_is_the_last_sampler_time)
{
    const char *files[] = {"khronos/interpolation_test.gltf", "khronos/cesium_man.gltf",
                           "khronos/rigged_simple.gltf"};
    for (int f = 0; f < 3; ++f) {
        const char *path = ts_model_path(files[f]);
        if (!path)
            SKIP("khronos models not found");
        ref_gltf g;
        REQUIRE(ref_open(&g, path) == 0);
        ossa_import im;
        REQUIRE(ts_import_model(files[f], NULL, &im));
        const cJSON *anims = cJSON_GetObjectItem(g.json, "animations");
        REQUIRE(im.clip_count == cJSON_GetArraySize(anims));
        for (int a = 0; a < im.clip_count; ++a) {
            const cJSON *samplers = cJSON_GetObjectItem(cJSON_GetArrayItem(anims, a), "samplers");
            double last = 0.0;
            for (int s = 0; s < cJSON_GetArraySize(samplers); ++s) {
                int n, c;
                double *t = ref_accessor(&g, ref_int(cJSON_GetArrayItem(samplers, s), "input", 0),
                                         &n, &c);
                for (int k = 0; k < n; ++k)
                    last = fmax(last, t[k]);
                free(t);
            }
            CHECK_NEAR(im.clips[a].duration_s, last, 1e-6);
        }
        ossa_import_free(&im);
        ref_close(&g);
    }
}

/* ---- interpolation_test.gltf, sampler by sampler ---- */

typedef struct ref_curve {
    const char *path;   /* "translation", "rotation", "scale" */
    const char *interp; /* "STEP", "LINEAR", "CUBICSPLINE" */
    const char *node;
    double *times, *values; /* values: per key, (in, value, out) for CUBICSPLINE */
    int keys, components;
} ref_curve;

static ref_curve ref_curve_of(ref_gltf *g, int animation)
{
    ref_curve rc;
    const cJSON *anim = cJSON_GetArrayItem(cJSON_GetObjectItem(g->json, "animations"), animation);
    const cJSON *ch = cJSON_GetArrayItem(cJSON_GetObjectItem(anim, "channels"), 0);
    const cJSON *target = cJSON_GetObjectItem(ch, "target");
    const cJSON *sampler = cJSON_GetArrayItem(cJSON_GetObjectItem(anim, "samplers"),
                                              ref_int(ch, "sampler", 0));
    rc.path = cJSON_GetStringValue(cJSON_GetObjectItem(target, "path"));
    rc.interp = cJSON_GetStringValue(cJSON_GetObjectItem(sampler, "interpolation"));
    rc.node = cJSON_GetStringValue(
        cJSON_GetObjectItem(ref_item(g, "nodes", ref_int(target, "node", 0)), "name"));
    int c, n;
    rc.times = ref_accessor(g, ref_int(sampler, "input", 0), &rc.keys, &c);
    rc.values = ref_accessor(g, ref_int(sampler, "output", 0), &n, &rc.components);
    return rc;
}

/* The key's value (the middle of a CUBICSPLINE triplet). */
static const double *key_value(const ref_curve *rc, int k)
{
    const int per_key = strcmp(rc->interp, "CUBICSPLINE") == 0 ? 3 : 1;
    return rc->values + (size_t)(k * per_key + (per_key == 3)) * (size_t)rc->components;
}

/* The glTF 2.0 spec's cubic Hermite spline at time t (appendix C):
 * p(s) = (2s^3 - 3s^2 + 1) v_k + (s^3 - 2s^2 + s) dt b_k + (-2s^3 + 3s^2) v_k+1
 *        + (s^3 - s^2) dt a_k+1, with b the out- and a the in-tangent. */
static void hermite(const ref_curve *rc, int k, double t, double *out)
{
    const double t0 = rc->times[k], t1 = rc->times[k + 1], dt = t1 - t0, s = (t - t0) / dt;
    const int c = rc->components;
    const double *v0 = rc->values + (size_t)(3 * k + 1) * (size_t)c;
    const double *b0 = rc->values + (size_t)(3 * k + 2) * (size_t)c;
    const double *a1 = rc->values + (size_t)(3 * (k + 1)) * (size_t)c;
    const double *v1 = rc->values + (size_t)(3 * (k + 1) + 1) * (size_t)c;
    double len = 0.0;
    for (int i = 0; i < c; ++i) {
        out[i] = (2 * s * s * s - 3 * s * s + 1) * v0[i] + (s * s * s - 2 * s * s + s) * dt * b0[i] +
                 (-2 * s * s * s + 3 * s * s) * v1[i] + (s * s * s - s * s) * dt * a1[i];
        len += out[i] * out[i];
    }
    if (c == 4) /* rotations are normalised after the spline */
        for (int i = 0; i < 4; ++i)
            out[i] /= sqrt(len);
}

/* The component of a sampled transform that a curve drives. */
static void sampled(const ossa_transform *x, const char *path, double out[4])
{
    if (strcmp(path, "rotation") == 0) {
        out[0] = x->rotation.x, out[1] = x->rotation.y, out[2] = x->rotation.z,
        out[3] = x->rotation.w;
    } else {
        const ossa_float3 v = strcmp(path, "translation") == 0 ? x->translation : x->scale;
        out[0] = v.x, out[1] = v.y, out[2] = v.z, out[3] = 0.0;
    }
}

/* Largest difference; quaternions compared up to sign. */
static double difference(const double *a, const double *b, int components)
{
    double plus = 0.0, minus = 0.0;
    for (int i = 0; i < components; ++i) {
        plus = fmax(plus, fabs(a[i] - b[i]));
        minus = fmax(minus, fabs(a[i] + b[i]));
    }
    return components == 4 ? fmin(plus, minus) : plus;
}

typedef struct interp_fixture {
    ref_gltf g;
    ossa_import im;
    ossa_skeleton *s;
} interp_fixture;

static bool open_interpolation_test(interp_fixture *f)
{
    const char *path = ts_model_path("khronos/interpolation_test.gltf");
    if (!path || ref_open(&f->g, path) != 0)
        return false;
    if (!ts_import_model("khronos/interpolation_test.gltf", NULL, &f->im))
        return false;
    f->s = ts_import_skeleton(&f->im);
    return f->s != NULL;
}

static void close_interpolation_test(interp_fixture *f)
{
    ossa_skeleton_free(f->s, NULL);
    ossa_import_free(&f->im);
    ref_close(&f->g);
}

TEST(import_linear_and_step_keys_are_exact_at_source_key_times)
{
    if (!ts_model_path("khronos/interpolation_test.gltf"))
        SKIP("khronos/interpolation_test.gltf not found");
    interp_fixture f;
    REQUIRE(open_interpolation_test(&f));
    int curves = 0;
    for (int a = 0; a < f.im.clip_count; ++a) {
        ref_curve rc = ref_curve_of(&f.g, a);
        if (strcmp(rc.interp, "CUBICSPLINE") != 0) {
            ossa_clip *clip = ts_clip_build(&f.im.clips[a], f.s, 0.0f);
            REQUIRE(clip);
            const int j = ossa_skeleton_find_joint(f.s, rc.node);
            REQUIRE(j >= 0);
            for (int k = 0; k < rc.keys; ++k) {
                ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, (float)rc.times[k],
                                                          OSSA_ROTATION_NLERP);
                double got[4];
                sampled(&x, rc.path, got);
                CHECK_NEAR(difference(got, key_value(&rc, k), rc.components), 0.0, 1e-6);
            }
            ++curves;
            ossa_clip_free(clip, NULL);
        }
        free(rc.times);
        free(rc.values);
    }
    CHECK_INT(curves, 5); /* 3 STEP and 2 LINEAR samplers in the file */
    close_interpolation_test(&f);
}

TEST(import_step_curves_hold_each_key_until_the_next)
{
    if (!ts_model_path("khronos/interpolation_test.gltf"))
        SKIP("khronos/interpolation_test.gltf not found");
    interp_fixture f;
    REQUIRE(open_interpolation_test(&f));
    int curves = 0;
    for (int a = 0; a < f.im.clip_count; ++a) {
        ref_curve rc = ref_curve_of(&f.g, a);
        if (strcmp(rc.interp, "STEP") == 0) {
            ossa_clip *clip = ts_clip_build(&f.im.clips[a], f.s, 0.0f);
            REQUIRE(clip);
            const int j = ossa_skeleton_find_joint(f.s, rc.node);
            for (int k = 0; k + 1 < rc.keys; ++k)
                for (double u = 0.1; u < 1.0; u += 0.2) {
                    const double t = rc.times[k] + u * (rc.times[k + 1] - rc.times[k]);
                    ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, (float)t,
                                                              OSSA_ROTATION_NLERP);
                    double got[4];
                    sampled(&x, rc.path, got);
                    CHECK_NEAR(difference(got, key_value(&rc, k), rc.components), 0.0, 1e-6);
                }
            ++curves;
            ossa_clip_free(clip, NULL);
        }
        free(rc.times);
        free(rc.values);
    }
    CHECK_INT(curves, 3);
    close_interpolation_test(&f);
}

/* assimp 5.2 drops the tangents; the importer reads them, so the raw curve
 * and a clip sampled between keys (on its frames) follow the spec's spline. */
TEST(import_cubicspline_follows_the_hermite_formula_between_keys)
{
    if (!ts_model_path("khronos/interpolation_test.gltf"))
        SKIP("khronos/interpolation_test.gltf not found");
    interp_fixture f;
    REQUIRE(open_interpolation_test(&f));
    int curves = 0;
    for (int a = 0; a < f.im.clip_count; ++a) {
        ref_curve rc = ref_curve_of(&f.g, a);
        if (strcmp(rc.interp, "CUBICSPLINE") == 0) {
            const ossa_raw_joint_track *track = ossa_raw_clip_find_track(&f.im.clips[a], rc.node);
            REQUIRE(track);
            /* Keys are on multiples of 1/24 s: at 96 Hz the quarter, half and
             * three-quarter points between keys are frames. */
            ossa_clip *clip = ts_clip_build(&f.im.clips[a], f.s, 96.0f);
            REQUIRE(clip);
            const int j = ossa_skeleton_find_joint(f.s, rc.node);
            bool moved = false;
            for (int k = 0; k + 1 < rc.keys; ++k)
                for (int quarter = 1; quarter <= 3; ++quarter) {
                    const double t = rc.times[k] + 0.25 * quarter * (rc.times[k + 1] - rc.times[k]);
                    double expected[4], raw[4], linear[4];
                    hermite(&rc, k, t, expected);
                    ossa_transform x = ossa_clip_sample_joint(clip, NULL, j, (float)t,
                                                              OSSA_ROTATION_NLERP);
                    double got[4];
                    sampled(&x, rc.path, got);
                    if (rc.components == 4) {
                        ossa_quat q = ossa_raw_track_quat_eval(&track->rotation, (float)t);
                        raw[0] = q.x, raw[1] = q.y, raw[2] = q.z, raw[3] = q.w;
                    } else {
                        ossa_float3 v = ossa_raw_track3_eval(strcmp(rc.path, "translation") == 0
                                                                 ? &track->translation
                                                                 : &track->scale,
                                                             (float)t);
                        raw[0] = v.x, raw[1] = v.y, raw[2] = v.z;
                    }
                    CHECK_NEAR(difference(raw, expected, rc.components), 0.0, 1e-5);
                    CHECK_NEAR(difference(got, expected, rc.components), 0.0, 1e-5);
                    /* The spline is not the straight line between the keys. */
                    const double u = 0.25 * quarter;
                    for (int i = 0; i < rc.components; ++i)
                        linear[i] = (1 - u) * key_value(&rc, k)[i] + u * key_value(&rc, k + 1)[i];
                    moved |= difference(expected, linear, rc.components) > 1e-3;
                }
            CHECK(moved);
            ++curves;
            ossa_clip_free(clip, NULL);
        }
        free(rc.times);
        free(rc.values);
    }
    CHECK_INT(curves, 4); /* "Linear Scale" is CUBICSPLINE in the file too */
    close_interpolation_test(&f);
}

/* The spec's value of a curve at any time t (STEP, LINEAR: slerp for
 * rotations, CUBICSPLINE), held before the first and after the last key. */
static void spec_eval(const ref_curve *rc, double t, double *out)
{
    const int c = rc->components;
    int k = 0;
    while (k + 1 < rc->keys && rc->times[k + 1] <= t)
        ++k;
    if (t <= rc->times[0] || k + 1 >= rc->keys || strcmp(rc->interp, "STEP") == 0) {
        memcpy(out, key_value(rc, t <= rc->times[0] ? 0 : k), sizeof(double) * (size_t)c);
        if (c == 4) {
            const double len = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
            for (int i = 0; i < 4; ++i)
                out[i] /= len;
        }
        return;
    }
    if (strcmp(rc->interp, "CUBICSPLINE") == 0) {
        hermite(rc, k, t, out);
        return;
    }
    const double s = (t - rc->times[k]) / (rc->times[k + 1] - rc->times[k]);
    const double *a = key_value(rc, k), *b = key_value(rc, k + 1);
    if (c == 4) {
        ts_dquat qa = {a[0], a[1], a[2], a[3]}, qb = {b[0], b[1], b[2], b[3]};
        const ts_dquat q = ts_dquat_slerp(ts_dquat_normalize(qa), ts_dquat_normalize(qb), s);
        out[0] = q.x, out[1] = q.y, out[2] = q.z, out[3] = q.w;
        return;
    }
    for (int i = 0; i < c; ++i)
        out[i] = a[i] + (b[i] - a[i]) * s;
}

/* How far the corners of a node's cube (+-1 on each axis) are from where
 * the spec puts them, when the curve's part of the node transform (and only
 * it) differs: got and want hold that part's value. */
static double corner_error(const char *path, const double *got, const double *want)
{
    double worst = 0.0;
    for (int corner = 0; corner < 8; ++corner) {
        const double p[3] = {corner & 1 ? 1 : -1, corner & 2 ? 1 : -1, corner & 4 ? 1 : -1};
        double a[3], b[3];
        if (strcmp(path, "translation") == 0) {
            for (int i = 0; i < 3; ++i)
                a[i] = p[i] + got[i], b[i] = p[i] + want[i];
        } else if (strcmp(path, "scale") == 0) {
            for (int i = 0; i < 3; ++i)
                a[i] = p[i] * got[i], b[i] = p[i] * want[i];
        } else {
            const ts_dquat qa = {got[0], got[1], got[2], got[3]}, qb = {want[0], want[1], want[2], want[3]};
            const ts_dquat pv = {p[0], p[1], p[2], 0};
            const ts_dquat ca = {-qa.x, -qa.y, -qa.z, qa.w}, cb = {-qb.x, -qb.y, -qb.z, qb.w};
            const ts_dquat ra = ts_dquat_mul(ts_dquat_mul(qa, pv), ca);
            const ts_dquat rb = ts_dquat_mul(ts_dquat_mul(qb, pv), cb);
            a[0] = ra.x, a[1] = ra.y, a[2] = ra.z, b[0] = rb.x, b[1] = rb.y, b[2] = rb.z;
        }
        const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
        worst = fmax(worst, sqrt(dx * dx + dy * dy + dz * dz));
    }
    return worst;
}

/* Issue 10's goal: at default settings every clip follows the spec within
 * 1e-4 of the model's height (the cubes' extent: their centres are 0 to 6.96
 * up and they reach 1 either side). CUBICSPLINE curves are resampled at the
 * rate their error asks for and compressed, each cube measured at its reach
 * as ossa build does; every key time and 400 random times are checked at
 * the eight corners of each cube. */
TEST(import_interpolation_test_follows_the_spec_within_1e_4_of_its_height)
{
    if (!ts_model_path("khronos/interpolation_test.gltf"))
        SKIP("khronos/interpolation_test.gltf not found");
    interp_fixture f;
    REQUIRE(open_interpolation_test(&f));
    double lowest = INFINITY, highest = -INFINITY;
    const cJSON *nodes = cJSON_GetObjectItem(f.g.json, "nodes");
    for (int n = 0; n < cJSON_GetArraySize(nodes); ++n) {
        const cJSON *node = cJSON_GetArrayItem(nodes, n);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(node, "name"));
        if (!name || strncmp(name, "Cube", 4) != 0)
            continue;
        const cJSON *t = cJSON_GetObjectItem(node, "translation");
        const double y = t ? cJSON_GetArrayItem(t, 1)->valuedouble : 0.0;
        lowest = fmin(lowest, y - 1.0);
        highest = fmax(highest, y + 1.0);
    }
    const double height = highest - lowest, bound = 1e-4 * height;
    CHECK(height > 8.9 && height < 9.0);
    /* As ossa build does: each cube is a rigid mesh, measured at its reach. */
    const int joints = ossa_skeleton_joint_count(f.s);
    float *reach = calloc((size_t)joints, sizeof *reach);
    CHECK_INT(ossa_clip_rigid_mesh_reach(f.s, f.im.meshes, f.im.mesh_count, reach), 9);
    ossa_clip_build_options options;
    memset(&options, 0, sizeof options); /* compressed, as ossa build makes them */
    options.joint_distances = reach;
    options.joint_distance_count = joints;
    ts_rng r = ts_rng_make(1010);
    for (int a = 0; a < f.im.clip_count; ++a) {
        ref_curve rc = ref_curve_of(&f.g, a);
        ossa_clip *clip = NULL;
        REQUIRE(ossa_clip_build(&f.im.clips[a], f.s, &options, &clip, NULL, NULL) == OSSA_OK);
        const int j = ossa_skeleton_find_joint(f.s, rc.node);
        REQUIRE(j >= 0);
        const double duration = ossa_clip_duration(clip);
        double worst = 0.0;
        for (int i = 0; i < 400 + rc.keys; ++i) {
            const float t = i < 400 ? (float)ts_uniform(&r, 0.0, duration) : (float)rc.times[i - 400];
            double want[4] = {0, 0, 0, 0}, got[4] = {0, 0, 0, 0};
            spec_eval(&rc, t, want);
            const ossa_transform x = ossa_clip_sample_joint(clip, ossa_skeleton_rest_pose(f.s), j,
                                                            t, OSSA_ROTATION_NLERP);
            sampled(&x, rc.path, got);
            worst = fmax(worst, corner_error(rc.path, got, want));
        }
        fprintf(stderr, "  %-24s %6.1f Hz: %.3g of the height off the spec\n",
                ossa_clip_name(clip), (double)ossa_clip_rate(clip), worst / height);
        CHECK(worst <= bound);
        ossa_clip_free(clip, NULL);
        free(rc.times);
        free(rc.values);
    }
    free(reach);
    close_interpolation_test(&f);
}

/* ---- FBX: curves applied once over the folded pivot helpers ---- */

/* walk.fbx's nodes hold the take's first frame: each joint's first key
 * (the whole local transform, as assimp gives it) must equal its rest pose
 * (helpers folded). Applying the helpers again would move Hips by its
 * translation and turn it by its pre-rotation. */
TEST(import_fbx_first_keys_equal_the_folded_node_pose)
{
    ossa_import im;
    TS_IMPORT_OR_SKIP("pab/walk.fbx", NULL, &im);
    int checked = 0;
    for (int j = 0; j < im.skeleton.joint_count; ++j) {
        const ossa_raw_joint *joint = &im.skeleton.joints[j];
        const ossa_raw_joint_track *t = ossa_raw_clip_find_track(&im.clips[0], joint->name);
        REQUIRE(t);
        ossa_transform key = {t->translation.values[0], t->rotation.values[0], t->scale.values[0]};
        const ts_dmat a = ts_dmat_from_transform(key), b = ts_dmat_from_transform(joint->rest);
        double diff = 0.0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c)
                diff = fmax(diff, fabs(a.m[r][c] - b.m[r][c]));
        CHECK_NEAR(diff, 0.0, 1e-3);
        ++checked;
    }
    CHECK(checked > 50);
    ossa_import_free(&im);
}

UTEST_MAIN(import_fbx_clip_duration_is_the_takes_length,
           import_gltf_clip_duration_is_the_last_sampler_time,
           import_linear_and_step_keys_are_exact_at_source_key_times,
           import_step_curves_hold_each_key_until_the_next,
           import_cubicspline_follows_the_hermite_formula_between_keys,
           import_interpolation_test_follows_the_spec_within_1e_4_of_its_height,
           import_fbx_first_keys_equal_the_folded_node_pose)
