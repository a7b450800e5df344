/* import_gltf_reference.h - the import tests' own glTF reader: the
 * independent path the importer's results are checked against. It reads
 * accessors straight from the file's buffers (data: URIs or .bin files),
 * trusting the file (the test models are valid), with code of its own, not
 * the importer's. Header-only: include it from one test file each. */
#ifndef OSSA_IMPORT_GLTF_REFERENCE_H
#define OSSA_IMPORT_GLTF_REFERENCE_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REF_MAX_BUFFERS 16

typedef struct ref_gltf {
    cJSON *json;
    unsigned char *buffers[REF_MAX_BUFFERS];
    size_t sizes[REF_MAX_BUFFERS];
} ref_gltf;

static inline unsigned char *ref_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n + 1);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) {
        data[n] = 0;
        *size = (size_t)n;
    }
    return data;
}

static inline unsigned char *ref_base64(const char *text, size_t *size)
{
    static const char alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t len = strlen(text), n = 0;
    unsigned char *out = malloc(len / 4 * 3 + 3);
    unsigned int acc = 0;
    int bits = 0;
    for (size_t i = 0; i < len && text[i] != '='; ++i) {
        const char *p = strchr(alphabet, text[i]);
        if (!p) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned)(p - alphabet);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (unsigned char)((acc >> bits) & 0xFF);
        }
    }
    *size = n;
    return out;
}

static inline void ref_close(ref_gltf *g)
{
    for (int i = 0; i < REF_MAX_BUFFERS; ++i)
        free(g->buffers[i]);
    cJSON_Delete(g->json);
    memset(g, 0, sizeof *g);
}

/* Opens a .gltf (JSON) file and loads all its buffers. 0 on success. */
static inline int ref_open(ref_gltf *g, const char *path)
{
    memset(g, 0, sizeof *g);
    size_t size;
    unsigned char *text = ref_read_file(path, &size);
    if (!text)
        return -1;
    g->json = cJSON_Parse((const char *)text);
    free(text);
    if (!g->json)
        return -1;
    cJSON *buffers = cJSON_GetObjectItem(g->json, "buffers");
    for (int i = 0; i < cJSON_GetArraySize(buffers) && i < REF_MAX_BUFFERS; ++i) {
        const char *uri = cJSON_GetStringValue(
            cJSON_GetObjectItem(cJSON_GetArrayItem(buffers, i), "uri"));
        if (!uri)
            continue;
        if (strncmp(uri, "data:", 5) == 0) {
            g->buffers[i] = ref_base64(strchr(uri, ',') + 1, &g->sizes[i]);
        } else {
            char file[4096];
            const char *slash = strrchr(path, '/');
            snprintf(file, sizeof file, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path,
                     uri);
            g->buffers[i] = ref_read_file(file, &g->sizes[i]);
        }
        if (!g->buffers[i]) {
            ref_close(g);
            return -1;
        }
    }
    return 0;
}

static inline cJSON *ref_item(const ref_gltf *g, const char *array, int index)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(g->json, array), index);
}

static inline int ref_int(const cJSON *object, const char *name, int fallback)
{
    const cJSON *v = cJSON_GetObjectItem(object, name);
    return cJSON_IsNumber(v) ? v->valueint : fallback;
}

/* Accessor `index` as doubles: *count elements of *components values.
 * Float, unsigned byte/short/int components (integers as they are, or
 * normalised when the accessor says so). Caller frees. */
static inline double *ref_accessor(const ref_gltf *g, int index, int *count, int *components)
{
    const cJSON *acc = ref_item(g, "accessors", index);
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItem(acc, "type"));
    int c = strcmp(type, "SCALAR") == 0 ? 1
            : strcmp(type, "VEC2") == 0 ? 2
            : strcmp(type, "VEC3") == 0 ? 3
            : strcmp(type, "VEC4") == 0 ? 4
            : strcmp(type, "MAT4") == 0 ? 16
                                        : 0;
    const int n = ref_int(acc, "count", 0), ctype = ref_int(acc, "componentType", 0);
    const int normalized = cJSON_IsTrue(cJSON_GetObjectItem(acc, "normalized"));
    const cJSON *view = ref_item(g, "bufferViews", ref_int(acc, "bufferView", 0));
    const int csize = ctype == 5126 || ctype == 5125 ? 4 : (ctype == 5123 || ctype == 5122 ? 2 : 1);
    const int stride = ref_int(view, "byteStride", 0) ? ref_int(view, "byteStride", 0) : c * csize;
    const unsigned char *base = g->buffers[ref_int(view, "buffer", 0)] +
                                ref_int(view, "byteOffset", 0) + ref_int(acc, "byteOffset", 0);
    double *out = malloc(sizeof(double) * (size_t)(n * c + 1));
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < c; ++k) {
            const unsigned char *p = base + (size_t)i * (size_t)stride + (size_t)(k * csize);
            double v;
            if (ctype == 5126) {
                float f;
                memcpy(&f, p, 4);
                v = f;
            } else if (ctype == 5125) {
                uint32_t u;
                memcpy(&u, p, 4);
                v = u;
            } else if (ctype == 5123) {
                uint16_t u;
                memcpy(&u, p, 2);
                v = normalized ? u / 65535.0 : u;
            } else {
                v = normalized ? p[0] / 255.0 : p[0];
            }
            out[i * c + k] = v;
        }
    *count = n;
    *components = c;
    return out;
}

#endif /* OSSA_IMPORT_GLTF_REFERENCE_H */
