/* crowd_test.c - the crowd: entity ids and packed slots against a simple
 * model, update-rate LOD, the batched update against the reference jobs,
 * footfalls against heights computed by the reference jobs, dust, and
 * bit-identical results for 1, 2 and 3 threads. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../src/crowd/crowd_internal.h"
#include "ossa/crowd.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* World poses of characters placed up to ~20 units away, relative to
 * 1 + |value|: a few float roundings over the hierarchy (the lane path may
 * fuse multiply-adds where the reference does not). */
#define POSE_TOLERANCE 2e-5

typedef struct fixture {
    ossa_default_character dc;
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    ossa_crowd *crowd;
    void *memory;
    void *scratch;
    size_t scratch_bytes;
} fixture;

static void *alloc64(size_t bytes)
{
    return aligned_alloc(64, (bytes + 63) / 64 * 64);
}

static int fixture_make(fixture *f, int capacity, int width)
{
    memset(f, 0, sizeof *f);
    ossa_error e;
    if (ossa_default_character_build(&f->dc, NULL, &e) != OSSA_OK)
        return 0;
    for (int k = 0; k < OSSA_DEFAULT_CLIP_COUNT; ++k)
        f->clips[k] = f->dc.clips[k];
    ossa_crowd_desc d = {0};
    d.skeleton = f->dc.skeleton;
    d.clips = f->clips;
    d.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    d.capacity = capacity;
    d.width = width;
    const size_t bytes = ossa_crowd_size(&d);
    f->memory = alloc64(bytes);
    if (!bytes || !f->memory || ossa_crowd_init(&f->crowd, f->memory, bytes, &d) != OSSA_OK)
        return 0;
    f->scratch_bytes = ossa_crowd_scratch_size(f->crowd);
    f->scratch = alloc64(f->scratch_bytes);
    return f->scratch != NULL;
}

static void fixture_free(fixture *f)
{
    free(f->memory);
    free(f->scratch);
    ossa_default_character_free(&f->dc, NULL);
}

static ossa_character_desc random_character(ts_rng *r)
{
    ossa_character_desc c = {0};
    c.clip_a = ts_int(r, OSSA_DEFAULT_CLIP_COUNT);
    c.clip_b = ts_int(r, OSSA_DEFAULT_CLIP_COUNT);
    c.weight_b = ts_int(r, 3) == 0 ? 0.0f : (float)ts_uniform(r, 0.0, 1.0);
    c.time_s = (float)ts_uniform(r, 0.0, 3.0);
    c.speed = (float)ts_uniform(r, 0.5, 1.5);
    c.position = (ossa_float3){(float)ts_uniform(r, -20, 20), (float)ts_uniform(r, -1, 1),
                               (float)ts_uniform(r, -20, 20)};
    c.yaw_rad = (float)ts_uniform(r, -3.1, 3.1);
    const int intervals[3] = {1, 2, 4};
    c.update_interval = intervals[ts_int(r, 3)];
    c.inactive = ts_int(r, 5) == 0;
    return c;
}

static ossa_result run_frame(fixture *f, float dt)
{
    int batches;
    ossa_result r = ossa_crowd_begin_frame(f->crowd, dt, &batches);
    if (r == OSSA_OK)
        r = ossa_crowd_update(f->crowd, 0, batches, f->scratch, f->scratch_bytes);
    if (r == OSSA_OK)
        r = ossa_crowd_end_frame(f->crowd);
    return r;
}

/* ---- ids and slots against a model ---- */

typedef struct record {
    ossa_entity entity;
    int alive, active, interval, clip_a, clip_b;
    float weight_b, speed;
    char name[16];
} record;

