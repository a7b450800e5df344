/* json_out.c - see json_out.h. */
#include "json_out.h"

#include <math.h>
#include <stdlib.h>

void json_string(FILE *to, const char *text)
{
    if (!text) {
        fputs("null", to);
        return;
    }
    fputc('"', to);
    for (const unsigned char *p = (const unsigned char *)text; *p; ++p) {
        switch (*p) {
        case '"': fputs("\\\"", to); break;
        case '\\': fputs("\\\\", to); break;
        case '\n': fputs("\\n", to); break;
        case '\r': fputs("\\r", to); break;
        case '\t': fputs("\\t", to); break;
        default:
            if (*p < 0x20)
                fprintf(to, "\\u%04x", *p);
            else
                fputc(*p, to);
        }
    }
    fputc('"', to);
}

void json_float(FILE *to, double value)
{
    if (!isfinite(value)) {
        fputs("null", to);
        return;
    }
    /* The shortest text that reads back to the same float (9 digits always
     * do): 0.3f prints as 0.3, not 0.300000012. */
    const float f = (float)value;
    char text[32];
    for (int digits = 6; digits <= 9; ++digits) {
        snprintf(text, sizeof text, "%.*g", digits, (double)f);
        if (strtof(text, NULL) == f)
            break;
    }
    fputs(text, to);
}
