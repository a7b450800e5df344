/* import_preflight.h - the checks a file passes before assimp reads it:
 * glTF (import_gltf_check.c), FBX (import_fbx_check.c) and Collada
 * (import_dae_check.c). Each runs in time linear in the file's size and
 * refuses, with a message naming the file and the place, what is known to
 * crash assimp 5.2, to make it recurse deeper than OSSA_IMPORT_MAX_DEPTH,
 * or to make it allocate more than the file's data can fill. */
#ifndef OSSA_IMPORT_PREFLIGHT_H
#define OSSA_IMPORT_PREFLIGHT_H

#include <stddef.h>

#include "import_internal.h"

struct ossai_fbx_visitor;
/* data: the whole file (bytes long); memory comes from im. visitor (may be
 * NULL) sees every record of a binary file (import_fbx.h). */
ossa_result ossai_fbx_preflight(ossa_import *im, const char *path, const unsigned char *data,
                                size_t bytes, const struct ossai_fbx_visitor *visitor,
                                ossa_error *error);
/* Also collects the names of the file's <animation_clip> elements (their
 * name, else their id) into *info; visitor (may be NULL) sees every
 * element (import_dae.h). */
struct ossai_dae_visitor;
ossa_result ossai_dae_preflight(ossa_import *im, const char *path, const unsigned char *data,
                                size_t bytes, ossai_dae_info *info,
                                const struct ossai_dae_visitor *visitor, ossa_error *error);

#endif /* OSSA_IMPORT_PREFLIGHT_H */
