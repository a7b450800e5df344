/* compression_bench.c - `ossa bench compression`: every clip of the shared
 * models built the way `ossa build` builds it (error-bounded rate,
 * compressed), without root motion and with it (`ossa build`'s default),
 * its raw size (ten float32 per joint and key, ACL's definition) at the rate
 * it is stored at and at the rate of the source's own keys (the builder
 * raises the rate until keys hold the tolerance between frames: raw floats
 * at that rate are not the source's samples) against its stored size, its
 * largest error in the clip metric and the time the build
 * took; pab walk, jog and run beside ozz-animation 0.16's sizes for them;
 * then its verdicts against issue 10's goals, computed from the numbers
 * above, for both builds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"

/* ozz-animation 0.16's files for the same clips (pab_walk.ozz,
 * pab_jog.ozz, pab_run.ozz), at its default tolerance of 1 mm at 10 cm. */
static const struct {
    const char *clip;
    int bytes;
} ozz_sizes[] = {{"walk", 10936}, {"jog", 7683}, {"run", 7219}};
#define OZZ_TOTAL (10936 + 7683 + 7219)
#define GOAL_RATIO 20.0

/* The inputs: a file giving the skeleton (and rigid meshes), the files
 * whose clips play on it, and whether nodes below joints are joints. */
static const struct {
    const char *skeleton;
    const char *clips[5];
    bool all_nodes;
} inputs[] = {
    {"pab/skeleton.fbx",
     {"pab/walk.fbx", "pab/jog.fbx", "pab/run.fbx", "pab/crossarms.fbx", "pab/skeleton.fbx"},
     true},
    {"khronos/cesium_man.gltf", {"khronos/cesium_man.gltf"}, false},
    {"khronos/interpolation_test.gltf", {"khronos/interpolation_test.gltf"}, false},
    {"khronos/rigged_simple.gltf", {"khronos/rigged_simple.gltf"}, false},
    {"khronos/rigged_figure.gltf", {"khronos/rigged_figure.gltf"}, false},
    {"khronos/simple_skin.gltf", {"khronos/simple_skin.gltf"}, false},
    {"khronos/animated_triangle.gltf", {"khronos/animated_triangle.gltf"}, false},
    {"cmu/scaled_131_01.bvh", {"cmu/scaled_131_01.bvh"}, false},
    {"cmu/scaled_131_02.bvh", {"cmu/scaled_131_02.bvh"}, false},
};

/* One clip built one way: its keys, raw size (its own: root motion may
 * raise the rate) and stored size. */
typedef struct build {
    int frames;
    size_t raw, bytes;
    size_t source_raw; /* ten float32 per joint and key at the source's key rate */
    double seconds, error_mm;
    char worst[48];
} build;

/* One clip: built without root motion (the sizes compared with ozz's, whose
 * clips carry no motion track) and with it (rm; its motion track counted). */
typedef struct row {
    char file[64], name[48];
    int joints;
    double rate, tolerance_mm;
    double key_rate; /* the rate the source's keys are on (or 30 Hz: off any grid) */
    bool on_grid;
    build keep, rm;
    bool units_assumed, moves;
} row;

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench compression [--models DIR] [--thorough] [--json]\n"
            "\n"
            "Builds every clip of the shared models as `ossa build` does (error-bounded\n"
            "rate, compressed to 0.1 mm at 3 cm), without root motion and with it (the\n"
            "default of `ossa build`), and prints per clip the keys, the raw size (ten\n"
            "float32 per joint and key, ACL's definition) at the stored rate and at the\n"
            "rate of the source's own keys, and for each build the stored size, the\n"
            "ratios, the largest error and the build time; pab walk, jog and run\n"
            "beside ozz-animation 0.16's sizes; then the verdicts against issue 10's\n"
            "goals, for each build.\n"
            "  --models DIR  the shared models (default $OSSA_MODELS, else ../shared/models)\n"
            "  --thorough    the thorough search (compression_level 1)\n"
            "  --json        one JSON object instead of the table\n");
}

static const char *models_dir(const char *given)
{
    if (given)
        return given;
    const char *env = getenv("OSSA_MODELS");
    return env && env[0] ? env : "../shared/models";
}

/* Builds the clips of one input; appends rows. Returns false when a file
 * is missing (the row count says what was measured). */
