/* locality_bench.c - `ossa bench locality`: seed 003's three experiments
 * side by side in one run, each as the seed writes the "before" (a
 * competent programmer's version) and the "after":
 *   (a) entities: an array of pointers to heap entities holding pointers to
 *       heap components, allocated and freed over time so the heap is
 *       scattered, vs one contiguous array per component;
 *   (b) particles: `if (active)` over a pool vs the live ones packed at the
 *       front, at 10%, 50% and 90% live;
 *   (c) AI: a fat component with its cold loot data inline vs hot/cold split.
 * The work per element is the same on both sides of each pair. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "harness.h"

#define DT (1.0f / 60.0f)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng_state >> 33);
}

static float rndf(void)
{
    return (float)(rnd() >> 8) * (1.0f / 16777216.0f);
}

/* ---- (a) entities ---- */

/* Components of 64 bytes: a little state each, updated each frame. */
typedef struct ai_component {
    float goal[3], mood, timer, energy;
    uint32_t state;
    float memory[9];
} ai_component;

typedef struct physics_component {
    float position[3], velocity[3], acceleration[3], mass, drag;
    float contacts[5];
} physics_component;

typedef struct render_component {
    float position[3], radius, color[4];
    uint32_t mesh, lod;
    float distance;
    float material[5];
} render_component;

static void ai_update(ai_component *a)
{
    a->timer -= DT;
    a->energy += DT * (a->mood - 0.5f);
    a->goal[0] += DT * a->energy;
    a->state = a->timer < 0.0f ? 1u : a->state;
}

static void physics_update(physics_component *p)
{
    for (int k = 0; k < 3; ++k) {
        p->velocity[k] = (p->velocity[k] + p->acceleration[k] * DT) * (1.0f - p->drag * DT);
        p->position[k] += p->velocity[k] * DT;
    }
}

static void render_update(render_component *r)
{
    r->distance = r->position[0] * r->position[0] + r->position[1] * r->position[1] +
                  r->position[2] * r->position[2];
    r->lod = r->distance > 400.0f ? 2u : (r->distance > 100.0f ? 1u : 0u);
}

static void init_components(ai_component *a, physics_component *p, render_component *r)
{
    memset(a, 0, sizeof *a);
    memset(p, 0, sizeof *p);
    memset(r, 0, sizeof *r);
    a->mood = rndf();
    a->timer = 10.0f * rndf();
    p->position[0] = 40.0f * rndf() - 20.0f;
    p->position[2] = 40.0f * rndf() - 20.0f;
    p->velocity[0] = rndf() - 0.5f;
    p->acceleration[1] = -9.8f;
    p->mass = 1.0f;
    p->drag = 0.1f;
    memcpy(r->position, p->position, sizeof r->position);
    r->radius = 1.0f;
}

/* The seed's GameEntity: pointers to its components. */
typedef struct game_entity {
    ai_component *ai;
    physics_component *physics;
    render_component *render;
} game_entity;

typedef struct entities_naive {
    game_entity **entities;
    int count;
    void **other; /* the rest of the game's allocations, 2 x count, some NULL */
} entities_naive;

typedef struct entities_arrays {
    ai_component *ai;
    physics_component *physics;
    render_component *render;
    int count;
} entities_arrays;

static game_entity *entity_new(void)
{
    game_entity *e = malloc(sizeof *e);
    e->ai = malloc(sizeof *e->ai);
    e->physics = malloc(sizeof *e->physics);
    e->render = malloc(sizeof *e->render);
    init_components(e->ai, e->physics, e->render);
    return e;
}

static void entity_delete(game_entity *e)
{
    free(e->ai);
    free(e->physics);
    free(e->render);
    free(e);
}

/* A game's heap after a while: entities made among other allocations (of
 * any size, most later freed), half of them destroyed and respawned into
 * the holes, and the entity list in spawn order, not address order. */
static void entities_naive_init(entities_naive *x, int count)
{
    x->count = count;
    x->entities = malloc(sizeof *x->entities * (size_t)count);
    void **other = x->other = malloc(sizeof *other * (size_t)count * 2);
    for (int i = 0; i < count; ++i) {
        other[2 * i] = malloc(16 + rnd() % 512);
        x->entities[i] = entity_new();
        other[2 * i + 1] = malloc(16 + rnd() % 256);
    }
    for (int i = 0; i < 2 * count; ++i)
        if (rnd() % 4 != 0) {
            free(other[i]);
            other[i] = NULL;
        }
    for (int i = 0; i < count; ++i)
        if (rnd() % 2) {
            entity_delete(x->entities[i]);
            x->entities[i] = NULL;
        }
    for (int i = 0; i < count; ++i)
        if (!x->entities[i])
            x->entities[i] = entity_new();
    for (int i = count - 1; i > 0; --i) { /* spawn order */
        const int j = (int)(rnd() % (uint32_t)(i + 1));
        game_entity *t = x->entities[i];
        x->entities[i] = x->entities[j];
        x->entities[j] = t;
    }
}

