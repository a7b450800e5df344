/* ossa/blob.h - the .ossa file: skeletons, clips and meshes in one aligned blob.
 *
 * A blob is a 64-byte header (magic, version, byte order, total size, CRC-32C
 * checksum) followed by a section table and 64-byte aligned sections; inside
 * sections every reference is a byte offset, never a pointer. Load the whole
 * file with one read (or mmap it) into memory aligned to at least 16 bytes,
 * call ossa_blob_open once, and use the data in place: ossa_blob_open checks
 * every count, offset, alignment and invariant first and never reads outside
 * [data, data + bytes). The format is described in docs/blob-format.md.
 * Thread safety: a validated blob is read-only; share it freely. */
#ifndef OSSA_BLOB_H
#define OSSA_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "clip.h"
#include "result.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define OSSA_BLOB_VERSION 2u
/* Alignment the memory handed to ossa_blob_open must have. */
#define OSSA_BLOB_MIN_ALIGNMENT 16
/* Alignment of every section inside a blob (and the best for the buffer). */
#define OSSA_BLOB_SECTION_ALIGNMENT 64

typedef struct ossa_mesh ossa_mesh;

typedef enum ossa_section_kind {
    OSSA_SECTION_NONE = 0,
    OSSA_SECTION_SKELETON,
    OSSA_SECTION_CLIP,
    OSSA_SECTION_MESH,
    OSSA_SECTION_COUNT
} ossa_section_kind;

typedef enum ossa_blob_flags {
    OSSA_BLOB_DEFAULT = 0,
    OSSA_BLOB_SKIP_CHECKSUM = 1 /* trust the bytes' integrity, still check structure */
} ossa_blob_flags;

/* What a validated blob holds. Filled by ossa_blob_open; points into its data. */
typedef struct ossa_blob {
    const void *data;
    size_t bytes;
    uint32_t version;
    uint32_t checksum;
    const ossa_skeleton *skeleton; /* NULL when the blob holds no skeleton */
    int clip_count;
    int mesh_count;
    int section_count;
} ossa_blob;

/* Validates data[0, bytes) and describes it in *blob. flags: ossa_blob_flags.
 * On failure returns the code, fills *error (when not NULL) with a message
 * naming the section and field, and leaves *blob zeroed. */
ossa_result ossa_blob_open(ossa_blob *blob, const void *data, size_t bytes, unsigned flags,
                           ossa_error *error);

/* Loading a file with the C library alone, into memory the caller owns:
 *     size_t bytes;
 *     ossa_blob_file_bytes("hero.ossa", &bytes, &error);
 *     void *memory = aligned_alloc(64, (bytes + 63) / 64 * 64);  (or a static arena)
 *     ossa_blob_file_read(&blob, "hero.ossa", memory, bytes, 0, &error);
 * The memory must outlive the blob; free it when done with the blob. */

/* The size in bytes of the file at path: how much memory to hand to
 * ossa_blob_file_read. OSSA_ERR_IO with a message naming the file when it
 * cannot be opened or read (a directory, say). */
ossa_result ossa_blob_file_bytes(const char *path, size_t *bytes, ossa_error *error);
/* Reads the file at path, which must be exactly `bytes` long (what
 * ossa_blob_file_bytes said), into memory (at least bytes, aligned to
 * OSSA_BLOB_MIN_ALIGNMENT; OSSA_BLOB_SECTION_ALIGNMENT is best) with one
 * fread, then opens it in place as ossa_blob_open(blob, memory, bytes, flags,
 * error) does. Errors name the file: OSSA_ERR_MISALIGNED for memory not
 * 16-byte aligned, OSSA_ERR_IO when the file cannot be read or is shorter or
 * longer than bytes (it changed since it was measured), else the blob's own
 * code and message. On failure *blob is zeroed. */
ossa_result ossa_blob_file_read(ossa_blob *blob, const char *path, void *memory, size_t bytes,
                                unsigned flags, ossa_error *error);

/* The index-th clip (0 <= index < clip_count), or NULL. Constant time. */
const ossa_clip *ossa_blob_clip(const ossa_blob *blob, int index);
/* Index of the first clip with this name, or -1. One pass over the clips. */
int ossa_blob_find_clip(const ossa_blob *blob, const char *name);
/* The index-th mesh (0 <= index < mesh_count), or NULL. */
const ossa_mesh *ossa_blob_mesh(const ossa_blob *blob, int index);

/* Section i's kind, offset and size; OSSA_SECTION_NONE when i is out of range. */
ossa_section_kind ossa_blob_section(const ossa_blob *blob, int index, uint64_t *offset,
                                    uint64_t *bytes);

/* Validate one section's bytes on their own (what ossa_blob_open does for each
 * section). data must be 16-byte aligned. On success *out points into data. */
ossa_result ossa_skeleton_validate(const void *data, size_t bytes, const ossa_skeleton **out,
                                   ossa_error *error);
ossa_result ossa_clip_validate(const void *data, size_t bytes, const ossa_clip **out,
                               ossa_error *error);

/* CRC-32C (Castagnoli) of bytes, continuing from crc (start with 0). */
uint32_t ossa_crc32c(uint32_t crc, const void *data, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_BLOB_H */
