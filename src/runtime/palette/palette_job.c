/* palette_job.c - skinning matrices: model[skin_joint[k]] * inverse_bind[k]. */
#include "ossa/palette_job.h"

#include "core/job_internal.h"
#include "core/math_internal.h"

ossa_result ossa_palette_job_validate(const ossa_palette_job *job)
{
    if (!job || (!job->model && !job->model_qvs))
        return OSSA_ERR_MISSING_INPUT;
    if (job->model && job->model_qvs)
        return OSSA_ERR_BAD_ARGUMENT;
    if (job->joint_count < 1 || job->character_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    const int64_t models = (int64_t)job->character_count * job->joint_count;
    if (job->model_count < models)
        return OSSA_ERR_INPUT_TOO_SMALL;
    if (!job->skin_joint || !job->inverse_bind)
        return OSSA_ERR_MISSING_INPUT;
    if (job->skin_joint_count < 1)
        return OSSA_ERR_INPUT_TOO_SMALL;
    int begin, end;
    ossa_result r;
    if ((r = ossai_check_skin_joints(job->skin_joint, job->skin_joint_count, job->joint_count)) ||
        (r = ossai_job_range(job->character_begin, job->character_end, job->character_count, &begin,
                             &end)))
        return r;
    if (!job->palette)
        return OSSA_ERR_MISSING_OUTPUT;
    if (job->palette_count < (int64_t)job->character_count * job->skin_joint_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    return OSSA_OK;
}

ossa_result ossa_palette_job_run(const ossa_palette_job *job)
{
    ossa_result r = ossa_palette_job_validate(job);
    if (r != OSSA_OK)
        return r;
    int begin = job->character_begin, end = job->character_end;
    if (begin == 0 && end == 0)
        end = job->character_count;
    const size_t joints = (size_t)job->joint_count, skins = (size_t)job->skin_joint_count;
    for (int i = begin; i < end; ++i) {
        ossa_mat34 *restrict out = job->palette + (size_t)i * skins;
        if (job->model) {
            const ossa_mat34 *model = job->model + (size_t)i * joints;
            for (size_t k = 0; k < skins; ++k)
                ossai_mat34_mul(&out[k], &model[job->skin_joint[k]], &job->inverse_bind[k]);
        } else {
            const ossa_qvs *model = job->model_qvs + (size_t)i * joints;
            for (size_t k = 0; k < skins; ++k) {
                ossa_mat34 m = ossa_mat34_from_qvs(model[job->skin_joint[k]]);
                ossai_mat34_mul(&out[k], &m, &job->inverse_bind[k]);
            }
        }
    }
    return OSSA_OK;
}
