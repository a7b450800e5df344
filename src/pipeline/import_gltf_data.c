/* import_gltf_data.c - glTF 2.0 documents, buffers and accessors, read
 * with every index, offset, length and stride checked before use. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "import_gltf.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

enum {
    GLTF_BYTE = 5120,
    GLTF_UNSIGNED_BYTE = 5121,
    GLTF_SHORT = 5122,
    GLTF_UNSIGNED_SHORT = 5123,
    GLTF_UNSIGNED_INT = 5125,
    GLTF_FLOAT = 5126
};

/* Reads a regular file whole into memory from the import's allocator
 * (freed by the caller with ossa_free). */
static ossa_result read_file(ossai_gltf *g, const char *path, size_t min_bytes,
                             unsigned char **out, size_t *out_bytes)
{
    *out = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return ossa_error_set(g->error, OSSA_ERR_IO, -1, -1, "%s: cannot read '%s': %s",
                              g->path, path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ossa_error_set(g->error, OSSA_ERR_IO, -1, -1, "%s: '%s' is not a regular file",
                              g->path, path);
    if ((uint64_t)st.st_size < min_bytes)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: '%s' holds %lld bytes, the file says %zu", g->path, path,
                              (long long)st.st_size, min_bytes);
    if ((uint64_t)st.st_size >= SIZE_MAX)
        return ossa_error_set(g->error, OSSA_ERR_IO, -1, -1, "%s: '%s' is too large", g->path,
                              path);
    const size_t bytes = (size_t)st.st_size;
    unsigned char *data = ossa_alloc(&g->im->allocator_, bytes + 1, 16);
    if (!data)
        return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "%s: out of memory for %zu bytes", g->path, bytes);
    FILE *f = fopen(path, "rb");
    size_t got = f ? fread(data, 1, bytes, f) : 0;
    if (f)
        fclose(f);
    if (got != bytes) {
        ossa_free(&g->im->allocator_, data);
        return ossa_error_set(g->error, OSSA_ERR_IO, -1, -1, "%s: cannot read '%s'", g->path,
                              path);
    }
    data[bytes] = 0;
    *out = data;
    *out_bytes = bytes;
    return OSSA_OK;
}

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

ossa_result ossai_gltf_open(ossai_gltf *g, ossa_import *im, const char *path,
                            ossa_error *error)
{
    memset(g, 0, sizeof *g);
    g->im = im;
    g->error = error;
    g->path = path;
    size_t bytes = 0;
    ossa_result r = read_file(g, path, 0, &g->file, &bytes);
    if (r)
        return r;
    const char *json = (const char *)g->file;
    size_t json_bytes = bytes;
    if (bytes >= 12 && le32(g->file) == GLB_MAGIC) {
        const uint32_t version = le32(g->file + 4), total = le32(g->file + 8);
        if (version != 2 || total > bytes || bytes < 20)
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, 4,
                                  "%s: GLB header: version %u, length %u for a %zu-byte file",
                                  path, version, total, bytes);
        const uint32_t json_length = le32(g->file + 12);
        if (le32(g->file + 16) != GLB_CHUNK_JSON || json_length > total - 20)
            return ossa_error_set(error, OSSA_ERR_IMPORT, -1, 12,
                                  "%s: GLB: the first chunk is not a JSON chunk that fits", path);
        json = (const char *)g->file + 20;
        json_bytes = json_length;
        const uint64_t bin_at = 20 + (((uint64_t)json_length + 3) & ~(uint64_t)3);
        if (bin_at + 8 <= total && le32(g->file + bin_at + 4) == GLB_CHUNK_BIN) {
            const uint32_t bin_length = le32(g->file + bin_at);
            if (bin_length > total - bin_at - 8)
                return ossa_error_set(error, OSSA_ERR_IMPORT, -1, (int64_t)bin_at,
                                      "%s: GLB: the binary chunk (%u bytes) runs past the file",
                                      path, bin_length);
            g->bin = g->file + bin_at + 8;
            g->bin_bytes = bin_length;
        }
    }
    g->json = cJSON_ParseWithLength(json, json_bytes);
    if (!g->json || !cJSON_IsObject(g->json))
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1, "%s: the glTF JSON does not parse",
                              path);
    const cJSON *buffers = cJSON_GetObjectItemCaseSensitive(g->json, "buffers");
    g->buffer_count = cJSON_IsArray(buffers) ? cJSON_GetArraySize(buffers) : 0;
    if (g->buffer_count > 0) {
        g->buffers = ossai_import_alloc(im, (size_t)g->buffer_count, sizeof *g->buffers);
        if (!g->buffers)
            return ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                                  path);
    }
    return OSSA_OK;
}

