/* import_gltf.h - a small reader for the parts of glTF 2.0 files the
 * importer needs beyond assimp: the JSON document (import_gltf_doc.c), its
 * buffers - external files, data: URIs, the GLB binary chunk
 * (import_gltf_buffer.c) - and accessors as floats (import_gltf_accessor.c).
 * Every count, offset and stride is checked against the bytes that exist. */
#ifndef OSSA_IMPORT_GLTF_H
#define OSSA_IMPORT_GLTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "import_internal.h"

struct cJSON;

/* Accessor component types (glTF 2.0 section 3.6.2.2). */
enum {
    OSSAI_GLTF_BYTE = 5120,
    OSSAI_GLTF_UNSIGNED_BYTE = 5121,
    OSSAI_GLTF_SHORT = 5122,
    OSSAI_GLTF_UNSIGNED_SHORT = 5123,
    OSSAI_GLTF_UNSIGNED_INT = 5125,
    OSSAI_GLTF_FLOAT = 5126
};

typedef struct ossai_gltf_buffer {
    unsigned char *data; /* NULL until loaded */
    size_t bytes;
    bool owned;          /* data was allocated for it (else it is in the GLB) */
} ossai_gltf_buffer;

typedef struct ossai_gltf {
    ossa_import *im;
    ossa_error *error;
    const char *path;
    struct cJSON *json;
    unsigned char *file; /* the whole file (GLB) or NULL */
    const unsigned char *bin; /* GLB binary chunk, or NULL */
    size_t bin_bytes;
    ossai_gltf_buffer *buffers;
    int buffer_count;
    /* Top-level arrays indexed once (cJSON arrays are linked lists). */
    struct {
        const char *name;
        struct cJSON **items;
        int count;
    } arrays[16];
    int array_count;
} ossai_gltf;

/* Reads and parses path (.gltf JSON or .glb). Buffers load on first use. */
ossa_result ossai_gltf_open(ossai_gltf *g, ossa_import *im, const char *path,
                            ossa_error *error);
void ossai_gltf_close(ossai_gltf *g);
/* Reads a regular file of at least min_bytes whole into memory from the
 * import's allocator (one zero byte past the end; freed with ossa_free). */
ossa_result ossai_gltf_read_file(ossai_gltf *g, const char *path, size_t min_bytes,
                                 unsigned char **out, size_t *out_bytes);

/* Checks a glTF / GLB file before assimp reads it: the container and JSON
 * parse, and none of the valid constructs that crash assimp 5.2 is present
 * (import_gltf_check.c). glTF 1.0 files pass unchecked. */
ossa_result ossai_gltf_preflight(ossa_import *im, const char *path, ossa_error *error);

/* The index-th element of the top-level array `name` ("nodes", ...) when it
 * is an object, or NULL. Constant time after the first call per array. */
struct cJSON *ossai_gltf_item(ossai_gltf *g, const char *name, int index);
/* Number of elements of the top-level array `name` (0 when absent). */
int ossai_gltf_count(ossai_gltf *g, const char *name);
/* Integer member of an object: *out = value, or `fallback` when absent.
 * False (and *error set, naming `what`) when present but not a non-negative
 * integer below 2^31. */
bool ossai_gltf_int(const ossai_gltf *g, const struct cJSON *object, const char *member,
                    int fallback, int *out, const char *what);

/* Checks that `count` elements of `element` bytes, `stride` apart (the
 * view's byteStride, else packed), starting `offset` bytes into bufferView
 * `view_index`, lie inside the view and the view inside its buffer (loaded
 * on first use); *base receives the first. packed: sparse indices or
 * values, whose view must have no byteStride. `who` names the user in
 * errors ("accessor 3 sparse.values"); error_index goes to error->index. */
ossa_result ossai_gltf_view_locate(ossai_gltf *g, int view_index, int offset, int count,
                                   uint64_t element, bool packed, int error_index,
                                   const char *who, const unsigned char **base, size_t *stride);

/* The sparse part of an accessor (glTF 2.0 section 3.6.2.3): `count`
 * elements substituted for the base ones at strictly increasing indices. */
typedef struct ossai_gltf_sparse {
    int count;                    /* 0: not sparse */
    const unsigned char *indices; /* count indices, index_bytes each, packed */
    int index_bytes;              /* 1, 2 or 4 */
    const unsigned char *values;  /* count elements, packed */
} ossai_gltf_sparse;

/* Where an accessor's elements are, checked against its views and buffers. */
typedef struct ossai_gltf_accessor {
    const unsigned char *base; /* first base element, NULL without a buffer view (zeros) */
    size_t stride;             /* bytes between base elements */
    int count, components, component_type, component_bytes;
    bool normalized;
    ossai_gltf_sparse sparse;
} ossai_gltf_accessor;

/* Reads accessor `index` and checks all of it against the file: type,
 * count, views, buffers and its sparse part (count, index type, ranges,
 * indices strictly increasing and below count). `what` names the use in
 * errors ("animation 0 channel 2"), or NULL. */
ossa_result ossai_gltf_accessor_get(ossai_gltf *g, int index, ossai_gltf_accessor *out,
                                    const char *what);
/* The bytes of element `element` as the file defines it: its sparse
 * substitute, else its base element; NULL when that is zeros. */
const unsigned char *ossai_gltf_element(const ossai_gltf_accessor *a, int element);
/* Component `component` of element `element` of an unsigned integer
 * accessor (UINT32_MAX for other component types). */
uint32_t ossai_gltf_index(const ossai_gltf_accessor *a, int element, int component);

/* Reads accessor `index` as `components` floats per element into memory
 * from the import (normalised integers converted as the glTF spec says,
 * sparse substitutes applied). *count receives the element count. `what`
 * names the use in errors. */
ossa_result ossai_gltf_read_floats(ossai_gltf *g, int index, int components, float **out,
                                   int *count, const char *what);

#endif /* OSSA_IMPORT_GLTF_H */
