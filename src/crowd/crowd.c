/* crowd.c - the crowd's characters: entity ids (index + generation), spawn
 * and despawn, the per-character settings and queries. The memory is laid out
 * in crowd_memory.c, buckets and moves are in crowd_slots.c, the per-frame
 * work in crowd_frame.c. */
#include "crowd_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static int slot_of(const ossa_crowd *c, ossa_entity e)
{
    if (!c || e.index >= (uint32_t)c->capacity || e.generation == 0 ||
        c->generation[e.index] != e.generation)
        return -1;
    return c->slot_of[e.index];
}

static ossa_result check_clips(const ossa_crowd *c, int clip_a, int clip_b, float weight_b)
{
    if (clip_a < 0 || clip_a >= c->clip_count || clip_b < 0 || clip_b >= c->clip_count)
        return OSSA_ERR_BAD_INDEX;
    if (!(weight_b >= 0.0f && weight_b <= 1.0f))
        return OSSA_ERR_BAD_VALUE;
    return OSSA_OK;
}

static int valid_interval(int interval)
{
    return interval == 1 || interval == 2 || interval == 4;
}

static void place(ossa_crowd *c, int slot, ossa_float3 p, float yaw)
{
    c->pos_x[slot] = p.x;
    c->pos_y[slot] = p.y;
    c->pos_z[slot] = p.z;
    c->cos_yaw[slot] = cosf(yaw);
    c->sin_yaw[slot] = sinf(yaw);
}

ossa_result ossa_crowd_spawn(ossa_crowd *crowd, const ossa_character_desc *d, ossa_entity *out)
{
    if (!crowd || !d)
        return OSSA_ERR_MISSING_INPUT;
    if (!out)
        return OSSA_ERR_MISSING_OUTPUT;
    *out = (ossa_entity){0, 0};
    ossa_result r = check_clips(crowd, d->clip_a, d->clip_b, d->weight_b);
    if (r != OSSA_OK)
        return r;
    const float speed = d->speed == 0.0f ? 1.0f : d->speed;
    if (!(speed >= 0.0f) || !isfinite(speed) || !isfinite(d->time_s) || !isfinite(d->yaw_rad) ||
        !isfinite(d->position.x) || !isfinite(d->position.y) || !isfinite(d->position.z))
        return OSSA_ERR_BAD_VALUE;
    const int interval = d->update_interval ? d->update_interval : 1;
    if (!valid_interval(interval))
        return OSSA_ERR_BAD_ARGUMENT;
    if ((crowd->free_count == 0 && crowd->fresh == (uint32_t)crowd->capacity) ||
        (d->skinned && crowd->skinned_marked == crowd->skinned_capacity))
        return OSSA_ERR_FULL;
    const uint32_t index = crowd->free_count ? crowd->free_list[--crowd->free_count]
                                             : crowd->fresh++;
    /* append as inactive, then move into place */
    const int slot = crowd->count++;
    crowd->bucket_end[BUCKET_INACTIVE] = crowd->count;
    crowd->slot_of[index] = slot;
    crowd->entity[slot] = index;
    crowd->clip_a[slot] = (uint16_t)d->clip_a;
    crowd->clip_b[slot] = (uint16_t)d->clip_b;
    crowd->weight_b[slot] = d->weight_b;
    crowd->time_a[slot] = crowd->time_b[slot] = d->time_s;
    ossai_crowd_locomotion_reset(crowd, slot, d->sync);
    crowd->speed[slot] = speed;
    place(crowd, slot, d->position, d->yaw_rad);
    crowd->interval[slot] = (uint8_t)interval;
    crowd->skinned[slot] = d->skinned;
    crowd->skinned_marked += d->skinned;
    crowd->palette_ready[slot] = 0;
    memset(crowd->name[slot], 0, OSSA_CROWD_NAME_BYTES);
    if (d->name)
        strncpy(crowd->name[slot], d->name, OSSA_CROWD_NAME_BYTES - 1);
    crowd->spawn_frame[slot] = crowd->frame;
    crowd->updates[slot] = crowd->footfalls[slot] = 0;
    if (!d->inactive)
        ossai_crowd_move(crowd, slot, ossai_crowd_home_bucket(crowd, slot));
    *out = (ossa_entity){index, crowd->generation[index]};
    return OSSA_OK;
}

