/* crowd.c - the crowd's storage: its memory, entity ids (index +
 * generation), packed per-slot columns, and the characters' API. Buckets and
 * moves are in crowd_slots.c, the per-frame work in crowd_frame.c. */
#include "crowd_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static void reset_feet(ossa_crowd *c, int slot)
{
    for (int f = 0; f < OSSA_CROWD_MAX_FEET; ++f)
        c->foot_prev[(size_t)slot * OSSA_CROWD_MAX_FEET + f] = NAN;
}

/* ---- memory ---- */

typedef struct carver {
    unsigned char *base; /* NULL: only measure */
    size_t at;
    int overflow;
} carver;

static void *carve(carver *k, size_t count, size_t bytes)
{
    if (count && bytes > (SIZE_MAX / 2) / count)
        k->overflow = 1;
    const size_t start = (k->at + 63) & ~(size_t)63;
    k->at = start + (k->overflow ? 0 : count * bytes);
    return k->base && !k->overflow ? k->base + start : NULL;
}

static int find_feet(const ossa_crowd_desc *d, int feet[OSSA_CROWD_MAX_FEET])
{
    static const char *const defaults[2] = {"foot_l", "foot_r"};
    if (!d->foot_names) {
        int n = 0;
        for (int f = 0; f < 2; ++f) {
            const int j = ossa_skeleton_find_joint(d->skeleton, defaults[f]);
            if (j >= 0)
                feet[n++] = j;
        }
        return n == 2 ? 2 : 0;
    }
    for (int f = 0; f < d->foot_count; ++f)
        if (!d->foot_names[f] || (feet[f] = ossa_skeleton_find_joint(d->skeleton,
                                                                     d->foot_names[f])) < 0)
            return -1;
    return d->foot_count;
}

