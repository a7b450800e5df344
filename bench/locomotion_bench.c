/* locomotion_bench.c - `ossa bench locomotion`: what root motion, events and
 * transitions cost. The library's crowd frame (update, palettes, skinning
 * of the first S characters) with them - root motion, footfalls from the
 * feet's height tracks, phase sync on half the characters, fades started
 * every frame - against the same crowd without them, interleaved; then the
 * root motion and event jobs alone, reference vs lanes, per character. The
 * issue's goal (locomotion adds at most 5 % to the frame of 1000
 * characters) is judged from this run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "crowd_runner.h"
#include "goals.h"
#include "harness.h"
#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "scene_character.h"

#define DT (1.0f / 30.0f)
#define FADES_PER_FRAME 10

typedef struct loco_crowd {
    void *memory;
    ossa_crowd *crowd;
    crowd_runner runner;
    ossa_entity *entity;
    bool locomotion; /* fades every frame */
    uint32_t frame;
} loco_crowd;

typedef struct loco {
    scene_character character;
    int characters, skinned, clip_count;
    loco_crowd on, off;
    /* the jobs alone: both layers' clips and playheads; the feet's tracks */
    uint16_t *clip_a, *clip_b;
    float *from, *to;
    ossa_root_motion *motion;
    ossa_float_track *foot_tracks; /* per foot and clip */
    float *heights;
    int feet;
    ossa_track_event *events;
    int *event_count;
} loco;

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench locomotion [--characters N] [--skinned N] [--model FILE.ossa]\n"
            "                             [options]\n"
            "\n"
            "The crowd frame with root motion, footfall events and transitions (fades\n"
            "started every frame, phase sync on half the characters) against the same\n"
            "frame without them, interleaved; then the root motion and event jobs\n"
            "alone, reference vs lanes. ns per character; the issue's goal: at most\n"
            "+5 %% on the frame of 1000 characters.\n"
            "  --characters N    crowd size (default 1000)\n"
            "  --skinned N       characters skinned (default 100)\n"
            "  --model FILE      any .ossa blob with a skeleton and clips (default: the\n"
            "                    default character, whose walk and run carry root motion)\n"
            "%s",
            bench_common_help());
}

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static float unit(uint32_t h)
{
    return (float)(mix(h) >> 8) * (1.0f / 16777216.0f);
}

/* One crowd, the same characters either way; with locomotion, root motion,
 * the feet (when the character has them) and phase sync on odd characters. */
static int crowd_make(loco *b, loco_crowd *lc, bool locomotion)
{
    const scene_character *c = &b->character;
    ossa_crowd_desc d = scene_crowd_desc(c, b->characters, b->skinned);
    static const char *const none[1] = {NULL};
    d.no_root_motion = !locomotion;
    if (locomotion && c->feet[0]) {
        d.foot_names = c->feet;
        d.foot_count = 2;
    } else {
        d.foot_names = none; /* no feet watched */
        d.foot_count = 0;
    }
    const size_t bytes = ossa_crowd_size(&d);
    if (!bytes)
        return 0;
    lc->memory = cli_alloc(bytes);
    lc->entity = cli_alloc(sizeof *lc->entity * (size_t)b->characters);
    lc->locomotion = locomotion;
    if (ossa_crowd_init(&lc->crowd, lc->memory, bytes, &d) != OSSA_OK)
        return 0;
    for (int i = 0; i < b->characters; ++i) {
        const uint32_t k = (uint32_t)i * 8u;
        ossa_character_desc ch = {0};
        ch.clip_a = (int)(mix(k) % (uint32_t)b->clip_count);
        ch.clip_b = (ch.clip_a + 1) % b->clip_count;
        /* each on one clip alone, as a game's characters are between
         * fades: a fade's second clip is then what transitions add */
        ch.weight_b = (float)(mix(k + 1) & 1u);
        ch.time_s = 3.0f * unit(k + 2);
        ch.speed = 0.8f + 0.4f * unit(k + 3);
        ch.position = (ossa_float3){(float)(i % 32) * 2.0f, 0.0f, (float)(i / 32) * 2.0f};
        ch.yaw_rad = 6.2831853f * unit(k + 4);
        ch.skinned = i < b->skinned;
        ch.sync = locomotion && (i & 1);
        if (ossa_crowd_spawn(lc->crowd, &ch, &lc->entity[i]) != OSSA_OK)
            return 0;
    }
    /* the crowd frame's default vertices (bench frame's): packed */
    return crowd_runner_init(&lc->runner, lc->crowd, b->skinned ? c->mesh : NULL, b->skinned,
                             OSSA_SKIN_FORMAT_PACKED, 1);
}

