/* lane_order_test.c - ossa_lane_pack_runs and ossa_lane_clip_order
 * (ossa/lane_order.h): runs placed as the rule says on cases worked out by
 * hand, every placement a gapless tiling of the runs, at every width and
 * offset; an order that is a permutation with each clip's characters side
 * by side in their index order, whose batches play no more clips than the
 * characters sorted by clip (fewer over many small runs); bad arguments
 * refused with their codes. */
#include <stdlib.h>
#include <string.h>

#include "ossa/lane_order.h"
#include "test_support.h"
#include "utest.h"

TEST(runs_go_where_the_rule_puts_them)
{
    uint32_t place[4], link[4];
    /* width 8 from 0: 6 (largest that fits), then the 2 that fills the
     * batch, then the other 6 and 2 - where size order would cut the second
     * 6 over two batches */
    const uint32_t a[4] = {6, 6, 2, 2};
    REQUIRE(ossa_lane_pack_runs(a, 4, 0, 8, place, link) == OSSA_OK);
    CHECK_INT(place[0], 0);
    CHECK_INT(place[2], 6);
    CHECK_INT(place[1], 8);
    CHECK_INT(place[3], 14);
    /* from position 5 (3 left in its batch): the 3 fills it, then the 4,
     * then the 1 */
    const uint32_t b[3] = {1, 4, 3};
    REQUIRE(ossa_lane_pack_runs(b, 3, 5, 8, place, link) == OSSA_OK);
    CHECK_INT(place[2], 0);
    CHECK_INT(place[1], 3);
    CHECK_INT(place[0], 7);
    /* a run of the width or more at a batch's start before smaller ones;
     * runs of one size in the caller's order */
    const uint32_t c[4] = {3, 20, 3, 5};
    REQUIRE(ossa_lane_pack_runs(c, 4, 0, 4, place, link) == OSSA_OK);
    CHECK_INT(place[1], 0);  /* room 4: the 20 (4 or more), ends at 20: room 4 */
    CHECK_INT(place[3], 20); /* room 4 again: the 5, ends at 25: room 3 */
    CHECK_INT(place[0], 25); /* exactly 3 */
    CHECK_INT(place[2], 28);
}

/* The runs [place, place + size) tile [0, sum) without gaps or overlap. */
static void check_tiling(const uint32_t *size, const uint32_t *place, int n)
{
    uint32_t sum = 0;
    for (int r = 0; r < n; ++r)
        sum += size[r];
    unsigned char *used = calloc(sum ? sum : 1, 1);
    REQUIRE(used != NULL);
    for (int r = 0; r < n; ++r) {
        CHECK(place[r] + size[r] <= sum);
        for (uint32_t p = place[r]; p < place[r] + size[r] && p < sum; ++p) {
            CHECK(!used[p]);
            used[p] = 1;
        }
    }
    for (uint32_t p = 0; p < sum; ++p)
        CHECK(used[p]);
    free(used);
}

TEST(every_placement_tiles_its_runs)
{
    enum { N = 300 };
    static uint32_t size[N], place[N], link[N];
    ts_rng rng = ts_rng_make(7);
    const int widths[3] = {4, 8, 16};
    for (int round = 0; round < 60; ++round) {
        const int n = 1 + ts_int(&rng, N), width = widths[round % 3];
        const int first = ts_int(&rng, 40), big = round % 4 == 0 ? 40 : 9;
        for (int r = 0; r < n; ++r)
            size[r] = 1 + (uint32_t)ts_int(&rng, big);
        REQUIRE(ossa_lane_pack_runs(size, n, first, width, place, link) == OSSA_OK);
        check_tiling(size, place, n);
    }
}

/* The clips the batches of `width` play, summed over the batches: with
 * characters in `order` (NULL: sorted by clip, stably). */
static int clips_per_batch(const uint16_t *clip, int n, int width, const int *order)
{
    int *sorted = malloc(sizeof *sorted * (size_t)n);
    if (!sorted) {
        CHECK(sorted != NULL);
        return -1;
    }
    if (order)
        memcpy(sorted, order, sizeof *sorted * (size_t)n);
    else {
        int k = 0;
        for (int c = 0; c < 65536 && k < n; ++c)
            for (int i = 0; i < n; ++i)
                if (clip[i] == c)
                    sorted[k++] = i;
    }
    int sum = 0;
    for (int p = 0; p < n; ++p) {
        int seen = 0;
        for (int q = p / width * width; q < p && !seen; ++q)
            seen = clip[sorted[q]] == clip[sorted[p]];
        sum += !seen;
    }
    free(sorted);
    return sum;
}

