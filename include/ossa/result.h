/* ossa/result.h - result codes and the error record shared by every module.
 *
 * Every fallible ossa function returns an ossa_result; 0 is OSSA_OK. Codes and
 * their messages come from one X-macro list so they cannot drift apart.
 * Functions that can say more (blob validation, the pipeline) also fill an
 * ossa_error with a one-line message naming what is wrong and where. */
#ifndef OSSA_RESULT_H
#define OSSA_RESULT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* X(name, message). Append only: the numeric values are part of the ABI. */
#define OSSA_RESULT_LIST(X)                                                              \
    X(OK, "success")                                                                     \
    /* jobs: inputs and outputs */                                                       \
    X(ERR_MISSING_INPUT, "a required input pointer is NULL")                             \
    X(ERR_INPUT_TOO_SMALL, "an input holds fewer elements than the job needs")           \
    X(ERR_MISSING_OUTPUT, "the output pointer is NULL")                                  \
    X(ERR_OUTPUT_TOO_SMALL, "the output holds fewer elements than the job writes")       \
    X(ERR_BAD_RANGE, "the character or joint range lies outside the inputs")             \
    X(ERR_COUNT_MISMATCH, "two inputs disagree on a count (joints, characters)")         \
    X(ERR_BAD_INDEX, "an index is out of range")                                         \
    X(ERR_BAD_VALUE, "a value is out of range or not finite")                            \
    X(ERR_MISALIGNED, "a buffer is not aligned as required")                             \
    X(ERR_BAD_ARGUMENT, "an argument is invalid")                                        \
    /* resources */                                                                      \
    X(ERR_OUT_OF_MEMORY, "out of memory")                                                \
    X(ERR_IO, "a file could not be read or written")                                     \
    /* blobs */                                                                          \
    X(ERR_BLOB_TRUNCATED, "the blob is shorter than its contents require")               \
    X(ERR_BLOB_MAGIC, "not an ossa blob (bad magic)")                                    \
    X(ERR_BLOB_VERSION, "unsupported blob version")                                      \
    X(ERR_BLOB_ENDIAN, "the blob was written with the other byte order")                 \
    X(ERR_BLOB_SIZE, "the blob's recorded size does not match its length")               \
    X(ERR_BLOB_CHECKSUM, "the blob's checksum does not match its contents")              \
    X(ERR_BLOB_SECTION, "a section's kind, offset or size is invalid")                   \
    X(ERR_BLOB_ALIGNMENT, "the blob or one of its arrays is misaligned")                 \
    X(ERR_BLOB_INVARIANT, "the blob's data breaks an invariant")                         \
    /* builders */                                                                       \
    X(ERR_SKELETON_EMPTY, "the skeleton has no joints")                                  \
    X(ERR_SKELETON_TOO_MANY_JOINTS, "the skeleton has more joints than fit")             \
    X(ERR_SKELETON_UNKNOWN_PARENT, "a joint's parent does not exist")                    \
    X(ERR_SKELETON_CYCLE, "the joint hierarchy contains a cycle")                        \
    X(ERR_SKELETON_DUPLICATE_NAME, "two joints have the same name")                      \
    X(ERR_CLIP_EMPTY, "the clip has no keys or no duration")                             \
    X(ERR_CLIP_BAD_KEYS, "a track's keys are not finite or go back in time")             \
    X(ERR_CLIP_TOO_LARGE, "the clip would have too many frames")                         \
    X(ERR_NOT_FOUND, "a named item does not exist")                                      \
    X(ERR_UNSUPPORTED, "the input uses a feature ossa does not support")                 \
    X(ERR_IMPORT, "the importer could not read the file")                                \
    X(ERR_MESH_EMPTY, "the mesh has no vertices or no triangles")                        \
    X(ERR_MESH_BAD_INDEX, "a triangle refers to a vertex that does not exist")           \
    X(ERR_MESH_BAD_WEIGHTS, "a vertex has no usable skin weights")                       \
    X(ERR_MESH_BAD_JOINT, "a skin influence refers to a joint that does not exist")      \
    X(ERR_MESH_TOO_LARGE, "the mesh has more vertices or joints than fit")               \
    /* crowd */                                                                          \
    X(ERR_STALE_ID, "the entity id is stale: that entity was despawned")                 \
    X(ERR_FULL, "the container is at its capacity")

typedef enum ossa_result {
#define OSSA_RESULT_ENUM_(name, msg) OSSA_##name,
    OSSA_RESULT_LIST(OSSA_RESULT_ENUM_)
#undef OSSA_RESULT_ENUM_
    OSSA_RESULT_COUNT
} ossa_result;

/* The fixed message for a code; never NULL ("unknown result" out of range). */
const char *ossa_result_str(ossa_result result);

/* The code's name without the OSSA_ prefix, e.g. "ERR_BLOB_TRUNCATED". */
const char *ossa_result_name(ossa_result result);

/* What went wrong and where. Filled by blob validation and by the pipeline.
 * A zeroed ossa_error means "no error". */
typedef struct ossa_error {
    ossa_result code;   /* OSSA_OK when nothing is wrong */
    int index;          /* joint, key, vertex... index concerned; -1 when none */
    int64_t offset;     /* byte offset in the blob or file concerned; -1 when none */
    char message[320];  /* one line, no trailing newline: what is wrong and where */
} ossa_error;

/* Sets *error (when error is not NULL) and returns code. The message is a
 * printf-style format. Used by ossa itself; available to callers who build on
 * the same conventions. */
ossa_result ossa_error_set(ossa_error *error, ossa_result code, int index, int64_t offset,
                           const char *format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Resets *error to "no error" (code OSSA_OK, index and offset -1). */
void ossa_error_clear(ossa_error *error);

#ifdef __cplusplus
}
#endif

#endif /* OSSA_RESULT_H */
