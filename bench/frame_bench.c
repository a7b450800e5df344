/* frame_bench.c - `ossa bench frame`: a crowd frame for N characters, stage
 * by stage, the lane path beside the reference jobs, interleaved; each
 * stage's memory floor from the bandwidth measured here; the fused frame
 * (ossa_crowd_update); and a sweep over characters and threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "frame_setup.h"
#include "harness.h"

typedef struct frame_options {
    bench_options common;
    int characters;
    int synthetic;  /* joints of a synthetic character, 0: default / --model */
    int width;
    ossa_lane_path path;
    bool sweep;
    int sweep_max;
} frame_options;

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench frame [--characters N] [--threads N] [--model FILE.ossa]\n"
            "                        [--synthetic JOINTS] [--sweep] [options]\n"
            "\n"
            "A full animation frame for a crowd: each character samples two clips,\n"
            "blends them and walks its hierarchy. Every stage runs on the lane path\n"
            "(W characters per SIMD vector) and on the reference jobs, interleaved;\n"
            "then the fused crowd update (all stages per batch, in cache). Prints\n"
            "per-stage medians, ns per joint, and each stage's memory floor from the\n"
            "bandwidth measured on this machine.\n"
            "  --characters N    crowd size (default 1000)\n"
            "  --threads N, -j   threads (OpenMP; default 1)\n"
            "  --model FILE      any .ossa blob with a skeleton and clips\n"
            "  --synthetic J     a synthetic J-joint character with 3 clips (e.g. 67)\n"
            "  --width W         lanes per batch: 4, 8, 16 (default: this CPU's best)\n"
            "  --path NAME       lane kernels: auto, portable, sse, avx2, avx512\n"
            "  --sweep           also time the fused frame for 10 .. 100000 characters\n"
            "                    and 1 .. --threads threads\n"
            "  --sweep-max N     largest crowd of the sweep (default 100000)\n"
            "%s",
            bench_common_help());
}

static int parse(int argc, char **argv, frame_options *o)
{
    for (int i = 1; i < argc; ++i) {
        int r = bench_parse_option(argc, argv, &i, &o->common);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        const char *a = argv[i];
        if (cli_is(a, "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(a, "--characters", "-n")) {
            if (!cli_int_arg(argc, argv, &i, 1, 10000000, &o->characters))
                return 2;
        } else if (cli_is(a, "--synthetic", NULL)) {
            if (!cli_int_arg(argc, argv, &i, SYNTHETIC_MIN_JOINTS, 4096, &o->synthetic))
                return 2;
        } else if (cli_is(a, "--width", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 4, 16, &o->width))
                return 2;
            if (o->width != 4 && o->width != 8 && o->width != 16) {
                cli_error("bench frame", "--width %d: must be 4, 8 or 16", o->width);
                return 2;
            }
        } else if (cli_is(a, "--path", NULL)) {
            const char *name;
            if (!cli_string_arg(argc, argv, &i, &name))
                return 2;
            int found = -1;
            for (int p = 0; p < OSSA_LANE_PATH_COUNT; ++p)
                if (strcmp(name, ossa_lane_path_name((ossa_lane_path)p)) == 0)
                    found = p;
            if (found < 0) {
                cli_error("bench frame", "--path %s: expected auto, portable, sse, avx2, avx512",
                          name);
                return 2;
            }
            if (!ossa_lane_path_supported((ossa_lane_path)found)) {
                cli_error("bench frame", "--path %s: this CPU or build cannot run it", name);
                return 1;
            }
            o->path = (ossa_lane_path)found;
        } else if (cli_is(a, "--sweep", NULL)) {
            o->sweep = true;
        } else if (cli_is(a, "--sweep-max", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 10, 10000000, &o->sweep_max))
                return 2;
        } else {
            cli_error("bench frame", "unexpected argument '%s'", a);
            help(stderr);
            return 2;
        }
    }
    if (o->common.model && o->synthetic) {
        cli_error("bench frame", "--model and --synthetic exclude each other");
        return 2;
    }
    if (o->common.threads > FRAME_MAX_THREADS) {
        cli_error("bench frame", "--threads %d: at most %d", o->common.threads, FRAME_MAX_THREADS);
        return 2;
    }
    return -1;
}

