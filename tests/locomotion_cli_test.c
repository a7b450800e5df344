/* locomotion_cli_test.c - root motion, float tracks and props from the
 * command line, as a user runs them: ossa build extracts root motion by
 * default and says so (ossa info too), --root-motion / --no-root-motion /
 * --track work and their bad values are refused with a message naming
 * them; ossa render --prop draws, and refuses a joint that is not there. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "test_support.h"
#include "tool_run.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_TOOLS */

static void run(const char *const *argv, ts_run_result *r)
{
    ts_run(argv, NULL, NULL, NULL, r);
}

TEST(default_character_blob_carries_root_motion)
{
    char blob[512];
    snprintf(blob, sizeof blob, "%s/hero.ossa", ts_temp_dir());
    ts_run_result r;
    const char *build[] = {OSSA_TEST_TOOL, "build", "--default", "-o", blob, NULL};
    run(build, &r);
    REQUIRE(r.status == 0);
    CHECK(strstr(r.out, "root motion from 'root'") != NULL);
    const char *info[] = {OSSA_TEST_TOOL, "info", blob, NULL};
    run(info, &r);
    REQUIRE(r.status == 0);
    /* walk and run move, crouch does not */
    const char *walk = strstr(r.out, "  walk ");
    REQUIRE(walk != NULL);
    CHECK(strstr(walk, "root motion from 'root': one loop moves") != NULL);
    const char *crouch = strstr(r.out, "  crouch ");
    REQUIRE(crouch != NULL);
    CHECK(strstr(crouch, "root motion") > walk);
}

TEST(build_options_for_root_motion_and_tracks)
{
    const char *arnaud = ts_model_path("pab/arnaud.fbx");
    static char run_fbx[512];
    const char *p = ts_model_path("pab/run.fbx");
    if (!arnaud || !p)
        SKIP("pab models not found (set OSSA_MODELS or add ../shared/models)");
    snprintf(run_fbx, sizeof run_fbx, "%s", p);
    static char arnaud_fbx[512];
    snprintf(arnaud_fbx, sizeof arnaud_fbx, "%s", arnaud);
    char blob[512];
    snprintf(blob, sizeof blob, "%s/arnaud_tracks.ossa", ts_temp_dir());
    ts_run_result r;
    const char *ok[] = {OSSA_TEST_TOOL, "build", arnaud_fbx, run_fbx, "--track", "Bip01 Footsteps",
                        "-o", blob, NULL};
    run(ok, &r);
    if (r.status != 0 && strstr(r.err, "importer"))
        SKIP("this ossa has no importer");
    REQUIRE(r.status == 0);
    CHECK(strstr(r.out, "root motion from 'Hips'") != NULL);
    CHECK(strstr(r.out, "float tracks: 'Bip01 Footsteps.translation.x'") != NULL);
    /* refusals, each naming what is wrong; no file written */
    static const struct {
        const char *option, *value, *mention;
    } bad[] = {
        {"--root-motion", "Bip01 Nope", "root motion joint 'Bip01 Nope' is not a joint"},
        {"--track", "Nope", "--track 'Nope': no input animates a node or property of that name"},
    };
    char out[512];
    snprintf(out, sizeof out, "%s/refused.ossa", ts_temp_dir());
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        const char *argv[] = {OSSA_TEST_TOOL, "build", arnaud_fbx, run_fbx, bad[i].option,
                              bad[i].value, "-o", out, NULL};
        run(argv, &r);
        CHECK(r.status == 1 && strstr(r.err, "ossa build: ") && strstr(r.err, bad[i].mention));
        if (!strstr(r.err, bad[i].mention))
            fprintf(stderr, "  %s %s: %s\n", bad[i].option, bad[i].value, r.err);
        FILE *f = fopen(out, "rb");
        CHECK(f == NULL);
        if (f)
            fclose(f);
    }
    const char *both[] = {OSSA_TEST_TOOL, "build", arnaud_fbx, "--root-motion", "Hips",
                          "--no-root-motion", "-o", out, NULL};
    run(both, &r);
    CHECK(r.status == 2 && strstr(r.err, "contradict"));
    /* --no-root-motion keeps the source's travel: no motion in info */
    const char *keep[] = {OSSA_TEST_TOOL, "build", arnaud_fbx, run_fbx, "--no-root-motion", "-o",
                          out, NULL};
    run(keep, &r);
    REQUIRE(r.status == 0);
    CHECK(strstr(r.out, "root motion") == NULL);
}

TEST(render_prop_draws_and_refuses_a_missing_joint)
{
    const char *help[] = {OSSA_TEST_TOOL, "--help", NULL};
    ts_run_result r;
    run(help, &r);
    if (!strstr(r.out, "  render "))
        SKIP("this ossa has no render command (OSSA_BUILD_RENDER=OFF)");
    char png[512];
    snprintf(png, sizeof png, "%s/prop.png", ts_temp_dir());
    const char *bad[] = {OSSA_TEST_TOOL, "render", "--prop", "sword_hand", "-o", png, NULL};
    run(bad, &r);
    CHECK(r.status != 0 && strstr(r.err, "--prop sword_hand: no such joint") &&
          strstr(r.err, "hand_r"));
    const char *good[] = {OSSA_TEST_TOOL, "render", "--clip", "run", "--prop", "hand_r",
                          "--characters", "2", "-o", png, NULL};
    run(good, &r);
    if (r.status != 0 && strstr(r.err, "EGL"))
        SKIP("no EGL display on this machine");
    CHECK_INT(r.status, 0);
    FILE *f = fopen(png, "rb");
    CHECK(f != NULL);
    if (f)
        fclose(f);
}

UTEST_MAIN(default_character_blob_carries_root_motion, build_options_for_root_motion_and_tracks,
           render_prop_draws_and_refuses_a_missing_joint)