void ossai_gltf_close(ossai_gltf *g)
{
    for (int i = 0; i < g->buffer_count && g->buffers; ++i)
        if (g->buffers[i].owned)
            ossa_free(&g->im->allocator_, g->buffers[i].data);
    ossa_free(&g->im->allocator_, g->file);
    cJSON_Delete(g->json);
    memset(g, 0, sizeof *g);
}

int ossai_gltf_count(ossai_gltf *g, const char *name)
{
    (void)ossai_gltf_item(g, name, -1);
    for (int a = 0; a < g->array_count; ++a)
        if (strcmp(g->arrays[a].name, name) == 0)
            return g->arrays[a].count;
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(g->json, name);
    return cJSON_IsArray(array) ? cJSON_GetArraySize(array) : 0;
}

cJSON *ossai_gltf_item(ossai_gltf *g, const char *name, int index)
{
    int a = 0;
    while (a < g->array_count && strcmp(g->arrays[a].name, name) != 0)
        ++a;
    if (a == g->array_count) {
        const int max = (int)(sizeof g->arrays / sizeof g->arrays[0]);
        cJSON *array = cJSON_GetObjectItemCaseSensitive(g->json, name);
        const int count = cJSON_IsArray(array) ? cJSON_GetArraySize(array) : 0;
        cJSON **items = ossai_import_alloc(g->im, (size_t)count + 1, sizeof *items);
        if (a == max || !items) /* no room or memory: answer without the index */
            return index >= 0 && cJSON_IsObject(cJSON_GetArrayItem(array, index))
                       ? cJSON_GetArrayItem(array, index)
                       : NULL;
        int i = 0;
        for (cJSON *c = count ? array->child : NULL; c && i < count; c = c->next)
            items[i++] = c;
        g->arrays[a].name = name;
        g->arrays[a].items = items;
        g->arrays[a].count = count;
        g->array_count++;
    }
    if (index < 0 || index >= g->arrays[a].count)
        return NULL;
    cJSON *item = g->arrays[a].items[index];
    return cJSON_IsObject(item) ? item : NULL;
}

bool ossai_gltf_int(const ossai_gltf *g, const cJSON *object, const char *member, int fallback,
                    int *out, const char *what)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(object, member);
    if (!v) {
        *out = fallback;
        return true;
    }
    const double d = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
    if (!(d >= 0.0 && d < 2147483648.0) || d != floor(d)) {
        ossa_error_set(g->error, OSSA_ERR_IMPORT, -1, -1,
                       "%s: %s: '%s' must be a non-negative integer", g->path, what, member);
        return false;
    }
    *out = (int)d;
    return true;
}

static int base64_value(unsigned char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+' || c == '-')
        return 62;
    if (c == '/' || c == '_')
        return 63;
    return -1;
}

/* Decodes base64 text (padding optional) into out, at most max bytes. */
static bool base64_decode(const char *text, unsigned char *out, size_t max, size_t *written)
{
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && *p != '='; ++p) {
        int v = base64_value(*p);
        if (v < 0)
            return false;
        acc = (acc << 6) | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            if (n == max)
                return false;
            out[n++] = (unsigned char)(acc >> bits);
        }
    }
    *written = n;
    return true;
}

/* An external buffer's path: the glTF file's folder + the URI, with %XX
 * escapes decoded. Schemes other than data: are not read. */
