/* lanes_test.c - the lane jobs (characters in SIMD lanes) against the
 * reference jobs they mirror, on every path this machine runs, every batch
 * width and partly filled batches; validation tables; range independence. */
#include <stdlib.h>
#include <string.h>

#include "lane_internal.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* Named tolerances: the lane code evaluates the reference formulas in the
 * same order but may fuse multiply-adds, so results differ by a few float
 * roundings of values of magnitude <= 2 (poses) or of the model's size. */
#define SAMPLE_TOLERANCE 2e-6
#define BLEND_TOLERANCE 4e-6
#define MODEL_TOLERANCE 2e-6 /* relative to 1 + |value| */

static const int widths[] = {4, 8, 16};

/* ---- a random character: skeleton, three clips with mixed STEP tracks ---- */

typedef struct character {
    ossa_skeleton *skeleton;
    ossa_clip *clips[3];
    int joints;
} character;

#define MAX_KEYS 6

typedef struct joint_keys {
    float t_times[MAX_KEYS], r_times[MAX_KEYS], s_times[MAX_KEYS];
    ossa_float3 t[MAX_KEYS], s[MAX_KEYS];
    ossa_quat r[MAX_KEYS];
} joint_keys;

static int random_keys(ts_rng *rng, float duration, float *times)
{
    const int n = 1 + ts_int(rng, MAX_KEYS);
    for (int k = 0; k < n; ++k)
        times[k] = duration * (float)k / (float)(n > 1 ? n - 1 : 1);
    return n;
}

static ossa_interpolation random_interp(ts_rng *rng, int steps)
{
    return steps && ts_int(rng, 4) == 0 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR;
}

static void character_free(character *c)
{
    for (int k = 0; k < 3; ++k)
        ossa_clip_free(c->clips[k], NULL);
    ossa_skeleton_free(c->skeleton, NULL);
    memset(c, 0, sizeof *c);
}

static int character_make(ts_rng *rng, int joints, int steps, character *out)
{
    memset(out, 0, sizeof *out);
    ossa_raw_joint *raw = calloc((size_t)joints, sizeof *raw);
    uint16_t *parents = calloc((size_t)joints, sizeof *parents);
    char(*names)[16] = calloc((size_t)joints, sizeof *names);
    joint_keys *keys = calloc((size_t)joints, sizeof *keys);
    ossa_raw_joint_track *tracks = calloc((size_t)joints, sizeof *tracks);
    ossa_error e;
    int ok = raw && parents && names && keys && tracks;
    if (ok) {
        ts_parents(rng, joints, 1 + ts_int(rng, 2), parents);
        for (int j = 0; j < joints; ++j) {
            snprintf(names[j], sizeof names[j], "j%d", j);
            raw[j].name = names[j];
            raw[j].parent = parents[j] == 0xFFFFu ? -1 : parents[j];
            raw[j].rest = ts_transform(rng, TS_SCALE_ANY);
        }
        ossa_raw_skeleton rs = {raw, joints};
        ok = ossa_skeleton_build(&rs, NULL, &out->skeleton, NULL, &e) == OSSA_OK;
    }
    for (int k = 0; ok && k < 3; ++k) {
        const float duration = (float)ts_uniform(rng, 0.5, 2.0);
        for (int j = 0; j < joints; ++j) {
            joint_keys *jk = &keys[j];
            ossa_raw_joint_track *t = &tracks[j];
            memset(t, 0, sizeof *t);
            t->joint_name = names[j];
            t->translation.key_count = random_keys(rng, duration, jk->t_times);
            t->rotation.key_count = random_keys(rng, duration, jk->r_times);
            t->scale.key_count = random_keys(rng, duration, jk->s_times);
            for (int i = 0; i < MAX_KEYS; ++i) {
                ossa_transform x = ts_transform(rng, TS_SCALE_ANY);
                jk->t[i] = x.translation;
                jk->r[i] = x.rotation;
                jk->s[i] = x.scale;
            }
            t->translation.times_s = jk->t_times;
            t->translation.values = jk->t;
            t->translation.interpolation = random_interp(rng, steps);
            t->rotation.times_s = jk->r_times;
            t->rotation.values = jk->r;
            t->rotation.interpolation = random_interp(rng, steps);
            t->scale.times_s = jk->s_times;
            t->scale.values = jk->s;
            t->scale.interpolation = random_interp(rng, steps);
        }
        ossa_raw_clip rc = {"random", duration, tracks, joints};
        ossa_clip_build_options o = {0};
        o.rate = 30.0f;
        ok = ossa_clip_build(&rc, out->skeleton, &o, &out->clips[k], NULL, &e) == OSSA_OK;
    }
    out->joints = joints;
    free(raw);
    free(parents);
    free(names);
    free(keys);
    free(tracks);
    if (!ok)
        character_free(out);
    return ok;
}

