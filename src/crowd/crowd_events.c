/* crowd_events.c - what a crowd frame reports: footfalls (found per batch,
 * gathered in batch order at the frame's end) and the dust they raise. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* A foot going below its contact height since its last update is a
 * footfall; appended without a branch. */
void ossai_crowd_footfalls(ossa_crowd *c, int batch, int first, int n, const float *model)
{
    const int w = c->width;
    ossa_footfall *out = c->batch_footfall + (size_t)batch * (size_t)w * OSSA_CROWD_MAX_FEET;
    int found = 0;
    for (int f = 0; f < c->foot_count; ++f) {
        const float *m = model + (size_t)c->foot_joint[f] * OSSA_LANE_MODEL_COMPONENTS * (size_t)w;
        const float contact = c->foot_contact[f];
        for (int l = 0; l < n; ++l) {
            const int s = first + l;
            /* above the ground below the foot, when IK plants feet on one */
            const float base = c->ik.ground.heights
                                   ? ossa_crowd_ground_height(&c->ik.ground, m[3 * w + l],
                                                              m[11 * w + l])
                                   : c->pos_y[s];
            const float height = m[7 * w + l] - base;
            float *prev = &c->foot_prev[(size_t)s * OSSA_CROWD_MAX_FEET + (size_t)f];
            const int hit = height < contact && *prev >= contact;
            const uint32_t index = c->entity[s];
            out[found].entity = (ossa_entity){index, c->generation[index]};
            out[found].foot = f;
            out[found].position = (ossa_float3){m[3 * w + l], m[7 * w + l], m[11 * w + l]};
            found += hit;
            c->footfalls[s] += (uint32_t)hit;
            *prev = height;
        }
    }
    c->batch_events[batch] = found;
}

ossa_result ossa_crowd_end_frame(ossa_crowd *c)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    const size_t per_batch = (size_t)c->width * OSSA_CROWD_MAX_FEET;
    int n = 0;
    for (int b = 0; b < c->batch_count; ++b) {
        memcpy(c->footfall + n, c->batch_footfall + (size_t)b * per_batch,
               sizeof(ossa_footfall) * (size_t)c->batch_events[b]);
        n += c->batch_events[b];
    }
    c->footfall_count = n;
    return OSSA_OK;
}

const ossa_footfall *ossa_crowd_footfalls(const ossa_crowd *crowd, int *count)
{
    if (count)
        *count = crowd ? crowd->footfall_count : 0;
    return crowd ? crowd->footfall : NULL;
}

/* ---- dust ---- */

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static float unit(uint32_t h)
{
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

int ossa_crowd_emit_dust(const ossa_crowd *crowd, ossa_particles *particles, int puffs,
                         float speed)
{
    if (!crowd || !particles || puffs < 1 || !isfinite(speed))
        return 0;
    int spawned = 0;
    for (int i = 0; i < crowd->footfall_count; ++i) {
        const ossa_footfall *f = &crowd->footfall[i];
        for (int k = 0; k < puffs; ++k) {
            const uint32_t h = hash(f->entity.index * 0x9e3779b9u ^ hash((uint32_t)crowd->frame) ^
                                    (uint32_t)(f->foot * 64 + k));
            const float angle = 6.2831853f * unit(h), out = 0.5f + 0.5f * unit(hash(h));
            const ossa_float3 v = {speed * out * cosf(angle), speed * 0.5f * unit(hash(h + 1)),
                                   speed * out * sinf(angle)};
            if (ossa_particles_spawn(particles, f->position, v) != OSSA_OK)
                return spawned;
            ++spawned;
        }
    }
    return spawned;
}
