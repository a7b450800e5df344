/* packed_kernels.c - the lane sampling kernel for batches holding a
 * compressed clip. A batch whose lanes play few clips goes clip by clip
 * (packed_group_kernels.c); one whose lanes play many goes lane by lane,
 * here: each lane's two frames decoded straight from the packed bits, 16
 * joints (one mask chunk) at a time, interpolated as the reference decoder
 * does (sample/packed_math.h, operation for operation, so the two agree to
 * the bit), then transposed into the lane layout. Raw lanes in the batch
 * take the raw kernel's path (sample/sample_lane.h). Compiled once per
 * instruction set (core/simd.h); the instruction-set pieces are in
 * sample/packed_lanes.h. */
#include <string.h>

#include "sample/packed_clip.h"
#include "sample/packed_lanes.h"
#include "sample/sample_lane.h"

#define CHUNK ((int)OSSAI_CHUNK)

/* The most components a chunk animates: 16 joints x (3 tracks x 3 + a w). */
#define CHUNK_VALUES (CHUNK * 10)

/* ---- one lane of a compressed clip ---- */

typedef struct lane_state {
    pk_clip c;
    uint32_t ci;    /* constants read so far */
    int same;       /* both frames in one segment */
    bool funnel;    /* pk_frame may take funnel shifts */
    pk_cursor a, b; /* at the next chunk's values */
    /* the chunk in flight's rotations: masks, constants, first list entry */
    uint32_t r_anim, r_still;
    const float *r_const;
    int r_nc, r_at;
} lane_state;

static void lane_begin(lane_state *l, const ossa_clip *clip, uint32_t f0, bool funnel)
{
    l->c = pk_clip_of(clip);
    l->ci = 0;
    l->funnel = funnel;
    if (ossai_clip_packed_header(clip)->block.component_count)
        l->same = pk_cursors_at(clip, f0, &l->a, &l->b);
}

/* Decodes the `count` values of the lane's next chunk, frames a and b,
 * LANE_V at a time (whole vectors: the buffers have room past count). */
static void decode_chunk(lane_state *l, int count, float *va, float *vb)
{
    for (int i = 0; i < count; i += LANE_V) {
        const int n = count - i < LANE_V ? count - i : LANE_V;
        pk_setup s;
        pk_setup_make(&s, &l->a, n);
        v_store(va + i, pk_frame(&s, l->c.bits, l->c.bits_end, l->a.bit, l->funnel));
        if (l->same) {
            v_store(vb + i, pk_frame(&s, l->c.bits, l->c.bits_end, l->b.bit, l->funnel));
            l->b.bit += s.run;
        } else {
            pk_setup t;
            pk_setup_make(&t, &l->b, n);
            v_store(vb + i, pk_frame(&t, l->c.bits, l->c.bits_end, l->b.bit, l->funnel));
            pk_cursor_skip(&l->b, &t, n);
        }
        pk_cursor_skip(&l->a, &s, n);
    }
}

/* The rest pose of joints j0 .. j0 + 16, as rows of the pose components
 * (the identity past the last joint, or everywhere without a rest pose). */
static void rest_rows(const ossa_transform *rest, int j0, int joints,
                      float rows[OSSAI_POSE_C][CHUNK])
{
    static const float identity[OSSAI_POSE_C] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    _Static_assert(sizeof(ossa_transform) == OSSAI_POSE_C * sizeof(float) && CHUNK == 16,
                   "a transform is the pose components' 10 floats; a chunk 16 joints");
    const int n = !rest ? 0 : joints - j0 < CHUNK ? joints - j0 : CHUNK;
    pk_rows_of_records(n ? &rest[j0].translation.x : NULL, n, identity, rows);
}