/* ---- lane layout helpers (the layout as lanes.h documents it) ---- */

static size_t lane_index(int joints, int components, int width, int c, int j, int k)
{
    const int b = c / width, l = c % width;
    return (((size_t)b * (size_t)joints + (size_t)j) * (size_t)components + (size_t)k) *
               (size_t)width + (size_t)l;
}

static ossa_transform lane_transform(const float *lanes, int joints, int width, int c, int j)
{
    float v[10];
    for (int k = 0; k < 10; ++k)
        v[k] = lanes[lane_index(joints, 10, width, c, j, k)];
    ossa_transform t = {{v[0], v[1], v[2]}, {v[3], v[4], v[5], v[6]}, {v[7], v[8], v[9]}};
    return t;
}

static ossa_mat34 lane_matrix(const float *lanes, int joints, int width, int c, int j)
{
    ossa_mat34 m;
    for (int k = 0; k < 12; ++k)
        m.m[k / 4][k % 4] = lanes[lane_index(joints, 12, width, c, j, k)];
    return m;
}

/* Writes AoS poses (characters x joints) in lane layout; unused lanes of
 * the last batch repeat its first character, as the jobs do. */
static void pack_poses(const ossa_transform *aos, int characters, int joints, int width,
                       float *lanes)
{
    const int batches = ossa_lane_batch_count(characters, width);
    for (int c = 0; c < batches * width; ++c) {
        const int src = c < characters ? c : c / width * width;
        for (int j = 0; j < joints; ++j) {
            const ossa_transform *t = &aos[(size_t)src * (size_t)joints + (size_t)j];
            const float v[10] = {t->translation.x, t->translation.y, t->translation.z,
                                 t->rotation.x,    t->rotation.y,    t->rotation.z,
                                 t->rotation.w,    t->scale.x,       t->scale.y,
                                 t->scale.z};
            for (int k = 0; k < 10; ++k)
                lanes[lane_index(joints, 10, width, c, j, k)] = v[k];
        }
    }
}

static double transform_diff(ossa_transform a, ossa_transform b)
{
    const float x[10] = {a.translation.x, a.translation.y, a.translation.z, a.rotation.x,
                         a.rotation.y,    a.rotation.z,    a.rotation.w,    a.scale.x,
                         a.scale.y,       a.scale.z};
    const float y[10] = {b.translation.x, b.translation.y, b.translation.z, b.rotation.x,
                         b.rotation.y,    b.rotation.z,    b.rotation.w,    b.scale.x,
                         b.scale.y,       b.scale.z};
    double d = 0;
    for (int k = 0; k < 10; ++k) {
        double e = fabs((double)x[k] - (double)y[k]);
        if (!(e <= d))
            d = e;
    }
    return d;
}

static double mat_rel_diff_d(const ossa_mat34 *a, const ts_dmat *b)
{
    double d = 0;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 4; ++j) {
            double e = fabs((double)a->m[i][j] - b->m[i][j]) / (1.0 + fabs(b->m[i][j]));
            if (!(e <= d))
                d = e;
        }
    return d;
}

static float *lane_alloc(size_t floats)
{
    float *p = aligned_alloc(64, (floats * sizeof(float) + 63) / 64 * 64 + 64);
    for (size_t i = 0; p && i < floats; ++i)
        p[i] = NAN; /* anything the job fails to write shows up */
    return p;
}

/* ---- sampling ---- */

