/* crowd_order_test.c - the crowd's clip order (crowd_order.c): after
 * begin_frame every interval bucket holds the characters of each clip
 * pair they sample (the one each weighs, then b where it blends) side by
 * side, its batches (widths 4, 8 and 16) playing fewer clips and pairs
 * than the pairs sorted would, no character that sat inside its clip
 * pair's run moved, with the same
 * characters in each bucket, the skinned and inactive slots where they
 * were and every character's state intact; and a crowd kept in clip
 * order (and prefetching its clips a batch ahead) gives the bits,
 * palettes and footfalls of one kept in spawn order (no_clip_order), on
 * clips that are separate copies so that batches in spawn order play many
 * clips (the lane-by-lane compressed kernel) and batches in clip order
 * few (the clip-by-clip one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/crowd/crowd_internal.h"
#include "crowd_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

enum { COPIES = 8, CLIPS = COPIES * OSSA_DEFAULT_CLIP_COUNT };

/* A crowd of the default character (its skin, without a mesh: palettes) on
 * CLIPS clips, clip k a copy of the default clip k mod 3 in memory of its
 * own; copies[] must be freed with free(). */
static int make(ts_crowd *f, int capacity, int width, bool clip_order, bool prefetch,
                void *copies[CLIPS], const ossa_clip *clips[CLIPS])
{
    if (!ts_crowd_load(f))
        return 0;
    for (int k = 0; k < CLIPS; ++k) {
        const ossa_clip *from = f->dc.clips[k % OSSA_DEFAULT_CLIP_COUNT];
        const size_t bytes = ossa_clip_bytes(from);
        copies[k] = ts_aligned(bytes);
        if (!copies[k])
            return 0;
        memcpy(copies[k], from, bytes);
        clips[k] = copies[k];
    }
    ossa_crowd_desc d = {0};
    d.skeleton = f->dc.skeleton;
    d.clips = clips;
    d.clip_count = CLIPS;
    d.capacity = capacity;
    d.width = width;
    ts_crowd_skin(f, &d);
    d.no_clip_order = !clip_order;
    d.prefetch_clips = prefetch;
    return ts_crowd_start(f, &d);
}

static void unmake(ts_crowd *f, void *copies[CLIPS])
{
    ts_crowd_free(f);
    for (int k = 0; k < CLIPS; ++k)
        free(copies[k]);
}

/* ts_crowd_random_character on CLIPS clips, three in four updated every
 * frame (so that an interval bucket holds several characters per clip),
 * starting inside both clips (a frame of dt 0 leaves its playheads). */
static ossa_character_desc random_character(ts_rng *r, const ossa_clip *const clips[CLIPS])
{
    ossa_character_desc d = ts_crowd_random_character(r, 1);
    d.clip_a = ts_int(r, CLIPS);
    d.clip_b = ts_int(r, CLIPS);
    if (ts_int(r, 4) != 0)
        d.update_interval = 1;
    const float da = ossa_clip_duration(clips[d.clip_a]), db = ossa_clip_duration(clips[d.clip_b]);
    d.time_s = (float)ts_uniform(r, 0.0, 0.9) * (da < db ? da : db);
    return d;
}

/* The clip a character weighs: b at weight_b 1, else a. */
static int weighed_clip(const ossa_crowd *c, int slot)
{
    return c->weight_b[slot] >= 1.0f ? c->clip_b[slot] : c->clip_a[slot];
}

/* The clips a character samples: the one it weighs, then b where it
 * blends (else none, 0xFFFF). */
static uint64_t key_at(const ossa_crowd *c, int slot)
{
    const float w = c->weight_b[slot];
    return (uint64_t)weighed_clip(c, slot) << 16 |
           (w > 0.0f && w < 1.0f ? c->clip_b[slot] : 0xFFFFu);
}

