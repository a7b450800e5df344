/* import_dae_check.c - a Collada file checked before assimp reads it, in
 * one pass over its XML: nesting no deeper than assimp's recursive readers
 * can take, and no count that promises more data than the file holds
 * (assimp 5.2 reserves memory for every `count` it reads before it reads
 * the values: one attribute made it allocate 4-14 GB), and <instance_node>
 * used so that assimp's recursive copy stays finite: a node instancing
 * itself crashed it; and no <accessor> that reaches past the end of its
 * array (assimp reads accessors unchecked: an assertion aborted it). Every
 * element is also handed to a visitor (import_dae.h: the reader of
 * animated custom values). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_dae.h"
#include "import_preflight.h"

/* Elements nest a few levels deeper than nodes (COLLADA, library,
 * visual_scene...). */
#define MAX_ELEMENT_DEPTH (OSSA_IMPORT_MAX_DEPTH + 32)
/* Nodes an <instance_node> may copy in all (assimp copies the subtree). */
#define MAX_INSTANCED_NODES (1 << 20)
/* Offsets of a primitive's inputs: one per input, a handful in practice;
 * assimp sizes its index table by the largest. */
#define MAX_INPUT_OFFSET 64

/* A <node> as instancing sees it: its id and the subtree below it. */
typedef struct dae_node {
    const char *id; /* into the file; id_length bytes */
    size_t id_length;
    int depth;      /* levels below its root */
    int height;     /* levels below it (0: no child node) */
    int size;       /* nodes in its subtree, itself included (saturates) */
    bool instances; /* an <instance_node> lies in its subtree */
} dae_node;

typedef struct dae_instance {
    const char *target; /* the url after '#'; target_length bytes */
    size_t target_length;
    int node;           /* the enclosing node, -1 for none */
    const char *at;
} dae_instance;

/* A data array assimp keeps (float_array, Name_array, IDREF_array): its
 * id and the values its count attribute makes assimp read. */
typedef struct dae_array {
    const char *id; /* into the file; id_length bytes */
    size_t id_length;
    uint64_t count;
} dae_array;

/* An <accessor>: where it reads in which array. */
typedef struct dae_accessor {
    const char *source; /* the url after '#'; source_length bytes */
    size_t source_length;
    uint64_t count, offset, stride;
    uint64_t width; /* values an element spans: its params (16 for a float4x4) */
    const char *at;
} dae_accessor;

typedef struct scan {
    ossa_import *im;
    ossai_dae_info *info;
    int clip_capacity;
    const char *path;
    ossa_error *error;
    const char *text, *end;
    int depth, node_depth;
    /* The primitive element being read (triangles, polylist...): its count
     * and the values its <p> and <vcount> children hold. */
    int primitive_depth;
    char primitive[16];
    uint64_t primitive_count, p_values, vcount_values, p_elements;
    dae_node *nodes;
    int node_count, node_capacity;
    int open[OSSA_IMPORT_MAX_DEPTH + 2]; /* the nodes being read, outermost first */
    dae_instance *instances;
    int instance_count, instance_capacity;
    dae_array *arrays;
    int array_count, array_capacity;
    dae_accessor *accessors;
    int accessor_count, accessor_capacity;
    int accessor_depth; /* the open <accessor>'s depth, -1 outside one */
    const ossai_dae_visitor *visitor; /* may be NULL */
} scan;

static ossa_result fail(scan *s, const char *at, const char *format, const char *detail,
                        uint64_t a, uint64_t b)
{
    int line = 1;
    for (const char *c = s->text; c < at; ++c)
        line += *c == '\n';
    char message[320];
    snprintf(message, sizeof message, format, detail, (unsigned long long)a,
             (unsigned long long)b);
    return ossa_error_set(s->error, OSSA_ERR_IMPORT, line, at - s->text, "%s: line %d: %s",
                          s->path, line, message);
}