static void check_sampling(const character *ch, ts_rng *rng, ossa_lane_path path, int job_width,
                           int characters, ossa_wrap wrap)
{
    const int width = job_width ? job_width : ossa_lane_width();
    const int joints = ch->joints;
    const ossa_clip *clips[3] = {ch->clips[0], ch->clips[1], ch->clips[2]};
    uint16_t *clip_index = malloc(sizeof(uint16_t) * (size_t)characters);
    float *times = malloc(sizeof(float) * (size_t)characters);
    for (int c = 0; c < characters; ++c) {
        clip_index[c] = (uint16_t)ts_int(rng, 3);
        const float d = ossa_clip_duration(clips[clip_index[c]]);
        switch (ts_int(rng, 4)) {
        case 0: times[c] = 0.0f; break; /* on the first key */
        case 1: times[c] = (float)ts_uniform(rng, -3.0 * d, 3.0 * d); break;
        default: times[c] = (float)ts_uniform(rng, 0.0, d); break;
        }
    }
    ossa_transform *ref = malloc(sizeof(ossa_transform) * (size_t)characters * (size_t)joints);
    ossa_sampling_job rj = {0};
    rj.clips = clips;
    rj.clip_count = 3;
    rj.clip_index = clip_index;
    rj.clip_index_count = characters;
    rj.time_s = times;
    rj.time_count = characters;
    rj.wrap = wrap;
    rj.output = ref;
    rj.output_count = characters * joints;
    CHECK_RESULT(ossa_sampling_job_run(&rj), OSSA_OK);

    const size_t floats = ossa_lane_pose_floats(joints, characters, width);
    float *lanes = lane_alloc(floats);
    ossa_lane_sampling_job lj = {0};
    lj.clips = clips;
    lj.clip_count = 3;
    lj.clip_index = clip_index;
    lj.clip_index_count = characters;
    lj.time_s = times;
    lj.time_count = characters;
    lj.wrap = wrap;
    lj.width = job_width;
    lj.path = path;
    lj.output = lanes;
    lj.output_count = floats;
    CHECK_RESULT(ossa_lane_sampling_job_run(&lj), OSSA_OK);
    /* the gathering kernel (where the path has one) computes the same bits */
    float *gathered = lane_alloc(floats);
    lj.output = gathered;
    CHECK_RESULT(ossai_lane_sampling_job_run_with(&lj, 1), OSSA_OK);
    CHECK(memcmp(gathered, lanes, floats * sizeof(float)) == 0);
    free(gathered);
    double worst = 0;
    int exact_keys = 1;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ossa_transform a = lane_transform(lanes, joints, width, c, j);
            const ossa_transform b = ref[(size_t)c * joints + j];
            double d = transform_diff(a, b);
            if (!(d <= worst))
                worst = d;
            /* at a key's time the result is the key, bit for bit */
            if (times[c] == 0.0f && memcmp(&a, &b, sizeof a) != 0)
                exact_keys = 0;
        }
    CHECK(exact_keys);
    if (!(worst <= SAMPLE_TOLERANCE))
        fprintf(stderr, "sampling %s w%d n%d: worst %.3g\n", ossa_lane_path_name(path), width,
                characters, worst);
    CHECK(worst <= SAMPLE_TOLERANCE);
    /* unused lanes of the last batch repeat its first character */
    const int last = characters - 1, first = last / width * width;
    if ((last + 1) % width != 0)
        for (int j = 0; j < joints; ++j)
            CHECK(transform_diff(lane_transform(lanes, joints, width, last + 1, j),
                                 lane_transform(lanes, joints, width, first, j)) == 0.0);
    free(clip_index);
    free(times);
    free(ref);
    free(lanes);
}

TEST(lane_sampling_matches_reference_for_every_path_width_and_fill)
{
    ts_rng rng = ts_rng_make(11);
    character ch;
    REQUIRE(character_make(&rng, 37, 0, &ch));
    int paths = 0;
    for (int p = OSSA_LANE_PORTABLE; p < OSSA_LANE_PATH_COUNT; ++p) {
        if (!ossa_lane_path_supported((ossa_lane_path)p))
            continue;
        ++paths;
        for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
            const int width = widths[w];
            const int fills[] = {1, width - 1, width, 3 * width + 2};
            for (int f = 0; f < 4; ++f)
                check_sampling(&ch, &rng, (ossa_lane_path)p, width, fills[f] ? fills[f] : 1,
                               (ossa_wrap)(f % OSSA_WRAP_COUNT));
        }
    }
    CHECK(paths >= 1);
    character_free(&ch);
}

