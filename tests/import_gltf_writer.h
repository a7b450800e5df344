/* import_gltf_writer.h - small glTF files written by the tests themselves:
 * a skinned triangle with two joints (names and animations chosen by the
 * test), as .gltf with an embedded base64 buffer or as .glb; an
 * animation-only file of one node; and any document assembled view by view
 * and accessor by accessor (tg_doc). Header-only. */
#ifndef OSSA_IMPORT_GLTF_WRITER_H
#define OSSA_IMPORT_GLTF_WRITER_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The triangle's buffer. Accessors of tg_skinned_json: 0 positions, 1
 * normals, 2 joints, 3 weights, 4 indices, 5 inverse bind matrices,
 * 6 times {0, 1}, 7 rotations {identity, 90 degrees about z},
 * 8 translations {(0,1,0), (0,2,0)} at times 9 {0, 0.5}. */
#define TG_BLOB_BYTES 340

static inline void tg_put_floats(unsigned char *at, const float *v, int n)
{
    memcpy(at, v, sizeof(float) * (size_t)n);
}

static inline void tg_triangle_blob(unsigned char blob[TG_BLOB_BYTES])
{
    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0}, nrm[9] = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    const unsigned char joints[12] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    const float weights[12] = {1, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};
    const unsigned short idx[4] = {0, 1, 2, 0};
    float ibm[32] = {0};
    for (int m = 0; m < 2; ++m)
        for (int i = 0; i < 4; ++i)
            ibm[16 * m + 5 * i] = 1.0f;
    ibm[16 + 13] = -1.0f; /* joint B sits at y = 1 */
    const float times[2] = {0, 1}, rots[8] = {0, 0, 0, 1, 0, 0, 0.70710677f, 0.70710677f};
    const float trans[6] = {0, 1, 0, 0, 2, 0}, times2[2] = {0, 0.5f};
    memset(blob, 0, TG_BLOB_BYTES);
    tg_put_floats(blob + 0, pos, 9);
    tg_put_floats(blob + 36, nrm, 9);
    memcpy(blob + 72, joints, 12);
    tg_put_floats(blob + 84, weights, 12);
    memcpy(blob + 132, idx, 8);
    tg_put_floats(blob + 140, ibm, 32);
    tg_put_floats(blob + 268, times, 2);
    tg_put_floats(blob + 276, rots, 8);
    tg_put_floats(blob + 308, trans, 6);
    tg_put_floats(blob + 332, times2, 2);
}

/* JSON of the triangle: printf format taking joint A's name, joint B's
 * name, the animations array ("[]" for none) and the buffer URI. */
static const char tg_skinned_json[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0,1]}],"
    "\"nodes\":[{\"name\":\"mesh\",\"mesh\":0,\"skin\":0},{\"name\":\"%s\",\"children\":[2]},"
    "{\"name\":\"%s\",\"translation\":[0,1,0]}],"
    "\"meshes\":[{\"name\":\"tri\",\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,"
    "\"JOINTS_0\":2,\"WEIGHTS_0\":3},\"indices\":4}]}],"
    "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":5}],"
    "\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"min\":[0,0,0],"
    "\"max\":[1,1,0]},"
    "{\"bufferView\":0,\"byteOffset\":36,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":0,\"byteOffset\":72,\"componentType\":5121,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":0,\"byteOffset\":84,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"},"
    "{\"bufferView\":0,\"byteOffset\":132,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":0,\"byteOffset\":140,\"componentType\":5126,\"count\":2,\"type\":\"MAT4\"},"
    "{\"bufferView\":0,\"byteOffset\":268,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
    "\"min\":[0],\"max\":[1]},"
    "{\"bufferView\":0,\"byteOffset\":276,\"componentType\":5126,\"count\":2,\"type\":\"VEC4\"},"
    "{\"bufferView\":0,\"byteOffset\":308,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"},"
    "{\"bufferView\":0,\"byteOffset\":332,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\","
    "\"min\":[0],\"max\":[0.5]}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":340}],"
    "\"animations\":%s,"
    "\"buffers\":[{\"byteLength\":340%s}]}";

/* An animation-only file whose one channel has no target node: printf
 * format taking the default scene's JSON ("{}": no node in it). */
static const char tg_nodeless_json[] =
    "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[%s],\"nodes\":[{\"name\":\"N\"}],"
    "\"animations\":[{\"channels\":[{\"sampler\":0,\"target\":{\"path\":\"translation\"}}],"
    "\"samplers\":[{\"input\":0,\"output\":1}]}],\"accessors\":[{\"bufferView\":0,"
    "\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\",\"min\":[0],\"max\":[1]},"
    "{\"bufferView\":0,\"byteOffset\":8,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":32}],\"buffers\":[{\"byteLength\":32,"
    "\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAAAAAAAA=\"}]}";

static inline char *tg_base64(const unsigned char *data, size_t n)
{
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((n + 2) / 3) + 1), *p = out;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)data[i] << 16 | (i + 1 < n ? (unsigned)data[i + 1] << 8 : 0u) |
                     (i + 2 < n ? data[i + 2] : 0u);
        *p++ = a[v >> 18 & 63];
        *p++ = a[v >> 12 & 63];
        *p++ = i + 1 < n ? a[v >> 6 & 63] : '=';
        *p++ = i + 2 < n ? a[v & 63] : '=';
    }
    *p = '\0';
    return out;
}

static inline int tg_write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f);
}

/* An animation-only file of one node "N"; the caller gives the accessors,
 * buffer views (NULL: one view of the whole buffer), samplers, channels and
 * the bytes of buffer 0, embedded, or written to bin_path and named by
 * bin_uri. */
