/* crowd_frame.c - one crowd frame: playheads, the plan of batches this
 * frame updates (update-rate LOD), the fused per-batch update - two samples,
 * blend, local->model, world pose, palettes of the skinned characters - with
 * footfall detection, and dust. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* ---- scratch: one batch's intermediate lane data, kept in cache ---- */

typedef struct scratch {
    float *pose_a, *pose_b, *pose, *model;
    float *weight_a;
    ossa_mat34 *root;
    size_t pose_floats, model_floats;
} scratch;

static size_t align64(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* Lays one batch's scratch out from base (sizes only when base is NULL);
 * returns the bytes it takes. */
static size_t scratch_layout(const ossa_crowd *c, unsigned char *base, scratch *s)
{
    s->pose_floats = ossa_lane_pose_floats(c->joint_count, c->width, c->width);
    s->model_floats = ossa_lane_model_floats(c->joint_count, c->width, c->width);
    const size_t pose = align64(s->pose_floats * sizeof(float));
    const size_t model = align64(s->model_floats * sizeof(float));
    const size_t lanes = align64((size_t)c->width * sizeof(float));
    const size_t roots = align64((size_t)c->width * sizeof(ossa_mat34));
    if (base) {
        s->pose_a = (float *)(void *)base;
        s->pose_b = (float *)(void *)(base + pose);
        s->pose = (float *)(void *)(base + 2 * pose);
        s->model = (float *)(void *)(base + 3 * pose);
        s->weight_a = (float *)(void *)(base + 3 * pose + model);
        s->root = (ossa_mat34 *)(void *)(base + 3 * pose + model + lanes);
    }
    return 3 * pose + model + lanes + roots;
}

size_t ossa_crowd_scratch_size(const ossa_crowd *crowd)
{
    scratch s;
    return crowd ? scratch_layout(crowd, NULL, &s) : 0;
}

/* ---- begin: playheads and the plan ---- */

/* t + step wrapped into [0, duration) (duration +inf: a one-frame clip). */
static inline float advance(float t, float step, float duration)
{
    t += step;
    return t >= duration ? fmodf(t, duration) : t;
}

static void plan(ossa_crowd *c)
{
    enum { CHOSEN = 4 };
    const int f = (int)(c->frame % 4);
    int chosen[CHOSEN] = {BUCKET_SKINNED, ossai_crowd_bucket(1, 0), ossai_crowd_bucket(2, f % 2),
                          ossai_crowd_bucket(4, f)};
    for (int i = 1; i < CHOSEN; ++i) /* in slot order, so touching ranges merge */
        for (int k = i; k > 0 && chosen[k] < chosen[k - 1]; --k) {
            int t = chosen[k];
            chosen[k] = chosen[k - 1];
            chosen[k - 1] = t;
        }
    c->batch_count = 0;
    c->stats.updated = 0;
    for (int i = 0; i < CHOSEN;) {
        const int b = chosen[i];
        const int first = b == 0 ? 0 : c->bucket_end[b - 1];
        int last = c->bucket_end[b];
        for (++i; i < CHOSEN && chosen[i] == chosen[i - 1] + 1; ++i)
            last = c->bucket_end[chosen[i]];
        c->stats.updated += last - first;
        for (int s = first; s < last; s += c->width) {
            c->batch_first[c->batch_count] = s;
            c->batch_size[c->batch_count] = last - s < c->width ? last - s : c->width;
            c->batch_events[c->batch_count] = 0;
            c->batch_count++;
        }
    }
}

ossa_result ossa_crowd_begin_frame(ossa_crowd *c, float dt_s, int *batch_count)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    if (!(dt_s >= 0.0f) || !isfinite(dt_s))
        return OSSA_ERR_BAD_VALUE;
    const int active = ossa_crowd_active_count(c);
    for (int s = 0; s < active; ++s) {
        const float step = dt_s * c->speed[s];
        c->time_a[s] = advance(c->time_a[s], step, c->clip_duration[c->clip_a[s]]);
        c->time_b[s] = advance(c->time_b[s], step, c->clip_duration[c->clip_b[s]]);
    }
    plan(c);
    c->footfall_count = 0;
    ossa_crowd_stats *st = &c->stats;
    st->frame = ++c->frame;
    st->characters = c->count;
    st->active = active;
    st->skinned = c->bucket_end[BUCKET_SKINNED];
    for (int k = 0; k < 3; ++k) {
        st->interval_count[k] = k == 0 ? st->skinned : 0;
        for (int p = 0; p < (1 << k); ++p) {
            const int b = ossai_crowd_bucket(1 << k, p);
            st->interval_count[k] += c->bucket_end[b] - (b == 0 ? 0 : c->bucket_end[b - 1]);
        }
    }
    st->updates_per_frame = (float)st->interval_count[0] + (float)st->interval_count[1] / 2.0f +
                            (float)st->interval_count[2] / 4.0f;
    st->batches = c->batch_count;
    st->lanes = c->batch_count * c->width;
    if (batch_count)
        *batch_count = c->batch_count;
    return OSSA_OK;
}