TEST(lane_sampling_holds_step_tracks_like_reference)
{
    ts_rng rng = ts_rng_make(12);
    character ch;
    REQUIRE(character_make(&rng, 21, 1, &ch));
    for (int p = OSSA_LANE_PORTABLE; p < OSSA_LANE_PATH_COUNT; ++p)
        if (ossa_lane_path_supported((ossa_lane_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w)
                check_sampling(&ch, &rng, (ossa_lane_path)p, widths[w], 2 * widths[w] - 1,
                               OSSA_WRAP_LOOP);
    character_free(&ch);
}

TEST(lane_sampling_of_default_character_matches_reference)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    character ch = {dc.skeleton, {dc.clips[0], dc.clips[1], dc.clips[2]}, 96};
    ts_rng rng = ts_rng_make(13);
    check_sampling(&ch, &rng, OSSA_LANE_AUTO, 0, 1000,
                   OSSA_WRAP_LOOP);
    ossa_default_character_free(&dc, NULL);
}

/* ---- blending ---- */

static void check_blending(ts_rng *rng, ossa_lane_path path, int width, int characters,
                           int joints)
{
    enum { LAYERS = 3, ADDITIVE = 1 };
    const size_t n = (size_t)characters * (size_t)joints;
    ossa_transform *poses[LAYERS + ADDITIVE];
    float *lane_poses[LAYERS + ADDITIVE];
    float *weights[LAYERS + ADDITIVE];
    float *masks[LAYERS + ADDITIVE];
    const size_t floats = ossa_lane_pose_floats(joints, characters, width);
    ossa_transform *rest = malloc(sizeof(ossa_transform) * (size_t)joints);
    ossa_transform *reference = malloc(sizeof(ossa_transform) * (size_t)joints);
    for (int j = 0; j < joints; ++j) {
        rest[j] = ts_transform(rng, TS_SCALE_ANY);
        reference[j] = ts_transform(rng, TS_SCALE_ANY);
    }
    ossa_blend_layer rl[LAYERS + ADDITIVE];
    ossa_lane_blend_layer ll[LAYERS + ADDITIVE];
    memset(rl, 0, sizeof rl);
    memset(ll, 0, sizeof ll);
    for (int l = 0; l < LAYERS + ADDITIVE; ++l) {
        poses[l] = malloc(sizeof(ossa_transform) * n);
        for (size_t i = 0; i < n; ++i)
            poses[l][i] = ts_transform(rng, TS_SCALE_ANY);
        lane_poses[l] = lane_alloc(floats);
        pack_poses(poses[l], characters, joints, width, lane_poses[l]);
        weights[l] = malloc(sizeof(float) * (size_t)characters);
        for (int c = 0; c < characters; ++c) /* some <= 0, some summing below the threshold */
            weights[l][c] = ts_int(rng, 5) == 0 ? (float)ts_uniform(rng, -0.5, 0.0)
                                                : (float)ts_uniform(rng, 0.0, 1.0);
        masks[l] = malloc(sizeof(float) * (size_t)joints);
        for (int j = 0; j < joints; ++j)
            masks[l][j] = ts_int(rng, 4) == 0 ? 0.0f : (float)ts_uniform(rng, 0.0, 1.0);
        rl[l].pose = poses[l];
        rl[l].pose_count = (int)n;
        ll[l].pose = lane_poses[l];
        ll[l].pose_count = floats;
        if (l != 1) { /* layer 1: one weight for all, no mask */
            rl[l].weights = ll[l].weights = weights[l];
            rl[l].weight_count = ll[l].weight_count = characters;
            rl[l].joint_mask = ll[l].joint_mask = masks[l];
            rl[l].joint_mask_count = ll[l].joint_mask_count = joints;
        } else {
            rl[l].weight = ll[l].weight = 0.05f;
        }
        if (l >= LAYERS) {
            rl[l].reference = ll[l].reference = reference;
            rl[l].reference_count = ll[l].reference_count = joints;
        }
    }
    ossa_transform *ref_out = malloc(sizeof(ossa_transform) * n);
    ossa_blending_job rj = {0};
    rj.layers = rl;
    rj.layer_count = LAYERS;
    rj.additive = rl + LAYERS;
    rj.additive_count = ADDITIVE;
    rj.rest_pose = rest;
    rj.joint_count = joints;
    rj.instance_count = characters;
    rj.threshold = 0.3f;
    rj.output = ref_out;
    rj.output_count = (int)n;
    CHECK_RESULT(ossa_blending_job_run(&rj), OSSA_OK);
    float *out = lane_alloc(floats);
    ossa_lane_blending_job lj = {0};
    lj.layers = ll;
    lj.layer_count = LAYERS;
    lj.additive = ll + LAYERS;
    lj.additive_count = ADDITIVE;
    lj.rest_pose = rest;
    lj.joint_count = joints;
    lj.character_count = characters;
    lj.width = width;
    lj.threshold = 0.3f;
    lj.path = path;
    lj.output = out;
    lj.output_count = floats;
    CHECK_RESULT(ossa_lane_blending_job_run(&lj), OSSA_OK);
    double worst = 0;
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            double d = transform_diff(lane_transform(out, joints, width, c, j),
                                      ref_out[(size_t)c * joints + j]);
            if (!(d <= worst))
                worst = d;
        }
    if (!(worst <= BLEND_TOLERANCE))
        fprintf(stderr, "blending %s w%d n%d: worst %.3g\n", ossa_lane_path_name(path), width,
                characters, worst);
    CHECK(worst <= BLEND_TOLERANCE);
    for (int l = 0; l < LAYERS + ADDITIVE; ++l) {
        free(poses[l]);
        free(lane_poses[l]);
        free(weights[l]);
        free(masks[l]);
    }
    free(rest);
    free(reference);
    free(ref_out);
    free(out);
}

