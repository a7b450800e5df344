/* import_fbx_props.c - FBX animated properties other than a node's
 * transform (assimp keeps only Lcl Translation / Rotation / Scaling) as
 * float tracks: gathered while the preflight walks the file (binary or ASCII)
 * (objects, curves, Properties70 flags, connections), then resolved curve
 * -> curve node -> property of an object, and curve node -> layer ->
 * stack (the clip). Kept: user properties (flag 'U', not hidden 'H') and
 * the properties options.track_nodes names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_fbx.h"

enum kind { K_OTHER, K_CURVE, K_CURVE_NODE, K_LAYER, K_STACK, K_MODEL, K_ATTRIBUTE };
/* What a record being walked is (per depth). */
enum role { R_OTHER, R_OBJECTS, R_CONNECTIONS, R_OBJECT, R_PROPS70, R_KEYS /* + KEY_* */ };
enum { KEY_TIME, KEY_VALUE, KEY_FLAGS, KEY_RUNS };

typedef struct object {
    int64_t id;
    const char *name;
    int kind;
    /* stacks: LocalStart / LocalStop (ticks) */
    int64_t start, stop;
    /* curves: the arrays, the curve node and channel ("d|X") */
    ossai_fbx_value arrays[4];
    int64_t node;
    const char *channel;
    /* curve nodes: target object and property, layer, curve count;
     * layers: stack; attributes: model */
    int64_t target, layer, up;
    const char *property;
    int curves;
    bool offset_known; /* stacks: start holds the clip's first tick */
    bool ranged;       /* stacks: LocalStart or LocalStop is not 0 */
    bool in_range;     /* curve nodes: a key of theirs lies in their stack's range */
} object;

typedef struct connection {
    int64_t child, parent;
    const char *property; /* "OP" connections; NULL for "OO" */
} connection;

typedef struct user_property {
    int64_t object;
    const char *name;
} user_property;

struct ossai_fbx_reader {
    ossa_import *im;
    const char *path;
    const ossa_import_options *options;
    ossa_error *error;
    object *objects;
    int object_count, object_capacity;
    user_property *user;
    int user_count, user_capacity;
    connection *links;
    int link_count, link_capacity;
    int roles[OSSA_IMPORT_MAX_DEPTH + 2];
};

/* A string property (a copy). An object's name drops its class: binary
 * "Name\0\1Class", ASCII "Class::Name" -> "Name". */
static const char *string_of(ossai_fbx_reader *rd, const ossai_fbx_value *v, bool is_name)
{
    if (v->type != 'S')
        return ossai_import_strdup(rd->im, "");
    const unsigned char *text = v->bytes;
    size_t n = (size_t)v->size;
    if (is_name && v->text) {
        for (size_t k = 0; k + 1 < n; ++k)
            if (text[k] == ':' && text[k + 1] == ':') {
                text += k + 2;
                n -= k + 2;
                break;
            }
    } else if (is_name) {
        n = 0;
        while (n < v->size && text[n] != 0)
            ++n;
    }
    char *s = ossai_import_alloc(rd->im, n + 1, 1);
    if (s)
        memcpy(s, text, n);
    return s;
}

static int64_t id_of(const ossai_fbx_record *r, uint64_t index)
{
    ossai_fbx_value v;
    if (!ossai_fbx_value_at(r, index, &v) || v.type != 'L')
        return 0;
    return ossai_fbx_int(&v);
}

static bool string_at(const ossai_fbx_record *r, uint64_t index, ossai_fbx_value *v)
{
    return ossai_fbx_value_at(r, index, v) && v->type == 'S';
}

static bool add_object(ossai_fbx_reader *rd, const ossai_fbx_record *r)
{
    static const struct {
        const char *record;
        int kind;
    } kinds[] = {{"AnimationCurve", K_CURVE},   {"AnimationCurveNode", K_CURVE_NODE},
                 {"AnimationLayer", K_LAYER},   {"AnimationStack", K_STACK},
                 {"Model", K_MODEL},            {"NodeAttribute", K_ATTRIBUTE}};
    if (!ossai_import_grow((void **)&rd->objects, &rd->object_capacity, rd->object_count,
                           sizeof(object)))
        return false;
    object *o = &rd->objects[rd->object_count++];
    memset(o, 0, sizeof *o);
    o->id = id_of(r, 0);
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
        if (ossai_fbx_name_is(r->name, r->name_length, kinds[k].record))
            o->kind = kinds[k].kind;
    ossai_fbx_value name;
    o->name = string_at(r, 1, &name) ? string_of(rd, &name, true) : "";
    return o->name != NULL;
}

