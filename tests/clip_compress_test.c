/* clip_compress_test.c - compressed clips held to the error bound against
 * their source curves, checked by the tests' own evaluation of the metric
 * (clip_metric_check.h: glTF curves in double, hierarchy in double, six
 * points per joint), at random times, segment boundaries, the last frame and
 * through the loop's wrap: random synthetic clips (every interpolation, on
 * and off the key grid). The shared models' clips: clip_compress_models_test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clip_builder_test_support.h"
#include "clip_compress_check.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"
#include "test_support.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

/* Random clips on a chain: each of every interpolation mode, on and off the
 * key grid, compressed at default settings, within the bound everywhere. */
TEST(random_compressed_clips_are_within_the_tolerance_of_their_curves)
{
    ts_rng r = ts_rng_make(501);
    ossa_skeleton *sk = chain(7);
    REQUIRE(sk);
    const struct {
        bool on_grid;
        int interp;
        double angle;
    } cases[] = {
        {true, OSSA_INTERP_LINEAR, 0.6},  {false, OSSA_INTERP_LINEAR, 0.4},
        {true, OSSA_INTERP_STEP, 0.8},    {true, OSSA_INTERP_CUBICSPLINE, 0.3},
        {false, -1, 0.3},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        raw_store s = store_make(&r, sk, 6, cases[c].on_grid, 10.0, cases[c].interp,
                                 cases[c].angle);
        ossa_raw_clip raw = {"random", 0.0f, s.tracks, s.joints};
        ossa_clip *clip = NULL;
        ossa_clip_build_report report;
        ossa_error e;
        CHECK_RESULT(ossa_clip_build(&raw, sk, NULL, &clip, &report, &e), OSSA_OK);
        if (!clip) {
            store_free(&s);
            continue;
        }
        CHECK(ossa_clip_is_compressed(clip));
        CHECK(report.compressed);
        double at;
        const double worst = worst_error(sk, s.tracks, clip, report.distance, 300, 600 + c, &at);
        fprintf(stderr,
                "  case %zu: %d frames at %.0f Hz, %zu bytes, reported %.3g, measured %.3g at "
                "%.4f s (tolerance %.3g)\n",
                c, report.frame_count, (double)report.rate, report.bytes, (double)report.error,
                worst, at, (double)report.tolerance);
        if (report.within_tolerance)
            CHECK(worst <= report.tolerance);
        else /* the rate could not bring the source within it: said so */
            CHECK(report.resample_error > report.tolerance);
        ossa_clip_free(clip, NULL);
        store_free(&s);
    }
    ossa_skeleton_free(sk, NULL);
}

UTEST_MAIN(random_compressed_clips_are_within_the_tolerance_of_their_curves)
