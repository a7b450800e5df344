/* frame_report.c - `ossa bench frame`'s stage table - each stage on every
 * path, per joint / skin joint / vertex, beside its memory floor - the
 * issues' goals with verdicts from the run, and the scaling sweep over
 * characters and threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_bench.h"
#include "goals.h"

/* A row of the stage table: its time on each path (ms, < 0 when none), what
 * one element is and how many there are per frame, the bytes the stage must
 * move per frame. */
typedef struct stage_row {
    const char *label;
    double ms[4]; /* reference, staged, fused, crowd */
    const char *element;
    double elements;
    double read_bytes, write_bytes;
} stage_row;

enum { P_REFERENCE, P_STAGED, P_FUSED, P_CROWD, PATHS };

static double variant_ms(const bench_variant *v)
{
    return v->frames_run ? v->median_ns * 1e-6 : -1.0;
}

static double stage_ms(const frame_timing *t, int stage, int frames)
{
    return t->calls ? frame_timing_median(t, stage, frames) * 1e-6 : -1.0;
}

/* The sum of stage medians [first, last]: a frame's cost that a preemption
 * in some frames (a shared machine) does not inflate. */
static double stage_sum(const frame_timing *t, int first, int last, int frames)
{
    double ms = 0;
    for (int k = first; k <= last; ++k)
        ms += stage_ms(t, k, frames);
    return t->calls ? ms : -1.0;
}

/* The figure a row's per-element cost and speedup use: the library's
 * (crowd) when there is one, else fused, else staged. */
static double best(const stage_row *r)
{
    for (int p = P_CROWD; p >= P_STAGED; --p)
        if (r->ms[p] >= 0)
            return r->ms[p];
    return -1.0;
}

static int stage_rows(const frame_options *o, const frame_scene *s, const bench_variant *v,
                      stage_row *rows)
{
    const double n = s->characters, nj = n * s->joints;
    const int frames = o->common.frames;
    const bool skin = s->skinned > 0;
    double clip_bytes = 0;
    for (int k = 0; k < s->character->clip_count; ++k)
        clip_bytes += (double)ossa_clip_bytes(s->character->clips[k]);
    const double pose = nj * 40.0, model = nj * 48.0, hot = n * 40.0;
    const double palettes = skin ? (double)s->skinned * s->skins * 48.0 : 0.0;
    const double mesh = skin ? (double)ossa_mesh_bytes(s->mesh) : 0.0;
    const double vertices = skin ? (double)s->skinned * s->vertices *
                                       (double)ossa_skin_vertex_bytes(s->mesh, s->skin_format)
                                 : 0.0;
    const frame_timing *t[PATHS] = {&s->reference_timing, &s->lanes_timing, &s->fused_timing,
                                    &s->crowd_timing};
    int count = 0;
#define ROW(label_, stage_, element_, elements_, read_, write_)                                 \
    do {                                                                                       \
        stage_row *r = &rows[count++];                                                         \
        r->label = label_;                                                                     \
        for (int p = 0; p < PATHS; ++p)                                                        \
            r->ms[p] = stage_ms(t[p], stage_, frames);                                         \
        r->element = element_;                                                                 \
        r->elements = elements_;                                                               \
        r->read_bytes = read_;                                                                 \
        r->write_bytes = write_;                                                               \
    } while (0)
    ROW("sample (one clip)", FRAME_SAMPLE_A, "joint", nj, clip_bytes, pose);
    ROW("sample (second clip)", FRAME_SAMPLE_B, "joint", nj, clip_bytes, pose);
    ROW("blend (2 layers)", FRAME_BLEND, "joint", nj, 2 * pose, pose);
    ROW("local->model (3x4)", FRAME_LOCAL_TO_MODEL, "joint", nj, pose, model);
    ROW("pose out (matrices)", FRAME_POSE_OUT, "joint", nj, model, model);
    rows[count - 1].ms[P_REFERENCE] = -1.0; /* the reference writes matrices already */
    if (skin) {
        ROW("palette", FRAME_PALETTE, "skin joint", (double)s->skinned * s->skins, palettes,
            palettes);
        ROW("skin", FRAME_SKIN, "vertex", (double)s->skinned * s->vertices, mesh + palettes,
            vertices);
    }
#undef ROW
    stage_row *sum = &rows[count++];
    memset(sum, 0, sizeof *sum);
    sum->label = "frame, sum of stages";
    for (int p = 0; p < PATHS; ++p)
        sum->ms[p] = stage_sum(t[p], 0, FRAME_SKIN, frames);
    sum->element = "character";
    sum->elements = n;
    sum->read_bytes = 2 * clip_bytes + 3 * pose + model + 2 * palettes + mesh;
    sum->write_bytes = 3 * pose + 2 * model + palettes + vertices;
    stage_row *whole = &rows[count++];
    memset(whole, 0, sizeof *whole);
    whole->label = "frame, whole (median)";
    whole->ms[P_REFERENCE] = variant_ms(&v[V_REFERENCE]);
    whole->ms[P_STAGED] = variant_ms(&v[V_STAGED]);
    whole->ms[P_FUSED] = variant_ms(&v[V_FUSED]);
    whole->ms[P_CROWD] = variant_ms(&v[V_CROWD]);
    whole->element = "character";
    whole->elements = n;
    /* the library's frame must read the keys and the hot state and write the
     * world poses, the palettes and the vertices; nothing else leaves the
     * caches */
    whole->read_bytes = clip_bytes + hot + mesh;
    whole->write_bytes = model + palettes + vertices + hot;
    stage_row *iso = &rows[count++];
    memset(iso, 0, sizeof *iso);
    iso->label = "alone: sample (one clip)";
    for (int p = 0; p < PATHS; ++p)
        iso->ms[p] = -1.0;
    iso->ms[P_STAGED] = variant_ms(&v[V_SAMPLE]);
    iso->element = "joint";
    iso->elements = nj;
    iso->read_bytes = clip_bytes;
    iso->write_bytes = pose;
    return count;
}

