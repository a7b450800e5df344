/* validate.c - the bounds check every section validator uses: done in
 * 64-bit arithmetic on values read from untrusted bytes, before any pointer
 * is formed from them. */
#include "blob/validate_internal.h"

ossa_result ossai_check_array(uint64_t limit, uint64_t offset, uint64_t count,
                              uint64_t elem_bytes, uint64_t alignment, const char *section,
                              const char *what, ossa_error *error)
{
    if (offset % alignment != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_ALIGNMENT, -1, (int64_t)offset,
                              "%s: %s at offset %llu is not %llu-byte aligned", section, what,
                              (unsigned long long)offset, (unsigned long long)alignment);
    if (elem_bytes != 0 && count > (UINT64_MAX / 2) / elem_bytes)
        return ossa_error_set(error, OSSA_ERR_BLOB_TRUNCATED, -1, (int64_t)offset,
                              "%s: %s count %llu is impossibly large", section, what,
                              (unsigned long long)count);
    uint64_t size = count * elem_bytes;
    if (offset > limit || size > limit - offset)
        return ossa_error_set(error, OSSA_ERR_BLOB_TRUNCATED, -1, (int64_t)offset,
                              "%s: %s (%llu bytes at offset %llu) runs past the section's end "
                              "(%llu bytes)",
                              section, what, (unsigned long long)size,
                              (unsigned long long)offset, (unsigned long long)limit);
    return OSSA_OK;
}
