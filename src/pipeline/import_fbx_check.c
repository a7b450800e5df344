/* import_fbx_check.c - an FBX file (binary or ASCII) checked before assimp
 * reads it, in one pass: records well formed and nested no deeper than
 * assimp's recursive reader can take, no array that promises more values
 * than its bytes can hold (a binary array length of 0xFFFFFFFF made assimp
 * 5.2 allocate 4 GB and read garbage), and a node hierarchy (models joined
 * by "OO" connections) that is a tree no deeper than OSSA_IMPORT_MAX_DEPTH:
 * assimp converts it recursively, once under every parent a model has;
 * and no model property of a type assimp 5.2 cannot copy into a node's
 * metadata (KTime, ColorAndAlpha: it aborts on an assertion).
 * Records of both forms are also handed, once checked, to a visitor
 * (import_fbx.h: the reader of animated properties). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_fbx.h"
#include "import_preflight.h"

#define BINARY_MAGIC "Kaydara FBX Binary  "
/* deflate never expands more than 1032 to 1: a compressed array whose
 * values would need more than that from its bytes is lying. */
#define MAX_DEFLATE_RATIO 1032u

typedef struct link {
    int64_t child, parent;
} link;

typedef struct fbx {
    const char *path;
    ossa_error *error;
    ossa_import *im;
    const unsigned char *d;
    uint64_t n;
    bool wide; /* 64-bit record headers (version 7500 and later) */
    int64_t *models;
    int model_count, model_capacity;
    link *links;
    int link_count, link_capacity;
    const ossai_fbx_visitor *visitor; /* may be NULL */
} fbx;

/* Where a record lies: what its children are. */
enum { IN_OTHER, IN_OBJECTS, IN_CONNECTIONS, IN_MODEL, IN_MODEL_PROPERTIES };

/* The context of a record's children: `name` inside `context`. */
static int inner_context(int context, int depth, const unsigned char *name, uint64_t length)
{
    const struct {
        int context, depth; /* depth -1: any */
        const char *name;
        int inner;
    } nesting[] = {{IN_OTHER, 0, "Objects", IN_OBJECTS},
                   {IN_OTHER, 0, "Connections", IN_CONNECTIONS},
                   {IN_OBJECTS, -1, "Model", IN_MODEL},
                   {IN_MODEL, -1, "Properties70", IN_MODEL_PROPERTIES}};
    for (size_t i = 0; i < sizeof nesting / sizeof nesting[0]; ++i)
        if (context == nesting[i].context && (nesting[i].depth < 0 || depth == nesting[i].depth) &&
            length == strlen(nesting[i].name) && memcmp(name, nesting[i].name, length) == 0)
            return nesting[i].inner;
    return IN_OTHER;
}

static ossa_result fail(fbx *f, uint64_t at, const char *format, uint64_t a, uint64_t b)
{
    char message[200];
    snprintf(message, sizeof message, format, (unsigned long long)a, (unsigned long long)b);
    return ossa_error_set(f->error, OSSA_ERR_IMPORT, -1, (int64_t)at, "%s: at byte %llu: %s",
                          f->path, (unsigned long long)at, message);
}

/* A model's property of type `type` (a P record in its Properties70):
 * assimp 5.2 copies every property it did not read itself into the node's
 * metadata and asserts (aborts) on the types it has no metadata kind for,
 * a 64-bit time and a colour with alpha. */
static ossa_result model_property(fbx *f, uint64_t at, const unsigned char *name,
                                  uint64_t name_length, const unsigned char *type,
                                  uint64_t type_length)
{
    static const char *const refused[] = {"KTime", "ColorAndAlpha"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i)
        if (type_length == strlen(refused[i]) && memcmp(type, refused[i], type_length) == 0) {
            const int n = name_length < 60 ? (int)name_length : 60;
            return ossa_error_set(f->error, OSSA_ERR_IMPORT, -1, (int64_t)at,
                                  "%s: at byte %llu: model property '%.*s' has type %s, which "
                                  "assimp 5.2 cannot carry into the node's metadata (it aborts)",
                                  f->path, (unsigned long long)at, n, (const char *)name,
                                  refused[i]);
        }
    return OSSA_OK;
}

static ossa_result out_of_memory(fbx *f)
{
    return ossa_error_set(f->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                          f->path);
}

