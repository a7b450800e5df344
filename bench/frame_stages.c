/* frame_stages.c - the frame benchmark's stages (see frame_setup.h): each
 * runs one stage for all characters, split over the scene's threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_setup.h"
#include "lane_internal.h"

#ifdef _OPENMP
#include <omp.h>
#define PARALLEL(s) _Pragma("omp parallel num_threads((s)->threads)")
static int thread_id(void)
{
    return omp_get_thread_num();
}
static int thread_count(void)
{
    return omp_get_num_threads();
}
#else
#define PARALLEL(s)
static int thread_id(void)
{
    return 0;
}
static int thread_count(void)
{
    return 1;
}
#endif

/* This thread's share [*begin, *end) of total items; false when empty (a
 * 0, 0 range would mean "all" to a job). */
static int share(int total, int *begin, int *end)
{
    const int t = thread_id(), n = thread_count();
    *begin = (int)((int64_t)total * t / n);
    *end = (int)((int64_t)total * (t + 1) / n);
    return *begin < *end;
}

static void note(frame_scene *s, ossa_result r)
{
    if (r != OSSA_OK && s->result[thread_id()] == OSSA_OK)
        s->result[thread_id()] = r;
}

/* ---- reference stages: the readable jobs, instances split over threads ---- */

static void ref_sample(frame_scene *s, int second)
{
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_sampling_job j = {0};
            j.clips = s->character->clips;
            j.clip_count = s->character->clip_count;
            j.clip_index = second ? s->clip_b : s->clip_a;
            j.clip_index_count = s->characters;
            j.time_s = second ? s->time_b : s->time_a;
            j.time_count = s->characters;
            j.instance_begin = begin;
            j.instance_end = end;
            j.output = second ? s->ref_b : s->ref_a;
            j.output_count = s->characters * s->joints;
            note(s, ossa_sampling_job_run(&j));
        }
    }
}

void frame_ref_sample(void *scene)
{
    ref_sample(scene, 0);
}

void frame_ref_sample_b(void *scene)
{
    ref_sample(scene, 1);
}

void frame_ref_blend(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_blend_layer layers[2] = {{0}, {0}};
            layers[0].pose = s->ref_a;
            layers[0].pose_count = s->characters * s->joints;
            layers[0].weights = s->weight_a;
            layers[0].weight_count = s->characters;
            layers[1] = layers[0];
            layers[1].pose = s->ref_b;
            layers[1].weights = s->weight_b;
            ossa_blending_job j = {0};
            j.layers = layers;
            j.layer_count = 2;
            j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
            j.joint_count = s->joints;
            j.instance_count = s->characters;
            j.instance_begin = begin;
            j.instance_end = end;
            j.output = s->ref_pose;
            j.output_count = s->characters * s->joints;
            note(s, ossa_blending_job_run(&j));
        }
    }
}

void frame_ref_local_to_model(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->characters, &begin, &end)) {
            ossa_local_to_model_job j = {0};
            j.parents = ossa_skeleton_parents(s->character->skeleton);
            j.joint_count = s->joints;
            j.local = s->ref_pose;
            j.local_count = s->characters * s->joints;
            j.instance_count = s->characters;
            j.instance_begin = begin;
            j.instance_end = end;
            j.model = s->ref_model;
            j.model_count = s->characters * s->joints;
            note(s, ossa_local_to_model_job_run(&j));
        }
    }
}

/* ---- lane stages: batches split over threads ---- */

static void lane_sample(frame_scene *s, int second, int gather)
{
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_sampling_job j = {0};
            j.clips = s->character->clips;
            j.clip_count = s->character->clip_count;
            j.clip_index = second ? s->clip_b : s->clip_a;
            j.clip_index_count = s->characters;
            j.time_s = second ? s->time_b : s->time_a;
            j.time_count = s->characters;
            j.width = s->width;
            j.batch_begin = begin;
            j.batch_end = end;
            j.path = s->path;
            j.output = second ? s->lane_b : s->lane_a;
            j.output_count = s->pose_floats;
            note(s, ossai_lane_sampling_job_run_with(&j, gather));
        }
    }
}

void frame_lane_sample(void *scene)
{
    lane_sample(scene, 0, 0);
}

void frame_lane_sample_b(void *scene)
{
    lane_sample(scene, 1, 0);
}

void frame_lane_sample_gather(void *scene)
{
    lane_sample(scene, 0, 1);
}

