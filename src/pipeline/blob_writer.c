/* blob_writer.c - serialising sections into a .ossa blob, writing it
 * atomically (temporary file + rename), and reading files with one read. */
#define _POSIX_C_SOURCE 200809L
#include "ossa/blob_writer.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blob/format.h"

/* Every section header starts with (tag, bytes). */
static uint32_t section_bytes(const void *section)
{
    uint32_t bytes;
    memcpy(&bytes, (const char *)section + 4, 4);
    return bytes;
}

static uint64_t align64(uint64_t v)
{
    return (v + 63u) & ~(uint64_t)63u;
}

ossa_result ossa_blob_write_memory(const ossa_blob_contents *contents,
                                   const ossa_allocator *allocator, void **out_data,
                                   size_t *out_bytes, ossa_error *error)
{
    ossa_error_clear(error);
    if (!out_data || !out_bytes)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "blob: no output");
    *out_data = NULL;
    *out_bytes = 0;
    if (!contents || contents->clip_count < 0 || contents->mesh_count < 0 ||
        (contents->clip_count > 0 && !contents->clips) ||
        (contents->mesh_count > 0 && !contents->meshes))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "blob: no contents");

    const int count = (contents->skeleton ? 1 : 0) + contents->clip_count + contents->mesh_count;
    typedef struct placed {
        const void *data;
        uint32_t kind;
        uint64_t offset;
    } placed;
    placed *list = ossa_alloc(allocator, sizeof(placed) * (size_t)(count > 0 ? count : 1), 16);
    if (!list)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "blob: out of memory");
    int k = 0;
    if (contents->skeleton)
        list[k++] = (placed){contents->skeleton, OSSA_SECTION_SKELETON, 0};
    for (int i = 0; i < contents->clip_count; ++i)
        list[k++] = (placed){contents->clips[i], OSSA_SECTION_CLIP, 0};
    for (int i = 0; i < contents->mesh_count; ++i)
        list[k++] = (placed){contents->meshes[i], OSSA_SECTION_MESH, 0};
    for (int i = 0; i < count; ++i)
        if (!list[i].data) {
            ossa_free(allocator, list);
            return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, i, -1,
                                  "blob: section %d is NULL", i);
        }

    uint64_t cursor = align64(sizeof(ossai_blob_header) + (uint64_t)count * sizeof(ossai_section));
    for (int i = 0; i < count; ++i) {
        list[i].offset = cursor;
        cursor = align64(cursor + section_bytes(list[i].data));
    }
    const uint64_t total = cursor;
    unsigned char *data = total <= SIZE_MAX ? ossa_alloc(allocator, (size_t)total, 64) : NULL;
    if (!data) {
        ossa_free(allocator, list);
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "blob: out of memory for %llu bytes", (unsigned long long)total);
    }
    memset(data, 0, (size_t)total);
    ossai_blob_header header;
    memset(&header, 0, sizeof header);
    memcpy(header.magic, OSSAI_MAGIC_BYTES, 8);
    header.version = OSSA_BLOB_VERSION;
    header.endian = OSSAI_ENDIAN_TAG;
    header.total_bytes = total;
    header.header_bytes = sizeof header;
    header.section_count = (uint32_t)count;
    header.section_table_offset = sizeof header;
    for (int i = 0; i < count; ++i) {
        ossai_section entry;
        memset(&entry, 0, sizeof entry);
        entry.kind = list[i].kind;
        entry.offset = list[i].offset;
        entry.bytes = section_bytes(list[i].data);
        memcpy(data + sizeof header + (size_t)i * sizeof entry, &entry, sizeof entry);
        memcpy(data + list[i].offset, list[i].data, (size_t)entry.bytes);
    }
    ossa_free(allocator, list);
    memcpy(data, &header, sizeof header);
    /* header.checksum is zero in data while the CRC runs. */
    header.checksum = ossa_crc32c(0, data, (size_t)total);
    memcpy(data + OSSAI_CHECKSUM_OFFSET, &header.checksum, 4);
    *out_data = data;
    *out_bytes = (size_t)total;
    return OSSA_OK;
}

/* What an existing path is, for a refusal; NULL for a regular file. */
static const char *not_regular(mode_t mode)
{
    if (S_ISREG(mode))
        return NULL;
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

/* path must be absent or a regular file: a symlink is not followed (nor
 * replaced), a FIFO, device, directory or socket is never written through
 * or replaced. */
static ossa_result check_destination(const char *path, ossa_error *error)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return OSSA_OK;
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: %s", path, strerror(errno));
    }
    const char *what = not_regular(st.st_mode);
    if (what)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1,
                              "%s: is %s; ossa writes only to a new or a regular file (give "
                              "another path, or -o - for standard output)",
                              path, what);
    return OSSA_OK;
}

/* A new temporary file beside path (its name in *tmp, to free with
 * ossa_free): the file the write goes to before its rename over path. */
