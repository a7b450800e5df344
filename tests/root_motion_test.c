/* root_motion_test.c - root motion extracted by the clip builder and
 * accumulated by the root motion jobs, against the source curves evaluated
 * in double: a character stepping its playhead forwards or backwards, at
 * speeds from -2 to 3, across up to 5 loop ends, lands where the source's
 * own trajectory (looped by repeating its displacement) puts it; bad input
 * is refused. pab run's loop against its FBX source is root_motion_pab_test.c
 * (it needs the importer); the lane job is compared with this reference in
 * lanes_motion_test.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "root_motion_support.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define PI 3.14159265358979323846
#define KEYS 31
#define RATE 30.0f

/* ---- a move on the ground, in double: yaw about +y, then (x, z) ---- */

typedef struct g2 {
    double yaw, x, z;
} g2;

static g2 g2_compose(g2 a, g2 b)
{
    const double c = cos(a.yaw), s = sin(a.yaw);
    return (g2){a.yaw + b.yaw, a.x + b.x * c + b.z * s, a.z + b.z * c - b.x * s};
}

static g2 g2_inverse(g2 m)
{
    const double c = cos(m.yaw), s = sin(m.yaw);
    return (g2){-m.yaw, -(m.x * c - m.z * s), -(m.z * c + m.x * s)};
}

/* L^n by repeated composition (n of either sign). */
static g2 g2_power(g2 l, int n)
{
    g2 r = {0, 0, 0};
    const g2 step = n >= 0 ? l : g2_inverse(l);
    for (int k = 0; k < abs(n); ++k)
        r = g2_compose(r, step);
    return r;
}

static ts_dmat g2_matrix(g2 m)
{
    const double c = cos(m.yaw), s = sin(m.yaw);
    const ts_dmat r = {{{c, 0, s, m.x}, {0, 1, 0, 0}, {-s, 0, c, m.z}}};
    return r;
}


/* ---- the synthetic source: a still, tilted base (its local z is model
 * up), hips walking a curve on the base's xy plane while turning, a foot ---- */

static ossa_transform base_rest(void)
{
    ossa_transform t = ossa_transform_identity();
    t.translation = (ossa_float3){0.3f, 0.0f, -0.2f};
    t.rotation = ossa_quat_from_axis_angle((ossa_float3){1, 0, 0}, (float)(-PI / 2));
    return t;
}

static ossa_transform hips_at(double t)
{
    ossa_transform h = ossa_transform_identity();
    h.translation = (ossa_float3){(float)(1.5 * t + 0.1 * sin(2 * PI * t)), (float)(0.4 * t * t),
                                  (float)(0.9 + 0.03 * sin(4 * PI * t))};
    const ossa_quat yaw =
        ossa_quat_from_axis_angle((ossa_float3){0, 0, 1}, (float)(0.5 * t + 0.15 * sin(2 * PI * t)));
    const ossa_quat wobble =
        ossa_quat_from_axis_angle((ossa_float3){1, 0, 0}, (float)(0.1 * sin(2 * PI * t)));
    h.rotation = ossa_quat_mul(yaw, wobble);
    return h;
}

static ossa_transform foot_at(double t)
{
    ossa_transform f = ossa_transform_identity();
    f.translation = (ossa_float3){0.1f, 0.0f, -0.8f};
    f.rotation = ossa_quat_from_axis_angle((ossa_float3){0, 1, 0}, (float)(0.4 * sin(2 * PI * t)));
    return f;
}

typedef struct source {
    ossa_skeleton *skeleton;
    float times[KEYS];
    ossa_float3 t[2][KEYS];
    ossa_quat r[2][KEYS];
    ossa_raw_joint_track tracks[2];
    ossa_raw_clip raw;
} source;

