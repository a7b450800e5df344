/* ossa/simd.h - the instruction-set paths every SIMD job chooses from.
 *
 * One vocabulary for the lane jobs (characters in SIMD lanes, ossa/lanes.h)
 * and skinning (ossa/skinning_job.h): a job's `path` field names a path, and
 * OSSA_SIMD_AUTO (the zeroed default) lets the runtime pick the widest one
 * this CPU and build run. The portable path is plain C (lane-shaped, 4 lanes)
 * and runs everywhere; the others are x86 only and checked against the CPU at
 * run time, so the library itself runs on any x86-64. Building with
 * OSSA_NO_SIMD, or setting the environment variable
 * OSSA_SIMD=none|portable|sse|avx2|avx512 before the first job runs, limits
 * the choice. Every path gives the results of the reference jobs within the
 * tolerances each job states. */
#ifndef OSSA_SIMD_H
#define OSSA_SIMD_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ossa_simd_path {
    OSSA_SIMD_AUTO = 0,  /* default: the widest path this CPU (and build) runs */
    OSSA_SIMD_PORTABLE,  /* plain C, 4 lanes per vector; runs everywhere */
    OSSA_SIMD_SSE,       /* SSE4.2, 4 lanes per vector */
    OSSA_SIMD_AVX2,      /* AVX2 + FMA, 8 lanes per vector */
    OSSA_SIMD_AVX512,    /* AVX-512 F/VL/BW/DQ, 16 lanes per vector */
    OSSA_SIMD_PATH_COUNT
} ossa_simd_path;

/* The path OSSA_SIMD_AUTO resolves to on this machine (never AUTO). */
ossa_simd_path ossa_simd_best_path(void);
/* Whether this machine and build can run a path (AUTO always). */
bool ossa_simd_path_supported(ossa_simd_path path);
/* "auto", "portable", "sse", "avx2", "avx512"; "unknown" out of range. */
const char *ossa_simd_path_name(ossa_simd_path path);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SIMD_H */
