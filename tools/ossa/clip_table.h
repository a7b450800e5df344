/* clip_table.h - the clip table `ossa build` and `ossa info` print: per
 * clip its length, rate and keys, raw bytes (ten float32 per joint per frame,
 * ACL's definition) against stored bytes, and the largest error in the clip
 * metric with the joint and time where it is. */
#ifndef OSSA_CLIP_TABLE_H
#define OSSA_CLIP_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "ossa/ossa.h"

/* Raw bytes of a clip: 10 float32 x joints x frames. */
size_t clip_table_raw_bytes(const ossa_clip *clip);
/* Millimetres per model unit (units unknown: taken as metres, *assumed set). */
double clip_table_mm_per_unit(const ossa_skeleton *skeleton, bool *assumed);

void clip_table_header(bool with_source);
/* One row; source (the input file) and skeleton (names, units) may be NULL.
 * Returns whether the error's units were assumed. */
bool clip_table_row(const ossa_clip *clip, const ossa_skeleton *skeleton, const char *source);
/* Under a compressed clip's row: its tracks animated, constant and at the
 * rest pose per kind, and the values and bits one frame stores. */
void clip_table_tracks(const ossa_clip *clip);
/* A footnote when some row's units were assumed. */
void clip_table_footnote(bool assumed);
/* The row's fields as JSON members (no braces), for ossa info --json, with
 * "tracks" (ossa_clip_get_tracks; kinds in the order translation, rotation,
 * scale). */
void clip_table_json(FILE *to, const ossa_clip *clip, const ossa_skeleton *skeleton);

#endif /* OSSA_CLIP_TABLE_H */
