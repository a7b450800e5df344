/* import_child.h - `ossa build`'s first reading of each input: the import
 * runs in a child process under a wall-clock and an address-space limit, so
 * that an importer (assimp) crash, hang or runaway allocation becomes an
 * error message instead of taking the tool, or the machine, down. */
#ifndef OSSA_IMPORT_CHILD_H
#define OSSA_IMPORT_CHILD_H

#include <stdbool.h>

#include "ossa/importer.h"

/* Defaults of --import-timeout and --import-memory (docs/importing.md). */
#define IMPORT_CHILD_DEFAULT_TIMEOUT_S 120.0
#define IMPORT_CHILD_DEFAULT_MEMORY_MIB 4096.0

typedef struct import_limits {
    float timeout_s;  /* wall clock for one file's import; 0: the default */
    float memory_mib; /* address space of the child; 0: the default */
} import_limits;

/* Imports path in a child process under the limits. True when the import
 * succeeded there; otherwise prints why ("ossa build: FILE: ...": the
 * importer's own error, the time or memory limit, or a crash) and returns
 * false. Importing is deterministic: a file the child read within the
 * limits is then read in this process. */
bool import_child_check(const char *path, const ossa_import_options *options,
                        const import_limits *limits);

#endif /* OSSA_IMPORT_CHILD_H */