static ossa_result check_desc(const ossa_crowd_desc *d)
{
    if (!d || !d->skeleton || !d->clips)
        return OSSA_ERR_MISSING_INPUT;
    if (d->clip_count < 1 || d->capacity < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (d->clip_count > 65535 || d->capacity > (1 << 28))
        return OSSA_ERR_BAD_ARGUMENT;
    const int joints = ossa_skeleton_joint_count(d->skeleton);
    for (int k = 0; k < d->clip_count; ++k) {
        if (!d->clips[k])
            return OSSA_ERR_MISSING_INPUT;
        if (ossa_clip_joint_count(d->clips[k]) != joints)
            return OSSA_ERR_COUNT_MISMATCH;
    }
    if (!ossa_lane_batch_count(1, d->width) || (unsigned)d->path >= OSSA_LANE_PATH_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!ossa_lane_path_supported(d->path))
        return OSSA_ERR_UNSUPPORTED;
    if (d->foot_names && (d->foot_count < 0 || d->foot_count > OSSA_CROWD_MAX_FEET))
        return OSSA_ERR_BAD_ARGUMENT;
    int feet[OSSA_CROWD_MAX_FEET];
    if (find_feet(d, feet) < 0)
        return OSSA_ERR_NOT_FOUND;
    if (!(d->foot_contact_height >= 0.0f) || !isfinite(d->foot_contact_height))
        return OSSA_ERR_BAD_VALUE;
    if (d->skin_joint_count < 0 || d->skinned_capacity < 0 ||
        d->skinned_capacity > d->capacity || (d->skinned_capacity && !d->skin_joint_count))
        return OSSA_ERR_BAD_ARGUMENT;
    if (d->skin_joint_count) {
        if (!d->skin_joints || !d->inverse_binds)
            return OSSA_ERR_MISSING_INPUT;
        for (int k = 0; k < d->skin_joint_count; ++k)
            if (d->skin_joints[k] >= joints)
                return OSSA_ERR_BAD_INDEX;
    }
    return OSSA_OK;
}

/* 0 means capacity, when there is a skin. */
static int skinned_capacity(const ossa_crowd_desc *d)
{
    return !d->skin_joint_count ? 0 : d->skinned_capacity ? d->skinned_capacity : d->capacity;
}

/* Matrices per world pose: whole cache lines (4 x 48 bytes = 3 x 64). */
static size_t pose_stride(size_t joints)
{
    return (joints + 3) / 4 * 4;
}

/* Lays the crowd out in k (measuring only when k->base is NULL). */
static ossa_crowd *layout(carver *k, const ossa_crowd_desc *d)
{
    const size_t cap = (size_t)d->capacity, joints = (size_t)ossa_skeleton_joint_count(d->skeleton);
    const int width = d->width ? d->width : ossa_lane_width();
    const size_t batches = (size_t)ossa_lane_batch_count(d->capacity, width) + BUCKET_COUNT;
    ossa_crowd *c = carve(k, 1, sizeof *c);
    ossa_crowd shape; /* where the pointers go, when only measuring */
    ossa_crowd *x = c ? c : &shape;
    memset(x, 0, sizeof *x);
    x->clips = carve(k, (size_t)d->clip_count, sizeof *x->clips);
    x->clip_duration = carve(k, (size_t)d->clip_count, sizeof *x->clip_duration);
    x->generation = carve(k, cap, sizeof *x->generation);
    x->slot_of = carve(k, cap, sizeof *x->slot_of);
    x->free_list = carve(k, cap, sizeof *x->free_list);
#define COLUMN(field, per_slot)                                                                \
    do {                                                                                       \
        x->field = carve(k, cap, (per_slot) * sizeof *x->field);                               \
        x->columns[x->column_count].data = x->field;                                           \
        x->columns[x->column_count++].bytes = (per_slot) * sizeof *x->field;                   \
    } while (0)
    COLUMN(entity, 1);
    COLUMN(clip_a, 1);
    COLUMN(clip_b, 1);
    COLUMN(weight_b, 1);
    COLUMN(time_a, 1);
    COLUMN(time_b, 1);
    COLUMN(speed, 1);
    COLUMN(pos_x, 1);
    COLUMN(pos_y, 1);
    COLUMN(pos_z, 1);
    COLUMN(cos_yaw, 1);
    COLUMN(sin_yaw, 1);
    COLUMN(interval, 1);
    COLUMN(foot_prev, OSSA_CROWD_MAX_FEET);
    COLUMN(skinned, 1);
    COLUMN(palette_ready, 1);
    COLUMN(name, 1);
    COLUMN(spawn_frame, 1);
    COLUMN(updates, 1);
    COLUMN(footfalls, 1);
#undef COLUMN
    x->pose_stride = (int)pose_stride(joints);
    x->model = carve(k, cap * pose_stride(joints), sizeof *x->model);
    x->batch_capacity = (int)batches;
    x->batch_first = carve(k, batches, sizeof *x->batch_first);
    x->batch_size = carve(k, batches, sizeof *x->batch_size);
    x->batch_events = carve(k, batches, sizeof *x->batch_events);
    x->batch_footfall = carve(k, batches * (size_t)width * OSSA_CROWD_MAX_FEET,
                              sizeof *x->batch_footfall);
    x->footfall = carve(k, cap * OSSA_CROWD_MAX_FEET, sizeof *x->footfall);
    const size_t skins = (size_t)d->skin_joint_count;
    x->skin_joint = carve(k, skins, sizeof *x->skin_joint);
    x->inverse_bind = carve(k, skins, sizeof *x->inverse_bind);
    x->palette = carve(k, (size_t)skinned_capacity(d) * skins, sizeof *x->palette);
    return c;
}

size_t ossa_crowd_size(const ossa_crowd_desc *desc)
{
    if (check_desc(desc) != OSSA_OK)
        return 0;
    carver k = {NULL, 0, 0};
    layout(&k, desc);
    return k.overflow ? 0 : k.at;
}

/* Height above the root of a joint in the rest pose. */
static float rest_height(const ossa_skeleton *s, int joint)
{
    const uint16_t *parents = ossa_skeleton_parents(s);
    const ossa_transform *rest = ossa_skeleton_rest_pose(s);
    ossa_mat34 m = ossa_mat34_from_transform(rest[joint]);
    for (uint16_t p = parents[joint]; p != OSSA_NO_PARENT; p = parents[p]) {
        const ossa_mat34 parent = ossa_mat34_from_transform(rest[p]);
        m = ossa_mat34_mul(&parent, &m);
    }
    return m.m[1][3];
}

ossa_result ossa_crowd_init(ossa_crowd **out, void *memory, size_t bytes,
                            const ossa_crowd_desc *desc)
{
    if (!out)
        return OSSA_ERR_MISSING_OUTPUT;
    *out = NULL;
    ossa_result r = check_desc(desc);
    if (r != OSSA_OK)
        return r;
    if (!memory)
        return OSSA_ERR_MISSING_OUTPUT;
    if ((uintptr_t)memory % 64 != 0)
        return OSSA_ERR_MISALIGNED;
    if (bytes < ossa_crowd_size(desc))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    carver k = {(unsigned char *)memory, 0, 0};
    ossa_crowd *c = layout(&k, desc);
    c->joint_count = ossa_skeleton_joint_count(desc->skeleton);
    c->clip_count = desc->clip_count;
    c->capacity = desc->capacity;
    c->width = desc->width ? desc->width : ossa_lane_width();
    c->path = desc->path;
    c->parents = ossa_skeleton_parents(desc->skeleton);
    c->rest = ossa_skeleton_rest_pose(desc->skeleton);
    for (int i = 0; i < c->clip_count; ++i) {
        c->clips[i] = desc->clips[i];
        const float d = ossa_clip_duration(desc->clips[i]);
        c->clip_duration[i] = d > 0.0f ? d : INFINITY;
    }
    c->foot_count = find_feet(desc, c->foot_joint);
    for (int f = 0; f < c->foot_count; ++f)
        c->foot_contact[f] = desc->foot_contact_height > 0.0f
                                 ? desc->foot_contact_height
                                 : 1.25f * rest_height(desc->skeleton, c->foot_joint[f]);
    for (int i = 0; i < c->capacity; ++i) {
        c->generation[i] = 1;
        c->slot_of[i] = -1;
    }
    c->skin_joint_count = desc->skin_joint_count;
    c->skinned_capacity = skinned_capacity(desc);
    if (c->skin_joint_count) {
        memcpy(c->skin_joint, desc->skin_joints, sizeof(uint16_t) * (size_t)c->skin_joint_count);
        memcpy(c->inverse_bind, desc->inverse_binds,
               sizeof(ossa_mat34) * (size_t)c->skin_joint_count);
    }
    *out = c;
    return OSSA_OK;
}

/* ---- characters ---- */

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
    crowd->speed[slot] = speed;
    place(crowd, slot, d->position, d->yaw_rad);
    crowd->interval[slot] = (uint8_t)interval;
    crowd->skinned[slot] = d->skinned;
    crowd->skinned_marked += d->skinned;
    crowd->palette_ready[slot] = 0;
    reset_feet(crowd, slot);
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
        const int at = ossai_crowd_move(crowd, slot, ossai_crowd_home_bucket(crowd, slot));
        reset_feet(crowd, at); /* no footfall from before the sleep */
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