TEST(lane_blending_matches_reference_with_masks_threshold_and_additive)
{
    ts_rng rng = ts_rng_make(21);
    for (int p = OSSA_LANE_PORTABLE; p < OSSA_LANE_PATH_COUNT; ++p)
        if (ossa_lane_path_supported((ossa_lane_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                const int width = widths[w];
                check_blending(&rng, (ossa_lane_path)p, width, 1, 13);
                check_blending(&rng, (ossa_lane_path)p, width, width - 1, 7);
                check_blending(&rng, (ossa_lane_path)p, width, width, 19);
                check_blending(&rng, (ossa_lane_path)p, width, 2 * width + 5, 5);
            }
}

/* ---- local -> model and palette ---- */

static void check_hierarchy(ts_rng *rng, ossa_lane_path path, int width, int characters,
                            int joints, int with_root)
{
    const size_t n = (size_t)characters * (size_t)joints;
    uint16_t *parents = malloc(sizeof(uint16_t) * (size_t)joints);
    ts_parents(rng, joints, 1 + ts_int(rng, 3), parents);
    ossa_transform *local = malloc(sizeof(ossa_transform) * n);
    for (size_t i = 0; i < n; ++i)
        local[i] = ts_transform(rng, TS_SCALE_ANY);
    ossa_mat34 *root = malloc(sizeof(ossa_mat34) * (size_t)characters);
    for (int c = 0; c < characters; ++c)
        root[c] = ossa_mat34_from_transform(ts_transform(rng, TS_SCALE_UNIFORM));
    ossa_mat34 *ref = malloc(sizeof(ossa_mat34) * n);
    ossa_local_to_model_job rj = {0};
    rj.parents = parents;
    rj.joint_count = joints;
    rj.local = local;
    rj.local_count = (int)n;
    rj.instance_count = characters;
    rj.root = with_root ? root : NULL;
    rj.root_count = characters;
    rj.model = ref;
    rj.model_count = (int)n;
    CHECK_RESULT(ossa_local_to_model_job_run(&rj), OSSA_OK);

    const size_t pose_floats = ossa_lane_pose_floats(joints, characters, width);
    const size_t model_floats = ossa_lane_model_floats(joints, characters, width);
    float *lane_local = lane_alloc(pose_floats), *lane_model = lane_alloc(model_floats);
    pack_poses(local, characters, joints, width, lane_local);
    ossa_lane_local_to_model_job lj = {0};
    lj.parents = parents;
    lj.joint_count = joints;
    lj.local = lane_local;
    lj.local_count = pose_floats;
    lj.character_count = characters;
    lj.root = with_root ? root : NULL;
    lj.root_count = characters;
    lj.width = width;
    lj.path = path;
    lj.model = lane_model;
    lj.model_count = model_floats;
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&lj), OSSA_OK);
    /* Both against double precision: the lane walk may round differently
     * from the reference (FMA), but no worse than it does, give or take. */
    double worst = 0, ref_worst = 0;
    ts_dmat *exact = malloc(sizeof(ts_dmat) * (size_t)joints);
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j) {
            const ts_dmat l = ts_dmat_from_transform(local[(size_t)c * joints + j]);
            const ts_dmat r = ts_dmat_from_mat34(&root[c]);
            const ts_dmat *parent = parents[j] != 0xFFFFu ? &exact[parents[j]]
                                                          : (with_root ? &r : NULL);
            exact[j] = parent ? ts_dmat_mul(parent, &l) : l;
            ossa_mat34 m = lane_matrix(lane_model, joints, width, c, j);
            double d = mat_rel_diff_d(&m, &exact[j]);
            double e = mat_rel_diff_d(&ref[(size_t)c * joints + j], &exact[j]);
            if (!(d <= worst))
                worst = d;
            if (!(e <= ref_worst))
                ref_worst = e;
        }
    if (!(worst <= 2.0 * ref_worst + MODEL_TOLERANCE))
        fprintf(stderr, "local->model %s w%d n%d: worst %.3g, reference's %.3g\n",
                ossa_lane_path_name(path), width, characters, worst, ref_worst);
    CHECK(worst <= 2.0 * ref_worst + MODEL_TOLERANCE);
    free(exact);

    /* palette: a subset of joints in a shuffled order, with inverse binds */
    const int skins = 1 + ts_int(rng, joints);
    uint16_t *skin = malloc(sizeof(uint16_t) * (size_t)skins);
    ossa_mat34 *ib = malloc(sizeof(ossa_mat34) * (size_t)skins);
    for (int k = 0; k < skins; ++k) {
        skin[k] = (uint16_t)ts_int(rng, joints);
        ib[k] = ossa_mat34_from_transform(ts_transform(rng, TS_SCALE_ANY));
    }
    /* reference palette from the lane model's own matrices, so this compares
     * the palette stage alone */
    ossa_mat34 *model_aos = malloc(sizeof(ossa_mat34) * n);
    for (int c = 0; c < characters; ++c)
        for (int j = 0; j < joints; ++j)
            model_aos[(size_t)c * joints + j] = lane_matrix(lane_model, joints, width, c, j);
    ossa_mat34 *ref_pal = malloc(sizeof(ossa_mat34) * (size_t)characters * (size_t)skins);
    ossa_palette_job rp = {0};
    rp.model = model_aos;
    rp.model_count = (int)n;
    rp.joint_count = joints;
    rp.skin_joint = skin;
    rp.inverse_bind = ib;
    rp.skin_joint_count = skins;
    rp.instance_count = characters;
    rp.palette = ref_pal;
    rp.palette_count = characters * skins;
    CHECK_RESULT(ossa_palette_job_run(&rp), OSSA_OK);
    /* one guard matrix past the end: never written */
    ossa_mat34 *pal = malloc(sizeof(ossa_mat34) * ((size_t)characters * (size_t)skins + 1));
    memset(pal, 0x7f, sizeof(ossa_mat34) * ((size_t)characters * (size_t)skins + 1));
    ossa_lane_palette_job lp = {0};
    lp.model = lane_model;
    lp.model_count = model_floats;
    lp.joint_count = joints;
    lp.character_count = characters;
    lp.skin_joint = skin;
    lp.inverse_bind = ib;
    lp.skin_joint_count = skins;
    lp.width = width;
    lp.path = path;
    lp.palette = pal;
    lp.palette_count = characters * skins;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    worst = ref_worst = 0;
    for (int c = 0; c < characters; ++c)
        for (int k = 0; k < skins; ++k) {
            const ts_dmat m = ts_dmat_from_mat34(&model_aos[(size_t)c * joints + skin[k]]);
            const ts_dmat b = ts_dmat_from_mat34(&ib[k]);
            const ts_dmat x = ts_dmat_mul(&m, &b);
            double d = mat_rel_diff_d(&pal[(size_t)c * skins + k], &x);
            double e = mat_rel_diff_d(&ref_pal[(size_t)c * skins + k], &x);
            if (!(d <= worst))
                worst = d;
            if (!(e <= ref_worst))
                ref_worst = e;
        }
    CHECK(worst <= 2.0 * ref_worst + MODEL_TOLERANCE);
    ossa_mat34 guard;
    memset(&guard, 0x7f, sizeof guard);
    CHECK(memcmp(&pal[characters * skins], &guard, sizeof guard) == 0);

    /* no skin map and no inverse binds: the model transforms, bit for bit */
    lp.skin_joint = NULL;
    lp.inverse_bind = NULL;
    lp.skin_joint_count = 0;
    ossa_mat34 *models = malloc(sizeof(ossa_mat34) * n);
    lp.palette = models;
    lp.palette_count = (int)n;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    CHECK(memcmp(models, model_aos, sizeof(ossa_mat34) * n) == 0);

    /* per-character outputs, in reverse order: the same bytes */
    ossa_mat34 **outputs = malloc(sizeof(ossa_mat34 *) * (size_t)characters);
    ossa_mat34 *scattered = malloc(sizeof(ossa_mat34) * n);
    for (int c = 0; c < characters; ++c)
        outputs[c] = scattered + (size_t)(characters - 1 - c) * (size_t)joints;
    lp.palette = NULL;
    lp.palette_count = 0;
    lp.outputs = outputs;
    CHECK_RESULT(ossa_lane_palette_job_run(&lp), OSSA_OK);
    for (int c = 0; c < characters; ++c)
        CHECK(memcmp(outputs[c], model_aos + (size_t)c * (size_t)joints,
                     sizeof(ossa_mat34) * (size_t)joints) == 0);
    free(outputs);
    free(scattered);

    free(parents);
    free(local);
    free(root);
    free(ref);
    free(lane_local);
    free(lane_model);
    free(skin);
    free(ib);
    free(model_aos);
    free(ref_pal);
    free(pal);
    free(models);
}

