/* packed_group_kernels.c - compressed lanes sampled clip by clip: for a
 * batch whose lanes play few clips (packed_kernels.c chooses). Each lane's
 * values of both frames are decoded straight from the packed bits, LANE_V
 * values at a time, and transposed, so that row r holds value r of every
 * lane. The lanes that play one clip (a group) agree on what each value is
 * - which track of which joint - so a group's rows go straight to their
 * joint, and each joint is interpolated once, on whole vectors, with
 * packed_math.h's arithmetic operation for operation (the reference
 * decoder's bits, on every path). Raw lanes in the batch are sampled as the
 * raw kernel does (sample/sample_lane.h). Compiled once per instruction set
 * (core/simd.h). */
#include <string.h>

#include "sample/packed_clip.h"
#include "sample/packed_lanes.h"
#include "sample/sample_lane.h"

#define CHUNK ((int)OSSAI_CHUNK)

/* The most values a chunk animates: 16 joints x (3 tracks x 3 + a w). */
#define CHUNK_VALUES (CHUNK * 10)

/* The values of one lane decoded at a time, per frame: those of a run of
 * chunks (a window) that holds at most this many, and at least one chunk.
 * A clip of up to this many values is decoded in one window. */
#define WINDOW CHUNK_VALUES

/* One clip of the batch and the lanes that play it. */
typedef struct group {
    const ossa_clip *clip;
    pk_clip c; /* its constants: the next chunk's first */
    vm lanes;
    uint32_t bits_of; /* the lanes, bit l for lane l */
    uint32_t k;       /* the next chunk's first value, counted in the window */
    uint32_t done;    /* values of the windows before this one */
    /* the chunk in hand: its masks (per kind animated, constant, held; the
     * full rotations) and per kind its first value, values per component,
     * first constant and constants per component */
    uint32_t any, am[OSSAI_KINDS], cm[OSSAI_KINDS], sm[OSSAI_KINDS], fm;
    uint32_t kk[OSSAI_KINDS], na[OSSAI_KINDS], nc[OSSAI_KINDS];
    const float *kc[OSSAI_KINDS];
} group;

static void group_begin(group *g, const ossa_clip *clip)
{
    g->clip = clip;
    g->c = pk_clip_of(clip);
    g->bits_of = 0;
    g->done = 0;
}

static inline uint32_t group_full(const group *g, uint32_t chunk)
{
    return g->c.full_row >= 0 ? g->c.masks[(uint32_t)g->c.full_row * g->c.chunks + chunk] : 0u;
}

/* The values a chunk of the group's clip stores per frame. */
static uint32_t group_values(const group *g, uint32_t chunk)
{
    const uint16_t *m = g->c.masks + chunk;
    const uint32_t s = g->c.chunks;
    return 3u * (uint32_t)(pk_popcount(m[0]) + pk_popcount(m[s]) + pk_popcount(m[2 * s])) +
           (uint32_t)pk_popcount(group_full(g, chunk));
}

/* Makes `chunk` the group's chunk in hand; the group moves past it. */
static void group_chunk(group *g, uint32_t chunk)
{
    const uint32_t s = g->c.chunks;
    const uint16_t *m = g->c.masks + chunk;
    uint32_t any = 0;
    g->fm = group_full(g, chunk);
    for (int kind = 0; kind < OSSAI_KINDS; ++kind) {
        const uint32_t am = m[(OSSAI_MASK_ANIM + kind) * s];
        const uint32_t cm = m[(OSSAI_MASK_CONST + kind) * s];
        g->am[kind] = am;
        g->cm[kind] = cm;
        g->sm[kind] = g->c.steps ? m[(OSSAI_MASK_STEP + kind) * s] : 0u;
        g->na[kind] = (uint32_t)pk_popcount(am);
        g->nc[kind] = (uint32_t)pk_popcount(cm);
        g->kk[kind] = g->k;
        g->kc[kind] = g->c.constants;
        g->k += 3u * g->na[kind] + (kind == OSSAI_KIND_R ? (uint32_t)pk_popcount(g->fm) : 0u);
        g->c.constants += (kind == OSSAI_KIND_R ? 4u : 3u) * g->nc[kind];
        any |= am | cm;
    }
    g->any = any;
}

/* A segment that lanes of the batch decode from (a slot): a cursor at its
 * widths and ranges and the group whose clip it belongs to; each block's
 * setup for it is made once and shared by every lane frame in it. Slot 0
 * is none: its setup, all zeros, decodes zeros from no bytes (lanes past
 * their group's values, raw lanes). */
