/* default_mesh_weights.c - the default body's skin weights: one bone per
 * joint of the rest pose, and each vertex weighted by its distance to the
 * bones of its part: fully to the nearest, fading across a blend zone to the
 * others. The zones' widths (default_mesh_shape.c) are tuned so the influence
 * histogram lands near seed 002's (25% one, 20% two, 25% three, 30% four). */
#include "default_mesher.h"

#include <math.h>
#include <string.h>

#include "ossa/local_to_model_job.h"

/* Rest model-space positions and one bone per joint: to the child with the
 * largest subtree; for a leaf, a point (twists, eyes), except finger and toe
 * tips and the head, which reach to the end of their body part. */
int ossai_mesher_bones(mesher *m, ossa_mat34 *model)
{
    const int n = ossa_skeleton_joint_count(m->skeleton);
    const uint16_t *parents = ossa_skeleton_parents(m->skeleton);
    ossa_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.parents = parents;
    job.joint_count = n;
    job.local = ossa_skeleton_rest_pose(m->skeleton);
    job.local_count = n;
    job.character_count = 1;
    job.model = model;
    job.model_count = n;
    if (ossa_local_to_model_job_run(&job) != OSSA_OK)
        return 0;
    int subtree[JOINTS], main_child[JOINTS];
    for (int j = 0; j < n; ++j) {
        m->joint[j] = v(model[j].m[0][3], model[j].m[1][3], model[j].m[2][3]);
        subtree[j] = 1;
        main_child[j] = -1;
    }
    for (int j = n - 1; j > 0; --j) /* children come after parents */
        if (parents[j] != OSSA_NO_PARENT)
            subtree[parents[j]] += subtree[j];
    for (int j = 1; j < n; ++j) {
        const int p = parents[j];
        if (p != OSSA_NO_PARENT && (main_child[p] < 0 || subtree[j] > subtree[main_child[p]]))
            main_child[p] = j;
    }
    for (int j = 0; j < n; ++j) {
        const char *name = ossa_skeleton_joint_name(m->skeleton, j);
        const int p = parents[j];
        m->bone_end[j] = main_child[j] >= 0 ? m->joint[main_child[j]] : m->joint[j];
        static const char *const along[][2] = {
            {"spine_03", "neck_01"}, {"hand_l", "middle_01_l"}, {"hand_r", "middle_01_r"}};
        for (size_t k = 0; k < sizeof along / sizeof along[0]; ++k)
            if (strcmp(name, along[k][0]) == 0)
                m->bone_end[j] = m->joint[ossa_skeleton_find_joint(m->skeleton, along[k][1])];
        if (strcmp(name, "head") == 0)
            m->bone_end[j] = add(m->joint[j], v(0, 0.16, 0.02));
        else if (p != OSSA_NO_PARENT && main_child[j] < 0 &&
                 (strstr(name, "_03_") || strncmp(name, "toe_", 4) == 0))
            m->bone_end[j] = add(m->joint[j], scale(sub(m->joint[j], m->joint[p]), 0.8));
    }
    return 1;
}

void ossai_mesher_part(const mesher *m, part *pt, double blend, const char *side,
                       const char *const *names)
{
    pt->candidate_count = 0;
    pt->blend = blend;
    for (; *names && pt->candidate_count < MAX_CANDIDATES; ++names) {
        /* A leading '=' names a joint without the side suffix. */
        const int j = (*names)[0] == '=' ? joint_of(m, *names + 1, NULL) : joint_of(m, *names, side);
        if (j >= 0)
            pt->candidates[pt->candidate_count++] = j;
    }
}

static double segment_distance(v3 p, v3 a, v3 b)
{
    const v3 ab = sub(b, a);
    const double len2 = dot(ab, ab);
    double t = len2 > 0.0 ? dot(sub(p, a), ab) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    const v3 d = sub(p, add(a, scale(ab, t)));
    return sqrt(dot(d, d));
}

/* The vertex's influences: every bone of its part nearly as close as the
 * nearest, weighted (1 - (d - d_nearest) / blend)^2 - 1 for the nearest bone,
 * fading to 0 across the blend zone - the four heaviest kept, normalised. */
void ossai_mesher_weigh(mesher *m, const part *pt, v3 p)
{
    double d[MAX_CANDIDATES], w[MAX_CANDIDATES];
    int order[MAX_CANDIDATES];
    double nearest = 1e30;
    for (int i = 0; i < pt->candidate_count; ++i) {
        const int j = pt->candidates[i];
        d[i] = segment_distance(p, m->joint[j], m->bone_end[j]);
        if (d[i] < nearest)
            nearest = d[i];
    }
    for (int i = 0; i < pt->candidate_count; ++i) {
        const double x = 1.0 - (d[i] - nearest) / pt->blend;
        w[i] = x > 0.0 ? x * x : 0.0;
        order[i] = i;
    }
    for (int i = 1; i < pt->candidate_count; ++i) /* insertion sort, heaviest first */
        for (int k = i; k > 0 && w[order[k]] > w[order[k - 1]]; --k) {
            const int t = order[k];
            order[k] = order[k - 1];
            order[k - 1] = t;
        }
    int n = pt->candidate_count < OSSA_MAX_INFLUENCES ? pt->candidate_count : OSSA_MAX_INFLUENCES;
    while (w[order[n - 1]] <= 0.0) /* the nearest bone always has weight 1 */
        --n;
    double sum = 0.0;
    for (int i = 0; i < n; ++i)
        sum += w[order[i]];
    const int first = m->offsets[m->vertices];
    for (int i = 0; i < n; ++i)
        m->influences[first + i] =
            (ossa_raw_influence){pt->candidates[order[i]], (float)(w[order[i]] / sum)};
    m->offsets[m->vertices + 1] = first + n;
}