static ossa_result make_temporary(const char *path, char **tmp, int *fd, ossa_error *error)
{
    const size_t len = strlen(path);
    *fd = -1;
    *tmp = ossa_alloc(NULL, len + 16, 1);
    if (!*tmp)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
    memcpy(*tmp, path, len);
    memcpy(*tmp + len, ".tmp-XXXXXX", 12);
    *fd = mkstemp(*tmp);
    if (*fd < 0) {
        const int e = errno;
        ossa_free(NULL, *tmp);
        *tmp = NULL;
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot create a file there: %s",
                              path, strerror(e));
    }
    return OSSA_OK;
}

ossa_result ossa_blob_output_check(const char *path, ossa_error *error)
{
    ossa_error_clear(error);
    if (!path || !*path)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1, "blob: no output path");
    ossa_result r = check_destination(path, error);
    char *tmp = NULL;
    int fd = -1;
    if (r || (r = make_temporary(path, &tmp, &fd, error)))
        return r;
    close(fd);
    unlink(tmp);
    ossa_free(NULL, tmp);
    return OSSA_OK;
}

ossa_result ossa_blob_write_file(const char *path, const ossa_blob_contents *contents,
                                 ossa_error *error)
{
    ossa_error_clear(error);
    if (!path || !*path)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1, "blob: no output path");
    ossa_result r = check_destination(path, error);
    if (r)
        return r;
    void *data = NULL;
    size_t bytes = 0;
    if ((r = ossa_blob_write_memory(contents, NULL, &data, &bytes, error)) != OSSA_OK)
        return r;

    char *tmp = NULL;
    int fd = -1;
    FILE *f = NULL;
    if ((r = make_temporary(path, &tmp, &fd, error)))
        goto fail;
    f = fdopen(fd, "wb");
    if (!f) {
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: %s", path, strerror(errno));
        goto fail;
    }
    fd = -1;
    if (fwrite(data, 1, bytes, f) != bytes || fflush(f) != 0 || fsync(fileno(f)) != 0) {
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: write failed: %s", path,
                           strerror(errno));
        goto fail;
    }
    /* mkstemp creates 0600; give the file the usual permissions. */
    (void)fchmod(fileno(f), 0644);
    if (fclose(f) != 0) {
        f = NULL;
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: write failed: %s", path,
                           strerror(errno));
        goto fail;
    }
    f = NULL;
    /* Checked again just before the rename, which replaces the directory
     * entry itself (never what a link points to): what appeared at path
     * while the blob was being written is refused as well. */
    if ((r = check_destination(path, error)))
        goto fail;
    if (rename(tmp, path) != 0) {
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot replace it: %s", path,
                           strerror(errno));
        goto fail;
    }
    ossa_free(NULL, tmp);
    ossa_free(NULL, data);
    return OSSA_OK;

fail:
    if (f)
        fclose(f);
    if (fd >= 0)
        close(fd);
    if (tmp)
        unlink(tmp);
    ossa_free(NULL, tmp);
    ossa_free(NULL, data);
    return r;
}

ossa_result ossa_file_read(const char *path, const ossa_allocator *allocator, void **out_data,
                           size_t *out_bytes, ossa_error *error)
{
    ossa_error_clear(error);
    if (!out_data || !out_bytes)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "read: no output");
    *out_data = NULL;
    *out_bytes = 0;
    if (!path)
        return ossa_error_set(error, OSSA_ERR_BAD_ARGUMENT, -1, -1, "read: no path");
    FILE *f = fopen(path, "rb");
    if (!f)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot open: %s", path,
                              strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: not a regular file", path);
    }
    size_t bytes = (size_t)st.st_size;
    void *data = ossa_alloc(allocator, bytes ? bytes : 1, 64);
    if (!data) {
        fclose(f);
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "%s: out of memory for %zu bytes", path, bytes);
    }
    size_t got = fread(data, 1, bytes, f);
    int failed = ferror(f);
    fclose(f);
    if (got != bytes || failed) {
        ossa_free(allocator, data);
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: read %zu of %zu bytes", path, got,
                              bytes);
    }
    *out_data = data;
    *out_bytes = bytes;
    return OSSA_OK;
}

ossa_result ossa_blob_load_file(const char *path, const ossa_allocator *allocator,
                                ossa_blob *blob, void **out_data, ossa_error *error)
{
    size_t bytes = 0;
    ossa_result r = ossa_file_read(path, allocator, out_data, &bytes, error);
    if (r != OSSA_OK)
        return r;
    r = ossa_blob_open(blob, *out_data, bytes, OSSA_BLOB_DEFAULT, error);
    if (r != OSSA_OK) {
        if (error) {
            char inner[sizeof error->message];
            memcpy(inner, error->message, sizeof inner);
            ossa_error_set(error, r, error->index, error->offset, "%s: %s", path, inner);
        }
        ossa_free(allocator, *out_data);
        *out_data = NULL;
    }
    return r;
}
