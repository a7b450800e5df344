/* ossa/default_character.h - the seeds' test character, generated in code.
 *
 * A 96-joint humanoid about 1.8 units tall (y up, facing +z), three looping
 * clips - crouch, walk and run - and a skinned body mesh, built
 * deterministically with no file.
 * ossa demo, bench and tests use it when no model is given. */
#ifndef OSSA_DEFAULT_CHARACTER_H
#define OSSA_DEFAULT_CHARACTER_H

#include "allocator.h"
#include "clip.h"
#include "mesh.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OSSA_DEFAULT_JOINT_COUNT 96
#define OSSA_DEFAULT_CLIP_COUNT 3

typedef struct ossa_default_character {
    ossa_skeleton *skeleton;
    ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT]; /* crouch, walk, run */
    /* The skinned body: ~5,000 triangles with normals, tangents and uvs over
     * the skeleton (bind pose = rest pose), influences mixed like seed 002's
     * character (about 25% one, 20% two, 25% three, 30% four). */
    ossa_mesh *mesh;
} ossa_default_character;

/* Builds the character; allocator may be NULL. Free with
 * ossa_default_character_free. */
ossa_result ossa_default_character_build(ossa_default_character *out,
                                         const ossa_allocator *allocator, ossa_error *error);
void ossa_default_character_free(ossa_default_character *character,
                                 const ossa_allocator *allocator);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_DEFAULT_CHARACTER_H */
