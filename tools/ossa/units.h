/* units.h - how the tool names a length unit given in metres per unit. */
#ifndef OSSA_UNITS_H
#define OSSA_UNITS_H

#include <stddef.h>

/* "metres", "centimetres", "millimetres", "inches", "feet", "unknown", or
 * "0.5 m" for any other length; written into buf, which is returned. */
const char *units_name(float metres_per_unit, char *buf, size_t size);

#endif /* OSSA_UNITS_H */