static bool build_input(const char *dir, int input, int level, row *rows, int *count, int max)
{
    char path[1024];
    ossa_import_options io = {0};
    io.all_nodes = inputs[input].all_nodes;
    ossa_import base;
    ossa_error e;
    snprintf(path, sizeof path, "%s/%s", dir, inputs[input].skeleton);
    if (ossa_import_file(path, &io, &base, &e) != OSSA_OK) {
        cli_error("bench compression", "%s", e.message);
        return false;
    }
    ossa_skeleton_build_options so = {0};
    so.metres_per_unit = base.metres_per_unit;
    ossa_skeleton *sk = NULL;
    if (ossa_skeleton_build(&base.skeleton, &so, &sk, NULL, &e) != OSSA_OK) {
        cli_error("bench compression", "%s: %s", path, e.message);
        ossa_import_free(&base);
        return false;
    }
    const int joints = ossa_skeleton_joint_count(sk);
    float *reach = calloc((size_t)joints, sizeof *reach);
    ossa_clip_rigid_mesh_reach(sk, base.meshes, base.mesh_count, reach);
    bool ok = true;
    for (int f = 0; ok && f < 5 && inputs[input].clips[f]; ++f) {
        ossa_import im;
        snprintf(path, sizeof path, "%s/%s", dir, inputs[input].clips[f]);
        if (ossa_import_file(path, &io, &im, &e) != OSSA_OK) {
            cli_error("bench compression", "%s", e.message);
            ok = false;
            break;
        }
        for (int c = 0; c < im.clip_count && *count < max; ++c) {
            row *r = &rows[*count];
            memset(r, 0, sizeof *r);
            bool built = true;
            for (int kind = 0; built && kind < 2; ++kind) {
                ossa_clip_build_options bo = {0};
                bo.joint_distances = reach;
                bo.joint_distance_count = joints;
                bo.compression_level = level;
                bo.root_motion = kind ? OSSA_ROOT_MOTION_EXTRACT : OSSA_ROOT_MOTION_KEEP;
                ossa_clip *clip = NULL;
                ossa_clip_build_report report;
                const uint64_t t0 = cli_now_ns();
                if (ossa_clip_build(&im.clips[c], sk, &bo, &clip, &report, &e) != OSSA_OK) {
                    if (e.code != OSSA_ERR_CLIP_EMPTY) /* a clip for another skeleton: not ours */
                        cli_error("bench compression", "%s: %s", path, e.message);
                    built = false;
                    break;
                }
                build *b = kind ? &r->rm : &r->keep;
                b->seconds = (double)(cli_now_ns() - t0) * 1e-9;
                b->frames = report.frame_count;
                b->raw = (size_t)40 * (size_t)joints * (size_t)report.frame_count;
                /* the source's own samples: its keys' rate over the duration */
                const long source_frames = lround((double)report.duration_s * report.key_rate) + 1;
                b->source_raw = (size_t)40 * (size_t)joints * (size_t)source_frames;
                b->bytes = ossa_clip_bytes(clip);
                const float mpu = ossa_skeleton_metres_per_unit(sk);
                r->units_assumed = !(mpu > 0.0f);
                const double mm = r->units_assumed ? 1000.0 : 1000.0 * mpu;
                b->error_mm = report.error * mm;
                snprintf(b->worst, sizeof b->worst, "%s",
                         report.error_joint >= 0 ? ossa_skeleton_joint_name(sk, report.error_joint)
                                                 : "-");
                if (kind) {
                    r->moves = report.root_motion_joint >= 0;
                    ossa_clip_free(clip, NULL);
                    continue;
                }
                const char *slash = strrchr(inputs[input].clips[f], '/');
                snprintf(r->file, sizeof r->file, "%s", slash ? slash + 1 : inputs[input].clips[f]);
                snprintf(r->name, sizeof r->name, "%s", ossa_clip_name(clip));
                r->joints = joints;
                r->rate = report.rate;
                r->key_rate = report.key_rate;
                r->on_grid = report.keys_on_grid;
                r->tolerance_mm = report.tolerance * mm;
                ossa_clip_free(clip, NULL);
            }
            *count += built;
        }
        ossa_import_free(&im);
    }
    free(reach);
    ossa_skeleton_free(sk, NULL);
    ossa_import_free(&base);
    return ok;
}