TEST(lane_local_to_model_and_palette_match_reference)
{
    ts_rng rng = ts_rng_make(31);
    for (int p = OSSA_LANE_PORTABLE; p < OSSA_LANE_PATH_COUNT; ++p)
        if (ossa_lane_path_supported((ossa_lane_path)p))
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; ++w) {
                const int width = widths[w];
                check_hierarchy(&rng, (ossa_lane_path)p, width, 1, 40, 0);
                check_hierarchy(&rng, (ossa_lane_path)p, width, width - 1, 23, 1);
                check_hierarchy(&rng, (ossa_lane_path)p, width, width, 96, 1);
                check_hierarchy(&rng, (ossa_lane_path)p, width, 3 * width + 1, 9, 0);
            }
}

/* ---- validation and ranges ---- */

TEST(lane_jobs_reject_each_missing_or_short_field)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[2] = {dc.clips[0], dc.clips[1]};
    const int joints = 96, n = 5, width = 8;
    const size_t pose = ossa_lane_pose_floats(joints, n, width);
    const size_t model = ossa_lane_model_floats(joints, n, width);
    CHECK(pose == (size_t)joints * 10 * 8);
    CHECK(ossa_lane_pose_floats(joints, n, 3) == 0);
    CHECK_INT(ossa_lane_batch_count(17, 8), 3);
    float times[5] = {0, 1, 2, 3, 4};
    uint16_t index[5] = {0, 1, 0, 1, 2};
    float *out = lane_alloc(model), *out2 = lane_alloc(model);

    ossa_lane_sampling_job s = {0};
    CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_ERR_MISSING_INPUT);
    s.clips = clips;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_INPUT_TOO_SMALL);
    s.clip_count = 2;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_MISSING_INPUT);
    s.time_s = times;
    s.time_count = n;
    s.width = 3;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_ARGUMENT);
    s.width = width;
    s.batch_end = 2;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_RANGE);
    s.batch_end = 0;
    s.clip_index = index;
    s.clip_index_count = n;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_INDEX); /* index 2 of 2 */
    index[4] = 1;
    s.path = OSSA_LANE_PATH_COUNT;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_BAD_ARGUMENT);
    s.path = OSSA_LANE_AUTO;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_MISSING_OUTPUT);
    s.output = out;
    s.output_count = pose - 1;
    CHECK_RESULT(ossa_lane_sampling_job_validate(&s), OSSA_ERR_OUTPUT_TOO_SMALL);
    s.output_count = pose;
    CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);

    ossa_lane_blend_layer layer = {0};
    ossa_lane_blending_job b = {0};
    CHECK_RESULT(ossa_lane_blending_job_run(&b), OSSA_ERR_MISSING_INPUT);
    b.layers = &layer;
    b.layer_count = 1;
    b.rest_pose = ossa_skeleton_rest_pose(dc.skeleton);
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_INPUT_TOO_SMALL);
    b.joint_count = joints;
    b.character_count = n;
    b.width = width;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_MISSING_INPUT);
    layer.pose = out;
    layer.pose_count = pose - 1;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_INPUT_TOO_SMALL);
    layer.pose_count = pose;
    layer.weight = NAN;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_BAD_VALUE);
    layer.weight = 1.0f;
    b.threshold = -1.0f;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_BAD_VALUE);
    b.threshold = 0.0f;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_MISSING_OUTPUT);
    b.output = out2;
    b.output_count = pose - 1;
    CHECK_RESULT(ossa_lane_blending_job_validate(&b), OSSA_ERR_OUTPUT_TOO_SMALL);
    b.output_count = pose;
    CHECK_RESULT(ossa_lane_blending_job_run(&b), OSSA_OK);

    uint16_t bad_parents[3] = {0xFFFFu, 0, 2};
    ossa_lane_local_to_model_job l = {0};
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_ERR_MISSING_INPUT);
    l.parents = ossa_skeleton_parents(dc.skeleton);
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_INPUT_TOO_SMALL);
    l.joint_count = joints;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_MISSING_INPUT);
    l.local = out2;
    l.local_count = pose;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_INPUT_TOO_SMALL);
    l.character_count = n;
    l.width = width;
    l.batch_begin = 1;
    l.batch_end = 2;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_RANGE);
    l.batch_begin = l.batch_end = 0;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_MISSING_OUTPUT);
    l.model = out;
    l.model_count = model - 1;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_OUTPUT_TOO_SMALL);
    l.model_count = model;
    l.parents = bad_parents;
    l.joint_count = 3;
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_INDEX);
    l.parents = ossa_skeleton_parents(dc.skeleton);
    l.joint_count = OSSA_MAX_JOINTS + 1; /* more than a skeleton can have */
    CHECK_RESULT(ossa_lane_local_to_model_job_validate(&l), OSSA_ERR_BAD_ARGUMENT);
    l.joint_count = joints;
    CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);

    ossa_mat34 palette[5 * 96];
    uint16_t skin[2] = {3, 96};
    ossa_lane_palette_job p = {0};
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_ERR_MISSING_INPUT);
    p.model = out;
    p.model_count = model;
    p.joint_count = joints;
    p.character_count = n;
    p.width = width;
    p.skin_joint = skin;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_INPUT_TOO_SMALL);
    p.skin_joint_count = 2;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_BAD_INDEX);
    skin[1] = 95;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_MISSING_OUTPUT);
    p.palette = palette;
    p.palette_count = 2 * n - 1;
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_OUTPUT_TOO_SMALL);
    p.palette_count = 2 * n;
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_OK);
    ossa_mat34 *outputs[5] = {palette, palette + 2, palette + 4, NULL, palette + 8};
    p.outputs = outputs; /* replaces palette; every processed character needs one */
    CHECK_RESULT(ossa_lane_palette_job_validate(&p), OSSA_ERR_MISSING_OUTPUT);
    outputs[3] = palette + 6;
    CHECK_RESULT(ossa_lane_palette_job_run(&p), OSSA_OK);
    free(out);
    free(out2);
    ossa_default_character_free(&dc, NULL);
}

