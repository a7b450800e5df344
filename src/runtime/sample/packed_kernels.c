/* packed_kernels.c - the lane sampling kernel for batches holding a
 * compressed clip: each lane's two frames decoded straight from the packed
 * bits, 16 joints (one mask chunk) at a time, interpolated as the reference
 * decoder does (sample/packed_math.h, operation for operation, so the two
 * agree to the bit), then transposed into the lane layout. Raw lanes in the
 * batch take the raw kernel's path (sample/sample_lane.h). Compiled once per
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
    const ossa_clip *clip;
    const ossai_clip_packed *p;
    const uint16_t *masks;
    const float *constants, *mins, *exts;
    const uint8_t *bits, *bits_end;
    uint32_t chunks, k, ci; /* components and constants read so far */
    int steps, same;        /* STEP rows present; both frames in one segment */
    int full_row;           /* the full rotations' mask row, or -1 */
    ossai_packed_frame a, b;
    uint32_t r_anim, r_full, r_step; /* the chunk in flight's animated rotations */
} lane_state;

static void lane_begin(lane_state *l, const ossa_clip *clip, uint32_t f0)
{
    const ossai_clip_packed *p = ossai_clip_packed_header(clip);
    const ossai_packed_block *b = &p->block;
    l->clip = clip;
    l->p = p;
    l->masks = (const uint16_t *)(const void *)((const char *)clip + p->masks_offset);
    l->constants = (const float *)(const void *)((const char *)clip + p->constants_offset);
    l->mins = (const float *)(const void *)((const char *)clip + b->ranges_offset);
    l->exts = l->mins + b->component_count;
    l->bits = (const uint8_t *)clip + b->bits_offset;
    l->bits_end = l->bits + b->bits_bytes;
    l->chunks = clip->joint_stride / OSSAI_CHUNK;
    l->k = l->ci = 0;
    l->steps = (clip->flags & OSSAI_CLIP_HAS_STEP) != 0;
    l->full_row = (clip->flags & OSSAI_CLIP_FULL_ROTATIONS) ? (int)ossai_mask_full_row(clip->flags) : -1;
    if (b->component_count) {
        const uint32_t f1 = clip->frame_count > 1 ? f0 + 1 : f0;
        l->a = ossai_packed_frame_at(clip, b, f0);
        l->b = ossai_packed_frame_at(clip, b, f1);
        l->same = (f0 >> b->segment_shift) == (f1 >> b->segment_shift);
    }
}

/* Decodes the `count` components of the lane's next chunk, frames a and b
 * (one decode of the ranges when both frames are in one segment). */
static void decode_chunk(lane_state *l, int count, float *va, float *vb)
{
    pk_run r;
    r.bits_end = l->bits_end;
    r.mins = l->mins + l->k;
    r.exts = l->exts + l->k;
    r.width = l->a.width + l->k;
    r.smin = l->a.smin ? l->a.smin + l->k : NULL;
    r.sext = l->a.sext ? l->a.sext + l->k : NULL;
    if (l->same) {
        const uint32_t used = pk_decode(&r, l->bits, l->a.bit, l->b.bit, count, va, vb);
        l->a.bit += used;
        l->b.bit += used;
    } else {
        l->a.bit += pk_decode(&r, l->bits, l->a.bit, 0, count, va, NULL);
        r.width = l->b.width + l->k;
        r.smin = l->b.smin ? l->b.smin + l->k : NULL;
        r.sext = l->b.sext ? l->b.sext + l->k : NULL;
        l->b.bit += pk_decode(&r, l->bits, l->b.bit, 0, count, vb, NULL);
    }
    l->k += (uint32_t)count;
}

/* The rest pose of joints j0 .. j0 + 16, as rows of the pose components
 * (the identity past the last joint, or everywhere without a rest pose). */
static void rest_rows(const ossa_transform *rest, int j0, int joints,
                      float rows[OSSAI_POSE_C][CHUNK])
{
    static const float identity[OSSAI_POSE_C] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1};
    const int n = !rest ? 0 : joints - j0 < CHUNK ? joints - j0 : CHUNK;
    for (int j = 0; j < n; ++j) {
        const float *v = &rest[j0 + j].translation.x;
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            rows[c][j] = v[c];
    }
    for (int j = n; j < CHUNK; ++j)
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            rows[c][j] = identity[c];
}

