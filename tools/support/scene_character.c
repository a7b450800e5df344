/* scene_character.c - see scene_character.h. */
#include "scene_character.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "cli.h"
#include "ossa/pipeline.h"

/* Points c at a validated blob's skeleton, clips and largest mesh. */
/* Whether a lower-cased joint name marks side 0 (left) or 1 (right). */
static bool names_side(const char *n, int side)
{
    const char *word = side == 0 ? "left" : "right", letter = side == 0 ? 'l' : 'r';
    const size_t len = strlen(n);
    if (strstr(n, word))
        return true;
    for (size_t i = 0; i < len; ++i) /* a lone l / r between separators */
        if (n[i] == letter && (i == 0 || !isalnum((unsigned char)n[i - 1])) &&
            (i + 1 == len || !isalnum((unsigned char)n[i + 1])))
            return true;
    return false;
}

/* The feet: the default character's names, else the first joint per side
 * whose name says foot and a side and is not an IK target, an end ("Nub") or
 * a footstep helper. */
static void find_feet(scene_character *c)
{
    static const char *const defaults[2] = {"foot_l", "foot_r"};
    const int n = ossa_skeleton_joint_count(c->skeleton);
    for (int side = 0; side < 2; ++side) {
        c->feet[side] = NULL;
        if (ossa_skeleton_find_joint(c->skeleton, defaults[side]) >= 0) {
            c->feet[side] = defaults[side];
            continue;
        }
        for (int j = 0; j < n && !c->feet[side]; ++j) {
            const char *name = ossa_skeleton_joint_name(c->skeleton, j);
            char lower[128];
            size_t k = 0;
            for (; name[k] && k + 1 < sizeof lower; ++k)
                lower[k] = (char)tolower((unsigned char)name[k]);
            lower[k] = '\0';
            if (strstr(lower, "foot") && !strstr(lower, "nub") && !strstr(lower, "step") &&
                strncmp(lower, "ik", 2) != 0 && names_side(lower, side) &&
                !names_side(lower, 1 - side))
                c->feet[side] = name;
        }
    }
    if (!c->feet[0] || !c->feet[1])
        c->feet[0] = c->feet[1] = NULL;
}

int scene_character_set_feet(scene_character *c, const char *left, const char *right,
                             const char *command)
{
    const char *names[2] = {left, right};
    for (int side = 0; side < 2; ++side)
        if (!names[side] || ossa_skeleton_find_joint(c->skeleton, names[side]) < 0) {
            cli_error(command, "--feet: '%s' is not a joint of %s", names[side] ? names[side] : "",
                      c->description);
            return 0;
        }
    c->feet[0] = left;
    c->feet[1] = right;
    return 1;
}

static int use_blob(scene_character *c, const char *name, const char *command)
{
    ossa_blob blob;
    ossa_error e;
    if (ossa_blob_open(&blob, c->blob_data, c->blob_bytes, OSSA_BLOB_DEFAULT, &e) != OSSA_OK) {
        cli_error(command, "%s: %s", name, e.message);
        return 0;
    }
    if (!blob.skeleton || blob.clip_count < 1) {
        cli_error(command, "%s: needs a skeleton and at least one clip (it has %s and %d clips)",
                  name, blob.skeleton ? "a skeleton" : "no skeleton", blob.clip_count);
        return 0;
    }
    c->skeleton = blob.skeleton;
    c->joints = ossa_skeleton_joint_count(c->skeleton);
    c->clip_count = blob.clip_count;
    c->clips = cli_alloc(sizeof *c->clips * (size_t)blob.clip_count);
    size_t key_bytes = 0;
    for (int k = 0; k < blob.clip_count; ++k) {
        c->clips[k] = ossa_blob_clip(&blob, k);
        key_bytes += ossa_clip_bytes(c->clips[k]);
    }
    find_feet(c);
    c->mesh_count = blob.mesh_count;
    for (int k = 0; k < blob.mesh_count; ++k) {
        const ossa_mesh *m = ossa_blob_mesh(&blob, k);
        if (!c->mesh || ossa_mesh_vertex_count(m) > ossa_mesh_vertex_count(c->mesh))
            c->mesh = m;
    }
    int used = snprintf(c->description, sizeof c->description,
                        "%s (%d joints, %d clips, %.0f KiB of keys", name, c->joints,
                        c->clip_count, (double)key_bytes / 1024.0);
    if (used < 0 || (size_t)used >= sizeof c->description)
        return 1;
    if (c->mesh)
        snprintf(c->description + used, sizeof c->description - (size_t)used,
                 "; mesh %d vertices, %d skin joints%s%s)", ossa_mesh_vertex_count(c->mesh),
                 ossa_mesh_skin_joint_count(c->mesh),
                 ossa_mesh_has_tangents(c->mesh) ? ", tangents" : "",
                 c->mesh_count > 1 ? ", the largest mesh" : "");
    else
        snprintf(c->description + used, sizeof c->description - (size_t)used, "; no mesh)");
    return 1;
}