TEST(an_order_keeps_each_clip_together_and_its_batches_on_few_clips)
{
    enum { N = 1000, CLIPS = 256 };
    static uint16_t clip[N];
    static int order[N];
    ts_rng rng = ts_rng_make(11);
    for (int i = 0; i < N; ++i)
        clip[i] = (uint16_t)ts_int(&rng, CLIPS);
    const size_t bytes = ossa_lane_clip_order_scratch_size(N, CLIPS);
    REQUIRE(bytes > 0);
    void *scratch = malloc(bytes);
    REQUIRE(scratch != NULL);
    const int widths[3] = {4, 8, 16};
    for (int w = 0; w < 3; ++w) {
        const int width = widths[w];
        REQUIRE(ossa_lane_clip_order(clip, N, CLIPS, width, order, scratch, bytes) == OSSA_OK);
        static int seen_at[N];
        for (int i = 0; i < N; ++i)
            seen_at[i] = -1;
        for (int p = 0; p < N; ++p) {
            REQUIRE(order[p] >= 0 && order[p] < N);
            CHECK_INT(seen_at[order[p]], -1); /* a permutation */
            seen_at[order[p]] = p;
            if (p > 0 && clip[order[p - 1]] == clip[order[p]])
                CHECK(order[p - 1] < order[p]); /* a clip's characters in index order */
            if (p > 0 && clip[order[p - 1]] != clip[order[p]])
                for (int q = p + 1; q < N; ++q) /* a clip's run does not come back */
                    CHECK(clip[order[q]] != clip[order[p - 1]]);
        }
        const int packed = clips_per_batch(clip, N, width, order);
        const int sorted = clips_per_batch(clip, N, width, NULL);
        fprintf(stderr, "width %d: %d clips over the batches packed, %d sorted\n", width, packed,
                sorted);
        CHECK(packed <= sorted);
        if (width >= 8) /* about four characters a clip: runs to pack */
            CHECK(packed < sorted * 9 / 10);
    }
    free(scratch);
}

TEST(bad_arguments_are_refused_with_their_codes)
{
    uint32_t size[2] = {3, 0}, place[2], link[2];
    CHECK_INT(ossa_lane_pack_runs(size, 1, 0, 5, place, link), OSSA_ERR_BAD_ARGUMENT);
    CHECK_INT(ossa_lane_pack_runs(size, -1, 0, 8, place, link), OSSA_ERR_BAD_ARGUMENT);
    CHECK_INT(ossa_lane_pack_runs(size, 1, -1, 8, place, link), OSSA_ERR_BAD_ARGUMENT);
    CHECK_INT(ossa_lane_pack_runs(size, 2, 0, 8, place, link), OSSA_ERR_BAD_VALUE);
    CHECK_INT(ossa_lane_pack_runs(NULL, 1, 0, 8, place, link), OSSA_ERR_MISSING_INPUT);
    CHECK_INT(ossa_lane_pack_runs(size, 1, 0, 8, NULL, link), OSSA_ERR_MISSING_OUTPUT);
    CHECK_INT(ossa_lane_pack_runs(size, 0, 0, 8, NULL, NULL), OSSA_OK);
    const uint32_t huge[2] = {0x7FFFFFFFu, 1};
    CHECK_INT(ossa_lane_pack_runs(huge, 2, 0, 8, place, link), OSSA_ERR_BAD_VALUE);

    uint16_t clip[3] = {0, 2, 1};
    int order[3];
    uint32_t scratch[64];
    const size_t bytes = ossa_lane_clip_order_scratch_size(3, 3);
    REQUIRE(bytes > 0 && bytes <= sizeof scratch);
    CHECK_INT(ossa_lane_clip_order(clip, 3, 3, 8, order, scratch, bytes), OSSA_OK);
    CHECK_INT(ossa_lane_clip_order(clip, 3, 2, 8, order, scratch, sizeof scratch),
              OSSA_ERR_BAD_INDEX);
    CHECK_INT(ossa_lane_clip_order(clip, 3, 3, 8, order, scratch, bytes - 1),
              OSSA_ERR_INPUT_TOO_SMALL);
    CHECK_INT(ossa_lane_clip_order(clip, 3, 3, 8, NULL, scratch, bytes), OSSA_ERR_MISSING_OUTPUT);
    CHECK_INT(ossa_lane_clip_order(NULL, 3, 3, 8, order, scratch, bytes), OSSA_ERR_MISSING_INPUT);
    CHECK_INT(ossa_lane_clip_order(clip, 0, 3, 8, order, scratch, bytes), OSSA_ERR_BAD_ARGUMENT);
    CHECK_INT(ossa_lane_clip_order(clip, 3, 3, 6, order, scratch, bytes), OSSA_ERR_BAD_ARGUMENT);
    CHECK(ossa_lane_clip_order_scratch_size(0, 3) == 0);
    CHECK(ossa_lane_clip_order_scratch_size(3, 0) == 0);
}

UTEST_MAIN(runs_go_where_the_rule_puts_them, every_placement_tiles_its_runs,
           an_order_keeps_each_clip_together_and_its_batches_on_few_clips,
           bad_arguments_are_refused_with_their_codes)
