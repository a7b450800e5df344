/* import_dae_props.c - Collada channels that animate a single number
 * other than a node's transform (assimp 5.2 keeps only channels whose
 * target is a node's translate / rotate / scale / matrix...) as float
 * tracks, first half: what the preflight's walk of the XML shows (ids,
 * sids, arrays, sources, samplers, channels, clips) is gathered here;
 * import_dae_resolve.c makes the tracks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_dae_reader.h"

#define PUSH(rd, list, value)                                                                  \
    (ossai_import_grow((void **)&(rd)->list, &(rd)->list##_capacity, (rd)->list##_count,       \
                       sizeof *(rd)->list) &&                                                  \
     ((rd)->list[(rd)->list##_count++] = (value), true))

static span attr(const ossai_dae_element *e, const char *name)
{
    span v = {NULL, 0};
    if (!ossai_dae_attribute(e->tag, e->tag_end, name, &v.s, &v.n))
        v.s = NULL;
    return v;
}

static bool named(const ossai_dae_element *e, const char *name)
{
    return e->name_length == strlen(name) && memcmp(e->name, name, e->name_length) == 0;
}

static uint64_t span_number(span v)
{
    uint64_t n = 0;
    for (size_t k = 0; k < v.n && v.s[k] >= '0' && v.s[k] <= '9' && n < ((uint64_t)1 << 40); ++k)
        n = n * 10 + (uint64_t)(v.s[k] - '0');
    return n;
}

/* The innermost open element of a kind (its stack entry), or NULL. */
static open_element *innermost(ossai_dae_reader *rd, int kind)
{
    for (int d = rd->depth - 1; d >= 0; --d)
        if (rd->stack[d].kind == kind)
            return &rd->stack[d];
    return NULL;
}

static ossa_result start(ossai_dae_reader *rd, const ossai_dae_element *e)
{
    const span id = attr(e, "id"), sid = attr(e, "sid");
    int parent = -1;
    for (int d = rd->depth - 1; d >= 0 && parent < 0; --d)
        parent = rd->stack[d].id;
    open_element self = {D_OTHER, -1, -1};
    bool ok = true;
    if (named(e, "node")) {
        self.kind = D_NODE;
    } else if (named(e, "source")) {
        self.kind = D_SOURCE;
        self.index = rd->sources_count;
        ok = PUSH(rd, sources, ((source){{NULL, 0}, 1}));
    } else if (named(e, "float_array") || named(e, "Name_array")) {
        self.kind = D_ARRAY;
        self.index = rd->arrays_count;
        const array a = {{e->content, (size_t)(e->content_end - e->content)},
                         span_number(attr(e, "count")), named(e, "Name_array")};
        ok = PUSH(rd, arrays, a);
    } else if (named(e, "accessor")) {
        open_element *s = innermost(rd, D_SOURCE);
        const span stride = attr(e, "stride");
        if (s) {
            rd->sources[s->index].array = attr(e, "source");
            rd->sources[s->index].stride = stride.s ? (int)span_number(stride) : 1;
        }
    } else if (named(e, "sampler")) {
        self.kind = D_SAMPLER;
        self.index = rd->samplers_count;
        ok = PUSH(rd, samplers, ((sampler){{NULL, 0}, {NULL, 0}, {NULL, 0}}));
    } else if (named(e, "input")) {
        open_element *s = rd->depth > 0 && rd->stack[rd->depth - 1].kind == D_SAMPLER
                              ? &rd->stack[rd->depth - 1]
                              : NULL;
        const span semantic = attr(e, "semantic"), from = attr(e, "source");
        const span input = {"INPUT", 5}, output = {"OUTPUT", 6}, mode = {"INTERPOLATION", 13};
        if (s && span_is(semantic, input))
            rd->samplers[s->index].input = from;
        else if (s && span_is(semantic, output))
            rd->samplers[s->index].output = from;
        else if (s && span_is(semantic, mode))
            rd->samplers[s->index].interpolation = from;
    } else if (named(e, "channel")) {
        int animation = -1;
        for (int d = 0; d < rd->depth && animation < 0; ++d)
            if (rd->stack[d].kind == D_ANIMATION)
                animation = rd->stack[d].id;
        ok = PUSH(rd, channels, ((channel){attr(e, "source"), attr(e, "target"), animation}));
    } else if (named(e, "animation")) {
        self.kind = D_ANIMATION;
    } else if (named(e, "animation_clip")) {
        self.kind = D_CLIP;
        self.index = rd->clip_count++;
    } else if (named(e, "instance_animation")) {
        open_element *clip = innermost(rd, D_CLIP);
        if (clip)
            ok = PUSH(rd, instances, ((instance){clip->index, attr(e, "url")}));
    } else if (named(e, "extra")) {
        self.kind = D_EXTRA;
    }
    if (ok && id.s && id.n) {
        const span name = attr(e, "name");
        self.id = rd->ids_count;
        ok = PUSH(rd, ids, ((idref){id, name.s && name.n ? name : id, self.kind, self.index,
                                    parent}));
    }
    if (ok && sid.s && sid.n && !e->empty) {
        const sidref ref = {sid, {e->name, e->name_length},
                            {e->content, (size_t)(e->content_end - e->content)}, parent,
                            rd->extras > 0};
        ok = PUSH(rd, sids, ref);
    }
    if (!ok)
        return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                              "%s: out of memory reading the animations", rd->path);
    if (e->empty)
        return OSSA_OK;
    if (rd->depth == STACK_DEPTH) {
        rd->overflow++;
        return OSSA_OK;
    }
    rd->extras += self.kind == D_EXTRA;
    rd->stack[rd->depth++] = self;
    return OSSA_OK;
}

static ossa_result visit(void *context, const ossai_dae_element *e)
{
    ossai_dae_reader *rd = context;
    if (!e->closing)
        return start(rd, e);
    if (rd->overflow > 0) {
        rd->overflow--;
    } else if (rd->depth > 0) {
        rd->extras -= rd->stack[--rd->depth].kind == D_EXTRA;
    }
    return OSSA_OK;
}

ossai_dae_reader *ossai_dae_reader_begin(ossa_import *im, const char *path,
                                         const ossa_import_options *options, ossa_error *error,
                                         ossai_dae_visitor *visitor)
{
    ossai_dae_reader *rd = ossai_import_alloc(im, 1, sizeof *rd);
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

void ossai_dae_reader_free(ossai_dae_reader *rd)
{
    if (!rd)
        return;
    free(rd->ids);
    free(rd->sids);
    free(rd->arrays);
    free(rd->sources);
    free(rd->samplers);
    free(rd->channels);
    free(rd->instances);
    memset(rd, 0, sizeof *rd);
}

