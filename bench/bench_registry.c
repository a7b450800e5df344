/* bench_registry.c - the table of benchmarks `ossa bench` knows. */
#include "bench.h"

#include <stddef.h>

static const ossa_bench_entry entries[] = {
    {"hierarchy", bench_hierarchy_main,
     "seed 001: naive pointer tree vs flattened 4x4 loop vs ossa 3x4 and QVS walks"},
    {"skinning", bench_skinning_main,
     "seed 002: 100 skinned characters, naive AoS to sorted SIMD"},
    {"locality", bench_locality_main,
     "seed 003: pointers vs arrays, packed particles, hot/cold"},
    {"frame", bench_frame_main, "a full crowd frame per stage, lanes vs reference; scaling sweep"},
    {"compression", bench_compression_main,
     "every clip of the shared models compressed: sizes, ratios, errors; ozz 0.16 beside"},
    {"locomotion", bench_locomotion_main,
     "root motion, events and transitions: what they add to the crowd frame"},
    {"ik", bench_ik_main, "two-bone legs + a look-at chain for 1000 characters, lanes vs reference"},
    {NULL, NULL, NULL},
};

const ossa_bench_entry *ossa_bench_list(int *count)
{
    *count = (int)(sizeof entries / sizeof entries[0]) - 1; /* the NULL row ends the table */
    return entries;
}
