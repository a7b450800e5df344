/* import_gltf_buffer.c - glTF buffers (data: URIs, external files, the GLB
 * binary chunk), loaded on first use, and runs of elements located in
 * their buffer views with every offset, length and stride checked. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_gltf.h"

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
        r = ossai_gltf_read_file(g, path, (size_t)length, &b->data, &bytes);
    if (!r) {
        b->bytes = (size_t)length;
        b->owned = true;
    }
    return r;
}

ossa_result ossai_gltf_view_locate(ossai_gltf *g, int view_index, int offset, int count,
                                   uint64_t element, bool packed, int error_index,
                                   const char *who, const unsigned char **base, size_t *stride)
{
    const cJSON *view = ossai_gltf_item(g, "bufferViews", view_index);
    if (!view)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, error_index, -1,
                              "%s: %s uses bufferView %d, which does not exist", g->path, who,
                              view_index);
    char what[32];
    snprintf(what, sizeof what, "bufferView %d", view_index);
    int buffer, view_offset, view_length, view_stride;
    if (!ossai_gltf_int(g, view, "buffer", -1, &buffer, what) ||
        !ossai_gltf_int(g, view, "byteOffset", 0, &view_offset, what) ||
        !ossai_gltf_int(g, view, "byteLength", -1, &view_length, what) ||
        !ossai_gltf_int(g, view, "byteStride", 0, &view_stride, what))
        return g->error->code;
    if (packed && view_stride)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, error_index, -1,
                              "%s: %s uses bufferView %d, which has a byteStride (%d): sparse "
                              "indices and values are tightly packed, their views must not "
                              "have one",
                              g->path, who, view_index, view_stride);
    const uint64_t step = view_stride ? (uint64_t)view_stride : element;
    if (buffer < 0 || buffer >= g->buffer_count || view_length < 0 || step < element)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, error_index, -1,
                              "%s: %s: bufferView %d has buffer %d, byteLength %d, byteStride "
                              "%d (elements of %d bytes)",
                              g->path, who, view_index, buffer, view_length, view_stride,
                              (int)element);
    ossa_result r = load_buffer(g, buffer);
    if (r)
        return r;
    const uint64_t end = (uint64_t)offset + step * (uint64_t)(count - 1) + element;
    if (end > (uint64_t)view_length ||
        (uint64_t)view_offset + (uint64_t)view_length > g->buffers[buffer].bytes)
        return ossa_error_set(g->error, OSSA_ERR_IMPORT, error_index, -1,
                              "%s: %s (%d elements, stride %d, byteOffset %d) runs past "
                              "bufferView %d (offset %d, %d bytes) or its buffer (%zu bytes)",
                              g->path, who, count, (int)step, offset, view_index, view_offset,
                              view_length, g->buffers[buffer].bytes);
    *base = g->buffers[buffer].data + view_offset + offset;
    *stride = (size_t)step;
    return OSSA_OK;
}