typedef struct slot {
    pk_cursor at;
    int g;
} slot;

/* x in the lanes of `lanes`, old in the others; x alone when the batch is
 * one group of every lane (`one`: known when compiled, see joint_rows). */
#define TAKE(one, lanes, x, old) ((one) ? (x) : v_select((lanes), (x), (old)))

/* Group gr's track of `kind` at joint bit `bit` into the rows ra (frame a)
 * and rb (frame b) of its lanes: the decoded rows where it animates (and
 * its lanes into anim, step, full), its constant where it holds still. */
static inline __attribute__((always_inline)) void
group_take(const group *gr, int kind, uint32_t bit, const float (*ta)[LANE_V],
           const float (*tb)[LANE_V], vf ra[OSSAI_POSE_C], vf rb[OSSAI_POSE_C],
           uint32_t anim[OSSAI_KINDS], uint32_t step[OSSAI_KINDS], uint32_t *full, const bool one)
{
    const int base = kind == OSSAI_KIND_T ? OSSAI_TX : kind == OSSAI_KIND_R ? OSSAI_QX : OSSAI_SX;
    const uint32_t below = bit - 1u;
    if (gr->am[kind] & bit) {
        const uint32_t na = gr->na[kind];
        const uint32_t k = gr->kk[kind] + (uint32_t)pk_popcount(gr->am[kind] & below);
        for (int c = 0; c < 3; ++c) {
            ra[base + c] = TAKE(one, gr->lanes, v_load(ta[k + (uint32_t)c * na]), ra[base + c]);
            rb[base + c] = TAKE(one, gr->lanes, v_load(tb[k + (uint32_t)c * na]), rb[base + c]);
        }
        anim[kind] |= gr->bits_of;
        if (gr->sm[kind] & bit)
            step[kind] |= gr->bits_of;
        if (kind == OSSAI_KIND_R && (gr->fm & bit)) {
            const uint32_t kw = gr->kk[kind] + 3u * na + (uint32_t)pk_popcount(gr->fm & below);
            ra[base + 3] = TAKE(one, gr->lanes, v_load(ta[kw]), ra[base + 3]);
            rb[base + 3] = TAKE(one, gr->lanes, v_load(tb[kw]), rb[base + 3]);
            *full |= gr->bits_of;
        }
    } else if (gr->cm[kind] & bit) {
        const uint32_t nc = gr->nc[kind];
        const float *cp = gr->kc[kind] + pk_popcount(gr->cm[kind] & below);
        for (int c = 0; c < (kind == OSSAI_KIND_R ? 4 : 3); ++c)
            ra[base + c] = TAKE(one, gr->lanes, v_set1(cp[(uint32_t)c * nc]), ra[base + c]);
    }
}

/* group_take for a batch of one group of every lane: the track of `kind`
 * from its rows where it animates, its constant where it holds still, else
 * the rest pose r0 - each row made once (frame b's only where read). */
static inline __attribute__((always_inline)) void
one_take(const group *gr, int kind, uint32_t bit, const float *r0, const float (*ta)[LANE_V],
         const float (*tb)[LANE_V], vf ra[OSSAI_POSE_C], vf rb[OSSAI_POSE_C],
         uint32_t anim[OSSAI_KINDS], uint32_t step[OSSAI_KINDS], uint32_t *full)
{
    const int base = kind == OSSAI_KIND_T ? OSSAI_TX : kind == OSSAI_KIND_R ? OSSAI_QX : OSSAI_SX;
    const int n = kind == OSSAI_KIND_R ? 4 : 3;
    if (gr->am[kind] & bit) {
        if (kind == OSSAI_KIND_R && !(gr->fm & bit)) /* w: rebuilt from x y z */
            ra[OSSAI_QW] = rb[OSSAI_QW] = v_zero();
        group_take(gr, kind, bit, ta, tb, ra, rb, anim, step, full, true);
    } else if (gr->cm[kind] & bit)
        group_take(gr, kind, bit, ta, tb, ra, rb, anim, step, full, true);
    else
        for (int c = base; c < base + n; ++c)
            ra[c] = v_set1(r0[c]);
}

/* What a batch's joints are assembled from: the groups, the window's
 * transposed values of both frames, the raw lanes' rows of the chunk in
 * hand, and per lane the interpolation factor and a held track's. */
