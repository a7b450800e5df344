/* crowd_internal.h - the crowd's storage, shared by crowd_memory.c (its
 * layout and initialisation), crowd.c (entities, characters), crowd_slots.c
 * (buckets and the moves between them), and the frame: crowd_plan.c
 * (playheads, the plan of batches), crowd_update.c (one batch through every
 * stage), crowd_skin.c (skinning), crowd_events.c (footfalls, events, dust),
 * crowd_tracks.c (the tracks events watch) and crowd_locomotion.c /
 * crowd_motion.c (playheads, fades, root motion). */
#ifndef OSSA_CROWD_INTERNAL_H
#define OSSA_CROWD_INTERNAL_H

#include "ossa/crowd.h"

/* The active region is cut into buckets: the skinned characters first (they
 * update every frame, and a palette exists only for the first slots), then
 * the others by update interval and phase; the inactive characters are the
 * last bucket. The order puts the buckets one frame updates next to each
 * other where it can: frame 0 mod 4 updates one contiguous range, the others
 * the skinned characters and one or two ranges more. */
enum {
    BUCKET_SKINNED,
    BUCKET_4_0,
    BUCKET_2_0,
    BUCKET_1,
    BUCKET_2_1,
    BUCKET_4_1,
    BUCKET_4_2,
    BUCKET_4_3,
    BUCKET_INACTIVE,
    BUCKET_COUNT
};

#define CROWD_MAX_COLUMNS 32

/* The packed per-slot arrays, what a swap of two slots moves, listed by
 * the size of their entries: of[k] those of 1 << k bytes (k < 4), wide
 * the others (wide_bytes each), so that a swap moves each entry whole,
 * with no test of its size (crowd_slots.c). */
typedef struct crowd_columns {
    void *of[4][CROWD_MAX_COLUMNS];
    int count[4];
    void *wide[CROWD_MAX_COLUMNS];
    size_t wide_bytes[CROWD_MAX_COLUMNS];
    int wide_count;
} crowd_columns;

/* IK (crowd_ik.c): the joints, resolved from the desc, and what the game
 * set for this frame. */
typedef struct crowd_ik {
    bool legs, look;          /* the joints exist (the desc asked for IK) */
    int leg[2][3];            /* thigh, calf, foot: left, right */
    int pelvis, pelvis_parent; /* pelvis_parent: -1 for a root pelvis */
    ossa_float3 knee_axis;
    int look_count;
    uint16_t chain[OSSA_IK_MAX_CHAIN];
    float chain_weight[OSSA_IK_MAX_CHAIN];
    bool chain_dropped[OSSA_IK_MAX_CHAIN]; /* below the pelvis */
    ossa_float3 eye_offset, eye_forward, eye_up;
    ossa_crowd_ground ground; /* heights NULL: feet IK off */
    ossa_float3 look_target;
    float look_weight;        /* 0: look-at off */
} crowd_ik;

struct ossa_crowd {
    /* description */
    int joint_count, clip_count, capacity, width;
    ossa_simd_path path;
    const uint16_t *parents;
    const ossa_transform *rest;
    const ossa_clip **clips; /* clip_count */
    float *clip_duration;    /* clip_count; +inf for a one-frame clip */
    bool root_motion; /* !desc.no_root_motion */
    bool clip_order;  /* !desc.no_clip_order (crowd_order.c) */
    bool prefetch_clips; /* desc.prefetch_clips */
    int foot_count;
    int foot_joint[OSSA_CROWD_MAX_FEET];
    float foot_contact[OSSA_CROWD_MAX_FEET];

    /* entities: index -> generation and slot; free indices in a stack */
    uint32_t *generation; /* capacity */
    int32_t *slot_of;     /* capacity; -1 when free */
    uint32_t *free_list;  /* capacity */
    int free_count;
    uint32_t fresh;       /* indices [fresh, capacity) were never used */

    /* slots [0, count): bucket k is [bucket_end[k - 1], bucket_end[k]) */
    int count;
    int bucket_end[BUCKET_COUNT];