/* The issues' goals for this benchmark, each from its row of this run. */
static int frame_goals(const frame_options *o, const frame_scene *s, const stage_row *rows,
                       int count, bench_goal *g)
{
    const bool one_thread = s->threads == 1, thousand = s->characters == 1000;
    const bool pab = thousand && s->joints == 67 && one_thread;
    const bool arnaud = s->skinned == 100 && strstr(s->character->description, "arnaud") != NULL;
    const char *pab_setting = "1000 characters on ozz's 67-joint pab skeleton, 1 thread";
    const stage_row *whole = NULL, *skin = NULL;
    for (int r = 0; r < count; ++r) {
        if (strcmp(rows[r].label, "frame, whole (median)") == 0)
            whole = &rows[r];
        if (strcmp(rows[r].label, "skin") == 0)
            skin = &rows[r];
    }
    const double frame_ms = whole ? whole->ms[P_CROWD] : -1.0;
    int n = 0;
    g[n++] = (bench_goal){"sample one clip", "ms", best(&rows[0]), BENCH_AT_MOST, 0.25,
                          "issues 2, 10", pab, pab_setting};
    g[n++] = (bench_goal){"blend 2 layers", "ms", best(&rows[2]), BENCH_AT_MOST, 0.15,
                          "issue 2", pab, pab_setting};
    g[n++] = (bench_goal){"local->model", "ms", best(&rows[3]), BENCH_AT_MOST, 0.25, "issue 2",
                          thousand && s->joints == 96 && one_thread,
                          "1000 characters x 96 joints (the default character), 1 thread"};
    const bool packed = s->skin_format == OSSA_SKIN_FORMAT_PACKED;
    g[n++] = (bench_goal){"skin 100 arnaud", "ms", skin ? best(skin) : -1.0, BENCH_AT_MOST, 0.7,
                          "issue 3", arnaud && one_thread, "100 pab arnauds skinned, 1 thread"};
    g[n++] = (bench_goal){"skin 100 arnaud, packed", "ms", skin ? best(skin) : -1.0,
                          BENCH_AT_MOST, 0.45, "issue 11", arnaud && one_thread && packed,
                          "100 pab arnauds skinned, packed vertices, 1 thread"};
    g[n++] = (bench_goal){"whole frame, 1 thread", "ms", frame_ms, BENCH_AT_MOST, 1.5, "issue 5",
                          pab && arnaud, "1000 pab characters, 100 arnauds skinned, 1 thread"};
    g[n++] = (bench_goal){"whole frame, 2 threads", "ms", frame_ms, BENCH_AT_MOST, 0.9, "issue 5",
                          thousand && s->joints == 67 && arnaud && s->threads == 2,
                          "1000 pab characters, 100 arnauds skinned, 2 threads"};
    /* ozz's frame only as measured on this machine (--ozz-frame-ms): issue
     * 11's 6.07 ms came from another machine and does not compare */
    g[n++] = (bench_goal){"whole frame: ozz 0.16's (--ozz-frame-ms) / ours", "x",
                          frame_ms > 0 && o->ozz_frame_ms > 0 ? o->ozz_frame_ms / frame_ms
                                                               : -1.0,
                          BENCH_AT_LEAST, 5.0,
                          "issue 11", pab && arnaud && packed,
                          "1000 pab characters, 100 arnauds skinned, packed vertices, 1 thread"};
    return n;
}