static void crowd_free(loco_crowd *lc)
{
    crowd_runner_fini(&lc->runner);
    cli_free(lc->memory);
    cli_free(lc->entity);
}

/* One frame: with locomotion, FADES_PER_FRAME characters start a fade to
 * another clip (as a game's logic would), then the crowd's frame. */
static void run_crowd(void *context)
{
    loco_crowd *lc = context;
    if (lc->locomotion) {
        const int n = ossa_crowd_count(lc->crowd), clips = 3;
        for (int k = 0; k < FADES_PER_FRAME; ++k) {
            const uint32_t h = mix(lc->frame * 131u + (uint32_t)k);
            const ossa_entity e = ossa_crowd_entity_at(lc->crowd, (int)(h % (uint32_t)n));
            ossa_crowd_transition(lc->crowd, e, (int)(mix(h) % (uint32_t)clips), 0.5f,
                                  (h & 1) != 0);
        }
    }
    lc->frame++;
    if (crowd_runner_frame(&lc->runner, DT) != OSSA_OK)
        abort();
}

/* The feet's height tracks, as the crowd makes them: the foot's model-space
 * height at ossa_crowd_height_samples times, from the reference jobs. */
static int foot_tracks(loco *b)
{
    const scene_character *c = &b->character;
    if (!c->feet[0])
        return 1;
    b->feet = 2;
    size_t total = 0;
    for (int k = 0; k < b->clip_count; ++k)
        total += (size_t)ossa_crowd_height_samples(c->clips[k]);
    b->heights = cli_alloc(sizeof *b->heights * total * 2);
    b->foot_tracks = cli_alloc(sizeof *b->foot_tracks * 2 * (size_t)b->clip_count);
    ossa_transform *local = cli_alloc(sizeof *local * (size_t)c->joints);
    ossa_mat34 *model = cli_alloc(sizeof *model * (size_t)c->joints);
    float *at = b->heights;
    for (int f = 0; f < 2; ++f) {
        const int joint = ossa_skeleton_find_joint(c->skeleton, c->feet[f]);
        for (int k = 0; k < b->clip_count; ++k) {
            const ossa_clip *clip = c->clips[k];
            const int samples = ossa_crowd_height_samples(clip);
            const float duration = ossa_clip_duration(clip);
            for (int i = 0; i < samples; ++i) {
                const float t = samples > 1 ? duration * (float)i / (float)(samples - 1) : 0.0f;
                for (int j = 0; j < c->joints; ++j)
                    local[j] = ossa_clip_sample_joint(clip, ossa_skeleton_rest_pose(c->skeleton), j, t,
                                                      OSSA_ROTATION_NLERP);
                ossa_local_to_model_job l = {0};
                l.parents = ossa_skeleton_parents(c->skeleton);
                l.joint_count = c->joints;
                l.local = local;
                l.local_count = c->joints;
                l.character_count = 1;
                l.model = model;
                l.model_count = c->joints;
                if (ossa_local_to_model_job_run(&l) != OSSA_OK)
                    return 0;
                at[i] = model[joint].m[1][3];
            }
            b->foot_tracks[f * b->clip_count + k] = (ossa_float_track){at, samples, duration};
            at += samples;
        }
    }
    cli_free(local);
    cli_free(model);
    return 1;
}

static void motion_reference(void *context)
{
    loco *b = context;
    for (int layer = 0; layer < 2; ++layer) {
        ossa_root_motion_job job = {0};
        job.clips = b->character.clips;
        job.clip_count = b->clip_count;
        job.clip_index = layer ? b->clip_b : b->clip_a;
        job.clip_index_count = b->characters;
        job.from_s = b->from;
        job.to_s = b->to;
        job.character_count = b->characters;
        job.output = b->motion;
        job.output_count = b->characters;
        if (ossa_root_motion_job_run(&job) != OSSA_OK)
            abort();
    }
    bench_consume(b->motion, sizeof *b->motion * (size_t)b->characters);
}

static void motion_lanes(void *context)
{
    loco *b = context;
    for (int layer = 0; layer < 2; ++layer) {
        ossa_lane_root_motion_job job = {0};
        job.clips = b->character.clips;
        job.clip_count = b->clip_count;
        job.clip_index = layer ? b->clip_b : b->clip_a;
        job.clip_index_count = b->characters;
        job.from_s = b->from;
        job.to_s = b->to;
        job.character_count = b->characters;
        job.output = b->motion;
        job.output_count = b->characters;
        if (ossa_lane_root_motion_job_run(&job) != OSSA_OK)
            abort();
    }
    bench_consume(b->motion, sizeof *b->motion * (size_t)b->characters);
}

