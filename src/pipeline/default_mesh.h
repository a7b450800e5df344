/* default_mesh.h - the default character's skinned mesh (pipeline-internal). */
#ifndef OSSA_DEFAULT_MESH_H
#define OSSA_DEFAULT_MESH_H

#include "ossa/mesh_builder.h"

/* Generates the ~5,000-triangle body over the default 96-joint skeleton and
 * builds it (positions, normals, tangents, uvs; weights from the distance to
 * nearby bones). report may be NULL. */
ossa_result ossai_default_mesh_build(const ossa_skeleton *skeleton,
                                     const ossa_allocator *allocator, ossa_mesh **out,
                                     ossa_mesh_build_report *report, ossa_error *error);

#endif /* OSSA_DEFAULT_MESH_H */