void frame_lane_blend(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_blend_layer layers[2] = {{0}, {0}};
            layers[0].pose = s->lane_a;
            layers[0].pose_count = s->pose_floats;
            layers[0].weights = s->weight_a;
            layers[0].weight_count = s->characters;
            layers[1] = layers[0];
            layers[1].pose = s->lane_b;
            layers[1].weights = s->weight_b;
            ossa_lane_blending_job j = {0};
            j.layers = layers;
            j.layer_count = 2;
            j.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
            j.joint_count = s->joints;
            j.character_count = s->characters;
            j.width = s->width;
            j.batch_begin = begin;
            j.batch_end = end;
            j.path = s->path;
            j.output = s->lane_pose;
            j.output_count = s->pose_floats;
            note(s, ossa_lane_blending_job_run(&j));
        }
    }
}

void frame_lane_local_to_model(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_local_to_model_job j = {0};
            j.parents = ossa_skeleton_parents(s->character->skeleton);
            j.joint_count = s->joints;
            j.local = s->lane_pose;
            j.local_count = s->pose_floats;
            j.character_count = s->characters;
            j.width = s->width;
            j.batch_begin = begin;
            j.batch_end = end;
            j.path = s->path;
            j.model = s->lane_model;
            j.model_count = s->model_floats;
            note(s, ossa_lane_local_to_model_job_run(&j));
        }
    }
}

void frame_lane_pose_out(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            ossa_lane_palette_job j = {0};
            j.model = s->lane_model;
            j.model_count = s->model_floats;
            j.joint_count = s->joints;
            j.character_count = s->characters;
            j.width = s->width;
            j.batch_begin = begin;
            j.batch_end = end;
            j.path = s->path;
            j.palette = s->pose_out;
            j.palette_count = s->characters * s->joints;
            note(s, ossa_lane_palette_job_run(&j));
        }
    }
}

/* ---- the fused frame ---- */

void frame_crowd(void *scene)
{
    frame_scene *s = scene;
    int batches = 0;
    note(s, ossa_crowd_begin_frame(s->crowd, s->dt, &batches));
    PARALLEL(s)
    {
        int begin, end;
        if (share(batches, &begin, &end))
            note(s, ossa_crowd_update(s->crowd, begin, end, s->scratch[thread_id()],
                                      s->scratch_bytes));
    }
    note(s, ossa_crowd_end_frame(s->crowd));
}

/* ---- staged frames, stage by stage ---- */

static void record_ns(frame_timing *t, const double *ns)
{
    if (t->calls == t->capacity) {
        const int capacity = t->capacity ? 2 * t->capacity : 256;
        for (int k = 0; k < FRAME_STAGES; ++k)
            t->ns[k] = realloc(t->ns[k], sizeof(double) * (size_t)capacity);
        t->capacity = capacity;
    }
    for (int k = 0; k < FRAME_STAGES; ++k)
        t->ns[k][t->calls] = ns[k];
    t->calls++;
}

static void record(frame_timing *t, const uint64_t *stamps, int stages)
{
    double ns[FRAME_STAGES];
    for (int k = 0; k < FRAME_STAGES; ++k)
        ns[k] = k < stages ? (double)(stamps[k + 1] - stamps[k]) : 0.0;
    record_ns(t, ns);
}

double frame_timing_median(const frame_timing *t, int stage, int calls)
{
    calls = calls < t->calls ? calls : t->calls;
    if (calls <= 0)
        return 0.0;
    double *copy = malloc(sizeof(double) * (size_t)calls);
    memcpy(copy, t->ns[stage] + (t->calls - calls), sizeof(double) * (size_t)calls);
    const double median = cli_median(copy, (size_t)calls);
    free(copy);
    return median;
}

void frame_reference_staged(void *scene)
{
    frame_scene *s = scene;
    uint64_t t[FRAME_STAGES + 1];
    t[0] = cli_now_ns();
    frame_ref_sample(s);
    t[1] = cli_now_ns();
    frame_ref_sample_b(s);
    t[2] = cli_now_ns();
    frame_ref_blend(s);
    t[3] = cli_now_ns();
    frame_ref_local_to_model(s);
    t[4] = cli_now_ns();
    record(&s->reference_timing, t, 4);
}

void frame_lanes_staged(void *scene)
{
    frame_scene *s = scene;
    uint64_t t[FRAME_STAGES + 1];
    t[0] = cli_now_ns();
    frame_lane_sample(s);
    t[1] = cli_now_ns();
    frame_lane_sample_b(s);
    t[2] = cli_now_ns();
    frame_lane_blend(s);
    t[3] = cli_now_ns();
    frame_lane_local_to_model(s);
    t[4] = cli_now_ns();
    frame_lane_pose_out(s);
    t[5] = cli_now_ns();
    record(&s->lanes_timing, t, 5);
}

/* One batch through the five lane stages in scratch that stays in cache;
 * ns[k] += stage k's time. */
