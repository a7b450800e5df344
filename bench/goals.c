/* goals.c - see goals.h. */
#include "goals.h"

#include <stdio.h>

const char *bench_goal_verdict(const bench_goal *g)
{
    if (!g->applies)
        return "other setting";
    if (!(g->measured >= 0))
        return "not measured";
    const bool met = g->kind == BENCH_AT_MOST ? g->measured <= g->target
                                              : g->measured >= g->target;
    return met ? "met" : "NOT MET";
}

void bench_print_goals(const bench_goal *goals, int count, const bench_options *o)
{
    if (o->json) {
        printf("[");
        for (int i = 0; i < count; ++i) {
            const bench_goal *g = &goals[i];
            printf("%s\n  {\"goal\": \"%s\", \"unit\": \"%s\", \"measured\": %.6g, "
                   "\"%s\": %.6g, \"source\": \"%s\", \"verdict\": \"%s\"",
                   i ? "," : "", g->what, g->unit, g->measured,
                   g->kind == BENCH_AT_MOST ? "at_most" : "at_least", g->target, g->source,
                   bench_goal_verdict(g));
            if (!g->applies)
                printf(", \"setting\": \"%s\"", g->setting);
            printf("}");
        }
        printf("\n]");
        return;
    }
    printf("\ngoals (verdicts from this run's figures):\n");
    for (int i = 0; i < count; ++i) {
        const bench_goal *g = &goals[i];
        char figure[32] = "-";
        if (g->measured >= 0)
            snprintf(figure, sizeof figure, "%.3f", g->measured);
        printf("  %-52s %9s %-5s %s %-7.3g %-13s (%s)\n", g->what, figure, g->unit,
               g->kind == BENCH_AT_MOST ? "<=" : ">=", g->target, bench_goal_verdict(g),
               g->source);
        if (!g->applies)
            printf("  %52s (the goal is for %s)\n", "", g->setting);
    }
}