static int ozz_bytes(const row *r)
{
    if (strncmp(r->file, "walk", 4) && strncmp(r->file, "jog", 3) && strncmp(r->file, "run", 3))
        return 0;
    for (size_t i = 0; i < sizeof ozz_sizes / sizeof ozz_sizes[0]; ++i)
        if (strcmp(r->name, ozz_sizes[i].clip) == 0)
            return ozz_sizes[i].bytes;
    return 0;
}

/* The size of a clip in a blob: its section, padded to 64 bytes. */
static size_t in_blob(size_t bytes)
{
    return (bytes + 63) / 64 * 64;
}

/* The numbers one build's verdicts are computed from. */
typedef struct totals {
    size_t raw, source_raw, bytes, pab, pab_blob;
    int count, pab_clips, below_ratio, over_tolerance, source_below_ratio;
    double worst_mm, worst_ratio, source_worst_ratio, seconds;
} totals;

static totals sum_up(const row *rows, int count, bool root_motion)
{
    totals t = {0};
    t.count = count;
    t.worst_ratio = t.source_worst_ratio = INFINITY;
    for (int i = 0; i < count; ++i) {
        const row *r = &rows[i];
        const build *b = root_motion ? &r->rm : &r->keep;
        t.raw += b->raw;
        t.source_raw += b->source_raw;
        const double source_ratio = (double)b->source_raw / (double)b->bytes;
        t.source_worst_ratio = fmin(t.source_worst_ratio, source_ratio);
        t.source_below_ratio += source_ratio < GOAL_RATIO;
        t.bytes += b->bytes;
        t.seconds += b->seconds;
        const double ratio = (double)b->raw / (double)b->bytes;
        t.worst_ratio = fmin(t.worst_ratio, ratio);
        t.below_ratio += ratio < GOAL_RATIO;
        t.worst_mm = fmax(t.worst_mm, b->error_mm);
        t.over_tolerance += b->error_mm > r->tolerance_mm;
        if (ozz_bytes(r)) {
            t.pab += b->bytes;
            t.pab_blob += in_blob(b->bytes);
            ++t.pab_clips;
        }
    }
    return t;
}

static bool size_met(const totals *t)
{
    return t->pab_clips == 3 && t->pab_blob <= OZZ_TOTAL;
}

/* A verdict: none when an input was missing (the figures cover only some
 * of the clips the goals are about). */
static const char *verdict(bool met, int missing)
{
    return missing ? "not measured" : met ? "met" : "missed";
}

static const char *json_verdict(bool met, int missing)
{
    return missing ? "null" : met ? "true" : "false";
}

/* raw / bytes, 0 for no bytes. */
static double ratio_of(size_t raw, size_t bytes)
{
    return bytes ? (double)raw / (double)bytes : 0.0;
}

static void json_totals(const char *key, const totals *t, int missing)
{
    printf(",\n \"%s\": {\"pab_bytes\": %zu, \"pab_blob_bytes\": %zu, \"raw_bytes\": %zu, "
           "\"bytes\": %zu, "
           "\"worst_error_mm\": %.6g, \"worst_ratio\": %.4g, \"clips_below_20\": %d, "
           "\"source_raw_bytes\": %zu, \"source_worst_ratio\": %.4g, "
           "\"source_clips_below_20\": %d, "
           "\"seconds\": %.4g,\n  \"goals\": {\"pab_size\": %s, \"error\": %s, "
           "\"every_ratio\": %s, \"overall_ratio\": %s, \"source_every_ratio\": %s, "
           "\"source_overall_ratio\": %s}}",
           key, t->pab, t->pab_blob, t->raw, t->bytes, t->worst_mm, t->count ? t->worst_ratio : 0.0,
           t->below_ratio, t->source_raw, t->count ? t->source_worst_ratio : 0.0,
           t->source_below_ratio, t->seconds, json_verdict(size_met(t), missing),
           json_verdict(t->over_tolerance == 0, missing), json_verdict(t->below_ratio == 0, missing),
           json_verdict(ratio_of(t->raw, t->bytes) >= GOAL_RATIO, missing),
           json_verdict(t->source_below_ratio == 0, missing),
           json_verdict(ratio_of(t->source_raw, t->bytes) >= GOAL_RATIO, missing));
}