static bool add_model(fbx *f, int64_t id)
{
    if (f->model_count == f->model_capacity) {
        const int capacity = f->model_capacity ? 2 * f->model_capacity : 256;
        int64_t *grown = realloc(f->models, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        f->models = grown;
        f->model_capacity = capacity;
    }
    f->models[f->model_count++] = id;
    return true;
}

static bool add_link(fbx *f, int64_t child, int64_t parent)
{
    if (f->link_count == f->link_capacity) {
        const int capacity = f->link_capacity ? 2 * f->link_capacity : 256;
        link *grown = realloc(f->links, sizeof *grown * (size_t)capacity);
        if (!grown)
            return false;
        f->links = grown;
        f->link_capacity = capacity;
    }
    f->links[f->link_count++] = (link){child, parent};
    return true;
}

/* ---- the hierarchy, for both forms ---- */

/* Open-addressing table from model id to its index. */
typedef struct id_table {
    int64_t *keys;
    int *values;
    size_t mask;
} id_table;

static size_t slot_of(const id_table *t, int64_t key)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15u;
    size_t s = (size_t)(h >> 17) & t->mask;
    while (t->values[s] >= 0 && t->keys[s] != key)
        s = (s + 1) & t->mask;
    return s;
}

static int find_model(const id_table *t, int64_t key)
{
    return t->values[slot_of(t, key)];
}

/* Every model has at most one parent model, no model is its own ancestor,
 * and none is deeper than the limit: time linear in models and links. */
static ossa_result check_hierarchy(fbx *f)
{
    const int n = f->model_count;
    if (n == 0)
        return OSSA_OK;
    size_t size = 1;
    while (size < 2 * (size_t)n)
        size <<= 1;
    id_table t = {ossai_import_alloc(f->im, size, sizeof(int64_t)),
                  ossai_import_alloc(f->im, size, sizeof(int)), size - 1};
    int *parent = ossai_import_alloc(f->im, (size_t)n, sizeof(int));
    int *depth = ossai_import_alloc(f->im, (size_t)n, sizeof(int));
    int *path = ossai_import_alloc(f->im, (size_t)n, sizeof(int));
    if (!t.keys || !t.values || !parent || !depth || !path)
        return out_of_memory(f);
    for (size_t s = 0; s < size; ++s)
        t.values[s] = -1;
    for (int i = 0; i < n; ++i) {
        const size_t s = slot_of(&t, f->models[i]);
        if (t.values[s] >= 0)
            return fail(f, 0, "two models have the id %lld%.0llu",
                        (uint64_t)f->models[i], 0);
        t.keys[s] = f->models[i];
        t.values[s] = i;
        parent[i] = -1;
        depth[i] = -1;
    }
    for (int k = 0; k < f->link_count; ++k) {
        const int child = find_model(&t, f->links[k].child);
        const int up = find_model(&t, f->links[k].parent);
        if (child < 0 || up < 0)
            continue; /* a link to the scene root (0) or to something else */
        if (parent[child] >= 0 || child == up)
            return fail(f, 0, "model %lld is connected below %llu models (the node hierarchy "
                              "must be a tree)",
                        (uint64_t)f->links[k].child, parent[child] >= 0 ? 2 : 1);
        parent[child] = up;
    }
    enum { ON_PATH = -2 };
    for (int i = 0; i < n; ++i) {
        int length = 0, p = i;
        while (p >= 0 && depth[p] == -1) {
            depth[p] = ON_PATH;
            path[length++] = p;
            p = parent[p];
        }
        if (p >= 0 && depth[p] == ON_PATH)
            return fail(f, 0, "model %lld is its own ancestor%.0llu", (uint64_t)f->models[p], 0);
        int d = p >= 0 ? depth[p] : -1;
        while (length > 0)
            depth[path[--length]] = ++d;
        if (depth[i] > OSSA_IMPORT_MAX_DEPTH) {
            int deep = i;
            while (depth[deep] > OSSA_IMPORT_MAX_DEPTH + 1)
                deep = parent[deep];
            return ossa_error_set(f->error, OSSA_ERR_UNSUPPORTED, deep, -1,
                                  "%s: model %lld is %d levels below its root: deeper than the "
                                  "%d ossa accepts",
                                  f->path, (long long)f->models[deep], depth[deep],
                                  OSSA_IMPORT_MAX_DEPTH);
        }
    }
    return OSSA_OK;
}

/* ---- binary ---- */

