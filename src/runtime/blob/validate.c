/* validate.c - the bounds check every section validator uses: done in
 * 64-bit arithmetic on values read from untrusted bytes, before any pointer
 * is formed from them. */
#include "blob/validate_internal.h"

#include <string.h>

#include "ossa/blob.h"

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

ossa_result ossai_check_section_start(const void *data, size_t bytes, size_t header_bytes,
                                      uint32_t tag, const char *where, ossa_error *error)
{
    if (!data)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "%s: no data", where);
    if ((uintptr_t)data % OSSA_BLOB_MIN_ALIGNMENT != 0)
        return ossa_error_set(error, OSSA_ERR_BLOB_ALIGNMENT, -1, 0,
                              "%s: data is not %d-byte aligned", where, OSSA_BLOB_MIN_ALIGNMENT);
    if (bytes < header_bytes)
        return ossa_error_set(error, OSSA_ERR_BLOB_TRUNCATED, -1, 0,
                              "%s: %zu bytes, shorter than its %zu-byte header", where, bytes,
                              header_bytes);
    uint32_t start[2]; /* every section header starts with its tag and its size */
    memcpy(start, data, sizeof start);
    if (start[0] != tag) {
        const char name[5] = {(char)(tag & 0xFF), (char)(tag >> 8 & 0xFF),
                              (char)(tag >> 16 & 0xFF), (char)(tag >> 24), 0};
        return ossa_error_set(error, OSSA_ERR_BLOB_SECTION, -1, 0,
                              "%s: tag is 0x%08x, expected '%s'", where, start[0], name);
    }
    if (start[1] > bytes || start[1] < header_bytes)
        return ossa_error_set(error, OSSA_ERR_BLOB_SIZE, -1, 4,
                              "%s: field bytes = %u but the section holds %zu", where, start[1],
                              bytes);
    return OSSA_OK;
}