static void print_goals(const char *which, const totals *t, int missing)
{
    printf("\ngoals (issue 10), %s, from the numbers above:\n", which);
    if (missing)
        printf("  (%d input%s missing: no verdicts from a part of the clips)\n", missing,
               missing == 1 ? "" : "s");
    printf("  pab walk + jog + run <= %d bytes (ozz 0.16, 1 mm at 10 cm): %zu bytes (%zu as "
           "blob sections) -> %s\n",
           OZZ_TOTAL, t->pab, t->pab_blob, verdict(size_met(t), missing));
    printf("  every clip within 0.1 mm at 3 cm: largest %.4f mm, %d over -> %s\n", t->worst_mm,
           t->over_tolerance, verdict(t->over_tolerance == 0, missing));
    printf("  >= 20:1 against raw at the stored rate: overall %.1f:1 -> %s; per clip the "
           "smallest %.1f:1, %d clip%s below -> %s\n",
           ratio_of(t->raw, t->bytes), verdict(ratio_of(t->raw, t->bytes) >= GOAL_RATIO, missing),
           t->count ? t->worst_ratio : 0.0, t->below_ratio, t->below_ratio == 1 ? "" : "s",
           verdict(t->below_ratio == 0, missing));
    printf("  >= 20:1 against raw at the source's key rate: overall %.1f:1 -> %s; per clip the "
           "smallest %.1f:1, %d clip%s below -> %s\n",
           ratio_of(t->source_raw, t->bytes),
           verdict(ratio_of(t->source_raw, t->bytes) >= GOAL_RATIO, missing),
           t->count ? t->source_worst_ratio : 0.0, t->source_below_ratio,
           t->source_below_ratio == 1 ? "" : "s", verdict(t->source_below_ratio == 0, missing));
}

