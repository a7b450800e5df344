/* clip_pack.c - uniform frames of scalar components -> a packed block: clip
 * and segment ranges, a bit width per component and segment found by a
 * search against the caller's error function, the bits. The values a width
 * gives are computed with the runtime's own arithmetic (packed_math.h), so
 * the error measured is the error the runtime will make. */
#include "clip_pack.h"

#include <math.h>
#include <string.h>

#include "blob/format.h"
#include "sample/packed_math.h"

#define DEFAULT_SOLO_SHARE 1.0
#define DEFAULT_TARGET 0.97
/* A component not yet quantised: its decoded value is the exact one. */
#define EXACT 0xFFu

static const int default_shifts[] = {5, 31};
/* One segment over the whole clip is tried up to this many frames (its
 * search measures every time of the clip at once). */
#define WHOLE_CLIP_FRAMES 256

/* One segment being searched. */
typedef struct search {
    const ossai_pack_input *in;
    const ossai_pack_oracle *oracle;
    int n, f0, f1;         /* the segment's frames [f0, f1) */
    int first;             /* the window's first frame (f0 - 1, or 0) */
    int last;              /* its last: the next segment's first frame (as the source
                              has it: the search leaves room for it), or f1 - 1 */
    int single;            /* one segment: the clip range stretches instead */
    float *clip_min, *clip_ext;
    float *seg_min, *seg_max; /* per component over the segment */
    uint8_t *width, *smin, *sext;
    uint8_t *solo;         /* per component: the previous segment's solo width */
    int exact_search;      /* phase 2 measures every candidate (slow) */
    float *dec;            /* window: [(f - first) * n + k] */
    int **track_comps;     /* per track: its components, -1 ended */
} search;

static float source(const search *s, int f, int k)
{
    return s->in->values[(size_t)f * (size_t)s->n + (size_t)k];
}

/* The smallest float extent e >= x such that lo + e covers hi. */
static float extent_covering(float lo, float hi)
{
    float e = hi - lo;
    while (lo + e < hi)
        e = nextafterf(e, INFINITY);
    return e;
}

/* lo and step of component k at width w in this segment, choosing the
 * segment extent (or, for one segment, the clip extent) so that the top
 * value covers the segment's largest. */
static void set_range(search *s, int k, uint32_t w, float *lo, float *step)
{
    const float top_needed = s->seg_max[k];
    if (s->single) {
        /* clip range [min, min + ext (1 - 2^-w)] must reach the max */
        const float base = s->clip_min[k];
        float ext = extent_covering(base, top_needed);
        if (w > 0 && ext > 0.0f) {
            const double stretched = (double)ext / (1.0 - ldexp(1.0, -(int)w));
            ext = (float)stretched;
            for (int guard = 0; guard < 64; ++guard) {
                float l, st;
                ossai_pack_range(base, ext, 0, 255, w, &l, &st);
                if (ossai_pack_value(l, st, (1u << w) - 1u) >= top_needed)
                    break;
                ext = nextafterf(ext, INFINITY);
            }
        }
        s->clip_ext[k] = ext;
        s->smin[k] = 0;
        s->sext[k] = 255;
        ossai_pack_range(base, ext, 0, 255, w, lo, step);
        return;
    }
    const float cmin = s->clip_min[k], cext = s->clip_ext[k];
    uint32_t smin = 0, sext = 0;
    if (cext > 0.0f) {
        double at = floor(((double)s->seg_min[k] - cmin) / cext * 255.0);
        smin = at < 0.0 ? 0u : (at > 255.0 ? 255u : (uint32_t)at);
        float l, st;
        for (;;) { /* the rounding of the float lo may land above the min */
            ossai_pack_range(cmin, cext, smin, 0, 0, &l, &st);
            if (l <= s->seg_min[k] || smin == 0)
                break;
            --smin;
        }
        if (w > 0) {
            const double need = ((double)top_needed - l) / (1.0 - ldexp(1.0, -(int)w));
            double e = ceil(need / cext * 255.0);
            sext = e < 0.0 ? 0u : (e > 255.0 ? 255u : (uint32_t)e);
            for (; sext < 255u; ++sext) {
                ossai_pack_range(cmin, cext, smin, sext, w, &l, &st);
                if (ossai_pack_value(l, st, (1u << w) - 1u) >= top_needed)
                    break;
            }
        }
    }
    s->smin[k] = (uint8_t)smin;
    s->sext[k] = (uint8_t)sext;
    ossai_pack_range(cmin, cext, smin, sext, w, lo, step);
}