static ossa_result out_of_memory(scan *s)
{
    return ossa_error_set(s->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", s->path);
}

bool ossai_dae_attribute(const char *tag, const char *tag_end, const char *name,
                         const char **value, size_t *length)
{
    const size_t n = strlen(name);
    for (const char *c = tag + 1; c + n + 2 < tag_end; ++c) {
        if (*c == '"' || *c == '\'') { /* skip values: a name inside one is not an attribute */
            const char *q = memchr(c + 1, *c, (size_t)(tag_end - c - 1));
            if (!q)
                return false;
            c = q;
            continue;
        }
        if (!isspace((unsigned char)c[-1]) || memcmp(c, name, n) != 0)
            continue;
        const char *v = c + n;
        while (v < tag_end && isspace((unsigned char)*v))
            ++v;
        if (v >= tag_end || *v != '=')
            continue;
        ++v;
        while (v < tag_end && isspace((unsigned char)*v))
            ++v;
        if (v >= tag_end || (*v != '"' && *v != '\''))
            return false;
        const char *close = memchr(v + 1, *v, (size_t)(tag_end - v - 1));
        if (!close)
            return false;
        *value = v + 1;
        *length = (size_t)(close - v - 1);
        return true;
    }
    return false;
}

/* The same copied to out (truncated). */
static bool attribute(const char *tag, const char *tag_end, const char *name, char *out,
                      size_t size)
{
    const char *value;
    size_t length;
    if (!ossai_dae_attribute(tag, tag_end, name, &value, &length))
        return false;
    const size_t n = length < size - 1 ? length : size - 1;
    memcpy(out, value, n);
    out[n] = '\0';
    return true;
}

/* A <node> opens (it is open[node_depth - 1] once counted). */
static bool node_open(scan *s, const char *tag, const char *tag_end)
{
    if (!ossai_import_grow((void **)&s->nodes, &s->node_capacity, s->node_count,
                           sizeof *s->nodes))
        return false;
    dae_node *n = &s->nodes[s->node_count];
    memset(n, 0, sizeof *n);
    n->size = 1;
    n->depth = s->node_depth - 1;
    if (!ossai_dae_attribute(tag, tag_end, "id", &n->id, &n->id_length))
        n->id = NULL;
    s->open[s->node_depth - 1] = s->node_count++;
    return true;
}

/* The node open[node_depth - 1] closes: its parent learns its subtree. */
static void node_close(scan *s)
{
    if (s->node_depth < 2)
        return;
    const dae_node *child = &s->nodes[s->open[s->node_depth - 1]];
    dae_node *parent = &s->nodes[s->open[s->node_depth - 2]];
    parent->height = child->height + 1 > parent->height ? child->height + 1 : parent->height;
    parent->size = parent->size + child->size < MAX_INSTANCED_NODES * 2
                       ? parent->size + child->size
                       : MAX_INSTANCED_NODES * 2;
    parent->instances |= child->instances;
}

/* An unsigned attribute (assimp reads it as unsigned int); *value is 0 when
 * absent, UINT64_MAX when it is not a number that fits. */
static uint64_t number_attribute(const char *tag, const char *tag_end, const char *name)
{
    char text[32];
    if (!attribute(tag, tag_end, name, text, sizeof text))
        return 0;
    char *stop;
    const unsigned long long v = strtoull(text, &stop, 10);
    return stop == text || text[0] == '-' ? UINT64_MAX : (uint64_t)v;
}

/* Whitespace-separated values from at to the next '<'. */
static uint64_t count_values(const char *at, const char *end, const char **stop)
{
    uint64_t n = 0;
    bool in_value = false;
    for (; at < end && *at != '<'; ++at) {
        const bool space = isspace((unsigned char)*at) != 0;
        n += !space && !in_value;
        in_value = !space;
    }
    *stop = at;
    return n;
}

static bool name_is(const char *name, size_t length, const char *want)
{
    return strlen(want) == length && memcmp(name, want, length) == 0;
}

static bool is_array(const char *name, size_t length)
{
    static const char *const arrays[] = {"float_array", "int_array",    "Name_array",
                                         "IDREF_array", "SIDREF_array", "bool_array",
                                         "token_array"};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; ++i)
        if (name_is(name, length, arrays[i]))
            return true;
    return false;
}

static bool is_primitive(const char *name, size_t length)
{
    static const char *const kinds[] = {"triangles", "polylist", "polygons", "lines",
                                        "linestrips", "trifans", "tristrips"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; ++i)
        if (name_is(name, length, kinds[i]))
            return true;
    return false;
}

/* A primitive element ends: its count must not promise more primitives than
 * its <p> (and <vcount>) values can make. */