/* The kinds (bit OSSAI_KIND_*) that lane l's chunk leaves at the rest pose. */
static uint32_t rest_kinds(const lane_state *l, uint32_t chunk)
{
    uint32_t kinds = 0;
    for (int kind = 0; kind < OSSAI_KINDS; ++kind)
        if (!(l->c.masks[(OSSAI_MASK_ANIM + kind) * l->c.chunks + chunk] |
              l->c.masks[(OSSAI_MASK_CONST + kind) * l->c.chunks + chunk]))
            kinds |= 1u << kind;
    return kinds;
}

/* The animated rotations of one chunk in every lane of a batch, one entry
 * per lane and joint: their arithmetic runs on whole vectors however few of
 * a chunk's joints each lane animates. Rows of LIST_CAP floats: the two
 * frames' x y z w (w stored for full rotations, flagged by L_FULL), the rest
 * rotation and the interpolation factor; the results replace frame a. */
#define LIST_CAP (LANE_V * CHUNK + LANE_V)
enum { L_AX, L_BX = 4, L_FULL = 8, L_RX = 9, L_T = 13, L_ROWS = 14 };
typedef struct rot_list {
    LANE_ALIGN float row[L_ROWS][LIST_CAP];
    int n;
} rot_list;

/* dst[0, count) = src[0, count), whole vectors (both have room past count). */
static inline void copy_run(float *dst, const float *src, int count)
{
    for (int i = 0; i < count; i += LANE_V)
        v_store(dst + i, v_load(src + i));
}

static inline void fill_run(float *dst, float x, int count)
{
    for (int i = 0; i < count; i += LANE_V)
        v_store(dst + i, v_set1(x));
}

/* Lane l's animated rotations of this chunk (mask am), frames a and b at pa
 * and pb in record order (x, y, z rows of na, then the w of full ones),
 * appended to the list. */
static void list_append(lane_state *l, rot_list *list, uint32_t am, uint32_t full, uint32_t steps,
                        float alpha, const float *pa, const float *pb,
                        const float rest[OSSAI_POSE_C][CHUNK])
{
    const int n = list->n, na = pk_popcount(am);
    l->r_at = n;
    for (int c = 0; c < 3; ++c) {
        copy_run(list->row[L_AX + c] + n, pa + c * na, na);
        copy_run(list->row[L_BX + c] + n, pb + c * na, na);
    }
    if (full) {
        int i = 0, f = 0;
        for (uint32_t m = am; m; m &= m - 1, ++i) {
            const int stored = full >> __builtin_ctz(m) & 1u;
            list->row[L_FULL][n + i] = stored ? 1.0f : 0.0f;
            list->row[L_AX + 3][n + i] = stored ? pa[3 * na + f] : 0.0f;
            list->row[L_BX + 3][n + i] = stored ? pb[3 * na + f] : 0.0f;
            f += stored;
        }
    } else {
        fill_run(list->row[L_FULL] + n, 0.0f, na);
    }
    for (int c = 0; c < 4; ++c)
        pk_compress16(list->row[L_RX + c] + n, rest[OSSAI_QX + c], am);
    if (steps & am) {
        int i = 0;
        for (uint32_t m = am; m; m &= m - 1, ++i)
            list->row[L_T][n + i] =
                (steps >> __builtin_ctz(m) & 1u) ? ossai_step_alpha(alpha) : alpha;
    } else {
        fill_run(list->row[L_T] + n, alpha, na);
    }
    list->n = n + na;
}

/* ossai_pack_rotation_w and ossai_pack_rotation on every entry of the list,
 * vector by vector; the results replace frame a's x y z w. */
static void list_run(rot_list *list)
{
    /* the last vector's lanes past n: zeros, not stale values */
    for (int r = 0; r < L_ROWS; ++r)
        v_store(list->row[r] + list->n, v_zero());
    for (int i = 0; i < list->n; i += LANE_V) {
        vf a[4], b[4], r[4], q[4];
        for (int c = 0; c < 4; ++c) {
            a[c] = v_load(list->row[L_AX + c] + i);
            b[c] = v_load(list->row[L_BX + c] + i);
            r[c] = v_load(list->row[L_RX + c] + i);
        }
        const vm full = v_gt(v_load(list->row[L_FULL] + i), v_zero());
        pk_rotation(a, b, r, full, v_load(list->row[L_T] + i), q);
        for (int c = 0; c < 4; ++c)
            v_store(list->row[L_AX + c] + i, q[c]);
    }
}

