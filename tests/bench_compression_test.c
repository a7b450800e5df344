/* bench_compression_test.c - `ossa bench compression` without its models:
 * it names what it could not read, exits with 1, and gives no verdict from
 * the clips it did not measure (it once printed "met" for the error bound
 * of no clips at all, and ratios of 0 bytes as nan). */
#define _POSIX_C_SOURCE 200809L /* fileno, dup, dup2 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "utest.h"

/* OSSA_TEST_NEEDS_BENCH */

/* Runs bench_compression_main(argv) with its standard output (and error)
 * caught into out; returns its exit code. */
static int run_caught(int argc, char **argv, char *out, size_t size, char *err, size_t err_size)
{
    fflush(stdout);
    fflush(stderr);
    FILE *o = tmpfile(), *e = tmpfile();
    if (!o || !e)
        return -1;
    const int saved_out = dup(1), saved_err = dup(2);
    dup2(fileno(o), 1);
    dup2(fileno(e), 2);
    const int code = bench_compression_main(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    rewind(o);
    rewind(e);
    const size_t n = fread(out, 1, size - 1, o), m = fread(err, 1, err_size - 1, e);
    out[n] = '\0';
    err[m] = '\0';
    fclose(o);
    fclose(e);
    return code;
}

TEST(bench_compression_without_its_models_gives_no_verdicts)
{
    static char out[1 << 16], err[1 << 16];
    char *argv[] = {"compression", "--models", "/nonexistent/ossa-models"};
    const int code = run_caught(3, argv, out, sizeof out, err, sizeof err);
    CHECK_INT(code, 1);
    /* says which file it could not read */
    CHECK(strstr(err, "/nonexistent/ossa-models/") != NULL);
    CHECK(strstr(out, "all 0 clips") != NULL);
    CHECK(strstr(out, "not measured") != NULL);
    CHECK(strstr(out, "-> met") == NULL);
    CHECK(strstr(out, "-> missed") == NULL);
    CHECK(strstr(out, "nan") == NULL);
    /* the same in JSON: the goals null, every number a number */
    char *json[] = {"compression", "--models", "/nonexistent/ossa-models", "--json"};
    CHECK_INT(run_caught(4, json, out, sizeof out, err, sizeof err), 1);
    CHECK(strstr(out, "\"goals\": {\"pab_size\": null, \"error\": null, \"every_ratio\": null, "
                      "\"overall_ratio\": null, \"source_every_ratio\": null, "
                      "\"source_overall_ratio\": null}") != NULL);
    CHECK(strstr(out, "nan") == NULL && strstr(out, "inf") == NULL);
}

UTEST_MAIN(bench_compression_without_its_models_gives_no_verdicts)