/* ---- update: one batch, fused through the lane jobs ---- */

static void roots(const ossa_crowd *c, int first, int n, ossa_mat34 *root)
{
    for (int l = 0; l < n; ++l) { /* rotation about +y by yaw, then the position */
        const int s = first + l;
        const float co = c->cos_yaw[s], si = c->sin_yaw[s];
        const ossa_mat34 m = {{{co, 0.0f, si, c->pos_x[s]},
                               {0.0f, 1.0f, 0.0f, c->pos_y[s]},
                               {-si, 0.0f, co, c->pos_z[s]}}};
        root[l] = m;
    }
}

/* A foot going below its contact height since its last update is a
 * footfall; appended without a branch. */
static void footfalls(ossa_crowd *c, int batch, int first, int n, const float *model)
{
    const int w = c->width;
    ossa_footfall *out = c->batch_footfall + (size_t)batch * (size_t)w * OSSA_CROWD_MAX_FEET;
    int found = 0;
    for (int f = 0; f < c->foot_count; ++f) {
        const float *m = model + (size_t)c->foot_joint[f] * OSSA_LANE_MODEL_COMPONENTS * (size_t)w;
        const float contact = c->foot_contact[f];
        for (int l = 0; l < n; ++l) {
            const int s = first + l;
            const float height = m[7 * w + l] - c->pos_y[s];
            float *prev = &c->foot_prev[(size_t)s * OSSA_CROWD_MAX_FEET + (size_t)f];
            const int hit = height < contact && *prev >= contact;
            const uint32_t index = c->entity[s];
            out[found].entity = (ossa_entity){index, c->generation[index]};
            out[found].foot = f;
            out[found].position = (ossa_float3){m[3 * w + l], m[7 * w + l], m[11 * w + l]};
            found += hit;
            c->footfalls[s] += (uint32_t)hit;
            *prev = height;
        }
    }
    c->batch_events[batch] = found;
}

static inline void stage(const ossa_crowd *c, ossa_crowd_stage k)
{
    if (c->stage_hook)
        c->stage_hook(c->stage_hook_user, k);
}

/* The palettes of the batch's skinned characters: a prefix of the batch,
 * since they are the first slots. */
static ossa_result palettes(ossa_crowd *c, int first, int n, const scratch *s)
{
    const int skinned = c->bucket_end[BUCKET_SKINNED] - first;
    if (skinned <= 0)
        return OSSA_OK;
    stage(c, OSSA_CROWD_STAGE_PALETTE);
    const int count = skinned < n ? skinned : n;
    ossa_lane_palette_job job = {0};
    job.model = s->model;
    job.model_count = s->model_floats;
    job.joint_count = c->joint_count;
    job.character_count = count;
    job.skin_joint = c->skin_joint;
    job.inverse_bind = c->inverse_bind;
    job.skin_joint_count = c->skin_joint_count;
    job.width = c->width;
    job.path = c->path;
    job.palette = c->palette + (size_t)first * (size_t)c->skin_joint_count;
    job.palette_count = count * c->skin_joint_count;
    ossa_result r = ossa_lane_palette_job_run(&job);
    for (int l = 0; l < count; ++l)
        c->palette_ready[first + l] = r == OSSA_OK;
    return r;
}