static void events_reference(void *context)
{
    loco *b = context;
    for (int f = 0; f < b->feet; ++f) {
        ossa_track_event_job job = {0};
        job.tracks = b->foot_tracks + f * b->clip_count;
        job.track_count = b->clip_count;
        job.track_index = b->clip_a;
        job.track_index_count = b->characters;
        job.from_s = b->from;
        job.to_s = b->to;
        job.character_count = b->characters;
        job.threshold = 0.1f;
        job.edges = OSSA_EDGE_FALLING;
        job.events = b->events;
        job.events_per_character = 1;
        job.event_count = b->event_count;
        if (ossa_track_event_job_run(&job) != OSSA_OK)
            abort();
    }
    bench_consume(b->event_count, sizeof *b->event_count * (size_t)b->characters);
}

static void events_lanes(void *context)
{
    loco *b = context;
    for (int f = 0; f < b->feet; ++f) {
        ossa_lane_track_event_job job = {0};
        job.tracks = b->foot_tracks + f * b->clip_count;
        job.track_count = b->clip_count;
        job.track_index = b->clip_a;
        job.track_index_count = b->characters;
        job.from_s = b->from;
        job.to_s = b->to;
        job.character_count = b->characters;
        job.threshold = 0.1f;
        job.edges = OSSA_EDGE_FALLING;
        job.events = b->events;
        job.events_per_character = 1;
        job.event_count = b->event_count;
        if (ossa_lane_track_event_job_run(&job) != OSSA_OK)
            abort();
    }
    bench_consume(b->event_count, sizeof *b->event_count * (size_t)b->characters);
}

/* The lanes against the reference first: the largest motion difference and
 * how many characters' event counts differ. */
static void compare_paths(loco *b, double *motion_diff, int *event_diff)
{
    ossa_root_motion *ref = cli_alloc(sizeof *ref * (size_t)b->characters);
    int *ref_count = cli_alloc(sizeof *ref_count * (size_t)b->characters);
    motion_reference(b);
    memcpy(ref, b->motion, sizeof *ref * (size_t)b->characters);
    motion_lanes(b);
    double worst = 0.0;
    for (int i = 0; i < b->characters; ++i) {
        const double dx = fabs((double)ref[i].x - b->motion[i].x);
        const double dz = fabs((double)ref[i].z - b->motion[i].z);
        if (dx > worst)
            worst = dx;
        if (dz > worst)
            worst = dz;
    }
    events_reference(b);
    memcpy(ref_count, b->event_count, sizeof *ref_count * (size_t)b->characters);
    events_lanes(b);
    int differ = 0;
    for (int i = 0; i < b->characters; ++i)
        if (ref_count[i] != b->event_count[i])
            ++differ;
    cli_free(ref);
    cli_free(ref_count);
    *motion_diff = worst;
    *event_diff = differ;
}

static int setup(loco *b, const bench_options *o)
{
    const int loaded = o->model ? scene_character_load_file(&b->character, o->model, "bench")
                                : scene_character_load_default(&b->character, "bench");
    if (!loaded)
        return 0;
    b->clip_count = b->character.clip_count;
    if (!b->character.mesh)
        b->skinned = 0;
    b->skinned = b->skinned < b->characters ? b->skinned : b->characters;
    const size_t n = (size_t)b->characters;
    b->clip_a = cli_alloc(sizeof *b->clip_a * n);
    b->clip_b = cli_alloc(sizeof *b->clip_b * n);
    b->from = cli_alloc(sizeof *b->from * n);
    b->to = cli_alloc(sizeof *b->to * n);
    b->motion = cli_alloc(sizeof *b->motion * n);
    b->events = cli_alloc(sizeof *b->events * n);
    b->event_count = cli_alloc(sizeof *b->event_count * n);
    for (int i = 0; i < b->characters; ++i) {
        const uint32_t k = (uint32_t)i * 8u;
        b->clip_a[i] = (uint16_t)(mix(k) % (uint32_t)b->clip_count);
        b->clip_b[i] = (uint16_t)((b->clip_a[i] + 1) % b->clip_count);
        b->from[i] = 3.0f * unit(k + 2);
        b->to[i] = b->from[i] + DT * (0.8f + 0.4f * unit(k + 3));
    }
    if (!foot_tracks(b))
        return 0;
    if (!crowd_make(b, &b->on, true) || !crowd_make(b, &b->off, false)) {
        fprintf(stderr, "ossa bench: %s: cannot make its crowd\n", b->character.description);
        return 0;
    }
    return 1;
}

