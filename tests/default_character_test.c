/* default_character_test.c - the embedded character: 96 joints, about 1.8
 * units tall, three looping clips, feet that alternate when walking and
 * running and stay planted when crouching; model-space positions computed
 * here in double precision from the sampled local poses. */
#include <stdlib.h>
#include <string.h>

#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* Model positions through the ~11-deep hierarchy of unit-scale joints in a
 * 2-unit character: a few dozen float roundings, far below a millimetre. */
#define POSITION_TOL 1e-5
/* People's eye height is 0.93 +- 0.02 of their stature: +-0.04 at 1.8. */
#define STATURE_TOL 0.05
/* Planted feet: frames hold them exactly; between frames the runtime's lerp
 * of the hips and nlerp of the leg rotations part by under a millimetre. */
#define PLANT_TOL 1e-3
/* Sampling points per clip cycle. */
#define PHASES 96

typedef struct character {
    ossa_default_character c;
    const ossa_skeleton *s;
    int n;
} character;

static bool character_make(character *ch)
{
    ossa_error e;
    if (ossa_default_character_build(&ch->c, NULL, &e) != OSSA_OK) {
        fprintf(stderr, "default character: %s\n", e.message);
        return false;
    }
    ch->s = ch->c.skeleton;
    ch->n = ossa_skeleton_joint_count(ch->s);
    return true;
}

static int joint(const character *ch, const char *name)
{
    int j = ossa_skeleton_find_joint(ch->s, name);
    if (j < 0)
        fprintf(stderr, "no joint named %s\n", name);
    return j < 0 ? 0 : j;
}

/* Model transforms of clip g at time t, by the double-precision walk. */
static void model_at(const character *ch, int g, float t, ts_dmat *model)
{
    ossa_transform *local = malloc(sizeof *local * (size_t)ch->n);
    for (int j = 0; j < ch->n; ++j)
        local[j] = ossa_clip_sample_joint(ch->c.clips[g], NULL, j, t, OSSA_ROTATION_NLERP);
    ts_model_flat(ossa_skeleton_parents(ch->s), local, ch->n, NULL, model);
    free(local);
}

TEST(default_character_has_96_joints_and_three_named_clips)
{
    character ch;
    REQUIRE(character_make(&ch));
    CHECK_INT(ch.n, 96);
    CHECK_INT(OSSA_DEFAULT_JOINT_COUNT, 96);
    const char *names[OSSA_DEFAULT_CLIP_COUNT] = {"crouch", "walk", "run"};
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g) {
        REQUIRE(ch.c.clips[g]);
        CHECK(strcmp(ossa_clip_name(ch.c.clips[g]), names[g]) == 0);
        CHECK_INT(ossa_clip_joint_count(ch.c.clips[g]), 96);
        CHECK(ossa_clip_duration(ch.c.clips[g]) > 0.5f);
    }
    /* One root, the hierarchy a humanoid's: hands under arms under the spine. */
    const uint16_t *parents = ossa_skeleton_parents(ch.s);
    int roots = 0;
    for (int j = 0; j < ch.n; ++j)
        roots += parents[j] == OSSA_NO_PARENT;
    CHECK_INT(roots, 1);
    int k = joint(&ch, "hand_l"), steps = 0;
    while (k != joint(&ch, "spine_03") && parents[k] != OSSA_NO_PARENT && steps++ < 10)
        k = parents[k];
    CHECK_INT(k, joint(&ch, "spine_03"));
    ossa_default_character_free(&ch.c, NULL);
    CHECK(ch.c.skeleton == NULL && ch.c.clips[0] == NULL);
}

