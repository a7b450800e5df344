/* naive_hierarchy.h - seed 001's "before" version: the joint hierarchy as a
 * competent object-oriented programmer writes it. Every joint is its own heap
 * object holding its local and global 4x4 poses and a growable array of
 * pointers to its children; LocalToGlobalPose is a recursive walk from the
 * roots. Benchmark baseline only: it never goes into the library.
 *
 * A skeleton is built one joint at a time, the way a game builds a character
 * from its description; building several interleaved scatters their joints
 * through the heap as characters spawned over time do. */
#ifndef OSSA_BENCH_NAIVE_HIERARCHY_H
#define OSSA_BENCH_NAIVE_HIERARCHY_H

#include <stdbool.h>

#include "hierarchy_mat4.h"

typedef struct naive_joint naive_joint;

/* A growable array of joint pointers whose capacity doubles (std::vector). */
typedef struct naive_joint_list {
    naive_joint **items;
    int count;
    int capacity;
} naive_joint_list;

struct naive_joint {
    bench_mat4 global_pose;
    bench_mat4 local_pose;
    naive_joint_list children;
};

typedef struct naive_skeleton {
    naive_joint_list joints; /* every joint, in the order they were added */
    naive_joint_list roots;  /* the joints without a parent */
} naive_skeleton;

/* An empty skeleton (a zeroed struct is one too). */
void naive_skeleton_init(naive_skeleton *skeleton);
/* Allocates a joint with identity poses and adds it as the last child of
 * joints.items[parent], or as a root when parent < 0. Returns the new joint,
 * or NULL when out of memory or when parent is not an existing joint. */
naive_joint *naive_skeleton_add_joint(naive_skeleton *skeleton, int parent);
/* global_pose = parent's global_pose * local_pose for every joint, recursively
 * from the roots (whose parent transform is the identity). */
void naive_skeleton_local_to_global(naive_skeleton *skeleton);
/* Frees every joint and the lists; leaves an empty skeleton. */
void naive_skeleton_free(naive_skeleton *skeleton);

#endif /* OSSA_BENCH_NAIVE_HIERARCHY_H */
