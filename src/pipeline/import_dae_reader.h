/* import_dae_reader.h - the state of the Collada custom value reader,
 * shared by its two halves: gathering while the preflight walks the XML
 * (import_dae_props.c) and resolving channels into tracks
 * (import_dae_resolve.c). Only they include it. */
#ifndef OSSA_IMPORT_DAE_READER_H
#define OSSA_IMPORT_DAE_READER_H

#include <string.h>

#include "import_dae.h"

/* Elements nest at most this deep (the preflight refuses deeper). */
#define STACK_DEPTH (OSSA_IMPORT_MAX_DEPTH + 64)

enum kind { D_OTHER, D_NODE, D_SOURCE, D_SAMPLER, D_ANIMATION, D_CLIP, D_ARRAY, D_EXTRA };

typedef struct span {
    const char *s;
    size_t n;
} span;

typedef struct idref {
    span id, label; /* label: the name attribute, else the id */
    int kind, index;
    int parent; /* the nearest enclosing element with an id, or -1 */
} idref;

typedef struct sidref {
    span sid, element, content;
    int owner; /* the nearest enclosing element with an id, or -1 */
    bool in_extra;
} sidref;

typedef struct array {
    span content;
    uint64_t count;
    bool names;
} array;

typedef struct source {
    span array; /* the accessor's source: "#id" */
    int stride;
} source;

typedef struct sampler {
    span input, output, interpolation;
} sampler;

typedef struct channel {
    span source, target;
    int animation; /* idref of the outermost <animation>, or -1 */
} channel;

typedef struct instance {
    int clip;
    span url;
} instance;

typedef struct open_element {
    int kind, index, id;
} open_element;

#define LIST(type, name)                                                                       \
    type *name;                                                                                \
    int name##_count, name##_capacity

struct ossai_dae_reader {
    ossa_import *im;
    const char *path;
    const ossa_import_options *options;
    ossa_error *error;
    LIST(idref, ids);
    LIST(sidref, sids);
    LIST(array, arrays);
    LIST(source, sources);
    LIST(sampler, samplers);
    LIST(channel, channels);
    LIST(instance, instances);
    int clip_count;
    open_element stack[STACK_DEPTH];
    int depth, overflow, extras;
};


static inline bool span_is(span a, span b)
{
    return a.n == b.n && (a.n == 0 || memcmp(a.s, b.s, a.n) == 0);
}

#endif /* OSSA_IMPORT_DAE_READER_H */