static ossa_result array_property(fbx *f, uint64_t at, char type, uint64_t end, uint64_t *next)
{
    if (end - at < 12)
        return fail(f, at, "an array property runs past its record%.0llu%.0llu", 0, 0);
    const uint64_t length = ossai_fbx_le(f->d + at, 4), encoding = ossai_fbx_le(f->d + at + 4, 4),
                   stored = ossai_fbx_le(f->d + at + 8, 4);
    const uint64_t stride = type == 'd' || type == 'l' ? 8 : type == 'f' || type == 'i' ? 4 : 1;
    const uint64_t bytes = length * stride;
    if (stored > end - at - 12)
        return fail(f, at, "an array's %llu bytes run past its record (%llu left)", stored,
                    end - at - 12);
    if (encoding == 0 && bytes != stored)
        return fail(f, at, "an array of %llu values is stored in %llu bytes", length, stored);
    if (encoding == 1 && (bytes >= (uint64_t)1 << 32 || bytes > stored * MAX_DEFLATE_RATIO + 64))
        return fail(f, at, "an array of %llu values is compressed into %llu bytes, which "
                           "cannot hold them",
                    length, stored);
    if (encoding > 1)
        return fail(f, at, "an array has encoding %llu (0 or 1)%.0llu", encoding, 0);
    *next = at + 12 + stored;
    return OSSA_OK;
}

/* The properties of a record, [at, end); ids of models and connections
 * are collected on the way. */
static ossa_result properties(fbx *f, uint64_t at, uint64_t end, uint64_t count, int context,
                              const unsigned char *name, uint64_t name_length)
{
    const bool model = context == IN_OBJECTS && name_length == 5 && memcmp(name, "Model", 5) == 0;
    const bool connection = context == IN_CONNECTIONS && name_length == 1 && name[0] == 'C';
    const bool model_p = context == IN_MODEL_PROPERTIES && name_length == 1 && name[0] == 'P';
    const unsigned char *strings[2] = {NULL, NULL}; /* a model property's name and type */
    uint64_t string_length[2] = {0, 0};
    const uint64_t first = at;
    int64_t ids[2] = {0, 0};
    int id_count = 0;
    bool object_object = false;
    for (uint64_t p = 0; p < count; ++p) {
        if (at >= end)
            return fail(f, at, "a record's %llu properties run past its %llu bytes", count,
                        end);
        const char type = (char)f->d[at++];
        uint64_t size = ossai_fbx_scalar_size(type), next = 0;
        if (type == 'S' || type == 'R') {
            if (end - at < 4)
                return fail(f, at, "a string runs past its record%.0llu%.0llu", 0, 0);
            size = 4 + ossai_fbx_le(f->d + at, 4);
        } else if (ossai_fbx_is_array(type)) {
            ossa_result r = array_property(f, at, type, end, &next);
            if (r)
                return r;
            size = next - at;
        } else if (size == 0) {
            return fail(f, at - 1, "unknown property type %llu%.0llu", (uint64_t)(unsigned char)type,
                        0);
        }
        if (size > end - at)
            return fail(f, at, "a property of %llu bytes runs past its record%.0llu", size, 0);
        if (type == 'S' && p == 0) /* as assimp 5.2 reads a connection (add_connection) */
            object_object = !(size == 6 && (memcmp(f->d + at + 4, "OP", 2) == 0 ||
                                            memcmp(f->d + at + 4, "PP", 2) == 0));
        if (type == 'S' && p < 2) {
            strings[p] = f->d + at + 4;
            string_length[p] = size - 4;
        }
        if (type == 'L' && id_count < 2 && (model ? p == 0 : connection && p >= 1))
            ids[id_count++] = (int64_t)ossai_fbx_le(f->d + at, 8);
        at += size;
    }
    if (at != end)
        return fail(f, at, "a record's properties end %llu bytes before their stated end%.0llu",
                    end - at, 0);
    if (model_p && strings[0] && strings[1]) {
        ossa_result r = model_property(f, first, strings[0], string_length[0], strings[1],
                                       string_length[1]);
        if (r)
            return r;
    }
    if (model && id_count == 1 && !add_model(f, ids[0]))
        return out_of_memory(f);
    if (connection && object_object && id_count == 2 && !add_link(f, ids[0], ids[1]))
        return out_of_memory(f);
    return OSSA_OK;
}

/* One record at `at` inside [.., limit): checked with its children; *next
 * is its end (0 for a null record). */
