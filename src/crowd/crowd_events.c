/* crowd_events.c - what a crowd frame reports: footfalls (falling
 * crossings of the feet's height tracks) and trigger events (crossings of
 * the clips' float tracks), found by the lane event job over each
 * character's dominant layer since its last update - once per chunk of
 * contiguous batches - listed per batch and gathered in batch order at the
 * frame's end; and the dust footfalls raise. */
#include "crowd_internal.h"

#include <math.h>
#include <string.h>

/* The chunk's dominant layers: clip, and the playheads of its advance. */
typedef struct dominant {
    uint16_t clip[CROWD_CHUNK];
    float from[CROWD_CHUNK], to[CROWD_CHUNK];
} dominant;

/* Events of one track set (views per clip) for the chunk's characters. */
static void watch(const ossa_crowd *c, const dominant *d, int n, const ossa_float_track *views,
                  float threshold, ossa_edge edges, ossa_track_event *events, int per,
                  int32_t *counts)
{
    ossa_lane_track_event_job job = {0};
    job.tracks = views;
    job.track_count = c->clip_count;
    job.track_index = d->clip;
    job.track_index_count = n;
    job.from_s = d->from;
    job.to_s = d->to;
    job.character_count = n;
    job.width = c->width;
    job.path = c->path;
    job.threshold = threshold;
    job.edges = edges;
    job.events = events;
    job.events_per_character = per;
    job.event_count = counts;
    if (ossa_lane_track_event_job_run(&job) != OSSA_OK)
        for (int l = 0; l < n; ++l) /* finite playheads, valid views: not reached */
            counts[l] = 0;
}

void ossai_crowd_watch(ossa_crowd *c, int batch, crowd_chunk *k)
{
    const int first = k->first, n = k->n;
    dominant d;
    for (int l = 0; l < n; ++l) {
        const int s = first + l;
        const bool b = c->weight_b[s] >= 0.5f;
        d.clip[l] = b ? c->clip_b[s] : c->clip_a[s];
        d.to[l] = b ? c->time_b[s] : c->time_a[s];
        d.from[l] = d.to[l] - (b ? c->pending_b[s] : c->pending_a[s]);
        c->pending_a[s] = c->pending_b[s] = 0.0f;
    }
    /* footfalls: counted here, listed with their positions per batch */
    ossa_track_event events[CROWD_CHUNK * OSSA_CROWD_EVENTS_PER_UPDATE];
    for (int f = 0; f < c->foot_count; ++f) {
        watch(c, &d, n, c->foot_track + (size_t)f * (size_t)c->clip_count, c->foot_contact[f],
              OSSA_EDGE_FALLING, events, 1, k->foot_hits[f]);
        for (int l = 0; l < n; ++l)
            c->footfalls[first + l] += (uint32_t)k->foot_hits[f][l];
    }
    /* triggers: listed per batch, trigger by trigger, in slot order */
    const int per = OSSA_CROWD_EVENTS_PER_UPDATE, w = c->width;
    for (int b = batch; b < k->batch_end; ++b)
        c->batch_trigger_count[b] = 0;
    for (int t = 0; t < c->trigger_count; ++t) {
        int32_t counts[CROWD_CHUNK];
        watch(c, &d, n, c->trigger_track + (size_t)t * (size_t)c->clip_count,
              c->trigger_threshold[t], c->trigger_edges[t], events, per, counts);
        for (int b = batch; b < k->batch_end; ++b) {
            ossa_crowd_event *ev =
                c->batch_event + (size_t)b * (size_t)w * (size_t)c->trigger_count * (size_t)per;
            int listed = c->batch_trigger_count[b];
            const int l0 = c->batch_first[b] - first;
            for (int l = l0; l < l0 + c->batch_size[b]; ++l) {
                const uint32_t index = c->entity[first + l];
                const int kept = counts[l] < per ? counts[l] : per;
                for (int e = 0; e < kept; ++e) {
                    const ossa_track_event *x = &events[l * per + e];
                    ev[listed++] = (ossa_crowd_event){{index, c->generation[index]}, t, d.clip[l],
                                                      x->time_s, x->rising};
                }
            }
            c->batch_trigger_count[b] = listed;
        }
    }
}

void ossai_crowd_footfalls(ossa_crowd *c, int batch, int first, int n, const crowd_chunk *k,
                           const float *model)
{
    const int w = c->width, l0 = first - k->first;
    /* one listed per foot and update, at the foot */
    ossa_footfall *out = c->batch_footfall + (size_t)batch * (size_t)w * OSSA_CROWD_MAX_FEET;
    int found = 0;
    for (int f = 0; f < c->foot_count; ++f) {
        const float *m = model + (size_t)c->foot_joint[f] * OSSA_LANE_MODEL_COMPONENTS * (size_t)w;
        for (int l = 0; l < n; ++l) {
            if (k->foot_hits[f][l0 + l] <= 0) /* most updates: no footfall */
                continue;
            const uint32_t index = c->entity[first + l];
            out[found].entity = (ossa_entity){index, c->generation[index]};
            out[found].foot = f;
            out[found].position = (ossa_float3){m[3 * w + l], m[7 * w + l], m[11 * w + l]};
            ++found;
        }
    }
    c->batch_events[batch] = found;
}

ossa_result ossa_crowd_end_frame(ossa_crowd *c)
{
    if (!c)
        return OSSA_ERR_MISSING_INPUT;
    const size_t per_batch = (size_t)c->width * OSSA_CROWD_MAX_FEET;
    const size_t events_per_batch =
        (size_t)c->width * (size_t)c->trigger_count * OSSA_CROWD_EVENTS_PER_UPDATE;
    int n = 0, e = 0;
    for (int b = 0; b < c->batch_count; ++b) {
        memcpy(c->footfall + n, c->batch_footfall + (size_t)b * per_batch,
               sizeof(ossa_footfall) * (size_t)c->batch_events[b]);
        n += c->batch_events[b];
        memcpy(c->event + e, c->batch_event + (size_t)b * events_per_batch,
               sizeof(ossa_crowd_event) * (size_t)c->batch_trigger_count[b]);
        e += c->batch_trigger_count[b];
    }
    c->footfall_count = n;
    c->event_count = e;
    return OSSA_OK;
}

const ossa_footfall *ossa_crowd_footfalls(const ossa_crowd *crowd, int *count)
{
    if (count)
        *count = crowd ? crowd->footfall_count : 0;
    return crowd ? crowd->footfall : NULL;
}

const ossa_crowd_event *ossa_crowd_events(const ossa_crowd *crowd, int *count)
{
    if (count)
        *count = crowd ? crowd->event_count : 0;
    return crowd ? crowd->event : NULL;
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
