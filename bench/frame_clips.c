/* frame_clips.c - `ossa bench frame --clips N`: 1000 characters spread over
 * N clips (frame_library.h), raw and compressed side by side - one clip
 * sampled by the lane job (the pose written to memory) and the library's
 * whole frame - beside the character's own clips raw (today's frame), that
 * frame stage by stage on those clips and on the N compressed ones (the
 * crowd's stage hook: where the frame goal's difference lies), with the
 * clip bytes in memory and the bytes each frame reads; then issue 10's
 * goals with verdicts from this run. The frame runs the crowd as it comes
 * (its slots kept in clip order, crowd_order.c), and on compressed clips
 * once more with its slots in spawn order (no_clip_order) and once with
 * the next batch's clips prefetched (prefetch_clips); the lane job in clip
 * order likewise (prefetch_ahead). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "frame_bench.h"
#include "frame_library.h"
#include "goals.h"

/* N raw, N compressed, the k clips raw; N compressed in a crowd without clip
 * order (its frame only); N compressed with the characters in clip order
 * (the lane job only) */
enum { S_RAW, S_PACKED, S_BASE, S_SPAWN, S_SORTED, S_AHEAD, SCENES };
enum { C_SAMPLE_RAW, C_SAMPLE_PACKED, C_SAMPLE_BASE, C_STREAM_RAW, C_STREAM_PACKED,
       C_SORTED, C_SORTED_STREAM, C_SORTED_AHEAD, C_STORES, C_STORES_STREAMED, C_FRAME_RAW,
       C_FRAME_PACKED, C_FRAME_BASE, C_FRAME_SPAWN, C_FRAME_AHEAD, C_FRAME_PACKED_STAGES, C_FRAME_BASE_STAGES, C_COUNT };
/* The report groups: sampling (its variants C_SAMPLE_RAW .. C_STORES_STREAMED:
 * the characters as they come, then in clip order, then the job's stores
 * alone, its floor) and the whole frame. */
static const int group_first[2] = {C_SAMPLE_RAW, C_FRAME_RAW};
static const int group_size[2] = {C_FRAME_RAW - C_SAMPLE_RAW, C_COUNT - C_FRAME_RAW};

static double ms(const bench_variant *v)
{
    return v->frames_run ? v->median_ns * 1e-6 : -1.0;
}

static void print_memory(const frame_options *o, const frame_library *lib, const frame_scene *s)
{
    double per[S_SPAWN], touched[S_SPAWN];
    for (int k = 0; k < S_SPAWN; ++k)
        touched[k] = frame_library_touched(&s[k], &per[k]);
    const double bytes[S_SPAWN] = {(double)lib->bytes[LIB_RAW], (double)lib->bytes[LIB_PACKED],
                                  0.0};
    double base = 0.0;
    for (int i = 0; i < lib->base_count; ++i)
        base += (double)ossa_clip_bytes(lib->base[LIB_RAW][i]);
    const double all[S_SPAWN] = {bytes[S_RAW], bytes[S_PACKED], base};
    if (o->common.json) {
        printf(", \"memory\": [");
        static const char *const names[S_SPAWN] = {"raw", "compressed", "base raw"};
        for (int k = 0; k < S_SPAWN; ++k)
            printf("%s{\"clips\": \"%s\", \"clip_bytes\": %.0f, \"frame_touched_bytes\": %.0f, "
                   "\"sample_read_bytes\": %.1f}",
                   k ? ", " : "", names[k], all[k], touched[k], per[k]);
        printf("]");
        return;
    }
    printf("\nclip data (KiB): %-24s %12s %12s %12s\n", "", "raw", "compressed", "base raw");
    printf("  %-38s %12.1f %12.1f %12.1f\n", "in memory", all[S_RAW] / 1024.0,
           all[S_PACKED] / 1024.0, all[S_BASE] / 1024.0);
    printf("  %-38s %12.1f %12.1f %12.1f\n", "read by one frame (64-byte lines)",
           touched[S_RAW] / 1024.0, touched[S_PACKED] / 1024.0, touched[S_BASE] / 1024.0);
    printf("  %-38s %12.2f %12.2f %12.2f\n", "read by one sample (mean)", per[S_RAW] / 1024.0,
           per[S_PACKED] / 1024.0, per[S_BASE] / 1024.0);
}

/* The library's frame stage by stage (the stage-timed frames' medians), on
 * the character's clips raw and on the N compressed clips: where the
 * frame-goal's difference lies. */