static void check_against_model(const ossa_crowd *crowd, const record *model, int records)
{
    int alive = 0, active = 0, phases[3][4] = {{0}};
    for (int i = 0; i < records; ++i) {
        const record *m = &model[i];
        CHECK(ossa_crowd_alive(crowd, m->entity) == (m->alive != 0));
        ossa_character_state st;
        if (!m->alive) {
            CHECK_RESULT(ossa_crowd_character(crowd, m->entity, &st), OSSA_ERR_STALE_ID);
            CHECK(ossa_crowd_slot(crowd, m->entity) == -1);
            continue;
        }
        ++alive;
        active += m->active;
        REQUIRE(ossa_crowd_character(crowd, m->entity, &st) == OSSA_OK);
        CHECK(st.active == (m->active != 0));
        CHECK_INT(st.update_interval, m->interval);
        CHECK_INT(st.clip_a, m->clip_a);
        CHECK_INT(st.clip_b, m->clip_b);
        CHECK(st.weight_b == m->weight_b && st.speed == m->speed);
        CHECK(strcmp(st.name, m->name) == 0);
        if (m->active)
            phases[m->interval == 1 ? 0 : m->interval == 2 ? 1 : 2][st.phase]++;
    }
    CHECK_INT(ossa_crowd_count(crowd), alive);
    CHECK_INT(ossa_crowd_active_count(crowd), active);
    /* dense, consistent slots: each slot's entity maps back to it */
    for (int s = 0; s < ossa_crowd_count(crowd); ++s) {
        ossa_entity e = ossa_crowd_entity_at(crowd, s);
        CHECK(ossa_crowd_alive(crowd, e));
        CHECK_INT(ossa_crowd_slot(crowd, e), s);
        ossa_character_state st;
        REQUIRE(ossa_crowd_character(crowd, e, &st) == OSSA_OK);
        CHECK(st.active == (s < ossa_crowd_active_count(crowd)));
    }
    /* staggered: the phases of an interval differ by at most one */
    for (int k = 1; k < 3; ++k) {
        int lo = 1 << 30, hi = 0;
        for (int p = 0; p < (1 << k); ++p) {
            lo = phases[k][p] < lo ? phases[k][p] : lo;
            hi = phases[k][p] > hi ? phases[k][p] : hi;
        }
        CHECK(hi - lo <= 1);
    }
}

TEST(crowd_ids_slots_and_buckets_match_a_simple_model)
{
    enum { CAPACITY = 64, OPS = 3000, MAX_RECORDS = OPS + 1 };
    fixture f;
    REQUIRE(fixture_make(&f, CAPACITY, 0));
    record *model = calloc(MAX_RECORDS, sizeof *model);
    int records = 0, alive = 0, full_seen = 0;
    ts_rng r = ts_rng_make(5);
    for (int op = 0; op < OPS; ++op) {
        const int kind = ts_int(&r, 10);
        const int pick = records ? ts_int(&r, records) : 0;
        record *m = records ? &model[pick] : NULL;
        if (kind < 4 || !records) { /* spawn */
            ossa_character_desc d = random_character(&r);
            record *n = &model[records];
            snprintf(n->name, sizeof n->name, "c%d", op);
            d.name = n->name;
            ossa_entity e;
            ossa_result res = ossa_crowd_spawn(f.crowd, &d, &e);
            if (alive == CAPACITY) {
                CHECK_RESULT(res, OSSA_ERR_FULL);
                full_seen = 1;
                continue;
            }
            REQUIRE(res == OSSA_OK);
            n->entity = e;
            n->alive = 1;
            n->active = !d.inactive;
            n->interval = d.update_interval;
            n->clip_a = d.clip_a;
            n->clip_b = d.clip_b;
            n->weight_b = d.weight_b;
            n->speed = d.speed;
            ++records;
            ++alive;
        } else if (kind < 6) { /* despawn, perhaps of a stale id */
            CHECK_RESULT(ossa_crowd_despawn(f.crowd, m->entity),
                         m->alive ? OSSA_OK : OSSA_ERR_STALE_ID);
            alive -= m->alive;
            m->alive = 0;
        } else if (kind < 8) {
            const int on = ts_int(&r, 2);
            CHECK_RESULT(ossa_crowd_set_active(f.crowd, m->entity, on),
                         m->alive ? OSSA_OK : OSSA_ERR_STALE_ID);
            if (m->alive)
                m->active = on;
        } else if (kind < 9) {
            const int interval = 1 << ts_int(&r, 3);
            CHECK_RESULT(ossa_crowd_set_update_interval(f.crowd, m->entity, interval),
                         m->alive ? OSSA_OK : OSSA_ERR_STALE_ID);
            if (m->alive)
                m->interval = interval;
        } else {
            const float w = (float)ts_uniform(&r, 0, 1);
            CHECK_RESULT(ossa_crowd_set_clips(f.crowd, m->entity, 2, 1, w),
                         m->alive ? OSSA_OK : OSSA_ERR_STALE_ID);
            if (m->alive) {
                m->clip_a = 2;
                m->clip_b = 1;
                m->weight_b = w;
            }
        }
        if (op % 7 == 0)
            check_against_model(f.crowd, model, records);
    }
    check_against_model(f.crowd, model, records);
    CHECK(full_seen);
    free(model);
    fixture_free(&f);
}

