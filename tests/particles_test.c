/* particles_test.c - the packed particle system against a straightforward
 * reference simulation (a pool with an `active` flag per particle, updated
 * with `if (active)`), capacity, and bad input. */
#include <stdlib.h>
#include <string.h>

#include "ossa/particles.h"
#include "test_support.h"
#include "utest.h"

/* Same formulas on both sides; a compiler may still contract one of them
 * into FMAs, so positions agree to a few roundings. */
#define POSITION_TOLERANCE 1e-5

typedef struct ref_particle {
    int active;
    float p[3], v[3], age;
} ref_particle;

typedef struct reference {
    ref_particle *pool;
    int capacity;
    float lifetime, drag, g[3];
} reference;

static int ref_spawn(reference *r, const float p[3], const float v[3])
{
    for (int i = 0; i < r->capacity; ++i)
        if (!r->pool[i].active) {
            ref_particle *x = &r->pool[i];
            x->active = 1;
            memcpy(x->p, p, sizeof x->p);
            memcpy(x->v, v, sizeof x->v);
            x->age = 0.0f;
            return 1;
        }
    return 0;
}

static void ref_update(reference *r, float dt)
{
    for (int i = 0; i < r->capacity; ++i) {
        ref_particle *x = &r->pool[i];
        if (!x->active)
            continue;
        for (int k = 0; k < 3; ++k) {
            x->v[k] = (x->v[k] + r->g[k] * dt) * (1.0f / (1.0f + r->drag * dt));
            x->p[k] += x->v[k] * dt;
        }
        x->age += dt;
        if (x->age >= r->lifetime)
            x->active = 0;
    }
}

static int compare_points(const void *a, const void *b)
{
    const float *x = a, *y = b;
    for (int k = 0; k < 3; ++k)
        if (x[k] != y[k])
            return x[k] < y[k] ? -1 : 1;
    return 0;
}

TEST(particles_match_a_reference_simulation_with_an_active_flag)
{
    enum { CAPACITY = 500, FRAMES = 200 };
    ossa_particles_desc d = {0};
    d.capacity = CAPACITY;
    d.lifetime_s = 0.9f;
    d.gravity = (ossa_float3){0.0f, -2.0f, 0.5f};
    d.drag = 0.7f;
    const size_t bytes = ossa_particles_size(&d);
    void *memory = aligned_alloc(64, (bytes + 63) / 64 * 64);
    ossa_particles *p;
    REQUIRE(ossa_particles_init(&p, memory, bytes, &d) == OSSA_OK);
    reference ref = {calloc(CAPACITY, sizeof(ref_particle)), CAPACITY, 0.9f, 0.7f,
                     {0.0f, -2.0f, 0.5f}};
    float *mine = malloc(sizeof(float) * 3 * CAPACITY);
    float *theirs = malloc(sizeof(float) * 3 * CAPACITY);
    ts_rng r = ts_rng_make(17);
    long dropped = 0;
    int peak = 0;
    for (int frame = 0; frame < FRAMES; ++frame) {
        /* bursts that sometimes overflow the pool */
        const int spawn = frame % 50 < 10 ? ts_int(&r, 120) : ts_int(&r, 8);
        for (int i = 0; i < spawn; ++i) {
            const float pos[3] = {(float)ts_uniform(&r, -5, 5), (float)ts_uniform(&r, 0, 1),
                                  (float)ts_uniform(&r, -5, 5)};
            const float vel[3] = {(float)ts_uniform(&r, -1, 1), (float)ts_uniform(&r, 0, 2),
                                  (float)ts_uniform(&r, -1, 1)};
            const int taken = ref_spawn(&ref, pos, vel);
            const ossa_result res = ossa_particles_spawn(p, (ossa_float3){pos[0], pos[1], pos[2]},
                                                         (ossa_float3){vel[0], vel[1], vel[2]});
            CHECK_RESULT(res, taken ? OSSA_OK : OSSA_ERR_FULL);
            dropped += !taken;
        }
        const float dt = frame % 3 == 0 ? 1.0f / 30.0f : 1.0f / 60.0f;
        ref_update(&ref, dt);
        REQUIRE(ossa_particles_update(p, dt) == OSSA_OK);
        int live = 0;
        for (int i = 0; i < CAPACITY; ++i)
            if (ref.pool[i].active) {
                memcpy(theirs + 3 * live, ref.pool[i].p, sizeof(float) * 3);
                ++live;
            }
        ossa_particle_view v = ossa_particles_view(p);
        REQUIRE(v.count == live);
        peak = live > peak ? live : peak;
        for (int i = 0; i < v.count; ++i) {
            mine[3 * i] = v.x[i];
            mine[3 * i + 1] = v.y[i];
            mine[3 * i + 2] = v.z[i];
            CHECK(v.age_s[i] < d.lifetime_s); /* nothing dead inside [0, count) */
        }
        /* the same particles, in another order */
        qsort(mine, (size_t)live, sizeof(float) * 3, compare_points);
        qsort(theirs, (size_t)live, sizeof(float) * 3, compare_points);
        double worst = 0;
        for (int i = 0; i < 3 * live; ++i) {
            double e = fabs((double)mine[i] - theirs[i]);
            worst = e > worst ? e : worst;
        }
        CHECK(worst <= POSITION_TOLERANCE);
    }
    CHECK(peak == CAPACITY); /* the bursts filled it */
    CHECK(dropped > 0);
    CHECK_INT(ossa_particles_dropped(p), dropped);
    free(mine);
    free(theirs);
    free(ref.pool);
    free(memory);
}

TEST(particles_reject_bad_descriptions_and_values)
{
    ossa_particles_desc d = {0};
    CHECK(ossa_particles_size(&d) == 0);
    ossa_particles *p;
    _Alignas(64) unsigned char memory[4096];
    CHECK_RESULT(ossa_particles_init(&p, memory, sizeof memory, &d), OSSA_ERR_INPUT_TOO_SMALL);
    d.capacity = 4;
    d.drag = -1.0f;
    CHECK_RESULT(ossa_particles_init(&p, memory, sizeof memory, &d), OSSA_ERR_BAD_VALUE);
    d.drag = 0.0f;
    CHECK_RESULT(ossa_particles_init(&p, memory + 1, sizeof memory - 1, &d), OSSA_ERR_MISALIGNED);
    CHECK_RESULT(ossa_particles_init(&p, memory, 16, &d), OSSA_ERR_OUTPUT_TOO_SMALL);
    REQUIRE(ossa_particles_init(&p, memory, sizeof memory, &d) == OSSA_OK);
    ossa_float3 zero = {0, 0, 0}, bad = {NAN, 0, 0};
    CHECK_RESULT(ossa_particles_spawn(p, bad, zero), OSSA_ERR_BAD_VALUE);
    CHECK_RESULT(ossa_particles_spawn(p, zero, bad), OSSA_ERR_BAD_VALUE);
    CHECK_INT(ossa_particles_count(p), 0);
    CHECK_RESULT(ossa_particles_update(p, -1.0f), OSSA_ERR_BAD_VALUE);
    /* default lifetime 1 s */
    REQUIRE(ossa_particles_spawn(p, zero, zero) == OSSA_OK);
    REQUIRE(ossa_particles_update(p, 0.5f) == OSSA_OK);
    CHECK_INT(ossa_particles_count(p), 1);
    REQUIRE(ossa_particles_update(p, 0.5f) == OSSA_OK);
    CHECK_INT(ossa_particles_count(p), 0);
}

UTEST_MAIN(particles_match_a_reference_simulation_with_an_active_flag,
           particles_reject_bad_descriptions_and_values)