ossa_result ossa_crowd_despawn(ossa_crowd *crowd, ossa_entity e)
{
    const int slot = slot_of(crowd, e);
    if (slot < 0)
        return crowd ? OSSA_ERR_STALE_ID : OSSA_ERR_MISSING_INPUT;
    const int b = ossai_crowd_bucket_of(crowd, slot);
    const int at = ossai_crowd_move(crowd, slot, BUCKET_INACTIVE);
    ossai_crowd_rebalance(crowd, ossai_crowd_bucket_interval(b));
    crowd->skinned_marked -= crowd->skinned[at];
    ossai_crowd_swap_slots(crowd, at, crowd->count - 1);
    crowd->count--;
    crowd->bucket_end[BUCKET_INACTIVE] = crowd->count;
    crowd->slot_of[e.index] = -1;
    /* a generation that would wrap retires its index: ids are never reused */
    if (++crowd->generation[e.index] != 0)
        crowd->free_list[crowd->free_count++] = e.index;
    return OSSA_OK;
}

bool ossa_crowd_alive(const ossa_crowd *crowd, ossa_entity entity)
{
    return slot_of(crowd, entity) >= 0;
}

#define LOOKUP(crowd, e, slot)                                                                 \
    const int slot = slot_of(crowd, e);                                                        \
    if (slot < 0)                                                                              \
        return crowd ? OSSA_ERR_STALE_ID : OSSA_ERR_MISSING_INPUT

ossa_result ossa_crowd_set_active(ossa_crowd *crowd, ossa_entity e, bool active)
{
    LOOKUP(crowd, e, slot);
    const int b = ossai_crowd_bucket_of(crowd, slot);
    if (active == (b != BUCKET_INACTIVE))
        return OSSA_OK;
    if (active) {
        ossai_crowd_move(crowd, slot, ossai_crowd_home_bucket(crowd, slot));
    } else {
        ossai_crowd_move(crowd, slot, BUCKET_INACTIVE);
        ossai_crowd_rebalance(crowd, ossai_crowd_bucket_interval(b));
    }
    return OSSA_OK;
}

ossa_result ossa_crowd_set_update_interval(ossa_crowd *crowd, ossa_entity e, int interval)
{
    LOOKUP(crowd, e, slot);
    if (!valid_interval(interval))
        return OSSA_ERR_BAD_ARGUMENT;
    crowd->interval[slot] = (uint8_t)interval;
    const int b = ossai_crowd_bucket_of(crowd, slot);
    /* kept while inactive or skinned, used when it is neither */
    if (b == BUCKET_INACTIVE || b == BUCKET_SKINNED || ossai_crowd_bucket_interval(b) == interval)
        return OSSA_OK;
    ossai_crowd_move(crowd, slot, ossai_crowd_home_bucket(crowd, slot));
    ossai_crowd_rebalance(crowd, ossai_crowd_bucket_interval(b));
    return OSSA_OK;
}

ossa_result ossa_crowd_set_skinned(ossa_crowd *crowd, ossa_entity e, bool skinned)
{
    LOOKUP(crowd, e, slot);
    if (skinned == (crowd->skinned[slot] != 0))
        return OSSA_OK;
    if (skinned && crowd->skinned_marked == crowd->skinned_capacity)
        return OSSA_ERR_FULL;
    crowd->skinned[slot] = skinned;
    crowd->skinned_marked += skinned ? 1 : -1;
    const int b = ossai_crowd_bucket_of(crowd, slot);
    if (b == BUCKET_INACTIVE)
        return OSSA_OK;
    ossai_crowd_move(crowd, slot, ossai_crowd_home_bucket(crowd, slot));
    ossai_crowd_rebalance(crowd, ossai_crowd_bucket_interval(b));
    return OSSA_OK;
}

ossa_result ossa_crowd_set_clips(ossa_crowd *crowd, ossa_entity e, int clip_a, int clip_b,
                                 float weight_b)
{
    LOOKUP(crowd, e, slot);
    ossa_result r = check_clips(crowd, clip_a, clip_b, weight_b);
    if (r != OSSA_OK)
        return r;
    crowd->clip_a[slot] = (uint16_t)clip_a;
    crowd->clip_b[slot] = (uint16_t)clip_b;
    crowd->weight_b[slot] = weight_b;
    crowd->fade_from[slot] = crowd->fade_to[slot] = weight_b; /* no fade */
    crowd->fade_rate[slot] = 0.0f;
    return OSSA_OK;
}