TEST(crowd_reused_index_gets_a_new_generation_and_old_id_stays_stale)
{
    fixture f;
    REQUIRE(fixture_make(&f, 4, 0));
    ossa_character_desc d = {0};
    ossa_entity a, b;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &a) == OSSA_OK);
    REQUIRE(ossa_crowd_despawn(f.crowd, a) == OSSA_OK);
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &b) == OSSA_OK);
    CHECK_INT(b.index, a.index);
    CHECK(b.generation != a.generation);
    CHECK(!ossa_crowd_alive(f.crowd, a));
    CHECK_RESULT(ossa_crowd_despawn(f.crowd, a), OSSA_ERR_STALE_ID);
    CHECK(ossa_crowd_alive(f.crowd, b));
    CHECK(!ossa_crowd_alive(f.crowd, (ossa_entity){0, 0}));
    CHECK(!ossa_crowd_alive(f.crowd, (ossa_entity){99, 1}));
    /* a generation about to wrap retires the index instead of reusing it */
    f.crowd->generation[b.index] = UINT32_MAX;
    ossa_entity last = {b.index, UINT32_MAX};
    REQUIRE(ossa_crowd_despawn(f.crowd, last) == OSSA_OK);
    for (int i = 0; i < 3; ++i) {
        ossa_entity e;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e) == OSSA_OK);
        CHECK(e.index != b.index);
    }
    ossa_entity e;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &d, &e), OSSA_ERR_FULL);
    fixture_free(&f);
}

TEST(crowd_rejects_bad_descriptions_and_arguments)
{
    fixture f;
    REQUIRE(fixture_make(&f, 8, 0));
    ossa_crowd_desc d = {0};
    CHECK(ossa_crowd_size(&d) == 0);
    ossa_crowd *c;
    _Alignas(64) char buffer[64];
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_MISSING_INPUT);
    d.skeleton = f.dc.skeleton;
    d.clips = f.clips;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_INPUT_TOO_SMALL);
    d.clip_count = 3;
    d.capacity = 10;
    d.width = 5;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_ARGUMENT);
    d.width = 0;
    const char *feet[1] = {"no_such_joint"};
    d.foot_names = feet;
    d.foot_count = 1;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_NOT_FOUND);
    d.foot_names = NULL;
    d.foot_contact_height = NAN;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_VALUE);
    d.foot_contact_height = 0;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_OUTPUT_TOO_SMALL);

    ossa_character_desc ch = {0};
    ossa_entity e;
    ch.clip_b = 3;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_BAD_INDEX);
    ch.clip_b = 0;
    ch.weight_b = 1.5f;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_BAD_VALUE);
    ch.weight_b = 0;
    ch.speed = -1;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_BAD_VALUE);
    ch.speed = 0;
    ch.update_interval = 3;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_BAD_ARGUMENT);
    ch.update_interval = 0;
    ch.position.x = INFINITY;
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_BAD_VALUE);
    ch.position.x = 0;
    CHECK_INT(ossa_crowd_count(f.crowd), 0);
    REQUIRE(ossa_crowd_spawn(f.crowd, &ch, &e) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_update_interval(f.crowd, e, 8), OSSA_ERR_BAD_ARGUMENT);
    CHECK_RESULT(ossa_crowd_set_speed(f.crowd, e, NAN), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_begin_frame(f.crowd, -1.0f, NULL), OSSA_ERR_BAD_VALUE);
    int batches;
    REQUIRE(ossa_crowd_begin_frame(f.crowd, 0.0f, &batches) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, batches + 1, f.scratch, f.scratch_bytes),
                 OSSA_ERR_BAD_RANGE);
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, batches, f.scratch, f.scratch_bytes - 1),
                 OSSA_ERR_OUTPUT_TOO_SMALL);
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, batches, (char *)f.scratch + 4, f.scratch_bytes),
                 OSSA_ERR_MISALIGNED);
    CHECK(ossa_crowd_pose(f.crowd, e) == NULL); /* never updated yet */
    CHECK_RESULT(ossa_crowd_update(f.crowd, 0, batches, f.scratch, f.scratch_bytes), OSSA_OK);
    CHECK(ossa_crowd_pose(f.crowd, e) != NULL);
    fixture_free(&f);
}