static int by_key(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The clip pairs (weighed 0) or weighed clips (1) the batches of the
 * interval buckets sample, summed over the batches (which end on multiples
 * of the width): in the crowd's order (sorted 0), or with each bucket's
 * keys sorted instead (1). */
static int clips_per_batch(const ossa_crowd *c, int weighed, int sorted)
{
    static uint64_t key[1024];
    const int width = ossa_crowd_width(c);
    int sum = 0;
    for (int b = BUCKET_SKINNED + 1; b < BUCKET_INACTIVE; ++b) {
        const int first = c->bucket_end[b - 1], end = c->bucket_end[b];
        for (int s = first; s < end; ++s)
            key[s - first] = key_at(c, s) >> (weighed ? 16 : 0);
        if (sorted)
            qsort(key, (size_t)(end - first), sizeof *key, by_key);
        for (int s = first; s < end; ++s) {
            int seen = 0; /* in this batch already */
            for (int m = s - 1; m >= first && m >= s / width * width && !seen; --m)
                seen = key[m - first] == key[s - first];
            sum += !seen;
        }
    }
    return sum;
}

/* What a slot move must not change. */
typedef struct snapshot {
    ossa_entity entity[1024];
    int bucket[1024];      /* by entity index */
    int position[1024];    /* slot by entity index */
    ossa_character_state state[1024]; /* by entity index */
} snapshot;

static void take(const ossa_crowd *c, snapshot *s)
{
    for (int slot = 0; slot < c->count; ++slot) {
        const ossa_entity e = ossa_crowd_entity_at(c, slot);
        s->entity[slot] = e;
        s->bucket[e.index] = ossai_crowd_bucket_of(c, slot);
        s->position[e.index] = slot;
        REQUIRE(ossa_crowd_character(c, e, &s->state[e.index]) == OSSA_OK);
    }
}

/* The same character (the counters of updates and footfalls aside). */
static int same_state(const ossa_character_state *a, const ossa_character_state *b)
{
    return strcmp(a->name, b->name) == 0 && a->clip_a == b->clip_a && a->clip_b == b->clip_b &&
           a->weight_b == b->weight_b && a->time_a_s == b->time_a_s &&
           a->time_b_s == b->time_b_s && a->speed == b->speed &&
           memcmp(&a->position, &b->position, sizeof a->position) == 0 &&
           a->yaw_rad == b->yaw_rad && a->update_interval == b->update_interval &&
           a->phase == b->phase && a->active == b->active && a->skinned == b->skinned &&
           a->spawn_frame == b->spawn_frame && a->sync == b->sync && a->fade_to == b->fade_to &&
           a->fade_left_s == b->fade_left_s;
}

/* The buckets of `after` hold the characters of `before`'s, the interval
 * buckets in clip order, the others in their slots; a character whose slot
 * before lies in its clip pair's run after (the slots of its bucket with
 * its pair) has not moved; every character's state is unchanged. Returns
 * the characters that moved. */
static int check_order(const ossa_crowd *c, const snapshot *before)
{
    snapshot *after = malloc(sizeof *after);
    CHECK(after != NULL);
    if (!after)
        return -1;
    take(c, after);
    /* each slot's run: [run_start, run_end) */
    static int run_start[1024], run_end[1024];
    for (int s = 0, e; s < c->count; s = e) {
        for (e = s + 1; e < c->count && ossai_crowd_bucket_of(c, e) == ossai_crowd_bucket_of(c, s) &&
                        key_at(c, e) == key_at(c, s);
             ++e)
            ;
        for (int k = s; k < e; ++k)
            run_start[k] = s, run_end[k] = e;
    }
    int moved = 0;
    for (int slot = 0; slot < c->count; ++slot) {
        const ossa_entity e = after->entity[slot];
        const int b = after->bucket[e.index];
        CHECK_INT(b, before->bucket[e.index]);
        CHECK_INT(ossa_crowd_slot(c, e), slot);
        CHECK(same_state(&after->state[e.index], &before->state[e.index]));
        moved += before->position[e.index] != slot;
        if (b == BUCKET_SKINNED || b == BUCKET_INACTIVE) {
            CHECK_INT(before->position[e.index], slot);
            continue;
        }
        /* each pair's characters side by side: a run that ends does not
         * come back in its bucket */
        if (slot > 0 && ossai_crowd_bucket_of(c, slot - 1) == b &&
            key_at(c, slot - 1) != key_at(c, slot))
            for (int k = slot + 1; k < c->count && ossai_crowd_bucket_of(c, k) == b; ++k)
                CHECK(key_at(c, k) != key_at(c, slot - 1));
        const int was = before->position[e.index];
        if (run_start[slot] <= was && was < run_end[slot]) /* in its run: stays */
            CHECK_INT(was, slot);
    }
    free(after);
    return moved;
}

/* The test below at one width (every batch width: the runs are packed
 * against the batches). */
static void keeps_order(int width)
{
    enum { N = 600 };
    ts_crowd f;
    void *copies[CLIPS] = {0};
    const ossa_clip *clips[CLIPS];
    REQUIRE(make(&f, N, width, true, false, copies, clips));
    ts_rng r = ts_rng_make(5);
    ossa_entity e[N];
    for (int i = 0; i < N; ++i) {
        ossa_character_desc d = random_character(&r, clips);
        REQUIRE(ossa_crowd_spawn(f.crowd, &d, &e[i]) == OSSA_OK);
    }
    snapshot *before = malloc(sizeof *before);
    REQUIRE(before != NULL);
    /* a frame of dt 0: the playheads stay, so every state must too */
    take(f.crowd, before);
    REQUIRE(ts_crowd_frame(&f, 0.0f, 1) == OSSA_OK);
    int moved = check_order(f.crowd, before);
    CHECK(moved > N / 2);
    /* the runs packed against the batches: fewer weighed clips and pairs
     * a batch than in the pairs' order */
    for (int weighed = 0; weighed < 2; ++weighed) {
        const int packed = clips_per_batch(f.crowd, weighed, 0);
        const int sorted = clips_per_batch(f.crowd, weighed, 1);
        fprintf(stderr, "%s over the batches: %d packed, %d in clip order\n",
                weighed ? "weighed clips" : "clip pairs", packed, sorted);
        CHECK(packed < sorted);
    }
    /* a swap moves two and puts at least one in its run for good */
    CHECK(ossa_crowd_get_stats(f.crowd).reordered >= moved / 2);
    CHECK(ossa_crowd_get_stats(f.crowd).reordered <= moved);
    /* in order: nothing moves */
    take(f.crowd, before);
    REQUIRE(ts_crowd_frame(&f, 0.0f, 1) == OSSA_OK);
    CHECK_INT(check_order(f.crowd, before), 0);
    CHECK_INT(ossa_crowd_get_stats(f.crowd).reordered, 0);
    /* new clips for some (other copies of theirs: the playheads stay
     * inside): they move to their places, nobody else's order changes */
    for (int round = 0; round < 5; ++round) {
        for (int k = 0; k < 20; ++k) {
            const ossa_entity x = e[ts_int(&r, N)];
            ossa_character_state st;
            REQUIRE(ossa_crowd_character(f.crowd, x, &st) == OSSA_OK);
            const int base = OSSA_DEFAULT_CLIP_COUNT;
            const int a = base * ts_int(&r, COPIES) + st.clip_a % base;
            const int b = base * ts_int(&r, COPIES) + st.clip_b % base;
            REQUIRE(ossa_crowd_set_clips(f.crowd, x, a, b, st.weight_b) == OSSA_OK);
        }
        take(f.crowd, before);
        REQUIRE(ts_crowd_frame(&f, 0.0f, 1) == OSSA_OK);
        const int moved_now = check_order(f.crowd, before);
        CHECK(moved_now > 0);
        CHECK(ossa_crowd_get_stats(f.crowd).reordered > 0);
        CHECK(ossa_crowd_get_stats(f.crowd).reordered <= moved_now);
        CHECK(clips_per_batch(f.crowd, 1, 0) <= clips_per_batch(f.crowd, 1, 1));
    }
    free(before);
    unmake(&f, copies);
}

TEST(crowd_keeps_interval_buckets_in_clip_order_and_characters_intact)
{
    keeps_order(4);
    keeps_order(8);
    keeps_order(16);
}

static int by_footfall(const void *pa, const void *pb)
{
    const ossa_footfall *a = pa, *b = pb;
    if (a->entity.index != b->entity.index)
        return a->entity.index < b->entity.index ? -1 : 1;
    return a->foot - b->foot;
}

TEST(crowd_in_clip_order_gives_the_bits_of_a_crowd_in_spawn_order)
{
    enum { N = 400, FRAMES = 10 };
    ts_crowd f[2];
    void *copies[2][CLIPS] = {{0}};
    const ossa_clip *clips[2][CLIPS];
    ossa_entity e[2][N];
    for (int k = 0; k < 2; ++k) {
        /* the crowd in clip order also asks for each next batch's clips
         * ahead (prefetch_clips), which must change no bit either */
        REQUIRE(make(&f[k], N, 0, k == 0, k == 0, copies[k], clips[k]));
        ts_rng r = ts_rng_make(31); /* the same crowd in both */
        for (int i = 0; i < N; ++i) {
            ossa_character_desc d = random_character(&r, clips[k]);
            REQUIRE(ossa_crowd_spawn(f[k].crowd, &d, &e[k][i]) == OSSA_OK);
        }
    }
    /* the clips a batch's first sampling reads (each lane's weighed clip:
     * b at weight 1, else a), per frame: the most in one batch, and their
     * mean, over the batches of interval buckets */
    int most[2] = {0, 0};
    double mean[2] = {0.0, 0.0};
    const size_t pose = sizeof(ossa_mat34) * OSSA_DEFAULT_JOINT_COUNT;
    const size_t palette = sizeof(ossa_mat34) * (size_t)ossa_crowd_skin_joint_count(f[0].crowd);
    for (int frame = 0; frame < FRAMES; ++frame) {
        ts_rng r = ts_rng_make(100 + (uint64_t)frame);
        for (int k = 0; k < 20 && frame % 3 == 2; ++k) {
            const int i = ts_int(&r, N), a = ts_int(&r, CLIPS), b = ts_int(&r, CLIPS);
            for (int c = 0; c < 2; ++c)
                REQUIRE(ossa_crowd_set_clips(f[c].crowd, e[c][i], a, b, 0.25f) == OSSA_OK);
        }
        for (int c = 0; c < 2; ++c) {
            REQUIRE(ts_crowd_frame(&f[c], 1.0f / 30.0f, 1) == OSSA_OK);
            const ossa_crowd *x = f[c].crowd;
            int sum = 0;
            int batches = 0;
            for (int b = 0; b < x->batch_count; ++b) {
                const int s0 = x->batch_first[b], s1 = s0 + x->batch_size[b];
                if (s0 < x->bucket_end[BUCKET_SKINNED])
                    continue; /* skinned characters keep their slots */
                ++batches;
                int distinct = 0;
                for (int l = s0; l < s1; ++l) {
                    int seen = 0;
                    for (int m = s0; m < l && !seen; ++m)
                        seen = weighed_clip(x, m) == weighed_clip(x, l);
                    distinct += !seen;
                }
                most[c] = distinct > most[c] ? distinct : most[c];
                sum += distinct;
            }
            mean[c] += (double)sum / (batches * FRAMES);
        }
        for (int i = 0; i < N; ++i) {
            const ossa_mat34 *pa = ossa_crowd_pose(f[0].crowd, e[0][i]);
            const ossa_mat34 *pb = ossa_crowd_pose(f[1].crowd, e[1][i]);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, pose) == 0);
            pa = ossa_crowd_palette(f[0].crowd, e[0][i]);
            pb = ossa_crowd_palette(f[1].crowd, e[1][i]);
            CHECK((pa == NULL) == (pb == NULL));
            if (pa && pb)
                CHECK(memcmp(pa, pb, palette) == 0);
            CHECK_INT(ossa_crowd_slot(f[0].crowd, e[0][i]) < ossa_crowd_skinned_count(f[0].crowd),
                      ossa_crowd_slot(f[1].crowd, e[1][i]) < ossa_crowd_skinned_count(f[1].crowd));
        }
        int n[2];
        const ossa_footfall *ff[2];
        ossa_footfall sorted[2][N * OSSA_CROWD_MAX_FEET];
        for (int c = 0; c < 2; ++c) {
            ff[c] = ossa_crowd_footfalls(f[c].crowd, &n[c]);
            REQUIRE(n[c] <= N * OSSA_CROWD_MAX_FEET);
            memcpy(sorted[c], ff[c], sizeof *ff[c] * (size_t)n[c]);
            qsort(sorted[c], (size_t)n[c], sizeof *sorted[c], by_footfall);
        }
        CHECK_INT(n[0], n[1]);
        if (n[0] == n[1])
            CHECK(memcmp(sorted[0], sorted[1], sizeof *sorted[0] * (size_t)n[0]) == 0);
    }
    /* spawn order: batches for the lane-by-lane kernel (more clips than
     * half the lanes); clip order: half as many clips a batch or fewer */
    const int width = ossa_crowd_width(f[0].crowd);
    CHECK(most[1] > width / 2);
    fprintf(stderr, "clips a batch: most %d / %d, mean %.2f / %.2f (clip / spawn order)\n",
            most[0], most[1], mean[0], mean[1]);
    CHECK(mean[0] <= 0.5 * mean[1]);
    for (int k = 0; k < 2; ++k)
        unmake(&f[k], copies[k]);
}

UTEST_MAIN(crowd_keeps_interval_buckets_in_clip_order_and_characters_intact,
           crowd_in_clip_order_gives_the_bits_of_a_crowd_in_spawn_order)
