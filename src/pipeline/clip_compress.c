/* clip_compress.c - a raw clip -> a compressed clip: every joint's tracks
 * sorted into rest (not stored), constant (stored once) and animated (the
 * packer's components, in record order), then the section written. */
#include "clip_compress.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "clip_oracle.h"
#include "clip_pack.h"
#include "sample/packed_math.h"

/* A track is the rest pose or constant when it stays this share of the
 * tolerance (translated through the joint's lever) from it: small, since
 * every joint down a chain may spend it. */
#define STILL_SHARE 0.02
/* A rotation whose |w| relative to the rest comes below this stores its w:
 * rebuilt from x, y, z, w loses precision as it nears 0 (d w ~ d|xyz| / w). */
#define FULL_W 0.35

typedef struct frames {
    const float *data;
    uint32_t stride, floats;
} frames;

static float key(const frames *fr, int f, int component, int j)
{
    return fr->data[(size_t)f * fr->floats + (size_t)component * fr->stride + (size_t)j];
}

static ossa_quat key_rotation(const frames *fr, int f, int j)
{
    ossa_quat q = {key(fr, f, OSSAI_QX, j), key(fr, f, OSSAI_QY, j), key(fr, f, OSSAI_QZ, j),
                   key(fr, f, OSSAI_QW, j)};
    return q;
}

/* The angle of the rotation between a and b (either sign), accurate for
 * tiny angles too: 2 atan2(|v|, |w|) of conj(a) b, where acos of the dot
 * product would turn a rounding of 1e-7 into 4e-4 radians. */
static double quat_angle(ossa_quat a, ossa_quat b)
{
    const double x = (double)a.w * b.x - (double)a.x * b.w - (double)a.y * b.z + (double)a.z * b.y;
    const double y = (double)a.w * b.y + (double)a.x * b.z - (double)a.y * b.w - (double)a.z * b.x;
    const double z = (double)a.w * b.z - (double)a.x * b.y + (double)a.y * b.x - (double)a.z * b.w;
    const double w = (double)a.w * b.w + (double)a.x * b.x + (double)a.y * b.y + (double)a.z * b.z;
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w));
}

/* Per joint: how far a local change moves the measured points of its
 * subtree, in the rest pose - the lever of a rotation, the scale its parent
 * applies to a translation, and its own scale. */
typedef struct levers {
    double *rotation, *parent_scale, *scale;
} levers;

static double column_scale(const ossai_dxf *m)
{
    double s = 0.0;
    for (int c = 0; c < 3; ++c)
        s = fmax(s, sqrt(m->m[0][c] * m->m[0][c] + m->m[1][c] * m->m[1][c] +
                         m->m[2][c] * m->m[2][c]));
    return s;
}

static int make_levers(const ossa_skeleton *sk, const double *distance,
                       const ossa_allocator *a, levers *out)
{
    const int n = ossa_skeleton_joint_count(sk);
    const uint16_t *parents = ossa_skeleton_parents(sk);
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    ossai_dxf *model = ossa_alloc(a, sizeof *model * (size_t)n, 16);
    out->rotation = ossa_alloc(a, sizeof(double) * 3 * (size_t)n, 16);
    if (!model || !out->rotation) {
        ossa_free(a, model);
        ossa_free(a, out->rotation);
        return 0;
    }
    out->parent_scale = out->rotation + n;
    out->scale = out->rotation + 2 * (size_t)n;
    for (int j = 0; j < n; ++j)
        model[j] = ossai_dxf_from_transform(&rest[j]);
    ossai_dxf_to_model(parents, n, model, model);
    for (int j = 0; j < n; ++j) {
        out->scale[j] = column_scale(&model[j]);
        out->parent_scale[j] = parents[j] == OSSA_NO_PARENT ? 1.0 : column_scale(&model[parents[j]]);
        out->rotation[j] = 0.0;
    }
    /* every joint reaches its ancestors' levers */
    for (int k = 0; k < n; ++k)
        for (int j = k; j != (int)OSSA_NO_PARENT; j = parents[j]) {
            const double dx = model[k].m[0][3] - model[j].m[0][3];
            const double dy = model[k].m[1][3] - model[j].m[1][3];
            const double dz = model[k].m[2][3] - model[j].m[2][3];
            const double reach = sqrt(dx * dx + dy * dy + dz * dz) + distance[k] * out->scale[k];
            out->rotation[j] = fmax(out->rotation[j], reach);
        }
    ossa_free(a, model);
    return 1;
}

/* Sorts joint j's track of `kind` into rest, constant (its value in
 * constant) or animated. */
