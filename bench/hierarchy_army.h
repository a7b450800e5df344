/* hierarchy_army.h - the army of `ossa bench hierarchy`: N characters of one
 * skeleton (the default character's, or a blob's), each sampled once at its
 * own clip and time, with the inputs and outputs of every walk the bench
 * times: the naive pointer trees, the flattened 4x4 poses, the library's
 * 3x4 and QVS jobs. */
#ifndef OSSA_BENCH_HIERARCHY_ARMY_H
#define OSSA_BENCH_HIERARCHY_ARMY_H

#include <stdbool.h>

#include "flat_hierarchy.h"
#include "naive_hierarchy.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"

/* A local scale counts as non-uniform, which the QVS walk cannot represent
 * (it uses scale.x), when y or z differ from x by more than this fraction:
 * below it, the difference is float rounding of a uniform scale. */
#define UNIFORM_SCALE_TOLERANCE 1e-5

typedef struct army {
    int characters;
    int joints;
    const uint16_t *parents;
    ossa_transform *local;       /* characters x joints sampled local poses */
    bench_mat4 *local4, *global4; /* flattened 4x4 variant */
    naive_skeleton *naive;       /* one pointer tree per character, each grown at once */
    naive_skeleton *naive_interleaved; /* the same, grown joint by joint across the army */
    ossa_mat34 *model;           /* library 3x4 output */
    ossa_qvs *model_qvs;         /* library QVS output, and the floor's */
    ossa_local_to_model_job job;
    ossa_local_to_model_qvs_job qvs_job;
    /* Sampled local transforms with a non-uniform scale, and the largest
     * relative difference between their scale's components. */
    int nonuniform;
    double nonuniform_largest;
    /* What the check measured: the positions' tolerance for this character,
     * and how far the QVS walk is from the 3x4 one. */
    double position_tolerance;
    double qvs_position, qvs_basis;
} army;

/* The character the army is made of: the default one, or a blob's. */
typedef struct character {
    ossa_default_character built; /* without --model */
    void *blob_data;              /* with --model: everything points into it */
    const ossa_skeleton *skeleton;
    const ossa_clip **clips;
    int clip_count;
    char description[160];
} character;

/* The default character (model NULL), or a blob's skeleton and clips. Says
 * what is wrong on stderr and returns false on failure; free c either way. */
bool hierarchy_character_load(character *c, const char *model);
void hierarchy_character_free(character *c);

/* Samples `characters` characters of ch (character i plays clip i mod the
 * clip count from its own time), builds the walks' inputs and validates the
 * library jobs; counts the non-uniform scales. Free a either way. */
bool hierarchy_army_init(army *a, const character *ch, int characters);
void hierarchy_army_fini(army *a);

#endif /* OSSA_BENCH_HIERARCHY_ARMY_H */