/* ---- the update against the reference jobs ---- */

/* The character's world pose computed by the reference jobs from its state. */
static void reference_pose(const fixture *f, const ossa_character_state *st, ossa_mat34 *out)
{
    const int joints = OSSA_DEFAULT_JOINT_COUNT;
    ossa_transform a[OSSA_DEFAULT_JOINT_COUNT], b[OSSA_DEFAULT_JOINT_COUNT];
    ossa_transform pose[OSSA_DEFAULT_JOINT_COUNT];
    ossa_sampling_job s = {0};
    const uint16_t ia = (uint16_t)st->clip_a, ib = (uint16_t)st->clip_b;
    s.clips = f->clips;
    s.clip_count = OSSA_DEFAULT_CLIP_COUNT;
    s.clip_index = &ia;
    s.clip_index_count = 1;
    s.time_s = &st->time_a_s;
    s.time_count = 1;
    s.output = a;
    s.output_count = joints;
    CHECK_RESULT(ossa_sampling_job_run(&s), OSSA_OK);
    s.clip_index = &ib;
    s.time_s = &st->time_b_s;
    s.output = b;
    CHECK_RESULT(ossa_sampling_job_run(&s), OSSA_OK);
    ossa_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = a;
    layers[0].pose_count = joints;
    layers[0].weight = 1.0f - st->weight_b;
    layers[1].pose = b;
    layers[1].pose_count = joints;
    layers[1].weight = st->weight_b;
    ossa_blending_job bl = {0};
    bl.layers = layers;
    bl.layer_count = 2;
    bl.rest_pose = ossa_skeleton_rest_pose(f->dc.skeleton);
    bl.joint_count = joints;
    bl.instance_count = 1;
    bl.output = pose;
    bl.output_count = joints;
    CHECK_RESULT(ossa_blending_job_run(&bl), OSSA_OK);
    const float co = cosf(st->yaw_rad), si = sinf(st->yaw_rad);
    const ossa_mat34 root = {{{co, 0, si, st->position.x},
                              {0, 1, 0, st->position.y},
                              {-si, 0, co, st->position.z}}};
    ossa_local_to_model_job l = {0};
    l.parents = ossa_skeleton_parents(f->dc.skeleton);
    l.joint_count = joints;
    l.local = pose;
    l.local_count = joints;
    l.instance_count = 1;
    l.root = &root;
    l.root_count = 1;
    l.model = out;
    l.model_count = joints;
    CHECK_RESULT(ossa_local_to_model_job_run(&l), OSSA_OK);
}

static double pose_diff(const ossa_mat34 *a, const ossa_mat34 *b, int joints)
{
    double worst = 0;
    for (int j = 0; j < joints; ++j)
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 4; ++c) {
                double e = fabs((double)a[j].m[r][c] - b[j].m[r][c]) / (1.0 + fabs(b[j].m[r][c]));
                if (!(e <= worst))
                    worst = e;
            }
    return worst;
}

