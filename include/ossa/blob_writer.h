/* ossa/blob_writer.h - writing and loading .ossa files (pipeline).
 *
 * A blob holds at most one skeleton, any number of clips and meshes. Writing
 * goes to a temporary file in the destination's directory, flushed, then
 * renamed over the destination, so a reader never sees a half-written file
 * and a failure leaves no file behind. */
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

/* Serialises contents to path (temporary file + rename). */
ossa_result ossa_blob_write_file(const char *path, const ossa_blob_contents *contents,
                                 ossa_error *error);

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