enum {
    V_REFERENCE,
    V_STAGED,
    V_FUSED,
    V_CROWD,
    V_SAMPLE,
    V_SAMPLE_GATHER,
    V_BLEND,
    V_L2M,
    V_POSE_OUT,
    V_COUNT
};

/* A row of the stage table: its time on each path (ms, < 0 when none), the
 * bytes the staged stage must move per frame, the goal. */
typedef struct stage_row {
    const char *label;
    double reference_ms, staged_ms, fused_ms;
    double read_bytes, write_bytes;
    const char *goal;
} stage_row;

static double variant_ms(const bench_variant *v)
{
    return v->frames_run ? v->median_ns * 1e-6 : -1.0;
}

static double stage_ms(const frame_timing *t, int stage, int frames)
{
    return t->calls ? frame_timing_median(t, stage, frames) * 1e-6 : -1.0;
}

/* The sum of the first `stages` stage medians: a frame's cost that a
 * preemption in some frames (a shared machine) does not inflate. */
static double staged_sum(const frame_timing *t, int stages, int frames)
{
    double ms = 0;
    for (int k = 0; k < stages; ++k)
        ms += stage_ms(t, k, frames);
    return t->calls ? ms : -1.0;
}

static void print_stages(const frame_options *o, const frame_scene *s, const bench_variant *v,
                         double check)
{
    const double n = s->characters, j = s->joints, nj = n * j;
    const int frames = o->common.frames;
    double clip_bytes = 0;
    for (int k = 0; k < s->character->clip_count; ++k)
        clip_bytes += (double)ossa_clip_bytes(s->character->clips[k]);
    const double pose = nj * 40.0, model = nj * 48.0, hot = n * 40.0;
    const frame_timing *lt = &s->lanes_timing, *rt = &s->reference_timing, *ft = &s->fused_timing;
#define STAGE(k) stage_ms(rt, k, frames), stage_ms(lt, k, frames), stage_ms(ft, k, frames)
    const stage_row rows[] = {
        {"sample (one clip)", STAGE(FRAME_SAMPLE_A), clip_bytes, pose, "<= 0.25 (pab)"},
        {"sample (second clip)", STAGE(FRAME_SAMPLE_B), clip_bytes, pose, ""},
        {"blend (2 layers)", STAGE(FRAME_BLEND), 2 * pose, pose, "<= 0.15 (pab)"},
        {"local->model (3x4)", STAGE(FRAME_LOCAL_TO_MODEL), pose, model, "<= 0.25 (96 j.)"},
        {"pose out (matrices)", -1.0, stage_ms(lt, FRAME_POSE_OUT, frames),
         stage_ms(ft, FRAME_POSE_OUT, frames), model, model, ""},
        {"frame (stage sum)", staged_sum(rt, FRAME_POSE_OUT, frames),
         staged_sum(lt, FRAME_STAGES, frames), staged_sum(ft, FRAME_STAGES, frames),
         2 * clip_bytes + 3 * pose + model, 3 * pose + 2 * model, ""},
        {"frame: ossa_crowd update", staged_sum(rt, FRAME_POSE_OUT, frames), -1.0,
         variant_ms(&v[V_CROWD]), clip_bytes + hot, model + hot, "<= 1.5 w/ skin"},
        {"isolated: sample", -1.0, variant_ms(&v[V_SAMPLE]), -1.0, clip_bytes, pose, ""},
        {"isolated: sample, gathers", -1.0, variant_ms(&v[V_SAMPLE_GATHER]), -1.0, clip_bytes,
         pose, ""},
    };
#undef STAGE
    const int count = (int)(sizeof rows / sizeof rows[0]);
    double floor_ms[16], read_gbps[16], write_gbps[16], lo_r = 1e30, hi_r = 0, lo_w = 1e30,
                                                       hi_w = 0;
    for (int r = 0; r < count; ++r) {
        bench_bandwidth((size_t)(rows[r].read_bytes + rows[r].write_bytes), &read_gbps[r],
                        &write_gbps[r]);
        floor_ms[r] = (rows[r].read_bytes / read_gbps[r] + rows[r].write_bytes / write_gbps[r]) *
                      1e-6;
        lo_r = read_gbps[r] < lo_r ? read_gbps[r] : lo_r;
        hi_r = read_gbps[r] > hi_r ? read_gbps[r] : hi_r;
        lo_w = write_gbps[r] < lo_w ? write_gbps[r] : lo_w;
        hi_w = write_gbps[r] > hi_w ? write_gbps[r] : hi_w;
    }
    if (o->common.json) {
        printf(", \"character\": \"%s\", \"characters\": %d, \"joints\": %d, \"threads\": %d, "
               "\"width\": %d, \"path\": \"%s\", \"check_max_relative_difference\": %.3g, "
               "\"stages\": [",
               s->character->description, s->characters, s->joints, s->threads, s->width,
               ossa_lane_path_name(s->path == OSSA_LANE_AUTO ? ossa_lane_best_path() : s->path),
               check);
        for (int r = 0; r < count; ++r)
            printf("%s\n  {\"stage\": \"%s\", \"reference_ms\": %.6f, \"staged_ms\": %.6f, "
                   "\"fused_ms\": %.6f, \"read_bytes\": %.0f, \"write_bytes\": %.0f, "
                   "\"read_gbps\": %.2f, \"write_gbps\": %.2f, \"staged_floor_ms\": %.6f}",
                   r ? "," : "", rows[r].label, rows[r].reference_ms, rows[r].staged_ms,
                   rows[r].fused_ms, rows[r].read_bytes, rows[r].write_bytes, read_gbps[r],
                   write_gbps[r], floor_ms[r]);
        printf("\n]");
        return;
    }
    printf("\nstages, %d characters x %d joints, %d thread%s, lanes of %d (%s), ms:\n",
           s->characters, s->joints, s->threads, s->threads > 1 ? "s" : "", s->width,
           ossa_lane_path_name(s->path == OSSA_LANE_AUTO ? ossa_lane_best_path() : s->path));
    printf("%-25s %9s %9s %9s %8s %9s %9s %9s %15s\n", "stage", "reference", "staged", "fused",
           "speedup", "ns/joint", "MB moved", "floor", "goal");
    for (int r = 0; r < count; ++r) {
        char text[3][32], speed[32] = "-";
        const double ms[3] = {rows[r].reference_ms, rows[r].staged_ms, rows[r].fused_ms};
        for (int k = 0; k < 3; ++k)
            snprintf(text[k], sizeof text[k], ms[k] >= 0 ? "%.3f" : "-", ms[k]);
        const double best = ms[2] >= 0 ? ms[2] : ms[1];
        if (ms[0] > 0 && best > 0)
            snprintf(speed, sizeof speed, "%.1fx", ms[0] / best);
        printf("%-25s %9s %9s %9s %8s %9.2f %9.2f %9.3f %15s\n", rows[r].label, text[0], text[1],
               text[2], speed, best * 1e6 / nj, (rows[r].read_bytes + rows[r].write_bytes) * 1e-6,
               floor_ms[r], rows[r].goal);
    }
    const ossa_crowd_stats st = ossa_crowd_get_stats(s->crowd);
    printf("(medians over frames. reference / staged: each stage over all characters in\n"
           " turn, timed inside whole frames so it reads what the previous stage wrote; fused:\n"
           " the same lane jobs one batch of W characters at a time, intermediates in cache, each\n"
           " stage's time summed over the batches (thread 0's); 'stage sum' sums stage medians\n"
           " (whole frames' medians, in the table above, catch a shared machine's preemptions);\n"
           " 'ossa_crowd update' is the library's fused frame (plus playheads and footfalls);\n"
           " 'isolated' rows run one stage alone, inputs cold. ns/joint and speedup use the\n"
           " fused figure where there is one. The floor is what the staged stage must move -\n"
           " keys read once, inputs read, outputs written - over the read / write bandwidth\n"
           " measured here for a buffer of that size (%.0f-%.0f / %.0f-%.0f GB/s); fused, only\n"
           " the keys and the pose out reach memory. Goals: the issue's, 1000 characters on\n"
           " ozz's pab skeleton (67 joints) unless said. Crowd: %d batches of %d lanes, lane\n"
           " fill %.0f%%, %.3f us per character. Lanes vs reference: largest relative\n"
           " difference %.2g.)\n",
           lo_r, hi_r, lo_w, hi_w, st.batches, s->width,
           100.0 * st.updated / (st.lanes ? st.lanes : 1), variant_ms(&v[V_CROWD]) * 1e3 / n,
           check);
}