static ossa_result primitive_end(scan *s, const char *at)
{
    s->primitive_depth = -1;
    uint64_t available = s->p_values;
    if (strcmp(s->primitive, "polylist") == 0)
        available = s->vcount_values;
    else if (strcmp(s->primitive, "polygons") == 0 || strcmp(s->primitive, "trifans") == 0 ||
             strcmp(s->primitive, "tristrips") == 0 || strcmp(s->primitive, "linestrips") == 0)
        available = s->p_elements;
    if (s->primitive_count > available)
        return fail(s, at, "<%s count=\"%llu\">: only %llu primitives' worth of index data",
                    s->primitive, s->primitive_count, available);
    return OSSA_OK;
}

/* One start tag [name, tag_end): its checks; *content_end is moved past
 * an array's values. */
static ossa_result start_tag(scan *s, const char *tag, const char *name, size_t length,
                             const char *tag_end, bool empty, const char **next)
{
    if (is_array(name, length)) {
        const uint64_t count = number_attribute(tag, tag_end, "count");
        const uint64_t values = empty ? 0 : count_values(tag_end + 1, s->end, next);
        char what[16];
        snprintf(what, sizeof what, "%.*s", (int)length, name);
        if (count > values)
            return fail(s, tag, "<%s count=\"%llu\"> holds %llu values", what, count, values);
        const char *id;
        size_t id_length;
        if ((name_is(name, length, "float_array") || name_is(name, length, "Name_array") ||
             name_is(name, length, "IDREF_array")) &&
            ossai_dae_attribute(tag, tag_end, "id", &id, &id_length)) {
            if (!ossai_import_grow((void **)&s->arrays, &s->array_capacity, s->array_count,
                                   sizeof *s->arrays))
                return out_of_memory(s);
            s->arrays[s->array_count++] = (dae_array){id, id_length, count};
        }
        return OSSA_OK;
    }
    if (name_is(name, length, "accessor")) {
        const char *url;
        size_t url_length;
        if (!ossai_dae_attribute(tag, tag_end, "source", &url, &url_length) || url_length < 2 ||
            url[0] != '#')
            return OSSA_OK; /* assimp's own error */
        if (!ossai_import_grow((void **)&s->accessors, &s->accessor_capacity, s->accessor_count,
                               sizeof *s->accessors))
            return out_of_memory(s);
        const char *stride;
        size_t stride_length;
        dae_accessor *a = &s->accessors[s->accessor_count++];
        *a = (dae_accessor){url + 1, url_length - 1, number_attribute(tag, tag_end, "count"),
                            number_attribute(tag, tag_end, "offset"), 1, 0, tag};
        if (ossai_dae_attribute(tag, tag_end, "stride", &stride, &stride_length))
            a->stride = number_attribute(tag, tag_end, "stride");
        s->accessor_depth = empty ? -1 : s->depth;
        return OSSA_OK;
    }
    if (s->accessor_depth >= 0 && name_is(name, length, "param")) {
        /* assimp indexes components by param position and reads 16 values
         * for a float4x4: the widest of the two is what an element spans. */
        dae_accessor *a = &s->accessors[s->accessor_count - 1];
        const char *type;
        size_t type_length;
        const bool matrix = ossai_dae_attribute(tag, tag_end, "type", &type, &type_length) &&
                            name_is(type, type_length, "float4x4");
        a->width += matrix ? 16 : 1;
        return OSSA_OK;
    }
    if (is_primitive(name, length)) {
        if (s->primitive_depth >= 0)
            return fail(s, tag, "<%s> inside another primitive element", "", 0, 0);
        s->primitive_depth = s->depth;
        snprintf(s->primitive, sizeof s->primitive, "%.*s", (int)length, name);
        s->primitive_count = number_attribute(tag, tag_end, "count");
        s->p_values = s->vcount_values = s->p_elements = 0;
        return OSSA_OK;
    }
    if (s->primitive_depth >= 0 && name_is(name, length, "input")) {
        const uint64_t offset = number_attribute(tag, tag_end, "offset");
        if (offset >= MAX_INPUT_OFFSET)
            return fail(s, tag, "<input%s offset=\"%llu\">: more than the %llu ossa accepts", "",
                        offset, MAX_INPUT_OFFSET - 1);
        return OSSA_OK;
    }
    if (s->primitive_depth >= 0 && (name_is(name, length, "p") || name_is(name, length, "ph"))) {
        s->p_elements++;
        if (!empty)
            s->p_values += count_values(tag_end + 1, s->end, next);
        return OSSA_OK;
    }
    if (name_is(name, length, "animation_clip")) {
        char clip[256];
        if (!attribute(tag, tag_end, "name", clip, sizeof clip) &&
            !attribute(tag, tag_end, "id", clip, sizeof clip))
            clip[0] = '\0';
        ossai_dae_info *info = s->info;
        if (info->clip_name_count == s->clip_capacity) {
            const int capacity = s->clip_capacity ? 2 * s->clip_capacity : 8;
            const char **grown = ossai_import_alloc(s->im, (size_t)capacity, sizeof *grown);
            if (!grown)
                return out_of_memory(s);
            if (info->clip_name_count)
                memcpy(grown, info->clip_names, sizeof *grown * (size_t)info->clip_name_count);
            info->clip_names = grown;
            s->clip_capacity = capacity;
        }
        if (!(info->clip_names[info->clip_name_count++] = ossai_import_strdup(s->im, clip)))
            return out_of_memory(s);
        return OSSA_OK;
    }
    if (s->primitive_depth >= 0 && name_is(name, length, "vcount") && !empty)
        s->vcount_values += count_values(tag_end + 1, s->end, next);
    return OSSA_OK;
}

