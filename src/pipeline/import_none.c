/* import_none.c - ossa_import_file in a pipeline built without the importer
 * (OSSA_BUILD_IMPORTER=OFF: no assimp, no cJSON): every file is refused with
 * a message that says why, so `ossa build FILE` fails cleanly and the
 * builders, the blob writer and the default character still work. */
#include <string.h>

#include "ossa/importer.h"

ossa_result ossa_import_file(const char *path, const ossa_import_options *options,
                             ossa_import *out, ossa_error *error)
{
    (void)options;
    ossa_error scratch;
    if (!error)
        error = &scratch;
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "import: no output");
    memset(out, 0, sizeof *out);
    return ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, -1,
                          "%s: this ossa was built without the importer "
                          "(OSSA_BUILD_IMPORTER=OFF): it reads .ossa blobs, not FBX, glTF or "
                          "Collada",
                          path ? path : "(no file)");
}
