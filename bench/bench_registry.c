/* bench_registry.c - the table of benchmarks `ossa bench` knows. */
#include "bench.h"

#include <stddef.h>

static const ossa_bench_entry entries[] = {
    {"frame", bench_frame, "a full crowd frame per stage, lanes vs reference; scaling sweep"},
    {"locality", bench_locality, "seed 003: pointers vs arrays, packed particles, hot/cold"},
    {NULL, NULL, NULL},
};

const ossa_bench_entry *ossa_bench_list(int *count)
{
    *count = (int)(sizeof entries / sizeof entries[0]) - 1; /* the NULL row ends the table */
    return entries;
}