/* The kinds (bit OSSAI_KIND_*) that lane l's chunk leaves at the rest pose. */
static uint32_t rest_kinds(const lane_state *l, uint32_t chunk)
{
    uint32_t kinds = 0;
    for (int kind = 0; kind < OSSAI_KINDS; ++kind)
        if (!(l->masks[(OSSAI_MASK_ANIM + kind) * l->chunks + chunk] |
              l->masks[(OSSAI_MASK_CONST + kind) * l->chunks + chunk]))
            kinds |= 1u << kind;
    return kinds;
}

/* ossai_pack_rotation_w, then ossai_pack_rotation, on one vector of joints:
 * frames a and b (x y z; w where `full`, else rebuilt), rest rotation r,
 * factor t; the result into q. The reference's operations in its order. */
static inline void rotation_lerp(vf a[4], vf b[4], vm full, const vf r[4], vf t, vf q[4])
{
    const vf one = v_set1(1.0f);
    for (int s = 0; s < 2; ++s) {
        vf *x = s ? b : a;
        vf d = v_mul(x[0], x[0]);
        d = v_add(d, v_mul(x[1], x[1]));
        d = v_add(d, v_mul(x[2], x[2]));
        x[3] = v_select(full, x[3], v_sqrt(v_max(v_sub(one, d), v_zero())));
    }
    /* shortest-arc lerp, after the rest rotation, normalised */
    vf d = v_mul(a[0], b[0]);
    for (int c = 1; c < 4; ++c)
        d = v_add(d, v_mul(a[c], b[c]));
    const vm flip = v_lt(d, v_zero());
    vf m[4], rq[4];
    for (int c = 0; c < 4; ++c)
        m[c] = v_add(a[c], v_mul(v_sub(v_negate_where(b[c], flip), a[c]), t));
    rq[0] = v_add(v_mul(r[3], m[0]), v_mul(r[0], m[3]));
    rq[0] = v_add(rq[0], v_mul(r[1], m[2]));
    rq[0] = v_sub(rq[0], v_mul(r[2], m[1]));
    rq[1] = v_sub(v_mul(r[3], m[1]), v_mul(r[0], m[2]));
    rq[1] = v_add(rq[1], v_mul(r[1], m[3]));
    rq[1] = v_add(rq[1], v_mul(r[2], m[0]));
    rq[2] = v_add(v_mul(r[3], m[2]), v_mul(r[0], m[1]));
    rq[2] = v_sub(rq[2], v_mul(r[1], m[0]));
    rq[2] = v_add(rq[2], v_mul(r[2], m[3]));
    rq[3] = v_sub(v_mul(r[3], m[3]), v_mul(r[0], m[0]));
    rq[3] = v_sub(rq[3], v_mul(r[1], m[1]));
    rq[3] = v_sub(rq[3], v_mul(r[2], m[2]));
    vf len2 = v_mul(rq[0], rq[0]);
    for (int c = 1; c < 4; ++c)
        len2 = v_add(len2, v_mul(rq[c], rq[c]));
    const vm ok = v_and_m(v_gt(len2, v_zero()), v_lt(len2, v_set1(INFINITY)));
    const vf inv = v_div(one, v_sqrt(len2));
    for (int c = 0; c < 4; ++c)
        q[c] = v_select(ok, v_mul(rq[c], inv), c == 3 ? one : v_zero());
}

/* Rows of one lane's animated rotations in a chunk: the two frames' x y z
 * w (w 0 where it is rebuilt) and the interpolation factor. */
enum { R_A = 0, R_B = 4, R_T = 8, R_ROWS = 9 };

/* One lane's chunk of 16 joints: its values decoded, then translations and
 * scales interpolated on vectors of the chunk's joints (animated values
 * expanded onto their joints' lanes, constants onto theirs, the rest
 * elsewhere) into out[c][j] (pose component c of joint j0 + j), and the
 * rotations' constants or rest too. Animated rotations go to rot as rows
 * (R_*), for the caller to interpolate across the batch's lanes, joint by
 * joint, once they are transposed (their maths is long, and clips animate
 * few rotations: no vector of it is spent on a joint no lane animates).
 * The rows of the kinds in `skip` (at the rest pose in every lane of the
 * batch, written by the caller) are left alone. va, vb: room for a chunk's
 * values. */