static void entities_naive_fini(entities_naive *x)
{
    for (int i = 0; i < x->count; ++i)
        entity_delete(x->entities[i]);
    for (int i = 0; i < 2 * x->count; ++i)
        free(x->other[i]);
    free(x->entities);
    free(x->other);
}

static void entities_arrays_init(entities_arrays *x, int count)
{
    x->count = count;
    x->ai = cli_alloc(sizeof *x->ai * (size_t)count);
    x->physics = cli_alloc(sizeof *x->physics * (size_t)count);
    x->render = cli_alloc(sizeof *x->render * (size_t)count);
    for (int i = 0; i < count; ++i)
        init_components(&x->ai[i], &x->physics[i], &x->render[i]);
}

static void entities_naive_frame(void *ctx)
{
    entities_naive *x = ctx;
    for (int i = 0; i < x->count; ++i)
        ai_update(x->entities[i]->ai);
    for (int i = 0; i < x->count; ++i)
        physics_update(x->entities[i]->physics);
    for (int i = 0; i < x->count; ++i)
        render_update(x->entities[i]->render);
}

static void entities_arrays_frame(void *ctx)
{
    entities_arrays *x = ctx;
    for (int i = 0; i < x->count; ++i)
        ai_update(&x->ai[i]);
    for (int i = 0; i < x->count; ++i)
        physics_update(&x->physics[i]);
    for (int i = 0; i < x->count; ++i)
        render_update(&x->render[i]);
}

/* ---- (b) particles ---- */

typedef struct flagged_particle {
    float position[3], velocity[3], life;
    int active;
} flagged_particle;

typedef struct packed_particle { /* no flag: the position in the array says it */
    float position[3], velocity[3], life;
} packed_particle;

#define PARTICLE_UPDATE(p)                                                                     \
    do {                                                                                       \
        (p)->velocity[1] -= 9.8f * DT;                                                         \
        (p)->position[0] += (p)->velocity[0] * DT;                                             \
        (p)->position[1] += (p)->velocity[1] * DT;                                             \
        (p)->position[2] += (p)->velocity[2] * DT;                                             \
        (p)->life -= DT;                                                                       \
    } while (0)

typedef struct particles_flagged {
    flagged_particle *pool;
    int capacity;
} particles_flagged;

typedef struct particles_packed {
    packed_particle *pool;
    int live;
} particles_packed;

static void particles_flagged_init(particles_flagged *x, int capacity, int live)
{
    x->capacity = capacity;
    x->pool = cli_alloc(sizeof *x->pool * (size_t)capacity);
    for (int i = 0; i < capacity; ++i) {
        flagged_particle *p = &x->pool[i];
        memset(p, 0, sizeof *p);
        p->velocity[0] = rndf() - 0.5f;
        p->velocity[1] = 2.0f * rndf();
        p->life = 1e9f;
        p->active = i < live;
    }
    for (int i = capacity - 1; i > 0; --i) { /* the live ones anywhere in the pool */
        const int j = (int)(rnd() % (uint32_t)(i + 1));
        const int t = x->pool[i].active;
        x->pool[i].active = x->pool[j].active;
        x->pool[j].active = t;
    }
}

static void particles_packed_init(particles_packed *x, int live)
{
    x->live = live;
    x->pool = cli_alloc(sizeof *x->pool * (size_t)(live ? live : 1));
    for (int i = 0; i < live; ++i) {
        packed_particle *p = &x->pool[i];
        memset(p, 0, sizeof *p);
        p->velocity[0] = rndf() - 0.5f;
        p->velocity[1] = 2.0f * rndf();
        p->life = 1e9f;
    }
}

static void particles_flagged_frame(void *ctx)
{
    particles_flagged *x = ctx;
    for (int i = 0; i < x->capacity; ++i)
        if (x->pool[i].active)
            PARTICLE_UPDATE(&x->pool[i]);
}

