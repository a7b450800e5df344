/* crowd_internal.h - the crowd's storage, shared by crowd.c (entities,
 * slots, buckets) and crowd_frame.c (the per-frame update). */
#ifndef OSSA_CROWD_INTERNAL_H
#define OSSA_CROWD_INTERNAL_H

#include "ossa/crowd.h"

/* The active region is cut into buckets by update interval and phase; the
 * inactive characters are the last bucket. The order puts the buckets one
 * frame updates next to each other where it can (frames 0 mod 4 and 1 mod 4
 * update one contiguous range). */
enum {
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

/* One packed per-slot array: what a swap of two slots moves. */
typedef struct crowd_column {
    void *data;
    size_t bytes; /* per slot */
} crowd_column;

#define CROWD_MAX_COLUMNS 24

struct ossa_crowd {
    /* description */
    int joint_count, clip_count, capacity, width;
    ossa_lane_path path;
    const uint16_t *parents;
    const ossa_transform *rest;
    const ossa_clip **clips; /* clip_count */
    float *clip_duration;    /* clip_count; +inf for a one-frame clip */
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
    float *foot_prev; /* OSSA_CROWD_MAX_FEET per slot: last height above the root */
    ossa_mat34 *model; /* joint_count per slot: the world pose */
    /* cold columns */
    char (*name)[OSSA_CROWD_NAME_BYTES];
    uint64_t *spawn_frame;
    uint32_t *updates, *footfalls;
    crowd_column columns[CROWD_MAX_COLUMNS];
    int column_count;

    /* the frame */
    uint64_t frame;
    int batch_capacity, batch_count;
    int32_t *batch_first, *batch_size;
    int32_t *batch_events;        /* footfalls found by each batch */
    ossa_footfall *batch_footfall; /* batch_capacity x width x feet */
    ossa_footfall *footfall;       /* capacity x feet: the frame's, in batch order */
    int footfall_count;
    ossa_crowd_stats stats;
};

/* Bucket of an (interval, phase). */
int ossai_crowd_bucket(int interval, int phase);

#endif /* OSSA_CROWD_INTERNAL_H */
