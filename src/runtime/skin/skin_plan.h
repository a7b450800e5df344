/* skin_plan.h - the layout of an ossa_skin_plan (built by skin_plan.c, read
 * by the plan kernels in skin_plan_avx512.c and skin_plan_avx2.c).
 *
 * Each influence group is cut into blocks of at most 16 vertices. Block
 * boundaries fall where a packed output at a 64-byte aligned address reaches
 * a cache line (every 16 vertices of 20 bytes, 4 of 16): the first block of a
 * group may be short so that the rest start on lines. In a block, lane L
 * holds block vertex 4 (L % 4) + L / 4, the order in which transposing the
 * skinned results 4 x 4 (inside 128-bit lanes) yields whole vertices in
 * order; lanes past the block's count repeat its last vertex. All arrays
 * are 64-byte aligned, structure of arrays, in lane order:
 *
 *   header     first vertex, count, kind; the byte offsets (joint x 48) of
 *              the block's distinct joints when there are at most 8
 *   local      per influence k, uint8 per lane: which of those 8 joints, as
 *              a two-table permute index (d & 3) + 16 (d >> 2)
 *   offsets    per influence k, uint32 per lane: its joint's byte offset
 *   weights    per stored weight k (n - 1 of them), float per lane
 *   stream     position x y z, normal x y z[, tangent x y z], float per lane
 *   hand       (tangents) the handedness bits, XOR OSSAI_PACK_FLIP
 *
 * A table block (at most 8 distinct joints: most blocks of real meshes)
 * blends in registers from those joints' matrices transposed 4 x 4 (AVX2:
 * lane d of a register is joint d, the index (d & 3) + 16 (d >> 2) turned
 * back into d); a general block blends each lane's matrices and transposes
 * the results. */
#ifndef OSSA_SKIN_PLAN_H
#define OSSA_SKIN_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/math.h"
#include "ossa/mesh.h"
#include "ossa/skinning_job.h"

#define OSSAI_PLAN_MAGIC 0x504B534Fu /* "OSKP" */
#define OSSAI_PLAN_LANES 16
#define OSSAI_PLAN_TABLE 8 /* distinct joints a table block may use */

enum { OSSAI_PLAN_TABLE_BLOCK = 0, OSSAI_PLAN_GENERAL_BLOCK = 1 };

struct ossa_skin_plan {
    uint32_t magic;
    uint32_t vertex_count;
    uint32_t skin_joint_count;
    uint32_t tangents;                          /* 0 or 1 */
    const ossa_mesh *mesh;                      /* the mesh it was built for */
    size_t bytes;                               /* the whole plan */
    uint32_t block_count[OSSA_MAX_INFLUENCES];  /* per influence group */
    uint32_t block_bytes[OSSA_MAX_INFLUENCES];
    size_t block_offset[OSSA_MAX_INFLUENCES];   /* group's first block, from the plan */
};

/* A block's header (its first 64 bytes). */
typedef struct ossai_plan_header {
    uint32_t first;                       /* mesh vertex of block vertex 0 */
    uint32_t count;                       /* 1..16 */
    uint32_t kind;                        /* OSSAI_PLAN_TABLE_BLOCK / _GENERAL_BLOCK */
    uint32_t reserved;
    uint32_t table[OSSAI_PLAN_TABLE];     /* byte offsets of the distinct joints */
    uint32_t pad[4];
} ossai_plan_header;

/* Byte offsets of a block's arrays for n influences (64 bytes a row). */
static inline size_t ossai_plan_local(void) { return 64; }
static inline size_t ossai_plan_offsets(void) { return 128; }
static inline size_t ossai_plan_weights(int n) { return 128 + 64 * (size_t)n; }
static inline size_t ossai_plan_stream(int n) { return 64 + 128 * (size_t)n; }
static inline size_t ossai_plan_block_bytes(int n, bool tangents)
{
    return ossai_plan_stream(n) + 64 * (size_t)(tangents ? 10 : 6);
}

/* Block vertex held by lane L. */
static inline int ossai_plan_lane_vertex(int lane) { return 4 * (lane % 4) + lane / 4; }

/* Whether a plan was built for this mesh (and looks like a plan). */
bool ossai_skin_plan_fits(const ossa_skin_plan *plan, const ossa_mesh *mesh);

#ifdef OSSAI_SIMD_X86
/* Packed output of mesh vertices [begin, end) from the plan: vertex v at
 * output + v x packed bytes (skin_plan_avx512.c, skin_plan_avx2.c). */
void ossai_skin_plan_run_avx512(const ossa_skin_plan *plan, const ossa_mat34 *palette,
                                void *output, size_t begin, size_t end, bool stream);
void ossai_skin_plan_run_avx2(const ossa_skin_plan *plan, const ossa_mat34 *palette,
                              void *output, size_t begin, size_t end, bool stream);
#endif

#endif /* OSSA_SKIN_PLAN_H */
