/* clip_pack.h - the compressor's core: uniform frames of any set of scalar
 * components -> a packed block (format.h: ranges per clip and per segment,
 * a bit width per component and segment), the widths chosen by a search
 * against an error function the caller provides. Joint clips use it
 * (clip_compress.c); so can root motion and float tracks. Pipeline-internal;
 * docs/compression.md describes the search.
 *
 * Components belong to tracks (a joint's rotation: its x, y, z), the unit
 * the error function answers for; errors belong to groups (joints, or one
 * per float track), which tracks reach. */
#ifndef OSSA_CLIP_PACK_H
#define OSSA_CLIP_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/allocator.h"
#include "ossa/result.h"

/* The error function. The packer keeps a window of decoded frames - the
 * frames of one segment and the frame before it - in dec[(f - first) * n +
 * k]; the oracle evaluates the error at its own times between them, as the
 * runtime will sample them. Errors are relative to the tolerance: <= 1 is
 * within it. */
typedef struct ossai_pack_oracle {
    void *user;
    /* A new window [first, last] (frames); dec stays valid and the packer
     * changes it between the calls below. */
    void (*window)(void *user, int first, int last, const float *dec);
    /* After the components of track t changed: the largest error of the
     * groups t reaches. */
    double (*track_error)(void *user, int track);
    /* The largest error over every group, and which (after changes that
     * track_error has been told about). */
    double (*worst)(void *user, int *group);
    /* The tracks reaching group g (its own and its ancestors', nearest
     * first): up to max of them in tracks, returns how many. */
    int (*reaching)(void *user, int group, int *tracks, int max);
    /* After the components of track t changed: group g's error. */
    double (*group_error)(void *user, int track, int group);
    /* How far group g's points move, relative to the tolerance, per unit of
     * error in one of track t's components (t reaching g): the search's
     * estimate of where a bit helps most. */
    double (*lever)(void *user, int track, int group);
    /* Optional, all three or none (NULL: track_error stands in), for the
     * search's questions that only ask whether a change keeps a track's
     * groups within a bound, and undo it when it does not. track_above:
     * after track t's components changed, 1 when track_error would be above
     * bound, else 0 - it may stop at the first group above it, leaving t's
     * groups unknown to the oracle until track_error(t) or
     * track_restore(t). track_save: remember t's groups as they are;
     * track_restore: t's components are again as they were then, so are
     * its groups (nothing is measured). */
    int (*track_above)(void *user, int track, double bound);
    void (*track_save)(void *user, int track);
    void (*track_restore)(void *user, int track);
} ossai_pack_oracle;

typedef struct ossai_pack_input {
    int component_count;
    int frame_count;
    const float *values; /* [frame][component]: what to encode */
    int track_count;
    const int *track_of; /* per component: its track */
    /* Search settings (0: defaults). Each track alone first gets this share
     * of the tolerance, then bits go where the combined error exceeds the
     * target (a share of the tolerance kept as a margin for rounding). */
    double solo_share;
    double target;
    /* 1: measure every candidate bit instead of estimating by lever. */
    int thorough;
    /* Segment lengths to try, as shifts (frames = 1 << shift); the smallest
     * result is kept. 0 entries: the default set. */
    const int *shifts;
    int shift_count;
} ossai_pack_input;

/* A packed block, ready to be written into a section. */
typedef struct ossai_pack_output {
    int component_count, frame_count;
    int segment_shift, segment_count;
    int segment_ranges;          /* OSSAI_PACK_SEGMENT_RANGES stored */
    float *ranges;               /* clip min[n], then extent[n] */
    uint32_t *segments;          /* [segment_count][2] byte offset, frame bits */
    uint8_t *seg_data;           /* [segment_count][n * (ranges ? 3 : 1)] */
    size_t seg_data_bytes;
    uint8_t *bits;               /* bits_bytes, padding included */
    size_t bits_bytes;
    double worst;                /* the oracle's largest relative error */
    double mean_width;           /* over components and frames */
} ossai_pack_output;

/* Packs input (n >= 1 components) into *out, allocating with the allocator.
 * OSSA_OK or OSSA_ERR_OUT_OF_MEMORY. */
ossa_result ossai_pack(const ossai_pack_input *input, const ossai_pack_oracle *oracle,
                       const ossa_allocator *allocator, ossai_pack_output *out);
void ossai_pack_output_free(ossai_pack_output *out, const ossa_allocator *allocator);

/* Bytes of the block's arrays (ranges, segment table, segment data, bits). */
size_t ossai_pack_output_bytes(const ossai_pack_output *out);

/* Component k at frame f of a packed block, decoded as the runtime does. */
float ossai_pack_decode(const ossai_pack_output *out, int k, int f);

#endif /* OSSA_CLIP_PACK_H */
