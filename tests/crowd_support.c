/* crowd_support.c - see crowd_support.h. */
#include "crowd_support.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

int ts_crowd_load(ts_crowd *f)
{
    memset(f, 0, sizeof *f);
    ossa_error e;
    if (ossa_default_character_build(&f->dc, NULL, &e) != OSSA_OK)
        return 0;
    for (int k = 0; k < OSSA_DEFAULT_CLIP_COUNT; ++k)
        f->clips[k] = f->dc.clips[k];
    return 1;
}

int ts_crowd_start(ts_crowd *f, const ossa_crowd_desc *d)
{
    const size_t bytes = ossa_crowd_size(d);
    f->memory = ts_aligned(bytes);
    if (!bytes || !f->memory || ossa_crowd_init(&f->crowd, f->memory, bytes, d) != OSSA_OK)
        return 0;
    f->scratch_bytes = ossa_crowd_scratch_size(f->crowd);
    f->scratch = ts_aligned(f->scratch_bytes);
    return f->scratch != NULL;
}

void ts_crowd_skin(const ts_crowd *f, ossa_crowd_desc *d)
{
    d->skin_joints = ossa_mesh_skin_joints(f->dc.mesh);
    d->inverse_binds = ossa_mesh_inverse_binds(f->dc.mesh);
    d->skin_joint_count = ossa_mesh_skin_joint_count(f->dc.mesh);
}

static int make(ts_crowd *f, int capacity, int width, int skinned_capacity, int wear_mesh)
{
    if (!ts_crowd_load(f))
        return 0;
    ossa_crowd_desc d = {0};
    d.skeleton = f->dc.skeleton;
    d.clips = f->clips;
    d.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    d.capacity = capacity;
    d.width = width;
    if (skinned_capacity >= 0 && wear_mesh) {
        d.mesh = f->dc.mesh;
        d.skinned_capacity = skinned_capacity;
    } else if (skinned_capacity >= 0) {
        ts_crowd_skin(f, &d);
        d.skinned_capacity = skinned_capacity;
    }
    return ts_crowd_start(f, &d);
}

int ts_crowd_make(ts_crowd *f, int capacity, int width, int skinned_capacity)
{
    return make(f, capacity, width, skinned_capacity, 0);
}

int ts_crowd_make_wearing_mesh(ts_crowd *f, int capacity, int width, int skinned_capacity)
{
    return make(f, capacity, width, skinned_capacity, 1);
}

void ts_crowd_free(ts_crowd *f)
{
    free(f->memory);
    free(f->scratch);
    ossa_default_character_free(&f->dc, NULL);
}

ossa_character_desc ts_crowd_random_character(ts_rng *r, int skinned)
{
    ossa_character_desc c = {0};
    c.clip_a = ts_int(r, OSSA_DEFAULT_CLIP_COUNT);
    c.clip_b = ts_int(r, OSSA_DEFAULT_CLIP_COUNT);
    /* a third play clip a alone, a sixth clip b alone (one sampling each) */
    const int alone = ts_int(r, 6);
    c.weight_b = alone < 2 ? 0.0f : alone == 2 ? 1.0f : (float)ts_uniform(r, 0.0, 1.0);
    c.time_s = (float)ts_uniform(r, 0.0, 3.0);
    c.speed = (float)ts_uniform(r, 0.5, 1.5);
    c.position = (ossa_float3){(float)ts_uniform(r, -20, 20), (float)ts_uniform(r, -1, 1),
                               (float)ts_uniform(r, -20, 20)};
    c.yaw_rad = (float)ts_uniform(r, -3.1, 3.1);
    const int intervals[3] = {1, 2, 4};
    c.update_interval = intervals[ts_int(r, 3)];
    c.inactive = ts_int(r, 5) == 0;
    c.skinned = skinned && ts_int(r, 4) == 0;
    return c;
}

typedef struct worker {
    ts_crowd *f;
    int begin, end;
    void *scratch;
    ossa_result result;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    w->result = ossa_crowd_update(w->f->crowd, w->begin, w->end, w->scratch, w->f->scratch_bytes);
    return NULL;
}

ossa_result ts_crowd_frame(ts_crowd *f, float dt, int threads)
{
    enum { MAX_THREADS = 8 };
    int batches;
    ossa_result r = ossa_crowd_begin_frame(f->crowd, dt, &batches);
    if (r != OSSA_OK)
        return r;
    if (threads < 0) { /* one batch per call */
        for (int b = 0; b < batches && r == OSSA_OK; ++b)
            r = ossa_crowd_update(f->crowd, b, b + 1, f->scratch, f->scratch_bytes);
    } else if (threads <= 1) {
        r = ossa_crowd_update(f->crowd, 0, batches, f->scratch, f->scratch_bytes);
    } else {
        pthread_t id[MAX_THREADS];
        worker w[MAX_THREADS];
        threads = threads > MAX_THREADS ? MAX_THREADS : threads;
        for (int t = 0; t < threads; ++t) {
            w[t].f = f;
            w[t].begin = batches * t / threads;
            w[t].end = batches * (t + 1) / threads;
            w[t].scratch = ts_aligned(f->scratch_bytes);
            w[t].result = OSSA_ERR_OUT_OF_MEMORY;
            if (w[t].begin == w[t].end) { /* nothing to do (0, 0 would mean all) */
                w[t].result = OSSA_OK;
                id[t] = pthread_self();
                continue;
            }
            if (pthread_create(&id[t], NULL, work, &w[t]) != 0)
                abort();
        }
        for (int t = 0; t < threads; ++t) {
            if (w[t].begin != w[t].end)
                pthread_join(id[t], NULL);
            if (w[t].result != OSSA_OK && r == OSSA_OK)
                r = w[t].result;
            free(w[t].scratch);
        }
    }
    if (r == OSSA_OK)
        r = ossa_crowd_end_frame(f->crowd);
    return r;
}