static void teardown(loco *b)
{
    crowd_free(&b->on);
    crowd_free(&b->off);
    void *blocks[] = {b->clip_a, b->clip_b, b->from,  b->to,          b->motion,
                      b->events, b->heights, b->foot_tracks, b->event_count};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
    scene_character_free(&b->character);
}

int bench_locomotion_main(int argc, char **argv)
{
    bench_options o = {0};
    o.frames = 200;
    loco b;
    memset(&b, 0, sizeof b);
    b.characters = 1000;
    b.skinned = 100;
    for (int i = 1; i < argc; ++i) {
        const int r = bench_parse_option(argc, argv, &i, &o);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--characters", "-n")) {
            if (!cli_int_arg(argc, argv, &i, 1, 1000000, &b.characters))
                return 2;
        } else if (cli_is(argv[i], "--skinned", "-s")) {
            if (!cli_int_arg(argc, argv, &i, 0, 1000000, &b.skinned))
                return 2;
        } else {
            cli_error("bench", "locomotion: unknown option '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (!setup(&b, &o)) {
        teardown(&b);
        return 1;
    }
    bench_variant v[] = {
        {"crowd_off", "crowd frame without locomotion", run_crowd, &b.off, -1, 0, 0, 0, 0, 0},
        {"crowd_on", "crowd frame with locomotion", run_crowd, &b.on, -1, 0, 0, 0, 0, 0},
        {"motion_reference", "root motion, 2 layers: reference job", motion_reference, &b, -1,
         0, 0, 0, 0, 0},
        {"motion_lanes", "root motion, 2 layers: lane job", motion_lanes, &b, -1, 0, 0, 0, 0, 0},
        {"events_reference", "footfall events, 2 feet: reference job", events_reference, &b, -1,
         0, 0, 0, 0, 0},
        {"events_lanes", "footfall events, 2 feet: lane job", events_lanes, &b, -1, 0, 0, 0, 0,
         0},
    };
    const int count = (int)(sizeof v / sizeof v[0]);
    double motion_diff;
    int event_diff;
    compare_paths(&b, &motion_diff, &event_diff);
    if (!bench_run(v, count, &o)) {
        teardown(&b);
        return o.list ? 0 : 2;
    }
    char title[3][400], note[240];
    snprintf(title[0], sizeof title[0],
             "locomotion: %d characters of %.200s, %d skinned, 1 thread; %d fades started a frame",
             b.characters, b.character.description, b.skinned, FADES_PER_FRAME);
    snprintf(title[1], sizeof title[1], "root motion jobs alone, %d characters", b.characters);
    snprintf(title[2], sizeof title[2], "event jobs alone, %d characters x %d feet",
             b.characters, b.feet);
    snprintf(note, sizeof note,
             "lanes of %d (%s); lanes vs reference: motions within %.2g, %d event counts differ",
             ossa_lane_width(), ossa_simd_path_name(ossa_simd_best_path()), motion_diff,
             event_diff);
    const bench_group groups[3] = {
        {{title[0], "character", b.characters, 0, NULL, note}, 0, 2},
        {{title[1], "character", b.characters, 0, NULL, note}, 2, 2},
        {{title[2], "character", b.characters, 0, NULL, note}, 4, 2},
    };
    bench_print_groups("locomotion", groups, 3, v, &o);
    const bool both = v[0].frames_run && v[1].frames_run;
    const double added = both ? 100.0 * (v[1].median_ns / v[0].median_ns - 1.0) : -1.0;
    bench_goal goal = {"root motion + events + transitions, added to the crowd frame",
                       "%",
                       added,
                       BENCH_AT_MOST,
                       5.0,
                       "issue 12",
                       b.characters == 1000,
                       "1000 characters"};
    if (!o.json) {
        if (both)
            printf("\nadded per character: %.1f ns (frame %.3f -> %.3f ms)\n",
                   (v[1].median_ns - v[0].median_ns) / b.characters, v[0].median_ns * 1e-6,
                   v[1].median_ns * 1e-6);
        bench_print_goals(&goal, 1, &o);
    }
    teardown(&b);
    return 0;
}