void frame_print_stages(const frame_options *o, const frame_scene *s, const bench_variant *v,
                        const double check[3])
{
    stage_row rows[16];
    const int count = stage_rows(o, s, v, rows);
    double floor_ms[16], read_gbps[16], write_gbps[16];
    double lo_r = 1e30, hi_r = 0, lo_w = 1e30, hi_w = 0;
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
    const char *lanes = ossa_simd_path_name(s->path == OSSA_SIMD_AUTO ? ossa_simd_best_path()
                                                                      : s->path);
    const char *skin_path = ossa_simd_path_name(ossa_simd_best_path());
    if (o->common.json) {
        printf(", \"character\": \"%s\", \"characters\": %d, \"joints\": %d, \"skinned\": %d, "
               "\"vertices\": %d, \"skin_joints\": %d, \"threads\": %d, \"width\": %d, "
               "\"path\": \"%s\", \"skinning_path\": \"%s\", \"skin_format\": \"%s\", "
               "\"check_max_relative_difference\": {\"poses\": %.3g, \"palettes\": %.3g, "
               "\"vertices\": %.3g}, \"stages\": [",
               s->character->description, s->characters, s->joints, s->skinned, s->vertices,
               s->skins, s->threads, s->width, lanes, skin_path,
               cli_skin_format_name(s->skin_format), check[0], check[1], check[2]);
        for (int r = 0; r < count; ++r) {
            const stage_row *x = &rows[r];
            printf("%s\n  {\"stage\": \"%s\", \"reference_ms\": %.6f, \"staged_ms\": %.6f, "
                   "\"fused_ms\": %.6f, \"crowd_ms\": %.6f, \"element\": \"%s\", "
                   "\"elements\": %.0f, \"ns_per_element\": %.4f, \"read_bytes\": %.0f, "
                   "\"write_bytes\": %.0f, \"read_gbps\": %.2f, \"write_gbps\": %.2f, "
                   "\"floor_ms\": %.6f}",
                   r ? "," : "", x->label, x->ms[P_REFERENCE], x->ms[P_STAGED], x->ms[P_FUSED],
                   x->ms[P_CROWD], x->element, x->elements, best(x) * 1e6 / x->elements,
                   x->read_bytes, x->write_bytes, read_gbps[r], write_gbps[r], floor_ms[r]);
        }
        printf("\n], \"goals\": ");
        bench_goal goals[16];
        bench_print_goals(goals, frame_goals(o, s, rows, count, goals), &o->common);
        return;
    }
    printf("\nstages, %d characters x %d joints, %d skinned (%d vertices, %d skin joints), "
           "%d thread%s,\nlanes of %d (%s), skinning %s into %s vertices, ms:\n",
           s->characters, s->joints, s->skinned, s->vertices, s->skins, s->threads,
           s->threads > 1 ? "s" : "", s->width, lanes, skin_path,
           cli_skin_format_name(s->skin_format));
    printf("%-25s %9s %8s %8s %8s %7s %9s %-10s %8s %8s\n", "stage", "reference", "staged",
           "fused", "crowd", "speedup", "ns/elem", "(element)", "MB moved", "floor");
    for (int r = 0; r < count; ++r) {
        const stage_row *x = &rows[r];
        char text[PATHS][32], speed[32] = "-";
        for (int p = 0; p < PATHS; ++p)
            snprintf(text[p], sizeof text[p], x->ms[p] >= 0 ? "%.3f" : "-", x->ms[p]);
        const double b = best(x);
        if (x->ms[P_REFERENCE] > 0 && b > 0)
            snprintf(speed, sizeof speed, "%.1fx", x->ms[P_REFERENCE] / b);
        printf("%-25s %9s %8s %8s %8s %7s %9.2f %-10s %8.2f %8.3f\n", x->label,
               text[P_REFERENCE], text[P_STAGED], text[P_FUSED], text[P_CROWD], speed,
               b * 1e6 / x->elements, x->element, (x->read_bytes + x->write_bytes) * 1e-6,
               floor_ms[r]);
    }
    const ossa_crowd_stats st = ossa_crowd_get_stats(s->crowd);
    printf("(medians over frames. reference: the plain jobs (scalar skinning, float4); staged: the lane\n"
           " jobs, each stage over all characters in turn, timed inside whole frames so it reads\n"
           " what the previous stage wrote; fused: the same lane jobs one batch of W characters\n"
           " at a time up to the palettes, intermediates in cache, then skinning; crowd: the\n"
           " library's frame (ossa_crowd_update + skinning, the crowd runner), its stages timed\n"
           " through the crowd's stage hook in separate frames. With threads, fused and crowd\n"
           " stage rows are CPU time summed over the threads, staged and whole-frame rows wall\n"
           " time. 'sum of stages' adds stage medians; 'whole' is the median of whole frames\n"
           " (a shared machine's preemptions land there). ns/elem and speedup use the crowd\n"
           " figure, else fused, else staged. The floor is the bytes the stage must move - the\n"
           " staged path's inputs read and outputs written; for 'whole', the library's frame:\n"
           " keys, hot state and mesh read, poses, palettes and vertices written - over the\n"
           " read / write bandwidth measured here for that size (%.0f-%.0f / %.0f-%.0f GB/s).\n"
           " Crowd: %d batches of %d lanes, lane fill\n"
           " %.0f%%. Lanes vs reference, largest relative difference: poses %.2g, palettes\n"
           " %.2g, vertices %.2g.)\n",
           lo_r, hi_r, lo_w, hi_w, st.batches, s->width,
           100.0 * st.updated / (st.lanes ? st.lanes : 1), check[0], check[1], check[2]);
    bench_goal goals[16];
    bench_print_goals(goals, frame_goals(o, s, rows, count, goals), &o->common);
    printf("  (a goal's figure is its row's library (crowd) figure, else fused, else staged;\n");
    if (o->ozz_frame_ms > 0)
        printf("   ozz's frame: %.3f ms, given with --ozz-frame-ms as ozz-animation 0.16's\n"
               "   frame of the same work measured on this machine outside this repository)\n",
               (double)o->ozz_frame_ms);
    else
        printf("   ozz's frame: not given - measure ozz-animation 0.16's frame of the same work\n"
               "   on this machine and pass it with --ozz-frame-ms MS; issue 11's 6.07 ms was\n"
               "   taken on another machine and gives no ratio here)\n");
}