static uint32_t quantise(float v, float lo, float step, uint32_t w)
{
    if (w == 0 || !(step > 0.0f))
        return 0;
    const uint32_t top = (1u << w) - 1u;
    double x = floor(((double)v - lo) / step + 0.5);
    uint32_t q = x < 0.0 ? 0u : (x > top ? top : (uint32_t)x);
    /* the float decode may round either way: take the nearest of q +- 1 */
    float best = fabsf(ossai_pack_value(lo, step, q) - v);
    for (int d = -1; d <= 1; d += 2) {
        if ((d < 0 && q == 0) || (d > 0 && q == top))
            continue;
        const uint32_t c = (uint32_t)((int64_t)q + d);
        const float e = fabsf(ossai_pack_value(lo, step, c) - v);
        if (e < best) {
            best = e;
            q = c;
        }
    }
    return q;
}

/* Gives component k width w (or EXACT) in the window's segment frames. */
static void set_width(search *s, int k, uint32_t w)
{
    s->width[k] = (uint8_t)w;
    if (w == EXACT) {
        for (int f = s->f0; f < s->f1; ++f)
            s->dec[(size_t)(f - s->first) * (size_t)s->n + (size_t)k] = source(s, f, k);
        return;
    }
    float lo, step;
    set_range(s, k, w, &lo, &step);
    for (int f = s->f0; f < s->f1; ++f) {
        const uint32_t q = quantise(source(s, f, k), lo, step, w);
        s->dec[(size_t)(f - s->first) * (size_t)s->n + (size_t)k] = ossai_pack_value(lo, step, q);
    }
}

/* Whether track t's error is above bound (see ossai_pack_oracle.track_above). */
static int track_above(const ossai_pack_oracle *o, int t, double bound)
{
    return o->track_above ? o->track_above(o->user, t, bound)
                          : o->track_error(o->user, t) > bound;
}

/* Track t's groups remembered (see ossai_pack_oracle.track_save). */
static void track_save(const ossai_pack_oracle *o, int t)
{
    if (o->track_save)
        o->track_save(o->user, t);
}

/* Track t's components are back to what they were at track_save: the
 * oracle told so. */
static void track_restore(const ossai_pack_oracle *o, int t)
{
    if (o->track_restore)
        o->track_restore(o->user, t);
    else
        o->track_error(o->user, t);
}

/* The smallest width of component k (its track's others exact) whose track
 * error is within `share` (the error falls as the width grows). From a
 * guess (the width the previous segment found), step down while it holds or
 * up until it does; without one, bisect. The track is saved exact
 * (track_save) and left exact. */
static uint32_t solo_width(search *s, int k, int track, double share, int guess)
{
    const ossai_pack_oracle *o = s->oracle;
    uint32_t w;
    if (guess >= 0) {
        w = (uint32_t)guess;
        set_width(s, k, w);
        if (!track_above(o, track, share)) {
            while (w > 0) {
                set_width(s, k, w - 1);
                if (track_above(o, track, share))
                    break;
                --w;
            }
        } else {
            while (w < OSSAI_PACK_MAX_BITS) {
                set_width(s, k, ++w);
                if (!track_above(o, track, share))
                    break;
            }
        }
    } else {
        uint32_t lo = 0, hi = OSSAI_PACK_MAX_BITS;
        set_width(s, k, hi);
        if (track_above(o, track, share))
            lo = hi;
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            set_width(s, k, mid);
            if (!track_above(o, track, share))
                hi = mid;
            else
                lo = mid + 1;
        }
        w = lo;
    }
    set_width(s, k, EXACT);
    track_restore(o, track);
    return w;
}

