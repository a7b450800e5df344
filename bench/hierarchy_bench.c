/* hierarchy_bench.c - `ossa bench hierarchy`: seed 001's experiment side by
 * side. An army of characters, each sampled once at its own clip and time;
 * then only the hierarchy walk (local -> model) is timed, four ways: the naive
 * pointer tree (on a scattered heap, and on a fresh one), the seed's
 * flattened 4x4 loop, and the library's 3x4 and QVS jobs, plus the memory
 * floor. They must all agree before anything is timed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "flat_hierarchy.h"
#include "harness.h"
#include "naive_hierarchy.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"

/* Largest difference from the 3x4 reference any variant may show: in model
 * units for positions (the character is 1.8 units tall, so 0.1 mm if a unit
 * is a metre), and absolute for the rotation-and-scale part. The walks'
 * different float roundings measure about 1e-6 on the default character; a
 * wrong product order or parent is off by centimetres or more. */
#define POSITION_TOLERANCE 1e-4
#define BASIS_TOLERANCE 1e-4

typedef struct army {
    int characters;
    int joints;
    const uint16_t *parents;
    ossa_transform *local;       /* characters x joints sampled local poses */
    bench_mat4 *local4, *global4; /* flattened 4x4 variant */
    naive_skeleton *naive;       /* one pointer tree per character, grown interleaved */
    naive_skeleton *naive_seq;   /* the same, each tree grown at once */
    ossa_mat34 *model;           /* library 3x4 output */
    ossa_qvs *model_qvs;         /* library QVS output, and the floor's */
    ossa_local_to_model_job job;
    ossa_local_to_model_qvs_job qvs_job;
} army;

enum { V_NAIVE, V_NAIVE_SEQ, V_FLAT, V_MAT34, V_QVS, V_FLOOR, V_COUNT };

/* ---- the timed work: one frame of each variant ---- */

static void walk_naive(const army *a, naive_skeleton *trees)
{
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_local_to_global(&trees[c]);
    bench_consume(&trees[a->characters - 1].joints.items[0]->global_pose, sizeof(bench_mat4));
}

static void run_naive(void *context)
{
    army *a = context;
    walk_naive(a, a->naive);
}

static void run_naive_seq(void *context)
{
    army *a = context;
    walk_naive(a, a->naive_seq);
}

static void run_flat(void *context)
{
    army *a = context;
    const size_t n = (size_t)a->joints;
    for (int c = 0; c < a->characters; ++c)
        flat_local_to_global(a->parents, a->joints, a->local4 + (size_t)c * n,
                             a->global4 + (size_t)c * n);
    bench_consume(a->global4, sizeof(bench_mat4));
}

static void run_mat34(void *context)
{
    army *a = context;
    (void)ossa_local_to_model_job_run(&a->job); /* validated before timing */
    bench_consume(a->model, sizeof(ossa_mat34));
}

static void run_qvs(void *context)
{
    army *a = context;
    (void)ossa_local_to_model_qvs_job_run(&a->qvs_job); /* validated before timing */
    bench_consume(a->model_qvs, sizeof(ossa_qvs));
}

/* The QVS walk's loads and stores without its arithmetic or its dependency
 * on the parent: what moving its bytes costs on this machine. */
static void run_floor(void *context)
{
    army *a = context;
    const size_t count = (size_t)a->characters * (size_t)a->joints;
    const ossa_transform *restrict in = a->local;
    ossa_qvs *restrict out = a->model_qvs;
    for (size_t i = 0; i < count; ++i) {
        out[i].rotation = in[i].rotation;
        out[i].translation = in[i].translation;
        out[i].scale = in[i].scale.x;
    }
    bench_consume(out, sizeof(ossa_qvs));
}

/* ---- set-up ---- */

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

/* Every character at its own clip and time: the seed's "army of 1000
 * characters, all sampled at a different point in time". */
static bool sample_army(army *a, const ossa_default_character *character)
{
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    uint16_t *clip_index = cli_alloc(sizeof(uint16_t) * (size_t)a->characters);
    float *time_s = cli_alloc(sizeof(float) * (size_t)a->characters);
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        clips[i] = character->clips[i];
    for (int c = 0; c < a->characters; ++c) {
        clip_index[c] = (uint16_t)(c % OSSA_DEFAULT_CLIP_COUNT);
        const float unit = (float)(hash((uint32_t)c) >> 8) / 16777216.0f;
        time_s[c] = unit * ossa_clip_duration(clips[clip_index[c]]);
    }
    ossa_sampling_job job = {0};
    job.clips = clips;
    job.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    job.clip_index = clip_index;
    job.clip_index_count = a->characters;
    job.time_s = time_s;
    job.time_count = a->characters;
    job.output = a->local;
    job.output_count = a->characters * a->joints;
    ossa_result r = ossa_sampling_job_run(&job);
    if (r != OSSA_OK)
        cli_error("bench hierarchy", "sampling the army: %s", ossa_result_str(r));
    cli_free(clip_index);
    cli_free(time_s);
    return r == OSSA_OK;
}