/* The end of a markup construct starting at c ("<!--", "<?", "<![CDATA["). */
static const char *skip_special(const char *c, const char *end)
{
    const char *close = NULL;
    size_t skip = 0;
    if (end - c >= 4 && memcmp(c, "<!--", 4) == 0) {
        for (const char *x = c + 4; x + 3 <= end && !close; ++x)
            if (memcmp(x, "-->", 3) == 0)
                close = x, skip = 3;
    } else if (end - c >= 9 && memcmp(c, "<![CDATA[", 9) == 0) {
        for (const char *x = c + 9; x + 3 <= end && !close; ++x)
            if (memcmp(x, "]]>", 3) == 0)
                close = x, skip = 3;
    } else {
        close = memchr(c, '>', (size_t)(end - c)), skip = 1;
    }
    return close ? close + skip : end;
}

static ossa_result run(scan *s)
{
    const char *c = s->text;
    ossa_result r;
    while (c < s->end) {
        const char *lt = memchr(c, '<', (size_t)(s->end - c));
        if (!lt)
            break;
        if (lt + 1 < s->end && (lt[1] == '!' || lt[1] == '?')) {
            c = skip_special(lt, s->end);
            continue;
        }
        /* The tag's end: the first '>' outside quotes. */
        const char *t = lt + 1;
        char quote = 0;
        for (; t < s->end && (quote || *t != '>'); ++t)
            if (quote ? *t == quote : (*t == '"' || *t == '\''))
                quote = quote ? 0 : *t;
        if (t >= s->end)
            return fail(s, lt, "a tag is not closed%s", "", 0, 0);
        const bool closing = lt[1] == '/', empty = t[-1] == '/';
        const char *name = lt + 1 + closing;
        size_t length = 0;
        while (name + length < t && !isspace((unsigned char)name[length]) &&
               name[length] != '/' && name[length] != '>')
            ++length;
        c = t + 1;
        if (closing) {
            if (s->primitive_depth >= 0 && s->depth == s->primitive_depth &&
                (r = primitive_end(s, lt)))
                return r;
            if (s->visitor) {
                const ossai_dae_element e = {lt, t, name, length, c, c, true, false};
                if ((r = s->visitor->visit(s->visitor->context, &e)))
                    return r;
            }
            if (s->depth == s->accessor_depth && name_is(name, length, "accessor"))
                s->accessor_depth = -1;
            if (s->depth > 0)
                --s->depth;
            if (name_is(name, length, "node") && s->node_depth > 0) {
                node_close(s);
                --s->node_depth;
            }
            continue;
        }
        if (!empty && ++s->depth > MAX_ELEMENT_DEPTH)
            return fail(s, lt, "elements nest deeper than the %s%llu levels ossa accepts", "",
                        MAX_ELEMENT_DEPTH, 0);
        if (name_is(name, length, "node") && !empty &&
            ++s->node_depth > OSSA_IMPORT_MAX_DEPTH + 1) {
            char id[64] = "";
            if (!attribute(lt, t, "name", id, sizeof id))
                attribute(lt, t, "id", id, sizeof id);
            return fail(s, lt, "node '%s' is %llu levels below its root: deeper than the %llu "
                               "ossa accepts",
                        id, (uint64_t)s->node_depth - 1, OSSA_IMPORT_MAX_DEPTH);
        }
        if (name_is(name, length, "node") && !empty && !node_open(s, lt, t))
            return out_of_memory(s);
        if (name_is(name, length, "node") && empty && s->node_depth > 0) {
            dae_node *parent = &s->nodes[s->open[s->node_depth - 1]];
            parent->height = parent->height > 1 ? parent->height : 1;
            parent->size += parent->size < MAX_INSTANCED_NODES * 2;
        }
        if (name_is(name, length, "instance_node")) {
            const char *url;
            size_t url_length;
            if (ossai_dae_attribute(lt, t, "url", &url, &url_length) && url_length > 1 &&
                url[0] == '#') {
                if (!ossai_import_grow((void **)&s->instances, &s->instance_capacity,
                                       s->instance_count, sizeof *s->instances))
                    return out_of_memory(s);
                const int node = s->node_depth > 0 ? s->open[s->node_depth - 1] : -1;
                s->instances[s->instance_count++] =
                    (dae_instance){url + 1, url_length - 1, node, lt};
                if (node >= 0)
                    s->nodes[node].instances = true;
            }
        }
        const char *next = c;
        if ((r = start_tag(s, lt, name, length, t, empty, &next)))
            return r;
        if (s->visitor) {
            const char *text_end = empty ? c : memchr(c, '<', (size_t)(s->end - c));
            const ossai_dae_element e = {lt,   t,     name, length, c, text_end ? text_end : s->end,
                                         false, empty};
            if ((r = s->visitor->visit(s->visitor->context, &e)))
                return r;
        }
        if (empty && s->primitive_depth == s->depth && is_primitive(name, length) &&
            (r = primitive_end(s, lt)))
            return r;
        c = next;
    }
    return OSSA_OK;
}

