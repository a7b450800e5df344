/* import_fbx.h - the FBX record walk (binary and ASCII) shared by the preflight
 * (import_fbx_check.c) and the reader of animated properties
 * (import_fbx_props.c, import_fbx_curves.c): a visitor sees every record
 * once its properties are checked, and reads them with ossai_fbx_value_at
 * (import_fbx_records.c). */
#ifndef OSSA_IMPORT_FBX_H
#define OSSA_IMPORT_FBX_H

#include <stdbool.h>
#include <stdint.h>

#include "import_internal.h"

/* FBX time: ticks per second; key times ossa reads (2^62 ticks, some 3
 * years: times and offsets stay exact int64 arithmetic in double range). */
#define OSSAI_FBX_TICKS_PER_SECOND 46186158000.0
#define OSSAI_FBX_MAX_TICKS 4611686018427387904.0

/* One record whose properties were checked: binary (count properties in
 * [props_at, props_end)) or ASCII (text: the values' text there, e.g.
 * `100, "Model::Root", "Null"`; an array's values are the text of its
 * child record `a`). */
typedef struct ossai_fbx_record {
    const unsigned char *data; /* the whole file */
    const unsigned char *name;
    uint64_t name_length;
    uint64_t props_at, props_end, count;
    int depth; /* 0 for top-level records */
    bool text; /* an ASCII file's */
} ossai_fbx_record;

/* One property. Scalars and strings: bytes, size (ASCII: an integer is
 * 'L', any other number 'D', their text at bytes). Binary arrays: length
 * values of `type` ('f' 'd' 'l' 'i' 'b' 'c'), stored in size bytes at
 * bytes, deflated when encoding is 1. ASCII arrays: type 't', length
 * numbers written in the size bytes at bytes. */
typedef struct ossai_fbx_value {
    char type;
    const unsigned char *bytes;
    uint64_t size;
    uint64_t length;
    uint32_t encoding;
    uint64_t at; /* offset of the property in the file, for messages */
    bool text;   /* ASCII: bytes hold the value's text */
} ossai_fbx_value;

/* Called for each record in file order, parents before children; a
 * non-OK result stops the walk with that result. */
typedef struct ossai_fbx_visitor {
    ossa_result (*visit)(void *context, const ossai_fbx_record *record);
    void *context;
} ossai_fbx_visitor;

/* import_fbx_records.c: property `index` of a visited record; false when
 * it has fewer. */
bool ossai_fbx_value_at(const ossai_fbx_record *record, uint64_t index, ossai_fbx_value *out);
/* Little-endian unsigned integer of `bytes` bytes. */
uint64_t ossai_fbx_le(const unsigned char *p, int bytes);
bool ossai_fbx_name_is(const unsigned char *name, uint64_t length, const char *text);
/* Bytes of a scalar property's value by its type code (0: not a scalar). */
uint64_t ossai_fbx_scalar_size(char type);
/* Whether a type code is an array's ('f' 'd' 'l' 'i' 'b' 'c'). */
bool ossai_fbx_is_array(char type);
/* An integer property (binary 'L' 'I' 'Y' 'C', or ASCII text); 0 else. */
int64_t ossai_fbx_int(const ossai_fbx_value *value);
/* An ASCII record's whole value text as an array (type 't'). */
ossai_fbx_value ossai_fbx_text_array(const ossai_fbx_record *record);

/* ---- animated properties (import_fbx_props.c) ---- */

/* The reader's state while the preflight walks the file. */
typedef struct ossai_fbx_reader ossai_fbx_reader;

/* A reader for one import: keeps the curves of animated user properties
 * and of the properties options->track_nodes names. */
ossai_fbx_reader *ossai_fbx_reader_begin(ossa_import *im, const char *path,
                                         const ossa_import_options *options,
                                         ossa_error *error, ossai_fbx_visitor *visitor);
/* After the walk (data still alive): the tracks, or a clear error. */
ossa_result ossai_fbx_reader_finish(ossai_fbx_reader *reader, ossai_file_tracks *out);
/* Releases what the reader held outside the import. */
void ossai_fbx_reader_free(ossai_fbx_reader *reader);

/* import_fbx_curves.c: one AnimationCurve's keys as a track (times in
 * seconds from offset_ticks; STEP when every key is constant, else LINEAR).
 * curve_id and name are for messages. */
ossa_result ossai_fbx_curve_track(ossa_import *im, const char *path,
                                  int64_t curve_id, const char *name,
                                  const ossai_fbx_value arrays[4], int64_t offset_ticks,
                                  ossa_raw_float_track *out, ossa_error *error);
/* An array property's values as doubles (inflated when deflated): its
 * length values, or NULL with *error set. */
double *ossai_fbx_array(ossa_import *im, const char *path, const ossai_fbx_value *value,
                        const char *what, ossa_error *error);

#endif /* OSSA_IMPORT_FBX_H */