static bool add_naive_joint(army *a, naive_skeleton *trees, int c, int j)
{
    const int parent = a->parents[j] == OSSA_NO_PARENT ? -1 : a->parents[j];
    naive_joint *joint = naive_skeleton_add_joint(&trees[c], parent);
    if (!joint) {
        cli_error("bench hierarchy", "out of memory building the naive trees");
        return false;
    }
    joint->local_pose = a->local4[(size_t)c * (size_t)a->joints + (size_t)j];
    return true;
}

/* The naive trees, one per character. `interleaved`: grown one joint at a
 * time across the whole army (joint 0 of every character, then joint 1...),
 * so every character's joints and child arrays lie among everyone else's in
 * the heap, as when a game spawns characters over time. Otherwise each tree
 * is grown completely before the next, on a fresh heap: the best case. */
static bool build_naive(army *a, bool interleaved, naive_skeleton **out)
{
    naive_skeleton *trees = cli_alloc(sizeof(naive_skeleton) * (size_t)a->characters);
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_init(&trees[c]);
    *out = trees;
    bool ok = true;
    if (interleaved)
        for (int j = 0; ok && j < a->joints; ++j)
            for (int c = 0; ok && c < a->characters; ++c)
                ok = add_naive_joint(a, trees, c, j);
    else
        for (int c = 0; ok && c < a->characters; ++c)
            for (int j = 0; ok && j < a->joints; ++j)
                ok = add_naive_joint(a, trees, c, j);
    return ok;
}

static void free_naive(const army *a, naive_skeleton *trees)
{
    if (!trees)
        return;
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_free(&trees[c]);
    cli_free(trees);
}

static bool army_init(army *a, const ossa_default_character *character, int characters)
{
    memset(a, 0, sizeof *a);
    a->characters = characters;
    a->joints = ossa_skeleton_joint_count(character->skeleton);
    a->parents = ossa_skeleton_parents(character->skeleton);
    const size_t count = (size_t)characters * (size_t)a->joints;
    a->local = cli_alloc(sizeof(ossa_transform) * count);
    a->local4 = cli_alloc(sizeof(bench_mat4) * count);
    a->global4 = cli_alloc(sizeof(bench_mat4) * count);
    a->model = cli_alloc(sizeof(ossa_mat34) * count);
    a->model_qvs = cli_alloc(sizeof(ossa_qvs) * count);
    if (!sample_army(a, character))
        return false;
    /* The seed gathers the local poses into 4x4 matrices before the walk. */
    for (size_t i = 0; i < count; ++i) {
        const ossa_mat34 m = ossa_mat34_from_transform(a->local[i]);
        a->local4[i] = bench_mat4_from_mat34(&m);
    }
    /* The best case first, while the heap is fresh. */
    if (!build_naive(a, false, &a->naive_seq) || !build_naive(a, true, &a->naive))
        return false;
    a->job.parents = a->parents;
    a->job.joint_count = a->joints;
    a->job.local = a->local;
    a->job.local_count = (int)count;
    a->job.instance_count = characters;
    a->job.model = a->model;
    a->job.model_count = (int)count;
    a->qvs_job.parents = a->parents;
    a->qvs_job.joint_count = a->joints;
    a->qvs_job.local = a->local;
    a->qvs_job.local_count = (int)count;
    a->qvs_job.instance_count = characters;
    a->qvs_job.model = a->model_qvs;
    a->qvs_job.model_count = (int)count;
    ossa_result r = ossa_local_to_model_job_validate(&a->job);
    if (r == OSSA_OK)
        r = ossa_local_to_model_qvs_job_validate(&a->qvs_job);
    if (r != OSSA_OK)
        cli_error("bench hierarchy", "local->model job: %s", ossa_result_str(r));
    return r == OSSA_OK;
}

static void army_fini(army *a)
{
    free_naive(a, a->naive);
    free_naive(a, a->naive_seq);
    void *blocks[] = {a->local, a->local4, a->global4, a->model, a->model_qvs};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
}

/* ---- the check: every variant against the library's 3x4 reference ---- */