/* The widths of one segment: each track alone within solo_share of the
 * tolerance; then, while some group is above the target, one more bit
 * where it lowers that group's error most; then one bit less wherever the
 * target still holds. */
static void search_segment(search *s, uint8_t *result, int *tracks, int max_tracks)
{
    const ossai_pack_input *in = s->in;
    const ossai_pack_oracle *o = s->oracle;
    const double share = in->solo_share > 0.0 ? in->solo_share : DEFAULT_SOLO_SHARE;
    const double target = in->target > 0.0 ? in->target : DEFAULT_TARGET;
    const int n = s->n;
    for (int k = 0; k < n; ++k)
        set_width(s, k, EXACT);
    o->window(o->user, s->first, s->last, s->dec);
    /* 1: alone */
    for (int t = 0; t < in->track_count; ++t) {
        if (s->track_comps[t][0] < 0)
            continue;
        track_save(o, t);
        for (const int *c = s->track_comps[t]; *c >= 0; ++c)
            result[*c] = (uint8_t)solo_width(s, *c, t, share, s->f0 > 0 ? s->solo[*c] : -1);
        for (const int *c = s->track_comps[t]; *c >= 0; ++c)
            s->solo[*c] = result[*c];
        for (;;) {
            for (const int *c = s->track_comps[t]; *c >= 0; ++c)
                set_width(s, *c, result[*c]);
            int raised = 0;
            if (track_above(o, t, share))
                for (const int *c = s->track_comps[t]; *c >= 0; ++c)
                    if (result[*c] < OSSAI_PACK_MAX_BITS)
                        ++result[*c], raised = 1;
            if (!raised)
                break;
        }
        for (const int *c = s->track_comps[t]; *c >= 0; ++c)
            set_width(s, *c, EXACT);
        track_restore(o, t);
    }
    for (int k = 0; k < n; ++k)
        set_width(s, k, result[k]);
    o->window(o->user, s->first, s->last, s->dec);
    /* 2: together */
    for (;;) {
        int group = -1;
        const double worst = o->worst(o->user, &group);
        if (worst <= target || group < 0)
            break;
        const int count = o->reaching(o->user, group, tracks, max_tracks);
        int best_c = -1, best_t = -1;
        if (s->exact_search) {
            double best_e = worst;
            for (int i = 0; i < count; ++i) {
                const int t = tracks[i];
                for (const int *c = s->track_comps[t]; *c >= 0; ++c) {
                    if (result[*c] >= OSSAI_PACK_MAX_BITS)
                        continue;
                    set_width(s, *c, result[*c] + 1u);
                    const double e = o->group_error(o->user, t, group);
                    set_width(s, *c, result[*c]);
                    o->group_error(o->user, t, group);
                    if (e < best_e) {
                        best_e = e;
                        best_c = *c;
                        best_t = t;
                    }
                }
            }
        } else {
            /* the component whose quantisation error, times its lever on the
             * group, is largest */
            double best_score = 0.0;
            for (int i = 0; i < count; ++i) {
                const int t = tracks[i];
                const double lever = o->lever(o->user, t, group);
                for (const int *c = s->track_comps[t]; *c >= 0; ++c) {
                    if (result[*c] >= OSSAI_PACK_MAX_BITS)
                        continue;
                    double err = 0.0;
                    for (int f = s->f0; f < s->f1; ++f) {
                        const double d = fabs((double)s->dec[(size_t)(f - s->first) * (size_t)n +
                                                             (size_t)*c] -
                                              source(s, f, *c));
                        err = d > err ? d : err;
                    }
                    const double score = err * lever;
                    if (score > best_score) {
                        best_score = score;
                        best_c = *c;
                        best_t = t;
                    }
                }
            }
        }
        if (best_c < 0) {
            /* no single bit helps: raise every reaching component */
            int raised = 0;
            for (int i = 0; i < count; ++i)
                for (const int *c = s->track_comps[tracks[i]]; *c >= 0; ++c)
                    if (result[*c] < OSSAI_PACK_MAX_BITS) {
                        set_width(s, *c, ++result[*c]);
                        raised = 1;
                    }
            for (int i = 0; i < count; ++i)
                o->track_error(o->user, tracks[i]);
            if (!raised)
                break;
            continue;
        }
        set_width(s, best_c, ++result[best_c]);
        o->track_error(o->user, best_t);
    }
    /* 3: one bit less where it still holds, widest first */
    for (uint32_t w = OSSAI_PACK_MAX_BITS; w > 0; --w)
        for (int k = 0; k < n; ++k) {
            if (result[k] != w)
                continue;
            const int t = in->track_of[k];
            track_save(o, t);
            set_width(s, k, w - 1);
            /* above the target in t's groups, or (all of them measured)
             * anywhere */
            if (!track_above(o, t, target) && o->worst(o->user, NULL) <= target) {
                result[k] = (uint8_t)(w - 1);
            } else {
                set_width(s, k, w);
                track_restore(o, t);
            }
        }
}

