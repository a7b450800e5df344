/* cli.h - helpers shared by the ossa tool's commands: option parsing,
 * timing, medians, progress and messages. */
#ifndef OSSA_CLI_H
#define OSSA_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/skinning_job.h"

/* A command: ossa NAME ARGS... ; argv[0] is the command's name. Returns the
 * process exit code (0 success, 1 failure, 2 usage error). */
typedef int (*cli_command_fn)(int argc, char **argv);

/* Monotonic time in nanoseconds. */
uint64_t cli_now_ns(void);
/* Median of n values (sorts values in place); 0 for n == 0. */
double cli_median(double *values, size_t n);

/* A 32-bit integer hash (deterministic variety from an index or a seed). */
uint32_t cli_hash(uint32_t x);
/* cli_hash(seed) as a float in [0, 1), in steps of 2^-24. */
float cli_unit(uint32_t seed);

/* True when arg is --name or -short (short may be NULL). */
bool cli_is(const char *arg, const char *name, const char *short_name);
/* Parses the value following option argv[*i] into *out, advancing *i.
 * Prints a usage error and returns false when missing or malformed. */
bool cli_int_arg(int argc, char **argv, int *i, int min, int max, int *out);
bool cli_float_arg(int argc, char **argv, int *i, float min, float max, float *out);
bool cli_string_arg(int argc, char **argv, int *i, const char **out);
/* The value of --skin-format: "packed" or "float4" (a usage error, prefixed
 * with command, otherwise). */
bool cli_skin_format_arg(int argc, char **argv, int *i, const char *command,
                         ossa_skin_format *out);
/* "float4", "packed". */
const char *cli_skin_format_name(ossa_skin_format format);
/* Help text for --skin-format, the tools' shared wording. */
#define CLI_SKIN_FORMAT_HELP                                                                 \
    "  --skin-format F      skinned vertices the GPU draws: packed (default; float3\n"      \
    "                       position, 10:10:10:2 normal and tangent, 20 bytes) or\n"       \
    "                       float4 (the mesh's layout, 48 bytes)\n"

/* Progress on stderr: a rewritten line on a terminal, else a line every 10%. */
typedef struct cli_progress {
    const char *what;
    long total;
    int last_tenth;
    bool tty;
    uint64_t start_ns;
} cli_progress;
void cli_progress_begin(cli_progress *p, const char *what, long total);
void cli_progress_step(cli_progress *p, long done);
void cli_progress_end(cli_progress *p);

/* The command the tool runs (main sets it): the option parsers' and
 * cli_alloc's messages start "ossa CMD: " as cli_error's do. */
void cli_set_command(const char *name);

/* "ossa CMD: message" on stderr. */
void cli_error(const char *command, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* path made absolute (symbolic links resolved) into to, for messages that
 * say where a file went; path itself when it cannot be resolved. */
const char *cli_absolute_path(const char *path, char *to, size_t bytes);

/* Memory that must be aligned (SIMD, blobs); exits with a message on failure. */
void *cli_alloc(size_t bytes);
void cli_free(void *p);

#endif /* OSSA_CLI_H */
