/* synthetic_character.h - a stand-in skeleton of any size with three
 * locomotion-like clips of similar length, for tuning the crowd path on the
 * joint count of a real character (pab's 67) before its importer lands. */
#ifndef OSSA_BENCH_SYNTHETIC_CHARACTER_H
#define OSSA_BENCH_SYNTHETIC_CHARACTER_H

#include "ossa/clip.h"
#include "ossa/result.h"
#include "ossa/skeleton.h"

#define SYNTHETIC_CLIP_COUNT 3
#define SYNTHETIC_MIN_JOINTS 23

typedef struct synthetic_character {
    ossa_skeleton *skeleton;
    ossa_clip *clips[SYNTHETIC_CLIP_COUNT]; /* "walk" 1.0 s, "jog" 0.8 s, "run" 0.7 s */
} synthetic_character;

/* A humanoid: spine, head, arms, legs (feet named foot_l / foot_r) and
 * fingers, then extra leaf joints up to `joints` (>= SYNTHETIC_MIN_JOINTS);
 * every joint rotates in every clip. Free with synthetic_character_free. */
ossa_result synthetic_character_build(int joints, synthetic_character *out, ossa_error *error);
void synthetic_character_free(synthetic_character *c);

#endif /* OSSA_BENCH_SYNTHETIC_CHARACTER_H */