static bool flag_set(const ossai_fbx_value *flags, char c)
{
    return memchr(flags->bytes, c, (size_t)flags->size) != NULL;
}

/* A P record of the last object's Properties70. */
static bool add_property(ossai_fbx_reader *rd, const ossai_fbx_record *r)
{
    object *o = &rd->objects[rd->object_count - 1];
    ossai_fbx_value name, flags;
    if (!string_at(r, 0, &name) || !string_at(r, 3, &flags))
        return true;
    if (o->kind == K_STACK) {
        /* assimp reads them as KTime properties: of another type, 0 */
        ossai_fbx_value type;
        if (!string_at(r, 1, &type) || !ossai_fbx_name_is(type.bytes, type.size, "KTime"))
            return true;
        const int64_t ticks = id_of(r, 4);
        if (ossai_fbx_name_is(name.bytes, name.size, "LocalStart"))
            o->start = ticks;
        if (ossai_fbx_name_is(name.bytes, name.size, "LocalStop"))
            o->stop = ticks;
        o->ranged = o->start != 0 || o->stop != 0;
        return true;
    }
    if (!flag_set(&flags, 'U') || flag_set(&flags, 'H'))
        return true;
    if (!ossai_import_grow((void **)&rd->user, &rd->user_capacity, rd->user_count,
                           sizeof(user_property)))
        return false;
    rd->user[rd->user_count].object = o->id;
    rd->user[rd->user_count].name = string_of(rd, &name, false);
    return rd->user[rd->user_count++].name != NULL;
}

/* A connection as assimp 5.2 reads one: "PP" ignored, "OP" to a property
 * (named by the fourth value), any other type - "OO" or not - from object
 * to object (a fuzzed "O!" linked a curve node to its layer in assimp and
 * not here, and let through a clip that makes assimp abort). */
static bool add_connection(ossai_fbx_reader *rd, const ossai_fbx_record *r)
{
    ossai_fbx_value type, property;
    if (!string_at(r, 0, &type))
        return true;
    const bool op = type.size == 2 && memcmp(type.bytes, "OP", 2) == 0;
    if (type.size == 2 && memcmp(type.bytes, "PP", 2) == 0)
        return true;
    if (!ossai_import_grow((void **)&rd->links, &rd->link_capacity, rd->link_count,
                           sizeof(connection)))
        return false;
    connection *c = &rd->links[rd->link_count++];
    c->child = id_of(r, 1);
    c->parent = id_of(r, 2);
    c->property = op && string_at(r, 3, &property) ? string_of(rd, &property, false) : NULL;
    return !op || c->property;
}

static ossa_result visit(void *context, const ossai_fbx_record *r)
{
    ossai_fbx_reader *rd = context;
    const int parent = r->depth > 0 ? rd->roles[r->depth - 1] : R_OTHER;
    int role = R_OTHER;
    bool ok = true;
    if (r->depth == 0) {
        role = ossai_fbx_name_is(r->name, r->name_length, "Objects")       ? R_OBJECTS
               : ossai_fbx_name_is(r->name, r->name_length, "Connections") ? R_CONNECTIONS
                                                                            : R_OTHER;
    } else if (parent == R_OBJECTS) {
        role = R_OBJECT;
        ok = add_object(rd, r);
    } else if (parent == R_CONNECTIONS) {
        if (ossai_fbx_name_is(r->name, r->name_length, "C"))
            ok = add_connection(rd, r);
    } else if (parent == R_OBJECT) {
        object *o = &rd->objects[rd->object_count - 1];
        static const char *const keys[4] = {"KeyTime", "KeyValueFloat", "KeyAttrFlags",
                                            "KeyAttrRefCount"};
        for (int k = 0; k < 4 && o->kind == K_CURVE; ++k)
            if (ossai_fbx_name_is(r->name, r->name_length, keys[k]) ||
                (k == KEY_VALUE && ossai_fbx_name_is(r->name, r->name_length, "KeyValueDouble"))) {
                if (r->text)
                    role = R_KEYS + k; /* ASCII: the values are its child `a` */
                else
                    ossai_fbx_value_at(r, 0, &o->arrays[k]);
            }
        if (ossai_fbx_name_is(r->name, r->name_length, "Properties70"))
            role = R_PROPS70;
    } else if (parent == R_PROPS70 && ossai_fbx_name_is(r->name, r->name_length, "P")) {
        ok = add_property(rd, r);
    } else if (parent >= R_KEYS && ossai_fbx_name_is(r->name, r->name_length, "a")) {
        rd->objects[rd->object_count - 1].arrays[parent - R_KEYS] = ossai_fbx_text_array(r);
    }
    if (r->depth <= OSSA_IMPORT_MAX_DEPTH)
        rd->roles[r->depth] = role;
    if (!ok)
        return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "%s: out of memory reading the animated properties", rd->path);
    return OSSA_OK;
}

