/* fbx_binary_writer.h - writes small FBX binary files (version 7400,
 * 32-bit record headers) for the importer's tests: records, their
 * properties (scalars, strings, arrays, optionally deflated with zlib) and
 * nested records. Header-only; a test includes it once. */
#ifndef OSSA_TEST_FBX_BINARY_WRITER_H
#define OSSA_TEST_FBX_BINARY_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define FBW_MAX_DEPTH 16

typedef struct fbw_open_record {
    size_t at;          /* where the record's header starts */
    size_t props_start; /* where its properties start */
    uint32_t count;     /* properties so far */
    bool props_done;    /* a child was opened: the property list is closed */
} fbw_open_record;

typedef struct fbw {
    unsigned char *data;
    size_t size, capacity;
    fbw_open_record open[FBW_MAX_DEPTH];
    int depth;
} fbw;

static void fbw_put(fbw *w, const void *bytes, size_t n)
{
    if (w->size + n > w->capacity) {
        w->capacity = (w->size + n) * 2 + 256;
        w->data = realloc(w->data, w->capacity);
        if (!w->data)
            abort();
    }
    memcpy(w->data + w->size, bytes, n);
    w->size += n;
}

static void fbw_u32_at(fbw *w, size_t at, uint32_t v)
{
    for (int k = 0; k < 4; ++k)
        w->data[at + (size_t)k] = (unsigned char)(v >> (8 * k));
}

static void fbw_le(fbw *w, uint64_t v, int bytes)
{
    unsigned char b[8];
    for (int k = 0; k < bytes; ++k)
        b[k] = (unsigned char)(v >> (8 * k));
    fbw_put(w, b, (size_t)bytes);
}

static void fbw_begin(fbw *w)
{
    memset(w, 0, sizeof *w);
    fbw_put(w, "Kaydara FBX Binary  \0\x1a\0", 23);
    fbw_le(w, 7400, 4);
}

static void fbw_close_props(fbw *w)
{
    if (w->depth == 0)
        return;
    fbw_open_record *r = &w->open[w->depth - 1];
    if (r->props_done)
        return;
    r->props_done = true;
    fbw_u32_at(w, r->at + 4, r->count);
    fbw_u32_at(w, r->at + 8, (uint32_t)(w->size - r->props_start));
}

/* Opens a record; its properties follow, then its children. */
static void fbw_open(fbw *w, const char *name)
{
    fbw_close_props(w);
    if (w->depth == FBW_MAX_DEPTH)
        abort();
    fbw_open_record *r = &w->open[w->depth++];
    r->at = w->size;
    fbw_le(w, 0, 4);
    fbw_le(w, 0, 4);
    fbw_le(w, 0, 4);
    const unsigned char n = (unsigned char)strlen(name);
    fbw_put(w, &n, 1);
    fbw_put(w, name, n);
    r->props_start = w->size;
    r->count = 0;
    r->props_done = false;
}

/* Closes the innermost record (children end with 13 zero bytes). */
static void fbw_close(fbw *w)
{
    static const unsigned char zeros[13];
    fbw_open_record *r = &w->open[w->depth - 1];
    const bool children = r->props_done;
    fbw_close_props(w);
    if (children)
        fbw_put(w, zeros, sizeof zeros);
    fbw_u32_at(w, r->at, (uint32_t)w->size);
    --w->depth;
}

static void fbw_type(fbw *w, char type)
{
    fbw_put(w, &type, 1);
    w->open[w->depth - 1].count++;
}

static void fbw_L(fbw *w, int64_t v)
{
    fbw_type(w, 'L');
    fbw_le(w, (uint64_t)v, 8);
}

static void fbw_I(fbw *w, int32_t v)
{
    fbw_type(w, 'I');
    fbw_le(w, (uint32_t)v, 4);
}

static void fbw_D(fbw *w, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, 8);
    fbw_type(w, 'D');
    fbw_le(w, bits, 8);
}

/* A string of n bytes (names hold "\0\1": "Name\0\1Class"). */
static void fbw_Sn(fbw *w, const char *s, size_t n)
{
    fbw_type(w, 'S');
    fbw_le(w, (uint32_t)n, 4);
    fbw_put(w, s, n);
}

static void fbw_S(fbw *w, const char *s)
{
    fbw_Sn(w, s, strlen(s));
}

/* "Name\0\1Class" */
static void fbw_name(fbw *w, const char *name, const char *cls)
{
    char s[256];
    const size_t a = strlen(name), b = strlen(cls);
    memcpy(s, name, a);
    s[a] = 0;
    s[a + 1] = 1;
    memcpy(s + a + 2, cls, b);
    fbw_Sn(w, s, a + 2 + b);
}

/* An array of n values of `type` ('l' int64, 'f' float, 'i' int32, 'd'
 * double) from doubles; deflated when `deflate`. length_override (when
 * not negative) is written as the array's length instead of n. */
static void fbw_array_ex(fbw *w, char type, const double *values, int n, bool deflate,
                         int64_t length_override)
{
    const size_t stride = type == 'l' || type == 'd' ? 8 : 4;
    unsigned char *raw = malloc(stride * (size_t)n + 1);
    if (!raw)
        abort();
    for (int k = 0; k < n; ++k) {
        uint64_t bits = 0;
        if (type == 'l') {
            bits = (uint64_t)(int64_t)values[k];
        } else if (type == 'i') {
            bits = (uint32_t)(int32_t)values[k];
        } else if (type == 'f') {
            const float f = (float)values[k];
            uint32_t b32;
            memcpy(&b32, &f, 4);
            bits = b32;
        } else {
            memcpy(&bits, &values[k], 8);
        }
        for (size_t b = 0; b < stride; ++b)
            raw[(size_t)k * stride + b] = (unsigned char)(bits >> (8 * b));
    }
    uLongf stored = compressBound((uLong)(stride * (size_t)n));
    unsigned char *packed = malloc(stored);
    if (!packed)
        abort();
    if (deflate) {
        if (compress(packed, &stored, raw, (uLong)(stride * (size_t)n)) != Z_OK)
            abort();
    } else {
        stored = (uLongf)(stride * (size_t)n);
        memcpy(packed, raw, stored);
    }
    fbw_type(w, type);
    fbw_le(w, (uint32_t)(length_override >= 0 ? length_override : n), 4);
    fbw_le(w, deflate ? 1 : 0, 4);
    fbw_le(w, (uint32_t)stored, 4);
    fbw_put(w, packed, stored);
    free(raw);
    free(packed);
}

static void fbw_array(fbw *w, char type, const double *values, int n, bool deflate)
{
    fbw_array_ex(w, type, values, n, deflate, -1);
}

/* The top level's null record; then the file is written to path. */
static bool fbw_save(fbw *w, const char *path)
{
    static const unsigned char zeros[13];
    fbw_put(w, zeros, sizeof zeros);
    FILE *f = fopen(path, "wb");
    const bool ok = f && fwrite(w->data, 1, w->size, f) == w->size;
    if (f && fclose(f) != 0)
        return false;
    free(w->data);
    w->data = NULL;
    return ok;
}

#endif /* OSSA_TEST_FBX_BINARY_WRITER_H */