static void chunk_lane(lane_state *l, uint32_t chunk, float alpha, uint32_t skip,
                       const float rest[OSSAI_POSE_C][CHUNK], float out[OSSAI_POSE_C][CHUNK],
                       float rrows[R_ROWS][CHUNK], float *va, float *vb)
{
    const uint32_t chunks = l->chunks;
    const uint16_t *masks = l->masks + chunk;
    uint32_t anim[3], still[3], step[3];
    const uint32_t full = l->full_row >= 0 ? masks[(uint32_t)l->full_row * chunks] : 0u;
    const int nf = pk_popcount(full);
    int count = nf, na[3];
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        anim[kind] = masks[(OSSAI_MASK_ANIM + kind) * chunks];
        still[kind] = masks[(OSSAI_MASK_CONST + kind) * chunks];
        step[kind] = l->steps ? masks[(OSSAI_MASK_STEP + kind) * chunks] : 0u;
        na[kind] = pk_popcount(anim[kind]);
        count += 3 * na[kind];
    }
    if (count)
        decode_chunk(l, count, va, vb);
    l->r_anim = anim[OSSAI_KIND_R];
    l->r_full = full;
    l->r_step = step[OSSAI_KIND_R];
    const vf one = v_set1(1.0f), held = v_set1(ossai_step_alpha(alpha)), t_all = v_set1(alpha);
    const uint32_t part = (uint32_t)(LANE_V == 16 ? 0xFFFFu : (1u << LANE_V) - 1u);
    const float *pa = va, *pb = vb;
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        const int nak = na[kind], nc = pk_popcount(still[kind]);
        const int rot = kind == OSSAI_KIND_R, comps = rot ? 4 : 3;
        const int base = kind == OSSAI_KIND_T ? OSSAI_TX : rot ? OSSAI_QX : OSSAI_SX;
        const float *cp = l->constants + l->ci; /* rows x y z (w) of the constant tracks */
        if (!anim[kind] && !still[kind]) {
            if (!(skip >> kind & 1u))
                for (int c = 0; c < comps; ++c)
                    for (int v0 = 0; v0 < CHUNK; v0 += LANE_V)
                        v_store(out[base + c] + v0, v_load(rest[base + c] + v0));
            continue;
        }
        l->ci += (uint32_t)(comps * nc);
        for (int v0 = 0; v0 < CHUNK; v0 += LANE_V) {
            const uint32_t below = (1u << v0) - 1u;
            const uint32_t am = anim[kind] >> v0 & part, cm = still[kind] >> v0 & part;
            const uint32_t sm = step[kind] >> v0 & part;
            const int before_a = pk_popcount(anim[kind] & below);
            const int before_c = pk_popcount(still[kind] & below);
            vf v[4], r[4];
            for (int c = 0; c < comps; ++c) {
                r[c] = v_load(rest[base + c] + v0);
                v[c] = r[c];
            }
            if (cm) {
                const vm is_const = pk_mask(cm);
                const pk_spread sc = pk_spread_make(cm);
                for (int c = 0; c < comps; ++c)
                    v[c] = v_select(is_const, pk_spread_load(cp + c * nc + before_c, &sc), v[c]);
            }
            if (am) {
                const vm is_anim = pk_mask(am);
                const vf t = sm ? v_select(pk_mask(sm), held, t_all) : t_all;
                const pk_spread sa = pk_spread_make(am);
                if (rot) {
                    const uint32_t fm = full >> v0 & part;
                    for (int c = 0; c < 3; ++c) {
                        v_store(rrows[R_A + c] + v0, pk_spread_load(pa + c * nak + before_a, &sa));
                        v_store(rrows[R_B + c] + v0, pk_spread_load(pb + c * nak + before_a, &sa));
                    }
                    vf aw = v_zero(), bw = v_zero();
                    if (fm) {
                        const int before_f = pk_popcount(full & below);
                        const pk_spread sf = pk_spread_make(fm);
                        aw = pk_spread_load(pa + 3 * nak + before_f, &sf);
                        bw = pk_spread_load(pb + 3 * nak + before_f, &sf);
                    }
                    v_store(rrows[R_A + 3] + v0, aw);
                    v_store(rrows[R_B + 3] + v0, bw);
                    v_store(rrows[R_T] + v0, t);
                } else {
                    for (int c = 0; c < 3; ++c) { /* ossai_pack_lerp */
                        const vf a = pk_spread_load(pa + c * nak + before_a, &sa);
                        const vf b = pk_spread_load(pb + c * nak + before_a, &sa);
                        v[c] = v_select(is_anim, v_add(v_mul(a, v_sub(one, t)), v_mul(b, t)), v[c]);
                    }
                }
            }
            for (int c = 0; c < comps; ++c)
                v_store(out[base + c] + v0, v[c]);
        }
        pa += 3 * nak + (rot ? nf : 0);
        pb += 3 * nak + (rot ? nf : 0);
    }
}

