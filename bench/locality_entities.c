/* locality_entities.c - seed 003's experiment (a) for `ossa bench locality`:
 * entities as an array of pointers to heap entities holding pointers to heap
 * components, allocated and freed over time so the heap is scattered, vs one
 * contiguous array per component. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "locality.h"

#define DT (1.0f / 60.0f)

/* Components of 64 bytes: a little state each, updated each frame. */
struct ai_component {
    float goal[3], mood, timer, energy;
    uint32_t state;
    float memory[9];
};

struct physics_component {
    float position[3], velocity[3], acceleration[3], mass, drag;
    float contacts[5];
};

struct render_component {
    float position[3], radius, color[4];
    uint32_t mesh, lod;
    float distance;
    float material[5];
};

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

static void init_components(ai_component *a, physics_component *p, render_component *r,
                            locality_rng *rng)
{
    memset(a, 0, sizeof *a);
    memset(p, 0, sizeof *p);
    memset(r, 0, sizeof *r);
    a->mood = locality_rndf(rng);
    a->timer = 10.0f * locality_rndf(rng);
    p->position[0] = 40.0f * locality_rndf(rng) - 20.0f;
    p->position[2] = 40.0f * locality_rndf(rng) - 20.0f;
    p->velocity[0] = locality_rndf(rng) - 0.5f;
    p->acceleration[1] = -9.8f;
    p->mass = 1.0f;
    p->drag = 0.1f;
    memcpy(r->position, p->position, sizeof r->position);
    r->radius = 1.0f;
}

/* The seed's GameEntity: pointers to its components. */
struct game_entity {
    ai_component *ai;
    physics_component *physics;
    render_component *render;
};

static game_entity *entity_new(locality_rng *rng)
{
    game_entity *e = malloc(sizeof *e);
    e->ai = malloc(sizeof *e->ai);
    e->physics = malloc(sizeof *e->physics);
    e->render = malloc(sizeof *e->render);
    init_components(e->ai, e->physics, e->render, rng);
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
void entities_naive_init(entities_naive *x, int count, locality_rng *rng)
{
    x->count = count;
    x->entities = malloc(sizeof *x->entities * (size_t)count);
    void **other = x->other = malloc(sizeof *other * (size_t)count * 2);
    for (int i = 0; i < count; ++i) {
        other[2 * i] = malloc(16 + locality_rnd(rng) % 512);
        x->entities[i] = entity_new(rng);
        other[2 * i + 1] = malloc(16 + locality_rnd(rng) % 256);
    }
    for (int i = 0; i < 2 * count; ++i)
        if (locality_rnd(rng) % 4 != 0) {
            free(other[i]);
            other[i] = NULL;
        }
    for (int i = 0; i < count; ++i)
        if (locality_rnd(rng) % 2) {
            entity_delete(x->entities[i]);
            x->entities[i] = NULL;
        }
    for (int i = 0; i < count; ++i)
        if (!x->entities[i])
            x->entities[i] = entity_new(rng);
    for (int i = count - 1; i > 0; --i) { /* spawn order */
        const int j = (int)(locality_rnd(rng) % (uint32_t)(i + 1));
        game_entity *t = x->entities[i];
        x->entities[i] = x->entities[j];
        x->entities[j] = t;
    }
}

void entities_naive_fini(entities_naive *x)
{
    for (int i = 0; i < x->count; ++i)
        entity_delete(x->entities[i]);
    for (int i = 0; i < 2 * x->count; ++i)
        free(x->other[i]);
    free(x->entities);
    free(x->other);
}

void entities_arrays_init(entities_arrays *x, int count, locality_rng *rng)
{
    x->count = count;
    x->ai = cli_alloc(sizeof *x->ai * (size_t)count);
    x->physics = cli_alloc(sizeof *x->physics * (size_t)count);
    x->render = cli_alloc(sizeof *x->render * (size_t)count);
    for (int i = 0; i < count; ++i)
        init_components(&x->ai[i], &x->physics[i], &x->render[i], rng);
}

void entities_arrays_fini(entities_arrays *x)
{
    cli_free(x->ai);
    cli_free(x->physics);
    cli_free(x->render);
}

void entities_naive_frame(void *ctx)
{
    entities_naive *x = ctx;
    for (int i = 0; i < x->count; ++i)
        ai_update(x->entities[i]->ai);
    for (int i = 0; i < x->count; ++i)
        physics_update(x->entities[i]->physics);
    for (int i = 0; i < x->count; ++i)
        render_update(x->entities[i]->render);
}

void entities_arrays_frame(void *ctx)
{
    entities_arrays *x = ctx;
    for (int i = 0; i < x->count; ++i)
        ai_update(&x->ai[i]);
    for (int i = 0; i < x->count; ++i)
        physics_update(&x->physics[i]);
    for (int i = 0; i < x->count; ++i)
        render_update(&x->render[i]);
}
