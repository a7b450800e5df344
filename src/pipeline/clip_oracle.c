/* clip_oracle.c - the clip metric over windows of decoded frames, for the
 * packer: the source's model-space pose at each of the window's metric
 * times once, the runtime's (decoded, interpolated as packed_math.h does)
 * kept per joint and recomputed below a joint whose track changed. */
#include "clip_oracle.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blob/format.h"
#include "sample/packed_math.h"

/* Inside every frame interval, as clip_metric.c measures. */
static const double inside[3] = {0.21132486540518713, 0.5, 0.78867513459481287};

struct ossai_joint_oracle {
    ossai_oracle_setup setup;
    const ossa_allocator *allocator;
    const uint16_t *parents;
    const ossa_transform *rest;
    int joints;
    double *keys;   /* source key times inside the clip, sorted, once each */
    int key_count;
    int *descendants; /* per joint: itself and its descendants, in order */
    int *descendants_at; /* [joint_count + 1] */
    /* the window */
    int first, last;
    const float *dec;
    int points, capacity;
    float *time, *alpha;
    int *f0;
    /* [j * capacity + point]: a joint's points side by side, as remodel
     * walks them (with its parent's) for every track tried */
    ossai_dxf *source, *local, *model;
    /* a track's joint's local row and its groups' model rows and errors, as
     * track_save found them */
    ossai_dxf *local0, *model0;
    ossai_dxf *pose; /* [joints]: one point's pose, while a window is set up */
    double *joint_error;               /* per joint, relative to the tolerance */
    double *joint_error0;
    double *reach;                     /* [j * joints + g]: rest distance from j to g's points */
    int *path;
};

void ossai_oracle_locate(int frame_count, float rate, float t, int *f0, float *alpha)
{
    /* ossai_clip_locate, step for step */
    if (frame_count < 2) {
        *f0 = 0;
        *alpha = 0.0f;
        return;
    }
    float u = t * rate;
    const float last = (float)(frame_count - 1);
    if (!(u > 0.0f))
        u = 0.0f;
    const float whole = floorf(u + 0.5f);
    if (fabsf(u - whole) <= whole * (4.0f * 1.1920929e-7f))
        u = whole;
    if (u >= last) {
        *f0 = frame_count - 2;
        *alpha = 1.0f;
        return;
    }
    const int f = (int)u;
    *f0 = f;
    *alpha = u - (float)f;
}

static int compare_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

