/* ossa/skeleton_builder.h - a raw joint list -> runtime skeleton (pipeline).
 *
 * Raw joints come in any order with a parent index (or -1 for a root). The
 * builder numbers them depth-first (children in raw order) or breadth-first,
 * so that every parent precedes its children, and lays out hot arrays
 * (parents, rest pose) apart from cold ones (names). */
#ifndef OSSA_SKELETON_BUILDER_H
#define OSSA_SKELETON_BUILDER_H

#include <stdbool.h>

#include "allocator.h"
#include "math.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_raw_joint {
    const char *name;    /* required, unique, UTF-8 */
    int parent;          /* index in the raw array, -1 for a root */
    ossa_transform rest; /* rest local transform relative to the parent */
} ossa_raw_joint;

typedef struct ossa_raw_skeleton {
    const ossa_raw_joint *joints;
    int joint_count;
} ossa_raw_skeleton;

typedef struct ossa_skeleton_build_options {
    bool breadth_first;        /* default false: depth-first numbering */
    ossa_allocator allocator;  /* default: aligned_alloc/free */
    /* Recorded in the skeleton (ossa_skeleton_metres_per_unit): the length
     * of one unit in metres. Default 0: unknown. Finite, >= 0. */
    float metres_per_unit;
} ossa_skeleton_build_options;

/* Builds *out (one allocation, freed with ossa_skeleton_free). raw_to_joint,
 * when not NULL, receives for every raw joint its runtime index
 * (raw.joint_count elements). Errors name the joint: an empty skeleton, more
 * than OSSA_MAX_JOINTS joints, an unknown parent, a cycle, a missing or
 * duplicate name, a non-finite rest transform. options may be NULL. */
ossa_result ossa_skeleton_build(const ossa_raw_skeleton *raw,
                                const ossa_skeleton_build_options *options, ossa_skeleton **out,
                                int *raw_to_joint, ossa_error *error);

void ossa_skeleton_free(ossa_skeleton *skeleton, const ossa_allocator *allocator);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_SKELETON_BUILDER_H */
