/* frame_bench.c - `ossa bench frame`: a whole frame for N characters - two
 * samples, blend, local->model, palettes and skinning for S of them - stage
 * by stage on the reference jobs, the lane jobs staged and fused, and the
 * library's crowd frame (also with every character on one clip alone),
 * interleaved; then the stage table (frame_report.c) and a sweep over
 * characters and threads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "frame_bench.h"
#include "synthetic_character.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench frame [--characters N] [--skinned N] [--threads N]\n"
            "                        [--model FILE.ossa | --synthetic JOINTS] [--sweep] [options]\n"
            "\n"
            "A whole frame for a crowd: each character samples two clips, blends them and\n"
            "walks its hierarchy; the first --skinned of them get a palette and their mesh\n"
            "skinned. Every stage runs on the reference jobs, on the lane jobs (W characters\n"
            "per SIMD vector) stage by stage and fused per batch, and in the library's crowd\n"
            "frame, interleaved - that frame also with every character playing one of its\n"
            "clips alone (weight 0 or 1). Prints per-stage medians, ns per joint and vertex, the\n"
            "whole frame, and each stage's memory floor from the bandwidth measured here.\n"
            "  --characters N    crowd size (default 1000)\n"
            "  --skinned N       characters skinned (default 100; 0: none)\n"
            "  --threads N, -j   threads (OpenMP; default 1)\n"
            "  --model FILE      any .ossa blob with a skeleton and clips (and a mesh: without\n"
            "                    one there is no palette or skin row)\n"
            "  --synthetic J     a synthetic J-joint character with 3 clips wearing a mesh\n"
            "                    shaped like ozz's arnaud (3934 vertices, 53 skin joints,\n"
            "                    tangents): --synthetic 67 stands in for pab arnaud\n"
            "  --width W         lanes per batch: 4, 8, 16 (default: this CPU's best)\n"
            "  --path NAME       lane kernels: auto, portable, sse, avx2, avx512\n"
            "  --skin-format F   the skinned vertices: packed (default; float3 position,\n"
            "                    10:10:10:2 normal and tangent) or float4 (the mesh's layout);\n"
            "                    the reference jobs skin float4 either way\n"
            "  --sweep           also time the library's frame for 10 .. 100000 characters\n"
            "                    (min(N, --skinned) skinned) and 1 .. --threads threads\n"
            "  --sweep-max N     largest crowd of the sweep (default 100000)\n"
            "  --clips N         the clip library instead: the characters spread over N\n"
            "                    clips (the character's k clips, each round of k played\n"
            "                    from another phase: N different clips, both kinds built\n"
            "                    from the same keys), raw and compressed side by side:\n"
            "                    one clip sampled and the library's whole frame, beside\n"
            "                    the k clips raw, and on the compressed clips with the\n"
            "                    next batch prefetched; that frame stage by stage on\n"
            "                    the k raw and the N compressed clips; the bytes of keys\n"
            "                    in memory and read per frame; issue 10's goals (use a\n"
            "                    67-joint pab blob). The N clips are built first, on\n"
            "                    every core OpenMP is given (about a second a clip)\n"
            "  --ozz-frame-ms MS ozz-animation 0.16's frame of the same work (1000 pab\n"
            "                    characters, 100 arnauds skinned, 1 thread) measured on\n"
            "                    this machine by a harness of your own: issue 11's ratio\n"
            "                    is printed against it (without it: not measured - a\n"
            "                    figure from another machine does not compare)\n"
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
        } else if (cli_is(a, "--skinned", "-s")) {
            if (!cli_int_arg(argc, argv, &i, 0, 10000000, &o->skinned))
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
            for (int p = 0; p < OSSA_SIMD_PATH_COUNT; ++p)
                if (strcmp(name, ossa_simd_path_name((ossa_simd_path)p)) == 0)
                    found = p;
            if (found < 0) {
                cli_error("bench frame", "--path %s: expected auto, portable, sse, avx2, avx512",
                          name);
                return 2;
            }
            if (!ossa_simd_path_supported((ossa_simd_path)found)) {
                cli_error("bench frame", "--path %s: this CPU or build cannot run it", name);
                return 1;
            }
            o->path = (ossa_simd_path)found;
        } else if (cli_is(a, "--skin-format", NULL)) {
            if (!cli_skin_format_arg(argc, argv, &i, "bench frame", &o->skin_format))
                return 2;
        } else if (cli_is(a, "--sweep", NULL)) {
            o->sweep = true;
        } else if (cli_is(a, "--clips", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 1, 65535, &o->clips))
                return 2;
        } else if (cli_is(a, "--ozz-frame-ms", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 0.001f, 1e6f, &o->ozz_frame_ms))
                return 2;
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

int bench_frame_main(int argc, char **argv)
{
    frame_options o;
    memset(&o, 0, sizeof o);
    o.common.frames = 100;
    o.common.warmup = 5;
    o.common.threads = 1;
    o.characters = 1000;
    o.skinned = 100;
    o.sweep_max = 100000;
    o.skin_format = OSSA_SKIN_FORMAT_PACKED;
    int code = parse(argc, argv, &o);
    if (code >= 0)
        return code;
#define VARIANT(id, name_, label_, run_) [id] = {.name = name_, .label = label_, .run = run_, .seed_ms = -1}
    bench_variant v[V_COUNT] = {
        VARIANT(V_REFERENCE, "reference", "reference jobs, stage by stage", frame_reference_staged),
        VARIANT(V_STAGED, "staged", "lanes, stage by stage", frame_lanes_staged),
        VARIANT(V_FUSED, "fused", "lanes, fused per batch", frame_lanes_fused),
        VARIANT(V_CROWD, "crowd", "the library: ossa_crowd + skinning", frame_crowd),
        VARIANT(V_CROWD_TIMED, "crowd-stages", "the same, stages timed", frame_crowd_timed),
        VARIANT(V_CROWD_PLAIN, "crowd-plain-stores", "the same, skin without streaming stores",
                frame_crowd_plain),
        VARIANT(V_CROWD_OTHER, "crowd-other-format", "", frame_crowd_other_format),
        VARIANT(V_CROWD_ALONE, "crowd-clips-alone", "the same, each character on one clip",
                frame_crowd),
        VARIANT(V_SAMPLE, "sample", "lanes: sample one clip (alone)", frame_lane_sample),
        VARIANT(V_BLEND, "blend", "lanes: blend 2 layers (alone)", frame_lane_blend),
        VARIANT(V_L2M, "l2m", "lanes: local->model (alone)", frame_lane_local_to_model),
        VARIANT(V_POSE_OUT, "pose-out", "lanes: pose out, matrices (alone)", frame_lane_pose_out),
    };
#undef VARIANT
    char other_label[64];
    snprintf(other_label, sizeof other_label, "the same, %s vertices",
             o.skin_format == OSSA_SKIN_FORMAT_PACKED ? "float4" : "packed");
    v[V_CROWD_OTHER].label = other_label;
    if (o.clips && o.common.list)
        return frame_clips_run(&o, NULL);
    if (o.common.list)
        return bench_run(v, V_COUNT, &o.common), 0;
    frame_character c;
    if (!frame_character_load(&c, o.common.model, o.synthetic))
        return 1;
    if (o.clips) {
        code = frame_clips_run(&o, &c);
        frame_character_free(&c);
        return code;
    }
    frame_scene s;
    if (!frame_scene_init(&s, &c, o.characters, o.skinned, o.common.threads, o.width, o.path,
                          o.skin_format,
                          FRAME_STAGED | FRAME_REFERENCE | FRAME_CROWD)) {
        frame_character_free(&c);
        return 1;
    }
    /* The same crowd with every character playing one of its two clips
     * alone (weight_b 0 or 1, alternately): what a character that does not
     * blend costs - between fades, most of a game's. */
    frame_scene alone;
    memset(&alone, 0, sizeof alone);
    if (!frame_scene_init(&alone, &c, o.characters, o.skinned, o.common.threads, o.width, o.path,
                          o.skin_format, FRAME_CROWD)) {
        frame_scene_fini(&s);
        frame_character_free(&c);
        return 1;
    }
    for (int i = 0; i < o.characters; ++i)
        alone.weight_b[i] = (float)(i % 2);
    if (!frame_scene_reset_crowd(&alone)) {
        frame_scene_fini(&alone);
        frame_scene_fini(&s);
        frame_character_free(&c);
        return 1;
    }
    for (int k = 0; k < V_COUNT; ++k)
        v[k].context = k == V_CROWD_ALONE ? &alone : &s;
    /* every path once, so any one variant finds real inputs; and a check */
    double check[3];
    frame_scene_check(&s, &check[0], &check[1], &check[2]);
    code = 0;
    if (frame_scene_result(&s) != OSSA_OK) {
        cli_error("bench frame", "a stage failed: %s", ossa_result_str(frame_scene_result(&s)));
        code = 1;
    }
    if (!c.mesh && o.skinned > 0 && !o.common.json)
        printf("(%s has no mesh: nothing is skinned)\n", c.description);
    char title[400];
    snprintf(title, sizeof title, "frame: %d characters of the %s, %d skinned (%s vertices), %d thread%s",
             o.characters, c.description, s.skinned, cli_skin_format_name(o.skin_format),
             s.threads, s.threads > 1 ? "s" : "");
    bench_report report = {title, "character", (double)o.characters, V_REFERENCE, NULL, NULL};
    if (code == 0 && bench_run(v, V_COUNT, &o.common) == 0)
        code = 2;
    if (code == 0) {
        if (o.common.json)
            printf("{\"bench\": \"frame\", \"variants\": ");
        bench_print(&report, v, V_COUNT, &o.common);
        if (!o.common.variant) {
            frame_print_stages(&o, &s, v, check);
            if (o.sweep)
                code = frame_sweep(&o, &c);
        }
        if (o.common.json)
            printf("}\n");
    }
    for (int k = 0; k < 2 && code == 0; ++k) {
        const ossa_result r = frame_scene_result(k ? &alone : &s);
        if (r != OSSA_OK) {
            cli_error("bench frame", "a stage failed: %s", ossa_result_str(r));
            code = 1;
        }
    }
    frame_scene_fini(&alone);
    frame_scene_fini(&s);
    frame_character_free(&c);
    return code;
}