static void print_stages(const frame_options *o, const frame_scene *s)
{
    if (s[S_PACKED].crowd_timing.calls == 0 || s[S_BASE].crowd_timing.calls == 0)
        return;
    static const char *const names[FRAME_STAGES] = {
        [FRAME_SAMPLE_A] = "sample (first clip)", [FRAME_SAMPLE_B] = "sample (second clip)",
        [FRAME_BLEND] = "blend", [FRAME_LOCAL_TO_MODEL] = "locomotion, local->model",
        [FRAME_POSE_OUT] = "pose out, footfalls, events", [FRAME_PALETTE] = "palettes",
        [FRAME_SKIN] = "skin", [FRAME_IK] = "ik"};
    const int frames = o->common.frames;
    if (o->common.json)
        printf(", \"stages\": [");
    else
        printf("\nframe stages (ms, medians of the stage-timed frames): %8s %12s %10s\n",
               "base raw", "compressed", "change");
    double sum[2] = {0, 0};
    for (int k = 0; k < FRAME_STAGES; ++k) {
        const double base = frame_timing_median(&s[S_BASE].crowd_timing, k, frames) * 1e-6;
        const double packed = frame_timing_median(&s[S_PACKED].crowd_timing, k, frames) * 1e-6;
        sum[0] += base;
        sum[1] += packed;
        if (o->common.json)
            printf("%s{\"stage\": \"%s\", \"base_raw_ms\": %.4f, \"compressed_ms\": %.4f}",
                   k ? ", " : "", names[k], base, packed);
        else if (base > 0 || packed > 0)
            printf("  %-52s %8.3f %12.3f %+10.3f\n", names[k], base, packed, packed - base);
    }
    if (o->common.json)
        printf("]");
    else
        printf("  %-52s %8.3f %12.3f %+10.3f\n", "sum of the medians", sum[0], sum[1],
               sum[1] - sum[0]);
}

/* The sampling goals' floors: the pose's stores alone, measured in this
 * run, and whether a goal's target lies under its floor. */
static void print_floors(const frame_options *o, const bench_variant *v)
{
    const double target = 0.25; /* the lower of the sampling goals' targets */
    for (int streamed = 0; !o->common.json && streamed < 2; ++streamed) {
        const double floor = ms(&v[streamed ? C_STORES_STREAMED : C_STORES]);
        if (floor < 0.0)
            continue;
        if (floor > target)
            printf("  floor, %-8s: the pose's stores alone take %.3f ms here; no sampler "
                   "writing this pose with these stores meets %.2f ms\n",
                   streamed ? "streamed" : "plain", floor, target);
        else
            printf("  floor, %-8s: the pose's stores alone take %.3f ms here; under the goals' "
                   "targets\n",
                   streamed ? "streamed" : "plain", floor);
    }
}

