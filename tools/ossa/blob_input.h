/* blob_input.h - what `ossa info` and `ossa dump` share: the blob named on
 * the command line, loaded and validated, and the start of a joint's JSON
 * object. */
#ifndef OSSA_BLOB_INPUT_H
#define OSSA_BLOB_INPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "ossa/blob.h"

/* Reads and opens path with the runtime's loader (ossa_blob_file_read); on
 * failure says why ("ossa COMMAND: message (CODE)") and returns false. Free
 * *data with blob_input_free. */
bool blob_input_load(const char *command, const char *path, ossa_blob *blob, void **data);
void blob_input_free(void *data);

/* `{"name": NAME, "parent": PARENT` (null for a root), the object left open
 * for the caller's own members. */
void blob_input_json_joint(FILE *to, const ossa_skeleton *skeleton, int joint);

#endif /* OSSA_BLOB_INPUT_H */