typedef struct batch {
    group *groups;
    int group_count;
    const float (*ta)[LANE_V], (*tb)[LANE_V];
    /* [joint / LANE_V][component][joint % LANE_V]: lanes, or NULL */
    const float (*raw)[OSSAI_POSE_C][LANE_V][LANE_V];
    vm raw_lanes;
    vf t, held;
} batch;

/* Joint j (jj in its chunk): frame a's and b's rows gathered from the
 * groups over the rest pose, interpolated where a lane animates, and its
 * ten rows written to out (rows `stride` floats apart). `one`: the batch is
 * one group that has every lane (no raw lanes), so a track animates, holds
 * or stores w in every lane or in none, and rows need no selecting - the
 * same arithmetic on the same lanes, compiled once for it (a batch of
 * characters kept in clip order mostly is). */
static inline __attribute__((always_inline)) void joint_rows(const batch *bt,
                                                             const ossa_transform *rest, int j,
                                                             int jj, float *out, size_t stride,
                                                             bool stream, const bool one)
{
    static const ossa_transform identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
    const float *r0 = rest ? &rest[j].translation.x : &identity.translation.x;
    vf ra[OSSAI_POSE_C], rb[OSSAI_POSE_C];
    uint32_t anim[OSSAI_KINDS] = {0, 0, 0}, step[OSSAI_KINDS] = {0, 0, 0}, full = 0;
    const uint32_t bit = 1u << jj;
    if (one) { /* each kind from one place: rows, constant or rest pose */
        one_take(&bt->groups[0], OSSAI_KIND_T, bit, r0, bt->ta, bt->tb, ra, rb, anim, step, &full);
        one_take(&bt->groups[0], OSSAI_KIND_R, bit, r0, bt->ta, bt->tb, ra, rb, anim, step, &full);
        one_take(&bt->groups[0], OSSAI_KIND_S, bit, r0, bt->ta, bt->tb, ra, rb, anim, step, &full);
    } else
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            ra[c] = rb[c] = v_set1(r0[c]);
    for (int g = 0; g < (one ? 0 : bt->group_count); ++g) {
        const group *gr = &bt->groups[g];
        if (!(gr->any & bit))
            continue;
        group_take(gr, OSSAI_KIND_T, bit, bt->ta, bt->tb, ra, rb, anim, step, &full, one);
        group_take(gr, OSSAI_KIND_R, bit, bt->ta, bt->tb, ra, rb, anim, step, &full, one);
        group_take(gr, OSSAI_KIND_S, bit, bt->ta, bt->tb, ra, rb, anim, step, &full, one);
    }
    const vf v_one = v_set1(1.0f);
    for (int kind = OSSAI_KIND_T; kind <= OSSAI_KIND_S; kind += OSSAI_KIND_S - OSSAI_KIND_T) {
        if (!anim[kind])
            continue;
        const int base = kind == OSSAI_KIND_T ? OSSAI_TX : OSSAI_SX;
        const vf t = step[kind] ? TAKE(one, pk_mask(step[kind]), bt->held, bt->t) : bt->t;
        const vf u = v_sub(v_one, t);
        const vm lanes = pk_mask(anim[kind]);
        /* ossai_pack_lerp */
        for (int c = 0; c < 3; ++c)
            ra[base + c] = TAKE(one, lanes, v_add(v_mul(ra[base + c], u), v_mul(rb[base + c], t)),
                                ra[base + c]);
    }
    if (anim[OSSAI_KIND_R]) {
        const vf t = step[OSSAI_KIND_R]
                         ? TAKE(one, pk_mask(step[OSSAI_KIND_R]), bt->held, bt->t)
                         : bt->t;
        vf qa[4], qb[4], r[4], q[4];
        for (int c = 0; c < 4; ++c) {
            qa[c] = ra[OSSAI_QX + c];
            qb[c] = rb[OSSAI_QX + c];
            r[c] = v_set1(r0[OSSAI_QX + c]);
        }
        pk_rotation(qa, qb, r, pk_mask(full), t, q);
        const vm lanes = pk_mask(anim[OSSAI_KIND_R]);
        for (int c = 0; c < 4; ++c)
            ra[OSSAI_QX + c] = TAKE(one, lanes, q[c], ra[OSSAI_QX + c]);
    }
    if (bt->raw)
        for (int c = 0; c < OSSAI_POSE_C; ++c)
            ra[c] = v_select(bt->raw_lanes, v_load(bt->raw[jj / LANE_V][c][jj % LANE_V]), ra[c]);
    store_rows(out, stride, ra, OSSAI_POSE_C, stream);
}

