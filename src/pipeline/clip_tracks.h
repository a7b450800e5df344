/* clip_tracks.h - what the clip builder does after a clip's frames are
 * baked: root motion extracted (root_motion_extract.c), float tracks baked,
 * and the tracks block appended (clip_tracks.c; the layout is docs/blob-format.md's).
 * Pipeline-internal. */
#ifndef OSSA_CLIP_TRACKS_H
#define OSSA_CLIP_TRACKS_H

#include "ossa/clip_builder.h"

/* Where the parts of a tracks block go (docs/blob-format.md): the header,
 * the motion (motion_bytes, 0 without), the float track values, their name
 * offsets and the strings; the block's size, 64-aligned. */
typedef struct ossai_tracks_layout {
    uint32_t motion_at, values_at;
    uint64_t names_at, strings_at, block;
} ossai_tracks_layout;
ossai_tracks_layout ossai_tracks_layout_make(uint64_t motion_bytes, uint32_t track_count,
                                             uint32_t frame_count, uint64_t strings_bytes);

/* Adds the tracks options ask for to *clip (built by the builder,
 * allocated with options->allocator): *clip is replaced by a copy with the
 * tracks block appended, the old one freed. Nothing to add leaves it as it
 * is. Fills the report's root motion and float track fields. On failure
 * *clip is unchanged (the caller frees it). */
ossa_result ossai_clip_add_tracks(ossa_clip **clip, const ossa_skeleton *skeleton,
                                  const ossa_clip_build_options *options,
                                  ossa_clip_build_report *report, ossa_error *error);

/* Appends the tracks block of `from` (a clip of the same frames) to *clip,
 * replaced by a copy (the old one freed); `from` without tracks leaves it as
 * it is. On failure *clip is unchanged. */
ossa_result ossai_clip_copy_tracks(ossa_clip **clip, const ossa_clip *from,
                                   const ossa_allocator *allocator, ossa_error *error);

/* The motion of one clip, extracted. */
typedef struct ossai_motion_extract {
    int joint;       /* the joint extracted, -1 when nothing moves */
    float *frames;   /* frame_count x (x, z, yaw, 0), caller memory */
    double travel;   /* path length of the motion's translation, summed frame to frame */
} ossai_motion_extract;

/* Chooses the joint (joint_name, or the automatic choice when NULL), fills
 * out->frames with its motion M(t) from frame 0 and rewrites its local keys
 * in clip so that the clip plays in place. out->joint is -1 (and the clip
 * untouched) when no joint moves. */
ossa_result ossai_root_motion_extract(ossa_clip *clip, const ossa_skeleton *skeleton,
                                      const char *joint_name, const ossa_allocator *allocator,
                                      ossai_motion_extract *out, ossa_error *error);

/* The local translation t and unit rotation q that put a joint whose
 * parent's model transform is `parent` (the identity for a root) at M^-1
 * times `model`, M the motion (x, z, yaw) of ossa/root_motion.h:
 * parent^-1 M^-1 model, whose columns are scaled by s (the joint's local
 * scale, kept). In double; what extraction writes into a clip's frames. */
void ossai_in_place_local(const double parent[3][4], const double model[3][4], double x,
                          double z, double yaw, const double s[3], double t[3], double q[4]);

#endif /* OSSA_CLIP_TRACKS_H */
