/* hierarchy_army.c - see hierarchy_army.h. */
#include "hierarchy_army.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Every character at its own clip and time: the seed's "army of 1000
 * characters, all sampled at a different point in time". */
static bool sample_army(army *a, const character *ch)
{
    uint16_t *clip_index = cli_alloc(sizeof(uint16_t) * (size_t)a->characters);
    float *time_s = cli_alloc(sizeof(float) * (size_t)a->characters);
    for (int c = 0; c < a->characters; ++c) {
        clip_index[c] = (uint16_t)(c % ch->clip_count);
        time_s[c] = cli_unit((uint32_t)c) * ossa_clip_duration(ch->clips[clip_index[c]]);
    }
    ossa_sampling_job job = {0};
    job.clips = ch->clips;
    job.clip_count = ch->clip_count;
    job.clip_index = clip_index;
    job.clip_index_count = a->characters;
    job.time_s = time_s;
    job.character_count = a->characters;
    job.rest_pose = ossa_skeleton_rest_pose(ch->skeleton);
    job.rest_pose_count = a->joints;
    job.output = a->local;
    job.output_count = a->characters * a->joints;
    ossa_result r = ossa_sampling_job_run(&job);
    if (r != OSSA_OK)
        cli_error("bench hierarchy", "sampling the army: %s", ossa_result_str(r));
    cli_free(clip_index);
    cli_free(time_s);
    return r == OSSA_OK;
}

/* Counts the sampled transforms whose scale is not uniform. */
static void find_nonuniform_scales(army *a)
{
    const size_t count = (size_t)a->characters * (size_t)a->joints;
    for (size_t i = 0; i < count; ++i) {
        const ossa_float3 s = a->local[i].scale;
        const double x = fabs((double)s.x);
        const double off = fmax(fabs((double)s.y - s.x), fabs((double)s.z - s.x)) /
                           (x > 0.0 ? x : 1.0);
        if (!(off <= UNIFORM_SCALE_TOLERANCE)) {
            a->nonuniform++;
            a->nonuniform_largest = fmax(a->nonuniform_largest, isnan(off) ? INFINITY : off);
        }
    }
}

static bool add_naive_joint(army *a, naive_skeleton *trees, int c, int j)
{
    const int parent = a->parents[j] == OSSA_NO_PARENT ? -1 : a->parents[j];
    naive_joint *joint = naive_skeleton_add_joint(&trees[c], parent);
    if (!joint) {
        cli_error("bench hierarchy", "out of memory building the naive trees");
        return false;
    }
    joint->local_pose = a->local4[(size_t)c * (size_t)a->joints + (size_t)j];
    return true;
}

/* The naive trees, one per character. `interleaved`: grown one joint at a
 * time across the whole army (joint 0 of every character, then joint 1...),
 * so every character's joints and child arrays lie among everyone else's in
 * the heap, as when a game spawns characters over time. Otherwise each tree
 * is grown completely before the next, on a fresh heap: the best case. */
static bool build_naive(army *a, bool interleaved, naive_skeleton **out)
{
    naive_skeleton *trees = cli_alloc(sizeof(naive_skeleton) * (size_t)a->characters);
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_init(&trees[c]);
    *out = trees;
    bool ok = true;
    if (interleaved)
        for (int j = 0; ok && j < a->joints; ++j)
            for (int c = 0; ok && c < a->characters; ++c)
                ok = add_naive_joint(a, trees, c, j);
    else
        for (int c = 0; ok && c < a->characters; ++c)
            for (int j = 0; ok && j < a->joints; ++j)
                ok = add_naive_joint(a, trees, c, j);
    return ok;
}

static void free_naive(const army *a, naive_skeleton *trees)
{
    if (!trees)
        return;
    for (int c = 0; c < a->characters; ++c)
        naive_skeleton_free(&trees[c]);
    cli_free(trees);
}