/* The kind (OSSAI_KIND_*) of pose component c. */
static inline uint32_t kind_of(int c)
{
    return c < OSSAI_QX ? OSSAI_KIND_T : c < OSSAI_SX ? OSSAI_KIND_R : OSSAI_KIND_S;
}

/* The batch's animated rotations in the joint group v0 .. v0 + LANE_V of
 * the chunk, interpolated joint by joint across the lanes: rows (R_*) of
 * the lanes that animate a rotation there transposed, each joint that any
 * lane animates through rotation_lerp, after its rest rotation (the same in
 * every lane). The results go to q[c][j] and the lanes that take them to
 * lanes[j]; the others' are 0. */
static void batch_rotations(const lane_state *lanes, const ossai_lane_sample_args *a, int lc,
                            int v0, const float rest[OSSAI_POSE_C][CHUNK],
                            const float rrows[LANE_V][R_ROWS][CHUNK], float q[4][LANE_V][LANE_V],
                            uint32_t lane_bits[LANE_V])
{
    static const float zeros[LANE_V];
    const uint32_t part = (uint32_t)(LANE_V == 16 ? 0xFFFFu : (1u << LANE_V) - 1u);
    uint32_t any = 0, full = 0, step = 0;
    uint32_t full_bits[LANE_V], step_bits[LANE_V];
    for (int j = 0; j < LANE_V; ++j)
        lane_bits[j] = full_bits[j] = step_bits[j] = 0;
    for (int l = 0; l < LANE_V; ++l) {
        if (!a->packed[lc + l])
            continue;
        const uint32_t am = lanes[l].r_anim >> v0 & part;
        for (uint32_t m = am; m; m &= m - 1)
            lane_bits[__builtin_ctz(m)] |= 1u << l;
        any |= am;
        const uint32_t fm = lanes[l].r_full >> v0 & am, sm = lanes[l].r_step >> v0 & am;
        for (uint32_t m = fm; m; m &= m - 1)
            full_bits[__builtin_ctz(m)] |= 1u << l;
        for (uint32_t m = sm; m; m &= m - 1)
            step_bits[__builtin_ctz(m)] |= 1u << l;
        full |= fm;
        step |= sm;
    }
    if (!any)
        return;
    /* rows R_A .. R_T, transposed: t[row][j] is joint v0 + j across lanes */
    LANE_ALIGN float t[R_ROWS][LANE_V][LANE_V];
    for (int row = 0; row < R_ROWS; ++row) {
        if ((row == R_A + 3 || row == R_B + 3) && !full)
            continue;
        if (row == R_T && !step)
            continue;
        vf r[LANE_V];
        for (int l = 0; l < LANE_V; ++l)
            r[l] = v_load(a->packed[lc + l] && (lanes[l].r_anim >> v0 & part)
                              ? rrows[l][row] + v0
                              : zeros);
        v_transpose(r);
        for (int j = 0; j < LANE_V; ++j)
            v_store(t[row][j], r[j]);
    }
    const vf alpha = v_load(a->alpha + lc);
    LANE_ALIGN float held_f[LANE_V];
    if (step)
        for (int l = 0; l < LANE_V; ++l)
            held_f[l] = ossai_step_alpha(a->alpha[lc + l]);
    for (uint32_t m = any; m; m &= m - 1) {
        const int j = __builtin_ctz(m);
        vf qa[4], qb[4], r[4], out[4];
        for (int c = 0; c < 3; ++c) {
            qa[c] = v_load(t[R_A + c][j]);
            qb[c] = v_load(t[R_B + c][j]);
        }
        const vm is_full = pk_mask(full_bits[j]);
        qa[3] = full_bits[j] ? v_load(t[R_A + 3][j]) : v_zero();
        qb[3] = full_bits[j] ? v_load(t[R_B + 3][j]) : v_zero();
        const vf tj = step_bits[j] ? v_select(pk_mask(step_bits[j]), v_load(held_f), alpha) : alpha;
        for (int c = 0; c < 4; ++c)
            r[c] = v_set1(rest[OSSAI_QX + c][v0 + j]);
        rotation_lerp(qa, qb, is_full, r, tj, out);
        for (int c = 0; c < 4; ++c)
            v_store(q[c][j], out[c]);
    }
}