/* The raw lanes' rows of joints j0 .. j0 + CHUNK: each raw lane sampled
 * into its row of a tile per LANE_V joints (sample_lane; the other lanes'
 * rows hold zeros), then each component's tile transposed in place. */
static void raw_rows(const ossai_lane_sample_args *a, int lc, int j0,
                     float tiles[CHUNK / LANE_V][OSSAI_POSE_C][LANE_V][LANE_V])
{
    for (int v0 = 0; v0 < CHUNK && j0 + v0 < a->joint_count; v0 += LANE_V) {
        float(*tile)[LANE_V][LANE_V] = tiles[v0 / LANE_V];
        for (int l = 0; l < LANE_V; ++l)
            if (!a->packed[lc + l])
                sample_lane(a, lc + l, j0 + v0, tile, l);
        tiles_transpose(tile);
    }
}

/* Rows k0 .. k0 + LANE_V of the window's values (size[g] for group g) of
 * both frames into ra[l] and rb[l], lane by lane (zeros past a lane's
 * values): each slot's setup made once for the block (slot 0's stays
 * zero), then every lane's two frames cut with theirs (slot_a, slot_b) -
 * sixteen lanes alike, whatever their clips and segments. Each lane's bits
 * (bit_a, bit_b) move past its values. */
static inline __attribute__((always_inline)) void
block_values(const group *groups, const slot *slots, int slot_count, pk_setup *setups,
             const int *slot_a, const int *slot_b, const uint8_t *const *bits,
             const uint8_t *const *bits_end, const uint32_t *size, uint32_t k0, uint64_t *bit_a,
             uint64_t *bit_b, vf *ra, vf *rb, const bool funnel)
{
    for (int s = 1; s < slot_count; ++s) {
        const group *g = &groups[slots[s].g];
        const uint32_t n = size[slots[s].g];
        if (n <= k0) {
            setups[s] = setups[0];
            continue;
        }
        const pk_cursor at = pk_cursor_moved(&slots[s].at, g->done + k0);
        pk_setup_make(&setups[s], &at, n - k0 < (uint32_t)LANE_V ? (int)(n - k0) : LANE_V);
    }
    for (int l = 0; l < LANE_V; ++l) {
        const pk_setup *sa = &setups[slot_a[l]], *sb = &setups[slot_b[l]];
        ra[l] = pk_frame(sa, bits[l], bits_end[l], bit_a[l], funnel);
        rb[l] = pk_frame(sb, bits[l], bits_end[l], bit_b[l], funnel);
        bit_a[l] += sa->run;
        bit_b[l] += sb->run;
    }
}

/* The slot of the segment whose widths `at` points at, added if new. */
static int slot_of(slot *slots, int *slot_count, const pk_cursor *at, int g)
{
    int s = 1;
    while (s < *slot_count && slots[s].at.width != at->width)
        ++s;
    if (s == *slot_count) {
        slots[s].at = *at;
        slots[s].g = g;
        ++*slot_count;
    }
    return s;
}

