/* import_gltf_accessor.c - glTF accessors: where their elements lie, and
 * their values read as floats or indices (normalised integers converted as
 * the glTF 2.0 spec says). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
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

ossa_result ossai_gltf_accessor_get(ossai_gltf *g, int index, ossai_gltf_accessor *out,
                                    const char *what)
{
    memset(out, 0, sizeof *out);
    const cJSON *acc = ossai_gltf_item(g, "accessors", index);
    if (!acc)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                              "%s: %s: accessor %d does not exist", g->path, what, index);
    int n, ctype, view_index, offset;
    if (!ossai_gltf_int(g, acc, "count", -1, &n, what) ||
        !ossai_gltf_int(g, acc, "componentType", -1, &ctype, what) ||
        !ossai_gltf_int(g, acc, "bufferView", -1, &view_index, what) ||
        !ossai_gltf_int(g, acc, "byteOffset", 0, &offset, what))
        return g->error->code;
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(acc, "type"));
    const int csize = component_bytes(ctype), components = type_components(type);
    if (n < 1 || csize == 0 || components == 0)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                              "%s: %s: accessor %d has count %d, type '%.12s', component type "
                              "%d",
                              g->path, what, index, n, type ? type : "?", ctype);
    out->count = n;
    out->components = components;
    out->component_type = ctype;
    out->component_bytes = csize;
    out->normalized = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(acc, "normalized"));
    out->sparse = cJSON_GetObjectItemCaseSensitive(acc, "sparse") != NULL;
    if (view_index < 0)
        return OSSA_OK; /* no buffer view: zeros (glTF 2.0 section 3.6.2.4) */
    return ossai_gltf_view_locate(g, view_index, offset, n,
                                  (uint64_t)csize * (uint64_t)components, 0, index, what,
                                  &out->base, &out->stride);
}

ossa_result ossai_gltf_sparse_check(ossai_gltf *g, int index, const char *what)
{
    const cJSON *sparse = cJSON_GetObjectItemCaseSensitive(
        ossai_gltf_item(g, "accessors", index), "sparse");
    if (!sparse)
        return OSSA_OK;
    ossai_gltf_accessor a;
    ossa_result r = ossai_gltf_accessor_get(g, index, &a, what);
    if (r)
        return r;
    const cJSON *indices = cJSON_GetObjectItemCaseSensitive(sparse, "indices");
    const cJSON *values = cJSON_GetObjectItemCaseSensitive(sparse, "values");
    int n, iview, ioffset, itype, vview, voffset;
    if (!ossai_gltf_int(g, sparse, "count", -1, &n, what) || !indices || !values ||
        !ossai_gltf_int(g, indices, "bufferView", -1, &iview, what) ||
        !ossai_gltf_int(g, indices, "byteOffset", 0, &ioffset, what) ||
        !ossai_gltf_int(g, indices, "componentType", -1, &itype, what) ||
        !ossai_gltf_int(g, values, "bufferView", -1, &vview, what) ||
        !ossai_gltf_int(g, values, "byteOffset", 0, &voffset, what) || n < 1 || n > a.count ||
        (itype != OSSAI_GLTF_UNSIGNED_BYTE && itype != OSSAI_GLTF_UNSIGNED_SHORT &&
         itype != OSSAI_GLTF_UNSIGNED_INT))
        return g->error->code ? g->error->code
                              : ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                               "%s: %s: accessor %d has a malformed sparse part",
                                               g->path, what, index);
    const unsigned char *base;
    size_t stride;
    r = ossai_gltf_view_locate(g, iview, ioffset, n, (uint64_t)component_bytes(itype),
                               component_bytes(itype), index, what, &base, &stride);
    if (!r)
        r = ossai_gltf_view_locate(g, vview, voffset, n,
                                   (uint64_t)a.component_bytes * (uint64_t)a.components,
                                   a.component_bytes * a.components, index, what, &base,
                                   &stride);
    return r;
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

uint32_t ossai_gltf_index(const ossai_gltf_accessor *a, int element)
{
    if (!a->base)
        return 0;
    const unsigned char *p = a->base + (size_t)element * a->stride;
    switch (a->component_type) {
    case OSSAI_GLTF_UNSIGNED_BYTE: return p[0];
    case OSSAI_GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case OSSAI_GLTF_UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, p, 4);
        return v;
    }
    default: return UINT32_MAX;
    }
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
        (a.component_type != OSSAI_GLTF_FLOAT && !a.normalized))
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                              "%s: %s: accessor %d has %d-component elements of component type "
                              "%d%s; expected %d-component floats or normalised integers",
                              g->path, what, index, a.components, a.component_type,
                              a.normalized ? " (normalised)" : "", components);
    if (a.sparse)
        return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, index, -1,
                              "%s: %s: accessor %d is sparse, which the importer does not read",
                              g->path, what, index);
    float *values = ossai_import_alloc(g->im, (size_t)a.count * (size_t)components, sizeof(float));
    if (!values)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, index, -1,
                              "%s: out of memory for accessor %d", g->path, index);
    *out = values;
    *count = a.count;
    for (int i = 0; a.base && i < a.count; ++i)
        for (int c = 0; c < components; ++c)
            values[(size_t)i * (size_t)components + (size_t)c] =
                read_component(a.base + (size_t)i * a.stride + (size_t)(c * a.component_bytes),
                               a.component_type, a.normalized);
    return OSSA_OK;
}
