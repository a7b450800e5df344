/* validate_skeleton.c - the skeleton section's validator: every count,
 * offset and value checked before anything reads the section. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "blob/format.h"
#include "blob/validate_internal.h"
#include "core/math_internal.h"

ossa_result ossa_skeleton_validate(const void *data, size_t bytes, const ossa_skeleton **out,
                                   ossa_error *error)
{
    const char *where = "skeleton";
    ossa_result r;
    if (out)
        *out = NULL;
    if ((r = ossai_check_section_start(data, bytes, sizeof(ossa_skeleton), OSSAI_TAG_SKELETON, where,
                                       error)))
        return r;
    const ossa_skeleton *s = (const ossa_skeleton *)data;
    if (s->joint_count == 0 || s->joint_count > OSSA_MAX_JOINTS)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 8,
                              "%s: joint_count = %u, must be 1..%d", where, s->joint_count,
                              OSSA_MAX_JOINTS);
    if (s->flags & ~OSSAI_SKELETON_BREADTH_FIRST)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 12,
                              "%s: unknown flags 0x%x", where, s->flags);
    if (!isfinite(s->metres_per_unit) || s->metres_per_unit < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 40,
                              "%s: metres_per_unit = %g, must be finite and >= 0", where,
                              (double)s->metres_per_unit);
    for (size_t k = 0; k < sizeof s->reserved / sizeof s->reserved[0]; ++k)
        if (s->reserved[k] != 0)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1,
                                  (int64_t)(offsetof(ossa_skeleton, reserved) + 4 * k),
                                  "%s: reserved word %zu is 0x%x, not 0", where, k,
                                  s->reserved[k]);
    const uint64_t n = s->joint_count, limit = s->bytes;
    if ((r = ossai_check_array(limit, s->parents_offset, n, 2, 16, where, "parents", error)))
        return r;
    if ((r = ossai_check_array(limit, s->rest_offset, n, sizeof(ossa_transform), 16, where,
                               "rest pose", error)))
        return r;
    if ((r = ossai_check_array(limit, s->names_offset, n, 4, 4, where, "name offsets", error)))
        return r;
    if ((r = ossai_check_array(limit, s->strings_offset, s->strings_bytes, 1, 1, where,
                               "names", error)))
        return r;
    if (s->strings_bytes == 0 ||
        ((const char *)s)[s->strings_offset + s->strings_bytes - 1] != '\0')
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, s->strings_offset,
                              "%s: the name table does not end with a NUL", where);

    const uint16_t *parents = (const uint16_t *)(const void *)((const char *)s + s->parents_offset);
    const ossa_transform *rest =
        (const ossa_transform *)(const void *)((const char *)s + s->rest_offset);
    const uint32_t *names = (const uint32_t *)(const void *)((const char *)s + s->names_offset);
    /* max_depth is informational (written by the builder, shown by tools):
     * recomputing it needs per-joint scratch or quadratic time, so it is only
     * bounded here. */
    if (s->max_depth >= n)
        return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, -1, 16,
                              "%s: max_depth = %u but there are only %u joints", where,
                              s->max_depth, s->joint_count);
    for (uint32_t i = 0; i < n; ++i) {
        uint16_t p = parents[i];
        if (p != OSSA_NO_PARENT && p >= i)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)i,
                                  s->parents_offset + 2 * (int64_t)i,
                                  "%s: joint %u has parent %u, parents must come first", where,
                                  i, p);
        if (names[i] >= s->strings_bytes)
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)i,
                                  s->names_offset + 4 * (int64_t)i,
                                  "%s: joint %u's name offset %u is past the %u-byte name table",
                                  where, i, names[i], s->strings_bytes);
        const ossa_transform *t = &rest[i];
        float qlen = sqrtf(t->rotation.x * t->rotation.x + t->rotation.y * t->rotation.y +
                           t->rotation.z * t->rotation.z + t->rotation.w * t->rotation.w);
        if (!ossai_isfinite3(t->translation) || !ossai_isfinite3(t->scale) ||
            !(fabsf(qlen - 1.0f) <= OSSAI_UNIT_TOLERANCE))
            return ossa_error_set(error, OSSA_ERR_BLOB_INVARIANT, (int)i,
                                  s->rest_offset + (int64_t)sizeof(ossa_transform) * i,
                                  "%s: joint %u's rest transform is not finite or its "
                                  "rotation is not a unit quaternion", where, i);
    }
    if (out)
        *out = s;
    return OSSA_OK;
}