static ossa_result record(fbx *f, uint64_t at, uint64_t limit, int depth, int context,
                          uint64_t *next)
{
    const uint64_t header = f->wide ? 25 : 13, word = f->wide ? 8 : 4;
    if (limit - at < header)
        return fail(f, at, "a record header runs past the end (%llu bytes left)%.0llu",
                    limit - at, 0);
    const unsigned char *h = f->d + at;
    const uint64_t end = ossai_fbx_le(h, (int)word), count = ossai_fbx_le(h + word, (int)word),
                   props = ossai_fbx_le(h + 2 * word, (int)word), name_length = h[3 * word];
    if (end == 0) {
        *next = 0;
        return OSSA_OK;
    }
    if (end > limit || end <= at || name_length > end - at - header ||
        props > end - at - header - name_length)
        return fail(f, at, "a record's end (%llu) or its parts lie outside [.., %llu]", end,
                    limit);
    const unsigned char *name = h + header;
    const uint64_t props_at = at + header + name_length, props_end = props_at + props;
    ossa_result r = properties(f, props_at, props_end, count, context, name, name_length);
    if (r)
        return r;
    if (f->visitor) {
        const ossai_fbx_record visited = {f->d, name, name_length, props_at, props_end, count,
                                          depth, false};
        if ((r = f->visitor->visit(f->visitor->context, &visited)))
            return r;
    }
    *next = end;
    if (props_end == end)
        return OSSA_OK;
    if (depth >= OSSA_IMPORT_MAX_DEPTH)
        return fail(f, at, "records nest deeper than %llu levels%.0llu", OSSA_IMPORT_MAX_DEPTH, 0);
    const uint64_t sentinel = header;
    if (end - props_end < sentinel)
        return fail(f, at, "a record's children end without their %llu zero bytes%.0llu",
                    sentinel, 0);
    const int inner = inner_context(context, depth, name, name_length);
    uint64_t child = props_end;
    while (child < end - sentinel) {
        uint64_t child_end = 0;
        if ((r = record(f, child, end - sentinel, depth + 1, inner, &child_end)))
            return r;
        if (child_end == 0)
            return fail(f, child, "a null record inside a list%.0llu%.0llu", 0, 0);
        child = child_end;
    }
    for (uint64_t k = 0; k < sentinel; ++k)
        if (f->d[end - sentinel + k] != 0)
            return fail(f, end - sentinel, "a list's closing bytes are not zero%.0llu%.0llu", 0,
                        0);
    return OSSA_OK;
}

static ossa_result binary(fbx *f)
{
    if (f->n < 27)
        return fail(f, 0, "a binary FBX header needs 27 bytes, the file has %llu%.0llu", f->n, 0);
    f->wide = ossai_fbx_le(f->d + 23, 4) >= 7500;
    uint64_t at = 27;
    const uint64_t header = f->wide ? 25 : 13;
    while (f->n - at >= header) {
        uint64_t next = 0;
        ossa_result r = record(f, at, f->n, 0, IN_OTHER, &next);
        if (r)
            return r;
        if (next == 0)
            break;
        at = next;
    }
    return OSSA_OK;
}

/* ---- ASCII ---- */

/* The next non-blank, non-comment position. */
static uint64_t skip_blank(const fbx *f, uint64_t at)
{
    while (at < f->n) {
        if (f->d[at] == ';') {
            while (at < f->n && f->d[at] != '\n')
                ++at;
        } else if (isspace(f->d[at]) || f->d[at] == ',') {
            ++at;
        } else {
            break;
        }
    }
    return at;
}

/* An ASCII record being read: `Key: values` (a model's id, or an "OO"
 * connection's two ids, are kept). */
typedef struct ascii_record {
    const unsigned char *key;
    uint64_t key_length;
    uint64_t values_at; /* where its values start (after the ':') */
    int64_t values[3];
    int value_count;
    bool oo;
    const unsigned char *strings[2]; /* its first two values, when quoted strings */
    uint64_t string_length[2];
} ascii_record;

static bool key_is(const ascii_record *rec, const char *name)
{
    return rec->key && rec->key_length == strlen(name) &&
           memcmp(rec->key, name, rec->key_length) == 0;
}

/* The record ends at `end` (a new key, a brace, the end of the file):
 * collects what it names, and hands it to the visitor (its values are the
 * text [values_at, end), its depth the braces around it). */
static ossa_result flush(fbx *f, ascii_record *rec, int context, int depth, uint64_t end)
{
    bool ok = true;
    if (context == IN_MODEL_PROPERTIES && key_is(rec, "P") && rec->strings[0] && rec->strings[1]) {
        ossa_result r = model_property(f, (uint64_t)(rec->key - f->d), rec->strings[0],
                                       rec->string_length[0], rec->strings[1],
                                       rec->string_length[1]);
        if (r)
            return r;
    }
    if (context == IN_OBJECTS && key_is(rec, "Model") && rec->value_count >= 1)
        ok = add_model(f, rec->values[0]);
    else if (context == IN_CONNECTIONS && key_is(rec, "C") && rec->oo && rec->value_count >= 3)
        ok = add_link(f, rec->values[1], rec->values[2]);
    if (!ok)
        return out_of_memory(f);
    if (f->visitor && rec->key) {
        const ossai_fbx_record visited = {f->d,  rec->key, rec->key_length, rec->values_at,
                                          end,   0,        depth,           true};
        ossa_result r = f->visitor->visit(f->visitor->context, &visited);
        if (r)
            return r;
    }
    memset(rec, 0, sizeof *rec);
    return OSSA_OK;
}