    /* hot columns, per slot */
    uint32_t *entity;
    uint16_t *clip_a, *clip_b;
    float *weight_b, *time_a, *time_b, *speed;
    float *pos_x, *pos_y, *pos_z, *cos_yaw, *sin_yaw;
    uint8_t *interval; /* 1, 2 or 4; kept while inactive */
    /* locomotion (crowd_locomotion.c, crowd_motion.c): each layer's playhead
     * advance since the character's last update (its root motion runs over
     * it), phase sync, and the fade of weight_b: weight_b = from + (to -
     * from) min(fade_t rate, 1) */
    float *pending_a, *pending_b;
    uint8_t *sync;
    float *fade_t, *fade_rate, *fade_from, *fade_to;
    uint8_t *skinned;  /* 1: wears the skin (updates in BUCKET_SKINNED while active) */
    uint8_t *palette_ready; /* 1: its palette was computed since it entered BUCKET_SKINNED */
    /* pose_stride matrices per entity index, the first joint_count its world
     * pose. Not a column: a pose is large, so it stays where its entity's
     * index puts it and moves between buckets swap only the small per-slot
     * state. pose_stride is joint_count rounded up to 4 matrices (192
     * bytes), so every pose starts on a cache line and is written with
     * streaming stores (crowd_frame.c). */
    ossa_mat34 *model;
    int pose_stride;
    /* cold columns */
    char (*name)[OSSA_CROWD_NAME_BYTES];
    uint64_t *spawn_frame;
    uint32_t *updates, *footfalls;
    crowd_columns columns;
    /* crowd_order.c's sort keys, its second buffer and each slot's run:
     * capacity each; and per bucket a hash of its keys in slot order when
     * last put in order (0: never) */
    uint64_t *order_key, *order_tmp, *order_run;
    uint64_t order_hash[BUCKET_COUNT];

    /* skinning: the skin's joints and inverse binds (copied), and a palette
     * of skin_joint_count matrices for each slot below skinned_capacity
     * (skinned characters are the first slots) */
    int skin_joint_count, skinned_capacity, skinned_marked;
    uint16_t *skin_joint;
    ossa_mat34 *inverse_bind;
    ossa_mat34 *palette;
    const ossa_mesh *mesh;          /* what skinned characters wear, or NULL */
    const ossa_skin_plan *skin_plan; /* the mesh's plan for packed output (crowd_skin.c) */
    ossa_crowd_skin_output skin_out; /* where their vertices go (vertices NULL: nowhere) */

    crowd_ik ik;

    /* instrumentation */
    ossa_crowd_stage_hook stage_hook;
    void *stage_hook_user;

    /* the frame */
    uint64_t frame;
    int batch_capacity, batch_count;
    int32_t *batch_first, *batch_size;
    int32_t *batch_events;        /* footfalls found by each batch */
    ossa_footfall *batch_footfall; /* batch_capacity x width x feet */
    ossa_footfall *footfall;       /* capacity x feet: the frame's, in batch order */
    int footfall_count;
    /* events (crowd_tracks.c builds the views, crowd_events.c watches them):
     * per foot and clip, its height track (values in foot_height); per
     * trigger and clip, the clip's track (a one-frame view where it has
     * none, which never crosses) */
    ossa_float_track *foot_track;  /* foot_count x clip_count */
    float *foot_height;
    int trigger_count;
    float trigger_threshold[OSSA_CROWD_MAX_TRIGGERS];
    ossa_edge trigger_edges[OSSA_CROWD_MAX_TRIGGERS];
    ossa_float_track *trigger_track; /* trigger_count x clip_count */
    int32_t *batch_trigger_count;    /* events found by each batch */
    ossa_crowd_event *batch_event;   /* batch_capacity x width x triggers x per update */
    ossa_crowd_event *event;         /* capacity x triggers x per update: the frame's */
    int event_count;
    ossa_crowd_stats stats;
};

/* Bucket of an (interval, phase) (never BUCKET_SKINNED). */
int ossai_crowd_bucket(int interval, int phase);
/* The interval and phase a bucket updates on (BUCKET_SKINNED: 1, 0;
 * BUCKET_INACTIVE: 0, 0). */
int ossai_crowd_bucket_interval(int bucket);
int ossai_crowd_bucket_phase(int bucket);
/* The bucket a slot is in. */
int ossai_crowd_bucket_of(const ossa_crowd *c, int slot);
/* The bucket an active character in `slot` belongs in: BUCKET_SKINNED when
 * it is skinned, else its interval's phase with the fewest characters. */
int ossai_crowd_home_bucket(const ossa_crowd *c, int slot);
/* Moves the character in `slot` into bucket `to` by one swap per bucket
 * boundary crossed; returns its new slot. Every other character stays in its
 * bucket. */
int ossai_crowd_move(ossa_crowd *c, int slot, int to);
/* After a character left one of an interval's phases: the fullest phase
 * gives one character to the emptiest when they differ by more than one.
 * Touches only interval buckets, never BUCKET_SKINNED or BUCKET_INACTIVE. */
