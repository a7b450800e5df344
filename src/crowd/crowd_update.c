/* crowd_update.c - one crowd batch through the frame's stages, fused so its
 * intermediate lane data stays in cache: one or two samples (a second
 * where some character blends two clips), blend, local->model
 * with each character's placement as root, world poses, then for the
 * skinned characters palettes and skinned vertices. The locomotion jobs
 * (root motion, events) run once per chunk of contiguous batches, in its
 * first batch's local->model stage. */
#include "crowd_internal.h"

#include <string.h>

/* ---- scratch: one batch's intermediate lane data, kept in cache ---- */

typedef struct scratch {
    float *pose_a, *pose_b, *pose, *model;
    ossa_mat34 *root;
    int pose_floats, model_floats;
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
    const size_t pose = align64((size_t)s->pose_floats * sizeof(float));
    const size_t model = align64((size_t)s->model_floats * sizeof(float));
    const size_t roots = align64((size_t)c->width * sizeof(ossa_mat34));
    if (base) {
        s->pose_a = (float *)(void *)base;
        s->pose_b = (float *)(void *)(base + pose);
        s->pose = (float *)(void *)(base + 2 * pose);
        s->model = (float *)(void *)(base + 3 * pose);
        s->root = (ossa_mat34 *)(void *)(base + 3 * pose + model);
    }
    return 3 * pose + model + roots;
}

int ossa_crowd_task_batches(const ossa_crowd *crowd)
{
    return crowd ? CROWD_CHUNK / crowd->width : 0;
}

size_t ossa_crowd_scratch_size(const ossa_crowd *crowd)
{
    scratch s;
    return crowd ? scratch_layout(crowd, NULL, &s) : 0;
}

/* ---- one batch ---- */

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

/* The palettes of the batch's skinned characters: a prefix of the batch,
 * since they are the first slots. */
static ossa_result palettes(ossa_crowd *c, int first, int n, const scratch *s)
{
    const int skinned = c->bucket_end[BUCKET_SKINNED] - first;
    if (skinned <= 0)
        return OSSA_OK;
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_PALETTE);
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

/* The end of the chunk that starts at batch b: the batches after it whose
 * slots follow on, up to CROWD_CHUNK characters. */
static int chunk_end(const ossa_crowd *c, int b, int end)
{
    int e = b + 1, n = c->batch_size[b];
    while (e < end && c->batch_first[e] == c->batch_first[e - 1] + c->batch_size[e - 1] &&
           n + c->batch_size[e] <= CROWD_CHUNK)
        n += c->batch_size[e++];
    return e;
}

/* What a batch samples. A character that plays one clip alone (weight_b
 * 0: clip a; 1: clip b) needs that clip only, so the first layer is, per
 * lane, the clip the character weighs (a, or b where weight_b is 1), and
 * clip b is sampled as a second layer only when some lane blends (0 <
 * weight_b < 1). The blend gives the same bits as blending a at 1 -
 * weight_b with b at weight_b: a layer at weight 0 adds (+/-)0 to sums that
 * are never -0 (blend_kernels.c). */
typedef struct batch_plan {
    uint16_t clip[OSSA_LANE_MAX_WIDTH];
    float time[OSSA_LANE_MAX_WIDTH];
    _Alignas(64) float weight[OSSA_LANE_MAX_WIDTH]; /* the first layer's */
    _Alignas(64) float weight_b[OSSA_LANE_MAX_WIDTH]; /* the second's: 0 where b plays alone */
    bool blends;
} batch_plan;

static void plan_batch(const ossa_crowd *c, int batch, batch_plan *p)
{
    const int first = c->batch_first[batch], n = c->batch_size[batch];
    p->blends = false;
    for (int l = 0; l < n; ++l) {
        const int s = first + l;
        const float w = c->weight_b[s];
        const bool b_alone = w >= 1.0f;
        p->clip[l] = b_alone ? c->clip_b[s] : c->clip_a[s];
        p->time[l] = b_alone ? c->time_b[s] : c->time_a[s];
        p->weight[l] = b_alone ? 1.0f : 1.0f - w;
        p->weight_b[l] = b_alone ? 0.0f : w;
        p->blends |= w > 0.0f && !b_alone;
    }
}

/* The sampling job of a batch's first layer (second: clip b) into output. */
static ossa_lane_sampling_job sample_job(const ossa_crowd *c, int batch, int second,
                                         const batch_plan *p, const scratch *s)
{
    const int first = c->batch_first[batch];
    ossa_lane_sampling_job sample = {0};
    sample.clips = c->clips;
    sample.clip_count = c->clip_count;
    sample.clip_index = second ? c->clip_b + first : p->clip;
    sample.clip_index_count = c->batch_size[batch];
    sample.time_s = second ? c->time_b + first : p->time;
    sample.character_count = c->batch_size[batch];
    sample.rest_pose = c->rest;
    sample.rest_pose_count = c->joint_count;
    sample.width = c->width;
    sample.path = c->path;
    sample.output = second ? s->pose_b : s->pose_a;
    sample.output_count = s->pose_floats;
    return sample;
}