ossai_joint_oracle *ossai_joint_oracle_make(const ossai_oracle_setup *setup,
                                            const ossa_allocator *allocator)
{
    ossai_joint_oracle *o = ossa_alloc(allocator, sizeof *o, 16);
    if (!o)
        return NULL;
    memset(o, 0, sizeof *o);
    o->setup = *setup;
    o->allocator = allocator;
    o->joints = ossa_skeleton_joint_count(setup->skeleton);
    o->parents = ossa_skeleton_parents(setup->skeleton);
    o->rest = ossa_skeleton_rest_pose(setup->skeleton);
    const int n = o->joints;
    size_t keys = 0;
    for (int j = 0; j < n; ++j)
        if (setup->tracks[j])
            keys += (size_t)setup->tracks[j]->translation.key_count +
                    (size_t)setup->tracks[j]->rotation.key_count +
                    (size_t)setup->tracks[j]->scale.key_count;
    o->keys = ossa_alloc(allocator, sizeof(double) * (keys + 1), 16);
    o->descendants_at = ossa_alloc(allocator, sizeof(int) * ((size_t)n + 1), 16);
    o->path = ossa_alloc(allocator, sizeof(int) * (size_t)n, 16);
    o->joint_error = ossa_alloc(allocator, sizeof(double) * 2 * (size_t)n, 16);
    size_t total = 0;
    for (int j = 0; j < n; ++j) /* every joint is counted once per ancestor and itself */
        for (int a = j; a != (int)OSSA_NO_PARENT; a = o->parents[a])
            ++total;
    o->descendants = ossa_alloc(allocator, sizeof(int) * (total + 1), 16);
    o->reach = ossa_alloc(allocator, sizeof(double) * (size_t)n * (size_t)n, 16);
    o->pose = ossa_alloc(allocator, sizeof(ossai_dxf) * (size_t)n, 16);
    ossai_dxf *rest_model = ossa_alloc(allocator, sizeof(ossai_dxf) * (size_t)n, 16);
    if (!o->keys || !o->descendants_at || !o->path || !o->joint_error || !o->descendants ||
        !o->reach || !o->pose || !rest_model) {
        ossa_free(allocator, rest_model);
        ossai_joint_oracle_free(o);
        return NULL;
    }
    o->joint_error0 = o->joint_error + n;
    for (int j = 0; j < n; ++j) {
        const ossa_raw_joint_track *tk = setup->tracks[j];
        if (!tk)
            continue;
        const float *times[3] = {tk->translation.times_s, tk->rotation.times_s,
                                 tk->scale.times_s};
        const int counts[3] = {tk->translation.key_count, tk->rotation.key_count,
                               tk->scale.key_count};
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < counts[c]; ++k)
                if (times[c][k] >= 0.0f && times[c][k] <= setup->duration)
                    o->keys[o->key_count++] = times[c][k];
    }
    qsort(o->keys, (size_t)o->key_count, sizeof(double), compare_double);
    int unique = 0;
    for (int i = 0; i < o->key_count; ++i)
        if (unique == 0 || o->keys[i] != o->keys[unique - 1])
            o->keys[unique++] = o->keys[i];
    o->key_count = unique;
    /* descendants of j: joints whose ancestor chain meets j (parents come
     * first, so in increasing order they are valid to recompute) */
    size_t at = 0;
    for (int j = 0; j < n; ++j) {
        o->descendants_at[j] = (int)at;
        for (int k = j; k < n; ++k) {
            int a = k;
            while (a != (int)OSSA_NO_PARENT && a > j)
                a = o->parents[a];
            if (a == j)
                o->descendants[at++] = k;
        }
    }
    o->descendants_at[n] = (int)at;
    for (int j = 0; j < n; ++j)
        rest_model[j] = ossai_dxf_from_transform(&o->rest[j]);
    ossai_dxf_to_model(o->parents, n, rest_model, rest_model);
    for (int j = 0; j < n; ++j)
        for (int g = 0; g < n; ++g) {
            const double dx = rest_model[g].m[0][3] - rest_model[j].m[0][3];
            const double dy = rest_model[g].m[1][3] - rest_model[j].m[1][3];
            const double dz = rest_model[g].m[2][3] - rest_model[j].m[2][3];
            o->reach[(size_t)j * (size_t)n + (size_t)g] =
                sqrt(dx * dx + dy * dy + dz * dz) + o->setup.distance[g];
        }
    ossa_free(allocator, rest_model);
    return o;
}

static void free_window(ossai_joint_oracle *o)
{
    const ossa_allocator *a = o->allocator;
    ossa_free(a, o->time);
    ossa_free(a, o->alpha);
    ossa_free(a, o->f0);
    ossa_free(a, o->source);
    o->time = o->alpha = NULL;
    o->f0 = NULL;
    o->source = o->local = o->model = o->local0 = o->model0 = NULL;
    o->capacity = 0;
}

void ossai_joint_oracle_free(ossai_joint_oracle *o)
{
    if (!o)
        return;
    const ossa_allocator *a = o->allocator;
    free_window(o);
    ossa_free(a, o->keys);
    ossa_free(a, o->descendants);
    ossa_free(a, o->descendants_at);
    ossa_free(a, o->path);
    ossa_free(a, o->joint_error);
    ossa_free(a, o->reach);
    ossa_free(a, o->pose);
    ossa_free(a, o);
}

static double frame_time(const ossai_joint_oracle *o, double f)
{
    const int frames = o->setup.frame_count;
    if (frames < 2)
        return 0.0;
    if (f >= frames - 1)
        return o->setup.duration;
    return f * (o->setup.duration / (frames - 1));
}

