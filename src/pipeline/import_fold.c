/* import_fold.c - FBX helper curves folded into their joint.
 *
 * When a node has pivots or offsets, assimp animates its helper nodes
 * ("<node>_$AssimpFbx$_Rotation"...) one by one, and the joint's local
 * transform is the product of the chain: T * Roff * Rp * Rpre * R * ... .
 * With a pivot, a rotation moves the translation along an arc, which no
 * straight-line interpolation of translation keys follows. So the folded
 * track keeps the source key times (the clip's rate choice is unchanged)
 * and is a CUBICSPLINE whose tangents are the product's derivatives at the
 * keys (one-sided, inside each interval): between keys it follows the arc
 * to O(dt^4), and the clip builder's error report stays honest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

typedef struct pose {
    double t[3], q[4], s[3];
} pose;

/* The key interval of t in a track: index of the last key <= t (0 before
 * the first), and the fraction towards the next. */
static int locate(const float *times, int n, double t, double *u)
{
    int i = 0;
    while (i + 1 < n && times[i + 1] <= t)
        ++i;
    if (i + 1 >= n || t <= times[i]) {
        *u = 0.0;
        return i;
    }
    *u = (t - times[i]) / ((double)times[i + 1] - (double)times[i]);
    return i;
}

static void eval3(const ossa_raw_track3 *tr, double t, const double fallback[3], double out[3])
{
    if (tr->key_count == 0) {
        memcpy(out, fallback, 3 * sizeof(double));
        return;
    }
    double u;
    const int i = locate(tr->times_s, tr->key_count, t, &u);
    const ossa_float3 a = tr->values[i], b = tr->values[i + 1 < tr->key_count ? i + 1 : i];
    if (tr->interpolation == OSSA_INTERP_STEP)
        u = 0.0;
    out[0] = a.x + (b.x - a.x) * u;
    out[1] = a.y + (b.y - a.y) * u;
    out[2] = a.z + (b.z - a.z) * u;
}