ossai_fbx_reader *ossai_fbx_reader_begin(ossa_import *im, const char *path,
                                         const ossa_import_options *options,
                                         ossa_error *error, ossai_fbx_visitor *visitor)
{
    ossai_fbx_reader *rd = ossai_import_alloc(im, 1, sizeof *rd);
    if (!rd)
        return NULL;
    rd->im = im;
    rd->path = path;
    rd->options = options;
    rd->error = error;
    visitor->visit = visit;
    visitor->context = rd;
    return rd;
}

/* ---- resolving, once the walk is over ---- */

static int by_id(const void *a, const void *b)
{
    const int64_t x = ((const object *)a)->id, y = ((const object *)b)->id;
    return (x > y) - (x < y);
}

static object *find(const ossai_fbx_reader *rd, int64_t id)
{
    const object key = {.id = id};
    return id ? bsearch(&key, rd->objects, (size_t)rd->object_count, sizeof key, by_id) : NULL;
}

static int by_user(const void *a, const void *b)
{
    const user_property *x = a, *y = b;
    if (x->object != y->object)
        return (x->object > y->object) - (x->object < y->object);
    return strcmp(x->name, y->name);
}

static bool is_user(const ossai_fbx_reader *rd, int64_t object_id, const char *name)
{
    const user_property key = {object_id, name};
    return rd->user_count > 0 &&
           bsearch(&key, rd->user, (size_t)rd->user_count, sizeof key, by_user) != NULL;
}

/* Whether options.track_nodes names the track ("Obj.Prop.x") or its
 * property ("Obj.Prop"). */
static bool named(const ossai_fbx_reader *rd, const char *owner, const char *property,
                  const char *full)
{
    const size_t length = strlen(owner);
    for (int n = 0; n < rd->options->track_node_count && rd->options->track_nodes; ++n) {
        const char *name = rd->options->track_nodes[n];
        if (name && (strcmp(name, full) == 0 ||
                     (strncmp(name, owner, length) == 0 && name[length] == '.' &&
                      strcmp(name + length + 1, property) == 0)))
            return true;
    }
    return false;
}

static bool is_transform(const char *property)
{
    return strcmp(property, "Lcl Translation") == 0 || strcmp(property, "Lcl Rotation") == 0 ||
           strcmp(property, "Lcl Scaling") == 0;
}

static void link_objects(ossai_fbx_reader *rd)
{
    for (int k = 0; k < rd->link_count; ++k) {
        const connection *c = &rd->links[k];
        object *child = find(rd, c->child), *parent = find(rd, c->parent);
        if (!child || !parent)
            continue;
        const bool plain = parent->kind == K_OTHER || parent->kind == K_MODEL ||
                           parent->kind == K_ATTRIBUTE;
        if (c->property && child->kind == K_CURVE && parent->kind == K_CURVE_NODE &&
            !child->node) {
            child->node = parent->id;
            child->channel = c->property;
            parent->curves++;
        } else if (c->property && child->kind == K_CURVE_NODE && plain && !child->target) {
            child->target = parent->id;
            child->property = c->property;
        } else if (!c->property && child->kind == K_CURVE_NODE && parent->kind == K_LAYER) {
            child->layer = parent->id;
        } else if (!c->property && ((child->kind == K_LAYER && parent->kind == K_STACK) ||
                                    (child->kind == K_ATTRIBUTE && parent->kind == K_MODEL))) {
            child->up = parent->id;
        }
    }
}

