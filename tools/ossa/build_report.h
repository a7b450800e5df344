/* build_report.h - what `ossa build` prints once the blob is written:
 * skeleton, clips with their resampling error, how each clip's tracks
 * matched the skeleton's joints, meshes with what the mesh builder changed,
 * and warnings. */
#ifndef OSSA_BUILD_REPORT_H
#define OSSA_BUILD_REPORT_H

#include <stdbool.h>

#include "ossa/pipeline.h"

/* One clip of a build: where it comes from and what the builder made. */
typedef struct build_clip {
    const ossa_import *source;
    const ossa_raw_clip *raw;
    ossa_clip *clip;
    ossa_clip_build_report report;
} build_clip;

/* One mesh of a build: where it comes from and what the builder made. */
typedef struct build_mesh {
    const ossa_import *source;
    const ossa_raw_mesh *raw;
    ossa_mesh *mesh;
    ossa_mesh_build_report report;
} build_mesh;

/* "wrote F (N bytes)" and the skeleton; base (the input that gave the
 * skeleton) may be NULL. */
void build_report_written(const char *path, const ossa_skeleton *skeleton,
                          const ossa_import *base);
void build_report_clips_header(void);
/* One row of the clip table; skeleton and report may be NULL. */
void build_report_clip(const ossa_clip *clip, const char *source, const ossa_skeleton *skeleton,
                       const ossa_clip_build_report *report);
/* Joints the clip does not animate and tracks that name no joint: counts,
 * and the names when list_names (clips combined from another file). */
void build_report_joint_match(const ossa_skeleton *skeleton, const build_clip *clip,
                              bool list_names);
void build_report_meshes_header(void);
/* One row of the mesh table (vertices, triangles, skin joints, influence
 * histogram, tangents, bytes), then a line for each change the builder made
 * (influences reduced to 4 with the largest weight dropped, weights
 * renormalised, zero weights dropped, duplicates merged). source and report
 * may be NULL. */
void build_report_mesh(const ossa_mesh *mesh, const char *source,
                       const ossa_mesh_build_report *report);
void build_report_warnings(const ossa_import *imports, int count);

#endif /* OSSA_BUILD_REPORT_H */
