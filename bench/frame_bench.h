/* frame_bench.h - `ossa bench frame`'s options, variants and reports, shared
 * by frame_bench.c (options, the run) and frame_report.c (the stage table,
 * the scaling sweep). */
#ifndef OSSA_BENCH_FRAME_BENCH_H
#define OSSA_BENCH_FRAME_BENCH_H

#include <stdbool.h>

#include "frame_setup.h"
#include "harness.h"

typedef struct frame_options {
    bench_options common;
    int characters;
    int skinned;    /* characters skinned (default 100) */
    int synthetic;  /* joints of a synthetic character, 0: default / --model */
    int width;
    ossa_simd_path path;
    ossa_skin_format skin_format; /* the lanes' and the crowd's vertices (default packed) */
    bool sweep;
    int sweep_max;
    int clips; /* --clips N: the clip library workload (frame_clips.c), 0: off */
    /* --ozz-frame-ms: ozz-animation 0.16's frame of the same work, measured on
     * this machine outside this repository; 0: none (issue 11's ratio is then
     * not measured) */
    float ozz_frame_ms;
} frame_options;

/* The variants, interleaved by the harness. */
enum {
    V_REFERENCE,    /* reference jobs, stage by stage */
    V_STAGED,       /* lane jobs, stage by stage */
    V_FUSED,        /* lane jobs fused per batch, then skinning */
    V_CROWD,        /* the library: crowd runner, untimed */
    V_CROWD_TIMED,  /* the same, each stage timed through the crowd's hook */
    V_CROWD_PLAIN,  /* the same, untimed, skinning with ordinary stores */
    V_CROWD_OTHER,  /* the same, untimed, the other vertex format (float4 / packed) */
    V_CROWD_ALONE,  /* the same characters each playing one of its clips alone */
    V_SAMPLE,       /* lane stages alone */
    V_BLEND,
    V_L2M,
    V_POSE_OUT,
    V_COUNT
};

/* The stage table (or its JSON) after a run. */
void frame_print_stages(const frame_options *o, const frame_scene *s, const bench_variant *v,
                        const double check[3]);
/* The library's frame for 10 .. sweep_max characters on 1 .. threads
 * threads, bit identity across thread counts checked. Returns an exit code. */
int frame_sweep(const frame_options *o, const frame_character *c);

/* --clips N: the characters over N clips, raw and compressed side by side
 * (frame_clips.c). Returns an exit code. */
int frame_clips_run(const frame_options *o, const frame_character *c);

#endif /* OSSA_BENCH_FRAME_BENCH_H */
