/* skinning_internal.h - what the skinning job hands its kernels: one run of
 * vertices that share an influence count. Each kernel file (portable, SSE,
 * AVX2, AVX-512) has one specialised loop per influence count and stride,
 * for float4 output (ossai_skin_kernel_*) and packed output
 * (ossai_skin_packed_kernel_*, skin_pack.h); AVX-512 also skins packed
 * output from a plan (skin_plan.h).
 *
 * Every kernel blends the n palette matrices of a vertex as
 *   M = P[j_n] + sum_{k < n} w_k (P[j_k] - P[j_n]),
 * which is sum_k w_k P[j_k] with w_n = 1 - sum_{k < n} w_k, needs no last
 * weight, and gives P exactly when all n matrices are equal (the identity
 * palette reproduces the bind pose bit for bit). Then it writes M * position
 * (w = 1), M * normal (w = 0) and M * tangent with the tangent's w kept.
 * With `stream`, the SIMD kernels write with non-temporal stores (the
 * portable one ignores it) and end with a store fence. */
#ifndef OSSA_SKINNING_INTERNAL_H
#define OSSA_SKINNING_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/math_internal.h"
#include "core/simd.h"
#include "ossa/math.h"

/* Kernels are written once per influence count and stride as an inlined
 * function called with constants, so every call site is its own loop. */
#define OSSAI_SKIN_INLINE static OSSAI_ALWAYS_INLINE

/* Defines the kernel entry `void name(const ossai_skin_batch *b)`: it calls
 * fn(b, influences, tangents) with both as constants, one call site (one
 * loop) per pair. A macro, so the call sites stay in each instruction set's
 * own compilation unit. */
#define OSSAI_SKIN_DISPATCH(name, fn)                                                          \
    void name(const ossai_skin_batch *b)                                                       \
    {                                                                                          \
        switch (b->influences * 2 + (b->tangents ? 1 : 0)) {                                   \
        case 2: fn(b, 1, false); break;                                                        \
        case 3: fn(b, 1, true); break;                                                         \
        case 4: fn(b, 2, false); break;                                                        \
        case 5: fn(b, 2, true); break;                                                         \
        case 6: fn(b, 3, false); break;                                                        \
        case 7: fn(b, 3, true); break;                                                         \
        case 8: fn(b, 4, false); break;                                                        \
        case 9: fn(b, 4, true); break;                                                         \
        default: break;                                                                        \
        }                                                                                      \
    }

/* The same with a third constant, stream: 16 call sites. */
#define OSSAI_SKIN_DISPATCH_STREAM(name, fn)                                                   \
    void name(const ossai_skin_batch *b)                                                       \
    {                                                                                          \
        switch (b->influences * 4 + (b->tangents ? 2 : 0) + (b->stream ? 1 : 0)) {            \
        case 4: fn(b, 1, false, false); break;                                                 \
        case 5: fn(b, 1, false, true); break;                                                  \
        case 6: fn(b, 1, true, false); break;                                                  \
        case 7: fn(b, 1, true, true); break;                                                   \
        case 8: fn(b, 2, false, false); break;                                                 \
        case 9: fn(b, 2, false, true); break;                                                  \
        case 10: fn(b, 2, true, false); break;                                                 \
        case 11: fn(b, 2, true, true); break;                                                  \
        case 12: fn(b, 3, false, false); break;                                                \
        case 13: fn(b, 3, false, true); break;                                                 \
        case 14: fn(b, 3, true, false); break;                                                 \
        case 15: fn(b, 3, true, true); break;                                                  \
        case 16: fn(b, 4, false, false); break;                                                \
        case 17: fn(b, 4, false, true); break;                                                 \
        case 18: fn(b, 4, true, false); break;                                                 \
        case 19: fn(b, 4, true, true); break;                                                  \
        default: break;                                                                        \
        }                                                                                      \
    }

typedef struct ossai_skin_batch {
    const float *src;          /* bind stream at the batch's first vertex, 16-aligned */
    void *dst;                 /* output at the batch's first vertex: float4 16-aligned,
                                * packed 4-aligned */
    const uint16_t *joints;    /* `influences` skin joints per vertex */
    const float *weights;      /* `influences` - 1 weights per vertex */
    const ossa_mat34 *palette; /* 16-aligned */
    /* sizeof(ossa_mat34), passed at run time: multiplying a joint by an
     * unknown stride is one imul, where the constant 48 becomes lea + shl. */
    size_t palette_stride;
    size_t count;              /* vertices */
    int influences;            /* 1..4 */
    bool tangents;             /* stride 48 bytes (position, normal, tangent), else 32 */
    bool stream;               /* non-temporal stores (ossa_skinning_job.stream_output) */
} ossai_skin_batch;

/* ossai_skin_kernel_portable (skin_portable.c), _sse, _avx2, _avx512. */
OSSAI_SIMD_DECLARE(void, ossai_skin_kernel, (const ossai_skin_batch *batch));
/* The same for packed output: ossai_skin_packed_kernel_portable
 * (skin_portable.c), _sse (skin_sse.c), _avx2 and _avx512 (pack8_kernels.c). */
OSSAI_SIMD_DECLARE(void, ossai_skin_packed_kernel, (const ossai_skin_batch *batch));

#endif /* OSSA_SKINNING_INTERNAL_H */