typedef struct deviation {
    double position, basis; /* largest differences seen */
    int character, joint;   /* where the largest position difference is */
} deviation;

static void deviation_add(deviation *d, const float m[3][4], const ossa_mat34 *ref, int c, int j)
{
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 4; ++k) {
            double diff = fabs((double)m[r][k] - (double)ref->m[r][k]);
            if (!(diff <= (k == 3 ? d->position : d->basis))) { /* NaN counts as larger */
                if (k == 3) {
                    d->position = isnan(diff) ? INFINITY : diff;
                    d->character = c, d->joint = j;
                } else {
                    d->basis = isnan(diff) ? INFINITY : diff;
                }
            }
        }
}

/* Runs each variant once and compares them all, joint by joint, to the 3x4
 * job's output. Prints what disagrees and returns false when any does. */
static bool check_variants(army *a, bench_variant *variants, bool quiet)
{
    for (int v = V_NAIVE; v <= V_QVS; ++v)
        variants[v].run(variants[v].context);
    deviation dev[V_COUNT];
    memset(dev, 0, sizeof dev);
    double bottom_row = 0.0; /* the 4x4 results' last row must stay 0 0 0 1 */
    const size_t n = (size_t)a->joints;
    for (int c = 0; c < a->characters; ++c)
        for (int j = 0; j < a->joints; ++j) {
            const size_t i = (size_t)c * n + (size_t)j;
            const ossa_mat34 *ref = &a->model[i];
            const bench_mat4 *naive = &a->naive[c].joints.items[j]->global_pose;
            const bench_mat4 *naive_seq = &a->naive_seq[c].joints.items[j]->global_pose;
            const bench_mat4 *flat = &a->global4[i];
            const ossa_mat34 qvs = ossa_mat34_from_qvs(a->model_qvs[i]);
            deviation_add(&dev[V_NAIVE], naive->m, ref, c, j);
            deviation_add(&dev[V_NAIVE_SEQ], naive_seq->m, ref, c, j);
            deviation_add(&dev[V_FLAT], flat->m, ref, c, j);
            deviation_add(&dev[V_QVS], qvs.m, ref, c, j);
            for (int k = 0; k < 4; ++k) {
                const double want = k == 3 ? 1.0 : 0.0;
                bottom_row = fmax(bottom_row, fabs(naive->m[3][k] - want));
                bottom_row = fmax(bottom_row, fabs(naive_seq->m[3][k] - want));
                bottom_row = fmax(bottom_row, fabs(flat->m[3][k] - want));
            }
        }
    bool ok = bottom_row == 0.0;
    if (!ok)
        cli_error("bench hierarchy", "CHECK FAILED: a 4x4 result's bottom row differs from "
                                     "0 0 0 1 by %g", bottom_row);
    double worst_position = 0.0, worst_basis = 0.0;
    for (int v = V_NAIVE; v <= V_QVS; ++v) {
        const deviation *d = &dev[v];
        if (!(d->position <= POSITION_TOLERANCE && d->basis <= BASIS_TOLERANCE)) {
            ok = false;
            cli_error("bench hierarchy",
                      "CHECK FAILED: '%s' disagrees with the 3x4 reference: position off by %g "
                      "(character %d, joint %d; tolerance %g), rotation/scale off by %g "
                      "(tolerance %g)",
                      variants[v].name, d->position, d->character, d->joint, POSITION_TOLERANCE,
                      d->basis, BASIS_TOLERANCE);
        }
        worst_position = fmax(worst_position, d->position);
        worst_basis = fmax(worst_basis, d->basis);
    }
    if (ok && !quiet)
        printf("check: all the walks agree on all %d x %d joints: largest difference from the "
               "3x4 job %.2g in position (tolerance %g units), %.2g in rotation/scale\n",
               a->characters, a->joints, worst_position, POSITION_TOLERANCE, worst_basis);
    return ok;
}

/* ---- the command ---- */

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench hierarchy [--characters N] [options]\n"
            "\n"
            "Seed 001's experiment: an army of the default character (96 joints), each\n"
            "sampled once at its own clip and time, then only the hierarchy walk\n"
            "(local -> model, every character) is timed, four ways side by side:\n"
            "  naive   pointer tree: heap joints, growable child arrays, recursion, 4x4;\n"
            "          the trees grown joint by joint across the army (scattered heap)\n"
            "  naive-seq  the same trees, each grown at once on a fresh heap (best case)\n"
            "  flat    the seed's change: uint16 parents, SoA 4x4 poses, one loop\n"
            "  mat34   ossa_local_to_model_job: 3x4 affine from T, R, S\n"
            "  qvs     ossa_local_to_model_qvs_job: quaternion, vector, uniform scale\n"
            "and 'floor', the QVS walk's loads and stores without its arithmetic.\n"
            "All walks are checked to agree before timing.\n"
            "\n"
            "  -n, --characters N  army size (default 1000)\n"
            "%s"
            "  -h, --help      this text\n"
            "(--frames defaults to 200 here.)\n",
            bench_common_help());
}

