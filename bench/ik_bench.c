/* ik_bench.c - `ossa bench ik`: issue 13's goal measured. An army of
 * characters (1000 by default), each sampled at its own clip and time, gets
 * per frame two legs of two-bone IK (feet onto targets near where the clip
 * put them, knees forward) and a 3-joint look-at chain (spine, neck, head
 * toward one point): the reference jobs one character at a time, and the
 * lane jobs, side by side in one run; the goal's verdict is printed from the
 * measured medians. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "goals.h"
#include "harness.h"
#include "hierarchy_army.h"

/* The goal: the whole IK of 1000 characters within 0.1 ms, one thread. */
#define GOAL_CHARACTERS 1000
#define GOAL_MS 0.1
/* Lanes and reference must agree before timing: corrected rotations within
 * this many radians (tests/ik_lanes_test.c holds well-conditioned limbs to
 * 1e-5; sampled poses include nearly straight legs, where the knee's angle
 * is ill-conditioned). */
#define AGREE_TOLERANCE 1e-4

enum { V_REFERENCE, V_LANES, V_LANE_LEGS, V_LANE_LOOK, V_COUNT };
enum { LEG_L, LEG_R };

typedef struct ik_scene {
    int characters, joints, width;
    const uint16_t *parents;
    int thigh[2], calf[2], foot[2];
    uint16_t chain[3];
    ossa_transform *local;     /* sampled poses (AoS), kept for the check */
    ossa_mat34 *model;         /* their model transforms */
    ossa_transform *ref_local; /* the reference jobs' pose, corrected in place */
    float *lane_local;         /* the lane jobs' pose */
    float *lane_model;
    int lane_pose_floats, lane_model_floats;
    ossa_float3 *foot_target[2];
    uint8_t *ref_flags[3], *lane_flags[3];
    ossa_ik_two_bone_job ref_leg[2];
    ossa_ik_aim_job ref_look;
    ossa_lane_ik_two_bone_job lane_leg[2];
    ossa_lane_ik_aim_job lane_look;
} ik_scene;

/* ---- the timed work ---- */

static void run_reference(void *context)
{
    ik_scene *s = context;
    /* validated before timing; the corrections are recomputed from the same
     * model every frame, so the work per frame does not change */
    (void)ossa_ik_two_bone_job_run(&s->ref_leg[LEG_L]);
    (void)ossa_ik_two_bone_job_run(&s->ref_leg[LEG_R]);
    (void)ossa_ik_aim_job_run(&s->ref_look);
    bench_consume(s->ref_local, sizeof(ossa_transform));
}

static void run_lane_legs(void *context)
{
    ik_scene *s = context;
    (void)ossa_lane_ik_two_bone_job_run(&s->lane_leg[LEG_L]);
    (void)ossa_lane_ik_two_bone_job_run(&s->lane_leg[LEG_R]);
    bench_consume(s->lane_local, sizeof(float));
}

static void run_lane_look(void *context)
{
    ik_scene *s = context;
    (void)ossa_lane_ik_aim_job_run(&s->lane_look);
    bench_consume(s->lane_local, sizeof(float));
}

static void run_lanes(void *context)
{
    run_lane_legs(context);
    run_lane_look(context);
}

/* ---- set-up ---- */

/* Index of a lane value: component k of joint j of character c. */
static size_t lane_at(const ik_scene *s, int components, int c, int j, int k)
{
    const int b = c / s->width, l = c % s->width;
    return (((size_t)b * (size_t)s->joints + (size_t)j) * (size_t)components + (size_t)k) *
               (size_t)s->width + (size_t)l;
}

/* The AoS poses and models in lane layout (ossa/lanes.h), unused lanes of
 * the last batch repeating its first character. */
static void pack_lanes(ik_scene *s)
{
    const int slots = ossa_lane_batch_count(s->characters, s->width) * s->width;
    for (int c = 0; c < slots; ++c) {
        const int src = c < s->characters ? c : c / s->width * s->width;
        for (int j = 0; j < s->joints; ++j) {
            const size_t i = (size_t)src * (size_t)s->joints + (size_t)j;
            const ossa_transform *t = &s->local[i];
            const float v[10] = {t->translation.x, t->translation.y, t->translation.z,
                                 t->rotation.x,    t->rotation.y,    t->rotation.z,
                                 t->rotation.w,    t->scale.x,       t->scale.y,
                                 t->scale.z};
            for (int k = 0; k < 10; ++k)
                s->lane_local[lane_at(s, 10, c, j, k)] = v[k];
            for (int k = 0; k < 12; ++k)
                s->lane_model[lane_at(s, 12, c, j, k)] = s->model[i].m[k / 4][k % 4];
        }
    }
}

