/* crowd.c - the crowd's storage: entity ids (index + generation), packed
 * per-slot columns, the active region cut into update-interval buckets, and
 * the moves between them. The per-frame work is in crowd_frame.c. */
#include "crowd_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* ---- buckets ---- */

static const int bucket_interval[BUCKET_COUNT] = {4, 2, 1, 2, 4, 4, 4, 0};
static const int bucket_phase[BUCKET_COUNT] = {0, 0, 0, 1, 1, 2, 3, 0};

int ossai_crowd_bucket(int interval, int phase)
{
    for (int b = 0; b < BUCKET_INACTIVE; ++b)
        if (bucket_interval[b] == interval && bucket_phase[b] == phase)
            return b;
    return BUCKET_INACTIVE;
}

static int bucket_begin(const ossa_crowd *c, int b)
{
    return b == 0 ? 0 : c->bucket_end[b - 1];
}

static int bucket_size(const ossa_crowd *c, int b)
{
    return c->bucket_end[b] - bucket_begin(c, b);
}

static int bucket_of(const ossa_crowd *c, int slot)
{
    int b = 0;
    while (slot >= c->bucket_end[b])
        ++b;
    return b;
}

/* ---- slots ---- */

static void swap_bytes(unsigned char *a, unsigned char *b, size_t bytes)
{
    unsigned char tmp[256];
    while (bytes) {
        const size_t n = bytes < sizeof tmp ? bytes : sizeof tmp;
        memcpy(tmp, a, n);
        memcpy(a, b, n);
        memcpy(b, tmp, n);
        a += n;
        b += n;
        bytes -= n;
    }
}

/* Swaps two slots' data in every column and fixes the entity table. */
static void swap_slots(ossa_crowd *c, int a, int b)
{
    if (a == b)
        return;
    for (int k = 0; k < c->column_count; ++k) {
        unsigned char *data = (unsigned char *)c->columns[k].data;
        const size_t bytes = c->columns[k].bytes;
        swap_bytes(data + (size_t)a * bytes, data + (size_t)b * bytes, bytes);
    }
    c->slot_of[c->entity[a]] = a;
    c->slot_of[c->entity[b]] = b;
}

/* Moves the character in `slot` (in bucket `from`) into bucket `to` by one
 * swap per bucket boundary crossed; returns its new slot. Every other
 * character stays in its bucket. */
static int move_to_bucket(ossa_crowd *c, int slot, int from, int to)
{
    for (int k = from; k < to; ++k) { /* rightwards: become the first of k + 1 */
        const int last = c->bucket_end[k] - 1;
        swap_slots(c, slot, last);
        slot = last;
        c->bucket_end[k]--;
    }
    for (int k = from - 1; k >= to; --k) { /* leftwards: become the last of k */
        const int first = c->bucket_end[k];
        swap_slots(c, slot, first);
        slot = first;
        c->bucket_end[k]++;
    }
    return slot;
}

/* The phase of an interval with the fewest characters (lowest on a tie). */
static int emptiest_phase(const ossa_crowd *c, int interval)
{
    int best = 0, best_size = INT32_MAX;
    for (int p = 0; p < interval; ++p) {
        const int size = bucket_size(c, ossai_crowd_bucket(interval, p));
        if (size < best_size) {
            best = p;
            best_size = size;
        }
    }
    return best;
}

/* Keeps an interval's phases within one character of each other: after a
 * character leaves one, the fullest gives one up to the emptiest. */
static void rebalance(ossa_crowd *c, int interval)
{
    if (interval <= 1)
        return;
    int small = ossai_crowd_bucket(interval, 0), big = small;
    for (int p = 1; p < interval; ++p) {
        const int b = ossai_crowd_bucket(interval, p);
        if (bucket_size(c, b) < bucket_size(c, small))
            small = b;
        if (bucket_size(c, b) > bucket_size(c, big))
            big = b;
    }
    if (bucket_size(c, big) - bucket_size(c, small) > 1)
        move_to_bucket(c, c->bucket_end[big] - 1, big, small);
}

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
    return OSSA_OK;
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
    COLUMN(name, 1);
    COLUMN(spawn_frame, 1);
    COLUMN(updates, 1);
    COLUMN(footfalls, 1);
    COLUMN(model, joints);
#undef COLUMN
    x->batch_capacity = (int)batches;
    x->batch_first = carve(k, batches, sizeof *x->batch_first);
    x->batch_size = carve(k, batches, sizeof *x->batch_size);
    x->batch_events = carve(k, batches, sizeof *x->batch_events);
    x->batch_footfall = carve(k, batches * (size_t)width * OSSA_CROWD_MAX_FEET,
                              sizeof *x->batch_footfall);
    x->footfall = carve(k, cap * OSSA_CROWD_MAX_FEET, sizeof *x->footfall);
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
    if (crowd->free_count == 0 && crowd->fresh == (uint32_t)crowd->capacity)
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
    reset_feet(crowd, slot);
    memset(crowd->name[slot], 0, OSSA_CROWD_NAME_BYTES);
    if (d->name)
        strncpy(crowd->name[slot], d->name, OSSA_CROWD_NAME_BYTES - 1);
    crowd->spawn_frame[slot] = crowd->frame;
    crowd->updates[slot] = crowd->footfalls[slot] = 0;
    if (!d->inactive)
        move_to_bucket(crowd, slot, BUCKET_INACTIVE,
                       ossai_crowd_bucket(interval, emptiest_phase(crowd, interval)));
    *out = (ossa_entity){index, crowd->generation[index]};
    return OSSA_OK;
}

ossa_result ossa_crowd_despawn(ossa_crowd *crowd, ossa_entity e)
{
    const int slot = slot_of(crowd, e);
    if (slot < 0)
        return crowd ? OSSA_ERR_STALE_ID : OSSA_ERR_MISSING_INPUT;
    const int b = bucket_of(crowd, slot);
    const int at = move_to_bucket(crowd, slot, b, BUCKET_INACTIVE);
    rebalance(crowd, bucket_interval[b]);
    swap_slots(crowd, at, crowd->count - 1);
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
    const int b = bucket_of(crowd, slot);
    if (active == (b != BUCKET_INACTIVE))
        return OSSA_OK;
    if (active) {
        const int interval = crowd->interval[slot];
        const int to = ossai_crowd_bucket(interval, emptiest_phase(crowd, interval));
        const int at = move_to_bucket(crowd, slot, b, to);
        reset_feet(crowd, at); /* no footfall from before the sleep */
    } else {
        move_to_bucket(crowd, slot, b, BUCKET_INACTIVE);
        rebalance(crowd, bucket_interval[b]);
    }
    return OSSA_OK;
}

ossa_result ossa_crowd_set_update_interval(ossa_crowd *crowd, ossa_entity e, int interval)
{
    LOOKUP(crowd, e, slot);
    if (!valid_interval(interval))
        return OSSA_ERR_BAD_ARGUMENT;
    crowd->interval[slot] = (uint8_t)interval;
    const int b = bucket_of(crowd, slot);
    if (b == BUCKET_INACTIVE || bucket_interval[b] == interval)
        return OSSA_OK;
    move_to_bucket(crowd, slot, b, ossai_crowd_bucket(interval, emptiest_phase(crowd, interval)));
    rebalance(crowd, bucket_interval[b]);
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
    const int b = bucket_of(crowd, slot);
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
    out->phase = bucket_phase[b];
    out->active = b != BUCKET_INACTIVE;
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
    return crowd->model + (size_t)slot * (size_t)crowd->joint_count;
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
