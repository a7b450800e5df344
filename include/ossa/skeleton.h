/* ossa/skeleton.h - the runtime skeleton: a read-only view of blob memory.
 *
 * Joints are numbered so that every parent comes before its children
 * (depth-first by default, breadth-first as a build option):
 * parents[i] < i, or OSSA_NO_PARENT for a root. Several roots are allowed.
 * The hot arrays (parents, rest pose) are apart from the cold ones (names).
 * A skeleton is built by the pipeline (ossa/skeleton_builder.h) or found in a
 * validated blob (ossa/blob.h); every accessor assumes a valid skeleton.
 * Thread safety: read-only, any number of threads. */
#ifndef OSSA_SKELETON_H
#define OSSA_SKELETON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* parents[i] of a root joint. */
#define OSSA_NO_PARENT 0xFFFFu
/* Most joints a skeleton can hold (parent indices are uint16_t). */
#define OSSA_MAX_JOINTS 65535

typedef struct ossa_skeleton ossa_skeleton;

/* Number of joints, >= 1. */
int ossa_skeleton_joint_count(const ossa_skeleton *skeleton);
/* parents[joint_count]: parents[i] < i, or OSSA_NO_PARENT. */
const uint16_t *ossa_skeleton_parents(const ossa_skeleton *skeleton);
/* The rest (bind-time) local transform of every joint, 16-byte aligned. */
const ossa_transform *ossa_skeleton_rest_pose(const ossa_skeleton *skeleton);
/* The joint's name (UTF-8, NUL-terminated), or NULL when joint is out of range. */
const char *ossa_skeleton_joint_name(const ossa_skeleton *skeleton, int joint);
/* Index of the joint with this name, or -1. Linear in the joint count. */
int ossa_skeleton_find_joint(const ossa_skeleton *skeleton, const char *name);
/* True when the joints are numbered breadth-first, false for depth-first. */
bool ossa_skeleton_is_breadth_first(const ossa_skeleton *skeleton);
/* Depth of the deepest joint; a root has depth 0. */
int ossa_skeleton_max_depth(const ossa_skeleton *skeleton);
/* Size in bytes of the skeleton's data (as stored in a blob). */
size_t ossa_skeleton_bytes(const ossa_skeleton *skeleton);
/* Length of one model unit in metres as the source declared it (after any
 * scale the build applied): 0.01 for centimetres; 0 when unknown. */
float ossa_skeleton_metres_per_unit(const ossa_skeleton *skeleton);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SKELETON_H */