/* A decoded component value at a window frame. */
static float value(const ossai_joint_oracle *o, int f, int k)
{
    return o->dec[(size_t)(f - o->first) * (size_t)o->setup.layout->component_count + (size_t)k];
}

/* Joint j's local transform at point p, as the runtime samples it. */
static ossa_transform sample(const ossai_joint_oracle *o, int p, int j)
{
    const ossai_joint_layout *l = o->setup.layout;
    const ossa_transform *rest = &o->rest[j];
    const int fa = o->f0[p];
    const int fb = fa + 1 <= o->last ? fa + 1 : fa;
    ossa_transform x;
    float *out[3] = {&x.translation.x, &x.rotation.x, &x.scale.x};
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        const int slot = j * 3 + kind;
        const float alpha = l->step[slot] ? (o->alpha[p] >= 1.0f ? 1.0f : 0.0f) : o->alpha[p];
        switch (l->state[slot]) {
        case OSSAI_TRACK_REST:
            if (kind == OSSAI_KIND_T)
                x.translation = rest->translation;
            else if (kind == OSSAI_KIND_R)
                x.rotation = rest->rotation;
            else
                x.scale = rest->scale;
            break;
        case OSSAI_TRACK_CONST: {
            const float *c = &l->constant[slot * 4];
            out[kind][0] = c[0], out[kind][1] = c[1], out[kind][2] = c[2];
            if (kind == OSSAI_KIND_R)
                x.rotation.w = c[3];
            break;
        }
        default: {
            const int *k = &l->component[slot * 4];
            if (kind == OSSAI_KIND_R) {
                ossa_quat a = {value(o, fa, k[0]), value(o, fa, k[1]), value(o, fa, k[2]), 0.0f};
                ossa_quat b = {value(o, fb, k[0]), value(o, fb, k[1]), value(o, fb, k[2]), 0.0f};
                a.w = l->full[slot] ? value(o, fa, k[3]) : ossai_pack_rotation_w(a.x, a.y, a.z);
                b.w = l->full[slot] ? value(o, fb, k[3]) : ossai_pack_rotation_w(b.x, b.y, b.z);
                x.rotation = ossai_pack_rotation(rest->rotation, a, b, alpha);
            } else {
                for (int c = 0; c < 3; ++c)
                    out[kind][c] = ossai_pack_lerp(value(o, fa, k[c]), value(o, fb, k[c]), alpha);
            }
        }
        }
    }
    return x;
}

/* Joint j's local transform at every point, again from the window. (With
 * no points - a window that could not be allocated - the rows are NULL,
 * and this and the functions below touch none of them.) */
static void resample(ossai_joint_oracle *o, int j)
{
    for (int p = 0; p < o->points; ++p) {
        const ossa_transform x = sample(o, p, j);
        o->local[(size_t)j * (size_t)o->capacity + (size_t)p] = ossai_dxf_from_transform(&x);
    }
}

/* Model transforms and error of joint k at every point - but stopping at
 * the first point whose error is above `bound` (returns 1; the joint's row
 * is then left part done, and its error unset). The running maximum only
 * grows, and sqrt and the division keep its order, so this is 1 exactly
 * when the whole row's error would be above bound. */
static int remodel_above(ossai_joint_oracle *o, int k, double bound)
{
    if (o->points == 0)
        return (o->joint_error[k] = 0.0) > bound;
    const size_t cap = (size_t)o->capacity;
    const uint16_t parent = o->parents[k];
    double e2 = 0.0;
    const double d = o->setup.distance[k];
    ossai_dxf *model = o->model + (size_t)k * cap;
    const ossai_dxf *local = o->local + (size_t)k * cap, *source = o->source + (size_t)k * cap;
    const ossai_dxf *above = parent == OSSA_NO_PARENT ? NULL : o->model + (size_t)parent * cap;
    for (int p = 0; p < o->points; ++p) {
        model[p] = above ? ossai_dxf_mul(&above[p], &local[p]) : local[p];
        const double x = ossai_point_error2(&source[p], &model[p], d);
        if (x > e2) {
            e2 = x;
            if (sqrt(e2) / o->setup.tolerance > bound)
                return 1;
        }
    }
    o->joint_error[k] = sqrt(e2) / o->setup.tolerance;
    return 0;
}

