/* tool_errors_test.c - the ossa tool's bad inputs, run as a user runs them
 * in an empty directory: every command (as `ossa --help` lists them) and
 * each kind of bad option value, missing argument and missing file gets a
 * message that starts "ossa COMMAND: " and names what is wrong, a non-zero
 * exit (2 for usage, 1 for a failure), and nothing written. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_support.h"
#include "tool_run.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_PIPELINE */

#define MAX_COMMANDS 16

/* An empty directory of its own for each run. */
static const char *empty_dir(void)
{
    static char dir[512];
    static int serial;
    snprintf(dir, sizeof dir, "%s/cwd%d", ts_temp_dir(), serial++);
    mkdir(dir, 0755);
    return dir;
}

/* The commands `ossa --help` lists: lines "  NAME  summary". */
static int listed_commands(char names[][32])
{
    const char *argv[] = {OSSA_TEST_TOOL, "--help", NULL};
    ts_run_result r;
    ts_run(argv, NULL, NULL, NULL, &r);
    int n = 0;
    for (const char *line = r.out; line && *line && n < MAX_COMMANDS;) {
        char name[32];
        if (line[0] == ' ' && line[1] == ' ' && sscanf(line, " %31s", name) == 1)
            snprintf(names[n++], 32, "%s", name);
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return n;
}

static bool has_command(const char *name)
{
    char names[MAX_COMMANDS][32];
    const int n = listed_commands(names);
    for (int i = 0; i < n; ++i)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* Runs argv in an empty directory: the exit status, the first line of
 * stderr starting "ossa COMMAND: " and holding `what`, and the directory
 * still empty. */
static void check_refused(const char *const *argv, int status, const char *what)
{
    const char *dir = empty_dir();
    ts_run_result r;
    ts_run(argv, NULL, NULL, dir, &r);
    char prefix[64];
    snprintf(prefix, sizeof prefix, "ossa %s: ", argv[1]);
    const char *newline = strchr(r.err, '\n');
    const size_t first = newline ? (size_t)(newline - r.err) : strlen(r.err);
    const char *found = strstr(r.err, what);
    const bool ok = r.status == status && strncmp(r.err, prefix, strlen(prefix)) == 0 && found &&
                    (size_t)(found - r.err) < first && ts_files_in(dir) == 0;
    CHECK(ok);
    if (!ok) {
        fprintf(stderr, "  ossa");
        for (int i = 1; argv[i]; ++i)
            fprintf(stderr, " %s", argv[i]);
        fprintf(stderr, ": exit %d (want %d), %d files left, stderr:\n%s  want: %s...%s\n",
                r.status, status, ts_files_in(dir), r.err, prefix, what);
    }
}

TEST(every_command_refuses_an_unknown_option_with_its_prefix)
{
    char names[MAX_COMMANDS][32];
    const int n = listed_commands(names);
    CHECK(n >= 4); /* demo, build, info, dump at least */
    for (int i = 0; i < n; ++i) {
        const char *argv[] = {OSSA_TEST_TOOL, names[i], "--no-such-option", NULL};
        check_refused(argv, 2, "--no-such-option");
    }
}

TEST(option_values_and_arguments_are_checked)
{
    static const char *const cases[][8] = {
        {"2", "expected a whole number in [1, 1000000]", "demo", "--characters", "0"},
        {"2", "option --frames needs a value", "demo", "--frames"},
        {"1", "/nonexistent-ossa/x.ossa: cannot open", "demo", "--model",
         "/nonexistent-ossa/x.ossa"},
        {"2", "no file given", "info"},
        {"1", "/nonexistent-ossa/x.ossa: cannot open", "info", "/nonexistent-ossa/x.ossa"},
        {"2", "no time given", "dump", "x.ossa"},
        {"2", "--time abc: expected a number", "dump", "x.ossa", "--time", "abc"},
        {"1", "/nonexistent-ossa/x.ossa: cannot open", "dump", "/nonexistent-ossa/x.ossa",
         "--time", "1"},
        {"2", "no output: give -o OUT.ossa", "build"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const char *argv[8] = {OSSA_TEST_TOOL};
        for (int k = 2; k < 8 && cases[i][k]; ++k)
            argv[k - 1] = cases[i][k];
        check_refused(argv, atoi(cases[i][0]), cases[i][1]);
    }
}

TEST(bench_option_values_are_checked)
{
    if (!has_command("bench"))
        SKIP("this ossa has no bench command (OSSA_BUILD_BENCH=OFF)");
    const char *unknown[] = {OSSA_TEST_TOOL, "bench", "nosuch", NULL};
    check_refused(unknown, 2, "unknown benchmark 'nosuch'");
    const char *threads[] = {OSSA_TEST_TOOL, "bench", "hierarchy", "--threads", "0", NULL};
    check_refused(threads, 2, "--threads 0: expected a whole number");
    const char *cache[] = {OSSA_TEST_TOOL, "bench", "hierarchy", "--cache", "hot", NULL};
    check_refused(cache, 2, "--cache hot: expected warm or cold");
    /* ozz's frame as measured here: a positive, finite number of ms */
    const char *ozz_nan[] = {OSSA_TEST_TOOL, "bench", "frame", "--ozz-frame-ms", "nan", NULL};
    check_refused(ozz_nan, 2, "--ozz-frame-ms nan: expected a number in");
    const char *ozz_zero[] = {OSSA_TEST_TOOL, "bench", "frame", "--ozz-frame-ms", "0", NULL};
    check_refused(ozz_zero, 2, "--ozz-frame-ms 0: expected a number in");
    const char *ozz_none[] = {OSSA_TEST_TOOL, "bench", "frame", "--ozz-frame-ms", NULL};
    check_refused(ozz_none, 2, "option --ozz-frame-ms needs a value");
}

/* Refused while parsing, before any drawing: no GL needed. */
TEST(render_and_view_options_are_checked_before_any_work)
{
    if (!has_command("render"))
        SKIP("this ossa has no render command (OSSA_BUILD_RENDER=OFF)");
    static const char *const formats[] = {"x.jpg", "x.bmp", "x", ".png", "dir/"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; ++i) {
        const char *argv[] = {OSSA_TEST_TOOL, "render", "-o", formats[i], NULL};
        char what[128];
        snprintf(what, sizeof what, "-o %s: the format follows the extension: .png", formats[i]);
        check_refused(argv, 2, what);
    }
    static const char *const cases[][8] = {
        {"no output: give -o OUT.png", "render"},
        {"--loop plays a clip; --rest-pose and --bind-pose are still", "render", "--loop",
         "--rest-pose", "-o", "x.gif"},
        {"--rest-pose and --bind-pose: one pose at a time", "render", "--rest-pose",
         "--bind-pose", "-o", "x.png"},
        {"--size 3: expected WxH", "render", "--size", "3", "-o", "x.png"},
        {"--skinning z: expected cpu or gpu", "render", "--skinning", "z", "-o", "x.png"},
        {"--fps 0: expected a number", "render", "--fps", "0", "-o", "x.gif"},
        {"--size 3: expected WxH", "view", "--size", "3"},
        {"--pitch 95: expected a number", "view", "--pitch", "95"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        const char *argv[8] = {OSSA_TEST_TOOL};
        for (int k = 1; k < 8 && cases[i][k]; ++k)
            argv[k] = cases[i][k];
        check_refused(argv, 2, cases[i][0]);
    }
}

UTEST_MAIN(every_command_refuses_an_unknown_option_with_its_prefix,
           option_values_and_arguments_are_checked, bench_option_values_are_checked,
           render_and_view_options_are_checked_before_any_work)
