/* import_fbx_curves.c - one FBX AnimationCurve's keys as a float track:
 * its arrays decoded (inflated with zlib when deflated) and checked: as
 * many times as values, times increasing, values finite. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "import_fbx.h"

/* FBX key attribute flags: the interpolation bits. */
#define FBX_INTERP_CONSTANT 0x2u

static uint64_t stride_of(char type)
{
    return type == 'd' || type == 'l' ? 8 : type == 'f' || type == 'i' ? 4 : 1;
}

bool ossai_text_numbers(const char *text, size_t size, double *out, uint64_t count,
                        uint64_t *bad)
{
    const char *c = text, *end = text + size;
    for (uint64_t k = 0; k < count; ++k) {
        while (c < end && (isspace((unsigned char)*c) || *c == ','))
            ++c;
        char number[64];
        size_t n = 0;
        while (c + n < end && !isspace((unsigned char)c[n]) && c[n] != ',' &&
               n < sizeof number - 1)
            ++n;
        memcpy(number, c, n);
        number[n] = '\0';
        char *stop = NULL;
        out[k] = strtod(number, &stop);
        if (n == 0 || *stop != '\0') {
            *bad = k;
            return false;
        }
        c += n;
    }
    return true;
}

/* An ASCII array: its numbers. */
static double *text_array(ossa_import *im, const char *path, const ossai_fbx_value *value,
                          const char *what, ossa_error *error)
{
    double *out = ossai_import_alloc(im, (size_t)value->length + 1, sizeof *out);
    if (!out) {
        ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory for %s", path,
                       what);
        return NULL;
    }
    uint64_t bad = 0;
    if (!ossai_text_numbers((const char *)value->bytes, (size_t)value->size, out, value->length,
                            &bad)) {
        ossa_error_set(error, OSSA_ERR_IMPORT, -1, (int64_t)value->at,
                       "%s: at byte %llu: %s: value %llu is not a number", path,
                       (unsigned long long)value->at, what, (unsigned long long)bad);
        return NULL;
    }
    return out;
}

double *ossai_fbx_array(ossa_import *im, const char *path, const ossai_fbx_value *value,
                        const char *what, ossa_error *error)
{
    if (value->type == 't')
        return text_array(im, path, value, what, error);
    const uint64_t stride = stride_of(value->type), bytes = value->length * stride;
    /* The preflight bounded bytes (below 4 GB, and what the stored bytes can
     * hold); a value count past int is refused here. */
    if (value->length > (uint64_t)1 << 28) {
        ossa_error_set(error, OSSA_ERR_UNSUPPORTED, -1, (int64_t)value->at,
                       "%s: at byte %llu: %s has %llu values (more than ossa reads)", path,
                       (unsigned long long)value->at, what, (unsigned long long)value->length);
        return NULL;
    }
    double *out = ossai_import_alloc(im, (size_t)value->length + 1, sizeof *out);
    unsigned char *raw = value->encoding == 1 ? ossai_import_alloc(im, (size_t)bytes + 1, 1)
                                              : NULL;
    if (!out || (value->encoding == 1 && !raw)) {
        ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory for %s", path,
                       what);
        return NULL;
    }
    const unsigned char *src = value->bytes;
    if (value->encoding == 1) {
        uLongf got = (uLongf)bytes;
        const int z = uncompress(raw, &got, value->bytes, (uLong)value->size);
        if (z != Z_OK || got != bytes) {
            ossa_error_set(error, OSSA_ERR_IMPORT, -1, (int64_t)value->at,
                           "%s: at byte %llu: %s: its deflated bytes %s %llu values", path,
                           (unsigned long long)value->at, what,
                           z == Z_BUF_ERROR ? "hold more than"
                           : z == Z_OK      ? "hold fewer than the"
                                            : "are corrupt: they do not inflate to",
                           (unsigned long long)value->length);
            return NULL;
        }
        src = raw;
    }
    for (uint64_t k = 0; k < value->length; ++k) {
        const unsigned char *p = src + k * stride;
        const uint64_t bits = ossai_fbx_le(p, (int)stride);
        switch (value->type) {
        case 'f': {
            const uint32_t b32 = (uint32_t)bits;
            float f;
            memcpy(&f, &b32, 4);
            out[k] = f;
            break;
        }
        case 'd': memcpy(&out[k], &bits, 8); break;
        case 'l': out[k] = (double)(int64_t)bits; break;
        case 'i': out[k] = (double)(int32_t)(uint32_t)bits; break;
        default: out[k] = (double)p[0]; break;
        }
    }
    return out;
}

/* Whether every key but the last holds its value until the next
 * (KeyAttrFlags and KeyAttrRefCount: a flag word per run of keys). */
