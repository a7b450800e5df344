/* import_gltf_accessor.c - glTF accessors: where their elements lie, the
 * elements a sparse accessor substitutes (glTF 2.0 section 3.6.2.3), and
 * their values read as floats or indices (normalised integers converted as
 * the spec says). Everything is checked when the accessor is read. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf.h"

static int component_bytes(int type)
{
    switch (type) {
    case OSSAI_GLTF_BYTE:
    case OSSAI_GLTF_UNSIGNED_BYTE: return 1;
    case OSSAI_GLTF_SHORT:
    case OSSAI_GLTF_UNSIGNED_SHORT: return 2;
    case OSSAI_GLTF_UNSIGNED_INT:
    case OSSAI_GLTF_FLOAT: return 4;
    default: return 0;
    }
}

static int type_components(const char *type)
{
    static const struct {
        const char *name;
        int components;
    } types[] = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4},
                 {"MAT2", 4},   {"MAT3", 9}, {"MAT4", 16}};
    for (size_t i = 0; type && i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(type, types[i].name) == 0)
            return types[i].components;
    return 0;
}

/* "PATH: WHO DETAIL", WHO naming the use and the accessor. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 4, 5)))
#endif
static ossa_result fail(ossai_gltf *g, int index, const char *who, const char *format, ...)
{
    char detail[240];
    va_list args;
    va_start(args, format);
    vsnprintf(detail, sizeof detail, format, args);
    va_end(args);
    return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1, "%s: %s %s", g->path, who,
                          detail);
}

/* WHO: "[what: ]accessor N", the use (when given) and the accessor. */
static void name_user(char *who, size_t size, const char *what, int index)
{
    snprintf(who, size, "%s%saccessor %d", what ? what : "", what ? ": " : "", index);
}

static uint32_t read_uint(const unsigned char *p, int bytes)
{
    if (bytes == 1)
        return p[0];
    if (bytes == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static size_t element_bytes(const ossai_gltf_accessor *a)
{
    return (size_t)a->component_bytes * (size_t)a->components;
}

static uint32_t sparse_index(const ossai_gltf_sparse *s, int k)
{
    return read_uint(s->indices + (size_t)k * (size_t)s->index_bytes, s->index_bytes);
}

/* The accessor's "sparse" object: count, then indices (a view, an offset
 * and an unsigned type) and values (a view and an offset), both packed;
 * the indices strictly increase and stay below the accessor's count. */
static ossa_result read_sparse(ossai_gltf *g, const cJSON *sparse, int index, const char *who,
                               ossai_gltf_accessor *out)
{
    if (!cJSON_IsObject(sparse))
        return fail(g, index, who, "has a 'sparse' that is not an object");
    char part[200];
    int count, view, offset, type;
    snprintf(part, sizeof part, "%s sparse", who);
    if (!ossai_gltf_int(g, sparse, "count", -1, &count, part))
        return g->error->code;
    if (count < 1 || count > out->count)
        return count < 0 ? fail(g, index, who, "has no sparse.count")
                         : fail(g, index, who,
                                "has sparse.count %d; it must be from 1 to the accessor's count "
                                "%d",
                                count, out->count);
    const cJSON *indices = cJSON_GetObjectItemCaseSensitive(sparse, "indices");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(sparse, "values");
    if (!cJSON_IsObject(indices) || !cJSON_IsObject(values))
        return fail(g, index, who, "has no sparse.%s object",
                    cJSON_IsObject(indices) ? "values" : "indices");

    snprintf(part, sizeof part, "%s sparse.indices", who);
    if (!ossai_gltf_int(g, indices, "bufferView", -1, &view, part) ||
        !ossai_gltf_int(g, indices, "byteOffset", 0, &offset, part) ||
        !ossai_gltf_int(g, indices, "componentType", -1, &type, part))
        return g->error->code;
    if (view < 0 || type < 0)
        return fail(g, index, who, "has no sparse.indices.%s",
                    view < 0 ? "bufferView" : "componentType");
    if (type != OSSAI_GLTF_UNSIGNED_BYTE && type != OSSAI_GLTF_UNSIGNED_SHORT &&
        type != OSSAI_GLTF_UNSIGNED_INT)
        return fail(g, index, who,
                    "has sparse.indices.componentType %d; it must be 5121, 5123 or 5125 "
                    "(unsigned byte, short or int)",
                    type);
    out->sparse.index_bytes = component_bytes(type);
    size_t stride;
    ossa_result r = ossai_gltf_view_locate(g, view, offset, count,
                                           (uint64_t)out->sparse.index_bytes, true, index, part,
                                           &out->sparse.indices, &stride);
    if (r)
        return r;

    snprintf(part, sizeof part, "%s sparse.values", who);
    if (!ossai_gltf_int(g, values, "bufferView", -1, &view, part) ||
        !ossai_gltf_int(g, values, "byteOffset", 0, &offset, part))
        return g->error->code;
    if (view < 0)
        return fail(g, index, who, "has no sparse.values.bufferView");
    if ((r = ossai_gltf_view_locate(g, view, offset, count, (uint64_t)element_bytes(out), true,
                                    index, part, &out->sparse.values, &stride)))
        return r;

    out->sparse.count = count;
    for (int k = 0; k < count; ++k) {
        const uint32_t at = sparse_index(&out->sparse, k);
        if (at >= (uint32_t)out->count)
            return fail(g, index, who, "has sparse.indices[%d] = %u, past its %d elements", k,
                        at, out->count);
        if (k > 0 && at <= sparse_index(&out->sparse, k - 1))
            return fail(g, index, who,
                        "has sparse.indices[%d] = %u after %u: sparse indices must strictly "
                        "increase",
                        k, at, sparse_index(&out->sparse, k - 1));
    }
    return OSSA_OK;
}

ossa_result ossai_gltf_accessor_get(ossai_gltf *g, int index, ossai_gltf_accessor *out,
                                    const char *what)
{
    memset(out, 0, sizeof *out);
    char who[160];
    name_user(who, sizeof who, what, index);
    const cJSON *acc = ossai_gltf_item(g, "accessors", index);
    if (!acc)
        return fail(g, index, who, "does not exist");
    int n, ctype, view_index, offset;
    if (!ossai_gltf_int(g, acc, "count", -1, &n, who) ||
        !ossai_gltf_int(g, acc, "componentType", -1, &ctype, who) ||
        !ossai_gltf_int(g, acc, "bufferView", -1, &view_index, who) ||
        !ossai_gltf_int(g, acc, "byteOffset", 0, &offset, who))
        return g->error->code;
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(acc, "type"));
    const int csize = component_bytes(ctype), components = type_components(type);
    if (n < 1 || csize == 0 || components == 0)
        return fail(g, index, who, "has count %d, type '%.12s', component type %d", n,
                    type ? type : "?", ctype);
    out->count = n;
    out->components = components;
    out->component_type = ctype;
    out->component_bytes = csize;
    out->normalized = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(acc, "normalized"));
    /* Without a buffer view the base elements are zeros (glTF 2.0 section
     * 3.6.2.4). */
    ossa_result r = view_index < 0
                        ? OSSA_OK
                        : ossai_gltf_view_locate(g, view_index, offset, n,
                                                 (uint64_t)element_bytes(out), false, index,
                                                 who, &out->base, &out->stride);
    const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(acc, "sparse");
    if (!r && sparse)
        r = read_sparse(g, sparse, index, who, out);
    return r;
}