ossa_result ossa_crowd_set_speed(ossa_crowd *crowd, ossa_entity e, float speed)
{
    LOOKUP(crowd, e, slot);
    if (!(speed >= 0.0f) || !isfinite(speed))
        return OSSA_ERR_BAD_VALUE;
    crowd->speed[slot] = speed;
    return OSSA_OK;
}

ossa_result ossa_crowd_set_placement(ossa_crowd *crowd, ossa_entity e, ossa_float3 position,
                                     float yaw_rad)
{
    LOOKUP(crowd, e, slot);
    if (!isfinite(position.x) || !isfinite(position.y) || !isfinite(position.z) ||
        !isfinite(yaw_rad))
        return OSSA_ERR_BAD_VALUE;
    place(crowd, slot, position, yaw_rad);
    return OSSA_OK;
}

ossa_result ossa_crowd_character(const ossa_crowd *crowd, ossa_entity e, ossa_character_state *out)
{
    LOOKUP(crowd, e, slot);
    if (!out)
        return OSSA_ERR_MISSING_OUTPUT;
    const int b = ossai_crowd_bucket_of(crowd, slot);
    memcpy(out->name, crowd->name[slot], OSSA_CROWD_NAME_BYTES);
    out->clip_a = crowd->clip_a[slot];
    out->clip_b = crowd->clip_b[slot];
    out->weight_b = crowd->weight_b[slot];
    out->time_a_s = crowd->time_a[slot];
    out->time_b_s = crowd->time_b[slot];
    out->speed = crowd->speed[slot];
    out->position = (ossa_float3){crowd->pos_x[slot], crowd->pos_y[slot], crowd->pos_z[slot]};
    out->yaw_rad = atan2f(crowd->sin_yaw[slot], crowd->cos_yaw[slot]);
    out->update_interval = crowd->interval[slot];
    out->phase = ossai_crowd_bucket_phase(b);
    out->active = b != BUCKET_INACTIVE;
    out->skinned = crowd->skinned[slot] != 0;
    out->spawn_frame = crowd->spawn_frame[slot];
    out->updates = crowd->updates[slot];
    out->footfalls = crowd->footfalls[slot];
    ossai_crowd_locomotion_state(crowd, slot, out);
    return OSSA_OK;
}

const ossa_mat34 *ossa_crowd_pose(const ossa_crowd *crowd, ossa_entity e)
{
    const int slot = slot_of(crowd, e);
    if (slot < 0 || crowd->updates[slot] == 0)
        return NULL;
    return crowd->model + (size_t)e.index * (size_t)crowd->pose_stride;
}

const ossa_mat34 *ossa_crowd_palette(const ossa_crowd *crowd, ossa_entity e)
{
    const int slot = slot_of(crowd, e);
    if (slot < 0 || slot >= crowd->bucket_end[BUCKET_SKINNED] || !crowd->palette_ready[slot])
        return NULL;
    return crowd->palette + (size_t)slot * (size_t)crowd->skin_joint_count;
}

int ossa_crowd_skin_joint_count(const ossa_crowd *crowd)
{
    return crowd->skin_joint_count;
}

int ossa_crowd_skinned_count(const ossa_crowd *crowd)
{
    return crowd->bucket_end[BUCKET_SKINNED];
}

void ossa_crowd_set_stage_hook(ossa_crowd *crowd, ossa_crowd_stage_hook hook, void *user)
{
    crowd->stage_hook = hook;
    crowd->stage_hook_user = user;
}

int ossa_crowd_count(const ossa_crowd *crowd)
{
    return crowd->count;
}

int ossa_crowd_active_count(const ossa_crowd *crowd)
{
    return crowd->bucket_end[BUCKET_INACTIVE - 1];
}

ossa_entity ossa_crowd_entity_at(const ossa_crowd *crowd, int slot)
{
    if (slot < 0 || slot >= crowd->count)
        return (ossa_entity){0, 0};
    const uint32_t index = crowd->entity[slot];
    return (ossa_entity){index, crowd->generation[index]};
}

int ossa_crowd_slot(const ossa_crowd *crowd, ossa_entity entity)
{
    return slot_of(crowd, entity);
}

int ossa_crowd_joint_count(const ossa_crowd *crowd)
{
    return crowd->joint_count;
}

int ossa_crowd_width(const ossa_crowd *crowd)
{
    return crowd->width;
}
