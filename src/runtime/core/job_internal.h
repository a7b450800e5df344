/* job_internal.h - what every job checks: the range of characters or batches
 * to process, joint counts, parents and skin joints. A stage's own checks,
 * shared by its reference and lane jobs, are in its folder. Each job calls
 * them in its own order, so its result codes stay the ones its validity
 * table lists. */
#ifndef OSSA_JOB_INTERNAL_H
#define OSSA_JOB_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "ossa/result.h"
#include "ossa/skeleton.h"

/* Resolves a range [begin, end) of `count` items (characters, batches), 0, 0
 * meaning all of them, into *out_begin, *out_end; OSSA_ERR_BAD_RANGE (and
 * the outputs untouched) when it lies outside. */
static inline ossa_result ossai_job_range(int begin, int end, int count, int *out_begin,
                                          int *out_end)
{
    if (begin == 0 && end == 0)
        end = count;
    if (begin < 0 || end > count || begin > end)
        return OSSA_ERR_BAD_RANGE;
    *out_begin = begin;
    *out_end = end;
    return OSSA_OK;
}

/* ---- hierarchy and palette ---- */

/* A joint count the walk can hold: 1..OSSA_MAX_JOINTS. */
static inline ossa_result ossai_check_joint_count(int joint_count)
{
    if (joint_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    return joint_count > OSSA_MAX_JOINTS ? OSSA_ERR_BAD_ARGUMENT : OSSA_OK;
}

/* Every parent comes before its child (or is OSSA_NO_PARENT). */
static inline ossa_result ossai_check_parents(const uint16_t *parents, int joint_count)
{
    /* parent + 1, in 16 bits, is at most i for a parent below i and 0 for
     * OSSA_NO_PARENT: one test, no branch, so the loop vectorises (lane
     * jobs check their hierarchy once per run, and the crowd runs one per
     * batch) */
    _Static_assert(OSSA_NO_PARENT == 0xFFFFu, "no parent wraps to 0");
    unsigned bad = 0;
    for (int i = 0; i < joint_count; ++i)
        bad |= (unsigned)(uint16_t)(parents[i] + 1u) > (unsigned)i;
    return bad ? OSSA_ERR_BAD_INDEX : OSSA_OK;
}

/* Every skin joint names a joint of the skeleton. */
static inline ossa_result ossai_check_skin_joints(const uint16_t *skin_joint, int count,
                                                  int joint_count)
{
    for (int k = 0; k < count; ++k)
        if (skin_joint[k] >= joint_count)
            return OSSA_ERR_BAD_INDEX;
    return OSSA_OK;
}

#endif /* OSSA_JOB_INTERNAL_H */