static void eval_quat(const ossa_raw_track_quat *tr, double t, const double fallback[4],
                      double out[4])
{
    if (tr->key_count == 0) {
        memcpy(out, fallback, 4 * sizeof(double));
        return;
    }
    double u;
    const int i = locate(tr->times_s, tr->key_count, t, &u);
    const ossa_quat qa = tr->values[i], qb = tr->values[i + 1 < tr->key_count ? i + 1 : i];
    double a[4] = {qa.x, qa.y, qa.z, qa.w}, b[4] = {qb.x, qb.y, qb.z, qb.w};
    if (tr->interpolation == OSSA_INTERP_STEP)
        u = 0.0;
    double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    if (d < 0.0) {
        d = -d;
        for (int k = 0; k < 4; ++k)
            b[k] = -b[k];
    }
    double wa = 1.0 - u, wb = u;
    if (d < 1.0 - 1e-12) { /* slerp, as the clip builder reads LINEAR rotations */
        const double theta = acos(d > 1.0 ? 1.0 : d), s = sin(theta);
        wa = sin((1.0 - u) * theta) / s;
        wb = sin(u * theta) / s;
    }
    double len = 0.0;
    for (int k = 0; k < 4; ++k) {
        out[k] = wa * a[k] + wb * b[k];
        len += out[k] * out[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; ++k)
        out[k] = len > 0.0 ? out[k] / len : (k == 3);
}

typedef struct chain {
    const ossai_scene *sc;
    int count;
    const int *nodes;                   /* top first */
    const ossai_node_track *const *tracks; /* per node, or NULL */
    pose *rest;                         /* per node: its static transform split */
} chain;

/* The joint's folded local transform at t, split (scale still in source
 * units: lengths are scaled by the caller). */
static pose chain_at(const chain *c, double t)
{
    ossai_dmat m = ossai_dmat_identity();
    for (int i = 0; i < c->count; ++i) {
        ossai_dmat f = c->sc->nodes[c->nodes[i]].local;
        const ossai_node_track *tr = c->tracks[i];
        if (tr) {
            pose p;
            eval3(&tr->translation, t, c->rest[i].t, p.t);
            eval_quat(&tr->rotation, t, c->rest[i].q, p.q);
            eval3(&tr->scale, t, c->rest[i].s, p.s);
            const ossa_float3 pt = {(float)p.t[0], (float)p.t[1], (float)p.t[2]};
            const ossa_float3 ps = {(float)p.s[0], (float)p.s[1], (float)p.s[2]};
            const ossa_quat pq = {(float)p.q[0], (float)p.q[1], (float)p.q[2], (float)p.q[3]};
            f = ossai_dmat_from_trs(pt, pq, ps);
        }
        m = ossai_dmat_mul(&m, &f);
    }
    pose out;
    ossai_dmat_decompose_d(&m, out.t, out.q, out.s);
    return out;
}

static void align(double q[4], const double to[4])
{
    if (q[0] * to[0] + q[1] * to[1] + q[2] * to[2] + q[3] * to[3] < 0.0)
        for (int k = 0; k < 4; ++k)
            q[k] = -q[k];
}

/* d/dt of the pose between a (at t) and b (at t + h), rotation on a's side. */
static pose derivative(const pose *a, pose b, double h)
{
    align(b.q, a->q);
    pose d;
    for (int k = 0; k < 3; ++k) {
        d.t[k] = (b.t[k] - a->t[k]) / h;
        d.s[k] = (b.s[k] - a->s[k]) / h;
    }
    for (int k = 0; k < 4; ++k)
        d.q[k] = (b.q[k] - a->q[k]) / h;
    return d;
}

static int compare_floats(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void add_times(const float *times, int n, float *all, int *count)
{
    for (int k = 0; k < n; ++k)
        all[(*count)++] = times[k];
}

/* Extra keys where the joint turns fast: one cubic segment follows a pivot's
 * arc to 1.5% of its radius over 90 degrees, but to 2e-4 of it over 20. An
 * interval is split into equal parts of at most MAX_TURN_DEG (rare: 600
 * degrees per second at 30 keys per second). Returns the new count. */
#define MAX_TURN_DEG 20.0
#define MAX_SPLIT 64

static int split_of(const chain *c, double a, double b)
{
    const pose pa = chain_at(c, a), pb = chain_at(c, b);
    double d = fabs(pa.q[0] * pb.q[0] + pa.q[1] * pb.q[1] + pa.q[2] * pb.q[2] + pa.q[3] * pb.q[3]);
    const double degrees = 2.0 * acos(d > 1.0 ? 1.0 : d) * 57.29577951308232;
    const int parts = (int)ceil(degrees / MAX_TURN_DEG);
    return parts < 1 ? 1 : (parts > MAX_SPLIT ? MAX_SPLIT : parts);
}

static int refine(const chain *c, ossa_import *im, float **times, int count)
{
    int total = count;
    for (int i = 0; i + 1 < count; ++i)
        total += split_of(c, (*times)[i], (*times)[i + 1]) - 1;
    if (total == count)
        return count;
    float *refined = ossai_import_alloc(im, (size_t)total, sizeof(float));
    if (!refined)
        return -1;
    int n = 0;
    for (int i = 0; i < count; ++i) {
        refined[n++] = (*times)[i];
        if (i + 1 == count)
            break;
        const double a = (*times)[i], b = (*times)[i + 1];
        const int parts = split_of(c, a, b);
        for (int k = 1; k < parts; ++k) {
            const float t = (float)(a + (b - a) * k / parts);
            if (t > refined[n - 1] && t < (float)b)
                refined[n++] = t;
        }
    }
    *times = refined;
    return n;
}

bool ossai_fold_chain(ossai_scene *sc, const ossai_node_clip *clip, int joint_node,
                      ossa_raw_joint_track *out)
{
    ossa_import *im = sc->im;
    /* The chain: every node between the parent joint and this joint. */
    int count = 0;
    for (int p = joint_node; p >= 0 && (p == joint_node || !sc->nodes[p].selected);
         p = sc->nodes[p].parent)
        ++count;
    int *nodes = ossai_import_alloc(im, (size_t)count, sizeof(int));
    const ossai_node_track **tracks = ossai_import_alloc(im, (size_t)count, sizeof *tracks);
    pose *rest = ossai_import_alloc(im, (size_t)count, sizeof *rest);
    if (!nodes || !tracks || !rest)
        return false;
    int k = count;
    for (int p = joint_node; k > 0; p = sc->nodes[p].parent)
        nodes[--k] = p;
    size_t total = 0;
    for (int i = 0; i < count; ++i) {
        ossai_dmat_decompose_d(&sc->nodes[nodes[i]].local, rest[i].t, rest[i].q, rest[i].s);
        for (int t = 0; t < clip->track_count; ++t)
            if (clip->tracks[t].node == nodes[i]) {
                tracks[i] = &clip->tracks[t];
                total += (size_t)tracks[i]->translation.key_count +
                         (size_t)tracks[i]->rotation.key_count + (size_t)tracks[i]->scale.key_count;
            }
    }
    const chain c = {sc, count, nodes, tracks, rest};

    /* Key times: the union of every curve's, in order, once each. */
    float *times = ossai_import_alloc(im, total + 1, sizeof(float));
    if (!times)
        return false;
    int n = 0;
    for (int i = 0; i < count; ++i)
        if (tracks[i]) {
            add_times(tracks[i]->translation.times_s, tracks[i]->translation.key_count, times, &n);
            add_times(tracks[i]->rotation.times_s, tracks[i]->rotation.key_count, times, &n);
            add_times(tracks[i]->scale.times_s, tracks[i]->scale.key_count, times, &n);
        }
    qsort(times, (size_t)n, sizeof(float), compare_floats);
    int unique = 0;
    for (int i = 0; i < n; ++i)
        if (isfinite(times[i]) && (unique == 0 || times[i] > times[unique - 1]))
            times[unique++] = times[i];
    const int keys = refine(&c, im, &times, unique);
    if (keys < 0)
        return false;

    /* Values and one-sided derivatives: arrays of (in, value, out). */
    ossa_float3 *t3 = ossai_import_alloc(im, 3 * (size_t)keys + 1, sizeof(ossa_float3));
    ossa_float3 *s3 = ossai_import_alloc(im, 3 * (size_t)keys + 1, sizeof(ossa_float3));
    ossa_quat *q4 = ossai_import_alloc(im, 3 * (size_t)keys + 1, sizeof(ossa_quat));
    if (!t3 || !s3 || !q4)
        return false;
    const size_t K = (size_t)keys;
    const double scale = sc->scale;
    double previous_q[4] = {0, 0, 0, 1};
    for (int i = 0; i < keys; ++i) {
        const double ti = times[i];
        pose v = chain_at(&c, ti);
        align(v.q, previous_q);
        memcpy(previous_q, v.q, sizeof previous_q);
        pose din, dout;
        memset(&din, 0, sizeof din);
        memset(&dout, 0, sizeof dout);
        if (i + 1 < keys) {
            const double h = 1e-4 * ((double)times[i + 1] - ti);
            dout = derivative(&v, chain_at(&c, ti + h), h);
        }
        if (i > 0) {
            const double h = 1e-4 * (ti - (double)times[i - 1]);
            pose before = chain_at(&c, ti - h);
            align(before.q, v.q);
            din = derivative(&before, v, h);
        }
        t3[K + (size_t)i] = (ossa_float3){(float)(v.t[0] * scale), (float)(v.t[1] * scale),
                                          (float)(v.t[2] * scale)};
        t3[(size_t)i] = (ossa_float3){(float)(din.t[0] * scale), (float)(din.t[1] * scale),
                                      (float)(din.t[2] * scale)};
        t3[2 * K + (size_t)i] = (ossa_float3){(float)(dout.t[0] * scale),
                                              (float)(dout.t[1] * scale),
                                              (float)(dout.t[2] * scale)};
        s3[K + (size_t)i] = (ossa_float3){(float)v.s[0], (float)v.s[1], (float)v.s[2]};
        s3[(size_t)i] = (ossa_float3){(float)din.s[0], (float)din.s[1], (float)din.s[2]};
        s3[2 * K + (size_t)i] = (ossa_float3){(float)dout.s[0], (float)dout.s[1], (float)dout.s[2]};
        q4[K + (size_t)i] = (ossa_quat){(float)v.q[0], (float)v.q[1], (float)v.q[2], (float)v.q[3]};
        q4[(size_t)i] = (ossa_quat){(float)din.q[0], (float)din.q[1], (float)din.q[2],
                                    (float)din.q[3]};
        q4[2 * K + (size_t)i] = (ossa_quat){(float)dout.q[0], (float)dout.q[1], (float)dout.q[2],
                                            (float)dout.q[3]};
    }
    out->translation = (ossa_raw_track3){times, t3 + K, t3, t3 + 2 * K, keys,
                                         OSSA_INTERP_CUBICSPLINE};
    out->rotation = (ossa_raw_track_quat){times, q4 + K, q4, q4 + 2 * K, keys,
                                          OSSA_INTERP_CUBICSPLINE};
    out->scale = (ossa_raw_track3){times, s3 + K, s3, s3 + 2 * K, keys, OSSA_INTERP_CUBICSPLINE};
    return true;
}
