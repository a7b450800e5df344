/* crowd_test.c - the crowd's storage: entity ids and packed slots against a
 * simple model (activation, intervals, skinning), the buckets' invariants,
 * update-rate LOD, inactive characters, and bad descriptions. The frame's
 * results are checked in crowd_frame_test.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../src/crowd/crowd_internal.h"
#include "crowd_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

typedef ts_crowd fixture;
#define fixture_make(f, capacity, width) ts_crowd_make(f, capacity, width, -1)
#define fixture_free ts_crowd_free
#define run_frame(f, dt) ts_crowd_frame(f, dt, 1)
#define random_character(r) ts_crowd_random_character(r, 1)

/* ---- ids and slots against a model ---- */

typedef struct record {
    ossa_entity entity;
    int alive, active, skinned, interval, clip_a, clip_b;
    float weight_b, speed;
    char name[16];
} record;

static void check_against_model(const ossa_crowd *crowd, const record *model, int records)
{
    int alive = 0, active = 0, skinned = 0, phases[3][4] = {{0}};
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
        skinned += m->active && m->skinned;
        REQUIRE(ossa_crowd_character(crowd, m->entity, &st) == OSSA_OK);
        CHECK(st.active == (m->active != 0));
        CHECK(st.skinned == (m->skinned != 0));
        CHECK_INT(st.update_interval, m->interval);
        CHECK_INT(st.clip_a, m->clip_a);
        CHECK_INT(st.clip_b, m->clip_b);
        CHECK(st.weight_b == m->weight_b && st.speed == m->speed);
        CHECK(strcmp(st.name, m->name) == 0);
        if (m->active && !m->skinned)
            phases[m->interval == 1 ? 0 : m->interval == 2 ? 1 : 2][st.phase]++;
    }
    CHECK_INT(ossa_crowd_count(crowd), alive);
    CHECK_INT(ossa_crowd_active_count(crowd), active);
    CHECK_INT(ossa_crowd_skinned_count(crowd), skinned);
    /* dense, consistent slots: each slot's entity maps back to it */
    for (int s = 0; s < ossa_crowd_count(crowd); ++s) {
        ossa_entity e = ossa_crowd_entity_at(crowd, s);
        CHECK(ossa_crowd_alive(crowd, e));
        CHECK_INT(ossa_crowd_slot(crowd, e), s);
        ossa_character_state st;
        REQUIRE(ossa_crowd_character(crowd, e, &st) == OSSA_OK);
        CHECK(st.active == (s < ossa_crowd_active_count(crowd)));
        /* the skinned active characters are the first slots */
        CHECK((st.active && st.skinned) == (s < ossa_crowd_skinned_count(crowd)));
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
    enum { CAPACITY = 64, SKINNED = 10, OPS = 4000, MAX_RECORDS = OPS + 1 };
    fixture f;
    REQUIRE(ts_crowd_make(&f, CAPACITY, 0, SKINNED));
    record *model = calloc(MAX_RECORDS, sizeof *model);
    int records = 0, alive = 0, marked = 0, full_seen = 0, skin_full_seen = 0;
    ts_rng r = ts_rng_make(5);
    for (int op = 0; op < OPS; ++op) {
        const int kind = ts_int(&r, 11);
        const int pick = records ? ts_int(&r, records) : 0;
        record *m = records ? &model[pick] : NULL;
        if (kind < 4 || !records) { /* spawn */
            ossa_character_desc d = random_character(&r);
            record *n = &model[records];
            snprintf(n->name, sizeof n->name, "c%d", op);
            d.name = n->name;
            ossa_entity e;
            ossa_result res = ossa_crowd_spawn(f.crowd, &d, &e);
            if (alive == CAPACITY || (d.skinned && marked == SKINNED)) {
                CHECK_RESULT(res, OSSA_ERR_FULL);
                full_seen |= alive == CAPACITY;
                skin_full_seen |= alive < CAPACITY;
                continue;
            }
            REQUIRE(res == OSSA_OK);
            n->entity = e;
            n->alive = 1;
            n->active = !d.inactive;
            n->skinned = d.skinned;
            marked += d.skinned;
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
            marked -= m->alive && m->skinned;
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
        } else if (kind < 10) {
            const int on = ts_int(&r, 2);
            const ossa_result expect = !m->alive                                  ? OSSA_ERR_STALE_ID
                                       : on && !m->skinned && marked == SKINNED ? OSSA_ERR_FULL
                                                                                  : OSSA_OK;
            CHECK_RESULT(ossa_crowd_set_skinned(f.crowd, m->entity, on), expect);
            skin_full_seen |= expect == OSSA_ERR_FULL;
            if (expect == OSSA_OK) {
                marked += on - m->skinned;
                m->skinned = on;
            }
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
    CHECK(skin_full_seen);
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
    d.skin_joint_count = ossa_mesh_skin_joint_count(f.dc.mesh);
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_MISSING_INPUT);
    d.skin_joints = ossa_mesh_skin_joints(f.dc.mesh);
    d.inverse_binds = ossa_mesh_inverse_binds(f.dc.mesh);
    d.skinned_capacity = 11;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_ARGUMENT);
    d.skinned_capacity = 0;
    d.skin_joint_count = -1;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_ARGUMENT);
    uint16_t bad_joint[1] = {OSSA_DEFAULT_JOINT_COUNT};
    d.skin_joints = bad_joint;
    d.skin_joint_count = 1;
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_INDEX);
    d.skin_joint_count = 0;
    d.skinned_capacity = 1; /* a skinned capacity without a skin */
    CHECK_RESULT(ossa_crowd_init(&c, buffer, sizeof buffer, &d), OSSA_ERR_BAD_ARGUMENT);
    d.skinned_capacity = 0;
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
    ch.skinned = true; /* this crowd has no skin */
    CHECK_RESULT(ossa_crowd_spawn(f.crowd, &ch, &e), OSSA_ERR_FULL);
    ch.skinned = false;
    REQUIRE(ossa_crowd_spawn(f.crowd, &ch, &e) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_skinned(f.crowd, e, true), OSSA_ERR_FULL);
    CHECK_RESULT(ossa_crowd_set_skinned(f.crowd, e, false), OSSA_OK);
    CHECK(ossa_crowd_palette(f.crowd, e) == NULL);
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