static ossa_result update_batch(ossa_crowd *c, int batch, const scratch *s, crowd_chunk *k)
{
    const int first = c->batch_first[batch], n = c->batch_size[batch];
    const int joints = c->joint_count, w = c->width;
    ossa_result r;
    batch_plan plan;
    plan_batch(c, batch, &plan);
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_SAMPLE_A);
    ossa_lane_sampling_job sample = sample_job(c, batch, 0, &plan, s);
    if ((r = ossa_lane_sampling_job_run(&sample)))
        return r;
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_SAMPLE_B);
    sample = sample_job(c, batch, 1, &plan, s);
    if (plan.blends && (r = ossa_lane_sampling_job_run(&sample)))
        return r;

    ossai_crowd_stage(c, OSSA_CROWD_STAGE_BLEND);
    ossa_lane_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = s->pose_a;
    layers[0].pose_count = s->pose_floats;
    layers[0].weights = plan.weight;
    layers[0].weight_count = n;
    layers[1].pose = s->pose_b;
    layers[1].pose_count = s->pose_floats;
    layers[1].weights = plan.weight_b;
    layers[1].weight_count = n;
    ossa_lane_blending_job blend = {0};
    blend.layers = layers;
    blend.layer_count = plan.blends ? 2 : 1;
    blend.rest_pose = c->rest;
    blend.joint_count = joints;
    blend.character_count = n;
    blend.width = w;
    blend.path = c->path;
    blend.output = s->pose;
    blend.output_count = s->pose_floats;
    if ((r = ossa_lane_blending_job_run(&blend)))
        return r;

    ossai_crowd_stage(c, OSSA_CROWD_STAGE_LOCAL_TO_MODEL);
    if (first == k->first) { /* the chunk's first batch: its locomotion jobs */
        ossai_crowd_motion(c, k->first, k->n);
        ossai_crowd_watch(c, batch, k);
    }
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
    if ((r = ossa_lane_local_to_model_job_run(&l2m)) ||
        (r = ossai_crowd_ik(c, first, n, s->pose, s->pose_floats, s->model, s->model_floats,
                            s->root)))
        return r;

    ossai_crowd_stage(c, OSSA_CROWD_STAGE_POSE_OUT);
    ossa_mat34 *poses[OSSA_LANE_MAX_WIDTH];
    for (int l = 0; l < n; ++l)
        poses[l] = c->model + (size_t)c->entity[first + l] * (size_t)c->pose_stride;
    ossa_lane_pose_out_job out = {0};
    out.model = s->model;
    out.model_count = s->model_floats;
    out.joint_count = joints;
    out.character_count = n;
    out.width = w;
    out.path = c->path;
    out.outputs = poses;
    out.stream_output = true; /* the game reads poses later, if at all */
    if ((r = ossa_lane_pose_out_job_run(&out)))
        return r;

    ossai_crowd_footfalls(c, batch, first, n, k, s->model);
    for (int l = 0; l < n; ++l)
        c->updates[first + l]++;
    if ((r = palettes(c, first, n, s)) == OSSA_OK)
        r = ossai_crowd_skin_batch(c, first, n);
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_DONE);
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
    ossa_result fits = ossai_crowd_skin_output_fits(c);
    if (fits != OSSA_OK)
        return fits;
    crowd_chunk k;
    for (int b = batch_begin; b < batch_end; ++b) {
        if (b == batch_begin || b == k.batch_end) {
            k.batch_end = chunk_end(c, b, batch_end);
            k.first = c->batch_first[b];
            k.n = c->batch_first[k.batch_end - 1] + c->batch_size[k.batch_end - 1] - k.first;
        }
        /* the next batch's compressed clips come in while this one runs */
        if (c->prefetch_clips && b + 1 < batch_end) {
            batch_plan next_plan;
            plan_batch(c, b + 1, &next_plan);
            for (int second = 0; second <= (int)next_plan.blends; ++second) {
                const ossa_lane_sampling_job next = sample_job(c, b + 1, second, &next_plan, &s);
                (void)ossa_lane_sampling_job_prefetch(&next); /* its run reports any fault */
            }
        }
        ossa_result r = update_batch(c, b, &s, &k);
        if (r != OSSA_OK)
            return r;
    }
    return OSSA_OK;
}

ossa_crowd_stats ossa_crowd_get_stats(const ossa_crowd *crowd)
{
    return crowd->stats;
}
