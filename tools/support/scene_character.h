/* scene_character.h - the character `ossa demo` and `ossa bench frame`
 * animate: a skeleton, its clips and (optionally) a skinned mesh, all inside
 * one validated blob - read from a file, or built in memory and stored in a
 * blob first, as a game loads a character. */
#ifndef OSSA_SCENE_CHARACTER_H
#define OSSA_SCENE_CHARACTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ossa/crowd.h"
#include "ossa/ossa.h"

typedef struct scene_character {
    const ossa_skeleton *skeleton;
    const ossa_clip **clips;
    int clip_count;
    int joints;
    /* The skinned mesh, or NULL when the blob has none. With several meshes,
     * the one with the most vertices (mesh_count says how many there were). */
    const ossa_mesh *mesh;
    int mesh_count;
    /* Left and right foot joints (for footfalls), found by name: "foot_l" /
     * "foot_r", else a joint named like a foot with a side ("LeftFoot",
     * "Bip01 R Foot"...); NULL when none is found. */
    const char *feet[2];
    char description[256]; /* e.g. "arnaud.ossa (67 joints, 3 clips ...)" */
    void *blob_data;       /* everything above points into this blob */
    size_t blob_bytes;
} scene_character;

/* Uses these joints as the feet; returns 0 after saying which is missing. */
int scene_character_set_feet(scene_character *c, const char *left, const char *right,
                             const char *command);
/* From a blob file with a skeleton and at least one clip. `command` prefixes
 * the message on stderr; returns 0 on failure. */
int scene_character_load_file(scene_character *c, const char *path, const char *command);
/* The embedded default character: 96 joints, crouch / walk / run, its mesh. */
int scene_character_load_default(scene_character *c, const char *command);
/* Any skeleton, clips and mesh (may be NULL), stored in one blob in memory
 * and used from there; `name` starts the description. */
int scene_character_from_parts(scene_character *c, const ossa_skeleton *skeleton,
                               const ossa_clip *const *clips, int clip_count,
                               const ossa_mesh *mesh, const char *name, const char *command);
void scene_character_free(scene_character *c);

/* A crowd of the character: its skeleton and clips, `capacity` characters
 * and, when skinned_capacity > 0, that many skinned slots wearing its mesh.
 * Width, path and feet are left at their defaults for the caller. */
ossa_crowd_desc scene_crowd_desc(const scene_character *c, int capacity, int skinned_capacity);

/* The skeleton's rest pose in model space: joint_count matrices into model.
 * False when the walk fails. */
bool scene_rest_models(const ossa_skeleton *skeleton, ossa_mat34 *model);

#endif /* OSSA_SCENE_CHARACTER_H */