static ossa_result update_batch(ossa_crowd *c, int batch, const scratch *s)
{
    const int first = c->batch_first[batch], n = c->batch_size[batch];
    const int joints = c->joint_count, w = c->width;
    ossa_result r;
    stage(c, OSSA_CROWD_STAGE_SAMPLE_A);
    ossa_lane_sampling_job sample = {0};
    sample.clips = c->clips;
    sample.clip_count = c->clip_count;
    sample.clip_index = c->clip_a + first;
    sample.clip_index_count = n;
    sample.time_s = c->time_a + first;
    sample.time_count = n;
    sample.width = w;
    sample.path = c->path;
    sample.output = s->pose_a;
    sample.output_count = s->pose_floats;
    if ((r = ossa_lane_sampling_job_run(&sample)))
        return r;
    stage(c, OSSA_CROWD_STAGE_SAMPLE_B);
    sample.clip_index = c->clip_b + first;
    sample.time_s = c->time_b + first;
    sample.output = s->pose_b;
    if ((r = ossa_lane_sampling_job_run(&sample)))
        return r;

    stage(c, OSSA_CROWD_STAGE_BLEND);
    for (int l = 0; l < n; ++l)
        s->weight_a[l] = 1.0f - c->weight_b[first + l];
    ossa_lane_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = s->pose_a;
    layers[0].pose_count = s->pose_floats;
    layers[0].weights = s->weight_a;
    layers[0].weight_count = n;
    layers[1].pose = s->pose_b;
    layers[1].pose_count = s->pose_floats;
    layers[1].weights = c->weight_b + first;
    layers[1].weight_count = n;
    ossa_lane_blending_job blend = {0};
    blend.layers = layers;
    blend.layer_count = 2;
    blend.rest_pose = c->rest;
    blend.joint_count = joints;
    blend.character_count = n;
    blend.width = w;
    blend.path = c->path;
    blend.output = s->pose;
    blend.output_count = s->pose_floats;
    if ((r = ossa_lane_blending_job_run(&blend)))
        return r;

    stage(c, OSSA_CROWD_STAGE_LOCAL_TO_MODEL);
    roots(c, first, n, s->root);
    ossa_lane_local_to_model_job l2m = {0};
    l2m.parents = c->parents;
    l2m.joint_count = joints;
    l2m.local = s->pose;
    l2m.local_count = s->pose_floats;
    l2m.character_count = n;
    l2m.root = s->root;
    l2m.root_count = n;
    l2m.width = w;
    l2m.path = c->path;
    l2m.model = s->model;
    l2m.model_count = s->model_floats;
    if ((r = ossa_lane_local_to_model_job_run(&l2m)))
        return r;

    stage(c, OSSA_CROWD_STAGE_POSE_OUT);
    ossa_mat34 *poses[OSSA_LANE_MAX_WIDTH];
    for (int l = 0; l < n; ++l)
        poses[l] = c->model + (size_t)c->entity[first + l] * (size_t)c->pose_stride;
    ossa_lane_palette_job out = {0};
    out.model = s->model;
    out.model_count = s->model_floats;
    out.joint_count = joints;
    out.character_count = n;
    out.width = w;
    out.path = c->path;
    out.outputs = poses;
    out.stream_output = true; /* the game reads poses later, if at all */
    if ((r = ossa_lane_palette_job_run(&out)))
        return r;

    footfalls(c, batch, first, n, s->model);
    for (int l = 0; l < n; ++l)
        c->updates[first + l]++;
    r = palettes(c, first, n, s);
    stage(c, OSSA_CROWD_STAGE_DONE);
    return r;
}

ossa_result ossa_crowd_update(ossa_crowd *c, int batch_begin, int batch_end, void *memory,
                              size_t bytes)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    if (batch_begin == 0 && batch_end == 0)
        batch_end = c->batch_count;
    if (batch_begin < 0 || batch_end > c->batch_count || batch_begin > batch_end)
        return OSSA_ERR_BAD_RANGE;
    if (!memory)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((uintptr_t)memory % 64 != 0)
        return OSSA_ERR_MISALIGNED;
    scratch s;
    if (bytes < scratch_layout(c, (unsigned char *)memory, &s))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    for (int b = batch_begin; b < batch_end; ++b) {
        ossa_result r = update_batch(c, b, &s);
        if (r != OSSA_OK)
            return r;
    }
    return OSSA_OK;
}

ossa_result ossa_crowd_end_frame(ossa_crowd *c)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    const size_t per_batch = (size_t)c->width * OSSA_CROWD_MAX_FEET;
    int n = 0;
    for (int b = 0; b < c->batch_count; ++b) {
        memcpy(c->footfall + n, c->batch_footfall + (size_t)b * per_batch,
               sizeof(ossa_footfall) * (size_t)c->batch_events[b]);
        n += c->batch_events[b];
    }
    c->footfall_count = n;
    return OSSA_OK;
}

const ossa_footfall *ossa_crowd_footfalls(const ossa_crowd *crowd, int *count)
{
    if (count)
        *count = crowd ? crowd->footfall_count : 0;
    return crowd ? crowd->footfall : NULL;
}

ossa_crowd_stats ossa_crowd_get_stats(const ossa_crowd *crowd)
{
    return crowd->stats;
}

/* ---- dust ---- */

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static float unit(uint32_t h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

int ossa_crowd_emit_dust(const ossa_crowd *crowd, ossa_particles *particles, int puffs,
                         float speed)
{
    if (!crowd || !particles || puffs < 1 || !isfinite(speed))
        return 0;
    int spawned = 0;
    for (int i = 0; i < crowd->footfall_count; ++i) {
        const ossa_footfall *f = &crowd->footfall[i];
        for (int k = 0; k < puffs; ++k) {
            const uint32_t h = hash(f->entity.index * 0x9e3779b9u ^ hash((uint32_t)crowd->frame) ^
                                    (uint32_t)(f->foot * 64 + k));
            const float angle = 6.2831853f * unit(h), out = 0.5f + 0.5f * unit(hash(h));
            const ossa_float3 v = {speed * out * cosf(angle), speed * 0.5f * unit(hash(h + 1)),
                                   speed * out * sinf(angle)};
            if (ossa_particles_spawn(particles, f->position, v) != OSSA_OK)
                return spawned;
            ++spawned;
        }
    }
    return spawned;
}
