/* build_output.c - where `ossa build` puts its blob: a file (checked before
 * any import, replaced only when regular) or standard output for "-". */
#define _POSIX_C_SOURCE 200809L
#include "build_output.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* The blob to output: a file, or standard output for "-". */
ossa_result build_output_write(const char *output, const ossa_blob_contents *contents,
                               ossa_error *error)
{
    if (strcmp(output, "-") != 0)
        return ossa_blob_write_file(output, contents, error);
    void *data = NULL;
    size_t bytes = 0;
    ossa_result r = ossa_blob_write_memory(contents, NULL, &data, &bytes, error);
    if (r == OSSA_OK && (fwrite(data, 1, bytes, stdout) != bytes || fflush(stdout) != 0))
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "standard output: write failed");
    ossa_free(NULL, data);
    return r;
}

/* The summary goes to stdout, or to stderr when stdout carries the blob:
 * begin returns the descriptor to give back to end. */
int build_output_report_begin(const char *output)
{
    if (strcmp(output, "-") != 0)
        return -1;
    fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    if (saved >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
        close(saved);
        return -1;
    }
    return saved;
}

void build_output_report_end(int saved)
{
    if (saved < 0)
        return;
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
}

/* The output is checked before the imports, which may take long: a path
 * that is not a regular file or cannot be written is refused at once. */
int build_output_check(const char *output)
{
    if (strcmp(output, "-") == 0) {
        if (isatty(STDOUT_FILENO)) {
            cli_error("build", "-o -: standard output is a terminal; redirect it to a file "
                               "or a pipe");
            return 1;
        }
        return 0;
    }
    ossa_error error;
    if (ossa_blob_output_check(output, &error) != OSSA_OK) {
        cli_error("build", "%s", error.message);
        return 1;
    }
    return 0;
}