static bool find_joints(ik_scene *s, const ossa_skeleton *sk)
{
    static const char *const names[] = {"thigh_l", "calf_l", "foot_l", "thigh_r", "calf_r",
                                        "foot_r",  "spine_03", "neck_01", "head"};
    int at[9];
    for (int i = 0; i < 9; ++i) {
        at[i] = ossa_skeleton_find_joint(sk, names[i]);
        if (at[i] < 0) {
            cli_error("bench ik", "the skeleton has no joint named '%s' (the bench moves the "
                                  "default character's legs and neck: thigh/calf/foot_l/r, "
                                  "spine_03, neck_01, head)", names[i]);
            return false;
        }
    }
    for (int leg = 0; leg < 2; ++leg) {
        s->thigh[leg] = at[3 * leg];
        s->calf[leg] = at[3 * leg + 1];
        s->foot[leg] = at[3 * leg + 2];
    }
    for (int k = 0; k < 3; ++k)
        s->chain[k] = (uint16_t)at[6 + k];
    return true;
}

/* Samples the army and builds both paths' jobs. */
static bool ik_scene_init(ik_scene *s, const character *ch, int characters)
{
    s->characters = characters;
    s->joints = ossa_skeleton_joint_count(ch->skeleton);
    s->parents = ossa_skeleton_parents(ch->skeleton);
    s->width = ossa_lane_width();
    if (!find_joints(s, ch->skeleton))
        return false;
    const size_t n = (size_t)characters * (size_t)s->joints;
    s->local = cli_alloc(n * sizeof *s->local);
    s->ref_local = cli_alloc(n * sizeof *s->ref_local);
    s->model = cli_alloc(n * sizeof *s->model);
    s->lane_pose_floats = ossa_lane_pose_floats(s->joints, characters, s->width);
    s->lane_model_floats = ossa_lane_model_floats(s->joints, characters, s->width);
    s->lane_local = cli_alloc((size_t)s->lane_pose_floats * sizeof(float));
    s->lane_model = cli_alloc((size_t)s->lane_model_floats * sizeof(float));
    for (int k = 0; k < 3; ++k) {
        s->ref_flags[k] = cli_alloc((size_t)characters);
        s->lane_flags[k] = cli_alloc((size_t)characters);
    }

    /* every character at its own clip and time, as `bench hierarchy` */
    uint16_t *clip_index = cli_alloc(sizeof(uint16_t) * (size_t)characters);
    float *time_s = cli_alloc(sizeof(float) * (size_t)characters);
    for (int c = 0; c < characters; ++c) {
        clip_index[c] = (uint16_t)(c % ch->clip_count);
        time_s[c] = cli_unit((uint32_t)c) * ossa_clip_duration(ch->clips[clip_index[c]]);
    }
    ossa_sampling_job sj = {0};
    sj.clips = ch->clips;
    sj.clip_count = ch->clip_count;
    sj.clip_index = clip_index;
    sj.clip_index_count = characters;
    sj.time_s = time_s;
    sj.character_count = characters;
    sj.output = s->local;
    sj.output_count = (int)n;
    ossa_result r = ossa_sampling_job_run(&sj);
    cli_free(clip_index);
    cli_free(time_s);
    ossa_local_to_model_job lj = {0};
    lj.parents = s->parents;
    lj.joint_count = s->joints;
    lj.local = s->local;
    lj.local_count = (int)n;
    lj.character_count = characters;
    lj.model = s->model;
    lj.model_count = (int)n;
    if (r == OSSA_OK)
        r = ossa_local_to_model_job_run(&lj);
    if (r != OSSA_OK) {
        cli_error("bench ik", "sampling the army: %s", ossa_result_str(r));
        return false;
    }
    memcpy(s->ref_local, s->local, n * sizeof *s->local);
    pack_lanes(s);

    /* Foot targets: where the clip put the foot, moved up or down by up to
     * 6 cm (uneven ground), so most are reached and some need a straight
     * leg. Knees bend about the calf's +x and face +z (the character's
     * forward); the head looks at a point ahead and to the side. */
    for (int leg = 0; leg < 2; ++leg) {
        s->foot_target[leg] = cli_alloc(sizeof(ossa_float3) * (size_t)characters);
        for (int c = 0; c < characters; ++c) {
            const ossa_mat34 *f = &s->model[(size_t)c * (size_t)s->joints + (size_t)s->foot[leg]];
            const float dy = 0.12f * (cli_unit(cli_hash((uint32_t)(2 * c + leg))) - 0.5f);
            s->foot_target[leg][c] = (ossa_float3){f->m[0][3], f->m[1][3] + dy, f->m[2][3]};
        }
        ossa_ik_two_bone_job *j = &s->ref_leg[leg];
        memset(j, 0, sizeof *j);
        j->parents = s->parents;
        j->joint_count = s->joints;
        j->start_joint = s->thigh[leg];
        j->mid_joint = s->calf[leg];
        j->end_joint = s->foot[leg];
        j->model = s->model;
        j->model_count = (int)n;
        j->local = s->ref_local;
        j->local_count = (int)n;
        j->character_count = characters;
        j->targets = s->foot_target[leg];
        j->target_count = characters;
        j->pole = (ossa_float3){0, 0, 1};
        j->mid_axis = (ossa_float3){1, 0, 0};
        j->soften = 0.05f;
        j->flags = s->ref_flags[leg];
        j->flag_count = characters;
        ossa_lane_ik_two_bone_job *l = &s->lane_leg[leg];
        memset(l, 0, sizeof *l);
        l->parents = j->parents;
        l->joint_count = j->joint_count;
        l->start_joint = j->start_joint;
        l->mid_joint = j->mid_joint;
        l->end_joint = j->end_joint;
        l->model = s->lane_model;
        l->model_count = s->lane_model_floats;
        l->local = s->lane_local;
        l->local_count = s->lane_pose_floats;
        l->character_count = characters;
        l->width = s->width;
        l->targets = j->targets;
        l->target_count = characters;
        l->pole = j->pole;
        l->mid_axis = j->mid_axis;
        l->soften = j->soften;
        l->flags = s->lane_flags[leg];
        l->flag_count = characters;
    }
    static const float chain_weights[3] = {1.0f, 0.5f, 0.5f};
    ossa_ik_aim_job *a = &s->ref_look;
    memset(a, 0, sizeof *a);
    a->parents = s->parents;
    a->joint_count = s->joints;
    a->chain = s->chain;
    a->chain_count = 3;
    a->chain_weights = chain_weights;
    a->model = s->model;
    a->model_count = (int)n;
    a->local = s->ref_local;
    a->local_count = (int)n;
    a->character_count = characters;
    a->target = (ossa_float3){1.5f, 1.7f, 2.5f};
    a->offset = (ossa_float3){0.0f, 0.09f, 0.08f};
    a->up = (ossa_float3){0, 1, 0};
    a->pole = (ossa_float3){0, 1, 0};
    a->flags = s->ref_flags[2];
    a->flag_count = characters;
    ossa_lane_ik_aim_job *la = &s->lane_look;
    memset(la, 0, sizeof *la);
    la->parents = a->parents;
    la->joint_count = a->joint_count;
    la->chain = a->chain;
    la->chain_count = 3;
    la->chain_weights = chain_weights;
    la->model = s->lane_model;
    la->model_count = s->lane_model_floats;
    la->local = s->lane_local;
    la->local_count = s->lane_pose_floats;
    la->character_count = characters;
    la->width = s->width;
    la->target = a->target;
    la->offset = a->offset;
    la->up = a->up;
    la->pole = a->pole;
    la->flags = s->lane_flags[2];
    la->flag_count = characters;

    ossa_result v[6] = {ossa_ik_two_bone_job_validate(&s->ref_leg[0]),
                        ossa_ik_two_bone_job_validate(&s->ref_leg[1]),
                        ossa_ik_aim_job_validate(&s->ref_look),
                        ossa_lane_ik_two_bone_job_validate(&s->lane_leg[0]),
                        ossa_lane_ik_two_bone_job_validate(&s->lane_leg[1]),
                        ossa_lane_ik_aim_job_validate(&s->lane_look)};
    for (int i = 0; i < 6; ++i)
        if (v[i] != OSSA_OK) {
            cli_error("bench ik", "job %d does not validate: %s", i, ossa_result_str(v[i]));
            return false;
        }
    return true;
}

