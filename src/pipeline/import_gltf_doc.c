/* import_gltf_doc.c - a glTF 2.0 document: the file read whole, the GLB
 * container split into its JSON and binary chunks, the JSON parsed, and the
 * small checked readers of its members the other import_gltf_*.c use. */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "import_gltf.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

ossa_result ossai_gltf_read_file(ossai_gltf *g, const char *path, size_t min_bytes,
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
    ossa_result r = ossai_gltf_read_file(g, path, 0, &g->file, &bytes);
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
