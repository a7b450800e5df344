/* flat_hierarchy.c - the flattened 4x4 loop of seed 001 ("A data-oriented
 * approach"). */
#include "flat_hierarchy.h"

#include "ossa/skeleton.h"

void flat_local_to_global(const uint16_t *parents, int joint_count,
                          const bench_mat4 *restrict local, bench_mat4 *restrict global)
{
    /* parent < i, so global[parent] is already computed. */
    for (int i = 0; i < joint_count; ++i) {
        const uint16_t parent = parents[i];
        if (parent == OSSA_NO_PARENT)
            global[i] = local[i];
        else
            global[i] = bench_mat4_mul(&global[parent], &local[i]);
    }
}