static ossa_result all_constant(ossa_import *im, const char *path, int64_t id, const char *name,
                                const ossai_fbx_value arrays[4], int key_count, bool *constant,
                                ossa_error *error)
{
    *constant = false;
    if (!arrays[2].type || !arrays[3].type)
        return OSSA_OK;
    const double *flags = ossai_fbx_array(im, path, &arrays[2], "KeyAttrFlags", error);
    const double *runs = flags ? ossai_fbx_array(im, path, &arrays[3], "KeyAttrRefCount", error)
                               : NULL;
    if (!flags || !runs)
        return error->code;
    if (arrays[2].length != arrays[3].length)
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: AnimationCurve %lld ('%s'): %llu KeyAttrFlags but %llu "
                              "KeyAttrRefCount",
                              path, (long long)id, name, (unsigned long long)arrays[2].length,
                              (unsigned long long)arrays[3].length);
    double covered = 0.0;
    bool all = true;
    for (uint64_t g = 0; g < arrays[2].length; ++g) {
        if (!(runs[g] >= 0.0))
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                                  "%s: AnimationCurve %lld ('%s'): KeyAttrRefCount[%llu] is %g",
                                  path, (long long)id, name, (unsigned long long)g, runs[g]);
        /* Runs that cover keys before the last decide. */
        if (runs[g] > 0.0 && covered < key_count - 1)
            all &= flags[g] >= 0.0 && flags[g] < 4294967296.0 &&
                   ((uint32_t)flags[g] & FBX_INTERP_CONSTANT) != 0;
        covered += runs[g];
    }
    if (covered != key_count)
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: AnimationCurve %lld ('%s'): KeyAttrRefCount covers %.0f keys, "
                              "the curve has %d",
                              path, (long long)id, name, covered, key_count);
    *constant = all && key_count > 1;
    return OSSA_OK;
}

ossa_result ossai_fbx_curve_track(ossa_import *im, const char *path,
                                  int64_t curve_id, const char *name,
                                  const ossai_fbx_value arrays[4], int64_t offset_ticks,
                                  ossa_raw_float_track *out, ossa_error *error)
{
    memset(out, 0, sizeof *out);
    const char *missing = !arrays[0].type ? "KeyTime" : !arrays[1].type ? "KeyValueFloat" : NULL;
    if (missing)
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: AnimationCurve %lld ('%s') has no %s", path,
                              (long long)curve_id, name, missing);
    if ((arrays[0].type != 'l' && arrays[0].type != 't') ||
        (arrays[1].type != 'f' && arrays[1].type != 'd' && arrays[1].type != 't'))
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: AnimationCurve %lld ('%s'): KeyTime must be an int64 array "
                              "and KeyValueFloat a float array (types '%c' and '%c')",
                              path, (long long)curve_id, name, arrays[0].type, arrays[1].type);
    if (arrays[0].length != arrays[1].length)
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: AnimationCurve %lld ('%s'): %llu key times but %llu values",
                              path, (long long)curve_id, name,
                              (unsigned long long)arrays[0].length,
                              (unsigned long long)arrays[1].length);
    const double *ticks = ossai_fbx_array(im, path, &arrays[0], "KeyTime", error);
    const double *values = ticks ? ossai_fbx_array(im, path, &arrays[1], "KeyValueFloat", error)
                                 : NULL;
    if (!ticks || !values)
        return error->code;
    const int n = (int)arrays[0].length;
    float *times = ossai_import_alloc(im, (size_t)n + 1, sizeof *times);
    float *v = ossai_import_alloc(im, (size_t)n + 1, sizeof *v);
    if (!times || !v)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
    for (int k = 0; k < n; ++k) {
        if (!(fabs(ticks[k]) < OSSAI_FBX_MAX_TICKS))
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, k,
                                  "%s: AnimationCurve %lld ('%s'): key %d's time (%g ticks) is "
                                  "out of range",
                                  path, (long long)curve_id, name, k, ticks[k]);
        if (k > 0 && !(ticks[k] > ticks[k - 1]))
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, k,
                                  "%s: AnimationCurve %lld ('%s'): key %d's time (%.0f ticks) "
                                  "is not after key %d's (%.0f): times must increase",
                                  path, (long long)curve_id, name, k, ticks[k], k - 1,
                                  ticks[k - 1]);
        if (!isfinite(values[k]) || fabs(values[k]) > 3.4e38)
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, k,
                                  "%s: AnimationCurve %lld ('%s'): key %d's value is %g (must "
                                  "be a finite float)",
                                  path, (long long)curve_id, name, k, values[k]);
        times[k] = (float)((ticks[k] - (double)offset_ticks) / OSSAI_FBX_TICKS_PER_SECOND);
        v[k] = (float)values[k];
    }
    bool constant;
    ossa_result r = all_constant(im, path, curve_id, name, arrays, n, &constant, error);
    if (r)
        return r;
    out->name = ossai_import_strdup(im, name);
    if (!out->name)
        return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
    out->times_s = times;
    out->values = v;
    out->key_count = n;
    out->interpolation = constant ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR;
    return OSSA_OK;
}