/* The default character, or a blob's skeleton and clips. */
bool hierarchy_character_load(character *c, const char *model)
{
    memset(c, 0, sizeof *c);
    ossa_error e;
    if (!model) {
        if (ossa_default_character_build(&c->built, NULL, &e) != OSSA_OK) {
            cli_error("bench hierarchy", "default character: %s", e.message);
            return false;
        }
        c->skeleton = c->built.skeleton;
        c->clip_count = OSSA_DEFAULT_CLIP_COUNT;
        c->clips = calloc(OSSA_DEFAULT_CLIP_COUNT, sizeof *c->clips);
        for (int i = 0; c->clips && i < OSSA_DEFAULT_CLIP_COUNT; ++i)
            c->clips[i] = c->built.clips[i];
        snprintf(c->description, sizeof c->description, "the default character");
        return c->clips != NULL;
    }
    ossa_blob blob;
    if (ossa_blob_load_file(model, NULL, &blob, &c->blob_data, &e) != OSSA_OK) {
        cli_error("bench hierarchy", "%s", e.message);
        return false;
    }
    if (!blob.skeleton || blob.clip_count < 1) {
        cli_error("bench hierarchy", "%s: needs a skeleton and at least one clip (it has %s and "
                                     "%d clips)",
                  model, blob.skeleton ? "a skeleton" : "no skeleton", blob.clip_count);
        return false;
    }
    c->skeleton = blob.skeleton;
    c->clip_count = blob.clip_count;
    c->clips = calloc((size_t)blob.clip_count, sizeof *c->clips);
    for (int i = 0; c->clips && i < blob.clip_count; ++i)
        c->clips[i] = ossa_blob_clip(&blob, i);
    snprintf(c->description, sizeof c->description, "%s", model);
    return c->clips != NULL;
}

void hierarchy_character_free(character *c)
{
    free((void *)c->clips);
    ossa_free(NULL, c->blob_data);
    if (c->built.skeleton)
        ossa_default_character_free(&c->built, NULL);
    memset(c, 0, sizeof *c);
}

bool hierarchy_army_init(army *a, const character *ch, int characters)
{
    memset(a, 0, sizeof *a);
    a->characters = characters;
    a->joints = ossa_skeleton_joint_count(ch->skeleton);
    a->parents = ossa_skeleton_parents(ch->skeleton);
    const size_t count = (size_t)characters * (size_t)a->joints;
    a->local = cli_alloc(sizeof(ossa_transform) * count);
    a->local4 = cli_alloc(sizeof(bench_mat4) * count);
    a->global4 = cli_alloc(sizeof(bench_mat4) * count);
    a->model = cli_alloc(sizeof(ossa_mat34) * count);
    a->model_qvs = cli_alloc(sizeof(ossa_qvs) * count);
    if (!sample_army(a, ch))
        return false;
    find_nonuniform_scales(a);
    /* The seed gathers the local poses into 4x4 matrices before the walk. */
    for (size_t i = 0; i < count; ++i) {
        const ossa_mat34 m = ossa_mat34_from_transform(a->local[i]);
        a->local4[i] = bench_mat4_from_mat34(&m);
    }
    /* The best case first, while the heap is fresh. */
    if (!build_naive(a, false, &a->naive) || !build_naive(a, true, &a->naive_interleaved))
        return false;
    a->job.parents = a->parents;
    a->job.joint_count = a->joints;
    a->job.local = a->local;
    a->job.local_count = (int)count;
    a->job.character_count = characters;
    a->job.model = a->model;
    a->job.model_count = (int)count;
    a->qvs_job.parents = a->parents;
    a->qvs_job.joint_count = a->joints;
    a->qvs_job.local = a->local;
    a->qvs_job.local_count = (int)count;
    a->qvs_job.character_count = characters;
    a->qvs_job.model = a->model_qvs;
    a->qvs_job.model_count = (int)count;
    ossa_result r = ossa_local_to_model_job_validate(&a->job);
    if (r == OSSA_OK)
        r = ossa_local_to_model_qvs_job_validate(&a->qvs_job);
    if (r != OSSA_OK)
        cli_error("bench hierarchy", "local->model job: %s", ossa_result_str(r));
    return r == OSSA_OK;
}

void hierarchy_army_fini(army *a)
{
    free_naive(a, a->naive_interleaved);
    free_naive(a, a->naive);
    void *blocks[] = {a->local, a->local4, a->global4, a->model, a->model_qvs};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
}