static int clip_goals(const frame_options *o, const frame_scene *s, const frame_library *lib,
                      const bench_variant *v, bench_goal *g)
{
    const ossa_simd_path path = o->path == OSSA_SIMD_AUTO ? ossa_simd_best_path() : o->path;
    const bool pab = s->characters == 1000 && s->joints == 67 && s->threads == 1 &&
                     path == OSSA_SIMD_AVX512;
    const double base = ms(&v[C_FRAME_BASE]), packed = ms(&v[C_FRAME_PACKED]);
    int n = 0;
    /* The sampling goals of this run's N only (3 or 256: a figure taken
     * over other clips says nothing of them); on another path than
     * AVX-512, or another crowd, with "other setting". Each with the pose
     * written by plain stores and by streamed ones
     * (ossa_lane_sampling_job.stream_output), both shown, and each with the
     * characters as they come and in clip order. */
    const int which = lib->count == 3 ? 0 : lib->count == 256 ? 1 : -1;
    static const double targets[2] = {0.25, 0.30};
    static const char *const settings[2] = {
        "--clips 3, 1000 characters x 67 joints (pab), 1 thread, AVX-512",
        "--clips 256, 1000 characters x 67 joints (pab), 1 thread, AVX-512"};
    static const char *const names[2][2][2] = {
        {{"sample, compressed, 3 clips", "sample, compressed, 3 clips, streamed"},
         {"sample, compressed, 3 clips, clip order",
          "sample, compressed, 3 clips, clip order, streamed"}},
        {{"sample, compressed, 256 clips", "sample, compressed, 256 clips, streamed"},
         {"sample, compressed, 256 clips, clip order",
          "sample, compressed, 256 clips, clip order, streamed"}}};
    static const int variant[2][2] = {{C_SAMPLE_PACKED, C_STREAM_PACKED},
                                      {C_SORTED, C_SORTED_STREAM}};
    static const char *const prefetched[2] = {
        "sample, compressed, 3 clips, clip order, streamed, prefetched",
        "sample, compressed, 256 clips, clip order, streamed, prefetched"};
    for (int sorted = 0; which >= 0 && sorted < 2; ++sorted)
        for (int streamed = 0; streamed < 2; ++streamed)
            g[n++] = (bench_goal){names[which][sorted][streamed], "ms",
                                  ms(&v[variant[sorted][streamed]]), BENCH_AT_MOST,
                                  targets[which], "issue 10", pab, settings[which]};
    /* and once more with each batch's next one prefetched (prefetch_ahead) */
    if (which >= 0)
        g[n++] = (bench_goal){prefetched[which], "ms", ms(&v[C_SORTED_AHEAD]), BENCH_AT_MOST,
                              targets[which], "issue 10", pab, settings[which]};
    /* the frame goal, for 256 clips only, likewise */
    if (lib->count != 256)
        return n;
    const bool frame_goal = lib->base_count == 3 && s->threads == 1;
    const double packed_ahead = ms(&v[C_FRAME_AHEAD]);
    g[n++] = (bench_goal){"whole frame: 256 compressed clips / 3 raw clips", "x",
                          base > 0 && packed > 0 ? packed / base : -1.0, BENCH_AT_MOST, 1.0,
                          "issue 10", frame_goal, "--clips 256 on a character with 3 clips, 1 thread"};
    g[n++] = (bench_goal){"whole frame, prefetched: 256 compressed clips / 3 raw clips", "x",
                          base > 0 && packed_ahead > 0 ? packed_ahead / base : -1.0, BENCH_AT_MOST,
                          1.0, "issue 10", frame_goal,
                          "--clips 256 on a character with 3 clips, 1 thread"};
    return n;
}

