/* bench_registry.c - the table of benchmarks `ossa bench` knows. */
#include "bench.h"

#include <stddef.h>

static const ossa_bench_entry entries[] = {
    {"skinning", skinning_bench, "seed 002: 100 skinned characters, naive AoS to sorted SIMD"},
    {NULL, NULL, NULL},
};

const ossa_bench_entry *ossa_bench_list(int *count)
{
    *count = (int)(sizeof entries / sizeof entries[0]) - 1; /* the NULL row ends the table */
    return entries;
}
