/* ossa/ossa.h - the runtime (libossa): everything a program needs to play
 * animations. Depends on nothing but the C library and libm.
 *
 * ---- map ----
 * Data (loaded once, read-only, used in place; any number of threads):
 *   blob.h          the .ossa container: open and validate, find sections
 *   skeleton.h      joints: parents (parent < child), rest pose, names
 *   clip.h          a clip's keys, duration, wrap modes
 *   mesh.h          a skinned mesh: bind-pose stream sorted by influence count
 *
 * The frame, stage by stage. Each stage is a job: a plain struct of inputs
 * (const pointer and count side by side), options and caller-owned outputs,
 * with _validate and _run (run validates first and writes nothing when the
 * job is invalid). A zeroed field is a valid default. Jobs allocate nothing,
 * lock nothing and keep no state, and work on a range of characters (or
 * batches, or vertices), so threads may run disjoint ranges of one job.
 *
 *   stage          one character at a time          characters in SIMD lanes (lanes.h)
 *   1 sample       ossa_sampling_job                ossa_lane_sampling_job
 *                  (sampling_job.h)
 *   2 blend        ossa_blending_job                ossa_lane_blending_job
 *                  (blending_job.h)
 *   3 local->model ossa_local_to_model_job (3x4),   ossa_lane_local_to_model_job
 *                  ossa_local_to_model_qvs_job
 *                  (local_to_model_job.h)
 *   4 palette      ossa_palette_job (palette_job.h) ossa_lane_palette_job, and
 *                                                   ossa_lane_pose_out_job (the
 *                                                   characters' joint matrices)
 *   5 skin         ossa_skinning_job (skinning_job.h): vertices of one character
 *   after 3: IK    ossa_ik_two_bone_job,            ossa_lane_ik_two_bone_job,
 *                  ossa_ik_aim_job (ik.h): local    ossa_lane_ik_aim_job (ik.h)
 *                  corrections, then 3 again
 *
 * Beside the stages: the motion a clip carries its character between two
 * playheads (root_motion.h: ossa_root_motion_job, ossa_lane_root_motion_job);
 * a clip's float tracks and their events (tracks.h); where something held by
 * a joint is (socket.h).
 *
 * The one-character jobs are the readable reference every fast path is
 * tested against. Lane jobs lay W characters side by side ([joint][component]
 * [character]) and run stages 1-4 with vertical SIMD; they end in ordinary
 * per-character matrices. Counts and indices are int; sizes in bytes are
 * size_t. Lane and skinning jobs pick an instruction-set path (simd.h).
 *
 * Support: math.h (vectors, quaternions, 3x4 matrices), result.h (result
 * codes and error records), simd.h (paths).
 *
 * The whole frame for a crowd - update, palettes and skinning on any range of
 * batches - is libossa_crowd (ossa/crowd.h); the importer, builders and blob
 * writer are libossa_pipeline (ossa/pipeline.h). */
#ifndef OSSA_OSSA_H
#define OSSA_OSSA_H

#include "blending_job.h"
#include "blob.h"
#include "clip.h"
#include "ik.h"
#include "lane_order.h"
#include "lanes.h"
#include "local_to_model_job.h"
#include "math.h"
#include "mesh.h"
#include "palette_job.h"
#include "result.h"
#include "root_motion.h"
#include "sampling_job.h"
#include "simd.h"
#include "skeleton.h"
#include "skinning_job.h"
#include "socket.h"
#include "tracks.h"

#define OSSA_VERSION_MAJOR 0
#define OSSA_VERSION_MINOR 1
#define OSSA_VERSION_PATCH 0

#endif /* OSSA_OSSA_H */