TEST(default_character_stands_about_1_8_tall_facing_z)
{
    character ch;
    REQUIRE(character_make(&ch));
    ts_dmat *model = malloc(sizeof *model * (size_t)ch.n);
    ts_model_flat(ossa_skeleton_parents(ch.s), ossa_skeleton_rest_pose(ch.s), ch.n, NULL, model);
    double top = -1e9, bottom = 1e9;
    for (int j = 0; j < ch.n; ++j) {
        top = fmax(top, model[j].m[1][3]);
        bottom = fmin(bottom, model[j].m[1][3]);
    }
    /* The root is on the ground; the highest joints are the brows, some 12 cm
     * under the crown, which carries no joint: 1.68 for a 1.8 figure. */
    CHECK_NEAR(bottom, 0.0, POSITION_TOL);
    CHECK(top >= 1.62 && top <= 1.74);
    /* Eyes at 93% of the stature, as people's are. */
    CHECK_NEAR(model[joint(&ch, "eye_l")].m[1][3] / 0.93, 1.8, STATURE_TOL);
    CHECK_NEAR(model[joint(&ch, "hips")].m[1][3], 0.95, POSITION_TOL);
    /* Toes in front of the ankles (+z), left on +x, both feet near the floor. */
    const double toe_z = model[joint(&ch, "toe_l")].m[2][3];
    CHECK(toe_z > model[joint(&ch, "foot_l")].m[2][3] + 0.1);
    CHECK(model[joint(&ch, "thigh_l")].m[0][3] > 0 && model[joint(&ch, "thigh_r")].m[0][3] < 0);
    CHECK(model[joint(&ch, "toe_l")].m[1][3] < 0.05 && model[joint(&ch, "toe_r")].m[1][3] < 0.05);
    /* T-pose: the hands level with the shoulders, a wingspan of ~1.4-1.9. */
    const double span = model[joint(&ch, "hand_l")].m[0][3] - model[joint(&ch, "hand_r")].m[0][3];
    CHECK(span > 1.3 && span < 1.9);
    free(model);
    ossa_default_character_free(&ch.c, NULL);
}

TEST(default_clips_loop_first_frame_equals_last)
{
    character ch;
    REQUIRE(character_make(&ch));
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g) {
        const ossa_clip *clip = ch.c.clips[g];
        const float d = ossa_clip_duration(clip);
        int differ = 0;
        for (int j = 0; j < ch.n; ++j) {
            ossa_transform a = ossa_clip_sample_joint(clip, NULL, j, 0.0f, OSSA_ROTATION_NLERP);
            ossa_transform b = ossa_clip_sample_joint(clip, NULL, j, d, OSSA_ROTATION_NLERP);
            const ossa_quat q = a.rotation, r = b.rotation;
            const bool same_rotation = (q.x == r.x && q.y == r.y && q.z == r.z && q.w == r.w) ||
                                       (q.x == -r.x && q.y == -r.y && q.z == -r.z && q.w == -r.w);
            differ += memcmp(&a.translation, &b.translation, sizeof a.translation) != 0 ||
                      memcmp(&a.scale, &b.scale, sizeof a.scale) != 0 || !same_rotation;
        }
        if (differ)
            fprintf(stderr, "clip %s: %d joints differ between its first and last frame\n",
                    ossa_clip_name(clip), differ);
        CHECK_INT(differ, 0);
        /* So looping playback is continuous across the wrap. */
        ts_dmat before[96], after[96];
        model_at(&ch, g, d * (1.0f - 1e-4f), before);
        model_at(&ch, g, d * 1e-4f, after);
        double jump = 0;
        for (int j = 0; j < ch.n; ++j)
            for (int c = 0; c < 3; ++c)
                jump = fmax(jump, fabs(before[j].m[c][3] - after[j].m[c][3]));
        CHECK(jump < 0.01); /* 2e-4 of a cycle apart: under a centimetre */
    }
    ossa_default_character_free(&ch.c, NULL);
}

/* Model z of both feet over one cycle of clip g. */
static void foot_tracks(const character *ch, int g, double zl[PHASES], double zr[PHASES])
{
    ts_dmat model[96];
    const int fl = joint(ch, "foot_l"), fr = joint(ch, "foot_r");
    const float d = ossa_clip_duration(ch->c.clips[g]);
    for (int k = 0; k < PHASES; ++k) {
        model_at(ch, g, d * (float)k / PHASES, model);
        zl[k] = model[fl].m[2][3];
        zr[k] = model[fr].m[2][3];
    }
}

static double correlation(const double *a, const double *b, int n)
{
    double ma = 0, mb = 0;
    for (int k = 0; k < n; ++k)
        ma += a[k] / n, mb += b[k] / n;
    double ab = 0, aa = 0, bb = 0;
    for (int k = 0; k < n; ++k) {
        ab += (a[k] - ma) * (b[k] - mb);
        aa += (a[k] - ma) * (a[k] - ma);
        bb += (b[k] - mb) * (b[k] - mb);
    }
    return ab / sqrt(aa * bb);
}