/* The fused frame for 10 .. sweep_max characters on 1 .. threads threads,
 * each run from the same start, its poses hashed: bit-identity across
 * thread counts is checked, not assumed. */
static int sweep(const frame_options *o, const frame_character *c)
{
    const int sizes[] = {10, 100, 1000, 10000, 100000, 1000000};
    const int threads = o->common.threads > 0 ? o->common.threads : 1;
    if (o->common.json)
        printf(", \"sweep\": [");
    else
        printf("\nscaling, fused frame (%s):\n%12s %8s %11s %10s %13s %9s %10s\n",
               c->description, "characters", "threads", "median ms", "ns/joint", "us/character",
               "speedup", "identical");
    int first = 1;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= o->sweep_max; ++k) {
        frame_scene s;
        if (!frame_scene_init(&s, c, sizes[k], threads, o->width, o->path, FRAME_CROWD))
            return 1;
        int frames = 200000 / sizes[k];
        frames = frames < 5 ? 5 : (frames > o->common.frames ? o->common.frames : frames);
        double *samples = malloc(sizeof(double) * (size_t)frames), one = 0;
        uint64_t reference_hash = 0;
        for (int t = 1; t <= threads; ++t) {
            if (!frame_scene_reset_crowd(&s))
                return 1;
            s.threads = t;
            for (int w = 0; w < 3; ++w)
                frame_crowd(&s);
            for (int f = 0; f < frames; ++f) {
                const uint64_t t0 = cli_now_ns();
                frame_crowd(&s);
                samples[f] = (double)(cli_now_ns() - t0);
            }
            const double ms = cli_median(samples, (size_t)frames) * 1e-6;
            const uint64_t h = frame_crowd_checksum(&s);
            if (t == 1) {
                one = ms;
                reference_hash = h;
            }
            const double nj = (double)sizes[k] * c->joints;
            if (o->common.json)
                printf("%s\n  {\"characters\": %d, \"threads\": %d, \"frames\": %d, "
                       "\"median_ms\": %.6f, \"ns_per_joint\": %.4f, \"speedup\": %.3f, "
                       "\"identical\": %s}",
                       first ? "" : ",", sizes[k], t, frames, ms, ms * 1e6 / nj, one / ms,
                       h == reference_hash ? "true" : "false");
            else
                printf("%12d %8d %11.3f %10.2f %13.3f %8.2fx %10s\n", sizes[k], t, ms,
                       ms * 1e6 / nj, ms * 1e3 / sizes[k], one / ms,
                       h == reference_hash ? "yes" : "NO");
            first = 0;
        }
        if (frame_scene_result(&s) != OSSA_OK) {
            cli_error("bench frame", "sweep: %s", ossa_result_str(frame_scene_result(&s)));
            return 1;
        }
        free(samples);
        frame_scene_fini(&s);
    }
    if (o->common.json)
        printf("\n]");
    else
        printf("(each row runs the same frames from the same start; 'identical' compares the\n"
               " hash of every pose with the 1-thread run)\n");
    return 0;
}

