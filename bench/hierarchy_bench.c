/* hierarchy_bench.c - `ossa bench hierarchy`: seed 001's experiment side by
 * side. An army of characters (the default one, or a blob's with --model),
 * each sampled once at its own clip and time; then only the hierarchy walk
 * (local -> model) is timed, four ways: the naive pointer tree (on a
 * scattered heap, and on a fresh one), the seed's flattened 4x4 loop, and
 * the library's 3x4 and QVS jobs, plus the memory floor. They must all agree
 * before anything is timed, except QVS on a character whose poses have a
 * non-uniform scale, which QVS cannot represent: that is reported. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "harness.h"
#include "hierarchy_army.h"

/* Largest difference from the 3x4 reference any variant may show: for
 * positions, per unit of the character's extent (its largest model-space
 * translation, at least 1: the default character is 1.8 units tall, arnaud
 * 180), and absolute for the rotation-and-scale part. The walks' different
 * float roundings measure about 1e-6 relative; a wrong product order or
 * parent is off by a sizeable part of the character. */
#define POSITION_TOLERANCE 1e-4
#define BASIS_TOLERANCE 1e-4

enum { V_NAIVE, V_NAIVE_INTERLEAVED, V_FLAT, V_MAT34, V_QVS, V_FLOOR, V_COUNT };

/* ---- the timed work: one frame of each variant ---- */

static void walk_naive(const army *a, naive_skeleton *trees)
{
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_local_to_global(&trees[c]);
    bench_consume(&trees[a->characters - 1].joints.items[0]->global_pose, sizeof(bench_mat4));
}

/* The naive version as a game would have it: each character's tree
 * allocated when the character is made. */
static void run_naive(void *context)
{
    army *a = context;
    walk_naive(a, a->naive);
}

/* Its worst case: the trees grown joint by joint across the whole army, so
 * a character's joints lie scattered over the heap. */
static void run_naive_interleaved(void *context)
{
    army *a = context;
    walk_naive(a, a->naive_interleaved);
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
            const bench_mat4 *interleaved = &a->naive_interleaved[c].joints.items[j]->global_pose;
            const bench_mat4 *naive = &a->naive[c].joints.items[j]->global_pose;
            const bench_mat4 *flat = &a->global4[i];
            const ossa_mat34 qvs = ossa_mat34_from_qvs(a->model_qvs[i]);
            deviation_add(&dev[V_NAIVE_INTERLEAVED], interleaved->m, ref, c, j);
            deviation_add(&dev[V_NAIVE], naive->m, ref, c, j);
            deviation_add(&dev[V_FLAT], flat->m, ref, c, j);
            deviation_add(&dev[V_QVS], qvs.m, ref, c, j);
            for (int k = 0; k < 4; ++k) {
                const double want = k == 3 ? 1.0 : 0.0;
                bottom_row = fmax(bottom_row, fabs(naive->m[3][k] - want));
                bottom_row = fmax(bottom_row, fabs(interleaved->m[3][k] - want));
                bottom_row = fmax(bottom_row, fabs(flat->m[3][k] - want));
            }
        }
    bool ok = bottom_row == 0.0;
    if (!ok)
        cli_error("bench hierarchy", "CHECK FAILED: a 4x4 result's bottom row differs from "
                                     "0 0 0 1 by %g", bottom_row);
    double extent = 1.0;
    for (size_t i = 0; i < (size_t)a->characters * n; ++i)
        for (int r = 0; r < 3; ++r)
            extent = fmax(extent, fabs((double)a->model[i].m[r][3]));
    a->position_tolerance = POSITION_TOLERANCE * extent;
    a->qvs_position = dev[V_QVS].position;
    a->qvs_basis = dev[V_QVS].basis;
    double worst_position = 0.0, worst_basis = 0.0;
    for (int v = V_NAIVE; v <= V_QVS; ++v) {
        const deviation *d = &dev[v];
        if (v == V_QVS && a->nonuniform > 0)
            continue; /* not a fault: reported beside the table */
        if (!(d->position <= a->position_tolerance && d->basis <= BASIS_TOLERANCE)) {
            ok = false;
            cli_error("bench hierarchy",
                      "CHECK FAILED: '%s' disagrees with the 3x4 reference: position off by %g "
                      "(character %d, joint %d; tolerance %g), rotation/scale off by %g "
                      "(tolerance %g)",
                      variants[v].name, d->position, d->character, d->joint,
                      a->position_tolerance, d->basis, BASIS_TOLERANCE);
        }
        worst_position = fmax(worst_position, d->position);
        worst_basis = fmax(worst_basis, d->basis);
    }
    if (ok && !quiet)
        printf("check: %s walks agree on all %d x %d joints: largest difference from the 3x4 "
               "job %.2g in position (tolerance %.2g units), %.2g in rotation/scale\n",
               a->nonuniform ? "all the exact" : "all the", a->characters, a->joints,
               worst_position, a->position_tolerance, worst_basis);
    return ok;
}