static int source_make(source *s)
{
    memset(s, 0, sizeof *s);
    ossa_raw_joint joints[3] = {{"base", -1, base_rest()},
                                {"hips", 0, hips_at(0)},
                                {"foot", 1, foot_at(0)}};
    ossa_raw_skeleton rs = {joints, 3};
    ossa_error e;
    if (ossa_skeleton_build(&rs, NULL, &s->skeleton, NULL, &e) != OSSA_OK)
        return 0;
    for (int k = 0; k < KEYS; ++k) {
        s->times[k] = (float)k / RATE;
        const ossa_transform h = hips_at(k / (double)RATE), f = foot_at(k / (double)RATE);
        s->t[0][k] = h.translation, s->r[0][k] = h.rotation;
        s->t[1][k] = f.translation, s->r[1][k] = f.rotation;
    }
    const char *names[2] = {"hips", "foot"};
    for (int j = 0; j < 2; ++j) {
        s->tracks[j].joint_name = names[j];
        s->tracks[j].translation = (ossa_raw_track3){s->times, s->t[j], NULL, NULL, KEYS,
                                                     OSSA_INTERP_LINEAR};
        s->tracks[j].rotation = (ossa_raw_track_quat){s->times, s->r[j], NULL, NULL, KEYS,
                                                      OSSA_INTERP_LINEAR};
    }
    s->raw = (ossa_raw_clip){"walk", 1.0f, s->tracks, 2};
    return 1;
}

/* The source's model transforms of hips (1) and foot (2) at t, in double:
 * LINEAR curves, translations lerped and rotations slerped (glTF's
 * definition), evaluated here from the keys. */
static void source_model(const source *s, double t, ts_dmat model[3])
{
    double u = t * RATE;
    int k = (int)floor(u);
    k = k < 0 ? 0 : (k > KEYS - 2 ? KEYS - 2 : k);
    const double a = fmin(fmax(u - k, 0.0), 1.0);
    model[0] = ts_dmat_from_transform(base_rest());
    for (int j = 0; j < 2; ++j) {
        const ossa_float3 p0 = s->t[j][k], p1 = s->t[j][k + 1];
        const ts_dquat q = ts_dquat_slerp(ts_dquat_from(s->r[j][k]), ts_dquat_from(s->r[j][k + 1]), a);
        ossa_transform l = ossa_transform_identity();
        l.translation = (ossa_float3){(float)(p0.x + (p1.x - p0.x) * a),
                                     (float)(p0.y + (p1.y - p0.y) * a),
                                     (float)(p0.z + (p1.z - p0.z) * a)};
        ts_dmat m = ts_dmat_from_transform(l);
        /* the rotation in double, not through a float quaternion */
        const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y;
        const double xz = q.x * q.z, yz = q.y * q.z, wx = q.w * q.x, wy = q.w * q.y;
        const double wz = q.w * q.z;
        const double r[3][3] = {{1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy)},
                                {2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx)},
                                {2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy)}};
        for (int i = 0; i < 3; ++i)
            for (int c = 0; c < 3; ++c)
                m.m[i][c] = r[i][c];
        model[j + 1] = ts_dmat_mul(&model[j], &m);
    }
}

/* The source's motion from time 0 to t of a joint: its twist about +y and
 * its travel on the ground, M(t) = G(t) G(0)^-1. */
static g2 source_motion(const source *s, int joint, double t)
{
    ts_dmat m0[3], mt[3];
    source_model(s, 0.0, m0);
    source_model(s, t, mt);
    const double yaw = twist_between(&mt[joint], &m0[joint]);
    const double c = cos(yaw), sn = sin(yaw);
    const double x0 = m0[joint].m[0][3], z0 = m0[joint].m[2][3];
    return (g2){yaw, mt[joint].m[0][3] - (x0 * c + z0 * sn), mt[joint].m[2][3] - (z0 * c - x0 * sn)};
}

static ossa_clip *build_kind(const source *s, const char *joint, ossa_clip_build_report *report,
                            bool raw)
{
    ossa_clip_build_options o = {0};
    o.raw = raw;
    /* raw: the keys' rate, so frames are keys; compressed: the automatic
     * rate, which holds the in-place clip plus its motion to the tolerance
     * between frames too */
    o.rate = raw ? RATE : 0.0f;
    o.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    o.root_motion_joint = joint;
    ossa_clip *clip = NULL;
    ossa_error e;
    if (ossa_clip_build(&s->raw, s->skeleton, &o, &clip, report, &e) != OSSA_OK)
        fprintf(stderr, "build: %s\n", e.message);
    return clip;
}

/* The clip stored raw (the float keys: the motion's own arithmetic). */
static ossa_clip *build(const source *s, const char *joint, ossa_clip_build_report *report)
{
    return build_kind(s, joint, report, true);
}