int bench_frame_main(int argc, char **argv)
{
    frame_options o;
    memset(&o, 0, sizeof o);
    o.common.frames = 100;
    o.common.warmup = 5;
    o.common.threads = 1;
    o.characters = 1000;
    o.sweep_max = 100000;
    int code = parse(argc, argv, &o);
    if (code >= 0)
        return code;
    frame_character c;
    bench_variant v[V_COUNT] = {
        {.name = "reference",
         .label = "reference jobs: frame, stage by stage",
         .run = frame_reference_staged,
         .context = NULL,
         .seed_ms = -1},
        {.name = "staged",
         .label = "lanes: frame, stage by stage",
         .run = frame_lanes_staged,
         .context = NULL,
         .seed_ms = -1},
        {.name = "fused",
         .label = "lanes: frame, stages fused per batch",
         .run = frame_lanes_fused,
         .context = NULL,
         .seed_ms = -1},
        {.name = "crowd",
         .label = "lanes fused: ossa_crowd update",
         .run = frame_crowd,
         .context = NULL,
         .seed_ms = -1},
        {.name = "sample",
         .label = "lanes: sample one clip (alone)",
         .run = frame_lane_sample,
         .context = NULL,
         .seed_ms = -1},
        {.name = "sample-gather",
         .label = "lanes: sample one clip with gathers (alone)",
         .run = frame_lane_sample_gather,
         .context = NULL,
         .seed_ms = -1},
        {.name = "blend",
         .label = "lanes: blend 2 layers (alone)",
         .run = frame_lane_blend,
         .context = NULL,
         .seed_ms = -1},
        {.name = "l2m",
         .label = "lanes: local->model (alone)",
         .run = frame_lane_local_to_model,
         .context = NULL,
         .seed_ms = -1},
        {.name = "pose-out",
         .label = "lanes: pose out, matrices (alone)",
         .run = frame_lane_pose_out,
         .context = NULL,
         .seed_ms = -1},
    };
    if (o.common.list)
        return bench_run(v, V_COUNT, &o.common), 0;
    if (!frame_character_load(&c, o.common.model, o.synthetic))
        return 1;
    frame_scene s;
    if (!frame_scene_init(&s, &c, o.characters, o.common.threads, o.width, o.path,
                          FRAME_STAGED | FRAME_REFERENCE | FRAME_CROWD)) {
        frame_character_free(&c);
        return 1;
    }
    for (int k = 0; k < V_COUNT; ++k)
        v[k].context = &s;
    /* every stage once, so any one variant finds real inputs; and a check */
    const double check = frame_scene_check(&s);
    code = 0;
    if (frame_scene_result(&s) != OSSA_OK) {
        cli_error("bench frame", "a stage failed: %s", ossa_result_str(frame_scene_result(&s)));
        code = 1;
    }
    char title[300];
    snprintf(title, sizeof title, "frame: %d characters, %s, %d thread%s", o.characters,
             c.description, s.threads, s.threads > 1 ? "s" : "");
    bench_report report = {title, "joint", (double)o.characters * c.joints, V_REFERENCE, NULL,
                           NULL};
    if (code == 0 && bench_run(v, V_COUNT, &o.common) == 0)
        code = 2;
    if (code == 0) {
        if (o.common.json)
            printf("{\"bench\": \"frame\", \"variants\": ");
        bench_print(&report, v, V_COUNT, &o.common);
        if (!o.common.variant) {
            print_stages(&o, &s, v, check);
            if (o.sweep)
                code = sweep(&o, &c);
        }
        if (o.common.json)
            printf("}\n");
    }
    if (code == 0 && frame_scene_result(&s) != OSSA_OK) {
        cli_error("bench frame", "a stage failed: %s", ossa_result_str(frame_scene_result(&s)));
        code = 1;
    }
    frame_scene_fini(&s);
    frame_character_free(&c);
    return code;
}
