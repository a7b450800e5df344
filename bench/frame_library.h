/* frame_library.h - `ossa bench frame --clips N`'s clip library: the
 * character's clips in both kinds (raw and compressed; the kind the blob
 * lacks is built from the other through the pipeline, frame by frame at the
 * same rate), then N clips of each kind: clip i is clip i mod k, played
 * from a different phase in every round of k clips after the first and
 * built again in both kinds from the same keys (so that every clip is
 * different data), each in its own 64-byte-aligned allocation; and what
 * one frame's samples read of them. */
#ifndef OSSA_BENCH_FRAME_LIBRARY_H
#define OSSA_BENCH_FRAME_LIBRARY_H

#include <stddef.h>

#include "frame_setup.h"

enum { LIB_RAW, LIB_PACKED, LIB_KINDS };

typedef struct frame_library {
    int count;      /* N */
    int base_count; /* k: the character's clips */
    /* per kind: the k clips, and the character with the N copies (a view
     * of the source character with its own clip list) */
    ossa_clip *built[LIB_KINDS][64]; /* the kind built here, else NULL */
    const ossa_clip *base[LIB_KINDS][64];
    frame_character view[LIB_KINDS];
    frame_character base_view[LIB_KINDS]; /* the k clips of each kind */
    void **copies[LIB_KINDS];             /* N allocations each */
    size_t bytes[LIB_KINDS];              /* of the N copies */
    double seconds_built;                 /* building the clips */
} frame_library;

/* Returns 0 after saying why on failure (more than 64 clips, a build
 * error). */
int frame_library_build(frame_library *lib, const frame_character *c, int count);
void frame_library_free(frame_library *lib);

/* The bytes of clip data one frame of the scene reads: every character's
 * two samples (clip a and b at their playheads, wrapped as the loop does),
 * counted once per 64-byte line however many samples read it
 * (ossa_clip_sample_ranges; clips start on a line). *per_sample: the mean
 * bytes one sample reads. */
double frame_library_touched(const frame_scene *s, double *per_sample);

#endif /* OSSA_BENCH_FRAME_LIBRARY_H */