static int classify(const frames *fr, int frames_count, const ossa_transform *rest, int j,
                    int kind, const levers *lv, double tolerance, float constant[4])
{
    const double budget = STILL_SHARE * tolerance;
    if (kind == OSSAI_KIND_R) {
        const double limit = budget / fmax(lv->rotation[j], 1e-30);
        int is_rest = 1;
        double sum[4] = {0, 0, 0, 0};
        const ossa_quat first = key_rotation(fr, 0, j);
        for (int f = 0; f < frames_count; ++f) {
            ossa_quat q = key_rotation(fr, f, j);
            is_rest &= quat_angle(q, rest[j].rotation) <= limit;
            const double s = (double)q.x * first.x + (double)q.y * first.y +
                             (double)q.z * first.z + (double)q.w * first.w < 0.0 ? -1.0 : 1.0;
            sum[0] += s * q.x, sum[1] += s * q.y, sum[2] += s * q.z, sum[3] += s * q.w;
        }
        if (is_rest)
            return OSSAI_TRACK_REST;
        const double len = sqrt(sum[0] * sum[0] + sum[1] * sum[1] + sum[2] * sum[2] + sum[3] * sum[3]);
        if (!(len > 0.0))
            return OSSAI_TRACK_ANIM;
        for (int c = 0; c < 4; ++c)
            constant[c] = (float)(sum[c] / len);
        const ossa_quat c = {constant[0], constant[1], constant[2], constant[3]};
        for (int f = 0; f < frames_count; ++f)
            if (quat_angle(key_rotation(fr, f, j), c) > limit)
                return OSSAI_TRACK_ANIM;
        return OSSAI_TRACK_CONST;
    }
    const int base = kind == OSSAI_KIND_T ? OSSAI_TX : OSSAI_SX;
    const double limit = kind == OSSAI_KIND_T
                             ? budget / fmax(lv->parent_scale[j], 1e-30)
                             : budget * lv->scale[j] /
                                   fmax(lv->rotation[j] * lv->parent_scale[j], 1e-30);
    const float *r = kind == OSSAI_KIND_T ? &rest[j].translation.x : &rest[j].scale.x;
    float lo[3], hi[3];
    int is_rest = 1;
    for (int c = 0; c < 3; ++c)
        lo[c] = hi[c] = key(fr, 0, base + c, j);
    for (int f = 0; f < frames_count; ++f) {
        double d2 = 0.0;
        for (int c = 0; c < 3; ++c) {
            const float v = key(fr, f, base + c, j);
            lo[c] = fminf(lo[c], v);
            hi[c] = fmaxf(hi[c], v);
            d2 += ((double)v - r[c]) * ((double)v - r[c]);
        }
        is_rest &= sqrt(d2) <= limit;
    }
    if (is_rest)
        return OSSAI_TRACK_REST;
    double d2 = 0.0;
    for (int c = 0; c < 3; ++c) {
        constant[c] = (float)(0.5 * ((double)lo[c] + hi[c]));
        const double half = 0.5 * ((double)hi[c] - lo[c]);
        d2 += half * half;
    }
    return sqrt(d2) <= limit ? OSSAI_TRACK_CONST : OSSAI_TRACK_ANIM;
}

/* conj(rest) q, normalised, in double. */
static void rest_delta(ossa_quat r0, ossa_quat q, double d[4])
{
    d[0] = (double)r0.w * q.x - (double)r0.x * q.w - (double)r0.y * q.z + (double)r0.z * q.y;
    d[1] = (double)r0.w * q.y + (double)r0.x * q.z - (double)r0.y * q.w - (double)r0.z * q.x;
    d[2] = (double)r0.w * q.z - (double)r0.x * q.y + (double)r0.y * q.x - (double)r0.z * q.w;
    d[3] = (double)r0.w * q.w + (double)r0.x * q.x + (double)r0.y * q.y + (double)r0.z * q.z;
    const double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
    for (int c = 0; c < 4 && len > 0.0; ++c)
        d[c] /= len;
}

static uint32_t align(uint64_t x, uint32_t a)
{
    return (uint32_t)((x + a - 1) & ~(uint64_t)(a - 1));
}