/* Parses the command line; returns -1 to go on, else the exit code. */
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
        int parsed = bench_parse_option(argc, argv, &i, o);
        if (parsed < 0)
            return 2;
        if (parsed == 0) {
            cli_error("bench hierarchy", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (o->model) {
        cli_error("bench hierarchy", "--model %s: this bench runs the default character only",
                  o->model);
        return 2;
    }
    if (o->threads > 1) {
        cli_error("bench hierarchy", "--threads %d: this bench is single-threaded, as the "
                                     "seed's experiment", o->threads);
        return 2;
    }
    return -1;
}

/* The army of the seed's figures. */
#define SEED_CHARACTERS 1000

int bench_hierarchy_main(int argc, char **argv)
{
    bench_options o = {0};
    o.frames = 200;
    o.warmup = 5;
    int characters = SEED_CHARACTERS;
    int code = parse_options(argc, argv, &o, &characters);
    if (code >= 0)
        return code;

    army a;
    memset(&a, 0, sizeof a);
    /* B/joint: the 4x4 walks read a 64-byte local and write a 64-byte global
     * matrix (the tree also reads a child-array pointer and count, 12 bytes,
     * and one 8-byte child pointer per joint; the loop a 2-byte parent); the
     * 3x4 job reads a 40-byte T, R, S and a parent and writes 48 bytes; QVS
     * writes 32. FLOPs: 4x4 product 64 mul + 48 add; T, R, S to 3x4 39 plus
     * the 3x4 product 63; QVS: quaternion product 28, rotating the
     * translation 30, scaling and adding it 6, the scale 1. */
    const bool seed_army = characters == SEED_CHARACTERS;
    bench_variant variants[V_COUNT] = {
        {"naive", "naive: pointer tree, recursion, 4x4", run_naive, &a, seed_army ? 3.8 : -1, 148,
         112, 0, 0, 0},
        {"naive-seq", "naive: same trees, each built at once", run_naive_seq, &a, -1, 148, 112, 0,
         0, 0},
        {"flat", "flat: parent indices, one loop, 4x4", run_flat, &a, seed_army ? 3.1 : -1, 130,
         112, 0, 0, 0},
        {"mat34", "ossa 3x4: local_to_model_job (T,R,S in)", run_mat34, &a, -1, 90, 102, 0, 0, 0},
        {"qvs", "ossa QVS: local_to_model_qvs_job", run_qvs, &a, -1, 74, 65, 0, 0, 0},
        {"floor", "floor: QVS loads and stores, no maths", run_floor, &a, -1, 72, 0, 0, 0, 0},
    };
    bool known = !o.variant;
    for (int v = 0; v < V_COUNT; ++v)
        known |= o.variant && strcmp(o.variant, variants[v].name) == 0;
    if (o.list || !known) /* prints the names, or says which exist */
        return bench_run(variants, V_COUNT, &o) == 0 && o.list ? 0 : 2;

    ossa_default_character character;
    ossa_error error;
    if (ossa_default_character_build(&character, NULL, &error) != OSSA_OK) {
        cli_error("bench hierarchy", "default character: %s", error.message);
        return 1;
    }
    code = 1;
    if (army_init(&a, &character, characters) && check_variants(&a, variants, o.json)) {
        bench_run(variants, V_COUNT, &o);
        char title[128];
        snprintf(title, sizeof title, "hierarchy: %d characters x %d joints, local -> model only",
                 a.characters, a.joints);
        bench_report report = {
            title, "joint", (double)a.characters * a.joints, V_NAIVE,
            seed_army ? "seed 001 (2013, an i7): naive 3.8 ms -> flattened 3.1 ms (-18%); its\n"
                        " comments measured a quaternion-vector walk ~50% faster than the 4x4 one"
                      : NULL,
            "The 4x4 rows start from matrices built before timing, as the seed's did; the\n"
            "ossa rows read T, R, S and build each joint's transform inside the walk.\n"
            "'floor' moves the QVS walk's bytes with no arithmetic: the memory floor."};
        bench_print(&report, variants, V_COUNT, &o);
        code = 0;
    }
    army_fini(&a);
    ossa_default_character_free(&character, NULL);
    return code;
}
