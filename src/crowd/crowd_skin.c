/* crowd_skin.c - the crowd's skinned characters skinned inside their batch,
 * straight from their palettes (slot order: no slot -> entity -> slot trip)
 * into the caller's vertex buffer, as float4 or packed vertices (packed with
 * the mesh's skin plan, kept in the crowd's memory). */
#include "crowd_internal.h"

#include "ossa/skinning_job.h"

ossa_result ossa_crowd_set_skin_output(ossa_crowd *crowd, const ossa_crowd_skin_output *output)
{
    if (!crowd || !output)
        return OSSA_ERR_MISSING_INPUT;
    if (!output->vertices) {
        crowd->skin_out = *output;
        return OSSA_OK;
    }
    const size_t alignment = ossa_skin_output_alignment(output->format);
    if (!crowd->mesh || alignment == 0)
        return OSSA_ERR_BAD_ARGUMENT;
    if ((uintptr_t)output->vertices % alignment != 0 || output->character_stride % alignment != 0)
        return OSSA_ERR_MISALIGNED;
    if (output->character_stride < ossa_skin_output_bytes(crowd->mesh, output->format))
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    if ((unsigned)output->path >= OSSA_SIMD_PATH_COUNT)
        return OSSA_ERR_BAD_ARGUMENT;
    if (!ossa_simd_path_supported(output->path))
        return OSSA_ERR_UNSUPPORTED;
    crowd->skin_out = *output;
    return OSSA_OK;
}

ossa_result ossai_crowd_skin_output_fits(const ossa_crowd *c)
{
    const ossa_crowd_skin_output *o = &c->skin_out;
    if (!o->vertices)
        return OSSA_OK;
    const size_t skinned = (size_t)c->bucket_end[BUCKET_SKINNED];
    if (skinned == 0)
        return OSSA_OK;
    /* the last character needs only its mesh bytes, not a whole stride */
    const size_t need =
        (skinned - 1) * o->character_stride + ossa_skin_output_bytes(c->mesh, o->format);
    return o->vertices_bytes < need ? OSSA_ERR_OUTPUT_TOO_SMALL : OSSA_OK;
}

ossa_result ossai_crowd_skin_batch(const ossa_crowd *c, int first, int n)
{
    const ossa_crowd_skin_output *o = &c->skin_out;
    const int skinned = c->bucket_end[BUCKET_SKINNED] - first;
    if (!o->vertices || skinned <= 0)
        return OSSA_OK;
    ossai_crowd_stage(c, OSSA_CROWD_STAGE_SKIN);
    const int count = skinned < n ? skinned : n;
    ossa_skinning_job job = {0};
    job.mesh = c->mesh;
    job.palette_count = c->skin_joint_count;
    job.format = o->format;
    job.plan = o->format == OSSA_SKIN_FORMAT_PACKED ? c->skin_plan : NULL;
    job.output_bytes = ossa_skin_output_bytes(c->mesh, o->format);
    job.path = o->path;
    job.stream_output = o->stream_output;
    for (int s = first; s < first + count; ++s) {
        job.palette = c->palette + (size_t)s * (size_t)c->skin_joint_count;
        job.output = (unsigned char *)o->vertices + (size_t)s * o->character_stride;
        const ossa_result r = ossa_skinning_job_run(&job);
        if (r != OSSA_OK)
            return r;
    }
    return OSSA_OK;
}