ossa_result ossai_clip_compress(const ossai_compress_setup *setup, const ossa_allocator *a,
                                ossa_clip **out, ossai_compress_report *report, ossa_error *error)
{
    const ossa_clip *raw = setup->raw;
    const ossa_skeleton *sk = setup->skeleton;
    const int n = ossa_skeleton_joint_count(sk);
    const int frame_count = (int)raw->frame_count;
    const uint32_t stride = raw->joint_stride, chunks = stride / OSSAI_CHUNK;
    const ossa_transform *rest = ossa_skeleton_rest_pose(sk);
    const uint8_t *raw_steps = ossai_clip_steps(raw);
    const frames fr = {ossai_clip_frames(raw), stride, ossai_clip_frame_floats(raw)};
    const char *name = ossa_clip_name(raw);
    memset(report, 0, sizeof *report);
    *out = NULL;

    ossai_joint_layout l;
    memset(&l, 0, sizeof l);
    l.joint_count = n;
    levers lv = {NULL, NULL, NULL};
    float *values = NULL;
    int *track_of = NULL;
    ossai_joint_oracle *oracle = NULL;
    ossai_pack_output packed;
    memset(&packed, 0, sizeof packed);
    ossa_result r = OSSA_ERR_OUT_OF_MEMORY;
    const size_t slots = (size_t)n * 3;
    l.state = ossa_alloc(a, slots * 3, 16);
    l.constant = ossa_alloc(a, sizeof(float) * slots * 4, 16);
    l.component = ossa_alloc(a, sizeof(int) * (slots * 4 + slots * 3), 16);
    if (!l.state || !l.constant || !l.component || !make_levers(sk, setup->distance, a, &lv))
        goto fail;
    l.step = l.state + slots;
    l.full = l.step + slots;
    l.track = l.component + slots * 4;
    l.track_joint = l.track + slots;
    l.track_kind = l.track_joint + slots;
    int any_step = 0, uses_rest = 0, any_full = 0;
    for (int j = 0; j < n; ++j)
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            const size_t slot = (size_t)j * 3 + (size_t)kind;
            l.state[slot] = (uint8_t)classify(&fr, frame_count, rest, j, kind, &lv,
                                              setup->tolerance, &l.constant[slot * 4]);
            static const uint8_t bit[3] = {OSSAI_STEP_T, OSSAI_STEP_R, OSSAI_STEP_S};
            l.step[slot] = (raw_steps[j] & bit[kind]) && l.state[slot] == OSSAI_TRACK_ANIM;
            any_step |= l.step[slot];
            uses_rest |= l.state[slot] == OSSAI_TRACK_REST ||
                         (kind == OSSAI_KIND_R && l.state[slot] == OSSAI_TRACK_ANIM);
            /* a rotation that comes near half a turn from the rest keeps its w */
            l.full[slot] = 0;
            if (kind == OSSAI_KIND_R && l.state[slot] == OSSAI_TRACK_ANIM)
                for (int f = 0; f < frame_count && !l.full[slot]; ++f) {
                    double d[4];
                    rest_delta(rest[j].rotation, key_rotation(&fr, f, j), d);
                    l.full[slot] = fabs(d[3]) < FULL_W;
                }
            any_full |= l.full[slot];
            report->rest_tracks += l.state[slot] == OSSAI_TRACK_REST;
            report->constant_tracks += l.state[slot] == OSSAI_TRACK_CONST;
            l.track[slot] = -1;
        }
    /* values a compressed clip can hold (decoding must not overflow) */
    for (int f = 0; f < frame_count; ++f)
        for (uint32_t c = 0; c < OSSAI_COMPONENTS; ++c)
            for (int j = 0; j < n; ++j)
                if (!(fabsf(key(&fr, f, (int)c, j)) <= OSSAI_PACK_VALUE_LIMIT / 4.0f)) {
                    r = ossa_error_set(error, OSSA_ERR_BAD_VALUE, j, -1,
                                       "clip '%s': joint '%s' reaches %g at frame %d, beyond "
                                       "what a compressed clip holds (%g; --raw keeps it)",
                                       name, ossa_skeleton_joint_name(sk, j),
                                       (double)key(&fr, f, (int)c, j), f,
                                       (double)(OSSAI_PACK_VALUE_LIMIT / 4.0f));
                    goto fail;
                }
    /* record order: chunk, kind, component, joint */
    int constants = 0;
    for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        for (int kind = 0; kind < OSSAI_KINDS; ++kind)
            for (int c = 0; c < (kind == OSSAI_KIND_R ? 4 : 3); ++c)
                for (int j = (int)(chunk * OSSAI_CHUNK); j < (int)((chunk + 1) * OSSAI_CHUNK) && j < n; ++j) {
                    const size_t slot = (size_t)j * 3 + (size_t)kind;
                    if (l.state[slot] == OSSAI_TRACK_ANIM && (c < 3 || l.full[slot])) {
                        if (c == 0) {
                            l.track[slot] = l.track_count;
                            l.track_joint[l.track_count] = j;
                            l.track_kind[l.track_count++] = kind;
                        }
                        l.component[slot * 4 + (size_t)c] = l.component_count++;
                    } else if (l.state[slot] == OSSAI_TRACK_CONST) {
                        ++constants;
                    }
                }
    report->animated_tracks = l.track_count;
    const int m = l.component_count;
    if (m > 0) {
        values = ossa_alloc(a, sizeof(float) * (size_t)m * (size_t)frame_count, 16);
        track_of = ossa_alloc(a, sizeof(int) * (size_t)m, 16);
        if (!values || !track_of)
            goto fail;
        for (int j = 0; j < n; ++j)
            for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
                const size_t slot = (size_t)j * 3 + (size_t)kind;
                if (l.state[slot] != OSSAI_TRACK_ANIM)
                    continue;
                const int *k = &l.component[slot * 4];
                const int comps = l.full[slot] ? 4 : 3;
                for (int c = 0; c < comps; ++c)
                    track_of[k[c]] = l.track[slot];
                double prev[4] = {0, 0, 0, 1};
                for (int f = 0; f < frame_count; ++f) {
                    float v[4];
                    if (kind == OSSAI_KIND_R) {
                        /* relative to the rest rotation; w >= 0 rebuilt, or
                         * stored and kept on one hemisphere */
                        double d[4];
                        rest_delta(rest[j].rotation, key_rotation(&fr, f, j), d);
                        const double dot = d[0] * prev[0] + d[1] * prev[1] + d[2] * prev[2] +
                                           d[3] * prev[3];
                        const double sign = l.full[slot] ? (f > 0 && dot < 0.0 ? -1.0 : 1.0)
                                                         : (d[3] < 0.0 ? -1.0 : 1.0);
                        for (int c = 0; c < 4; ++c) {
                            prev[c] = sign * d[c];
                            v[c] = (float)prev[c];
                        }
                    } else {
                        const int base = kind == OSSAI_KIND_T ? OSSAI_TX : OSSAI_SX;
                        for (int c = 0; c < 3; ++c)
                            v[c] = key(&fr, f, base + c, j);
                    }
                    for (int c = 0; c < comps; ++c)
                        values[(size_t)f * (size_t)m + (size_t)k[c]] = v[c];
                }
            }
        ossai_oracle_setup os = {&l, sk, setup->tracks, setup->duration, frame_count, raw->rate,
                                 setup->distance, setup->tolerance};
        oracle = ossai_joint_oracle_make(&os, a);
        if (!oracle)
            goto fail;
        const ossai_pack_oracle view = ossai_joint_oracle_view(oracle);
        ossai_pack_input in;
        memset(&in, 0, sizeof in);
        in.component_count = m;
        in.frame_count = frame_count;
        in.values = values;
        in.track_count = l.track_count;
        in.track_of = track_of;
        in.target = setup->target;
        in.thorough = setup->thorough;
        if ((r = ossai_pack(&in, &view, a, &packed)))
            goto fail;
        report->segment_frames = 1 << packed.segment_shift;
        report->segment_count = packed.segment_count;
        report->mean_width = packed.mean_width;
        report->search_error = packed.worst;
    }

    /* the section: header, packed header, masks, constants, block arrays,
     * name */
    const uint32_t clip_flags = OSSAI_CLIP_PACKED | (any_step ? OSSAI_CLIP_HAS_STEP : 0u) |
                                (uses_rest ? OSSAI_CLIP_USES_REST : 0u) |
                                (any_full ? OSSAI_CLIP_FULL_ROTATIONS : 0u);
    const uint32_t rows = ossai_mask_rows(clip_flags);
    const uint64_t packed_at = sizeof(ossa_clip);
    const uint64_t masks_at = packed_at + sizeof(ossai_clip_packed);
    const uint64_t constants_at = align(masks_at + 2u * rows * chunks, 4);
    const uint64_t ranges_at = constants_at + 4u * (uint64_t)constants;
    const uint64_t segments_at = ranges_at + 8u * (uint64_t)m;
    const uint64_t seg_data_at = segments_at + 8u * (uint64_t)packed.segment_count;
    const uint64_t bits_at = seg_data_at + packed.seg_data_bytes;
    const uint64_t name_at = bits_at + packed.bits_bytes;
    const uint64_t name_bytes = strlen(name) + 1;
    const uint64_t total = align(name_at + name_bytes, 16);
    if (total > UINT32_MAX) {
        r = ossa_error_set(error, OSSA_ERR_CLIP_TOO_LARGE, -1, -1,
                           "clip '%s': compressed, it would exceed 4 GiB", name);
        goto fail;
    }
    ossa_clip *c = ossa_alloc(a, (size_t)total, 64);
    if (!c)
        goto fail;
    memset(c, 0, (size_t)total);
    *c = *raw;
    c->bytes = (uint32_t)total;
    c->flags = clip_flags;
    c->frames_offset = (uint32_t)packed_at;
    c->step_offset = 0;
    c->name_offset = (uint32_t)name_at;
    c->name_bytes = (uint32_t)name_bytes;
    c->tracks_offset = 0;
    memcpy((char *)c + name_at, name, (size_t)name_bytes);
    ossai_clip_packed *p = (ossai_clip_packed *)(void *)((char *)c + packed_at);
    p->masks_offset = (uint32_t)masks_at;
    p->constants_offset = (uint32_t)constants_at;
    p->constant_count = (uint32_t)constants;
    p->rest_crc = ossa_crc32c(0, rest, sizeof(ossa_transform) * (size_t)n);
    p->tolerance = (float)setup->tolerance;
    p->distance = (float)setup->default_distance;
    ossai_packed_block *b = &p->block;
    b->component_count = (uint32_t)m;
    b->segment_shift = (uint32_t)packed.segment_shift;
    b->segment_count = (uint32_t)packed.segment_count;
    b->flags = packed.segment_ranges ? OSSAI_PACK_SEGMENT_RANGES : 0u;
    if (m > 0) { /* a block of no component has no arrays */
        b->ranges_offset = (uint32_t)ranges_at;
        b->segments_offset = (uint32_t)segments_at;
        b->seg_data_offset = (uint32_t)seg_data_at;
        b->bits_offset = (uint32_t)bits_at;
        b->bits_bytes = (uint32_t)packed.bits_bytes;
    }
    uint16_t *masks = (uint16_t *)(void *)((char *)c + masks_at);
    float *consts = (float *)(void *)((char *)c + constants_at);
    int ci = 0;
    for (uint32_t chunk = 0; chunk < chunks; ++chunk)
        for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
            for (int j = (int)(chunk * OSSAI_CHUNK); j < (int)((chunk + 1) * OSSAI_CHUNK) && j < n; ++j) {
                const size_t slot = (size_t)j * 3 + (size_t)kind;
                const uint16_t bit = (uint16_t)(1u << (j - chunk * OSSAI_CHUNK));
                if (l.state[slot] == OSSAI_TRACK_ANIM)
                    masks[(OSSAI_MASK_ANIM + kind) * chunks + chunk] |= bit;
                if (l.state[slot] == OSSAI_TRACK_CONST)
                    masks[(OSSAI_MASK_CONST + kind) * chunks + chunk] |= bit;
                if (l.step[slot])
                    masks[(OSSAI_MASK_STEP + kind) * chunks + chunk] |= bit;
                if (l.full[slot])
                    masks[ossai_mask_full_row(clip_flags) * chunks + chunk] |= bit;
            }
            for (int cc = 0; cc < (kind == OSSAI_KIND_R ? 4 : 3); ++cc)
                for (int j = (int)(chunk * OSSAI_CHUNK); j < (int)((chunk + 1) * OSSAI_CHUNK) && j < n; ++j) {
                    const size_t slot = (size_t)j * 3 + (size_t)kind;
                    if (l.state[slot] == OSSAI_TRACK_CONST)
                        consts[ci++] = l.constant[slot * 4 + (size_t)cc];
                }
        }
    if (m > 0) {
        memcpy((char *)c + ranges_at, packed.ranges, 8u * (size_t)m);
        memcpy((char *)c + segments_at, packed.segments, 8u * (size_t)packed.segment_count);
        memcpy((char *)c + seg_data_at, packed.seg_data, packed.seg_data_bytes);
        memcpy((char *)c + bits_at, packed.bits, packed.bits_bytes);
    }
    *out = c;
    r = OSSA_OK;
fail:
    if (r == OSSA_ERR_OUT_OF_MEMORY)
        ossa_error_set(error, r, -1, -1, "clip '%s': out of memory compressing it", name);
    ossai_joint_oracle_free(oracle);
    ossai_pack_output_free(&packed, a);
    ossa_free(a, values);
    ossa_free(a, track_of);
    ossa_free(a, lv.rotation);
    ossa_free(a, l.state);
    ossa_free(a, l.constant);
    ossa_free(a, l.component);
    return r;
}