int scene_character_load_file(scene_character *c, const char *path, const char *command)
{
    memset(c, 0, sizeof *c);
    ossa_blob blob;
    ossa_error e;
    if (ossa_blob_load_file(path, NULL, &blob, &c->blob_data, &e) != OSSA_OK) {
        cli_error(command, "%s", e.message);
        return 0;
    }
    c->blob_bytes = blob.bytes;
    const char *slash = strrchr(path, '/');
    if (!use_blob(c, slash ? slash + 1 : path, command)) {
        scene_character_free(c);
        return 0;
    }
    return 1;
}

int scene_character_from_parts(scene_character *c, const ossa_skeleton *skeleton,
                               const ossa_clip *const *clips, int clip_count,
                               const ossa_mesh *mesh, const char *name, const char *command)
{
    memset(c, 0, sizeof *c);
    ossa_blob_contents contents = {skeleton, clips, clip_count, mesh ? &mesh : NULL, mesh ? 1 : 0};
    ossa_error e;
    if (ossa_blob_write_memory(&contents, NULL, &c->blob_data, &c->blob_bytes, &e) != OSSA_OK) {
        cli_error(command, "%s: %s", name, e.message);
        return 0;
    }
    if (!use_blob(c, name, command)) {
        scene_character_free(c);
        return 0;
    }
    return 1;
}

int scene_character_load_default(scene_character *c, const char *command)
{
    ossa_default_character def;
    ossa_error e;
    memset(c, 0, sizeof *c);
    if (ossa_default_character_build(&def, NULL, &e) != OSSA_OK) {
        cli_error(command, "default character: %s", e.message);
        return 0;
    }
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    for (int k = 0; k < OSSA_DEFAULT_CLIP_COUNT; ++k)
        clips[k] = def.clips[k];
    const int ok = scene_character_from_parts(c, def.skeleton, clips, OSSA_DEFAULT_CLIP_COUNT,
                                              def.mesh, "default character", command);
    ossa_default_character_free(&def, NULL);
    return ok;
}

void scene_character_free(scene_character *c)
{
    cli_free((void *)c->clips);
    ossa_free(NULL, c->blob_data);
    memset(c, 0, sizeof *c);
}

bool scene_rest_models(const ossa_skeleton *skeleton, ossa_mat34 *model)
{
    const int joints = ossa_skeleton_joint_count(skeleton);
    ossa_local_to_model_job job = {0};
    job.parents = ossa_skeleton_parents(skeleton);
    job.joint_count = joints;
    job.local = ossa_skeleton_rest_pose(skeleton);
    job.local_count = joints;
    job.character_count = 1;
    job.model = model;
    job.model_count = joints;
    return ossa_local_to_model_job_run(&job) == OSSA_OK;
}

ossa_crowd_desc scene_crowd_desc(const scene_character *c, int capacity, int skinned_capacity)
{
    ossa_crowd_desc d = {0};
    d.skeleton = c->skeleton;
    d.clips = c->clips;
    d.clip_count = c->clip_count;
    d.capacity = capacity;
    if (skinned_capacity > 0) {
        d.mesh = c->mesh;
        d.skinned_capacity = skinned_capacity;
    }
    return d;
}