static ossa_result buffer_path(ossai_gltf *g, const char *uri, char *out, size_t size)
{
    if (strstr(uri, "://"))
        return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, -1, -1,
                              "%s: buffer URI '%.60s' is not a relative file path", g->path,
                              uri);
    const char *slash = strrchr(g->path, '/');
    size_t dir = slash ? (size_t)(slash - g->path) + 1 : 0;
    if (dir >= size)
        goto too_long;
    memcpy(out, g->path, dir);
    size_t n = dir;
    for (const char *p = uri; *p; ++p) {
        char c = *p;
        if (c == '%' && p[1] && p[2]) {
            char hex[3] = {p[1], p[2], 0};
            char *end;
            long v = strtol(hex, &end, 16);
            if (*end == '\0' && v > 0) {
                c = (char)v;
                p += 2;
            }
        }
        if (n + 1 >= size)
            goto too_long;
        out[n++] = c;
    }
    out[n] = '\0';
    return OSSA_OK;
too_long:
    return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, -1, -1,
                          "%s: buffer URI '%.60s' makes a path that is too long", g->path, uri);
}

static ossa_result load_buffer(ossai_gltf *g, int index)
{
    ossai_gltf_buffer *b = &g->buffers[index];
    if (b->data)
        return OSSA_OK;
    const cJSON *desc = ossai_gltf_item(g, "buffers", index);
    int length;
    if (!desc || !ossai_gltf_int(g, desc, "byteLength", -1, &length, "buffer") || length < 0)
        return desc ? ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                     "%s: buffer %d has no valid byteLength", g->path, index)
                    : ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                     "%s: buffer %d is not an object", g->path, index);
    const char *uri = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(desc, "uri"));
    if (!uri) {
        if (index != 0 || !g->bin || (size_t)length > g->bin_bytes)
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                  "%s: buffer %d has no uri and no GLB binary chunk of %d bytes",
                                  g->path, index, length);
        b->data = (unsigned char *)g->bin; /* inside g->file: not owned */
        b->bytes = (size_t)length;
        return OSSA_OK;
    }
    if (strncmp(uri, "data:", 5) == 0) {
        const char *comma = strstr(uri, ";base64,");
        if (!comma)
            return ossa_error_set(g->error, OSSA_ERR_UNSUPPORTED, index, -1,
                                  "%s: buffer %d: data URI is not base64", g->path, index);
        unsigned char *data = ossa_alloc(&g->im->allocator_, (size_t)length + 1, 16);
        if (!data)
            return ossa_error_set(g->error, OSSA_ERR_OUT_OF_MEMORY, index, -1,
                                  "%s: out of memory for buffer %d", g->path, index);
        size_t written = 0;
        if (!base64_decode(comma + 8, data, (size_t)length, &written) ||
            written != (size_t)length) {
            ossa_free(&g->im->allocator_, data);
            return ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                  "%s: buffer %d: the base64 data does not decode to its "
                                  "byteLength %d",
                                  g->path, index, length);
        }
        b->data = data;
        b->bytes = (size_t)length;
        b->owned = true;
        return OSSA_OK;
    }
    char path[4096];
    ossa_result r = buffer_path(g, uri, path, sizeof path);
    size_t bytes = 0;
    if (!r)
        r = read_file(g, path, (size_t)length, &b->data, &bytes);
    if (!r) {
        b->bytes = (size_t)length;
        b->owned = true;
    }
    return r;
}