static void put_bits(uint8_t *bits, uint64_t at, uint32_t value, uint32_t w)
{
    for (uint32_t b = 0; b < w; ++b, ++at)
        if (value >> b & 1u)
            bits[at >> 3] |= (uint8_t)(1u << (at & 7u));
}

void ossai_pack_output_free(ossai_pack_output *out, const ossa_allocator *allocator)
{
    ossa_free(allocator, out->ranges);
    ossa_free(allocator, out->segments);
    ossa_free(allocator, out->seg_data);
    ossa_free(allocator, out->bits);
    memset(out, 0, sizeof *out);
}

size_t ossai_pack_output_bytes(const ossai_pack_output *out)
{
    return (size_t)out->component_count * 8u + (size_t)out->segment_count * 8u +
           out->seg_data_bytes + out->bits_bytes;
}

float ossai_pack_decode(const ossai_pack_output *out, int k, int f)
{
    const int n = out->component_count, s = f >> out->segment_shift;
    const int i = f - (s << out->segment_shift);
    const size_t stride = (size_t)n * (out->segment_ranges ? 3u : 1u);
    const uint8_t *data = out->seg_data + (size_t)s * stride;
    uint64_t bit = (uint64_t)out->segments[2 * s] * 8u + (uint64_t)i * out->segments[2 * s + 1];
    for (int c = 0; c < k; ++c)
        bit += data[c];
    const uint32_t w = data[k];
    const uint32_t smin = out->segment_ranges ? data[n + k] : 0u;
    const uint32_t sext = out->segment_ranges ? data[2 * n + k] : 255u;
    float lo, step;
    ossai_pack_range(out->ranges[k], out->ranges[n + k], smin, sext, w, &lo, &step);
    return ossai_pack_value(lo, step, ossai_pack_read(out->bits, bit, w));
}