TEST(crowd_update_matches_the_reference_jobs_for_every_character)
{
    const int widths[3] = {4, 8, 16};
    for (int w = 0; w < 3; ++w) {
        fixture f;
        REQUIRE(fixture_make(&f, 50, widths[w]));
        ts_rng r = ts_rng_make(7 + (uint64_t)w);
        ossa_entity e[50];
        for (int i = 0; i < 50; ++i) {
            ossa_character_desc d = random_character(&r);
            d.update_interval = 1;
            d.inactive = 0;
            REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
        }
        double worst = 0;
        for (int frame = 0; frame < 3; ++frame) {
            REQUIRE(run_frame(&f, 1.0f / 30.0f) == OSSA_OK);
            for (int i = 0; i < 50; ++i) {
                ossa_character_state st;
                REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
                ossa_mat34 expect[OSSA_DEFAULT_JOINT_COUNT];
                reference_pose(&f, &st, expect);
                const ossa_mat34 *got = ossa_crowd_pose(f.crowd, e[i]);
                REQUIRE(got != NULL);
                double d = pose_diff(got, expect, OSSA_DEFAULT_JOINT_COUNT);
                if (!(d <= worst))
                    worst = d;
            }
        }
        if (!(worst <= POSE_TOLERANCE))
            fprintf(stderr, "width %d: worst %.3g\n", widths[w], worst);
        CHECK(worst <= POSE_TOLERANCE);
        fixture_free(&f);
    }
}

/* ---- update-rate LOD ---- */

TEST(crowd_lod_updates_each_interval_on_its_phase_with_even_cost)
{
    fixture f;
    REQUIRE(fixture_make(&f, 100, 0));
    ossa_entity e[100];
    const int counts[3] = {40, 32, 28}; /* intervals 1, 2, 4 */
    int n = 0;
    for (int k = 0; k < 3; ++k)
        for (int i = 0; i < counts[k]; ++i, ++n) {
            ossa_character_desc d = {0};
            d.update_interval = 1 << k;
            d.clip_a = d.clip_b = 1;
            d.time_s = 0.01f * (float)n;
            REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[n]) == OSSA_OK);
        }
    ossa_mat34 *before = malloc(sizeof(ossa_mat34) * 96);
    for (int frame = 0; frame < 8; ++frame) {
        uint32_t updates[100];
        for (int i = 0; i < 100; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
            updates[i] = st.updates;
        }
        const ossa_mat34 *p = ossa_crowd_pose(f.crowd, e[99]);
        if (p)
            memcpy(before, p, sizeof(ossa_mat34) * 96);
        REQUIRE(run_frame(&f, 1.0f / 30.0f) == OSSA_OK);
        ossa_crowd_stats st = ossa_crowd_get_stats(f.crowd);
        CHECK_INT(st.updated, 40 + 16 + 7); /* the same every frame */
        CHECK(st.updates_per_frame == 40.0f + 16.0f + 7.0f);
        CHECK_INT(st.interval_count[0], 40);
        CHECK_INT(st.interval_count[2], 28);
        int updated = 0;
        for (int i = 0; i < 100; ++i) {
            ossa_character_state cs;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &cs) == OSSA_OK);
            const int now = (int)(cs.updates - updates[i]);
            CHECK(now == ((frame % cs.update_interval) == cs.phase));
            updated += now;
        }
        CHECK_INT(updated, st.updated);
        /* between updates the pose holds */
        ossa_character_state last;
        REQUIRE(ossa_crowd_character(f.crowd, e[99], &last) == OSSA_OK);
        if (p && last.updates == updates[99])
            CHECK(memcmp(before, ossa_crowd_pose(f.crowd, e[99]), sizeof(ossa_mat34) * 96) == 0);
    }
    for (int i = 0; i < 100; ++i) {
        ossa_character_state cs;
        REQUIRE(ossa_crowd_character(f.crowd, e[i], &cs) == OSSA_OK);
        CHECK_INT(cs.updates, 8 / cs.update_interval);
    }
    free(before);
    fixture_free(&f);
}

