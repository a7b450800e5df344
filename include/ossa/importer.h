/* ossa/importer.h - DCC files -> raw skeleton, clips and meshes (pipeline).
 *
 * Reads glTF 2.0, FBX, Collada and the other formats assimp knows, and turns
 * what they hold into the raw inputs of the builders (skeleton_builder.h,
 * clip_builder.h, mesh_builder.h):
 * - joints are the skins' bones, their ancestors and the nodes an animation
 *   moves; meshes, cameras, lights and FBX pivot helpers ("$AssimpFbx$"
 *   nodes) are not joints: the helpers' transforms are folded into the
 *   joint they belong to;
 * - clips keep their source keys, interpolation (STEP, LINEAR, CUBICSPLINE
 *   with tangents for glTF) and duration;
 * - meshes keep their vertices in source order (see ossa_import.meshes below).
 * Lengths are multiplied by options.scale; units are reported.
 * Everything ossa keeps is allocated through options.allocator; assimp and
 * the JSON reader allocate their own temporary memory.
 * Thread safety: imports of different files may run on different threads. */
#ifndef OSSA_IMPORTER_H
#define OSSA_IMPORTER_H

#include <stdbool.h>

#include "allocator.h"
#include "clip_builder.h"
#include "mesh_builder.h"
#include "result.h"
#include "skeleton_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The deepest node the importer accepts, in levels below its root (a root
 * is level 0): well above any real rig, and low enough that assimp, which
 * walks hierarchies recursively, stays within a thread's stack. A deeper
 * file is refused with an error naming the node. */
#define OSSA_IMPORT_MAX_DEPTH 1024

/* The source formats the importer distinguishes (all others are OTHER). */
typedef enum ossa_source_format {
    OSSA_SOURCE_UNKNOWN = 0,
    OSSA_SOURCE_GLTF, /* .gltf, .glb */
    OSSA_SOURCE_FBX,
    OSSA_SOURCE_COLLADA,
    OSSA_SOURCE_OTHER,
    OSSA_SOURCE_COUNT
} ossa_source_format;

typedef struct ossa_import_options {
    /* Multiplies every length (joint translations, translation keys, vertex
     * positions, inverse bind translations). 0 means 1. Must be finite. */
    float scale;
    /* Tangents: taken from the file, else computed from uvs and normals
     * (assimp's tangent-space step). true leaves them out. */
    bool no_tangents;
    /* Skip meshes entirely (animation-only inputs); skipped_meshes counts
     * them. */
    bool no_meshes;
    /* Joints are normally the skins' bones, the nodes a clip moves and their
     * ancestors. true also makes every plain node below a joint a joint
     * (end-of-chain "Nub" nodes, attachment sockets): the skeleton other tools,
     * ozz-animation among them, build from the same file. */
    bool all_nodes;
    ossa_allocator allocator; /* default aligned_alloc/free */
    /* Nodes (joints or not) whose animated channels also become float
     * tracks of every clip that moves them, by name: "<node>.translation.x",
     * ".rotation.w", ".scale.z"... one per component that changes over the
     * clip (lengths scaled). A name "<object>.<property>" (or one channel of
     * it, "<object>.<property>.x") also imports that animated FBX property
     * when it is a built-in one (a camera's "Roll"), and "<owner>.<sid>" a
     * Collada animated number outside <extra> (a camera's "xfov"); user
     * properties and <extra> values come without being named. A name the file's clips do not animate gives no
     * track (several files may share these options; ossa build refuses a
     * name no input animates). */
    const char *const *track_nodes;
    int track_node_count;
} ossa_import_options;

/* What one imported file holds. Every pointer stays valid until
 * ossa_import_free. Strings are UTF-8. */