/* Model transforms and error of joint k at every point (no bound: nothing
 * is above infinity, not even an infinite or NaN error). */
static double remodel(ossai_joint_oracle *o, int k)
{
    (void)remodel_above(o, k, INFINITY);
    return o->joint_error[k];
}

static void window(void *user, int first, int last, const float *dec)
{
    ossai_joint_oracle *o = user;
    const int n = o->joints;
    o->first = first;
    o->last = last;
    o->dec = dec;
    /* the times: frames, three inside each interval, source keys */
    const double t0 = frame_time(o, first), t1 = frame_time(o, last);
    int lo = 0;
    while (lo < o->key_count && o->keys[lo] < t0)
        ++lo;
    int hi = lo;
    while (hi < o->key_count && o->keys[hi] <= t1)
        ++hi;
    const int wanted = (last - first + 1) * 4 + (hi - lo);
    if (wanted > o->capacity) {
        free_window(o);
        const ossa_allocator *a = o->allocator;
        o->time = ossa_alloc(a, sizeof(float) * (size_t)wanted, 16);
        o->alpha = ossa_alloc(a, sizeof(float) * (size_t)wanted, 16);
        o->f0 = ossa_alloc(a, sizeof(int) * (size_t)wanted, 16);
        o->source = ossa_alloc(a, sizeof(ossai_dxf) * 5 * (size_t)wanted * (size_t)n, 16);
        if (!o->time || !o->alpha || !o->f0 || !o->source) {
            free_window(o); /* measured nothing: the packer sees no error */
            o->points = 0;
            return;
        }
        o->local = o->source + (size_t)wanted * (size_t)n;
        o->model = o->local + (size_t)wanted * (size_t)n;
        o->local0 = o->model + (size_t)wanted * (size_t)n;
        o->model0 = o->local0 + (size_t)wanted * (size_t)n;
        o->capacity = wanted;
    }
    int points = 0;
    for (int f = first; f <= last; ++f) {
        o->time[points++] = (float)frame_time(o, f);
        for (int i = 0; i < 3 && f < last; ++i)
            o->time[points++] = (float)frame_time(o, f + inside[i]);
    }
    /* keys on a time already there (the grid is sorted) add nothing */
    const int grid = points;
    for (int i = lo, g = 0; i < hi; ++i) {
        const float t = (float)o->keys[i];
        while (g < grid && o->time[g] < t)
            ++g;
        if (g == grid || o->time[g] != t)
            o->time[points++] = t;
    }
    /* keep the points whose frames the window holds */
    int kept = 0;
    for (int p = 0; p < points; ++p) {
        int f0;
        float alpha;
        ossai_oracle_locate(o->setup.frame_count, o->setup.rate, o->time[p], &f0, &alpha);
        const int inside_window =
            f0 >= first && (f0 + 1 <= last || (alpha == 0.0f && f0 <= last) ||
                            o->setup.frame_count < 2);
        if (!inside_window)
            continue;
        o->time[kept] = o->time[p];
        o->f0[kept] = f0;
        o->alpha[kept] = alpha;
        ++kept;
    }
    o->points = kept;
    const size_t cap = (size_t)o->capacity;
    for (int p = 0; p < kept; ++p) {
        ossai_source_local(o->setup.tracks, o->rest, n, o->time[p], o->pose);
        ossai_dxf_to_model(o->parents, n, o->pose, o->pose);
        for (int j = 0; j < n; ++j)
            o->source[(size_t)j * cap + (size_t)p] = o->pose[j];
    }
    for (int j = 0; j < n; ++j) {
        resample(o, j);
        remodel(o, j); /* parents come first: theirs are done */
    }
}