static inline int tg_write_anim(const char *path, const char *accessors, const char *views,
                                const char *samplers, const char *channels,
                                const unsigned char *bytes, size_t n, const char *bin_uri,
                                const char *bin_path)
{
    if (bin_uri) {
        FILE *f = fopen(bin_path, "wb");
        if (!f)
            return -1;
        fwrite(bytes, 1, n, f);
        fclose(f);
    }
    char *b64 = tg_base64(bytes, n);
    const size_t size = strlen(accessors) + (views ? strlen(views) : 0) + strlen(samplers) +
                        strlen(channels) + strlen(b64) + 2048;
    char *json = malloc(size), whole[64];
    snprintf(whole, sizeof whole, "[{\"buffer\":0,\"byteLength\":%zu}]", n);
    snprintf(json, size,
             "{\"asset\":{\"version\":\"2.0\"},\"scene\":0,\"scenes\":[{\"nodes\":[0]}],"
             "\"nodes\":[{\"name\":\"N\"}],\"animations\":[{\"name\":\"a\",\"channels\":%s,"
             "\"samplers\":%s}],\"accessors\":%s,\"bufferViews\":%s,"
             "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"%s%s\"}]}",
             channels, samplers, accessors, views ? views : whole, n,
             bin_uri ? "" : "data:application/octet-stream;base64,", bin_uri ? bin_uri : b64);
    int r = tg_write_text(path, json);
    free(json);
    free(b64);
    return r;
}

/* A document assembled piece by piece: buffer views appended to one
 * embedded buffer, accessors given as JSON objects. */
typedef struct tg_doc {
    unsigned char bytes[4096];
    size_t byte_count;
    char views[4096];
    int view_count;
    char accessors[8192];
    int accessor_count;
} tg_doc;

static inline void tg_append(char *list, size_t size, int count, const char *item)
{
    const size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s", count ? "," : "", item);
}

/* Appends n bytes as a new buffer view (4-byte aligned) with the JSON
 * members `extra` (e.g. ",\"byteStride\":16", or ""); returns its index. */
static inline int tg_view(tg_doc *d, const void *data, size_t n, const char *extra)
{
    char view[160];
    snprintf(view, sizeof view, "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu%s}",
             d->byte_count, n, extra);
    memcpy(d->bytes + d->byte_count, data, n);
    d->byte_count = (d->byte_count + n + 3) & ~(size_t)3;
    tg_append(d->views, sizeof d->views, d->view_count, view);
    return d->view_count++;
}

/* Appends an accessor (a JSON object); returns its index. */
static inline int tg_accessor(tg_doc *d, const char *json)
{
    tg_append(d->accessors, sizeof d->accessors, d->accessor_count, json);
    return d->accessor_count++;
}

/* Writes the document: `members` (asset, scene, nodes, animations... with
 * no trailing comma), then its accessors, views and embedded buffer. */
static inline int tg_write_doc(const char *path, const tg_doc *d, const char *members)
{
    char *b64 = tg_base64(d->bytes, d->byte_count);
    const size_t size = strlen(members) + sizeof d->views + sizeof d->accessors + strlen(b64) +
                        256;
    char *json = malloc(size);
    snprintf(json, size,
             "{%s,\"accessors\":[%s],\"bufferViews\":[%s],\"buffers\":[{\"byteLength\":%zu,"
             "\"uri\":\"data:application/octet-stream;base64,%s\"}]}",
             members, d->accessors, d->views, d->byte_count, b64);
    int r = tg_write_text(path, json);
    free(json);
    free(b64);
    return r;
}

/* The triangle as a .gltf with the buffer embedded as a data: URI. */
static inline int tg_write_skinned(const char *path, const char *a, const char *b,
                                   const char *animations)
{
    unsigned char blob[TG_BLOB_BYTES];
    tg_triangle_blob(blob);
    char *b64 = tg_base64(blob, TG_BLOB_BYTES);
    size_t size = strlen(tg_skinned_json) + strlen(b64) + 4096 + strlen(animations);
    char *uri = malloc(strlen(b64) + 64), *json = malloc(size);
    snprintf(uri, strlen(b64) + 64, ",\"uri\":\"data:application/octet-stream;base64,%s\"", b64);
    snprintf(json, size, tg_skinned_json, a, b, animations, uri);
    int r = tg_write_text(path, json);
    free(b64), free(uri), free(json);
    return r;
}

/* The triangle as a .glb: the JSON chunk, then the buffer as the BIN chunk. */
static inline int tg_write_skinned_glb(const char *path, const char *a, const char *b,
                                       const char *animations)
{
    unsigned char blob[TG_BLOB_BYTES];
    tg_triangle_blob(blob);
    size_t size = strlen(tg_skinned_json) + 4096 + strlen(animations);
    char *json = malloc(size);
    snprintf(json, size, tg_skinned_json, a, b, animations, "");
    size_t jlen = strlen(json), jpad = (jlen + 3) & ~(size_t)3;
    unsigned header[5] = {0x46546C67u, 2u, (unsigned)(12 + 8 + jpad + 8 + TG_BLOB_BYTES),
                          (unsigned)jpad, 0x4E4F534Au};
    unsigned bin_header[2] = {TG_BLOB_BYTES, 0x004E4942u};
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(json);
        return -1;
    }
    fwrite(header, 4, 5, f);
    fwrite(json, 1, jlen, f);
    for (size_t i = jlen; i < jpad; ++i)
        fputc(' ', f);
    fwrite(bin_header, 4, 2, f);
    fwrite(blob, 1, TG_BLOB_BYTES, f);
    free(json);
    return fclose(f);
}

#endif /* OSSA_IMPORT_GLTF_WRITER_H */
