/* validate_internal.h - bounds checks shared by the section validators.
 * Every check is done in 64-bit arithmetic on values read from untrusted
 * bytes, before any pointer is formed from them. */
#ifndef OSSA_VALIDATE_INTERNAL_H
#define OSSA_VALIDATE_INTERNAL_H

#include <stdint.h>

#include "ossa/result.h"

/* Checks that an array of count elements of elem_bytes at offset lies inside
 * [0, limit) and is aligned. Fills *error naming `what` in `section`. */
ossa_result ossai_check_array(uint64_t limit, uint64_t offset, uint64_t count,
                              uint64_t elem_bytes, uint64_t alignment, const char *section,
                              const char *what, ossa_error *error);

/* |q| within this of 1 is accepted as a unit quaternion in stored data. */
#define OSSAI_UNIT_TOLERANCE 1e-3f

#endif /* OSSA_VALIDATE_INTERNAL_H */
