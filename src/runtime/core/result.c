/* result.c - messages for ossa_result codes and the ossa_error record. */
#include "ossa/result.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const messages[] = {
#define OSSA_RESULT_MSG_(name, msg) msg,
    OSSA_RESULT_LIST(OSSA_RESULT_MSG_)
#undef OSSA_RESULT_MSG_
};

static const char *const names[] = {
#define OSSA_RESULT_NAME_(name, msg) #name,
    OSSA_RESULT_LIST(OSSA_RESULT_NAME_)
#undef OSSA_RESULT_NAME_
};

const char *ossa_result_str(ossa_result result)
{
    if ((unsigned)result >= (unsigned)OSSA_RESULT_COUNT)
        return "unknown result";
    return messages[result];
}

const char *ossa_result_name(ossa_result result)
{
    if ((unsigned)result >= (unsigned)OSSA_RESULT_COUNT)
        return "UNKNOWN";
    return names[result];
}

void ossa_error_clear(ossa_error *error)
{
    if (!error)
        return;
    memset(error, 0, sizeof *error);
    error->index = -1;
    error->offset = -1;
}

ossa_result ossa_error_set(ossa_error *error, ossa_result code, int index, int64_t offset,
                           const char *format, ...)
{
    if (!error)
        return code;
    error->code = code;
    error->index = index;
    error->offset = offset;
    va_list args;
    va_start(args, format);
    int n = vsnprintf(error->message, sizeof error->message, format, args);
    va_end(args);
    if (n < 0)
        snprintf(error->message, sizeof error->message, "%s", ossa_result_str(code));
    return code;
}