static void ik_scene_fini(ik_scene *s)
{
    cli_free(s->local);
    cli_free(s->ref_local);
    cli_free(s->model);
    cli_free(s->lane_local);
    cli_free(s->lane_model);
    for (int k = 0; k < 3; ++k) {
        cli_free(s->ref_flags[k]);
        cli_free(s->lane_flags[k]);
    }
    for (int leg = 0; leg < 2; ++leg)
        cli_free(s->foot_target[leg]);
}

/* One frame of each path from the sampled pose; the corrected rotations of
 * every moved joint must agree, and so must the flags. */
static bool check_paths(ik_scene *s, bool quiet)
{
    run_reference(s);
    run_lanes(s);
    const int moved[7] = {s->thigh[0], s->calf[0], s->thigh[1], s->calf[1],
                          s->chain[0], s->chain[1], s->chain[2]};
    double worst = 0;
    int flag_diff = 0, reached[3] = {0, 0, 0};
    for (int c = 0; c < s->characters; ++c) {
        for (int m = 0; m < 7; ++m) {
            const ossa_quat a = s->ref_local[(size_t)c * (size_t)s->joints + (size_t)moved[m]].rotation;
            const float b[4] = {s->lane_local[lane_at(s, 10, c, moved[m], 3)],
                                s->lane_local[lane_at(s, 10, c, moved[m], 4)],
                                s->lane_local[lane_at(s, 10, c, moved[m], 5)],
                                s->lane_local[lane_at(s, 10, c, moved[m], 6)]};
            /* the angle of a^-1 b, from its vector part and scalar (acos of
             * the dot product would turn float noise near 1 into 1e-3 rad) */
            const double w = (double)a.w * b[3] + (double)a.x * b[0] + (double)a.y * b[1] +
                             (double)a.z * b[2];
            const double x = (double)a.w * b[0] - (double)a.x * b[3] - (double)a.y * b[2] +
                             (double)a.z * b[1];
            const double y = (double)a.w * b[1] + (double)a.x * b[2] - (double)a.y * b[3] -
                             (double)a.z * b[0];
            const double z = (double)a.w * b[2] - (double)a.x * b[1] + (double)a.y * b[0] -
                             (double)a.z * b[3];
            const double angle = 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
            if (!(angle <= worst))
                worst = angle;
        }
        for (int k = 0; k < 3; ++k) {
            flag_diff += s->ref_flags[k][c] != s->lane_flags[k][c];
            reached[k] += (s->ref_flags[k][c] & OSSA_IK_REACHED) != 0;
        }
    }
    const bool ok = worst <= AGREE_TOLERANCE && flag_diff == 0;
    if (!ok)
        cli_error("bench ik", "CHECK FAILED: lanes and reference differ: rotations by up to %.3g "
                              "rad (tolerance %.3g), %d flags", worst, AGREE_TOLERANCE, flag_diff);
    else if (!quiet)
        printf("check: lanes and reference agree on %d characters: rotations within %.2g rad, "
               "flags equal; targets reached: left foot %d, right foot %d, look %d\n",
               s->characters, worst, reached[0], reached[1], reached[2]);
    return ok;
}

