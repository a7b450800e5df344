/* flat_hierarchy.h - seed 001's data-oriented change, and only that change:
 * the same 4x4 matrices as the naive pointer tree, but the joints flattened
 * into depth-first order with a uint16 parent index per joint and the local
 * and global poses in separate arrays (SoA), so the recursion becomes one
 * forward loop, global[i] = global[parent[i]] * local[i]. Benchmark baseline
 * only; the library's walk is ossa_local_to_model_job. */
#ifndef OSSA_BENCH_FLAT_HIERARCHY_H
#define OSSA_BENCH_FLAT_HIERARCHY_H

#include <stdint.h>

#include "hierarchy_mat4.h"

/* One character: parents[i] < i, or OSSA_NO_PARENT for a root (whose global
 * pose is its local pose). local and global hold joint_count matrices each
 * and must not overlap. */
void flat_local_to_global(const uint16_t *parents, int joint_count,
                          const bench_mat4 *restrict local, bench_mat4 *restrict global);

#endif /* OSSA_BENCH_FLAT_HIERARCHY_H */
