/* particles.c - live particles packed at the front of SoA columns: spawn
 * appends, death moves the last live particle into the hole (seed 003). */
#include "ossa/particles.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

enum { PX, PY, PZ, VX, VY, VZ, AGE, COLUMNS };

struct ossa_particles {
    int capacity, count;
    long dropped;
    float lifetime, drag;
    ossa_float3 gravity;
    float *column[COLUMNS]; /* capacity floats each */
};

static size_t column_bytes(int capacity)
{
    return ((size_t)capacity * sizeof(float) + 63) & ~(size_t)63;
}

static size_t header_bytes(void)
{
    return (sizeof(ossa_particles) + 63) & ~(size_t)63;
}

static int valid(const ossa_particles_desc *d)
{
    return d && d->capacity >= 1 && d->capacity <= (1 << 28) && d->lifetime_s >= 0.0f &&
           isfinite(d->lifetime_s) && d->drag >= 0.0f && isfinite(d->drag) &&
           isfinite(d->gravity.x) && isfinite(d->gravity.y) && isfinite(d->gravity.z);
}

size_t ossa_particles_size(const ossa_particles_desc *desc)
{
    return valid(desc) ? header_bytes() + COLUMNS * column_bytes(desc->capacity) : 0;
}

ossa_result ossa_particles_init(ossa_particles **out, void *memory, size_t bytes,
                                const ossa_particles_desc *desc)
{
    if (!out)
        return OSSA_ERR_MISSING_OUTPUT;
    *out = NULL;
    if (!desc)
        return OSSA_ERR_MISSING_INPUT;
    if (!valid(desc))
        return desc->capacity < 1 ? OSSA_ERR_INPUT_TOO_SMALL : OSSA_ERR_BAD_VALUE;
    if (!memory)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((uintptr_t)memory % 64 != 0)
        return OSSA_ERR_MISALIGNED;
    if (bytes < ossa_particles_size(desc))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    ossa_particles *p = (ossa_particles *)memory;
    memset(p, 0, sizeof *p);
    p->capacity = desc->capacity;
    p->lifetime = desc->lifetime_s > 0.0f ? desc->lifetime_s : 1.0f;
    p->drag = desc->drag;
    p->gravity = desc->gravity;
    unsigned char *at = (unsigned char *)memory + header_bytes();
    for (int k = 0; k < COLUMNS; ++k, at += column_bytes(desc->capacity))
        p->column[k] = (float *)(void *)at;
    *out = p;
    return OSSA_OK;
}

ossa_result ossa_particles_spawn(ossa_particles *p, ossa_float3 position, ossa_float3 velocity)
{
    if (!p)
        return OSSA_ERR_MISSING_INPUT;
    const float v[COLUMNS] = {position.x, position.y, position.z, velocity.x,
                              velocity.y, velocity.z, 0.0f};
    for (int k = 0; k < AGE; ++k)
        if (!isfinite(v[k]))
            return OSSA_ERR_BAD_VALUE;
    if (p->count == p->capacity) {
        p->dropped++;
        return OSSA_ERR_FULL;
    }
    for (int k = 0; k < COLUMNS; ++k)
        p->column[k][p->count] = v[k];
    p->count++;
    return OSSA_OK;
}

ossa_result ossa_particles_update(ossa_particles *p, float dt)
{
    if (!p)
        return OSSA_ERR_MISSING_INPUT;
    if (!(dt >= 0.0f) || !isfinite(dt))
        return OSSA_ERR_BAD_VALUE;
    const int n = p->count;
    float *restrict px = p->column[PX], *restrict py = p->column[PY], *restrict pz = p->column[PZ];
    float *restrict vx = p->column[VX], *restrict vy = p->column[VY], *restrict vz = p->column[VZ];
    float *restrict age = p->column[AGE];
    const float gx = p->gravity.x * dt, gy = p->gravity.y * dt, gz = p->gravity.z * dt;
    const float damp = 1.0f / (1.0f + p->drag * dt);
    /* every particle in [0, n) is alive: no test, one straight pass */
    for (int i = 0; i < n; ++i) {
        vx[i] = (vx[i] + gx) * damp;
        vy[i] = (vy[i] + gy) * damp;
        vz[i] = (vz[i] + gz) * damp;
        px[i] += vx[i] * dt;
        py[i] += vy[i] * dt;
        pz[i] += vz[i] * dt;
        age[i] += dt;
    }
    /* the dead leave: the last live particle fills the hole */
    int live = n;
    for (int i = 0; i < live;) {
        if (age[i] >= p->lifetime) {
            --live;
            for (int k = 0; k < COLUMNS; ++k)
                p->column[k][i] = p->column[k][live];
        } else {
            ++i;
        }
    }
    p->count = live;
    return OSSA_OK;
}

ossa_particle_view ossa_particles_view(const ossa_particles *p)
{
    ossa_particle_view v;
    v.count = p->count;
    v.x = p->column[PX];
    v.y = p->column[PY];
    v.z = p->column[PZ];
    v.vx = p->column[VX];
    v.vy = p->column[VY];
    v.vz = p->column[VZ];
    v.age_s = p->column[AGE];
    return v;
}

int ossa_particles_count(const ossa_particles *p)
{
    return p->count;
}

long ossa_particles_dropped(const ossa_particles *p)
{
    return p->dropped;
}
