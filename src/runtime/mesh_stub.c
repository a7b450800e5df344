/* mesh_stub.c - mesh sections before the mesh module exists: rejected. */
#include "format.h"

ossa_result ossai_mesh_validate_section(const void *data, size_t bytes,
                                        const ossa_skeleton *skeleton, ossa_error *error);

ossa_result ossai_mesh_validate_section(const void *data, size_t bytes,
                                        const ossa_skeleton *skeleton, ossa_error *error)
{
    (void)data;
    (void)bytes;
    (void)skeleton;
    return ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, 0,
                          "mesh: this build of ossa cannot read mesh sections yet");
}
