/* ossa/blob_writer.h - writing and loading .ossa files (pipeline).
 *
 * A blob holds at most one skeleton, any number of clips and meshes. Writing
 * goes to a temporary file in the destination's directory, flushed, then
 * renamed over the destination, so a reader never sees a half-written file
 * and a failure leaves no file behind. Only a regular file is replaced: a
 * destination that is a symbolic link (not followed), a FIFO, a device, a
 * directory or a socket is refused with OSSA_ERR_IO and a message saying
 * which. */
#ifndef OSSA_BLOB_WRITER_H
#define OSSA_BLOB_WRITER_H

#include "allocator.h"
#include "blob.h"
#include "result.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ossa_blob_contents {
    const ossa_skeleton *skeleton; /* may be NULL */
    const ossa_clip *const *clips;
    int clip_count;
    const ossa_mesh *const *meshes;
    int mesh_count;
} ossa_blob_contents;

/* Serialises contents into one allocation of 64-byte aligned memory:
 * *out_data, *out_bytes; free it with ossa_free(allocator, *out_data). */
ossa_result ossa_blob_write_memory(const ossa_blob_contents *contents,
                                   const ossa_allocator *allocator, void **out_data,
                                   size_t *out_bytes, ossa_error *error);

/* Serialises contents to path (temporary file + rename). path must not
 * exist or be a regular file (see above). */
ossa_result ossa_blob_write_file(const char *path, const ossa_blob_contents *contents,
                                 ossa_error *error);

/* Whether ossa_blob_write_file could write path now: path is absent or a
 * regular file, and its directory takes a new file (a temporary file is
 * created there and removed). For tools that check their output before long
 * work; the write checks again. */
ossa_result ossa_blob_output_check(const char *path, ossa_error *error);

/* Reads a whole file with one read into 64-byte aligned memory from allocator
 * (freed with ossa_free). Does not validate: pass the bytes to ossa_blob_open. */
ossa_result ossa_file_read(const char *path, const ossa_allocator *allocator, void **out_data,
                           size_t *out_bytes, ossa_error *error);

/* ossa_file_read + ossa_blob_open. On success free *out_data with ossa_free.
 * (The runtime alone reads a blob into memory of the caller's:
 * ossa_blob_file_bytes and ossa_blob_file_read in blob.h.) */
ossa_result ossa_blob_load_file(const char *path, const ossa_allocator *allocator,
                                ossa_blob *blob, void **out_data, ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_BLOB_WRITER_H */
