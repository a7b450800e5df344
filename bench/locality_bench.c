/* locality_bench.c - `ossa bench locality`: seed 003's three experiments
 * (locality.h; locality_entities.c, locality_particles.c, locality_ai.c) side
 * by side in one run, before vs after, variants interleaved, in one table. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "harness.h"
#include "locality.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa bench locality [--entities N] [--particles N] [--ai N] [options]\n"
            "\n"
            "Seed 003's three experiments, before vs after, interleaved in one run:\n"
            "  (a) entity pointers to scattered heap components vs component arrays\n"
            "  (b) particles with if (active) vs packed live particles, 10/50/90%% live\n"
            "  (c) a fat AI component vs hot/cold split\n"
            "  --entities N   entities in (a) (default 200000: the heap outgrows the LLC)\n"
            "  --particles N  particle pool in (b) (default 2000000: 64 MB, past the LLC)\n"
            "  --ai N         AI components in (c) (default 1000000)\n"
            "%s",
            bench_common_help());
}

int bench_locality_main(int argc, char **argv)
{
    bench_options o = {0};
    o.frames = 30;
    o.warmup = 3;
    int entities = 200000, particles = 2000000, ais = 1000000;
    for (int i = 1; i < argc; ++i) {
        int r = bench_parse_option(argc, argv, &i, &o);
        if (r < 0)
            return 2;
        if (r > 0)
            continue;
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--entities", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 1, 50000000, &entities))
                return 2;
        } else if (cli_is(argv[i], "--particles", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 10, 100000000, &particles))
                return 2;
        } else if (cli_is(argv[i], "--ai", NULL)) {
            if (!cli_int_arg(argc, argv, &i, 1, 100000000, &ais))
                return 2;
        } else {
            cli_error("bench locality", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    static const int percent[3] = {10, 50, 90};
    locality_rng rng = locality_rng_make();
    entities_naive en;
    entities_arrays ea;
    particles_flagged pf[3];
    particles_packed pp[3];
    ai_fat af;
    ai_split as;
    bench_variant v[10] = {
        [0] = {.name = "entities-pointers",
               .label = "entity pointers -> scattered heap components",
               .run = entities_naive_frame,
               .context = &en,
               .seed_ms = -1},
        [1] = {.name = "entities-arrays",
               .label = "contiguous component arrays",
               .run = entities_arrays_frame,
               .context = &ea,
               .seed_ms = -1},
        [8] = {.name = "ai-fat",
               .label = "fat AI component (128 B, loot inline)",
               .run = ai_fat_frame,
               .context = &af,
               .seed_ms = -1},
        [9] = {.name = "ai-split",
               .label = "hot/cold split (20 B hot)",
               .run = ai_split_frame,
               .context = &as,
               .seed_ms = -1},
    };
    /* v[2 + 2k], v[3 + 2k]: the particles with percent[k] live, flagged and packed. */
    char names[6][32], labels[6][64];
    for (int k = 0; k < 3; ++k) {
        const int f = 2 * k, p = 2 * k + 1;
        snprintf(names[f], sizeof names[f], "particles-%d-flag", percent[k]);
        snprintf(labels[f], sizeof labels[f], "%d%% live: if (active) over the pool", percent[k]);
        snprintf(names[p], sizeof names[p], "particles-%d-packed", percent[k]);
        snprintf(labels[p], sizeof labels[p], "%d%% live: packed at the front", percent[k]);
        v[2 + f] = (bench_variant){.name = names[f], .label = labels[f],
                                   .run = particles_flagged_frame, .context = &pf[k],
                                   .seed_ms = -1};
        v[2 + p] = (bench_variant){.name = names[p], .label = labels[p],
                                   .run = particles_packed_frame, .context = &pp[k],
                                   .seed_ms = -1};
    }
    const int count = (int)(sizeof v / sizeof v[0]);
    if (!o.list) { /* set up only what runs */
        if (bench_selected(&v[0], &o))
            entities_naive_init(&en, entities, &rng);
        if (bench_selected(&v[1], &o))
            entities_arrays_init(&ea, entities, &rng);
        for (int k = 0; k < 3; ++k) {
            const int live = (int)((int64_t)particles * percent[k] / 100);
            if (bench_selected(&v[2 + 2 * k], &o))
                particles_flagged_init(&pf[k], particles, live, &rng);
            if (bench_selected(&v[3 + 2 * k], &o))
                particles_packed_init(&pp[k], live, &rng);
        }
        if (bench_selected(&v[8], &o))
            ai_fat_init(&af, ais, &rng);
        if (bench_selected(&v[9], &o))
            ai_split_init(&as, ais, &rng);
    }
    if (bench_run(v, count, &o) == 0)
        return o.list ? 0 : 2;
    char titles[5][128];
    snprintf(titles[0], sizeof titles[0], "(a) entities: %d entities x 3 components of 64 B",
             entities);
    for (int k = 0; k < 3; ++k)
        snprintf(titles[1 + k], sizeof titles[1 + k],
                 "(b) particles: pool of %d, %d%% live (ns per live particle)", particles,
                 percent[k]);
    snprintf(titles[4], sizeof titles[4], "(c) AI: %d components", ais);
    bench_group groups[5];
    memset(groups, 0, sizeof groups);
    groups[0].report.title = titles[0];
    groups[0].report.element = "entity";
    groups[0].report.elements_per_frame = entities;
    groups[0].report.seed_note = "seed 003: component arrays ~50x faster than pointer chasing";
    groups[0].first = 0;
    groups[0].count = 2;
    for (int k = 0; k < 3; ++k) {
        groups[1 + k].report.title = titles[1 + k];
        groups[1 + k].report.element = "particle";
        groups[1 + k].report.elements_per_frame =
            (double)(int)((int64_t)particles * percent[k] / 100);
        groups[1 + k].first = 2 + 2 * k;
        groups[1 + k].count = 2;
    }
    groups[4].report.title = titles[4];
    groups[4].report.element = "component";
    groups[4].report.elements_per_frame = ais;
    groups[4].first = 8;
    groups[4].count = 2;
    bench_print_groups("locality", groups, 5, v, &o);
    if (bench_selected(&v[0], &o))
        entities_naive_fini(&en);
    if (bench_selected(&v[1], &o))
        entities_arrays_fini(&ea);
    for (int k = 0; k < 3; ++k) {
        if (bench_selected(&v[2 + 2 * k], &o))
            particles_flagged_fini(&pf[k]);
        if (bench_selected(&v[3 + 2 * k], &o))
            particles_packed_fini(&pp[k]);
    }
    if (bench_selected(&v[8], &o))
        ai_fat_fini(&af);
    if (bench_selected(&v[9], &o))
        ai_split_fini(&as);
    return 0;
}