/* ASCII records: `Key: values {` ... `}`. Tracks brace depth, array sizes
 * (`*N {` must leave room for N values), models and connections. */
static ossa_result ascii(fbx *f)
{
    int depth = 0;
    int block[OSSA_IMPORT_MAX_DEPTH + 2]; /* context of each open block */
    ascii_record rec;
    memset(&rec, 0, sizeof rec);
    uint64_t at = 0;
    block[0] = IN_OTHER;
    for (;;) {
        at = skip_blank(f, at);
        if (at >= f->n)
            break;
        const unsigned char c = f->d[at];
        if (c == '{' || c == '}') {
            const int inner = rec.key ? inner_context(block[depth], depth, rec.key,
                                                      rec.key_length)
                                      : IN_OTHER;
            ossa_result r = flush(f, &rec, block[depth], depth, at);
            if (r)
                return r;
            if (c == '{' && depth >= OSSA_IMPORT_MAX_DEPTH)
                return fail(f, at, "braces nest deeper than %llu levels%.0llu",
                            OSSA_IMPORT_MAX_DEPTH, 0);
            if (c == '{')
                block[++depth] = inner;
            else if (depth > 0)
                --depth;
            ++at;
            continue;
        }
        if (c == '"') {
            const unsigned char *close = memchr(f->d + at + 1, '"', f->n - at - 1);
            const uint64_t end = close ? (uint64_t)(close - f->d) : f->n;
            if (rec.key && rec.value_count == 0) /* any type but "OP" and "PP" */
                rec.oo = !(end - at - 1 == 2 && (memcmp(f->d + at + 1, "OP", 2) == 0 ||
                                                 memcmp(f->d + at + 1, "PP", 2) == 0));
            if (rec.key && rec.value_count < 2) {
                rec.strings[rec.value_count] = f->d + at + 1;
                rec.string_length[rec.value_count] = end - at - 1;
            }
            ++rec.value_count;
            at = end + 1;
            continue;
        }
        if (c == '*') { /* array size: *N { a: v,v,... } */
            uint64_t after = at + 1, n = 0;
            while (after < f->n && isdigit(f->d[after]) && n < ((uint64_t)1 << 60))
                n = n * 10 + (uint64_t)(f->d[after++] - '0');
            /* Each value takes a character and a separator at least. */
            if (n > (f->n - after + 1) / 2)
                return fail(f, at, "an array of %llu values in the %llu bytes left", n,
                            f->n - after);
            at = after;
            continue;
        }
        /* A word: a key (followed by ':') or a value. */
        uint64_t end = at;
        while (end < f->n && !isspace(f->d[end]) && f->d[end] != ',' && f->d[end] != ':' &&
               f->d[end] != '{' && f->d[end] != '}' && f->d[end] != '"' && f->d[end] != ';')
            ++end;
        if (end == at)
            end = at + 1;
        if (end < f->n && f->d[end] == ':') {
            ossa_result r = flush(f, &rec, block[depth], depth, at);
            if (r)
                return r;
            rec.key = f->d + at;
            rec.key_length = end - at;
            rec.values_at = end + 1;
            at = end + 1;
            continue;
        }
        if (rec.key && rec.value_count < 3) {
            char number[32];
            const size_t len = end - at < sizeof number - 1 ? (size_t)(end - at) : sizeof number - 1;
            memcpy(number, f->d + at, len);
            number[len] = '\0';
            rec.values[rec.value_count] = strtoll(number, NULL, 10);
        }
        ++rec.value_count;
        at = end;
    }
    return flush(f, &rec, block[depth], depth, f->n);
}

ossa_result ossai_fbx_preflight(ossa_import *im, const char *path, const unsigned char *data,
                                size_t bytes, const ossai_fbx_visitor *visitor,
                                ossa_error *error)
{
    fbx f;
    memset(&f, 0, sizeof f);
    f.path = path;
    f.error = error;
    f.im = im;
    f.d = data;
    f.n = bytes;
    f.visitor = visitor;
    const bool is_binary = bytes >= 20 && memcmp(data, BINARY_MAGIC, 20) == 0;
    ossa_result r = is_binary ? binary(&f) : ascii(&f);
    if (r == OSSA_OK)
        r = check_hierarchy(&f);
    free(f.models);
    free(f.links);
    return r;
}
