/* frame_paths.c - whole frames of each path of the frame benchmark, timed
 * stage by stage (reference, staged, fused, the library's crowd frame), and
 * the checks: lanes against the reference, hashes for bit identity. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "frame_threads.h"

/* ---- stage times ---- */

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

/* ---- the library's frame ---- */

void frame_crowd(void *scene)
{
    frame_scene *s = scene;
    s->runner.timed = 0;
    note(s, crowd_runner_frame(&s->runner, s->dt));
}

void frame_crowd_plain(void *scene)
{
    frame_scene *s = scene;
    s->runner.timed = 0;
    s->runner.stream_output = false;
    note(s, crowd_runner_frame(&s->runner, s->dt));
    s->runner.stream_output = true;
}

void frame_crowd_other_format(void *scene)
{
    frame_scene *s = scene;
    s->runner.timed = 0;
    s->runner.format = s->skin_format == OSSA_SKIN_FORMAT_PACKED ? OSSA_SKIN_FORMAT_FLOAT4
                                                                 : OSSA_SKIN_FORMAT_PACKED;
    note(s, crowd_runner_frame(&s->runner, s->dt));
    s->runner.format = s->skin_format;
}

void frame_crowd_timed(void *scene)
{
    frame_scene *s = scene;
    s->runner.timed = 1;
    note(s, crowd_runner_frame(&s->runner, s->dt));
    double ns[FRAME_STAGES];
    for (int k = 0; k < FRAME_STAGES; ++k)
        ns[k] = crowd_runner_stage_ns(&s->runner, k);
    record_ns(&s->crowd_timing, ns);
}

/* ---- staged frames, stage by stage ---- */

/* Runs the stages in order, each timed; a NULL stage takes no time. */
static void staged(frame_scene *s, void (*const stages[FRAME_STAGES])(void *), frame_timing *t)
{
    uint64_t stamps[FRAME_STAGES + 1];
    stamps[0] = cli_now_ns();
    for (int k = 0; k < FRAME_STAGES; ++k) {
        if (stages[k] && (k < FRAME_PALETTE || s->skinned))
            stages[k](s);
        stamps[k + 1] = cli_now_ns();
    }
    record(t, stamps, FRAME_STAGES);
}

void frame_reference_staged(void *scene)
{
    void (*const stages[FRAME_STAGES])(void *) = {
        frame_ref_sample, frame_ref_sample_b, frame_ref_blend, frame_ref_local_to_model, NULL,
        frame_ref_palette, frame_ref_skin};
    staged(scene, stages, &((frame_scene *)scene)->reference_timing);
}

void frame_lanes_staged(void *scene)
{
    void (*const stages[FRAME_STAGES])(void *) = {
        frame_lane_sample, frame_lane_sample_b, frame_lane_blend, frame_lane_local_to_model,
        frame_lane_pose_out, frame_lane_palette, frame_lane_skin};
    staged(scene, stages, &((frame_scene *)scene)->lanes_timing);
}

/* One batch through the lane stages, palettes included, in scratch that
 * stays in cache; ns[k] += stage k's time. */
static void fused_batch(frame_scene *s, int batch, float *scratch, double *ns)
{
    const int w = s->width, first = batch * w;
    const int n = s->characters - first < w ? s->characters - first : w;
    const int pose = ossa_lane_pose_floats(s->joints, w, w);
    const int model = ossa_lane_model_floats(s->joints, w, w);
    float *a = scratch, *b = a + pose, *local = b + pose, *m = local + pose;
    uint64_t t[FRAME_STAGES + 1];
    t[0] = cli_now_ns();
    const ossa_lane_sampling_job sa = frame_lane_sampling_job(s, 0, first, n, a, pose);
    note(s, ossa_lane_sampling_job_run(&sa));
    t[1] = cli_now_ns();
    const ossa_lane_sampling_job sb = frame_lane_sampling_job(s, 1, first, n, b, pose);
    note(s, ossa_lane_sampling_job_run(&sb));
    t[2] = cli_now_ns();
    ossa_lane_blend_layer layers[2];
    const ossa_lane_blending_job bj =
        frame_lane_blending_job(s, layers, a, b, first, n, local, pose);
    note(s, ossa_lane_blending_job_run(&bj));
    t[3] = cli_now_ns();
    const ossa_lane_local_to_model_job lj =
        frame_lane_local_to_model_job(s, local, pose, n, m, model);
    note(s, ossa_lane_local_to_model_job_run(&lj));
    t[4] = cli_now_ns();
    const ossa_lane_pose_out_job pj = frame_lane_pose_out_job(s, m, model, first, n);
    note(s, ossa_lane_pose_out_job_run(&pj));
    t[5] = cli_now_ns();
    note(s, frame_lane_palettes(s, m, model, first, n, 0, 1));
    t[6] = cli_now_ns();
    for (int k = 0; k <= FRAME_PALETTE; ++k)
        ns[k] += (double)(t[k + 1] - t[k]);
}