TEST(walk_and_run_move_the_feet_in_alternation)
{
    character ch;
    REQUIRE(character_make(&ch));
    for (int g = 1; g <= 2; ++g) {
        double zl[PHASES], zr[PHASES];
        foot_tracks(&ch, g, zl, zr);
        double lo = 1e9, hi = -1e9;
        for (int k = 0; k < PHASES; ++k)
            lo = fmin(lo, zl[k]), hi = fmax(hi, zl[k]);
        /* A real stride: the foot travels more than 40 cm fore and aft. */
        CHECK(hi - lo > 0.4);
        /* Out of phase: one foot forward while the other is back... */
        CHECK(correlation(zl, zr, PHASES) < -0.5);
        /* ...and exactly half a cycle apart (the right leg's keys are the
         * left's, half a cycle later). */
        double worst = 0;
        for (int k = 0; k < PHASES; ++k)
            worst = fmax(worst, fabs(zl[k] - zr[(k + PHASES / 2) % PHASES]));
        CHECK_NEAR(worst, 0, POSITION_TOL);
    }
    ossa_default_character_free(&ch.c, NULL);
}

TEST(crouch_keeps_the_feet_planted_and_lowers_the_hips)
{
    character ch;
    REQUIRE(character_make(&ch));
    ts_dmat model[96], rest[96];
    ts_model_flat(ossa_skeleton_parents(ch.s), ossa_skeleton_rest_pose(ch.s), ch.n, NULL, rest);
    const int feet[4] = {joint(&ch, "foot_l"), joint(&ch, "foot_r"), joint(&ch, "toe_l"),
                         joint(&ch, "toe_r")};
    const float d = ossa_clip_duration(ch.c.clips[0]);
    double slide = 0, lowest_hips = 1e9;
    for (int k = 0; k < PHASES; ++k) {
        model_at(&ch, 0, d * (float)k / PHASES, model);
        for (int f = 0; f < 4; ++f)
            for (int c = 1; c < 3; ++c) /* height and depth; the knees splay sideways */
                slide = fmax(slide, fabs(model[feet[f]].m[c][3] - rest[feet[f]].m[c][3]));
        lowest_hips = fmin(lowest_hips, model[joint(&ch, "hips")].m[1][3]);
    }
    CHECK_NEAR(slide, 0, PLANT_TOL);
    CHECK(lowest_hips < 0.65);
    ossa_default_character_free(&ch.c, NULL);
}

TEST(default_character_is_deterministic)
{
    character a, b;
    REQUIRE(character_make(&a));
    REQUIRE(character_make(&b));
    CHECK(ossa_skeleton_bytes(a.s) == ossa_skeleton_bytes(b.s) &&
          memcmp(a.s, b.s, ossa_skeleton_bytes(a.s)) == 0);
    for (int g = 0; g < OSSA_DEFAULT_CLIP_COUNT; ++g)
        CHECK(ossa_clip_bytes(a.c.clips[g]) == ossa_clip_bytes(b.c.clips[g]) &&
              memcmp(a.c.clips[g], b.c.clips[g], ossa_clip_bytes(a.c.clips[g])) == 0);
    ossa_default_character_free(&a.c, NULL);
    ossa_default_character_free(&b.c, NULL);
}

TEST(default_character_build_fails_cleanly_at_every_allocation)
{
    ts_failing_allocator counter;
    ts_failing_allocator_init(&counter, -1);
    ossa_default_character c;
    REQUIRE(ossa_default_character_build(&c, &counter.allocator, NULL) == OSSA_OK);
    ossa_default_character_free(&c, &counter.allocator);
    CHECK_INT(counter.live, 0);
    const int allocations = counter.count;
    CHECK(allocations > 4);
    for (int n = 0; n < allocations; ++n) {
        ts_failing_allocator a;
        ts_failing_allocator_init(&a, n);
        ossa_error e;
        CHECK_RESULT(ossa_default_character_build(&c, &a.allocator, &e), OSSA_ERR_OUT_OF_MEMORY);
        CHECK(c.skeleton == NULL && c.clips[0] == NULL && c.clips[2] == NULL);
        CHECK_INT(a.live, 0);
    }
}

UTEST_MAIN(default_character_has_96_joints_and_three_named_clips,
           default_character_stands_about_1_8_tall_facing_z, default_clips_loop_first_frame_equals_last,
           walk_and_run_move_the_feet_in_alternation,
           crouch_keeps_the_feet_planted_and_lowers_the_hips, default_character_is_deterministic,
           default_character_build_fails_cleanly_at_every_allocation)