/* ossai_packed_group_lanes, compiled once per `funnel` (pk_frame). */
static inline __attribute__((always_inline)) void
group_lanes(const ossai_lane_sample_args *a, int lc, bool stream, const bool funnel)
{
    group groups[LANE_V];
    int ng = 0;
    uint32_t raw_bits = 0;
    /* per lane: the slots of its two frames, its clip's bits and each
     * frame's next value's bit (slot 0 and no bytes: decodes zeros) */
    slot slots[2 * LANE_V + 1];
    int slot_count = 1, slot_a[LANE_V], slot_b[LANE_V];
    const uint8_t *bits[LANE_V], *bits_end[LANE_V];
    uint64_t bit_a[LANE_V], bit_b[LANE_V];
    static const uint8_t no_bytes[1];
    for (int l = 0; l < LANE_V; ++l) {
        const ossa_clip *clip = a->packed[lc + l];
        slot_a[l] = slot_b[l] = 0;
        bits[l] = bits_end[l] = no_bytes;
        bit_a[l] = bit_b[l] = 0;
        if (!clip) {
            raw_bits |= 1u << l;
            continue;
        }
        int g = 0;
        while (g < ng && groups[g].clip != clip)
            ++g;
        if (g == ng)
            group_begin(&groups[ng++], clip);
        groups[g].bits_of |= 1u << l;
        if (ossai_clip_packed_header(clip)->block.component_count) {
            pk_cursor ca, cb;
            pk_cursors_at(clip, a->frame[lc + l], &ca, &cb);
            slot_a[l] = slot_of(slots, &slot_count, &ca, g);
            slot_b[l] = slot_of(slots, &slot_count, &cb, g);
            bits[l] = groups[g].c.bits;
            bits_end[l] = groups[g].c.bits_end;
            bit_a[l] = ca.bit;
            bit_b[l] = cb.bit;
        }
    }
    for (int g = 0; g < ng; ++g)
        groups[g].lanes = pk_mask(groups[g].bits_of);
    const bool one = ng == 1 && groups[0].bits_of == (1u << LANE_V) - 1u;
    /* each slot's setup for the block in hand; slot 0's, all zeros, for good */
    pk_setup setups[2 * LANE_V + 1];
    memset(&setups[0], 0, sizeof setups[0]);
    /* the window's values, LANE_V rows at a time (a row past the lane's
     * values holds zeros) */
    LANE_ALIGN float ta[WINDOW + LANE_V][LANE_V], tb[WINDOW + LANE_V][LANE_V];
    LANE_ALIGN float raw[CHUNK / LANE_V][OSSAI_POSE_C][LANE_V][LANE_V];
    LANE_ALIGN float alpha[LANE_V], held[LANE_V];
    for (int l = 0; l < LANE_V; ++l) {
        alpha[l] = a->alpha[lc + l];
        held[l] = ossai_step_alpha(alpha[l]);
    }
    batch bt;
    bt.groups = groups;
    bt.group_count = ng;
    bt.ta = (const float(*)[LANE_V])ta;
    bt.tb = (const float(*)[LANE_V])tb;
    bt.raw = raw_bits ? (const float(*)[OSSAI_POSE_C][LANE_V][LANE_V])raw : NULL;
    bt.raw_lanes = pk_mask(raw_bits);
    bt.t = v_load(alpha);
    bt.held = v_load(held);
    const int joints = a->joint_count;
    const uint32_t chunks = (uint32_t)(joints + CHUNK - 1) / OSSAI_CHUNK;
    const size_t stride = (size_t)a->width;
    for (uint32_t c0 = 0, c1; c0 < chunks; c0 = c1) {
        /* the window: chunks c0 .. c1 whose values fit in every group */
        uint32_t size[LANE_V] = {0}, most = 0;
        for (c1 = c0; c1 < chunks; ++c1) {
            uint32_t grown[LANE_V], fits = 1;
            for (int g = 0; g < ng; ++g) {
                grown[g] = size[g] + group_values(&groups[g], c1);
                fits &= grown[g] <= WINDOW;
            }
            if (!fits && c1 > c0)
                break;
            for (int g = 0; g < ng; ++g) {
                size[g] = grown[g];
                most = size[g] > most ? size[g] : most;
            }
        }
        for (uint32_t k0 = 0; k0 < most; k0 += LANE_V) {
            vf ra[LANE_V], rb[LANE_V];
            block_values(groups, slots, slot_count, setups, slot_a, slot_b, bits, bits_end, size,
                         k0, bit_a, bit_b, ra, rb, funnel);
            v_transpose(ra);
            v_transpose(rb);
            for (int k = 0; k < LANE_V; ++k) {
                v_store(ta[k0 + (uint32_t)k], ra[k]);
                v_store(tb[k0 + (uint32_t)k], rb[k]);
            }
        }
        for (int g = 0; g < ng; ++g) {
            groups[g].k = 0;
            groups[g].done += size[g];
        }
        for (uint32_t chunk = c0; chunk < c1; ++chunk) {
            const int j0 = (int)chunk * CHUNK;
            for (int g = 0; g < ng; ++g)
                group_chunk(&groups[g], chunk);
            if (raw_bits) {
                /* rows of lanes that are not raw: zeros, selected away */
                memset(raw, 0, sizeof raw);
                raw_rows(a, lc, j0, raw);
            }
            const int jn = joints - j0 < CHUNK ? joints - j0 : CHUNK;
            for (int jj = 0; jj < jn; ++jj) {
                float *out = a->output + (size_t)(j0 + jj) * OSSAI_POSE_C * stride + lc;
                if (one)
                    joint_rows(&bt, a->rest, j0 + jj, jj, out, stride, stream, true);
                else
                    joint_rows(&bt, a->rest, j0 + jj, jj, out, stride, stream, false);
            }
        }
    }
}

void OSSAI_ISA_NAME(ossai_packed_group_lanes)(const ossai_lane_sample_args *a, int lc, bool stream)
{
    if (a->funnel)
        group_lanes(a, lc, stream, true);
    else
        group_lanes(a, lc, stream, false);
}
