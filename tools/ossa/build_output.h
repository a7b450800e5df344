/* build_output.h - where `ossa build` puts its blob (build_output.c). */
#ifndef OSSA_BUILD_OUTPUT_H
#define OSSA_BUILD_OUTPUT_H

#include "ossa/pipeline.h"

/* Before any import: 0 when output can be written ("-": stdout is not a
 * terminal; a path: ossa_blob_output_check), else 1 after saying why. */
int build_output_check(const char *output);

/* Writes the blob to output: a file (atomically), or stdout for "-". */
ossa_result build_output_write(const char *output, const ossa_blob_contents *contents,
                               ossa_error *error);

/* The summary goes to stdout, or to stderr when stdout carries the blob:
 * begin returns what end needs to restore stdout (-1: nothing). */
int build_output_report_begin(const char *output);
void build_output_report_end(int saved);

#endif /* OSSA_BUILD_OUTPUT_H */