void OSSAI_ISA_NAME(ossai_packed_kernel)(const ossai_lane_sample_args *a)
{
    const int width = a->width, joints = a->joint_count;
    LANE_ALIGN float rest[OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float rows[LANE_V][OSSAI_POSE_C][CHUNK];
    LANE_ALIGN float rrows[LANE_V][R_ROWS][CHUNK];
    LANE_ALIGN float tile[OSSAI_POSE_C][LANE_V][LANE_V];
    LANE_ALIGN float rq[4][LANE_V][LANE_V];
    LANE_ALIGN float va[CHUNK_VALUES + LANE_V], vb[CHUNK_VALUES + LANE_V];
    lane_state lanes[LANE_V];
    for (int lc = 0; lc < width; lc += LANE_V) {
        int all_packed = 1;
        for (int l = 0; l < LANE_V; ++l) {
            if (a->packed[lc + l])
                lane_begin(&lanes[l], a->packed[lc + l], a->frame[lc + l]);
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
            for (int l = 0; l < LANE_V; ++l)
                if (a->packed[lc + l])
                    chunk_lane(&lanes[l], chunk, a->alpha[lc + l], skip,
                               (const float(*)[CHUNK])rest, rows[l], rrows[l], va, vb);
            for (int v0 = 0; v0 < CHUNK && j0 + v0 < joints; v0 += LANE_V) {
                if (!all_packed)
                    for (int l = 0; l < LANE_V; ++l)
                        if (!a->packed[lc + l])
                            sample_lane(a, lc + l, j0 + v0, tile, l);
                uint32_t rlanes[LANE_V];
                batch_rotations(lanes, a, lc, v0, (const float(*)[CHUNK])rest,
                                (const float(*)[R_ROWS][CHUNK])rrows, rq, rlanes);
                const int jn = joints - (j0 + v0) < LANE_V ? joints - (j0 + v0) : LANE_V;
                for (int c = 0; c < OSSAI_POSE_C; ++c) {
                    float *out = a->output + ((size_t)(j0 + v0) * OSSAI_POSE_C + c) * width + lc;
                    if (skip >> kind_of(c) & 1u) {
                        for (int j = 0; j < jn; ++j)
                            v_store(out + (size_t)j * OSSAI_POSE_C * width, v_set1(rest[c][v0 + j]));
                        continue;
                    }
                    vf r[LANE_V];
                    if (all_packed)
                        for (int l = 0; l < LANE_V; ++l)
                            r[l] = v_load(rows[l][c] + v0);
                    else
                        for (int l = 0; l < LANE_V; ++l)
                            r[l] = v_load(a->packed[lc + l] ? rows[l][c] + v0 : tile[c][l]);
                    v_transpose(r);
                    if (kind_of(c) == OSSAI_KIND_R)
                        for (int j = 0; j < LANE_V; ++j)
                            if (rlanes[j])
                                r[j] = v_select(pk_mask(rlanes[j]), v_load(rq[c - OSSAI_QX][j]), r[j]);
                    if (jn == LANE_V)
                        for (int j = 0; j < LANE_V; ++j)
                            v_store(out + (size_t)j * OSSAI_POSE_C * width, r[j]);
                    else
                        for (int j = 0; j < jn; ++j)
                            v_store(out + (size_t)j * OSSAI_POSE_C * width, r[j]);
                }
            }
        }
    }
}
