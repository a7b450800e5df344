/* blob_file.c - a blob file read whole into caller memory with the C
 * library's stdio (no allocation, no other I/O), then opened in place. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ossa/blob.h"

/* errno's text when the C library set it (POSIX does; C11 need not). */
static const char *why(int saved)
{
    return saved ? strerror(saved) : "unknown error";
}

ossa_result ossa_blob_file_bytes(const char *path, size_t *bytes, ossa_error *error)
{
    if (!bytes)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "blob file: no bytes output");
    *bytes = 0;
    if (!path || !path[0])
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1, "blob file: no path");
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot open: %s", path,
                              why(errno));
    /* One byte read first: a directory opens on POSIX but does not read,
     * and its "size" would be meaningless. */
    errno = 0;
    const int first = fgetc(f);
    if (first == EOF && ferror(f)) {
        const int saved = errno;
        fclose(f);
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot read: %s", path,
                              why(saved));
    }
    errno = 0;
    long end = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        end = ftell(f);
    const int saved = errno;
    fclose(f);
    if (end < 0)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot find its size: %s", path,
                              why(saved));
#if LONG_MAX > SIZE_MAX
    if ((unsigned long)end > SIZE_MAX)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1,
                              "%s: %ld bytes do not fit in this process's memory", path, end);
#endif
    *bytes = (size_t)end;
    return OSSA_OK;
}

/* The file's exact bytes into memory: a file shorter or longer than bytes
 * changed since it was measured, and is refused. */
static ossa_result read_exactly(const char *path, void *memory, size_t bytes, ossa_error *error)
{
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot open: %s", path,
                              why(errno));
    errno = 0;
    const size_t got = fread(memory, 1, bytes, f);
    ossa_result r = OSSA_OK;
    if (got < bytes && ferror(f))
        r = ossa_error_set(error, OSSA_ERR_IO, -1, (int64_t)got,
                           "%s: read failed after %zu of %zu bytes: %s", path, got, bytes,
                           why(errno));
    else if (got < bytes)
        r = ossa_error_set(error, OSSA_ERR_IO, -1, (int64_t)got,
                           "%s: short read: the file ended after %zu of the %zu bytes expected "
                           "(did it change since its size was taken?)",
                           path, got, bytes);
    else if (fgetc(f) != EOF)
        r = ossa_error_set(error, OSSA_ERR_IO, -1, (int64_t)bytes,
                           "%s: the file is longer than the %zu bytes expected (did it change "
                           "since its size was taken?)",
                           path, bytes);
    fclose(f);
    return r;
}

ossa_result ossa_blob_file_read(ossa_blob *blob, const char *path, void *memory, size_t bytes,
                                unsigned flags, ossa_error *error)
{
    if (!blob)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "blob file: no blob output");
    memset(blob, 0, sizeof *blob);
    if (!path || !path[0])
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1, "blob file: no path");
    if (!memory)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1,
                              "%s: no memory to read %zu bytes into", path, bytes);
    if ((uintptr_t)memory % OSSA_BLOB_MIN_ALIGNMENT != 0)
        return ossa_error_set(error, OSSA_ERR_MISALIGNED, -1, -1,
                              "%s: the memory to read into is not %d-byte aligned (address %% "
                              "%d = %u)",
                              path, OSSA_BLOB_MIN_ALIGNMENT, OSSA_BLOB_MIN_ALIGNMENT,
                              (unsigned)((uintptr_t)memory % OSSA_BLOB_MIN_ALIGNMENT));
    ossa_result r = read_exactly(path, memory, bytes, error);
    if (r != OSSA_OK)
        return r;
    r = ossa_blob_open(blob, memory, bytes, flags, error);
    if (r != OSSA_OK && error) {
        /* The blob's own message says what and where inside; the path leads. */
        char inner[sizeof error->message];
        memcpy(inner, error->message, sizeof inner);
        ossa_error_set(error, r, error->index, error->offset, "%s: %s", path, inner);
    }
    return r;
}
