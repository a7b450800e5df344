/* units.c - see units.h. */
#include "units.h"

#include <math.h>
#include <stdio.h>

const char *units_name(float metres_per_unit, char *buf, size_t size)
{
    static const struct {
        double metres;
        const char *name;
    } known[] = {{1.0, "metres"},     {0.01, "centimetres"}, {0.001, "millimetres"},
                 {0.0254, "inches"}, {0.3048, "feet"},      {1000.0, "kilometres"}};
    const double m = metres_per_unit;
    if (!(m > 0.0)) {
        snprintf(buf, size, "unknown");
        return buf;
    }
    for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
        if (fabs(m - known[i].metres) <= 1e-6 * known[i].metres) {
            snprintf(buf, size, "%s", known[i].name);
            return buf;
        }
    snprintf(buf, size, "%g m", m);
    return buf;
}