void frame_lanes_fused(void *scene)
{
    frame_scene *s = scene;
    PARALLEL(s)
    {
        double *ns = s->fused_ns[thread_id()];
        memset(ns, 0, sizeof(double) * FRAME_STAGES);
        int begin, end;
        if (share(s->batches, &begin, &end))
            for (int b = begin; b < end; ++b)
                fused_batch(s, b, s->fused_scratch[thread_id()], ns);
#ifdef _OPENMP
#pragma omp barrier
#endif
        if (share(s->skinned, &begin, &end)) {
            const uint64_t t0 = cli_now_ns();
            frame_skin_range(s, begin, end, s->lane_palette, s->lane_streams, OSSA_SIMD_AUTO,
                             s->skin_format);
            ns[FRAME_SKIN] = (double)(cli_now_ns() - t0);
        }
    }
    double sum[FRAME_STAGES] = {0};
    for (int t = 0; t < s->threads; ++t)
        for (int k = 0; k < FRAME_STAGES; ++k)
            sum[k] += s->fused_ns[t][k];
    record_ns(&s->fused_timing, sum);
}

/* ---- checks ---- */

static double worst_matrix_difference(const ossa_mat34 *a, const ossa_mat34 *b, size_t n)
{
    double worst = 0;
    for (size_t i = 0; i < n; ++i)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                const double x = a[i].m[r][c], y = b[i].m[r][c];
                const double e = fabs(x - y) / (1.0 + fabs(y));
                if (!(e <= worst))
                    worst = e;
            }
    return worst;
}

/* A packed direction word's component k, decoded (c / 511, at least -1). */
static double unpack(uint32_t word, int k)
{
    int c = (int)((word >> (10 * k)) & 0x3FFu);
    c = c >= 512 ? c - 1024 : c;
    return fmax(c / 511.0, -1.0);
}

/* Per vertex attribute: |a - b| over 1 + the largest |b| of the vertex; a
 * packed direction against the reference's (clamped to [-1, 1]) beyond the
 * half step the packing rounds by. */
static double worst_vertex_difference(const frame_scene *s)
{
    const int floats = ossa_mesh_skinned_stride(s->mesh) / 4;
    const bool packed = s->skin_format == OSSA_SKIN_FORMAT_PACKED;
    const size_t vertex_bytes = ossa_skin_vertex_bytes(s->mesh, s->skin_format);
    const int directions = ossa_mesh_has_tangents(s->mesh) ? 2 : 1;
    double worst = 0;
    for (int i = 0; i < s->skinned; ++i) {
        const unsigned char *a = s->lane_streams + (size_t)i * s->stream_bytes;
        const float *b = (const float *)(const void *)(s->ref_streams +
                                                       (size_t)i * s->ref_stream_bytes);
        for (int v = 0; v < s->vertices; ++v) {
            const float *want = b + (size_t)v * (size_t)floats;
            float got[12];
            memcpy(got, a + (size_t)v * vertex_bytes, packed ? 12 : (size_t)floats * 4);
            /* float4: every attribute; packed: the position's x, y, z */
            for (int at = 0; at < (packed ? 3 : floats); at += 4) {
                double scale = 1.0, diff = 0.0;
                for (int k = at; k < at + 4 && k < (packed ? 3 : floats); ++k) {
                    scale = fmax(scale, 1.0 + fabs((double)want[k]));
                    diff = fmax(diff, fabs((double)got[k] - want[k]));
                }
                if (!(diff / scale <= worst))
                    worst = diff / scale;
            }
            for (int d = 0; packed && d < directions; ++d) {
                uint32_t word;
                memcpy(&word, a + (size_t)v * vertex_bytes + 12 + 4 * (size_t)d, 4);
                for (int k = 0; k < 3; ++k) {
                    const double r = fmin(fmax((double)want[4 + 4 * d + k], -1.0), 1.0);
                    const double beyond = fabs(unpack(word, k) - r) - 0.5 / 511.0;
                    if (!(beyond <= worst))
                        worst = beyond;
                }
            }
        }
    }
    return worst;
}

void frame_scene_check(frame_scene *s, double *poses, double *palettes, double *vertices)
{
    frame_reference_staged(s);
    frame_lanes_staged(s);
    if (s->crowd)
        frame_crowd(s);
    *poses = worst_matrix_difference(s->pose_out, s->ref_model,
                                     (size_t)s->characters * (size_t)s->joints);
    *palettes = worst_matrix_difference(s->lane_palette, s->ref_palette,
                                        (size_t)s->skinned * (size_t)s->skins);
    *vertices = s->skinned ? worst_vertex_difference(s) : 0.0;
}

static uint64_t fnv(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

uint64_t frame_crowd_checksum(const frame_scene *s)
{
    uint64_t h = 1469598103934665603ull;
    const size_t pose = sizeof(ossa_mat34) * (size_t)s->joints;
    const size_t palette = sizeof(ossa_mat34) * (size_t)s->skins;
    for (int slot = 0; slot < ossa_crowd_count(s->crowd); ++slot) {
        const ossa_entity e = ossa_crowd_entity_at(s->crowd, slot);
        const ossa_mat34 *p = ossa_crowd_pose(s->crowd, e);
        if (p)
            h = fnv(h, p, pose);
        p = ossa_crowd_palette(s->crowd, e);
        if (p)
            h = fnv(h, p, palette);
    }
    for (int i = 0; i < s->runner.skinned; ++i)
        h = fnv(h, crowd_runner_stream(&s->runner, i), s->stream_bytes);
    return h;
}

uint64_t frame_lanes_checksum(const frame_scene *s)
{
    uint64_t h = 1469598103934665603ull;
    h = fnv(h, s->pose_out, sizeof(ossa_mat34) * (size_t)s->characters * (size_t)s->joints);
    h = fnv(h, s->lane_palette, sizeof(ossa_mat34) * (size_t)s->skinned * (size_t)s->skins);
    return fnv(h, s->lane_streams, (size_t)s->skinned * s->stream_bytes);
}