/* One lane's chunk of 16 joints, first part: its values decoded, its
 * translations and scales into out[c][j] (pose component c of joint j0 + j),
 * its animated rotations into the list. The rows of the kinds in `skip` (at
 * the rest pose in every lane of the batch, written by the caller) are left
 * alone. va, vb: room for a chunk's values. */
static void chunk_first(lane_state *l, uint32_t chunk, float alpha, uint32_t skip,
                        const float rest[OSSAI_POSE_C][CHUNK], float out[OSSAI_POSE_C][CHUNK],
                        rot_list *list, float *va, float *vb)
{
    const uint32_t chunks = l->c.chunks;
    const uint16_t *masks = l->c.masks + chunk;
    uint32_t anim[3], still[3], step[3];
    const uint32_t full = l->c.full_row >= 0 ? masks[(uint32_t)l->c.full_row * chunks] : 0u;
    const int nf = pk_popcount(full);
    int count = nf, na[3];
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        anim[kind] = masks[(OSSAI_MASK_ANIM + kind) * chunks];
        still[kind] = masks[(OSSAI_MASK_CONST + kind) * chunks];
        step[kind] = l->c.steps ? masks[(OSSAI_MASK_STEP + kind) * chunks] : 0u;
        na[kind] = pk_popcount(anim[kind]);
        count += 3 * na[kind];
    }
    if (count)
        decode_chunk(l, count, va, vb);
    const vf one = v_set1(1.0f), held = v_set1(ossai_step_alpha(alpha)), t_all = v_set1(alpha);
    const float *pa = va, *pb = vb;
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        const int nak = na[kind], nc = pk_popcount(still[kind]);
        const float *cp = l->c.constants + l->ci; /* rows x y z (w) of the constant tracks */
        if (kind == OSSAI_KIND_R) {
            l->r_anim = anim[kind];
            l->r_still = still[kind];
            l->r_const = cp;
            l->r_nc = nc;
            l->ci += (uint32_t)(4 * nc);
            if (nak)
                list_append(l, list, anim[kind], full, step[kind], alpha, pa, pb, rest);
            pa += 3 * nak + nf;
            pb += 3 * nak + nf;
            continue;
        }
        const int base = kind == OSSAI_KIND_T ? OSSAI_TX : OSSAI_SX;
        if (!anim[kind] && !still[kind]) {
            if (!(skip >> kind & 1u))
                for (int c = 0; c < 3; ++c)
                    for (int v0 = 0; v0 < CHUNK; v0 += LANE_V)
                        v_store(out[base + c] + v0, v_load(rest[base + c] + v0));
            continue;
        }
        l->ci += (uint32_t)(3 * nc);
        for (int v0 = 0; v0 < CHUNK; v0 += LANE_V) {
            const uint32_t part = (uint32_t)(LANE_V == 16 ? 0xFFFFu : (1u << LANE_V) - 1u);
            const uint32_t below = (1u << v0) - 1u;
            const uint32_t am = anim[kind] >> v0 & part, cm = still[kind] >> v0 & part;
            const uint32_t sm = step[kind] >> v0 & part;
            const int before_a = pk_popcount(anim[kind] & below);
            const int before_c = pk_popcount(still[kind] & below);
            const vm is_anim = pk_mask(am);
            const pk_spread sa = pk_spread_make(am), sc = pk_spread_make(cm);
            const vf t = sm ? v_select(pk_mask(sm), held, t_all) : t_all;
            for (int c = 0; c < 3; ++c) {
                const vf r = v_load(rest[base + c] + v0);
                vf v = cm ? pk_spread_over(r, cp + c * nc + before_c, &sc) : r;
                if (am) {
                    const vf a = pk_spread_load(pa + c * nak + before_a, &sa);
                    const vf b = pk_spread_load(pb + c * nak + before_a, &sa);
                    /* ossai_pack_lerp */
                    const vf x = v_add(v_mul(a, v_sub(one, t)), v_mul(b, t));
                    v = v_select(is_anim, x, v);
                }
                v_store(out[base + c] + v0, v);
            }
        }
        pa += 3 * nak;
        pb += 3 * nak;
    }
}