/* One packing at one segment length. */
static ossa_result pack_with(const ossai_pack_input *in, const ossai_pack_oracle *oracle,
                             const ossa_allocator *a, int shift, ossai_pack_output *out)
{
    const int n = in->component_count, frames = in->frame_count;
    memset(out, 0, sizeof *out);
    const int segments = (int)(((int64_t)frames + ((int64_t)1 << shift) - 1) >> shift);
    const int single = segments == 1;
    const size_t stride = (size_t)n * (single ? 1u : 3u);
    const int seg_frames = frames < (1 << shift) ? frames : 1 << shift;
    search s;
    memset(&s, 0, sizeof s);
    s.in = in;
    s.oracle = oracle;
    s.exact_search = in->thorough != 0;
    s.n = n;
    s.single = single;
    out->component_count = n;
    out->frame_count = frames;
    out->segment_shift = shift;
    out->segment_count = segments;
    out->segment_ranges = !single;
    out->ranges = ossa_alloc(a, sizeof(float) * 2 * (size_t)n, 16);
    out->segments = ossa_alloc(a, sizeof(uint32_t) * 2 * (size_t)segments, 16);
    out->seg_data_bytes = stride * (size_t)segments;
    out->seg_data = ossa_alloc(a, out->seg_data_bytes + 1, 16);
    float *work = ossa_alloc(a, sizeof(float) * (size_t)n * (5 + (size_t)seg_frames + 2), 16);
    uint8_t *bytes = ossa_alloc(a, (size_t)n * 6, 16);
    int *tracks = ossa_alloc(a, sizeof(int) * (size_t)(in->track_count + 1), 16);
    int *comps = ossa_alloc(a, sizeof(int) * ((size_t)n + (size_t)in->track_count), 16);
    int **track_comps = ossa_alloc(a, sizeof(int *) * (size_t)(in->track_count + 1), 16);
    /* bits: at most 23 bits per component and frame, byte-aligned segments */
    const size_t max_bits_bytes =
        ((size_t)frames * (size_t)n * OSSAI_PACK_MAX_BITS + 7) / 8 + (size_t)segments +
        OSSAI_PACK_PADDING;
    out->bits = ossa_alloc(a, max_bits_bytes, 16);
    ossa_result r = OSSA_ERR_OUT_OF_MEMORY;
    if (!out->ranges || !out->segments || !out->seg_data || !work || !bytes || !tracks || !comps ||
        !track_comps || !out->bits)
        goto done;
    memset(out->bits, 0, max_bits_bytes);
    s.clip_min = work;
    s.clip_ext = work + n;
    s.seg_min = work + 2 * (size_t)n;
    s.seg_max = work + 3 * (size_t)n;
    float *last = work + 4 * (size_t)n;
    s.dec = work + 5 * (size_t)n;
    s.width = bytes;
    s.smin = bytes + n;
    s.sext = bytes + 2 * (size_t)n;
    uint8_t *result = bytes + 3 * (size_t)n;
    s.solo = bytes + 5 * (size_t)n;
    s.track_comps = track_comps;
    /* components of each track, -1 ended */
    int used = 0;
    for (int t = 0; t < in->track_count; ++t) {
        track_comps[t] = comps + used;
        for (int k = 0; k < n; ++k)
            if (in->track_of[k] == t)
                comps[used++] = k;
        comps[used++] = -1;
    }
    /* clip ranges */
    for (int k = 0; k < n; ++k) {
        float lo = source(&s, 0, k), hi = lo;
        for (int f = 1; f < frames; ++f) {
            lo = fminf(lo, source(&s, f, k));
            hi = fmaxf(hi, source(&s, f, k));
        }
        s.clip_min[k] = lo;
        s.clip_ext[k] = extent_covering(lo, hi);
    }
    uint64_t bit = 0;
    double width_sum = 0.0;
    for (int seg = 0; seg < segments; ++seg) {
        s.f0 = seg << shift;
        s.f1 = s.f0 + (1 << shift) < frames ? s.f0 + (1 << shift) : frames;
        s.first = s.f0 > 0 ? s.f0 - 1 : 0;
        s.last = s.f1 < frames ? s.f1 : s.f1 - 1;
        for (int k = 0; k < n && s.last == s.f1; ++k)
            s.dec[(size_t)(s.f1 - s.first) * (size_t)n + (size_t)k] = source(&s, s.f1, k);
        /* the frame before: as the previous segment decoded it */
        if (s.first < s.f0)
            memcpy(s.dec, last, sizeof(float) * (size_t)n);
        for (int k = 0; k < n; ++k) {
            float lo = source(&s, s.f0, k), hi = lo;
            for (int f = s.f0 + 1; f < s.f1; ++f) {
                lo = fminf(lo, source(&s, f, k));
                hi = fmaxf(hi, source(&s, f, k));
            }
            s.seg_min[k] = lo;
            s.seg_max[k] = hi;
        }
        search_segment(&s, result, tracks, in->track_count);
        /* write: widths, ranges, bits */
        uint8_t *data = out->seg_data + stride * (size_t)seg;
        uint32_t frame_bits = 0;
        bit = (bit + 7) & ~(uint64_t)7;
        out->segments[2 * seg] = (uint32_t)(bit >> 3);
        for (int k = 0; k < n; ++k) {
            float lo, step;
            set_range(&s, k, result[k], &lo, &step);
            data[k] = result[k];
            if (!single) {
                data[n + k] = s.smin[k];
                data[2 * (size_t)n + k] = s.sext[k];
            }
            frame_bits += result[k];
        }
        out->segments[2 * seg + 1] = frame_bits;
        for (int f = s.f0; f < s.f1; ++f)
            for (int k = 0; k < n; ++k) {
                float lo, step;
                set_range(&s, k, result[k], &lo, &step);
                const uint32_t q = quantise(source(&s, f, k), lo, step, result[k]);
                put_bits(out->bits, bit, q, result[k]);
                bit += result[k];
                s.dec[(size_t)(f - s.first) * (size_t)n + (size_t)k] = ossai_pack_value(lo, step, q);
            }
        memcpy(last, s.dec + (size_t)(s.f1 - 1 - s.first) * (size_t)n, sizeof(float) * (size_t)n);
        width_sum += (double)frame_bits * (s.f1 - s.f0);
        int g;
        out->worst = fmax(out->worst, oracle->worst(oracle->user, &g));
    }
    for (int k = 0; k < n; ++k) {
        out->ranges[k] = s.clip_min[k];
        out->ranges[n + k] = s.clip_ext[k];
    }
    out->bits_bytes = (size_t)((bit + 7) >> 3) + OSSAI_PACK_PADDING;
    out->mean_width = width_sum / ((double)frames * n);
    r = OSSA_OK;
done:
    ossa_free(a, work);
    ossa_free(a, bytes);
    ossa_free(a, tracks);
    ossa_free(a, comps);
    ossa_free(a, track_comps);
    if (r)
        ossai_pack_output_free(out, a);
    return r;
}