void ts_crowd_reference_pose(const ts_crowd *f, const ossa_character_state *st, ossa_mat34 *out)
{
    const int joints = OSSA_DEFAULT_JOINT_COUNT;
    ossa_transform a[OSSA_DEFAULT_JOINT_COUNT], b[OSSA_DEFAULT_JOINT_COUNT];
    ossa_transform pose[OSSA_DEFAULT_JOINT_COUNT];
    ossa_sampling_job s = {0};
    const uint16_t ia = (uint16_t)st->clip_a, ib = (uint16_t)st->clip_b;
    s.clips = f->clips;
    s.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    s.clip_index = &ia;
    s.clip_index_count = 1;
    s.time_s = &st->time_a_s;
    s.character_count = 1;
    s.output = a;
    s.output_count = joints;
    ossa_result r = ossa_sampling_job_run(&s);
    s.clip_index = &ib;
    s.time_s = &st->time_b_s;
    s.output = b;
    if (r == OSSA_OK)
        r = ossa_sampling_job_run(&s);
    ossa_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = a;
    layers[0].pose_count = joints;
    layers[0].weight = 1.0f - st->weight_b;
    layers[1].pose = b;
    layers[1].pose_count = joints;
    layers[1].weight = st->weight_b;
    ossa_blending_job bl = {0};
    bl.layers = layers;
    bl.layer_count = 2;
    bl.rest_pose = ossa_skeleton_rest_pose(f->dc.skeleton);
    bl.joint_count = joints;
    bl.character_count = 1;
    bl.output = pose;
    bl.output_count = joints;
    if (r == OSSA_OK)
        r = ossa_blending_job_run(&bl);
    const float co = cosf(st->yaw_rad), si = sinf(st->yaw_rad);
    const ossa_mat34 root = {{{co, 0, si, st->position.x},
                              {0, 1, 0, st->position.y},
                              {-si, 0, co, st->position.z}}};
    ossa_local_to_model_job l = {0};
    l.parents = ossa_skeleton_parents(f->dc.skeleton);
    l.joint_count = joints;
    l.local = pose;
    l.local_count = joints;
    l.character_count = 1;
    l.root = &root;
    l.root_count = 1;
    l.model = out;
    l.model_count = joints;
    if (r == OSSA_OK)
        r = ossa_local_to_model_job_run(&l);
    if (r != OSSA_OK) /* the reference jobs are tested on their own: a failure is a bug here */
        abort();
}

void ts_crowd_reference_palette(const ts_crowd *f, const ossa_mat34 *pose, ossa_mat34 *palette)
{
    ossa_palette_job p = {0};
    p.model = pose;
    p.model_count = OSSA_DEFAULT_JOINT_COUNT;
    p.joint_count = OSSA_DEFAULT_JOINT_COUNT;
    p.skin_joint = ossa_mesh_skin_joints(f->dc.mesh);
    p.inverse_bind = ossa_mesh_inverse_binds(f->dc.mesh);
    p.skin_joint_count = ossa_mesh_skin_joint_count(f->dc.mesh);
    p.character_count = 1;
    p.palette = palette;
    p.palette_count = p.skin_joint_count;
    if (ossa_palette_job_run(&p) != OSSA_OK)
        abort();
}

double ts_crowd_diff(const ossa_mat34 *a, const ossa_mat34 *b, int count)
{
    double worst = 0;
    for (int j = 0; j < count; ++j)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                double e = fabs((double)a[j].m[r][c] - b[j].m[r][c]) / (1.0 + fabs(b[j].m[r][c]));
                if (!(e <= worst))
                    worst = e;
            }
    return worst;
}

int ts_crowd_height_samples(const ossa_clip *clip)
{
    if (ossa_clip_frame_count(clip) < 2)
        return 1;
    const long intervals = lround(120.0 * (double)ossa_clip_duration(clip));
    return 1 + (int)(intervals < 1 ? 1 : intervals);
}

float *ts_crowd_foot_heights(const ts_crowd *f, int clip, int joint)
{
    const ossa_clip *c = f->clips[clip];
    const int frames = ts_crowd_height_samples(c);
    float *out = malloc(sizeof *out * (size_t)frames);
    ossa_transform local[OSSA_DEFAULT_JOINT_COUNT];
    ossa_mat34 model[OSSA_DEFAULT_JOINT_COUNT];
    for (int k = 0; k < frames; ++k) {
        const float t = frames > 1 ? ossa_clip_duration(c) * (float)k / (float)(frames - 1) : 0.0f;
        ossa_sampling_job s = {0};
        s.clips = &c;
        s.clip_count = 1;
        s.time_s = &t;
        s.character_count = 1;
        s.wrap = OSSA_WRAP_CLAMP;
        s.output = local;
        s.output_count = OSSA_DEFAULT_JOINT_COUNT;
        ossa_local_to_model_job l = {0};
        l.parents = ossa_skeleton_parents(f->dc.skeleton);
        l.joint_count = OSSA_DEFAULT_JOINT_COUNT;
        l.local = local;
        l.local_count = OSSA_DEFAULT_JOINT_COUNT;
        l.character_count = 1;
        l.model = model;
        l.model_count = OSSA_DEFAULT_JOINT_COUNT;
        if (ossa_sampling_job_run(&s) != OSSA_OK || ossa_local_to_model_job_run(&l) != OSSA_OK)
            abort();
        out[k] = model[joint].m[1][3];
    }
    return out;
}