const unsigned char *ossai_gltf_element(const ossai_gltf_accessor *a, int element)
{
    const ossai_gltf_sparse *s = &a->sparse;
    int lo = 0, hi = s->count; /* first substitute at or past element */
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (sparse_index(s, mid) < (uint32_t)element)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->count && sparse_index(s, lo) == (uint32_t)element)
        return s->values + (size_t)lo * element_bytes(a);
    return a->base ? a->base + (size_t)element * a->stride : NULL;
}

uint32_t ossai_gltf_index(const ossai_gltf_accessor *a, int element, int component)
{
    if (a->component_type != OSSAI_GLTF_UNSIGNED_BYTE &&
        a->component_type != OSSAI_GLTF_UNSIGNED_SHORT &&
        a->component_type != OSSAI_GLTF_UNSIGNED_INT)
        return UINT32_MAX;
    const unsigned char *p = ossai_gltf_element(a, element);
    return p ? read_uint(p + (size_t)component * (size_t)a->component_bytes, a->component_bytes)
             : 0;
}

/* One component at p converted to float (glTF 2.0 section 3.11: normalised
 * signed values clamp at -1). */
static float read_component(const unsigned char *p, int type, bool normalized)
{
    switch (type) {
    case OSSAI_GLTF_BYTE: {
        int8_t v;
        memcpy(&v, p, 1);
        return normalized ? fmaxf((float)v / 127.0f, -1.0f) : (float)v;
    }
    case OSSAI_GLTF_UNSIGNED_BYTE: return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case OSSAI_GLTF_SHORT: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
    }
    case OSSAI_GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? (float)v / 65535.0f : (float)v;
    }
    case OSSAI_GLTF_UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

static void read_element(const ossai_gltf_accessor *a, const unsigned char *p, float *out)
{
    for (int c = 0; c < a->components; ++c)
        out[c] = read_component(p + (size_t)c * (size_t)a->component_bytes, a->component_type,
                                a->normalized);
}

ossa_result ossai_gltf_read_floats(ossai_gltf *g, int index, int components, float **out,
                                   int *count, const char *what)
{
    *out = NULL;
    *count = 0;
    ossai_gltf_accessor a;
    ossa_result r = ossai_gltf_accessor_get(g, index, &a, what);
    if (r)
        return r;
    if (a.components != components || a.component_type == OSSAI_GLTF_UNSIGNED_INT ||
        (a.component_type != OSSAI_GLTF_FLOAT && !a.normalized)) {
        char who[160];
        name_user(who, sizeof who, what, index);
        return fail(g, index, who,
                    "has %d-component elements of component type %d%s; expected %d-component "
                    "floats or normalised integers",
                    a.components, a.component_type, a.normalized ? " (normalised)" : "",
                    components);
    }
    float *values = ossai_import_alloc(g->im, (size_t)a.count * (size_t)components, sizeof(float));
    if (!values)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, index, -1,
                              "%s: out of memory for accessor %d", g->path, index);
    /* The base (zeros without a view: the allocation is zeroed), then the
     * sparse substitutes over it. */
    const size_t n = (size_t)components;
    for (int i = 0; a.base && i < a.count; ++i)
        read_element(&a, a.base + (size_t)i * a.stride, values + (size_t)i * n);
    for (int k = 0; k < a.sparse.count; ++k)
        read_element(&a, a.sparse.values + (size_t)k * element_bytes(&a),
                     values + (size_t)sparse_index(&a.sparse, k) * n);
    *out = values;
    *count = a.count;
    return OSSA_OK;
}