/* ---- placement ---- */

TEST(crowd_placement_moves_a_character_as_if_spawned_there)
{
    fixture f;
    REQUIRE(fixture_make(&f, 8, 0));
    CHECK_INT(ossa_crowd_joint_count(f.crowd), ossa_skeleton_joint_count(f.dc.skeleton));
    ossa_character_desc d = {0};
    d.time_s = 0.25f;
    ossa_entity moved, there;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &moved) == OSSA_OK);
    d.position = (ossa_float3){3.0f, 0.5f, -2.0f};
    d.yaw_rad = 1.25f;
    REQUIRE(ossa_crowd_spawn(f.crowd, &d, &there) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_placement(f.crowd, moved, d.position, d.yaw_rad), OSSA_OK);
    ossa_character_state st;
    REQUIRE(ossa_crowd_character(f.crowd, moved, &st) == OSSA_OK);
    CHECK(st.position.x == 3.0f && st.position.y == 0.5f && st.position.z == -2.0f);
    CHECK_NEAR(st.yaw_rad, 1.25, 1e-6);
    REQUIRE(run_frame(&f, 0.1f) == OSSA_OK);
    const ossa_mat34 *a = ossa_crowd_pose(f.crowd, moved), *b = ossa_crowd_pose(f.crowd, there);
    REQUIRE(a && b);
    CHECK(memcmp(a, b, sizeof *a * (size_t)ossa_crowd_joint_count(f.crowd)) == 0);
    /* Not finite: refused, the placement kept. */
    CHECK_RESULT(ossa_crowd_set_placement(f.crowd, moved, (ossa_float3){NAN, 0.0f, 0.0f}, 0.0f),
                 OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_crowd_set_placement(f.crowd, moved, d.position, INFINITY),
                 OSSA_ERR_BAD_VALUE);
    REQUIRE(ossa_crowd_character(f.crowd, moved, &st) == OSSA_OK);
    CHECK(st.position.x == 3.0f && st.position.y == 0.5f && st.position.z == -2.0f);
    REQUIRE(ossa_crowd_despawn(f.crowd, moved) == OSSA_OK);
    CHECK_RESULT(ossa_crowd_set_placement(f.crowd, moved, d.position, 0.0f), OSSA_ERR_STALE_ID);
    fixture_free(&f);
}

UTEST_MAIN(crowd_ids_slots_and_buckets_match_a_simple_model,
           crowd_reused_index_gets_a_new_generation_and_old_id_stays_stale,
           crowd_rejects_bad_descriptions_and_arguments,
           crowd_lod_updates_each_interval_on_its_phase_with_even_cost,
           crowd_inactive_characters_neither_update_nor_advance,
           crowd_placement_moves_a_character_as_if_spawned_there)
