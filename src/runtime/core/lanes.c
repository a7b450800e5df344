/* lanes.c - batch widths and sizes of the lane layout, and the plan of a lane
 * job's run. */
#include "core/job_internal.h"
#include "core/lane_internal.h"

int ossa_lane_width(void)
{
    return ossai_simd_vector_width(ossa_simd_best_path());
}

int ossai_lane_resolve_width(int width)
{
    if (width == 0)
        return ossa_lane_width();
    return width == 4 || width == 8 || width == 16 ? width : 0;
}

int ossa_lane_batch_count(int character_count, int width)
{
    width = ossai_lane_resolve_width(width);
    if (!width || character_count < 0)
        return 0;
    return (int)(((int64_t)character_count + width - 1) / width);
}

/* Floats of a lane buffer, or 0 on a bad argument or when they would not
 * fit in an int (the type of every count). */
static int lane_floats(int joint_count, int character_count, int width, int components)
{
    width = ossai_lane_resolve_width(width);
    if (!width || joint_count < 1 || character_count < 0)
        return 0;
    const int64_t floats = (int64_t)ossa_lane_batch_count(character_count, width) * joint_count *
                           components * width;
    return floats > INT32_MAX ? 0 : (int)floats;
}

int ossa_lane_pose_floats(int joint_count, int character_count, int width)
{
    return lane_floats(joint_count, character_count, width, OSSA_LANE_POSE_COMPONENTS);
}

int ossa_lane_model_floats(int joint_count, int character_count, int width)
{
    return lane_floats(joint_count, character_count, width, OSSA_LANE_MODEL_COMPONENTS);
}

ossai_lane_plan ossai_lane_plan_make(ossa_simd_path path, int width, int characters,
                                     int batch_begin, int batch_end)
{
    ossai_lane_plan p;
    p.width = ossai_lane_resolve_width(width);
    p.path = ossai_simd_select(path, p.width);
    ossai_job_range(batch_begin, batch_end, ossa_lane_batch_count(characters, p.width), &p.begin,
                    &p.end);
    return p;
}
