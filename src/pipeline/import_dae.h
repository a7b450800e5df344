/* import_dae.h - the Collada element walk shared by the preflight
 * (import_dae_check.c) and the reader of animated custom values
 * (import_dae_props.c): a visitor sees every start and end tag. */
#ifndef OSSA_IMPORT_DAE_H
#define OSSA_IMPORT_DAE_H

#include <stdbool.h>
#include <stddef.h>

#include "import_internal.h"

/* A start tag "<name ...>" ([tag, tag_end], tag_end at its '>') with the
 * text that follows it up to the next '<' (content), or an end tag
 * (closing: name only). Empty elements ("<x/>") have no end tag. */
typedef struct ossai_dae_element {
    const char *tag, *tag_end;
    const char *name;
    size_t name_length;
    const char *content, *content_end;
    bool closing, empty;
} ossai_dae_element;

typedef struct ossai_dae_visitor {
    ossa_result (*visit)(void *context, const ossai_dae_element *element);
    void *context;
} ossai_dae_visitor;

/* Where the value of attribute `name` of the tag [tag, tag_end) is; false
 * when absent. */
bool ossai_dae_attribute(const char *tag, const char *tag_end, const char *name,
                         const char **value, size_t *length);

typedef struct ossai_dae_reader ossai_dae_reader;

/* A reader for one import: keeps the channels that animate a single
 * number inside an <extra> element, and those options->track_nodes names. */
ossai_dae_reader *ossai_dae_reader_begin(ossa_import *im, const char *path,
                                         const ossa_import_options *options, ossa_error *error,
                                         ossai_dae_visitor *visitor);
/* After the walk (data still alive): the tracks, or a clear error. */
ossa_result ossai_dae_reader_finish(ossai_dae_reader *reader, const ossai_dae_info *info,
                                    ossai_file_tracks *out);
void ossai_dae_reader_free(ossai_dae_reader *reader);

#endif /* OSSA_IMPORT_DAE_H */
