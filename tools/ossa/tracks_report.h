/* tracks_report.h - the line `ossa build` and `ossa info` print under a
 * clip for its tracks block: the root motion (joint, one loop's travel and
 * turn) and the float tracks (count and names); and ossa build's check of
 * its --track names. */
#ifndef OSSA_TRACKS_REPORT_H
#define OSSA_TRACKS_REPORT_H

#include "ossa/ossa.h"
#include "ossa/pipeline.h"

/* Nothing when the clip has neither. skeleton may be NULL (joint numbers
 * instead of names); metres_per_unit 0 means unknown (model units). */
void tracks_report(const ossa_clip *clip, const ossa_skeleton *skeleton, float metres_per_unit);

/* 0 when every name (--track NODE) gave a float track (NODE.<channel>) to
 * some clip of the imports; else 1, with an error naming the first that
 * did not. */
int tracks_check_nodes(const ossa_import *imports, int import_count, const char *const *names,
                       int name_count);

#endif /* OSSA_TRACKS_REPORT_H */