/* The stack of a curve node, or NULL. */
static object *stack_of(const ossai_fbx_reader *rd, const object *node)
{
    const object *layer = find(rd, node->layer);
    object *stack = layer ? find(rd, layer->up) : NULL;
    return stack && stack->kind == K_STACK ? stack : NULL;
}

/* The tick a clip starts at, as assimp 5.2 takes it: the stack's
 * LocalStart when it states a start or stop, else its earliest key. */
static ossa_result clip_start(ossai_fbx_reader *rd, object *stack, int64_t *start)
{
    if (!stack->offset_known && !stack->start && !stack->stop) {
        bool any = false;
        for (int i = 0; i < rd->object_count; ++i) {
            const object *curve = &rd->objects[i];
            const object *node = curve->kind == K_CURVE ? find(rd, curve->node) : NULL;
            const char type = curve->arrays[KEY_TIME].type;
            if (!node || stack_of(rd, node) != stack || (type != 'l' && type != 't') ||
                curve->arrays[KEY_TIME].length == 0)
                continue;
            const double *ticks =
                ossai_fbx_array(rd->im, rd->path, &curve->arrays[KEY_TIME], "KeyTime", rd->error);
            if (!ticks)
                return rd->error->code;
            if (!(fabs(ticks[0]) < OSSAI_FBX_MAX_TICKS))
                continue; /* refused with its curve, if imported */
            if (!any || ticks[0] < (double)stack->start)
                stack->start = (int64_t)ticks[0];
            any = true;
        }
    }
    stack->offset_known = true;
    *start = stack->start;
    return OSSA_OK;
}

/* The curve node a curve animates a model's Lcl Translation (1),
 * Rotation (2) or Scaling (3) through, in a stack: what assimp converts
 * into node channels; 0 for other curves. */
static int transform_curve(const ossai_fbx_reader *rd, const object *curve, object **node_out,
                           object **stack_out)
{
    object *node = curve->kind == K_CURVE ? find(rd, curve->node) : NULL;
    const object *target = node && node->property ? find(rd, node->target) : NULL;
    object *stack = target && target->kind == K_MODEL ? stack_of(rd, node) : NULL;
    if (!stack)
        return 0;
    static const char *const names[3] = {"Lcl Translation", "Lcl Rotation", "Lcl Scaling"};
    for (int k = 0; k < 3; ++k)
        if (strcmp(node->property, names[k]) == 0) {
            *node_out = node;
            *stack_out = stack;
            return k + 1;
        }
    return 0;
}

/* assimp 5.2 crashes converting a model's transform animation in two
 * cases a file can hold: a curve of Lcl Translation, Rotation or Scaling
 * with no key (a null read, SIGSEGV); and, for translation and scaling, a
 * stack that states its range (LocalStart or LocalStop not 0) with no key
 * of the property inside it - assimp keeps the keys from 10000 ticks
 * before the start to 10000 after the stop, and asserts (aborts) when none
 * is left. Refused here, naming the clip, the model and the curve. */
static ossa_result check_transform_curves(ossai_fbx_reader *rd)
{
    for (int i = 0; i < rd->object_count; ++i) {
        const object *curve = &rd->objects[i];
        object *node, *stack;
        const int kind = transform_curve(rd, curve, &node, &stack);
        const ossai_fbx_value *times = &curve->arrays[KEY_TIME];
        if (!kind || !times->type)
            continue;
        const object *model = find(rd, node->target);
        if (times->length == 0)
            return ossa_error_set(rd->error, OSSA_ERR_IMPORT, -1, -1,
                                  "%s: AnimationCurve %lld (%s of model '%s', clip '%s') has no "
                                  "keys: assimp 5.2 crashes on it",
                                  rd->path, (long long)curve->id, node->property, model->name,
                                  stack->name);
        if (kind == 2 || !stack->ranged || node->in_range)
            continue;
        const double *ticks = ossai_fbx_array(rd->im, rd->path, times, "KeyTime", rd->error);
        if (!ticks)
            return rd->error->code;
        const double low = (double)stack->start - 10000.0, high = (double)stack->stop + 10000.0;
        for (uint64_t k = 0; k < times->length && !node->in_range; ++k)
            node->in_range = ticks[k] >= low && ticks[k] <= high;
    }
    for (int i = 0; i < rd->object_count; ++i) {
        const object *curve = &rd->objects[i];
        object *node, *stack;
        const int kind = transform_curve(rd, curve, &node, &stack);
        if (!kind || kind == 2 || !stack->ranged || node->in_range ||
            !curve->arrays[KEY_TIME].type)
            continue;
        /* the property's curves in other layers of the stack count too */
        bool keyed = false;
        for (int j = 0; j < rd->object_count && !keyed; ++j) {
            const object *other = &rd->objects[j];
            keyed = other->kind == K_CURVE_NODE && other->in_range &&
                    other->target == node->target && other->property &&
                    strcmp(other->property, node->property) == 0 &&
                    stack_of(rd, other) == stack;
        }
        if (!keyed)
            return ossa_error_set(rd->error, OSSA_ERR_IMPORT, -1, -1,
                                  "%s: clip '%s' plays ticks %lld to %lld (its LocalStart and "
                                  "LocalStop), and no curve of the %s of model '%s' has a key "
                                  "in them: assimp 5.2 aborts on it",
                                  rd->path, stack->name, (long long)stack->start,
                                  (long long)stack->stop, node->property,
                                  find(rd, node->target)->name);
    }
    return OSSA_OK;
}