int frame_sweep(const frame_options *o, const frame_character *c)
{
    const int sizes[] = {10, 100, 1000, 10000, 100000, 1000000};
    const int threads = o->common.threads > 0 ? o->common.threads : 1;
    if (o->common.json)
        printf(", \"sweep\": [");
    else
        printf("\nscaling, the library's frame (%s):\n%12s %8s %8s %11s %13s %9s %10s\n",
               c->description, "characters", "skinned", "threads", "median ms", "us/character",
               "speedup", "identical");
    int first = 1;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= o->sweep_max; ++k) {
        frame_scene s;
        if (!frame_scene_init(&s, c, sizes[k], o->skinned, 1, o->width, o->path, o->skin_format,
                              FRAME_CROWD))
            return 1;
        int frames = 200000 / sizes[k];
        frames = frames < 5 ? 5 : (frames > o->common.frames ? o->common.frames : frames);
        double *samples = malloc(sizeof(double) * (size_t)frames), one = 0;
        uint64_t reference_hash = 0;
        int code = 0;
        for (int t = 1; t <= threads && !code; ++t) {
            s.threads = t;
            if (!frame_scene_reset_crowd(&s)) {
                code = 1;
                break;
            }
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
            if (o->common.json)
                printf("%s\n  {\"characters\": %d, \"skinned\": %d, \"threads\": %d, "
                       "\"frames\": %d, \"median_ms\": %.6f, \"us_per_character\": %.4f, "
                       "\"speedup\": %.3f, \"identical\": %s}",
                       first ? "" : ",", sizes[k], s.skinned, t, frames, ms, ms * 1e3 / sizes[k],
                       one / ms, h == reference_hash ? "true" : "false");
            else
                printf("%12d %8d %8d %11.3f %13.3f %8.2fx %10s\n", sizes[k], s.skinned, t, ms,
                       ms * 1e3 / sizes[k], one / ms, h == reference_hash ? "yes" : "NO");
            first = 0;
        }
        if (!code && frame_scene_result(&s) != OSSA_OK) {
            cli_error("bench frame", "sweep: %s", ossa_result_str(frame_scene_result(&s)));
            code = 1;
        }
        free(samples);
        frame_scene_fini(&s);
        if (code)
            return code;
    }
    if (o->common.json)
        printf("\n]");
    else
        printf("(each row runs the same frames from the same start: the crowd's update plus\n"
               " skinning; 'identical' compares a hash of every pose, palette and skinned vertex\n"
               " with the 1-thread run)\n");
    return 0;
}