static uint64_t hash(const char *text, size_t length)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < length; ++i)
        h = (h ^ (unsigned char)text[i]) * 1099511628211u;
    return h;
}

/* Ids (into the file) to indices: open addressing over a power of two
 * at least twice the ids put in. */
typedef struct id_entry {
    const char *id;
    size_t length;
    int index; /* -1: empty */
} id_entry;

typedef struct id_table {
    id_entry *entries;
    size_t size;
} id_table;

static bool id_table_init(id_table *t, int count)
{
    t->size = 1;
    while (t->size < 2 * (size_t)count + 2)
        t->size <<= 1;
    t->entries = malloc(sizeof *t->entries * t->size);
    for (size_t i = 0; t->entries && i < t->size; ++i)
        t->entries[i].index = -1;
    return t->entries != NULL;
}

/* The entry of id: its own, or the empty one where it would go. */
static id_entry *id_find(const id_table *t, const char *id, size_t length)
{
    size_t slot = (size_t)hash(id, length) & (t->size - 1);
    while (t->entries[slot].index >= 0 &&
           !(t->entries[slot].length == length && memcmp(t->entries[slot].id, id, length) == 0))
        slot = (slot + 1) & (t->size - 1);
    return &t->entries[slot];
}

/* Puts id -> index; of two equal ids the first stays, or the later with
 * `replace`. */
static void id_put(id_table *t, const char *id, size_t length, int index, bool replace)
{
    id_entry *e = id_find(t, id, length);
    if (e->index < 0 || replace)
        *e = (id_entry){id, length, index};
}

/* assimp copies an instanced node's subtree in place of the <instance_node>,
 * recursively: a node instancing itself (or an ancestor) never ends, and
 * instances of instances multiply. ossa accepts one level: the instanced
 * subtree holds no <instance_node>; placed, it stays within the depth
 * limit; and all copies together stay under MAX_INSTANCED_NODES nodes. */