int frame_clips_run(const frame_options *o, const frame_character *c)
{
    frame_library lib;
    memset(&lib, 0, sizeof lib);
    if (!o->common.list && !frame_library_build(&lib, c, o->clips))
        return 1;
    frame_scene s[SCENES];
    memset(s, 0, sizeof s);
    const frame_character *views[SCENES] = {&lib.view[LIB_RAW], &lib.view[LIB_PACKED],
                                            &lib.base_view[LIB_RAW], &lib.view[LIB_PACKED],
                                            &lib.view[LIB_PACKED], &lib.view[LIB_PACKED]};
    int made = 0, code = 0;
    for (; !o->common.list && made < SCENES; ++made) {
        const unsigned parts = made == S_SPAWN || made == S_AHEAD ? FRAME_CROWD
                               : made == S_SORTED ? FRAME_STAGED
                                                  : FRAME_STAGED | FRAME_CROWD;
        if (!frame_scene_init(&s[made], views[made], o->characters, o->skinned, o->common.threads,
                              o->width, o->path, o->skin_format, parts)) {
            code = 1;
            break;
        }
        if (made == S_SORTED)
            frame_scene_sort_by_clip(&s[made]);
        if (made == S_SPAWN || made == S_AHEAD) {
            s[made].no_clip_order = made == S_SPAWN;
            s[made].prefetch_clips = made == S_AHEAD;
            if (!frame_scene_reset_crowd(&s[made])) {
                code = 1;
                ++made;
                break;
            }
        }
    }
#define VARIANT(id, name_, label_, run_, scene_)                                               \
    [id] = {.name = name_, .label = label_, .run = run_, .context = &s[scene_], .seed_ms = -1}
    bench_variant v[C_COUNT] = {
        VARIANT(C_SAMPLE_RAW, "sample-raw", "N raw clips", frame_lane_sample, S_RAW),
        VARIANT(C_SAMPLE_PACKED, "sample-compressed", "N compressed clips", frame_lane_sample,
                S_PACKED),
        VARIANT(C_SAMPLE_BASE, "sample-base", "the character's clips, raw", frame_lane_sample,
                S_BASE),
        VARIANT(C_STREAM_RAW, "sample-raw-streamed", "N raw clips, streamed stores",
                frame_lane_sample_streamed, S_RAW),
        VARIANT(C_STREAM_PACKED, "sample-compressed-streamed",
                "N compressed clips, streamed stores", frame_lane_sample_streamed, S_PACKED),
        VARIANT(C_SORTED, "sample-compressed-clip-order",
                "N compressed clips, characters in clip order", frame_lane_sample, S_SORTED),
        VARIANT(C_SORTED_STREAM, "sample-compressed-clip-order-streamed",
                "the same, streamed stores", frame_lane_sample_streamed, S_SORTED),
        VARIANT(C_SORTED_AHEAD, "sample-compressed-clip-order-streamed-prefetched",
                "the same, next batch prefetched", frame_lane_sample_streamed_ahead, S_SORTED),
        VARIANT(C_STORES, "sample-stores", "the pose's stores alone (floor)", frame_lane_stores,
                S_PACKED),
        VARIANT(C_STORES_STREAMED, "sample-stores-streamed",
                "the pose's stores alone, streamed (floor)", frame_lane_stores_streamed, S_PACKED),
        VARIANT(C_FRAME_RAW, "frame-raw", "N raw clips", frame_crowd, S_RAW),
        VARIANT(C_FRAME_PACKED, "frame-compressed", "N compressed clips", frame_crowd, S_PACKED),
        VARIANT(C_FRAME_BASE, "frame-base", "the character's clips, raw", frame_crowd, S_BASE),
        VARIANT(C_FRAME_SPAWN, "frame-compressed-spawn-order",
                "N compressed clips, slots in spawn order", frame_crowd, S_SPAWN),
        VARIANT(C_FRAME_AHEAD, "frame-compressed-prefetched",
                "N compressed clips, next batch prefetched", frame_crowd, S_AHEAD),
        VARIANT(C_FRAME_PACKED_STAGES, "frame-compressed-stages",
                "N compressed clips, stages timed", frame_crowd_timed, S_PACKED),
        VARIANT(C_FRAME_BASE_STAGES, "frame-base-stages",
                "the character's clips, raw, stages timed", frame_crowd_timed, S_BASE),
    };
#undef VARIANT
    if (code == 0 && bench_run(v, C_COUNT, &o->common) == 0)
        code = o->common.list ? 0 : 2;
    for (int k = 0; code == 0 && k < SCENES; ++k)
        if (frame_scene_result(&s[k]) != OSSA_OK) {
            cli_error("bench frame", "a stage failed: %s",
                      ossa_result_str(frame_scene_result(&s[k])));
            code = 1;
        }
    if (code == 0 && !o->common.list) {
        char sample_title[320], frame_title[320];
        snprintf(sample_title, sizeof sample_title,
                 "sample one clip (lane job, pose written): %d characters x %d joints over %d "
                 "clips (variants of %d), %d thread%s",
                 o->characters, s[0].joints, lib.count, lib.base_count, s[0].threads,
                 s[0].threads > 1 ? "s" : "");
        snprintf(frame_title, sizeof frame_title,
                 "whole frame (ossa_crowd + skinning %d): the same characters", s[0].skinned);
        const bench_report reports[2] = {
            {sample_title, "joint", (double)o->characters * s[0].joints, 0, NULL, NULL},
            {frame_title, "character", (double)o->characters, 0, NULL, NULL}};
        if (o->common.json)
            printf("{\"bench\": \"frame --clips\", \"clips\": %d, \"groups\": [", lib.count);
        else
            printf("%s; %d clips: clip i is clip i mod %d played from a phase of its own, "
                   "both kinds built from the same keys (in %.1f s), each in its own "
                   "allocation\n",
                   c->description, lib.count, lib.base_count, lib.seconds_built);
        /* a group none of whose variants ran (--variant) is left out */
        for (int g = 0, printed = 0; g < 2; ++g) {
            int ran = 0;
            for (int k = 0; k < group_size[g]; ++k)
                ran |= v[group_first[g] + k].frames_run != 0;
            if (!ran)
                continue;
            if (o->common.json && printed++)
                printf(",");
            bench_print(&reports[g], v + group_first[g], group_size[g], &o->common);
        }
        if (o->common.json)
            printf("]");
        print_stages(o, s);
        print_memory(o, &lib, s);
        bench_goal goals[16];
        const int n = clip_goals(o, &s[0], &lib, v, goals);
        if (o->common.json)
            printf(", \"goals\": ");
        bench_print_goals(goals, n, &o->common);
        if (n == 0 && !o->common.json)
            printf("  none for --clips %d: issue 10's are for --clips 3 (sampling) and 256 "
                   "(sampling, the whole frame)\n",
                   lib.count);
        print_floors(o, v);
        if (o->common.json)
            printf("}\n");
    }
    for (int k = 0; k < made; ++k)
        frame_scene_fini(&s[k]);
    frame_library_free(&lib);
    return code;
}
