/* ossa/particles.h - a particle system laid out as seed 003 ends up.
 *
 * Live particles are packed at the front of structure-of-arrays columns
 * (position, velocity, age): spawn appends, a particle that dies is replaced
 * by the last live one, so the update walks [0, count) with no liveness
 * test, and no flag is stored. Every particle lives `lifetime_s`. Each step:
 *   v += gravity dt;  v *= 1 / (1 + drag dt);  p += v dt;  age += dt;
 * then particles with age >= lifetime_s die.
 * Memory: the caller's (size, then init); nothing is allocated. Not
 * thread-safe: one system per thread, or external locking. */
#ifndef OSSA_PARTICLES_H
#define OSSA_PARTICLES_H

#include <stddef.h>

#include "math.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_particles ossa_particles;

typedef struct ossa_particles_desc {
    int capacity;        /* most live particles, >= 1 */
    float lifetime_s;    /* 0 means 1 second */
    ossa_float3 gravity; /* acceleration, units / s^2; zero means none */
    float drag;          /* per second, >= 0; 0 means none */
} ossa_particles_desc;

/* Bytes ossa_particles_init needs (64-byte aligned memory); 0 for a bad desc. */
size_t ossa_particles_size(const ossa_particles_desc *desc);
ossa_result ossa_particles_init(ossa_particles **out, void *memory, size_t bytes,
                                const ossa_particles_desc *desc);

/* Appends a particle of age 0. OSSA_ERR_FULL (and nothing changes) at
 * capacity; OSSA_ERR_BAD_VALUE when a value is not finite. */
ossa_result ossa_particles_spawn(ossa_particles *particles, ossa_float3 position,
                                 ossa_float3 velocity);
/* Advances every live particle by dt_s (>= 0, finite) and removes the dead. */
ossa_result ossa_particles_update(ossa_particles *particles, float dt_s);

/* The live particles, columns of `count` floats each (valid until the next
 * spawn or update). */
typedef struct ossa_particle_view {
    int count;
    const float *x, *y, *z;
    const float *vx, *vy, *vz;
    const float *age_s;
} ossa_particle_view;

ossa_particle_view ossa_particles_view(const ossa_particles *particles);
int ossa_particles_count(const ossa_particles *particles);
/* Spawns refused because the system was full, since init. */
long ossa_particles_dropped(const ossa_particles *particles);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_PARTICLES_H */