int bench_compression_main(int argc, char **argv)
{
    const char *dir_arg = NULL;
    bool json = false;
    int level = 0;
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--models", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &dir_arg))
                return 2;
        } else if (cli_is(argv[i], "--json", NULL)) {
            json = true;
        } else if (cli_is(argv[i], "--thorough", NULL)) {
            level = 1;
        } else {
            cli_error("bench compression", "unknown option '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    const char *dir = models_dir(dir_arg);
    enum { MAX_ROWS = 64 };
    row *rows = calloc(MAX_ROWS, sizeof *rows);
    int count = 0, missing = 0;
    cli_progress progress;
    const int n_inputs = (int)(sizeof inputs / sizeof inputs[0]);
    if (!json)
        cli_progress_begin(&progress, "compressing", n_inputs);
    for (int i = 0; i < n_inputs; ++i) {
        missing += !build_input(dir, i, level, rows, &count, MAX_ROWS);
        if (!json)
            cli_progress_step(&progress, i + 1);
    }
    if (!json)
        cli_progress_end(&progress);
    /* the verdicts' numbers, for each build */
    totals keep = sum_up(rows, count, false), rm = sum_up(rows, count, true);
    if (json) {
        printf("{\"models\": \"%s\", \"level\": %d, \"clips\": [", dir, level);
        for (int i = 0; i < count; ++i) {
            const row *r = &rows[i];
            printf("%s\n  {\"file\": \"%s\", \"clip\": \"%s\", \"joints\": %d, \"keys\": %d, "
                   "\"rate\": %.6g, \"raw_bytes\": %zu, \"bytes\": %zu, \"ratio\": %.4g, "
                   "\"key_rate\": %.6g, \"keys_on_grid\": %s, \"source_raw_bytes\": %zu, "
                   "\"source_ratio\": %.4g, "
                   "\"error_mm\": %.6g, \"tolerance_mm\": %.6g, \"units_assumed\": %s, "
                   "\"worst_joint\": \"%s\", \"seconds\": %.4g, \"ozz_bytes\": %d,\n   "
                   "\"root_motion\": {\"moves\": %s, \"keys\": %d, \"raw_bytes\": %zu, "
                   "\"bytes\": %zu, \"ratio\": %.4g, \"error_mm\": %.6g, "
                   "\"worst_joint\": \"%s\", \"seconds\": %.4g}}",
                   i ? "," : "", r->file, r->name, r->joints, r->keep.frames, r->rate,
                   r->keep.raw, r->keep.bytes, (double)r->keep.raw / (double)r->keep.bytes,
                   r->key_rate, r->on_grid ? "true" : "false", r->keep.source_raw,
                   (double)r->keep.source_raw / (double)r->keep.bytes, r->keep.error_mm,
                   r->tolerance_mm, r->units_assumed ? "true" : "false",
                   r->keep.worst, r->keep.seconds, ozz_bytes(r), r->moves ? "true" : "false",
                   r->rm.frames, r->rm.raw, r->rm.bytes, (double)r->rm.raw / (double)r->rm.bytes,
                   r->rm.error_mm, r->rm.worst, r->rm.seconds);
        }
        printf("],\n \"ozz_bytes\": %d, \"missing_inputs\": %d", OZZ_TOTAL, missing);
        json_totals("without_root_motion", &keep, missing);
        json_totals("root_motion", &rm, missing);
        printf("}\n");
        free(rows);
        return missing ? 1 : 0;
    }
    printf("%-22s %-22s %5s %8s %9s %15s | %-38s | %-32s | %9s\n", "", "", "", "", "",
           "source's keys", "without root motion", "with root motion (ossa build)", "");
    printf("%-22s %-22s %5s %8s %9s %5s %9s | %6s %6s %6s %9s %7s | %6s %6s %9s %7s | %9s  %s\n",
           "file", "clip", "keys", "rate", "raw B", "Hz", "raw B", "bytes", "ratio", "src",
           "error mm", "build s", "bytes", "ratio", "error mm", "build s", "ozz 0.16",
           "worst at (without / with)");
    for (int i = 0; i < count; ++i) {
        const row *r = &rows[i];
        char ozz[16] = "";
        if (ozz_bytes(r))
            snprintf(ozz, sizeof ozz, "%d", ozz_bytes(r));
        printf("%-22.22s %-22.22s %5d %5.1f Hz %9zu %4.0f%s %9zu | %6zu %4.1f:1 %4.1f:1 %8.4f%s "
               "%7.2f | %6zu %4.1f:1 %8.4f%s%s %7.2f | %9s  %s / %s\n",
               r->file, r->name, r->keep.frames, r->rate, r->keep.raw, r->key_rate,
               r->on_grid ? " " : "~", r->keep.source_raw, r->keep.bytes,
               (double)r->keep.raw / (double)r->keep.bytes,
               (double)r->keep.source_raw / (double)r->keep.bytes, r->keep.error_mm,
               r->units_assumed ? "*" : " ", r->keep.seconds, r->rm.bytes,
               (double)r->rm.raw / (double)r->rm.bytes, r->rm.error_mm, r->units_assumed ? "*" : " ",
               !r->moves ? "=" : r->rm.frames != r->keep.frames ? "+" : "", r->rm.seconds, ozz,
               r->keep.worst, r->rm.worst);
        if (r->moves && r->rm.frames != r->keep.frames)
            printf("%-22s %-22s + with root motion: %d keys, %zu bytes raw\n", "", "",
                   r->rm.frames, r->rm.raw);
    }
    printf("source's keys: the rate the source's keys lie on (~: off any grid, 30 Hz taken) and "
           "the raw size at it;\n  ratio: against raw at the stored rate, src: against raw at "
           "the source's key rate\n");
    printf("* units unknown: model units taken as metres; = nothing moves: no motion track;\n"
           "+ root motion raised the rate (the in-place clip plus its motion strayed between "
           "frames)\n");
    printf("all %d clips: without root motion %zu -> %zu bytes (%.1f:1), built in %.1f s; "
           "with root motion %zu -> %zu bytes (%.1f:1), built in %.1f s%s\n",
           count, keep.raw, keep.bytes, ratio_of(keep.raw, keep.bytes), keep.seconds, rm.raw,
           rm.bytes, ratio_of(rm.raw, rm.bytes), rm.seconds,
           missing ? " (some inputs missing)" : "");
    print_goals("without root motion (as ozz's clips, which carry no motion track)", &keep,
                missing);
    print_goals("with root motion (ossa build's default; motion tracks counted)", &rm, missing);
    free(rows);
    return missing ? 1 : 0;
}
