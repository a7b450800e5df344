/* skinning_crowd.h - the skinning benchmark's data: N characters sharing one
 * skinned mesh, each with its own palette computed by the real runtime
 * stages (sample -> local->model -> palette) before anything is timed, and
 * every step of seed 002's ladder run over all of them, the characters split
 * across threads (OpenMP). A character is always skinned whole by one thread
 * with the same code, so the output does not depend on the thread count. */
#ifndef OSSA_SKINNING_CROWD_H
#define OSSA_SKINNING_CROWD_H

#include <stdbool.h>
#include <stddef.h>

#include "naive_skinning.h"
#include "ossa/ossa.h"

typedef enum skin_step {
    SKIN_NAIVE,        /* (a) AoS, 4 influences, 4x4, uv copied */
    SKIN_SPLIT,        /* (b) split streams */
    SKIN_FLOAT4,       /* (c) float4, aligned SIMD */
    SKIN_SORTED,       /* (d) influence-sorted loops */
    SKIN_LIBRARY,      /* (e) ossa_skinning_job, position + normal (the seed's work),
                        * streaming stores: the library's best */
    SKIN_LIBRARY_FULL, /* ossa_skinning_job on the mesh as built (with its tangents) */
    SKIN_LIBRARY_STREAM, /* the same with streaming stores (stream_output) */
    SKIN_PACKED,       /* the mesh as built into packed vertices, no plan */
    SKIN_PACKED_PLAN,  /* the same from the mesh's skin plan */
    SKIN_PACKED_STREAM, /* the same with streaming stores: the library's best */
    SKIN_STEP_COUNT
} skin_step;

/* Steps that write with streaming stores (into their own buffers). */
static inline bool skin_step_streams(skin_step step)
{
    return step == SKIN_LIBRARY || step == SKIN_LIBRARY_STREAM || step == SKIN_PACKED_STREAM;
}

/* Steps that write packed vertices. */
static inline bool skin_step_packed(skin_step step)
{
    return step == SKIN_PACKED || step == SKIN_PACKED_PLAN || step == SKIN_PACKED_STREAM;
}

typedef struct skin_crowd {
    int characters, vertices, skin_joints;
    const ossa_mesh *mesh;  /* as given; may have tangents */
    ossa_mesh *mesh_pn;     /* the same mesh without tangents (owned) */
    naive_mesh naive;       /* (a)-(d)'s copies of it */
    ossa_mat34 *palettes;   /* characters x skin_joints */
    naive_mat4 *palettes4;  /* the same, 4x4 */
    unsigned char *outputs; /* characters x output_stride bytes, 64-aligned */
    /* The streaming steps' own outputs, the same size: a program writes its
     * buffer one way, and streaming stores over lines another variant left
     * dirty in the cache would pay for that variant's writes. */
    unsigned char *stream_outputs;
    size_t output_stride;
    /* Packed vertices, characters packed_stride apart (each on a cache
     * line), ordinary and streaming stores apart for the same reason. */
    unsigned char *packed_outputs, *packed_stream_outputs;
    size_t packed_stride;
    void *plan_memory;
    const ossa_skin_plan *plan; /* the mesh's (as given) */
    const unsigned char *last; /* the output of the last step run */
    size_t last_stride;
} skin_crowd;

/* Character i plays clips[i % clip_count] from its own time. Returns false
 * with a message in err when the data cannot be set up. */
bool skin_crowd_init(skin_crowd *c, const ossa_skeleton *skeleton, const ossa_clip *const *clips,
                     int clip_count, const ossa_mesh *mesh, int characters, char *err,
                     size_t err_bytes);
void skin_crowd_fini(skin_crowd *c);

/* One frame of a step for every character, on `threads` threads (at least
 * 1). path chooses the library's kernel for the library steps. */
void skin_crowd_run(skin_crowd *c, skin_step step, ossa_simd_path path, int threads);
/* Character i's output of the last run, and its size for a step. */
const void *skin_crowd_output(const skin_crowd *c, int character);
size_t skin_crowd_output_bytes(const skin_crowd *c, skin_step step);
/* Where a step writes: the buffer and the bytes between characters. */
unsigned char *skin_crowd_buffer(const skin_crowd *c, skin_step step);
size_t skin_crowd_stride(const skin_crowd *c, skin_step step);

/* The mesh rebuilt without tangents (same vertices, weights and order). */
ossa_mesh *skin_mesh_without_tangents(const ossa_mesh *mesh, const ossa_skeleton *skeleton);

/* A stand-in with the shape of ozz's arnaud skinning work: 3934 vertices with
 * positions, normals and tangents (borrowed from `like`, whose skeleton is
 * like_skeleton), 53 skin joints, and arnaud's influence mix as assimp reads
 * it (36.5% one, 39.6% two, 18.0% three, 5.9% four after reduction); random
 * weights. Bound to `skeleton`: when it is like_skeleton (or NULL), the skin
 * joints are the first 53 of like's with its inverse binds; otherwise the
 * skeleton's first 53 joints (all, when it has fewer) with the inverse of
 * their rest-pose model matrices. */
ossa_mesh *skin_synthetic_arnaud(const ossa_mesh *like, const ossa_skeleton *like_skeleton,
                                 const ossa_skeleton *skeleton);

#endif /* OSSA_SKINNING_CROWD_H */
