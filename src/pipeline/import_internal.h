/* import_internal.h - what the importer's files share: the import's memory,
 * the node table built from assimp's scene, per-node animation curves, and
 * the double-precision transform helpers. Only src/pipeline/import_*.c
 * include it (and only they include assimp). */
#ifndef OSSA_IMPORT_INTERNAL_H
#define OSSA_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ossa/importer.h"

struct aiScene;
struct aiNode;

/* ---- memory: every block hangs off the import and dies with it ---- */

/* Zeroed, 16-byte aligned; NULL when out of memory (or bytes overflowed). */
void *ossai_import_alloc(ossa_import *im, size_t count, size_t elem_bytes);
char *ossai_import_strdup(ossa_import *im, const char *s);
/* Room for one more element in a scratch array of `count` used of
 * *capacity (malloc'd, the caller frees it): doubled, from 32, when full.
 * False when out of memory (the array is left as it was). */
bool ossai_import_grow(void **array, int *capacity, int count, size_t element);
/* Appends a warning (printf-style). Returns false when out of memory. */
bool ossai_import_warn(ossa_import *im, const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ossai_import_release(ossa_import *im);

/* ---- double-precision affine transforms (row-major 3x4) ---- */

typedef struct ossai_dmat {
    double m[3][4];
} ossai_dmat;

ossai_dmat ossai_dmat_identity(void);
ossai_dmat ossai_dmat_mul(const ossai_dmat *a, const ossai_dmat *b);
ossai_dmat ossai_dmat_from_trs(ossa_float3 t, ossa_quat r, ossa_float3 s);
bool ossai_dmat_is_identity(const ossai_dmat *m, double tolerance);
bool ossai_dmat_is_finite(const ossai_dmat *m);
/* Splits m into translation, rotation and scale (a negative determinant
 * flips the x scale). Returns the shear the split could not represent: the
 * largest deviation from orthogonality of the normalised axes. */
double ossai_dmat_decompose(const ossai_dmat *m, ossa_transform *out);
/* The same in double: translation[3], rotation[4] (x, y, z, w), scale[3]. */
double ossai_dmat_decompose_d(const ossai_dmat *m, double translation[3], double rotation[4],
                              double scale[3]);
/* The 3x4 part of an assimp matrix, in double. */
ossai_dmat ossai_dmat_from_ai(const void *ai_matrix4x4);
ossa_mat34 ossai_dmat_to_mat34(const ossai_dmat *m);

/* ---- the node table: assimp's hierarchy, flattened depth-first ---- */

#define OSSAI_FBX_HELPER_TAG "_$AssimpFbx$_"

typedef struct ossai_node {
    const struct aiNode *ai;
    const char *name;   /* assimp's name (points into the scene) */
    int parent;         /* table index, -1 for the scene root */
    int owner;          /* FBX helper: the node it belongs to, else -1 */
    bool is_helper;     /* an FBX pivot helper folded into `owner` */
    bool is_camera;     /* a camera or light (never a joint by itself) */
    bool is_null;       /* an FBX null (assimp's "IsNull" metadata) */
    bool display_bone;  /* a bone of assimp's bone-display mesh only */
    bool has_mesh;
    bool is_bone;       /* some skinned mesh binds it */
    bool animated;      /* a clip changes its transform (or its helpers') */
    bool selected;      /* becomes a joint */
    int joint;          /* raw joint index, or -1 */
    ossai_dmat local;   /* the node's own transform, source units */
} ossai_node;

/* One curve set of one node in one clip, before it becomes a joint track:
 * times in seconds, values in source units. */
typedef struct ossai_node_track {
    int node;
    ossa_raw_track3 translation;
    ossa_raw_track_quat rotation;
    ossa_raw_track3 scale;
} ossai_node_track;

typedef struct ossai_node_clip {
    const char *name;
    float duration_s;
    ossai_node_track *tracks;
    int track_count;
    /* animated scalar channels read from the file itself (glTF morph
     * weights); import_float_tracks.c adds the
     * channels of the nodes options.track_nodes names */
    ossa_raw_float_track *float_tracks;
    int float_track_count;
} ossai_node_clip;

/* What the Collada preflight learns for the import: the file's own clip
 * names (assimp 5.2 names a Collada animation after its first channel). */
typedef struct ossai_dae_info {
    const char **clip_names;
    int clip_name_count;
} ossai_dae_info;

/* Float tracks a file reader found where assimp does not look (FBX
 * animated properties, Collada animated custom values), each for the clip
 * named `clip` (NULL: the file's only clip). */
typedef struct ossai_file_track {
    const char *clip;
    ossa_raw_float_track track;
} ossai_file_track;

typedef struct ossai_file_tracks {
    ossai_file_track *tracks;
    int count;
} ossai_file_tracks;

/* The state of one import, passed between the import_*.c files. */
typedef struct ossai_scene {
    ossa_import *im;
    const struct aiScene *ai;
    const char *path;
    double scale;
    bool no_tangents;
    bool all_nodes; /* ossa_import_options.all_nodes */
    bool no_meshes; /* ossa_import_options.no_meshes */
    ossai_dae_info dae; /* Collada only */
    const ossai_file_tracks *file_tracks; /* FBX properties, Collada custom values */
    ossai_node *nodes;
    int node_count;
    int *node_order; /* node indices sorted by (name, index) */
    ossai_node_clip *clips;
    int clip_count;
    ossa_error *error;
} ossai_scene;

/* import_nodes.c: flattens the hierarchy, recognises FBX helpers, cameras,
 * lights and meshes. */
ossa_result ossai_nodes_build(ossai_scene *sc);
/* Whether mesh `mesh` is assimp's bone-display mesh (its SkeletonMeshBuilder
 * gives a file with no mesh - a BVH, an animation-only Collada file - one
 * skinned to every node, the root included): not the file's, so left out
 * everywhere. */
bool ossai_mesh_is_display(const struct aiScene *scene, unsigned mesh);
/* Table index of the node with this name, or -1 (first match). */
int ossai_node_find(const ossai_scene *sc, const char *name);

/* import_units.c: the unit the file declares (im->source_metres_per_unit,
 * metres_per_unit, scale); for Collada, takes the unit assimp applied off
 * the root node's transform, so lengths stay in the file's unit. */
ossa_result ossai_units_decide(ossai_scene *sc);

/* import_clips.c: assimp's animations -> node clips (every format but glTF). */
ossa_result ossai_clips_from_assimp(ossai_scene *sc);
/* import_gltf_anim.c: glTF animations read from the file itself, because
 * assimp 5.2 drops STEP / CUBICSPLINE (and the tangents). */
ossa_result ossai_clips_from_gltf(ossai_scene *sc);
/* Whether a node curve changes over time (more than one distinct value). */
bool ossai_node_track_varies(const ossai_node_track *t);

/* import_skeleton.c: marks bones, animated nodes and their ancestors,
 * then writes the raw joints (helpers folded). */
ossa_result ossai_skeleton_select(ossai_scene *sc);
/* The node's transform relative to its nearest selected ancestor (or the
 * scene root): the product of every node in between, helpers included. */
ossai_dmat ossai_node_joint_local(const ossai_scene *sc, int node);

/* import_tracks.c: node clips -> raw clips named by joint, helper curves
 * folded into their joint, lengths scaled. */
ossa_result ossai_clips_finish(ossai_scene *sc);
/* import_fold.c: the curves of a joint's FBX helpers (and its own) folded
 * into one track of the joint. False when out of memory. */
bool ossai_fold_chain(ossai_scene *sc, const ossai_node_clip *clip, int joint_node,
                      ossa_raw_joint_track *out);

/* import_float_tracks.c: each clip's float tracks for ossa_import (the
 * file's own scalar channels, then the named nodes' channels); an unknown
 * node name is OSSA_ERR_NOT_FOUND naming it. */
ossa_result ossai_float_tracks_finish(ossai_scene *sc, const ossa_import_options *options);
/* import_float_tracks.c: room for one more float track of a clip (zeroed),
 * or NULL when out of memory. */
ossa_raw_float_track *ossai_float_track_add(ossai_scene *sc, ossai_node_clip *clip);
/* import_fbx_curves.c: `count` numbers written in text[0, size),
 * separated by blanks or commas, into out; false with *bad the index of
 * the first that is missing or not a number. */
bool ossai_text_numbers(const char *text, size_t size, double *out, uint64_t count,
                        uint64_t *bad);
/* import_float_tracks.c: sc->file_tracks added to the clips they name. */
ossa_result ossai_file_tracks_attach(ossai_scene *sc);
/* import_gltf_anim.c: a glTF morph weights channel -> float tracks of the
 * clip, "<node>.weights[i]", one per morph target. */
bool ossai_gltf_weight_tracks(ossai_scene *sc, ossai_node_clip *clip, const char *node,
                              ossa_interpolation interpolation, const float *times,
                              int key_count, const float *values, const float *in_tangents,
                              const float *out_tangents, int targets);

/* import_mesh.c: assimp meshes -> raw meshes. file_tangents[m]: whether
 * mesh m had tangents before assimp's tangent step ran. */
ossa_result ossai_meshes_extract(ossai_scene *sc, const bool *file_tangents);

#endif /* OSSA_IMPORT_INTERNAL_H */
