/* crowd_locomotion.c - the crowd's playheads: fades (weight_b moving
 * linearly from its start to its target over the fade), phase sync (both
 * layers at one phase, advancing at the blended duration's rate), the
 * advance of both layers every frame, and transitions that start fades. */
#include "crowd_internal.h"

#include <math.h>

/* t + step wrapped into [0, duration) (duration +inf: a one-frame clip). */
static inline float advance(float t, float step, float duration)
{
    t += step;
    if (t >= duration || t < 0.0f) {
        t = fmodf(t, duration);
        t = t < 0.0f ? t + duration : t;
        t = t >= duration ? 0.0f : t;
    }
    return t;
}

void ossai_crowd_advance(ossa_crowd *c, float dt_s, int active)
{
    for (int s = 0; s < active; ++s) {
        /* the fade: data, the same arithmetic for everyone (rate 0: none) */
        const float t = c->fade_t[s] + dt_s;
        c->fade_t[s] = t;
        const float ratio = fminf(t * c->fade_rate[s], 1.0f);
        const float w = c->fade_from[s] + (c->fade_to[s] - c->fade_from[s]) * ratio;
        c->weight_b[s] = w;
        const float da = c->clip_duration[c->clip_a[s]], db = c->clip_duration[c->clip_b[s]];
        const float step = dt_s * c->speed[s];
        float step_a = step, step_b = step;
        if (c->sync[s] && da < INFINITY && db < INFINITY) {
            /* one phase for both, at the rate of the blended duration */
            const float blended = (1.0f - w) * da + w * db;
            step_a = step * da / blended;
            step_b = step * db / blended;
            c->time_a[s] = advance(c->time_a[s], step_a, da);
            c->time_b[s] = c->time_a[s] / da * db;
        } else {
            c->time_a[s] = advance(c->time_a[s], step_a, da);
            c->time_b[s] = advance(c->time_b[s], step_b, db);
        }
        c->pending_a[s] += step_a;
        c->pending_b[s] += step_b;
    }
}

void ossai_crowd_locomotion_reset(ossa_crowd *c, int slot, bool sync)
{
    c->pending_a[slot] = c->pending_b[slot] = 0.0f;
    c->sync[slot] = sync;
    c->fade_t[slot] = c->fade_rate[slot] = 0.0f;
    c->fade_from[slot] = c->fade_to[slot] = c->weight_b[slot];
    if (sync) {
        const float da = c->clip_duration[c->clip_a[slot]];
        const float db = c->clip_duration[c->clip_b[slot]];
        if (da < INFINITY && db < INFINITY)
            c->time_b[slot] = c->time_a[slot] / da * db;
    }
}

void ossai_crowd_locomotion_state(const ossa_crowd *c, int slot, ossa_character_state *out)
{
    out->sync = c->sync[slot] != 0;
    out->fade_to = c->fade_to[slot];
    const float left = c->fade_rate[slot] > 0.0f ? 1.0f / c->fade_rate[slot] - c->fade_t[slot]
                                                 : 0.0f;
    out->fade_left_s = left > 0.0f ? left : 0.0f;
}

static int slot_of(const ossa_crowd *c, ossa_entity e)
{
    if (!c || e.index >= (uint32_t)c->capacity || e.generation == 0 ||
        c->generation[e.index] != e.generation)
        return -1;
    return c->slot_of[e.index];
}

ossa_result ossa_crowd_set_sync(ossa_crowd *crowd, ossa_entity e, bool sync)
{
    const int slot = slot_of(crowd, e);
    if (slot < 0)
        return crowd ? OSSA_ERR_STALE_ID : OSSA_ERR_MISSING_INPUT;
    if (sync && !crowd->sync[slot]) {
        const float da = crowd->clip_duration[crowd->clip_a[slot]];
        const float db = crowd->clip_duration[crowd->clip_b[slot]];
        if (da < INFINITY && db < INFINITY)
            crowd->time_b[slot] = crowd->time_a[slot] / da * db;
    }
    crowd->sync[slot] = sync;
    return OSSA_OK;
}

ossa_result ossa_crowd_transition(ossa_crowd *crowd, ossa_entity e, int clip, float duration_s,
                                  bool match_phase)
{
    const int s = slot_of(crowd, e);
    if (s < 0)
        return crowd ? OSSA_ERR_STALE_ID : OSSA_ERR_MISSING_INPUT;
    if (clip < 0 || clip >= crowd->clip_count)
        return OSSA_ERR_BAD_INDEX;
    if (!(duration_s >= 0.0f) || !isfinite(duration_s))
        return OSSA_ERR_BAD_VALUE;
    /* the layer the character is heading to: b when its weight goes (or
     * is) past one half */
    const bool to_b = crowd->fade_to[s] >= 0.5f;
    if ((to_b ? crowd->clip_b[s] : crowd->clip_a[s]) == clip)
        return OSSA_OK;
    const float from_time = to_b ? crowd->time_b[s] : crowd->time_a[s];
    const float from_duration = crowd->clip_duration[to_b ? crowd->clip_b[s] : crowd->clip_a[s]];
    const float phase = from_duration < INFINITY ? from_time / from_duration : 0.0f;
    const float duration = crowd->clip_duration[clip];
    const float start = match_phase && duration < INFINITY ? phase * duration : 0.0f;
    if (to_b) { /* the new clip replaces a */
        crowd->clip_a[s] = (uint16_t)clip;
        crowd->time_a[s] = start;
        crowd->pending_a[s] = 0.0f;
    } else {
        crowd->clip_b[s] = (uint16_t)clip;
        crowd->time_b[s] = start;
        crowd->pending_b[s] = 0.0f;
    }
    const float target = to_b ? 0.0f : 1.0f;
    crowd->fade_from[s] = duration_s > 0.0f ? crowd->weight_b[s] : target;
    crowd->fade_to[s] = target;
    crowd->fade_t[s] = 0.0f;
    crowd->fade_rate[s] = duration_s > 0.0f ? 1.0f / duration_s : 0.0f;
    crowd->weight_b[s] = crowd->fade_from[s];
    return OSSA_OK;
}
