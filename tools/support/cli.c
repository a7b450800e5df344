/* cli.c - see cli.h. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

uint64_t cli_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double cli_median(double *values, size_t n)
{
    if (n == 0)
        return 0.0;
    qsort(values, n, sizeof *values, compare_doubles);
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

uint32_t cli_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

float cli_unit(uint32_t seed)
{
    return (float)(cli_hash(seed) >> 8) / 16777216.0f;
}

bool cli_is(const char *arg, const char *name, const char *short_name)
{
    return strcmp(arg, name) == 0 || (short_name && strcmp(arg, short_name) == 0);
}

/* The command being run, for messages: "ossa render: ...". */
static const char *current_command = "";

void cli_set_command(const char *name)
{
    current_command = name ? name : "";
}

/* "ossa CMD: " (or "ossa: " before a command is known). */
static void prefix(void)
{
    if (current_command[0])
        fprintf(stderr, "ossa %s: ", current_command);
    else
        fputs("ossa: ", stderr);
}

static const char *value_of(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        prefix();
        fprintf(stderr, "option %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

bool cli_int_arg(int argc, char **argv, int *i, int min, int max, int *out)
{
    const char *opt = argv[*i], *v = value_of(argc, argv, i);
    if (!v)
        return false;
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || end == v || x < min || x > max) {
        prefix();
        fprintf(stderr, "%s %s: expected a whole number in [%d, %d]\n", opt, v, min, max);
        return false;
    }
    *out = (int)x;
    return true;
}

bool cli_float_arg(int argc, char **argv, int *i, float min, float max, float *out)
{
    const char *opt = argv[*i], *v = value_of(argc, argv, i);
    if (!v)
        return false;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || end == v || !isfinite(x) || x < min || x > max) {
        prefix();
        fprintf(stderr, "%s %s: expected a number in [%g, %g]\n", opt, v, (double)min,
                (double)max);
        return false;
    }
    *out = (float)x;
    return true;
}

bool cli_string_arg(int argc, char **argv, int *i, const char **out)
{
    const char *v = value_of(argc, argv, i);
    if (!v)
        return false;
    *out = v;
    return true;
}

bool cli_skin_format_arg(int argc, char **argv, int *i, const char *command,
                         ossa_skin_format *out)
{
    const char *v = value_of(argc, argv, i);
    if (!v)
        return false;
    for (int f = 0; f < OSSA_SKIN_FORMAT_COUNT; ++f)
        if (strcmp(v, cli_skin_format_name((ossa_skin_format)f)) == 0) {
            *out = (ossa_skin_format)f;
            return true;
        }
    cli_error(command, "--skin-format %s: expected packed or float4", v);
    return false;
}

const char *cli_skin_format_name(ossa_skin_format format)
{
    return format == OSSA_SKIN_FORMAT_PACKED ? "packed"
           : format == OSSA_SKIN_FORMAT_FLOAT4 ? "float4"
                                               : "unknown";
}

void cli_progress_begin(cli_progress *p, const char *what, long total)
{
    p->what = what;
    p->total = total > 0 ? total : 1;
    p->last_tenth = -1;
    p->tty = isatty(STDERR_FILENO) != 0;
    p->start_ns = cli_now_ns();
}

void cli_progress_step(cli_progress *p, long done)
{
    int percent = (int)(100 * done / p->total);
    int tenth = percent / 10;
    if (p->tty) {
        static int last_percent = -1;
        if (percent == last_percent)
            return;
        last_percent = percent;
        fprintf(stderr, "\r%s: %3d%% (%ld/%ld)", p->what, percent, done, p->total);
        fflush(stderr);
    } else if (tenth != p->last_tenth) {
        p->last_tenth = tenth;
        fprintf(stderr, "%s: %d%% (%ld/%ld)\n", p->what, percent, done, p->total);
    }
}

void cli_progress_end(cli_progress *p)
{
    double s = (double)(cli_now_ns() - p->start_ns) * 1e-9;
    if (p->tty)
        fprintf(stderr, "\r%s: done in %.2f s%20s\n", p->what, s, "");
    else
        fprintf(stderr, "%s: done in %.2f s\n", p->what, s);
}

void cli_error(const char *command, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "ossa %s: ", command);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
}

void *cli_alloc(size_t bytes)
{
    size_t rounded = (bytes + 63) / 64 * 64;
    void *p = aligned_alloc(64, rounded ? rounded : 64);
    if (!p) {
        prefix();
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

void cli_free(void *p)
{
    free(p);
}

const char *cli_absolute_path(const char *path, char *to, size_t bytes)
{
    char *resolved = realpath(path, NULL);
    snprintf(to, bytes, "%s", resolved ? resolved : path);
    free(resolved);
    return to;
}