/* "Obj.Prop", or "Obj.Prop.x" for channel d|X of a node with several. */
static const char *track_name(ossai_fbx_reader *rd, const object *curve, const object *node,
                              const char *owner)
{
    char name[600];
    const char *channel = curve->channel;
    if (node->curves > 1 && strncmp(channel, "d|", 2) == 0 && channel[2]) {
        int n = snprintf(name, sizeof name, "%.256s.%.256s.", owner, node->property);
        for (const char *c = channel + 2; *c && n < (int)sizeof name - 1; ++c)
            name[n++] = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
        name[n] = '\0';
    } else {
        snprintf(name, sizeof name, "%.256s.%.256s", owner, node->property);
    }
    return ossai_import_strdup(rd->im, name);
}

ossa_result ossai_fbx_reader_finish(ossai_fbx_reader *rd, ossai_file_tracks *out)
{
    memset(out, 0, sizeof *out);
    if (rd->object_count == 0)
        return OSSA_OK;
    qsort(rd->objects, (size_t)rd->object_count, sizeof *rd->objects, by_id);
    if (rd->user_count)
        qsort(rd->user, (size_t)rd->user_count, sizeof *rd->user, by_user);
    link_objects(rd);
    ossa_result checked = check_transform_curves(rd);
    if (checked)
        return checked;
    out->tracks = ossai_import_alloc(rd->im, (size_t)rd->object_count, sizeof *out->tracks);
    if (!out->tracks)
        return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              rd->path);
    for (int i = 0; i < rd->object_count; ++i) {
        const object *curve = &rd->objects[i];
        const object *node = curve->kind == K_CURVE ? find(rd, curve->node) : NULL;
        if (!node || !node->property || is_transform(node->property) ||
            curve->arrays[KEY_TIME].length == 0)
            continue;
        const object *target = find(rd, node->target);
        object *stack = stack_of(rd, node);
        if (!target || !stack)
            continue;
        const object *model = target->kind == K_ATTRIBUTE ? find(rd, target->up) : NULL;
        const char *owner = model ? model->name : target->name;
        const char *name = track_name(rd, curve, node, owner);
        if (!name)
            return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                  "%s: out of memory", rd->path);
        if (!is_user(rd, target->id, node->property) && !named(rd, owner, node->property, name))
            continue;
        bool twice = false;
        for (int t = 0; t < out->count && !twice; ++t)
            twice = strcmp(out->tracks[t].track.name, name) == 0 &&
                    strcmp(out->tracks[t].clip, stack->name) == 0;
        if (twice) {
            if (!ossai_import_warn(rd->im, "clip '%s': a second curve for '%s' ignored",
                                   stack->name, name))
                return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", rd->path);
            continue;
        }
        int64_t start = 0;
        ossa_result r = clip_start(rd, stack, &start);
        if (r || (r = ossai_fbx_curve_track(rd->im, rd->path, curve->id, name, curve->arrays,
                                            start, &out->tracks[out->count].track, rd->error)))
            return r;
        out->tracks[out->count++].clip = stack->name;
    }
    return OSSA_OK;
}

void ossai_fbx_reader_free(ossai_fbx_reader *reader)
{
    if (!reader)
        return;
    free(reader->objects);
    free(reader->user);
    free(reader->links);
    reader->objects = NULL;
    reader->user = NULL;
    reader->links = NULL;
}
