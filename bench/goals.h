/* goals.h - the goals the issues set, checked by the benchmarks themselves:
 * each verdict is computed from this run's measured figure, never typed into
 * a document. A goal applies only to the setting it was stated for (a
 * character, a count, a thread count); in any other setting the benchmark
 * says so instead of a verdict. */
#ifndef OSSA_BENCH_GOALS_H
#define OSSA_BENCH_GOALS_H

#include <stdbool.h>

#include "harness.h"

typedef enum bench_goal_kind {
    BENCH_AT_MOST = 0, /* measured <= target */
    BENCH_AT_LEAST     /* measured >= target */
} bench_goal_kind;

typedef struct bench_goal {
    const char *what;     /* e.g. "sample 1000 characters x 67 joints, one clip" */
    const char *unit;     /* e.g. "ms", "x ozz" */
    double measured;      /* this run's figure; < 0: not measured in this run */
    bench_goal_kind kind;
    double target;
    const char *source;   /* where the goal comes from, e.g. "issue 10" */
    /* Whether this run is the setting the goal is stated for; when not,
     * `setting` says what the goal needs (e.g. "ozz's 67-joint pab skeleton"). */
    bool applies;
    const char *setting;
} bench_goal;

/* "met", "not met", "not measured" or "other setting". */
const char *bench_goal_verdict(const bench_goal *goal);

/* Prints the goals under a heading, one line each with the figure, the
 * target and the verdict; with o->json, a JSON array (no heading) for the
 * caller to place under a key. */
void bench_print_goals(const bench_goal *goals, int count, const bench_options *o);

#endif /* OSSA_BENCH_GOALS_H */