/* The chunk's rotations into out: the list's results where animated, the
 * constants, else the rest. */
static void chunk_last(const lane_state *l, uint32_t skip, const rot_list *list,
                       const float rest[OSSAI_POSE_C][CHUNK], float out[OSSAI_POSE_C][CHUNK])
{
    const uint32_t anim = l->r_anim, still = l->r_still;
    if (!anim && !still && (skip >> OSSAI_KIND_R & 1u))
        return;
    const int nc = l->r_nc;
    for (int v0 = 0; v0 < CHUNK; v0 += LANE_V) {
        const uint32_t part = (uint32_t)(LANE_V == 16 ? 0xFFFFu : (1u << LANE_V) - 1u);
        const uint32_t below = (1u << v0) - 1u;
        const uint32_t am = anim >> v0 & part, cm = still >> v0 & part;
        const int before_a = pk_popcount(anim & below), before_c = pk_popcount(still & below);
        const pk_spread sa = pk_spread_make(am), sc = pk_spread_make(cm);
        for (int c = 0; c < 4; ++c) {
            vf q = v_load(rest[OSSAI_QX + c] + v0);
            if (cm)
                q = pk_spread_over(q, l->r_const + c * nc + before_c, &sc);
            if (am)
                q = pk_spread_over(q, list->row[L_AX + c] + l->r_at + before_a, &sa);
            v_store(out[OSSAI_QX + c] + v0, q);
        }
    }
}

/* The kind (OSSAI_KIND_*) of pose component c. */
static inline uint32_t kind_of(int c)
{
    return c < OSSAI_QX ? OSSAI_KIND_T : c < OSSAI_SX ? OSSAI_KIND_R : OSSAI_KIND_S;
}