/* The in-place clip's model transforms at clip time t, placed by world. */
static void runtime_model(const ossa_clip *clip, const ossa_skeleton *sk, double t,
                          const ts_dmat *world, ts_dmat model[3])
{
    ossa_transform local[3];
    for (int j = 0; j < 3; ++j)
        local[j] = ossa_clip_sample_joint(clip, ossa_skeleton_rest_pose(sk), j, (float)t,
                                          OSSA_ROTATION_NLERP);
    ts_model_flat(ossa_skeleton_parents(sk), local, 3, world, model);
}

static double g2_distance(g2 a, g2 b)
{
    return fmax(fabs(a.yaw - b.yaw), fmax(fabs(a.x - b.x), fabs(a.z - b.z)));
}

TEST(extraction_chooses_the_moving_joint_and_the_clip_plays_in_place)
{
    source s;
    REQUIRE(source_make(&s));
    ossa_clip_build_report report;
    ossa_clip *clip = build(&s, NULL, &report);
    REQUIRE(clip != NULL);
    /* the base never moves: the hips are chosen */
    CHECK_INT(report.root_motion_joint, 1);
    CHECK_INT(ossa_clip_root_motion_joint(clip), 1);
    CHECK(ossa_clip_has_root_motion(clip));
    /* in place: the hips' ground position and heading stay those of frame 0 */
    ts_dmat first[3], m[3];
    const ts_dmat id = ts_dmat_identity();
    runtime_model(clip, s.skeleton, 0.0, &id, first);
    double worst = 0.0;
    for (int f = 0; f < KEYS; ++f) {
        runtime_model(clip, s.skeleton, f / (double)RATE, &id, m);
        worst = fmax(worst, fabs(m[1].m[0][3] - first[1].m[0][3]));
        worst = fmax(worst, fabs(m[1].m[2][3] - first[1].m[2][3]));
        worst = fmax(worst, fabs(twist_between(&m[1], &first[1])));
    }
    CHECK(worst < 2e-6);
    /* the stored motion at each frame is the source's, in double */
    double motion_error = 0.0;
    for (int f = 0; f < KEYS; ++f) {
        const ossa_root_motion r = ossa_clip_root_motion_at(clip, (float)f / RATE);
        motion_error = fmax(motion_error, g2_distance((g2){r.yaw_rad, r.x, r.z},
                                                      source_motion(&s, 1, f / (double)RATE)));
    }
    CHECK(motion_error < 2e-6);
    /* a joint named: the foot */
    ossa_clip *foot = build(&s, "foot", &report);
    REQUIRE(foot != NULL);
    CHECK_INT(report.root_motion_joint, 2);
    const ossa_root_motion l = ossa_clip_loop_motion(foot);
    const g2 expected = source_motion(&s, 2, 1.0);
    CHECK(g2_distance((g2){l.yaw_rad, l.x, l.z}, expected) < 2e-6);
    ossa_clip_free(foot, NULL);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s.skeleton, NULL);
}

/* A character starting at playhead u0 placed where the source puts it
 * (L^n0 M(t0)), moved by the job's motion over a few steps to u1, posed by
 * the in-place clip: every joint lands on L^n1 S(t1), the source looped. */
/* Raw clips: on keys only float rounding is left, between keys the
 * interpolation (below). Compressed: the builder's bound is added - the
 * clip within its tolerance of the source at every time (positions, in the
 * metric's units), rotations within tolerance / distance (a point at the
 * metric's distance moved by at most the tolerance). */