void ossai_crowd_rebalance(ossa_crowd *c, int interval);
/* Puts the characters of each interval bucket in order of (clip_a, clip_b),
 * moving only those outside their clip pair's run (BUCKET_SKINNED and
 * BUCKET_INACTIVE keep their order); returns the swaps it made. Nothing
 * without clip_order (crowd_order.c). */
int ossai_crowd_order_by_clip(ossa_crowd *c);
/* ---- the frame's stages, called by crowd_update.c for one batch ---- */

/* The stage hook, when one is set. */
static inline void ossai_crowd_stage(const ossa_crowd *c, ossa_crowd_stage k)
{
    if (c->stage_hook)
        c->stage_hook(c->stage_hook_user, k);
}
/* begin_frame's playheads: fades, phase sync, the advance of both layers
 * (crowd_locomotion.c). */
void ossai_crowd_advance(ossa_crowd *c, float dt_s, int active);
/* A spawned character's locomotion state: nothing pending, no fade. */
void ossai_crowd_locomotion_reset(ossa_crowd *c, int slot, bool sync);
/* Its sync and fade, for ossa_crowd_character. */
void ossai_crowd_locomotion_state(const ossa_crowd *c, int slot, ossa_character_state *out);
/* The locomotion jobs (root motion, the event jobs) run once for a run of
 * contiguous batches - a chunk of at most CROWD_CHUNK characters - rather
 * than once per batch: a lane job's validation and dispatch then cost once
 * per chunk. What a chunk's batches need afterwards: per foot, the
 * footfalls each character's step crossed. */
#define CROWD_CHUNK (4 * OSSA_LANE_MAX_WIDTH)
typedef struct crowd_chunk {
    int batch_end; /* batches [first batch, batch_end) */
    int first, n;  /* their slots [first, first + n) */
    int32_t foot_hits[OSSA_CROWD_MAX_FEET][CROWD_CHUNK];
} crowd_chunk;
/* Moves the placements of slots [first, first + n) (n <= CROWD_CHUNK) by
 * the weighted root motion of their layers since their last update
 * (crowd_motion.c). */
void ossai_crowd_motion(ossa_crowd *c, int first, int n);
/* The event jobs over a chunk (batches [batch, k->batch_end), slots
 * [k->first, k->first + k->n)) and the playheads' advance since the
 * characters' last update, which it then clears: footfalls counted into
 * k->foot_hits, trigger events listed per batch (crowd_events.c). */
void ossai_crowd_watch(ossa_crowd *c, int batch, crowd_chunk *k);
/* The footfalls of batch `batch` (slots [first, first + n) of chunk k), at
 * the feet's positions in the batch's lane model. */
void ossai_crowd_footfalls(ossa_crowd *c, int batch, int first, int n, const crowd_chunk *k,
                           const float *model);
/* Floats of the feet's height tracks for a crowd of these clips and feet,
 * and ossa_crowd_init's filling of them and of every track view
 * (crowd_tracks.c). */
size_t ossai_crowd_height_floats(const ossa_crowd_desc *desc, int foot_count);
void ossai_crowd_tracks_init(ossa_crowd *c, const ossa_crowd_desc *desc);
/* OSSA_OK, or why the desc's triggers are unusable. */
ossa_result ossai_crowd_check_triggers(const ossa_crowd_desc *desc);
/* The IK desc's joints exist (OSSA_ERR_NOT_FOUND otherwise) and its values
 * are valid; fills *ik when it is not NULL. No desc.ik: no IK. */
ossa_result ossai_crowd_ik_resolve(const ossa_crowd_desc *d, crowd_ik *ik);
/* IK on one batch's lane pose and lane model (after local->model, before
 * pose out) when a ground or a look target is set: the model is then the
 * corrected pose's, local->model having run again with the batch's roots. */
ossa_result ossai_crowd_ik(const ossa_crowd *c, int first, int n, float *pose, int pose_floats,
                           float *model, int model_floats, const ossa_mat34 *root);
/* Skins the batch's skinned characters (slots [first, first + n) below the
 * skinned count) from their palettes into the skin output. */
ossa_result ossai_crowd_skin_batch(const ossa_crowd *c, int first, int n);
/* OSSA_OK when this frame's skinned characters fit in the skin output. */
ossa_result ossai_crowd_skin_output_fits(const ossa_crowd *c);

/* Swaps two slots' data in every column (and palette) and fixes the entity
 * table. */
void ossai_crowd_swap_slots(ossa_crowd *c, int a, int b);

#endif /* OSSA_CROWD_INTERNAL_H */