static void particles_packed_frame(void *ctx)
{
    particles_packed *x = ctx;
    for (int i = 0; i < x->live; ++i)
        PARTICLE_UPDATE(&x->pool[i]);
}

/* ---- (c) AI: hot/cold ---- */

enum { ANIM_WALK, ANIM_TIRED };

typedef struct fat_ai { /* the seed's AIComponent with its loot and more inline */
    uint32_t animation;
    float energy;
    float goal[3];
    /* cold: read when the character dies or is inspected */
    uint32_t loot_type;
    int min_drops, max_drops;
    double chance_of_drop;
    char name[32];
    float spawn_position[3];
    uint32_t kills, deaths;
    double spawn_time;
    float statistics[6];
} fat_ai;

typedef struct hot_ai { /* what the update touches: 20 bytes */
    uint32_t animation;
    float energy;
    float goal[3];
} hot_ai;

typedef struct cold_ai {
    uint32_t loot_type;
    int min_drops, max_drops;
    double chance_of_drop;
    char name[32];
    float spawn_position[3];
    uint32_t kills, deaths;
    double spawn_time;
    float statistics[6];
} cold_ai;

#define AI_UPDATE(a)                                                                           \
    do {                                                                                       \
        (a)->energy -= 0.05f * DT;                                                             \
        (a)->goal[0] += DT * (a)->energy;                                                      \
        (a)->goal[2] -= DT * (a)->energy;                                                      \
        (a)->animation = (a)->energy < 0.3f ? ANIM_TIRED : ANIM_WALK;                          \
    } while (0)

typedef struct ai_fat {
    fat_ai *ai;
    int count;
} ai_fat;

typedef struct ai_split {
    hot_ai *hot;
    cold_ai *cold;
    int count;
} ai_split;

_Static_assert(sizeof(fat_ai) == 128, "the fat component is two cache lines");
_Static_assert(sizeof(hot_ai) == 20, "the hot part is 20 bytes");

static void ai_fat_init(ai_fat *x, int count)
{
    x->count = count;
    x->ai = cli_alloc(sizeof *x->ai * (size_t)count);
    memset(x->ai, 0, sizeof *x->ai * (size_t)count);
    for (int i = 0; i < count; ++i)
        x->ai[i].energy = rndf();
}

static void ai_split_init(ai_split *x, int count)
{
    x->count = count;
    x->hot = cli_alloc(sizeof *x->hot * (size_t)count);
    x->cold = cli_alloc(sizeof *x->cold * (size_t)count);
    memset(x->hot, 0, sizeof *x->hot * (size_t)count);
    memset(x->cold, 0, sizeof *x->cold * (size_t)count);
    for (int i = 0; i < count; ++i)
        x->hot[i].energy = rndf();
}

static void ai_fat_frame(void *ctx)
{
    ai_fat *x = ctx;
    for (int i = 0; i < x->count; ++i)
        AI_UPDATE(&x->ai[i]);
}

static void ai_split_frame(void *ctx)
{
    ai_split *x = ctx;
    for (int i = 0; i < x->count; ++i)
        AI_UPDATE(&x->hot[i]);
}

/* ---- the run ---- */

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
            entities_naive_init(&en, entities);
        if (bench_selected(&v[1], &o))
            entities_arrays_init(&ea, entities);
        for (int k = 0; k < 3; ++k) {
            const int live = (int)((int64_t)particles * percent[k] / 100);
            if (bench_selected(&v[2 + 2 * k], &o))
                particles_flagged_init(&pf[k], particles, live);
            if (bench_selected(&v[3 + 2 * k], &o))
                particles_packed_init(&pp[k], live);
        }
        if (bench_selected(&v[8], &o))
            ai_fat_init(&af, ais);
        if (bench_selected(&v[9], &o))
            ai_split_init(&as, ais);
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
    if (bench_selected(&v[1], &o)) {
        cli_free(ea.ai);
        cli_free(ea.physics);
        cli_free(ea.render);
    }
    for (int k = 0; k < 3; ++k) {
        if (bench_selected(&v[2 + 2 * k], &o))
            cli_free(pf[k].pool);
        if (bench_selected(&v[3 + 2 * k], &o))
            cli_free(pp[k].pool);
    }
    if (bench_selected(&v[8], &o))
        cli_free(af.ai);
    if (bench_selected(&v[9], &o)) {
        cli_free(as.hot);
        cli_free(as.cold);
    }
    return 0;
}
