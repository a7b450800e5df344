/* skeleton.c - accessors for the runtime skeleton (validated by
 * blob/validate_skeleton.c before anything reads it). */
#include <string.h>

#include "blob/format.h"

int ossa_skeleton_joint_count(const ossa_skeleton *skeleton)
{
    return (int)skeleton->joint_count;
}

const uint16_t *ossa_skeleton_parents(const ossa_skeleton *skeleton)
{
    return (const uint16_t *)(const void *)((const char *)skeleton + skeleton->parents_offset);
}

const ossa_transform *ossa_skeleton_rest_pose(const ossa_skeleton *skeleton)
{
    return (const ossa_transform *)(const void *)((const char *)skeleton +
                                                  skeleton->rest_offset);
}

static const uint32_t *name_offsets(const ossa_skeleton *skeleton)
{
    return (const uint32_t *)(const void *)((const char *)skeleton + skeleton->names_offset);
}

const char *ossa_skeleton_joint_name(const ossa_skeleton *skeleton, int joint)
{
    if (joint < 0 || (uint32_t)joint >= skeleton->joint_count)
        return NULL;
    return (const char *)skeleton + skeleton->strings_offset + name_offsets(skeleton)[joint];
}

int ossa_skeleton_find_joint(const ossa_skeleton *skeleton, const char *name)
{
    if (!name)
        return -1;
    for (uint32_t i = 0; i < skeleton->joint_count; ++i)
        if (strcmp(ossa_skeleton_joint_name(skeleton, (int)i), name) == 0)
            return (int)i;
    return -1;
}

bool ossa_skeleton_is_breadth_first(const ossa_skeleton *skeleton)
{
    return (skeleton->flags & OSSAI_SKELETON_BREADTH_FIRST) != 0;
}

int ossa_skeleton_max_depth(const ossa_skeleton *skeleton)
{
    return (int)skeleton->max_depth;
}

size_t ossa_skeleton_bytes(const ossa_skeleton *skeleton)
{
    return skeleton->bytes;
}

float ossa_skeleton_metres_per_unit(const ossa_skeleton *skeleton)
{
    return skeleton->metres_per_unit;
}