static double track_error(void *user, int track)
{
    ossai_joint_oracle *o = user;
    const int j = o->setup.layout->track_joint[track];
    resample(o, j);
    double worst = 0.0;
    for (int i = o->descendants_at[j]; i < o->descendants_at[j + 1]; ++i) {
        const double e = remodel(o, o->descendants[i]);
        worst = e > worst ? e : worst;
    }
    return worst;
}

static int track_above(void *user, int track, double bound)
{
    ossai_joint_oracle *o = user;
    const int j = o->setup.layout->track_joint[track];
    resample(o, j);
    for (int i = o->descendants_at[j]; i < o->descendants_at[j + 1]; ++i)
        if (remodel_above(o, o->descendants[i], bound))
            return 1;
    return 0;
}

/* Copies track's joint's local row and its groups' model rows and errors
 * from (the oracle's state) to the copies, or back. */
static void track_copy(ossai_joint_oracle *o, int track, int back)
{
    if (o->points == 0)
        return; /* no rows, and every error 0 */
    const size_t cap = (size_t)o->capacity, row = sizeof(ossai_dxf) * (size_t)o->points;
    const int j = o->setup.layout->track_joint[track];
    ossai_dxf *const rows[2][2] = {{o->local, o->local0}, {o->model, o->model0}};
    double *const errors[2] = {o->joint_error, o->joint_error0};
    memcpy(rows[0][!back] + (size_t)j * cap, rows[0][back] + (size_t)j * cap, row);
    for (int i = o->descendants_at[j]; i < o->descendants_at[j + 1]; ++i) {
        const int k = o->descendants[i];
        memcpy(rows[1][!back] + (size_t)k * cap, rows[1][back] + (size_t)k * cap, row);
        errors[!back][k] = errors[back][k];
    }
}

static void track_save(void *user, int track)
{
    track_copy(user, track, 0);
}

static void track_restore(void *user, int track)
{
    track_copy(user, track, 1);
}

static double group_error(void *user, int track, int group)
{
    ossai_joint_oracle *o = user;
    const int j = o->setup.layout->track_joint[track];
    resample(o, j);
    int count = 0;
    for (int a = group; a != j && a != (int)OSSA_NO_PARENT; a = o->parents[a])
        o->path[count++] = a;
    remodel(o, j);
    double e = o->joint_error[j];
    while (count > 0)
        e = remodel(o, o->path[--count]);
    return e;
}

static double worst(void *user, int *group)
{
    ossai_joint_oracle *o = user;
    double w = 0.0;
    int g = -1;
    for (int j = 0; j < o->joints; ++j)
        if (o->joint_error[j] > w) {
            w = o->joint_error[j];
            g = j;
        }
    if (group)
        *group = g;
    return w;
}

static int reaching(void *user, int group, int *tracks, int max)
{
    ossai_joint_oracle *o = user;
    const ossai_joint_layout *l = o->setup.layout;
    int count = 0;
    for (int a = group; a != (int)OSSA_NO_PARENT; a = o->parents[a])
        for (int kind = 0; kind < OSSAI_KINDS; ++kind)
            if (l->track[a * 3 + kind] >= 0 && count < max)
                tracks[count++] = l->track[a * 3 + kind];
    return count;
}

/* A translation moves the group's points by its own error (times the
 * parent's scale); a rotation component's error turns them by about twice
 * as many radians, at the distance from the joint to the group's points;
 * a scale stretches that distance. */
static double lever(void *user, int track, int group)
{
    ossai_joint_oracle *o = user;
    const ossai_joint_layout *l = o->setup.layout;
    const int j = l->track_joint[track];
    const double reach = o->reach[(size_t)j * (size_t)o->joints + (size_t)group];
    const double factor = l->track_kind[track] == OSSAI_KIND_T ? 1.0
                          : l->track_kind[track] == OSSAI_KIND_R ? 2.0 * reach
                                                                 : reach;
    return factor / o->setup.tolerance;
}

ossai_pack_oracle ossai_joint_oracle_view(ossai_joint_oracle *oracle)
{
    ossai_pack_oracle v = {oracle,      window,      track_error, worst, reaching,
                           group_error, lever,       track_above, track_save,
                           track_restore};
    return v;
}