/* Lanes [lc, lc + LANE_V) of the batch, one by one. */
static void one_by_one(const ossai_lane_sample_args *a, int lc, bool stream)
{
    const int width = a->width, joints = a->joint_count;
    LANE_ALIGN float rest[OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float rows[LANE_V][OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float tile[OSSAI_POSE_C][LANE_V][LANE_V];
    /* the rows of LANE_V joints, written joint by joint (rows_by_joint) */
    LANE_ALIGN float joint_rows[OSSAI_POSE_C][LANE_V][LANE_V];
    const bool by_joint = rows_by_joint(stream);
    LANE_ALIGN float va[CHUNK_VALUES + LANE_V], vb[CHUNK_VALUES + LANE_V];
    lane_state lanes[LANE_V];
    rot_list list;
    {
        int all_packed = 1;
        for (int l = 0; l < LANE_V; ++l) {
            if (a->packed[lc + l])
                lane_begin(&lanes[l], a->packed[lc + l], a->frame[lc + l], a->funnel);
            else
                all_packed = 0;
        }
        for (int j0 = 0; j0 < joints; j0 += CHUNK) {
            rest_rows(a->rest, j0, joints, rest);
            const uint32_t chunk = (uint32_t)j0 / OSSAI_CHUNK;
            /* kinds at the rest pose in every lane: broadcast, not transposed */
            uint32_t skip = all_packed ? 7u : 0u;
            for (int l = 0; l < LANE_V && skip; ++l)
                skip &= rest_kinds(&lanes[l], chunk);
            list.n = 0;
            for (int l = 0; l < LANE_V; ++l)
                if (a->packed[lc + l])
                    chunk_first(&lanes[l], chunk, a->alpha[lc + l], skip,
                                (const float(*)[CHUNK])rest, rows[l], &list, va, vb);
            list_run(&list);
            for (int l = 0; l < LANE_V; ++l)
                if (a->packed[lc + l])
                    chunk_last(&lanes[l], skip, &list, (const float(*)[CHUNK])rest, rows[l]);
            for (int v0 = 0; v0 < CHUNK && j0 + v0 < joints; v0 += LANE_V) {
                if (!all_packed)
                    for (int l = 0; l < LANE_V; ++l)
                        if (!a->packed[lc + l])
                            sample_lane(a, lc + l, j0 + v0, tile, l);
                const int jn = joints - (j0 + v0) < LANE_V ? joints - (j0 + v0) : LANE_V;
                for (int c = 0; c < OSSAI_POSE_C; ++c) {
                    float *out = a->output + ((size_t)(j0 + v0) * OSSAI_POSE_C + c) * width + lc;
                    const size_t stride = (size_t)OSSAI_POSE_C * width;
                    vf r[LANE_V];
                    if (skip >> kind_of(c) & 1u) {
                        for (int j = 0; j < jn; ++j)
                            r[j] = v_set1(rest[c][v0 + j]);
                    } else {
                        if (all_packed)
                            for (int l = 0; l < LANE_V; ++l)
                                r[l] = v_load(rows[l][c] + v0);
                        else
                            for (int l = 0; l < LANE_V; ++l)
                                r[l] = v_load(a->packed[lc + l] ? rows[l][c] + v0 : tile[c][l]);
                        v_transpose(r);
                    }
                    if (by_joint)
                        for (int j = 0; j < jn; ++j)
                            v_store(joint_rows[c][j], r[j]);
                    else if (jn == LANE_V)
                        store_rows(out, stride, r, LANE_V, stream);
                    else
                        store_rows(out, stride, r, jn, stream);
                }
                if (by_joint)
                    stream_by_joint(a->output + (size_t)(j0 + v0) * OSSAI_POSE_C * width + lc,
                                    (size_t)width, (const float(*)[LANE_V][LANE_V])joint_rows, jn);
            }
        }
    }
}

/* Batches whose lanes play at most this many compressed clips go clip by
 * clip: a clip's rows reach their joint for all its lanes at once, but each
 * joint visits every clip of the batch, and with many clips spreading each
 * lane's values onto its joints (lane by lane) costs less. In the crowd's
 * frame on pab (docs/measurements.md, eighth sitting) clip by clip was the
 * faster up to 6 clips in 16 lanes and as fast at 8 (AVX-512), and up to 4
 * in 8 lanes (AVX2). */
#define FEW_CLIPS (LANE_V / 2)

/* Whether lanes [lc, lc + LANE_V) play at most FEW_CLIPS compressed clips. */
static int few_clips(const ossai_lane_sample_args *a, int lc)
{
    const ossa_clip *seen[FEW_CLIPS];
    int n = 0;
    for (int l = 0; l < LANE_V; ++l) {
        const ossa_clip *clip = a->packed[lc + l];
        int k = 0;
        while (clip && k < n && seen[k] != clip)
            ++k;
        if (!clip || k < n)
            continue;
        if (n == FEW_CLIPS)
            return 0;
        seen[n++] = clip;
    }
    return 1;
}

void OSSAI_ISA_NAME(ossai_packed_kernel)(const ossai_lane_sample_args *a)
{
    const bool stream = streams_rows(a);
    for (int lc = 0; lc < a->width; lc += LANE_V) {
        if (few_clips(a, lc))
            OSSAI_ISA_NAME(ossai_packed_group_lanes)(a, lc, stream);
        else
            one_by_one(a, lc, stream);
    }
}
