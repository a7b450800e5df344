/* bench.h - the benchmarks `ossa bench NAME` runs. Each takes (argc, argv)
 * with argv[0] its name and returns an exit code. */
#ifndef OSSA_BENCH_H
#define OSSA_BENCH_H

typedef struct ossa_bench_entry {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} ossa_bench_entry;

/* The benchmarks' entry points. */
int bench_hierarchy_main(int argc, char **argv); /* hierarchy_bench.c, seed 001 */
int bench_skinning_main(int argc, char **argv);  /* skinning_bench.c, seed 002 */
int bench_locality_main(int argc, char **argv);  /* locality_bench.c, seed 003 */
int bench_frame_main(int argc, char **argv);     /* frame_bench.c, the crowd frame */
int bench_compression_main(int argc, char **argv); /* compression_bench.c, issue 10 */
int bench_locomotion_main(int argc, char **argv); /* locomotion_bench.c, issue 12 */
int bench_ik_main(int argc, char **argv);        /* ik_bench.c, issue 13's IK goal */

/* The registered benchmarks; *count receives their number. */
const ossa_bench_entry *ossa_bench_list(int *count);

#endif /* OSSA_BENCH_H */