static void reconstructs(bool raw)
{
    source s;
    REQUIRE(source_make(&s));
    ossa_clip_build_report report;
    ossa_clip *clip = build_kind(&s, NULL, &report, raw);
    REQUIRE(clip != NULL);
    CHECK(report.compressed == !raw);
    CHECK(report.within_tolerance);
    const double pos_bound = raw ? 0.0 : (double)report.tolerance,
                 rot_bound = raw ? 0.0 : (double)report.tolerance / (double)report.distance;
    const double duration = 1.0;
    const g2 loop = source_motion(&s, 1, duration);
    ts_rng rng = ts_rng_make(12);
    double worst[2] = {0.0, 0.0}, worst_rot[2] = {0.0, 0.0};
    int wraps_seen[6] = {0}, backwards = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const double speed = ts_uniform(&rng, -2.0, 3.0);
        const int loops = ts_int(&rng, 6); /* 0..5 loop ends crossed, about */
        const double span = (loops + ts_uniform(&rng, 0.05, 0.95)) * duration;
        /* every other trial starts and ends on keys, where only float
         * rounding is left */
        const int on_key = trial % 2;
        double u0 = ts_uniform(&rng, -3.0, 3.0);
        if (on_key)
            u0 = floor(u0 * RATE + 0.5) / RATE;
        double u1 = u0 + (speed < 0 ? -span : span);
        if (on_key)
            u1 = floor(u1 * RATE + 0.5) / RATE;
        backwards += speed < 0;
        const int steps = 1 + ts_int(&rng, 8);
        const int n0 = (int)floor(u0 / duration), n1 = (int)floor(u1 / duration);
        wraps_seen[abs(n1 - n0) > 5 ? 5 : abs(n1 - n0)]++;
        /* start: M_u(u0) = L^n0 M(t0), from the source */
        const double t0 = u0 - n0 * duration;
        g2 world = g2_compose(g2_power(loop, n0), source_motion(&s, 1, t0));
        float from = (float)u0;
        for (int k = 1; k <= steps; ++k) {
            const float to = (float)(u0 + (u1 - u0) * (double)k / steps);
            ossa_root_motion delta;
            const ossa_clip *clips[1] = {clip};
            ossa_root_motion_job job = {0};
            job.clips = clips;
            job.clip_count = 1;
            job.from_s = &from;
            job.to_s = &to;
            job.character_count = 1;
            job.output = &delta;
            job.output_count = 1;
            REQUIRE(ossa_root_motion_job_run(&job) == OSSA_OK);
            world = g2_compose(world, (g2){delta.yaw_rad, delta.x, delta.z});
            from = to;
        }
        const double t1 = u1 - n1 * duration;
        const ts_dmat w = g2_matrix(world);
        ts_dmat got[3], src[3];
        runtime_model(clip, s.skeleton, t1, &w, got);
        source_model(&s, t1, src);
        const ts_dmat ln = g2_matrix(g2_power(loop, n1));
        for (int j = 1; j < 3; ++j) {
            const ts_dmat expect = ts_dmat_mul(&ln, &src[j]);
            for (int i = 0; i < 3; ++i) {
                worst[on_key] = fmax(worst[on_key], fabs(got[j].m[i][3] - expect.m[i][3]));
                for (int c = 0; c < 3; ++c)
                    worst_rot[on_key] =
                        fmax(worst_rot[on_key], fabs(got[j].m[i][c] - expect.m[i][c]));
            }
        }
    }
    /* On keys: float playheads, motions and poses over up to ~10 m of
     * travel. Between keys the runtime interpolates the in-place clip and
     * the motion separately: the hips, 0.36 m from the origin at frame 0
     * and turning up to 0.05 rad a frame, follow the chord instead of the
     * arc (0.36 x 0.05^2 / 8 = 1.1e-4 m), and nlerp stands for slerp - in
     * a raw clip at the keys' rate; a compressed clip is held to its
     * tolerance against the source placed by the motion the runtime plays,
     * between keys too, so only the float slack is left over its bound. */
    fprintf(stderr,
            "%s: worst position / rotation error: on keys %.3g / %.3g, between %.3g / %.3g\n",
            raw ? "raw" : "compressed", worst[1], worst_rot[1], worst[0], worst_rot[0]);
    CHECK(worst[1] < 2e-5 + pos_bound && worst_rot[1] < 2e-6 + rot_bound);
    if (raw)
        CHECK(worst[0] < 4e-4 && worst_rot[0] < 2.5e-4);
    else
        CHECK(worst[0] < 2e-5 + pos_bound && worst_rot[0] < 2e-6 + rot_bound);
    for (int n = 0; n <= 5; ++n)
        CHECK(wraps_seen[n] > 0);
    CHECK(backwards > 0);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s.skeleton, NULL);
}

TEST(in_place_clip_plus_accumulated_motion_reconstructs_the_source_across_loops)
{
    reconstructs(true);
}

TEST(compressed_in_place_clip_reconstructs_the_source_within_its_bound)
{
    reconstructs(false);
}

/* ozz's pab run, imported: one loop's motion equals the source root's
 * displacement over the loop within 0.1 mm per metre travelled. */