TEST(lane_jobs_give_the_same_bits_for_any_split_of_batches)
{
    ossa_default_character dc;
    ossa_error e;
    REQUIRE(ossa_default_character_build(&dc, NULL, &e) == OSSA_OK);
    const ossa_clip *clips[3] = {dc.clips[0], dc.clips[1], dc.clips[2]};
    enum { N = 45, J = 96 };
    float times[N];
    uint16_t index[N];
    for (int c = 0; c < N; ++c) {
        times[c] = 0.137f * (float)c;
        index[c] = (uint16_t)(c % 3);
    }
    const int width = ossa_lane_width(), batches = ossa_lane_batch_count(N, width);
    const size_t pose = ossa_lane_pose_floats(J, N, width);
    const size_t model = ossa_lane_model_floats(J, N, width);
    float *whole[2], *split[2];
    for (int k = 0; k < 2; ++k) {
        whole[k] = lane_alloc(model);
        split[k] = lane_alloc(model);
    }
    ossa_lane_sampling_job s = {0};
    s.clips = clips;
    s.clip_count = 3;
    s.clip_index = index;
    s.clip_index_count = N;
    s.time_s = times;
    s.time_count = N;
    s.output_count = pose;
    ossa_lane_local_to_model_job l = {0};
    l.parents = ossa_skeleton_parents(dc.skeleton);
    l.joint_count = J;
    l.local_count = pose;
    l.character_count = N;
    l.model_count = model;
    for (int k = 0; k < 2; ++k) {
        float **x = k ? split : whole;
        s.output = x[0];
        l.local = x[0];
        l.model = x[1];
        if (!k) {
            CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);
            CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);
            continue;
        }
        for (int b = batches - 1; b >= 0; --b) { /* one batch at a time, backwards */
            s.batch_begin = l.batch_begin = b;
            s.batch_end = l.batch_end = b + 1;
            CHECK_RESULT(ossa_lane_sampling_job_run(&s), OSSA_OK);
            CHECK_RESULT(ossa_lane_local_to_model_job_run(&l), OSSA_OK);
        }
    }
    CHECK(memcmp(whole[0], split[0], pose * sizeof(float)) == 0);
    CHECK(memcmp(whole[1], split[1], model * sizeof(float)) == 0);
    for (int k = 0; k < 2; ++k) {
        free(whole[k]);
        free(split[k]);
    }
    ossa_default_character_free(&dc, NULL);
}

UTEST_MAIN(lane_sampling_matches_reference_for_every_path_width_and_fill,
           lane_sampling_holds_step_tracks_like_reference,
           lane_sampling_of_default_character_matches_reference,
           lane_blending_matches_reference_with_masks_threshold_and_additive,
           lane_local_to_model_and_palette_match_reference,
           lane_jobs_reject_each_missing_or_short_field,
           lane_jobs_give_the_same_bits_for_any_split_of_batches)
