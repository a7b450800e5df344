/* local_to_model_job.c - the seed's flattened hierarchy walk,
 * model[i] = model[parent[i]] * local[i], as 3x4 matrices and as QVS. */
#include "ossa/local_to_model_job.h"

#include <string.h>

#include "ossa/skeleton.h"
#include "core/job_internal.h"
#include "core/math_internal.h"

/* Joints [first, joint_count) that lie in from_joint's subtree, marked in a
 * bitset on the stack (8 KiB for the largest skeleton): a joint is in the
 * subtree when it is from_joint or its parent is. Works for any order with
 * parent < child; no allocation. */
typedef struct subtree {
    uint64_t bits[(OSSA_MAX_JOINTS + 64) / 64];
} subtree;

static void subtree_mark(subtree *s, const uint16_t *parents, int joint_count, int from)
{
    memset(&s->bits[from / 64], 0, ((size_t)(joint_count - 1) / 64 - (size_t)from / 64 + 1) * 8);
    s->bits[from / 64] |= 1ull << (from % 64);
    for (int i = from + 1; i < joint_count; ++i) {
        uint16_t p = parents[i];
        if (p != OSSA_NO_PARENT && p >= from && (s->bits[p / 64] >> (p % 64) & 1u))
            s->bits[i / 64] |= 1ull << (i % 64);
    }
}

static inline int subtree_has(const subtree *s, int i)
{
    return (int)(s->bits[i / 64] >> (i % 64) & 1u);
}

/* Shared validation: the two jobs have the same fields apart from types. */
static ossa_result validate_common(const uint16_t *parents, int joint_count, const void *local,
                                   int local_count, int character_count, int begin, int end,
                                   const void *root, int root_count, bool partial, int from_joint,
                                   const void *model, int model_count)
{
    if (!parents)
        return OSSA_ERR_MISSING_INPUT;
    ossa_result r = ossai_check_joint_count(joint_count);
    if (r != OSSA_OK)
        return r;
    if (!local)
        return OSSA_ERR_MISSING_INPUT;
    if (character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int64_t elements = (int64_t)character_count * joint_count;
    if (local_count < elements)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if ((r = ossai_job_range(begin, end, character_count, &begin, &end)))
        return r;
    if (root && root_count < character_count)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (partial && (from_joint < 0 || from_joint >= joint_count))
        return OSSA_ERR_BAD_INDEX;
    if ((r = ossai_check_parents(parents, joint_count)))
        return r;
    if (!model)
        return OSSA_ERR_MISSING_OUTPUT;
    if (model_count < elements)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_local_to_model_job_validate(const ossa_local_to_model_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    return validate_common(job->parents, job->joint_count, job->local, job->local_count,
                           job->character_count, job->character_begin, job->character_end, job->root,
                           job->root_count, job->partial, job->from_joint, job->model,
                           job->model_count);
}

/* One step of the walk in each form, on the names WALK declares (model,
 * root, t for the local transform, p for the parent): model[i] = model[p] *
 * t, root * t (a root, with a root transform) or t. */
#define STEP_MATRIX                                                                           \
    ossa_mat34 m = ossai_mat34_from_trs(t->translation, t->rotation, t->scale);               \
    const uint16_t p = parents[i];                                                            \
    if (p != OSSA_NO_PARENT)                                                                  \
        ossai_mat34_mul(&model[i], &model[p], &m);                                            \
    else if (root)                                                                            \
        ossai_mat34_mul(&model[i], root, &m);                                                 \
    else                                                                                      \
        model[i] = m;

#define STEP_QVS                                                                              \
    ossa_qvs q = {t->rotation, t->translation, t->scale.x};                                   \
    const uint16_t p = parents[i];                                                            \
    if (p != OSSA_NO_PARENT)                                                                  \
        model[i] = ossai_qvs_mul(model[p], q);                                                \
    else if (root)                                                                            \
        model[i] = ossai_qvs_mul(*root, q);                                                   \
    else                                                                                      \
        model[i] = q;

/* The one walk, for both forms (`job` either job type, `element` its model
 * and root type, STEP its step): model[i] = model[parent[i]] * local[i] in
 * joint order (parent[i] < i), the root transform (or identity) above the
 * roots, and with `partial` only from_joint's subtree. A macro rather than a
 * function taking the form as a constant flag: written out like this, gcc 12
 * vectorises part of the 3x4 product; every function form tried cost 26
 * more instructions per joint (callgrind, docs/hierarchy.md). */
#define WALK(element, STEP)                                                                   \
    const int n = job->joint_count;                                                           \
    const uint16_t *parents = job->parents;                                                   \
    int begin = job->character_begin, end = job->character_end;                               \
    if (begin == 0 && end == 0)                                                               \
        end = job->character_count;                                                           \
    const int from = job->partial ? job->from_joint : 0;                                      \
    subtree sub;                                                                              \
    if (job->partial)                                                                         \
        subtree_mark(&sub, parents, n, from);                                                 \
    for (int inst = begin; inst < end; ++inst) {                                              \
        const ossa_transform *local = job->local + (size_t)inst * (size_t)n;                  \
        element *restrict model = job->model + (size_t)inst * (size_t)n;                      \
        const element *root = job->root ? &job->root[inst] : NULL;                           \
        for (int i = from; i < n; ++i) {                                                      \
            if (job->partial && !subtree_has(&sub, i))                                        \
                continue;                                                                     \
            const ossa_transform *t = &local[i];                                              \
            STEP                                                                              \
        }                                                                                     \
    }

ossa_result ossa_local_to_model_job_run(const ossa_local_to_model_job *job)
{
    ossa_result r = ossa_local_to_model_job_validate(job);
    if (r != OSSA_OK)
        return r;
    WALK(ossa_mat34, STEP_MATRIX)
    return OSSA_OK;
}

ossa_result ossa_local_to_model_qvs_job_validate(const ossa_local_to_model_qvs_job *job)
{
    if (!job)
        return OSSA_ERR_MISSING_INPUT;
    return validate_common(job->parents, job->joint_count, job->local, job->local_count,
                           job->character_count, job->character_begin, job->character_end, job->root,
                           job->root_count, job->partial, job->from_joint, job->model,
                           job->model_count);
}

ossa_result ossa_local_to_model_qvs_job_run(const ossa_local_to_model_qvs_job *job)
{
    ossa_result r = ossa_local_to_model_qvs_job_validate(job);
    if (r != OSSA_OK)
        return r;
    WALK(ossa_qvs, STEP_QVS)
    return OSSA_OK;
}