ossa_result ossai_pack(const ossai_pack_input *in, const ossai_pack_oracle *oracle,
                       const ossa_allocator *allocator, ossai_pack_output *out)
{
    const int *shifts = in->shift_count > 0 ? in->shifts : default_shifts;
    const int count = in->shift_count > 0 ? in->shift_count
                                          : (int)(sizeof default_shifts / sizeof default_shifts[0]);
    memset(out, 0, sizeof *out);
    int whole = 0; /* the shift of one segment over every frame */
    while ((1 << whole) < in->frame_count)
        ++whole;
    int done_whole = 0;
    for (int i = 0; i < count; ++i) {
        int shift = shifts[i] > whole ? whole : shifts[i];
        if (shift > (int)OSSAI_PACK_MAX_SHIFT)
            continue;
        if (shift == whole) {
            if (done_whole || (in->frame_count > WHOLE_CLIP_FRAMES && count > 1))
                continue;
            done_whole = 1;
        }
        ossai_pack_output candidate;
        ossa_result r = pack_with(in, oracle, allocator, shift, &candidate);
        if (r) {
            ossai_pack_output_free(out, allocator);
            return r;
        }
        if (!out->ranges || ossai_pack_output_bytes(&candidate) < ossai_pack_output_bytes(out)) {
            ossai_pack_output_free(out, allocator);
            *out = candidate;
        } else {
            ossai_pack_output_free(&candidate, allocator);
        }
    }
    return out->ranges ? OSSA_OK : OSSA_ERR_OUT_OF_MEMORY;
}