static int component_bytes(int type)
{
    switch (type) {
    case GLTF_BYTE:
    case GLTF_UNSIGNED_BYTE: return 1;
    case GLTF_SHORT:
    case GLTF_UNSIGNED_SHORT: return 2;
    case GLTF_UNSIGNED_INT:
    case GLTF_FLOAT: return 4;
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

/* Checks that `count` elements of `element` bytes, `stride` apart, starting
 * `offset` bytes into bufferView `view_index`, lie inside the view and the
 * view inside its (loaded) buffer; *base receives the first element. */
static ossa_result locate_in_view(ossai_gltf *g, int view_index, int offset, int count,
                                  uint64_t element, int stride_override, int accessor,
                                  const char *what, const unsigned char **base, size_t *stride)
{
    const cJSON *view = ossai_gltf_item(g, "bufferViews", view_index);
    int buffer, view_offset, view_length, view_stride;
    if (!view)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, accessor, -1,
                              "%s: %s: accessor %d uses bufferView %d, which does not exist",
                              g->path, what, accessor, view_index);
    if (!ossai_gltf_int(g, view, "buffer", -1, &buffer, what) ||
        !ossai_gltf_int(g, view, "byteOffset", 0, &view_offset, what) ||
        !ossai_gltf_int(g, view, "byteLength", -1, &view_length, what) ||
        !ossai_gltf_int(g, view, "byteStride", 0, &view_stride, what))
        return g->error->code;
    const uint64_t step = stride_override > 0 ? (uint64_t)stride_override
                                              : (view_stride ? (uint64_t)view_stride : element);
    if (buffer < 0 || buffer >= g->buffer_count || view_length < 0 || step < element)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, accessor, -1,
                              "%s: %s: bufferView %d has buffer %d, byteLength %d, byteStride "
                              "%d (elements of %d bytes)",
                              g->path, what, view_index, buffer, view_length, view_stride,
                              (int)element);
    ossa_result r = load_buffer(g, buffer);
    if (r)
        return r;
    const uint64_t end = (uint64_t)offset + step * (uint64_t)(count - 1) + element;
    if (end > (uint64_t)view_length ||
        (uint64_t)view_offset + (uint64_t)view_length > g->buffers[buffer].bytes)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, accessor, -1,
                              "%s: %s: accessor %d (%d elements, stride %d, offset %d) runs "
                              "past bufferView %d (offset %d, %d bytes) or its buffer (%zu "
                              "bytes)",
                              g->path, what, accessor, count, (int)step, offset, view_index,
                              view_offset, view_length, g->buffers[buffer].bytes);
    *base = g->buffers[buffer].data + view_offset + offset;
    *stride = (size_t)step;
    return OSSA_OK;
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
    return locate_in_view(g, view_index, offset, n, (uint64_t)csize * (uint64_t)components, 0,
                          index, what, &out->base, &out->stride);
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
        (itype != GLTF_UNSIGNED_BYTE && itype != GLTF_UNSIGNED_SHORT &&
         itype != GLTF_UNSIGNED_INT))
        return g->error->code ? g->error->code
                              : ossa_error_set(g->error, OSSA_ERR_IMPORT, index, -1,
                                               "%s: %s: accessor %d has a malformed sparse part",
                                               g->path, what, index);
    const unsigned char *base;
    size_t stride;
    r = locate_in_view(g, iview, ioffset, n, (uint64_t)component_bytes(itype),
                       component_bytes(itype), index, what, &base, &stride);
    if (!r)
        r = locate_in_view(g, vview, voffset, n,
                           (uint64_t)a.component_bytes * (uint64_t)a.components,
                           a.component_bytes * a.components, index, what, &base, &stride);
    return r;
}

/* One component at p converted to float (glTF 2.0 section 3.11: normalised
 * signed values clamp at -1). */
static float read_component(const unsigned char *p, int type, bool normalized)
{
    switch (type) {
    case GLTF_BYTE: {
        int8_t v;
        memcpy(&v, p, 1);
        return normalized ? fmaxf((float)v / 127.0f, -1.0f) : (float)v;
    }
    case GLTF_UNSIGNED_BYTE: return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case GLTF_SHORT: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? fmaxf((float)v / 32767.0f, -1.0f) : (float)v;
    }
    case GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? (float)v / 65535.0f : (float)v;
    }
    case GLTF_UNSIGNED_INT: {
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
    case GLTF_UNSIGNED_BYTE: return p[0];
    case GLTF_UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    case GLTF_UNSIGNED_INT: {
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
    if (a.components != components || a.component_type == GLTF_UNSIGNED_INT ||
        (a.component_type != GLTF_FLOAT && !a.normalized))
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
