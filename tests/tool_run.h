/* tool_run.h - for the tests that run the ossa tool as a user does: a
 * command run in a directory of its choosing with a changed environment, its
 * exit status and what it printed. */
#ifndef OSSA_TOOL_RUN_H
#define OSSA_TOOL_RUN_H

#include <stdint.h>

typedef struct ts_run_result {
    int status; /* exit code, or 128 + signal */
    char out[16384], err[16384];
} ts_run_result;

/* Runs argv (argv[0] a path) in directory cwd (NULL: ours), with our
 * environment minus the `unset` names plus `set` ("NAME=value" strings);
 * set and unset are NULL-terminated lists or NULL. */
void ts_run(const char *const *argv, const char *const *set, const char *const *unset,
            const char *cwd, ts_run_result *r);

/* Lines in text (newline characters). */
int ts_lines(const char *text);

/* Monotonic time in nanoseconds. */
uint64_t ts_now_ns(void);

/* Entries in directory dir (not . and ..); -1 when it cannot be read. */
int ts_files_in(const char *dir);

#endif /* OSSA_TOOL_RUN_H */