/* What the QVS row means for this character, for the table's note. */
static void qvs_note(const army *a, char *out, size_t size)
{
    const long long transforms = (long long)a->characters * a->joints;
    if (a->nonuniform == 0)
        snprintf(out, size, "QVS is exact here: every sampled local scale is uniform (QVS off "
                            "by %.2g units at most).", a->qvs_position);
    else
        snprintf(out, size,
                 "QVS IS NOT EXACT FOR THIS CHARACTER: %d of %lld sampled local transforms have "
                 "a non-uniform scale (components up to %.3g%% apart), and the QVS walk keeps "
                 "only scale.x: its poses are off by up to %.3g units (%.3g in rotation/scale). "
                 "Its time is shown for comparison only; use the 3x4 job for this character.",
                 a->nonuniform, transforms, 100.0 * a->nonuniform_largest, a->qvs_position,
                 a->qvs_basis);
}

/* ---- the command ---- */

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench hierarchy [--characters N] [options]\n"
            "\n"
            "Seed 001's experiment: an army of the default character (96 joints), or of\n"
            "a blob's (--model), each sampled once at its own clip and time, then only\n"
            "the hierarchy walk\n"
            "(local -> model, every character) is timed, four ways side by side:\n"
            "  naive   pointer tree: heap joints, growable child arrays, recursion, 4x4;\n"
            "          each character's tree allocated whole, as a game makes a character\n"
            "  naive-interleaved  the same trees grown joint by joint across the army:\n"
            "          every character's joints scattered over the heap (a worst case)\n"
            "  flat    the seed's change: uint16 parents, SoA 4x4 poses, one loop\n"
            "  mat34   ossa_local_to_model_job: 3x4 affine from T, R, S\n"
            "  qvs     ossa_local_to_model_qvs_job: quaternion, vector, uniform scale\n"
            "and 'floor', the QVS walk's loads and stores without its arithmetic.\n"
            "All walks are checked to agree before timing; QVS only when every sampled\n"
            "scale is uniform (otherwise the report says how far off it is).\n"
            "\n"
            "  -n, --characters N  army size (default 1000)\n"
            "  --model FILE.ossa   a blob with a skeleton and clips instead of the\n"
            "                      default character\n"
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
    const bool seed_army = characters == SEED_CHARACTERS && !o.model;
    bench_variant variants[V_COUNT] = {
        {"naive", "naive: pointer tree, recursion, 4x4", run_naive, &a, seed_army ? 3.8 : -1, 148,
         112, 0, 0, 0},
        {"naive-interleaved", "worst case: naive trees interleaved", run_naive_interleaved, &a,
         -1, 148, 112, 0, 0, 0},
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

    character ch;
    if (!hierarchy_character_load(&ch, o.model)) {
        hierarchy_character_free(&ch);
        return 1;
    }
    code = 1;
    if (hierarchy_army_init(&a, &ch, characters) && check_variants(&a, variants, o.json)) {
        if (a.nonuniform)
            variants[V_QVS].label = "ossa QVS: local_to_model_qvs_job, NOT exact";
        bench_run(variants, V_COUNT, &o);
        char title[300], note[1000];
        snprintf(title, sizeof title,
                 "hierarchy: %d characters x %d joints (%s), local -> model only", a.characters,
                 a.joints, ch.description);
        int at = snprintf(note, sizeof note, "%s",
                          "The 4x4 rows start from matrices built before timing, as the seed's "
                          "did; the\nossa rows read T, R, S and build each joint's transform "
                          "inside the walk.\n'floor' moves the QVS walk's bytes with no "
                          "arithmetic: the memory floor.\n");
        qvs_note(&a, note + at, sizeof note - (size_t)at);
        bench_report report = {
            title, "joint", (double)a.characters * a.joints, V_NAIVE,
            seed_army ? "seed 001 (2013, an i7): naive 3.8 ms -> flattened 3.1 ms (-18%); its\n"
                        " comments measured a quaternion-vector walk ~50% faster than the 4x4 one"
                      : NULL,
            note};
        bench_print(&report, variants, V_COUNT, &o);
        code = 0;
    }
    hierarchy_army_fini(&a);
    hierarchy_character_free(&ch);
    return code;
}
