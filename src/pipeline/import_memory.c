/* import_memory.c - the import's memory: a list of blocks from the caller's
 * allocator, all freed by ossa_import_free, and the warnings list. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_internal.h"

/* Each block starts with a 16-byte header holding the next block. */
typedef struct block {
    struct block *next;
    void *pad_;
} block;

_Static_assert(sizeof(block) == 16, "block header keeps data 16-byte aligned");

#define MAX_WARNINGS 64

void *ossai_import_alloc(ossa_import *im, size_t count, size_t elem_bytes)
{
    if (elem_bytes && count > (SIZE_MAX - sizeof(block)) / elem_bytes)
        return NULL;
    const size_t bytes = count * elem_bytes;
    block *b = ossa_alloc(&im->allocator_, sizeof(block) + bytes, 16);
    if (!b)
        return NULL;
    memset(b, 0, sizeof(block) + bytes);
    b->next = im->blocks_;
    im->blocks_ = b;
    return b + 1;
}

bool ossai_import_grow(void **array, int *capacity, int count, size_t element)
{
    if (count < *capacity)
        return true;
    const int more = *capacity ? 2 * *capacity : 32;
    if (more <= *capacity || (size_t)more > SIZE_MAX / element)
        return false;
    void *grown = realloc(*array, element * (size_t)more);
    if (!grown)
        return false;
    *array = grown;
    *capacity = more;
    return true;
}

char *ossai_import_strdup(ossa_import *im, const char *s)
{
    const size_t n = strlen(s) + 1;
    char *copy = ossai_import_alloc(im, n, 1);
    if (copy)
        memcpy(copy, s, n);
    return copy;
}

bool ossai_import_warn(ossa_import *im, const char *format, ...)
{
    if (im->warning_count > MAX_WARNINGS)
        return true;
    /* The array is rebuilt one longer each time: warnings are few. */
    const char **list = ossai_import_alloc(im, (size_t)im->warning_count + 1, sizeof(char *));
    if (!list)
        return false;
    if (im->warning_count)
        memcpy(list, im->warnings, sizeof(char *) * (size_t)im->warning_count);
    char line[320];
    if (im->warning_count == MAX_WARNINGS) {
        snprintf(line, sizeof line, "(more warnings left out)");
    } else {
        va_list args;
        va_start(args, format);
        vsnprintf(line, sizeof line, format, args);
        va_end(args);
    }
    list[im->warning_count] = ossai_import_strdup(im, line);
    if (!list[im->warning_count])
        return false;
    im->warnings = list;
    im->warning_count++;
    return true;
}

void ossai_import_release(ossa_import *im)
{
    block *b = im->blocks_;
    while (b) {
        block *next = b->next;
        ossa_free(&im->allocator_, b);
        b = next;
    }
    im->blocks_ = NULL;
}

void ossa_import_free(ossa_import *import)
{
    if (!import)
        return;
    ossai_import_release(import);
    memset(import, 0, sizeof *import);
}

int ossa_raw_skeleton_find(const ossa_raw_skeleton *skeleton, const char *name)
{
    if (!skeleton || !name)
        return -1;
    for (int i = 0; i < skeleton->joint_count; ++i)
        if (skeleton->joints[i].name && strcmp(skeleton->joints[i].name, name) == 0)
            return i;
    return -1;
}

const ossa_raw_joint_track *ossa_raw_clip_find_track(const ossa_raw_clip *clip,
                                                     const char *joint_name)
{
    if (!clip || !joint_name)
        return NULL;
    for (int i = 0; i < clip->track_count; ++i)
        if (clip->tracks[i].joint_name && strcmp(clip->tracks[i].joint_name, joint_name) == 0)
            return &clip->tracks[i];
    return NULL;
}

const char *ossa_source_format_name(ossa_source_format format)
{
    switch (format) {
    case OSSA_SOURCE_GLTF: return "glTF 2.0";
    case OSSA_SOURCE_FBX: return "FBX";
    case OSSA_SOURCE_COLLADA: return "Collada";
    case OSSA_SOURCE_OTHER: return "other";
    default: return "unknown";
    }
}