/* ---- the command ---- */

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench ik [--characters N] [options]\n"
            "\n"
            "Issue 13's goal: an army of the default character (or a blob's with the same\n"
            "joint names, --model), each sampled at its own clip and time, gets two legs\n"
            "of two-bone IK and a 3-joint look-at chain per frame, on one thread:\n"
            "  reference   ossa_ik_two_bone_job x 2 + ossa_ik_aim_job, one character at\n"
            "              a time\n"
            "  lanes       the lane jobs, W characters per vector (W = ossa_lane_width())\n"
            "  lane-legs, lane-look   the two parts of 'lanes'\n"
            "Both paths are checked to agree first. The verdict compares 'lanes' with the\n"
            "goal (0.1 ms for 1000 default characters, one thread).\n"
            "\n"
            "  -n, --characters N  army size (default 1000)\n"
            "  --model FILE.ossa   a blob with a skeleton and clips\n"
            "%s"
            "  -h, --help      this text\n"
            "(--frames defaults to 500 here, --cache to warm: in a frame IK reads what\n"
            "local->model has just written; --cache cold measures it from memory.)\n",
            bench_common_help());
}

static int parse_options(int argc, char **argv, bench_options *o, int *characters)
{
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        }
        if (cli_is(argv[i], "--characters", "-n")) {
            if (!cli_int_arg(argc, argv, &i, 1, 100000, characters))
                return 2;
            continue;
        }
        const int parsed = bench_parse_option(argc, argv, &i, o);
        if (parsed < 0)
            return 2;
        if (parsed == 0) {
            cli_error("bench ik", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (o->threads > 1) {
        cli_error("bench ik", "--threads %d: the goal is for one thread", o->threads);
        return 2;
    }
    return -1;
}

int bench_ik_main(int argc, char **argv)
{
    bench_options o = {0};
    o.frames = 500;
    o.warmup = 20;
    int characters = GOAL_CHARACTERS;
    int code = parse_options(argc, argv, &o, &characters);
    if (code >= 0)
        return code;
    /* In a frame, IK reads the model local->model has just written (the
     * crowd does both per batch, in cache): warm caches unless told. A
     * variant run alone finds them so already (each frame follows one of
     * its own), with no untimed frames to count under valgrind. */
    if (o.cache == BENCH_CACHE_AS_IS && !o.variant)
        o.cache = BENCH_CACHE_WARM;
    const bool warm = o.cache == BENCH_CACHE_WARM || (o.variant && o.cache == BENCH_CACHE_AS_IS);

    ik_scene s;
    memset(&s, 0, sizeof s);
    bench_variant variants[V_COUNT] = {
        {"reference", "reference: 2 two-bone + aim(3), per character", run_reference, &s, -1, 0,
         0, 0, 0, 0},
        {"lanes", "lanes: 2 two-bone + aim(3), W per vector", run_lanes, &s, -1, 0, 0, 0, 0, 0},
        {"lane-legs", "lanes: the two legs (two-bone x 2)", run_lane_legs, &s, -1, 0, 0, 0, 0, 0},
        {"lane-look", "lanes: the look-at chain (aim, 3 joints)", run_lane_look, &s, -1, 0, 0, 0,
         0, 0},
    };
    bool known = !o.variant;
    for (int v = 0; v < V_COUNT; ++v)
        known |= o.variant && strcmp(o.variant, variants[v].name) == 0;
    if (o.list || !known)
        return bench_run(variants, V_COUNT, &o) == 0 && o.list ? 0 : 2;

    character ch;
    if (!hierarchy_character_load(&ch, o.model)) {
        hierarchy_character_free(&ch);
        return 1;
    }
    code = 1;
    if (ik_scene_init(&s, &ch, characters) && check_paths(&s, o.json)) {
        bench_run(variants, V_COUNT, &o);
        char title[300];
        snprintf(title, sizeof title,
                 "ik: %d characters (%s), 2 legs two-bone + 3-joint look-at, one thread, "
                 "lanes of %d (%s)", characters, ch.description, s.width,
                 ossa_simd_path_name(ossa_simd_best_path()));
        char note[200];
        note[0] = '\0';
        if (variants[V_LANES].frames_run > 0 && variants[V_REFERENCE].frames_run > 0)
            snprintf(note, sizeof note, "lanes %.1fx faster than the reference jobs in this run",
                     variants[V_REFERENCE].median_ns / variants[V_LANES].median_ns);
        bench_report report = {title, "character", (double)characters, V_REFERENCE, NULL,
                               note[0] ? note : NULL};
        bench_print(&report, variants, V_COUNT, &o);
        if (!o.json) {
            const bench_goal goal = {
                "IK: 1000 x (2 legs two-bone + 3-joint look-at), lanes", "ms",
                variants[V_LANES].frames_run > 0 ? variants[V_LANES].median_ns * 1e-6 : -1.0,
                BENCH_AT_MOST, GOAL_MS, "issue 13",
                characters == GOAL_CHARACTERS && !o.model && warm,
                "1000 default characters, 1 thread, warm caches (IK right after "
                "local->model, as in the crowd's batch)"};
            bench_print_goals(&goal, 1, &o);
        }
        code = 0;
    }
    ik_scene_fini(&s);
    hierarchy_character_free(&ch);
    return code;
}
