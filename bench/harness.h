/* harness.h - what every benchmark shares: options, interleaved timing of
 * variants side by side, medians, and the table / JSON report.
 *
 * Variants run round-robin, one frame each in turn, so that the machine's
 * noise (other processes, frequency changes) falls on all of them alike; the
 * reported figure is the median over frames. A side effect: a frame finds
 * the caches as the other variants left them; --cache warm or cold fixes
 * that state instead. For valgrind, every benchmark accepts --variant NAME
 * (run only that one) and --frames N; the counting script subtracts a shorter
 * run to leave only the per-frame work. */
#ifndef OSSA_BENCH_HARNESS_H
#define OSSA_BENCH_HARNESS_H

#include <stdbool.h>
#include <stddef.h>

/* What the caches hold when a timed frame starts (--cache). */
typedef enum bench_cache {
    BENCH_CACHE_AS_IS = 0, /* default: whatever the other variants' frames left */
    BENCH_CACHE_WARM,      /* BENCH_WARM_FRAMES untimed frames of the same variant first */
    BENCH_CACHE_COLD,      /* a buffer larger than the last-level cache is touched first */
    BENCH_CACHE_COUNT
} bench_cache;

/* Adaptive last-level caches may keep a line only once it is reused, so one
 * pass need not warm a data set close to the cache's size: warm runs several. */
#define BENCH_WARM_FRAMES 3

typedef struct bench_options {
    int frames;          /* timed frames per variant (default given by the bench) */
    int warmup;          /* untimed frames per variant first (default 5) */
    bool json;           /* JSON on stdout instead of a table */
    const char *variant; /* run only this variant (NULL: all) */
    int threads;         /* for benches that use threads; 0 = 1 */
    const char *model;   /* --model FILE.ossa, NULL for the default character */
    bool list;           /* --list-variants: print the variant names and stop */
    bench_cache cache;   /* --cache warm|cold; BENCH_CACHE_AS_IS when not given */
} bench_options;

/* Parses the options every bench understands at argv[*i]; returns 1 when it
 * consumed one, 0 when argv[*i] is not one of them, -1 on a usage error. */
int bench_parse_option(int argc, char **argv, int *i, bench_options *o);
/* The help lines for those options. */
const char *bench_common_help(void);

typedef struct bench_variant {
    const char *name;          /* short id for --variant, e.g. "naive" */
    const char *label;         /* table label, e.g. "naive: pointer tree, 4x4" */
    void (*run)(void *context);/* one frame of work */
    void *context;
    double seed_ms;            /* the seed's figure for this step, < 0 if none */
    /* The physical floor of one element, printed beside the times when a
     * variant states it (0: not stated): bytes it must read + write, and the
     * floating-point operations it must do. */
    double bytes_per_element;
    double flops_per_element;
    /* filled by bench_run */
    double median_ns;
    double min_ns;
    int frames_run;
} bench_variant;

/* Runs the selected variants interleaved: warmup frames, then o->frames
 * timed frames each. Returns the number of variants run: 0 with --list-variants
 * (after printing the names, one per line) or when --variant names none of
 * them (after saying so). A bench then exits with o->list ? 0 : 2. */
int bench_run(bench_variant *variants, int count, const bench_options *o);

typedef struct bench_report {
    const char *title;         /* e.g. "hierarchy: 1000 characters x 96 joints" */
    const char *element;       /* unit of work for ns/element, e.g. "joint" */
    double elements_per_frame; /* e.g. 96000 */
    int baseline;              /* index of the variant ratios are relative to */
    const char *seed_note;     /* e.g. "seed 001, i7-2600K, 2013", or NULL */
    const char *note;          /* free text printed under the table, or NULL */
} bench_report;

/* Prints the table (or JSON with o->json) of the variants that ran. */
void bench_print(const bench_report *report, const bench_variant *variants, int count,
                 const bench_options *o);

/* Bytes --cache cold touches before each frame: twice the largest cache the
 * system reports, at least 64 MiB. */
size_t bench_eviction_bytes(void);

/* Keeps the compiler from discarding a computed result. */
void bench_consume(const void *p, size_t bytes);


/* ---- several reports over one interleaved run ---- */

/* Variants [first, first + count) of one bench_run, reported together. */
typedef struct bench_group {
    bench_report report; /* report.baseline indexes into the group */
    int first;
    int count;
} bench_group;

/* Prints each group that ran as bench_print does; with --json, one object
 * {"bench": name, "groups": [report, ...]}. */
void bench_print_groups(const char *bench, const bench_group *groups, int group_count,
                        const bench_variant *variants, const bench_options *o);

/* True when --variant selects v (or selects nothing). Benches use it to set
 * up only what will run. */
bool bench_selected(const bench_variant *v, const bench_options *o);

/* ---- the machine ---- */

/* Sustained bandwidth in GB/s (1e9 bytes/s) of streaming reads and of
 * streaming writes (plain stores, so read-for-ownership included) over a
 * buffer of `bytes`: the medians of repeated passes after a warm-up, so a
 * buffer that fits a cache measures that cache. */
void bench_bandwidth(size_t bytes, double *read_gbps, double *write_gbps);

#endif /* OSSA_BENCH_HARNESS_H */