TEST(crowd_inactive_characters_neither_update_nor_advance)
{
    fixture f;
    REQUIRE(fixture_make(&f, 8, 0));
    ossa_character_desc d = {0};
    d.time_s = 0.25f;
    ossa_entity a, b;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &a) == OSSA_OK);
    d.inactive = true;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &b) == OSSA_OK);
    for (int i = 0; i < 5; ++i)
        REQUIRE(run_frame(&f, 0.1f) == OSSA_OK);
    ossa_character_state sa, sb;
    REQUIRE(ossa_crowd_character(f.crowd, a, &sa) == OSSA_OK);
    REQUIRE(ossa_crowd_character(f.crowd, b, &sb) == OSSA_OK);
    CHECK_INT(sa.updates, 5);
    CHECK_INT(sb.updates, 0);
    CHECK(sb.time_a_s == 0.25f);
    CHECK_NEAR(sa.time_a_s, fmod(0.25 + 0.5, ossa_clip_duration(f.clips[0])), 1e-5);
    REQUIRE(ossa_crowd_set_active(f.crowd, b, true) == OSSA_OK);
    REQUIRE(run_frame(&f, 0.1f) == OSSA_OK);
    REQUIRE(ossa_crowd_character(f.crowd, b, &sb) == OSSA_OK);
    CHECK_INT(sb.updates, 1);
    fixture_free(&f);
}

/* ---- footfalls and dust ---- */

TEST(crowd_footfalls_are_where_reference_foot_heights_cross_the_contact_height)
{
    fixture f;
    REQUIRE(fixture_make(&f, 16, 0));
    ossa_entity e[16];
    ts_rng r = ts_rng_make(3);
    for (int i = 0; i < 16; ++i) {
        ossa_character_desc d = {0};
        d.clip_a = d.clip_b = 1 + i % 2; /* walk, run */
        d.time_s = (float)ts_uniform(&r, 0, 1);
        d.position = (ossa_float3){(float)i, 0.5f * (float)(i % 3), 0};
        d.yaw_rad = 0.3f * (float)i;
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
    }
    const int feet[2] = {ossa_skeleton_find_joint(f.dc.skeleton, "foot_l"),
                         ossa_skeleton_find_joint(f.dc.skeleton, "foot_r")};
    REQUIRE(feet[0] >= 0 && feet[1] >= 0);
    const float contact = f.crowd->foot_contact[0];
    CHECK(contact > 0.0f);
    float prev[16][2];
    for (int i = 0; i < 16; ++i)
        prev[i][0] = prev[i][1] = NAN;
    int expected = 0, total = 0, per_character[16] = {0};
    for (int frame = 0; frame < 90; ++frame) {
        REQUIRE(run_frame(&f, 1.0f / 30.0f) == OSSA_OK);
        int count;
        const ossa_footfall *ff = ossa_crowd_footfalls(f.crowd, &count);
        total += count;
        for (int i = 0; i < 16; ++i) {
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, e[i], &st) == OSSA_OK);
            ossa_mat34 pose[OSSA_DEFAULT_JOINT_COUNT];
            reference_pose(&f, &st, pose);
            for (int k = 0; k < 2; ++k) {
                const float h = pose[feet[k]].m[1][3] - st.position.y;
                const int hit = h < contact && prev[i][k] >= contact;
                prev[i][k] = h;
                if (!hit)
                    continue;
                /* the crowd reports this one, at the foot */
                int found = 0;
                for (int x = 0; x < count; ++x)
                    if (ff[x].entity.index == e[i].index && ff[x].foot == k &&
                        fabsf(ff[x].position.x - pose[feet[k]].m[0][3]) < 1e-4f &&
                        fabsf(ff[x].position.z - pose[feet[k]].m[2][3]) < 1e-4f)
                        found = 1;
                CHECK(found);
                ++expected;
                ++per_character[i];
            }
        }
    }
    CHECK_INT(total, expected);
    /* walking and running for 3 s: every character steps with both feet */
    for (int i = 0; i < 16; ++i)
        CHECK(per_character[i] >= 4);

    ossa_particles_desc pd = {0};
    pd.capacity = 1000;
    void *pm = alloc64(ossa_particles_size(&pd));
    ossa_particles *dust;
    REQUIRE(ossa_particles_init(&dust, pm, ossa_particles_size(&pd), &pd) == OSSA_OK);
    int count = 0;
    for (int frame = 0; count == 0 && frame < 60; ++frame) {
        REQUIRE(run_frame(&f, 1.0f / 30.0f) == OSSA_OK);
        ossa_crowd_footfalls(f.crowd, &count);
    }
    REQUIRE(count > 0);
    const ossa_footfall *ff = ossa_crowd_footfalls(f.crowd, &count);
    CHECK_INT(ossa_crowd_emit_dust(f.crowd, dust, 3, 0.5f), 3 * count);
    ossa_particle_view v = ossa_particles_view(dust);
    CHECK_INT(v.count, 3 * count);
    for (int i = 0; i < v.count; ++i)
        CHECK(v.x[i] == ff[i / 3].position.x && v.y[i] == ff[i / 3].position.y &&
              v.z[i] == ff[i / 3].position.z && v.vy[i] >= 0.0f);
    free(pm);
    fixture_free(&f);
}