typedef struct ossa_import {
    const char *path;          /* as given to ossa_import_file */
    ossa_source_format format;
    const char *format_name;   /* e.g. "glTF 2.0", "FBX" */
    /* Length of one unit in metres as the file declares it (FBX
     * UnitScaleFactor, glTF: 1, Collada <unit meter>, 1 when absent), before
     * options.scale; 0 when unknown. Lengths are imported in this unit. */
    float source_metres_per_unit;
    /* The same for the imported data: source_metres_per_unit / scale. */
    float metres_per_unit;
    float scale;               /* the scale applied */

    /* joint_count 0: the file has no skin and no animated node. Joints are
     * in file (depth-first) order, parents before children. */
    ossa_raw_skeleton skeleton;
    /* Every clip of the file. A track names a joint (or, for nodes that are
     * not joints - a camera, a helper - the node); times are in seconds
     * from the clip's start. */
    const ossa_raw_clip *clips;
    int clip_count;
    /* Per clip (clip_count entries): its animated scalar channels as float
     * tracks (ossa_clip_build_options.float_tracks) - glTF morph target
     * weights ("<node>.weights[i]") and the channels of
     * options.track_nodes, an FBX file's animated user properties
     * ("<object>.<property>") and a Collada file's animated numbers inside
     * <extra> elements ("<owner>.<sid>"); docs/locomotion.md. */
    const ossa_raw_float_tracks *clip_float_tracks;
    /* Skinned meshes, and rigid meshes attached to a joint (one skin joint,
     * weight 1). Vertices are in source order: a file's own order for
     * indexed formats (glTF); for files assimp reads one vertex per face
     * corner (FBX), identical corners are merged and numbered in order of
     * first appearance. */
    const ossa_raw_mesh *meshes;
    int mesh_count;

    /* What the import did, for reports. */
    int folded_helpers;       /* FBX pivot helper nodes folded into joints */
    int computed_tangents;    /* meshes whose tangents were computed */
    int skipped_faces;        /* points and lines (not triangles) left out */
    int skipped_meshes;       /* meshes not read because of options.no_meshes */
    /* Recoverable oddities, one line each ("mesh 'x' has no uvs: ..."). */
    const char *const *warnings;
    int warning_count;

    /* Private: the memory behind all of the above. */
    ossa_allocator allocator_;
    void *blocks_;
} ossa_import;

/* Imports path into *out (zeroed first). On failure returns the code, frees
 * everything, and fills *error with one line naming the file and the
 * problem: a file that is missing or unreadable (OSSA_ERR_IO), a format no
 * importer reads or a broken file (OSSA_ERR_IMPORT), a skin bone that is not
 * a node (OSSA_ERR_NOT_FOUND), data ossa cannot represent
 * (OSSA_ERR_UNSUPPORTED), non-finite values (OSSA_ERR_BAD_VALUE), memory.
 * A file with no skeleton is not an error here: skeleton.joint_count is 0.
 * options may be NULL.
 * Hostile files: glTF / GLB, FBX and Collada files are checked by ossa's own
 * preflight (linear in the file's size) before assimp reads them; what it
 * refuses (nodes deeper than OSSA_IMPORT_MAX_DEPTH, counts promising more
 * data than the file holds, constructs known to crash assimp 5.2) is
 * OSSA_ERR_IMPORT or OSSA_ERR_UNSUPPORTED, and what it accepts is safe to
 * import in this process (the import fuzzer runs exactly that). Other
 * formats reach assimp unchecked: import untrusted ones in a child process
 * with limits, as `ossa build` does (docs/importing.md). */
ossa_result ossa_import_file(const char *path, const ossa_import_options *options,
                             ossa_import *out, ossa_error *error);

/* Frees what an import holds and zeroes *import. NULL or zeroed is fine. */
void ossa_import_free(ossa_import *import);

/* Index of the joint with this name in a raw skeleton, or -1. */
int ossa_raw_skeleton_find(const ossa_raw_skeleton *skeleton, const char *name);

/* The track of the named joint in a raw clip, or NULL. */
const ossa_raw_joint_track *ossa_raw_clip_find_track(const ossa_raw_clip *clip,
                                                     const char *joint_name);

/* "glTF 2.0", "FBX", ... for a format. */
const char *ossa_source_format_name(ossa_source_format format);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_IMPORTER_H */
