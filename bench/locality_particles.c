/* locality_particles.c - seed 003's experiment (b) for `ossa bench locality`:
 * particles updated with `if (active)` over a pool vs the live ones packed at
 * the front (the run tries 10%, 50% and 90% live). */
#include <stdint.h>
#include <string.h>

#include "cli.h"
#include "locality.h"

#define DT (1.0f / 60.0f)

struct flagged_particle {
    float position[3], velocity[3], life;
    int active;
};

struct packed_particle { /* no flag: the position in the array says it */
    float position[3], velocity[3], life;
};

#define PARTICLE_UPDATE(p)                                                                     \
    do {                                                                                       \
        (p)->velocity[1] -= 9.8f * DT;                                                         \
        (p)->position[0] += (p)->velocity[0] * DT;                                             \
        (p)->position[1] += (p)->velocity[1] * DT;                                             \
        (p)->position[2] += (p)->velocity[2] * DT;                                             \
        (p)->life -= DT;                                                                       \
    } while (0)

void particles_flagged_init(particles_flagged *x, int capacity, int live, locality_rng *rng)
{
    x->capacity = capacity;
    x->pool = cli_alloc(sizeof *x->pool * (size_t)capacity);
    for (int i = 0; i < capacity; ++i) {
        flagged_particle *p = &x->pool[i];
        memset(p, 0, sizeof *p);
        p->velocity[0] = locality_rndf(rng) - 0.5f;
        p->velocity[1] = 2.0f * locality_rndf(rng);
        p->life = 1e9f;
        p->active = i < live;
    }
    for (int i = capacity - 1; i > 0; --i) { /* the live ones anywhere in the pool */
        const int j = (int)(locality_rnd(rng) % (uint32_t)(i + 1));
        const int t = x->pool[i].active;
        x->pool[i].active = x->pool[j].active;
        x->pool[j].active = t;
    }
}

void particles_packed_init(particles_packed *x, int live, locality_rng *rng)
{
    x->live = live;
    x->pool = cli_alloc(sizeof *x->pool * (size_t)(live ? live : 1));
    for (int i = 0; i < live; ++i) {
        packed_particle *p = &x->pool[i];
        memset(p, 0, sizeof *p);
        p->velocity[0] = locality_rndf(rng) - 0.5f;
        p->velocity[1] = 2.0f * locality_rndf(rng);
        p->life = 1e9f;
    }
}

void particles_flagged_fini(particles_flagged *x)
{
    cli_free(x->pool);
}

void particles_packed_fini(particles_packed *x)
{
    cli_free(x->pool);
}

void particles_flagged_frame(void *ctx)
{
    particles_flagged *x = ctx;
    for (int i = 0; i < x->capacity; ++i)
        if (x->pool[i].active)
            PARTICLE_UPDATE(&x->pool[i]);
}

void particles_packed_frame(void *ctx)
{
    particles_packed *x = ctx;
    for (int i = 0; i < x->live; ++i)
        PARTICLE_UPDATE(&x->pool[i]);
}