/* ---- threads ---- */

typedef struct worker {
    fixture *f;
    int begin, end;
    void *scratch;
    ossa_result result;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    w->result = ossa_crowd_update(w->f->crowd, w->begin, w->end, w->scratch, w->f->scratch_bytes);
    return NULL;
}

/* Runs frames with `threads` threads, each updating its share of the batches. */
static void run_threaded(fixture *f, int threads, int frames)
{
    for (int frame = 0; frame < frames; ++frame) {
        int batches;
        REQUIRE(ossa_crowd_begin_frame(f->crowd, 1.0f / 30.0f, &batches) == OSSA_OK);
        pthread_t id[3];
        worker w[3];
        for (int t = 0; t < threads; ++t) {
            w[t].f = f;
            w[t].begin = batches * t / threads;
            w[t].end = batches * (t + 1) / threads;
            w[t].scratch = alloc64(f->scratch_bytes);
            REQUIRE(pthread_create(&id[t], NULL, work, &w[t]) == 0);
        }
        for (int t = 0; t < threads; ++t) {
            pthread_join(id[t], NULL);
            CHECK_RESULT(w[t].result, OSSA_OK);
            free(w[t].scratch);
        }
        REQUIRE(ossa_crowd_end_frame(f->crowd) == OSSA_OK);
    }
}

TEST(crowd_output_is_bit_identical_for_1_2_and_3_threads)
{
    enum { N = 300, FRAMES = 12 };
    fixture f[3];
    for (int t = 0; t < 3; ++t) {
        REQUIRE(fixture_make(&f[t], N, 0));
        ts_rng r = ts_rng_make(99); /* the same crowd in each */
        for (int i = 0; i < N; ++i) {
            ossa_character_desc d = random_character(&r);
            ossa_entity e;
            REQUIRE(ossa_crowd_spawn(f[t].crowd, &d, &e) == OSSA_OK);
        }
        run_threaded(&f[t], t + 1, FRAMES);
    }
    const size_t pose = sizeof(ossa_mat34) * OSSA_DEFAULT_JOINT_COUNT;
    for (int t = 1; t < 3; ++t) {
        CHECK_INT(ossa_crowd_count(f[t].crowd), N);
        for (int s = 0; s < N; ++s) {
            ossa_entity a = ossa_crowd_entity_at(f[0].crowd, s);
            ossa_entity b = ossa_crowd_entity_at(f[t].crowd, s);
            CHECK(a.index == b.index && a.generation == b.generation);
            const ossa_mat34 *pa = ossa_crowd_pose(f[0].crowd, a);
            const ossa_mat34 *pb = ossa_crowd_pose(f[t].crowd, b);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, pose) == 0);
        }
        int na, nb;
        const ossa_footfall *fa = ossa_crowd_footfalls(f[0].crowd, &na);
        const ossa_footfall *fb = ossa_crowd_footfalls(f[t].crowd, &nb);
        CHECK_INT(na, nb);
        CHECK(memcmp(fa, fb, sizeof *fa * (size_t)na) == 0);
    }
    for (int t = 0; t < 3; ++t)
        fixture_free(&f[t]);
}

UTEST_MAIN(crowd_ids_slots_and_buckets_match_a_simple_model,
           crowd_reused_index_gets_a_new_generation_and_old_id_stays_stale,
           crowd_rejects_bad_descriptions_and_arguments,
           crowd_update_matches_the_reference_jobs_for_every_character,
           crowd_lod_updates_each_interval_on_its_phase_with_even_cost,
           crowd_inactive_characters_neither_update_nor_advance,
           crowd_footfalls_are_where_reference_foot_heights_cross_the_contact_height,
           crowd_output_is_bit_identical_for_1_2_and_3_threads)