TEST(unknown_root_motion_joint_is_refused_naming_it)
{
    source s;
    REQUIRE(source_make(&s));
    ossa_clip_build_options o = {0};
    o.root_motion = OSSA_ROOT_MOTION_EXTRACT;
    o.root_motion_joint = "Bip01 Pelvis";
    ossa_clip *clip = NULL;
    ossa_error e;
    CHECK_RESULT(ossa_clip_build(&s.raw, s.skeleton, &o, &clip, NULL, &e), OSSA_ERR_NOT_FOUND);
    CHECK(clip == NULL);
    CHECK(strstr(e.message, "'Bip01 Pelvis'") && strstr(e.message, "walk"));
    o.root_motion = (ossa_root_motion_mode)7;
    CHECK_RESULT(ossa_clip_build(&s.raw, s.skeleton, &o, &clip, NULL, &e), OSSA_ERR_BAD_ARGUMENT);
    /* without extraction the clip has no motion and does not move */
    o.root_motion = OSSA_ROOT_MOTION_KEEP;
    REQUIRE(ossa_clip_build(&s.raw, s.skeleton, &o, &clip, NULL, &e) == OSSA_OK);
    CHECK(!ossa_clip_has_root_motion(clip));
    CHECK_INT(ossa_clip_root_motion_joint(clip), -1);
    const ossa_root_motion m = ossa_clip_root_motion_at(clip, 0.5f);
    CHECK(m.x == 0.0f && m.z == 0.0f && m.yaw_rad == 0.0f);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s.skeleton, NULL);
}

TEST(root_motion_job_validity)
{
    source s;
    REQUIRE(source_make(&s));
    ossa_clip *clip = build(&s, NULL, NULL);
    REQUIRE(clip != NULL);
    const ossa_clip *clips[1] = {clip};
    float from[2] = {0.0f, 0.5f}, to[2] = {0.25f, -0.5f};
    uint16_t index[2] = {0, 0};
    ossa_root_motion out[2];
    const ossa_root_motion_job valid = {clips, 1, index, 2, from, to, 2, 0, 0, out, 2};
    ossa_root_motion_job j;
    CHECK_RESULT(ossa_root_motion_job_run(NULL), OSSA_ERR_MISSING_INPUT);
    j = (ossa_root_motion_job){0};
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.clip_count = 0;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j = valid, j.from_s = NULL;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.to_s = NULL;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    j = valid, j.clip_index_count = 1;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_INPUT_TOO_SMALL);
    j = valid, j.character_end = 3;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_BAD_RANGE);
    j = valid, j.output = NULL;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_MISSING_OUTPUT);
    j = valid, j.output_count = 1;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_OUTPUT_TOO_SMALL);
    index[1] = 1;
    CHECK_RESULT(ossa_root_motion_job_run(&valid), OSSA_ERR_BAD_INDEX);
    index[1] = 0;
    to[1] = NAN;
    CHECK_RESULT(ossa_root_motion_job_run(&valid), OSSA_ERR_BAD_VALUE);
    to[1] = INFINITY;
    CHECK_RESULT(ossa_root_motion_job_run(&valid), OSSA_ERR_BAD_VALUE);
    /* outside the range a NaN is not read */
    j = valid, j.character_begin = 0, j.character_end = 1;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_OK);
    to[1] = -0.5f;
    CHECK_RESULT(ossa_root_motion_job_run(&valid), OSSA_OK);
    /* the clips a character plays are checked, not the others */
    const ossa_clip *library[2] = {NULL, clip};
    j = valid, j.clips = library, j.clip_count = 2;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_ERR_MISSING_INPUT);
    index[0] = index[1] = 1;
    CHECK_RESULT(ossa_root_motion_job_run(&j), OSSA_OK);
    index[0] = index[1] = 0;
    CHECK_RESULT(ossa_root_motion_job_run(&valid), OSSA_OK);
    /* there and back again is no motion */
    const ossa_root_motion back = ossa_root_motion_compose(out[0], ossa_root_motion_inverse(out[0]));
    CHECK(fabsf(back.x) < 1e-6f && fabsf(back.z) < 1e-6f && fabsf(back.yaw_rad) < 1e-6f);
    ossa_clip_free(clip, NULL);
    ossa_skeleton_free(s.skeleton, NULL);
}

UTEST_MAIN(extraction_chooses_the_moving_joint_and_the_clip_plays_in_place,
           in_place_clip_plus_accumulated_motion_reconstructs_the_source_across_loops,
           compressed_in_place_clip_reconstructs_the_source_within_its_bound,
           unknown_root_motion_joint_is_refused_naming_it, root_motion_job_validity)
