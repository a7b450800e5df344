/* locality.h - seed 003's three experiments, which `ossa bench locality`
 * (locality_bench.c) runs side by side: for each, the "before" (a competent
 * programmer's version) and the "after" as contexts with an init, one frame
 * (a bench_variant's run) and a fini. The work per element is the same on
 * both sides of each pair. Benchmark code only: never part of the library. */
#ifndef OSSA_BENCH_LOCALITY_H
#define OSSA_BENCH_LOCALITY_H

#include <stdint.h>

/* The experiments' random numbers: one generator for the whole run, passed
 * to each init in turn, so the data depend only on which variants run. */
typedef struct locality_rng {
    uint64_t state;
} locality_rng;

static inline locality_rng locality_rng_make(void)
{
    return (locality_rng){0x9E3779B97F4A7C15ull};
}

static inline uint32_t locality_rnd(locality_rng *r)
{
    r->state = r->state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(r->state >> 33);
}

/* Uniform in [0, 1). */
static inline float locality_rndf(locality_rng *r)
{
    return (float)(locality_rnd(r) >> 8) * (1.0f / 16777216.0f);
}

/* ---- (a) entities (locality_entities.c) ---- */

typedef struct ai_component ai_component;
typedef struct physics_component physics_component;
typedef struct render_component render_component;
typedef struct game_entity game_entity;

/* Before: an array of pointers to heap entities holding pointers to heap
 * components, allocated and freed over time so the heap is scattered. */
typedef struct entities_naive {
    game_entity **entities;
    int count;
    void **other; /* the rest of the game's allocations, 2 x count, some NULL */
} entities_naive;

/* After: one contiguous array per component. */
typedef struct entities_arrays {
    ai_component *ai;
    physics_component *physics;
    render_component *render;
    int count;
} entities_arrays;

void entities_naive_init(entities_naive *x, int count, locality_rng *rng);
void entities_naive_frame(void *ctx);
void entities_naive_fini(entities_naive *x);
void entities_arrays_init(entities_arrays *x, int count, locality_rng *rng);
void entities_arrays_frame(void *ctx);
void entities_arrays_fini(entities_arrays *x);

/* ---- (b) particles (locality_particles.c) ---- */

typedef struct flagged_particle flagged_particle;
typedef struct packed_particle packed_particle;

/* Before: `if (active)` over the whole pool. */
typedef struct particles_flagged {
    flagged_particle *pool;
    int capacity;
} particles_flagged;

/* After: the live particles packed at the front. */
typedef struct particles_packed {
    packed_particle *pool;
    int live;
} particles_packed;

void particles_flagged_init(particles_flagged *x, int capacity, int live, locality_rng *rng);
void particles_flagged_frame(void *ctx);
void particles_flagged_fini(particles_flagged *x);
void particles_packed_init(particles_packed *x, int live, locality_rng *rng);
void particles_packed_frame(void *ctx);
void particles_packed_fini(particles_packed *x);

/* ---- (c) AI: hot/cold (locality_ai.c) ---- */

typedef struct fat_ai fat_ai;
typedef struct hot_ai hot_ai;
typedef struct cold_ai cold_ai;

/* Before: a fat component with its cold loot data inline. */
typedef struct ai_fat {
    fat_ai *ai;
    int count;
} ai_fat;

/* After: the hot part the update touches, split from the cold rest. */
typedef struct ai_split {
    hot_ai *hot;
    cold_ai *cold;
    int count;
} ai_split;

void ai_fat_init(ai_fat *x, int count, locality_rng *rng);
void ai_fat_frame(void *ctx);
void ai_fat_fini(ai_fat *x);
void ai_split_init(ai_split *x, int count, locality_rng *rng);
void ai_split_frame(void *ctx);
void ai_split_fini(ai_split *x);

#endif /* OSSA_BENCH_LOCALITY_H */
