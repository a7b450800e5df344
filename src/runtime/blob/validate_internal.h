/* validate_internal.h - the validation unit (blob/validate*.c): the bounds
 * check the section validators share, and the mesh validator ossa_blob_open
 * calls. Validators read the format (blob/format.h) directly and call no
 * accessor, so nothing outside this folder calls back into it. */
#ifndef OSSA_VALIDATE_INTERNAL_H
#define OSSA_VALIDATE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "ossa/result.h"
#include "ossa/skeleton.h"

/* Checks that an array of count elements of elem_bytes at offset lies inside
 * [0, limit) and is aligned. Fills *error naming `what` in `section`. */
ossa_result ossai_check_array(uint64_t limit, uint64_t offset, uint64_t count,
                              uint64_t elem_bytes, uint64_t alignment, const char *section,
                              const char *what, ossa_error *error);

/* The checks every section header starts with, in this order: data
 * present, 16-byte aligned, at least header_bytes, the tag, and the header's
 * `bytes` field (its second word) between header_bytes and bytes. */
ossa_result ossai_check_section_start(const void *data, size_t bytes, size_t header_bytes,
                                      uint32_t tag, const char *where, ossa_error *error);

/* Validates a mesh section against the blob's skeleton (NULL when none);
 * called by ossa_blob_open for every mesh section and by ossa_mesh_validate. */
ossa_result ossai_mesh_validate_section(const void *data, size_t bytes,
                                        const ossa_skeleton *skeleton, ossa_error *error);

struct ossa_clip;
/* The compressed part of a clip whose header ossa_clip_validate has checked
 * up to its name (blob/validate_packed.c). */
ossa_result ossai_clip_validate_packed(const struct ossa_clip *clip, const char *where,
                                       ossa_error *error);
/* Validates a clip's tracks block (blob/validate_tracks.c), when it has one:
 * called by the clip validator once the clip's own fields are checked. */
ossa_result ossai_clip_tracks_validate(const struct ossa_clip *clip, const char *where,
                                       ossa_error *error);

/* |q| within this of 1 is accepted as a unit quaternion in stored data. */
#define OSSAI_UNIT_TOLERANCE 1e-3f

#endif /* OSSA_VALIDATE_INTERNAL_H */