static void fused_batch(frame_scene *s, int batch, float *scratch, double *ns)
{
    const int w = s->width, first = batch * w;
    const int n = s->characters - first < w ? s->characters - first : w;
    const size_t pose = ossa_lane_pose_floats(s->joints, w, w);
    const size_t model = ossa_lane_model_floats(s->joints, w, w);
    float *a = scratch, *b = a + pose, *local = b + pose, *m = local + pose;
    uint64_t t[FRAME_STAGES + 1];
    t[0] = cli_now_ns();
    ossa_lane_sampling_job sj = {0};
    sj.clips = s->character->clips;
    sj.clip_count = s->character->clip_count;
    sj.clip_index = s->clip_a + first;
    sj.clip_index_count = n;
    sj.time_s = s->time_a + first;
    sj.time_count = n;
    sj.width = w;
    sj.path = s->path;
    sj.output = a;
    sj.output_count = pose;
    note(s, ossa_lane_sampling_job_run(&sj));
    t[1] = cli_now_ns();
    sj.clip_index = s->clip_b + first;
    sj.time_s = s->time_b + first;
    sj.output = b;
    note(s, ossa_lane_sampling_job_run(&sj));
    t[2] = cli_now_ns();
    ossa_lane_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = a;
    layers[0].pose_count = pose;
    layers[0].weights = s->weight_a + first;
    layers[0].weight_count = n;
    layers[1] = layers[0];
    layers[1].pose = b;
    layers[1].weights = s->weight_b + first;
    ossa_lane_blending_job bj = {0};
    bj.layers = layers;
    bj.layer_count = 2;
    bj.rest_pose = ossa_skeleton_rest_pose(s->character->skeleton);
    bj.joint_count = s->joints;
    bj.character_count = n;
    bj.width = w;
    bj.path = s->path;
    bj.output = local;
    bj.output_count = pose;
    note(s, ossa_lane_blending_job_run(&bj));
    t[3] = cli_now_ns();
    ossa_lane_local_to_model_job lj = {0};
    lj.parents = ossa_skeleton_parents(s->character->skeleton);
    lj.joint_count = s->joints;
    lj.local = local;
    lj.local_count = pose;
    lj.character_count = n;
    lj.width = w;
    lj.path = s->path;
    lj.model = m;
    lj.model_count = model;
    note(s, ossa_lane_local_to_model_job_run(&lj));
    t[4] = cli_now_ns();
    ossa_lane_palette_job pj = {0};
    pj.model = m;
    pj.model_count = model;
    pj.joint_count = s->joints;
    pj.character_count = n;
    pj.width = w;
    pj.path = s->path;
    pj.palette = s->pose_out + (size_t)first * (size_t)s->joints;
    pj.palette_count = n * s->joints;
    note(s, ossa_lane_palette_job_run(&pj));
    t[5] = cli_now_ns();
    for (int k = 0; k < FRAME_STAGES; ++k)
        ns[k] += (double)(t[k + 1] - t[k]);
}

void frame_lanes_fused(void *scene)
{
    frame_scene *s = scene;
    double thread0[FRAME_STAGES] = {0};
    PARALLEL(s)
    {
        int begin, end;
        if (share(s->batches, &begin, &end)) {
            double ns[FRAME_STAGES] = {0};
            for (int b = begin; b < end; ++b)
                fused_batch(s, b, s->fused_scratch[thread_id()], ns);
            if (thread_id() == 0)
                memcpy(thread0, ns, sizeof ns);
        }
    }
    record_ns(&s->fused_timing, thread0);
}

/* ---- checks ---- */

double frame_scene_check(frame_scene *s)
{
    frame_ref_sample(s);
    frame_ref_sample_b(s);
    frame_ref_blend(s);
    frame_ref_local_to_model(s);
    frame_lane_sample(s);
    frame_lane_sample_b(s);
    frame_lane_blend(s);
    frame_lane_local_to_model(s);
    frame_lane_pose_out(s);
    if (s->crowd)
        frame_crowd(s);
    double worst = 0;
    const size_t n = (size_t)s->characters * (size_t)s->joints;
    for (size_t i = 0; i < n; ++i)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                const double a = s->pose_out[i].m[r][c], b = s->ref_model[i].m[r][c];
                const double e = fabs(a - b) / (1.0 + fabs(b));
                if (!(e <= worst))
                    worst = e;
            }
    return worst;
}

uint64_t frame_crowd_checksum(const frame_scene *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over every pose's bytes */
    for (int slot = 0; slot < ossa_crowd_count(s->crowd); ++slot) {
        const ossa_mat34 *pose = ossa_crowd_pose(s->crowd, ossa_crowd_entity_at(s->crowd, slot));
        if (!pose)
            continue;
        const unsigned char *p = (const unsigned char *)pose;
        for (size_t i = 0; i < sizeof(ossa_mat34) * (size_t)s->joints; ++i)
            h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}