static ossa_result check_instances(scan *s)
{
    if (s->instance_count == 0)
        return OSSA_OK;
    id_table table;
    if (!id_table_init(&table, s->node_count))
        return out_of_memory(s);
    for (int n = 0; n < s->node_count; ++n)
        if (s->nodes[n].id)
            id_put(&table, s->nodes[n].id, s->nodes[n].id_length, n, false);
    ossa_result r = OSSA_OK;
    uint64_t copied = 0;
    for (int k = 0; k < s->instance_count && !r; ++k) {
        const dae_instance *in = &s->instances[k];
        const int found = id_find(&table, in->target, in->target_length)->index;
        if (found < 0)
            continue; /* an unresolved url: assimp's own error */
        const dae_node *target = &s->nodes[found];
        char id[64];
        snprintf(id, sizeof id, "%.*s", (int)(in->target_length < 60 ? in->target_length : 60),
                 in->target);
        const int at = in->node >= 0 ? s->nodes[in->node].depth : 0;
        copied += (uint64_t)target->size;
        if (target->instances)
            r = fail(s, in->at, "<instance_node> of node '%s', which instances nodes itself "
                                "(ossa accepts one level of instancing%.0llu%.0llu)",
                     id, 0, 0);
        else if (at + 1 + target->height > OSSA_IMPORT_MAX_DEPTH)
            r = fail(s, in->at, "<instance_node> of node '%s' reaches %llu levels below its "
                                "root: deeper than the %llu ossa accepts",
                     id, (uint64_t)(at + 1 + target->height), OSSA_IMPORT_MAX_DEPTH);
        else if (copied > MAX_INSTANCED_NODES)
            r = fail(s, in->at, "<instance_node> of node '%s' brings the copied nodes past "
                                "%llu%.0llu",
                     id, MAX_INSTANCED_NODES, 0);
    }
    free(table.entries);
    return r;
}

/* The values an accessor makes assimp read, UINT64_MAX past any file. */
static uint64_t accessor_reach(const dae_accessor *a)
{
    const uint64_t huge = UINT64_MAX / 4, width = a->width ? a->width : 1;
    if (a->count == 0)
        return 0;
    if (a->count > huge || a->offset > huge || a->stride > huge ||
        (a->stride && a->count - 1 > huge / a->stride))
        return UINT64_MAX;
    return a->offset + (a->count - 1) * a->stride + width;
}

/* assimp reads an accessor's values from its array without checking the
 * array holds them (an assertion in a debug build, past the end in a
 * release build). Arrays may come after the accessors that use them, and
 * of two arrays with the same id assimp keeps the later. */
static ossa_result check_accessors(scan *s)
{
    if (s->accessor_count == 0)
        return OSSA_OK;
    id_table table;
    if (!id_table_init(&table, s->array_count))
        return out_of_memory(s);
    for (int k = 0; k < s->array_count; ++k) /* the later of two wins */
        id_put(&table, s->arrays[k].id, s->arrays[k].id_length, k, true);
    ossa_result r = OSSA_OK;
    for (int k = 0; k < s->accessor_count && !r; ++k) {
        const dae_accessor *a = &s->accessors[k];
        const int found = id_find(&table, a->source, a->source_length)->index;
        if (found < 0)
            continue; /* an unresolved source: assimp's own error */
        const uint64_t reach = accessor_reach(a), holds = s->arrays[found].count;
        if (reach <= holds)
            continue;
        char detail[120];
        snprintf(detail, sizeof detail,
                 "<accessor source=\"#%.*s\" count=\"%llu\" offset=\"%llu\" stride=\"%llu\">",
                 (int)(a->source_length < 60 ? a->source_length : 60), a->source,
                 (unsigned long long)a->count, (unsigned long long)a->offset,
                 (unsigned long long)a->stride);
        r = reach == UINT64_MAX
                ? fail(s, a->at, "%s reaches past the end of its array, which holds %llu values%.0llu",
                       detail, holds, 0)
                : fail(s, a->at, "%s reads %llu values of its array, which holds %llu", detail,
                       reach, holds);
    }
    free(table.entries);
    return r;
}

ossa_result ossai_dae_preflight(ossa_import *im, const char *path, const unsigned char *data,
                                size_t bytes, ossai_dae_info *info,
                                const ossai_dae_visitor *visitor, ossa_error *error)
{
    scan s;
    memset(&s, 0, sizeof s);
    memset(info, 0, sizeof *info);
    s.im = im;
    s.info = info;
    s.path = path;
    s.error = error;
    s.text = (const char *)data;
    s.end = s.text + bytes;
    s.primitive_depth = -1;
    s.accessor_depth = -1;
    s.visitor = visitor;
    ossa_result r = run(&s);
    if (r == OSSA_OK)
        r = check_instances(&s);
    if (r == OSSA_OK)
        r = check_accessors(&s);
    free(s.nodes);
    free(s.instances);
    free(s.arrays);
    free(s.accessors);
    return r;
}
