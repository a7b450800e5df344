/* crowd_memory.c - the crowd's memory: its description checked, every array
 * laid out 64-byte aligned in one block of the caller's memory (measured
 * first by the same code), and the crowd initialised in it. */
#include "crowd_internal.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* The skin: the desc's own skin joints, else the mesh's. */
static int skin_joint_count(const ossa_crowd_desc *d)
{
    return d->skin_joint_count || !d->mesh ? d->skin_joint_count
                                           : ossa_mesh_skin_joint_count(d->mesh);
}

static const uint16_t *skin_joints(const ossa_crowd_desc *d)
{
    return d->skin_joint_count || !d->mesh ? d->skin_joints : ossa_mesh_skin_joints(d->mesh);
}

static const ossa_mat34 *inverse_binds(const ossa_crowd_desc *d)
{
    return d->skin_joint_count || !d->mesh ? d->inverse_binds : ossa_mesh_inverse_binds(d->mesh);
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
    if (!ossa_lane_batch_count(1, d->width) || (unsigned)d->path >= OSSA_SIMD_PATH_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!ossa_simd_path_supported(d->path))
        return OSSA_ERR_UNSUPPORTED;
    if (d->foot_names && (d->foot_count < 0 || d->foot_count > OSSA_CROWD_MAX_FEET))
        return OSSA_ERR_BAD_ARGUMENT;
    int feet[OSSA_CROWD_MAX_FEET];
    if (find_feet(d, feet) < 0)
        return OSSA_ERR_NOT_FOUND;
    if (!(d->foot_contact_height >= 0.0f) || !isfinite(d->foot_contact_height))
        return OSSA_ERR_BAD_VALUE;
    ossa_result r = ossai_crowd_check_triggers(d);
    if (r != OSSA_OK)
        return r;
    const int skins = skin_joint_count(d);
    if (d->skin_joint_count < 0 || d->skinned_capacity < 0 ||
        d->skinned_capacity > d->capacity || (d->skinned_capacity && !skins))
        return OSSA_ERR_BAD_ARGUMENT;
    if (d->mesh && d->skin_joint_count && d->skin_joint_count != ossa_mesh_skin_joint_count(d->mesh))
        return OSSA_ERR_COUNT_MISMATCH;
    if (skins) {
        const uint16_t *skin = skin_joints(d);
        if (!skin || !inverse_binds(d))
            return OSSA_ERR_MISSING_INPUT;
        for (int k = 0; k < skins; ++k)
            if (skin[k] >= joints)
                return OSSA_ERR_BAD_INDEX;
    }
    return ossai_crowd_ik_resolve(d, NULL);
}

/* 0 means capacity, when there is a skin. */
static int skinned_capacity(const ossa_crowd_desc *d)
{
    return !skin_joint_count(d) ? 0 : d->skinned_capacity ? d->skinned_capacity : d->capacity;
}

/* Matrices per world pose: whole cache lines (4 x 48 bytes = 3 x 64). */
static size_t pose_stride(size_t joints)
{
    return (joints + 3) / 4 * 4;
}

/* Lists a column of `bytes` per slot among those of its entries' size. */
static void add_column(crowd_columns *cs, void *data, size_t bytes)
{
    for (int k = 0; k < 4; ++k)
        if (bytes == (size_t)1 << k) {
            cs->of[k][cs->count[k]++] = data;
            return;
        }
    cs->wide[cs->wide_count] = data;
    cs->wide_bytes[cs->wide_count++] = bytes;
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
        add_column(&x->columns, x->field, (per_slot) * sizeof *x->field);                      \
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
    COLUMN(pending_a, 1);
    COLUMN(pending_b, 1);
    COLUMN(sync, 1);
    COLUMN(fade_t, 1);
    COLUMN(fade_rate, 1);
    COLUMN(fade_from, 1);
    COLUMN(fade_to, 1);
    COLUMN(skinned, 1);
    COLUMN(palette_ready, 1);
    COLUMN(name, 1);
    COLUMN(spawn_frame, 1);
    COLUMN(updates, 1);
    COLUMN(footfalls, 1);
#undef COLUMN
    x->order_key = carve(k, cap, sizeof *x->order_key);
    x->order_tmp = carve(k, cap, sizeof *x->order_tmp);
    x->order_run = carve(k, cap, sizeof *x->order_run);
    x->pose_stride = (int)pose_stride(joints);
    x->model = carve(k, cap * pose_stride(joints), sizeof *x->model);
    x->batch_capacity = (int)batches;
    x->batch_first = carve(k, batches, sizeof *x->batch_first);
    x->batch_size = carve(k, batches, sizeof *x->batch_size);
    x->batch_events = carve(k, batches, sizeof *x->batch_events);
    x->batch_footfall = carve(k, batches * (size_t)width * OSSA_CROWD_MAX_FEET,
                              sizeof *x->batch_footfall);
    x->footfall = carve(k, cap * OSSA_CROWD_MAX_FEET, sizeof *x->footfall);
    const size_t clips = (size_t)d->clip_count, triggers = (size_t)d->trigger_count;
    const size_t per = OSSA_CROWD_EVENTS_PER_UPDATE;
    int feet[OSSA_CROWD_MAX_FEET];
    const int foot_count = find_feet(d, feet);
    x->foot_track = carve(k, (size_t)foot_count * clips, sizeof *x->foot_track);
    x->foot_height = carve(k, ossai_crowd_height_floats(d, foot_count), sizeof *x->foot_height);
    x->trigger_track = carve(k, triggers * clips, sizeof *x->trigger_track);
    x->batch_trigger_count = carve(k, batches, sizeof *x->batch_trigger_count);
    x->batch_event = carve(k, batches * (size_t)width * triggers * per, sizeof *x->batch_event);
    x->event = carve(k, cap * triggers * per, sizeof *x->event);
    const size_t skins = (size_t)skin_joint_count(d);
    x->skin_joint = carve(k, skins, sizeof *x->skin_joint);
    x->inverse_bind = carve(k, skins, sizeof *x->inverse_bind);
    x->palette = carve(k, (size_t)skinned_capacity(d) * skins, sizeof *x->palette);
    /* the mesh's skin plan (packed output): built once, at init */
    x->skin_plan = carve(k, d->mesh ? ossa_skin_plan_size(d->mesh) : 0, 1);
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
    c->root_motion = !desc->no_root_motion;
    c->clip_order = !desc->no_clip_order;
    c->prefetch_clips = desc->prefetch_clips;
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
    ossai_crowd_tracks_init(c, desc);
    ossai_crowd_ik_resolve(desc, &c->ik);
    c->skin_joint_count = skin_joint_count(desc);
    c->skinned_capacity = skinned_capacity(desc);
    c->mesh = desc->mesh;
    if (desc->mesh) { /* layout carved the plan's memory at skin_plan */
        void *plan_memory = (void *)(uintptr_t)c->skin_plan;
        if (ossa_skin_plan_init(&c->skin_plan, plan_memory, ossa_skin_plan_size(desc->mesh),
                                desc->mesh) != OSSA_OK)
            c->skin_plan = NULL; /* not reached: the memory fits; packed output goes planless */
    }
    if (c->skin_joint_count) {
        memcpy(c->skin_joint, skin_joints(desc), sizeof(uint16_t) * (size_t)c->skin_joint_count);
        memcpy(c->inverse_bind, inverse_binds(desc),
               sizeof(ossa_mat34) * (size_t)c->skin_joint_count);
    }
    *out = c;
    return OSSA_OK;
}
