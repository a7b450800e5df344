/* json_out.h - the little JSON the tool writes (ossa info --json, ossa
 * dump --json): escaped strings and numbers that read back exactly. */
#ifndef OSSA_JSON_OUT_H
#define OSSA_JSON_OUT_H

#include <stdio.h>

/* "text" with quotes, backslashes and control characters escaped; null for
 * a NULL string. */
void json_string(FILE *to, const char *text);
/* A float as the shortest decimal that reads back to the same float; null
 * when not finite, which JSON cannot hold. */
void json_float(FILE *to, double value);

#endif /* OSSA_JSON_OUT_H */
