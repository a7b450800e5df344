/* import_dae_resolve.c - Collada custom values, second half: a channel's
 * target "ID/SID" is the element with sid SID inside the element with id
 * ID; when that element holds one number and is no transform, the
 * channel's keys become a float track "OWNER.SID". Kept: numbers inside an
 * <extra> element (custom values), and the targets options.track_nodes
 * names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_dae_reader.h"

/* An id or sid with the index of its element, sorted by the text. */
typedef struct keyed {
    span key;
    int index;
} keyed;

static int span_order(span a, span b)
{
    const size_t n = a.n < b.n ? a.n : b.n;
    const int c = n ? memcmp(a.s, b.s, n) : 0;
    return c ? c : (a.n > b.n) - (a.n < b.n);
}

static int by_key(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    const int c = span_order(x->key, y->key);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* The first of `count` sorted entries whose key is not below `key`. */
static int lower_bound(const keyed *sorted, int count, span key)
{
    int lo = 0, hi = count;
    while (lo < hi) {
        const int mid = lo + (hi - lo) / 2;
        if (span_order(sorted[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The element with this id ("#id" for a url), of a kind (-1: any); -1. */
static int find_id(const ossai_dae_reader *rd, const keyed *order, span id, int kind)
{
    if (id.n && id.s[0] == '#')
        ++id.s, --id.n;
    for (int k = lower_bound(order, rd->ids_count, id);
         k < rd->ids_count && span_is(order[k].key, id); ++k)
        if (kind < 0 || rd->ids[order[k].index].kind == kind)
            return order[k].index;
    return -1;
}

static bool is_transform(span element)
{
    static const char *const names[] = {"translate", "rotate", "scale", "matrix", "lookat",
                                        "skew"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; ++k)
        if (element.n == strlen(names[k]) && memcmp(element.s, names[k], element.n) == 0)
            return true;
    return false;
}

/* The sid element SID inside the element `owner`: the nearest enclosing
 * element with an id is owner or one of its descendants. */
static int find_sid(const ossai_dae_reader *rd, const keyed *order, int owner, span sid)
{
    for (int k = lower_bound(order, rd->sids_count, sid);
         k < rd->sids_count && span_is(order[k].key, sid); ++k) {
        int up = rd->sids[order[k].index].owner;
        for (int steps = 0; up >= 0 && up != owner && steps <= STACK_DEPTH; ++steps)
            up = rd->ids[up].parent;
        if (up == owner)
            return order[k].index;
    }
    return -1;
}

/* An array a source holds (its accessor's), its stride; NULL if none. */
static const array *source_array(const ossai_dae_reader *rd, const keyed *order, span url,
                                 int *stride)
{
    const int s = find_id(rd, order, url, D_SOURCE);
    const int a = s >= 0 ? find_id(rd, order, rd->sources[rd->ids[s].index].array, D_ARRAY)
                         : -1;
    if (a < 0)
        return NULL;
    *stride = rd->sources[rd->ids[s].index].stride;
    return &rd->arrays[rd->ids[a].index];
}

static ossa_result channel_error(const ossai_dae_reader *rd, const channel *c, const char *what)
{
    return ossa_error_set(rd->error, OSSA_ERR_IMPORT, -1, -1, "%s: <channel target=\"%.*s\">: %s",
                          rd->path, (int)(c->target.n < 200 ? c->target.n : 200), c->target.s,
                          what);
}

static bool is_named(const ossai_dae_reader *rd, const char *name)
{
    for (int n = 0; n < rd->options->track_node_count && rd->options->track_nodes; ++n)
        if (rd->options->track_nodes[n] && strcmp(rd->options->track_nodes[n], name) == 0)
            return true;
    return false;
}

/* The clip a channel plays in: the <animation_clip> that instances its
 * outermost <animation> (by the clip's name, as import_clips.c names the
 * clips), NULL for a file without clips; false when it is in none. */
static bool clip_of(const ossai_dae_reader *rd, const ossai_dae_info *info, const channel *c,
                    const char **clip)
{
    *clip = NULL;
    if (rd->clip_count == 0)
        return true;
    if (c->animation < 0 || info->clip_name_count != rd->clip_count)
        return false;
    for (int i = 0; i < rd->instances_count; ++i) {
        span url = rd->instances[i].url;
        if (url.n && url.s[0] == '#')
            ++url.s, --url.n;
        if (span_is(url, rd->ids[c->animation].id)) {
            *clip = info->clip_names[rd->instances[i].clip];
            return true;
        }
    }
    return false;
}

/* One channel's keys as a track, checked. */
static ossa_result keys(const ossai_dae_reader *rd, const keyed *order, const channel *c,
                        const char *name, ossa_raw_float_track *out)
{
    const int s = find_id(rd, order, c->source, D_SAMPLER);
    if (s < 0)
        return channel_error(rd, c, "its source names no <sampler>");
    const sampler *sm = &rd->samplers[rd->ids[s].index];
    int in_stride = 1, out_stride = 1;
    const array *in = source_array(rd, order, sm->input, &in_stride);
    const array *values = source_array(rd, order, sm->output, &out_stride);
    if (!in || !values)
        return channel_error(rd, c, in ? "its sampler has no OUTPUT <float_array>"
                                       : "its sampler has no INPUT <float_array>");
    if (in_stride != 1 || out_stride != 1)
        return channel_error(rd, c, "its sampler's INPUT and OUTPUT must hold one value per "
                                    "key (accessor stride 1)");
    char what[160];
    if (in->count != values->count || in->count == 0 || in->count > ((uint64_t)1 << 28)) {
        snprintf(what, sizeof what, "%llu key times but %llu values",
                 (unsigned long long)in->count, (unsigned long long)values->count);
        return channel_error(rd, c, what);
    }
    const int n = (int)in->count;
    double *t = ossai_import_alloc(rd->im, (size_t)n, sizeof *t);
    double *v = ossai_import_alloc(rd->im, (size_t)n, sizeof *v);
    float *times = ossai_import_alloc(rd->im, (size_t)n, sizeof *times);
    float *vf = ossai_import_alloc(rd->im, (size_t)n, sizeof *vf);
    if (!t || !v || !times || !vf)
        return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              rd->path);
    uint64_t bad = 0;
    if (!ossai_text_numbers(in->content.s, in->content.n, t, (uint64_t)n, &bad) ||
        !ossai_text_numbers(values->content.s, values->content.n, v, (uint64_t)n, &bad)) {
        snprintf(what, sizeof what, "key %llu is missing or not a number",
                 (unsigned long long)bad);
        return channel_error(rd, c, what);
    }
    for (int k = 0; k < n; ++k) {
        if (!(t[k] == t[k] && t[k] > -1e30 && t[k] < 1e30) || (k > 0 && !(t[k] > t[k - 1]))) {
            snprintf(what, sizeof what, "key %d's time (%g s) is not after key %d's: times "
                                        "must increase", k, t[k], k - 1);
            return channel_error(rd, c, what);
        }
        if (!(v[k] == v[k]) || v[k] > 3.4e38 || v[k] < -3.4e38) {
            snprintf(what, sizeof what, "key %d's value is %g (must be a finite float)", k,
                     v[k]);
            return channel_error(rd, c, what);
        }
        times[k] = (float)t[k];
        vf[k] = (float)v[k];
    }
    /* STEP when the sampler's INTERPOLATION says STEP for every key. */
    bool step = false;
    int mode_stride = 1;
    const array *modes = sm->interpolation.s
                             ? source_array(rd, order, sm->interpolation, &mode_stride)
                             : NULL;
    if (modes && modes->names) {
        step = true;
        const char *x = modes->content.s, *end = x + modes->content.n;
        int words = 0;
        while (x < end) {
            while (x < end && (*x == ' ' || *x == '\n' || *x == '\t' || *x == '\r'))
                ++x;
            const char *w = x;
            while (x < end && !(*x == ' ' || *x == '\n' || *x == '\t' || *x == '\r'))
                ++x;
            if (x > w) {
                step &= x - w == 4 && memcmp(w, "STEP", 4) == 0;
                ++words;
            }
        }
        step &= words > 0;
    }
    *out = (ossa_raw_float_track){ossai_import_strdup(rd->im, name), times, vf, NULL, NULL, n,
                                  step && n > 1 ? OSSA_INTERP_STEP : OSSA_INTERP_LINEAR};
    return out->name ? OSSA_OK
                     : ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", rd->path);
}

/* Whether text is one number and nothing else. */
static bool one_number(span text)
{
    double x;
    uint64_t bad;
    size_t start = 0, end = text.n;
    while (start < end && (text.s[start] == ' ' || text.s[start] == '\n' ||
                           text.s[start] == '\t' || text.s[start] == '\r'))
        ++start;
    while (end > start && (text.s[end - 1] == ' ' || text.s[end - 1] == '\n' ||
                           text.s[end - 1] == '\t' || text.s[end - 1] == '\r'))
        --end;
    if (end == start)
        return false;
    for (size_t k = start; k < end; ++k)
        if (text.s[k] == ' ' || text.s[k] == ',' || text.s[k] == '\n' || text.s[k] == '\t')
            return false;
    return ossai_text_numbers(text.s + start, end - start, &x, 1, &bad);
}

ossa_result ossai_dae_reader_finish(ossai_dae_reader *rd, const ossai_dae_info *info,
                                    ossai_file_tracks *out)
{
    memset(out, 0, sizeof *out);
    if (rd->channels_count == 0)
        return OSSA_OK;
    keyed *ids = ossai_import_alloc(rd->im, (size_t)rd->ids_count + 1, sizeof *ids);
    keyed *sids = ossai_import_alloc(rd->im, (size_t)rd->sids_count + 1, sizeof *sids);
    out->tracks = ossai_import_alloc(rd->im, (size_t)rd->channels_count, sizeof *out->tracks);
    if (!ids || !sids || !out->tracks)
        return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              rd->path);
    for (int i = 0; i < rd->ids_count; ++i)
        ids[i] = (keyed){rd->ids[i].id, i};
    for (int i = 0; i < rd->sids_count; ++i)
        sids[i] = (keyed){rd->sids[i].sid, i};
    qsort(ids, (size_t)rd->ids_count, sizeof *ids, by_key);
    qsort(sids, (size_t)rd->sids_count, sizeof *sids, by_key);
    for (int i = 0; i < rd->channels_count; ++i) {
        const channel *c = &rd->channels[i];
        const char *slash = c->target.s ? memchr(c->target.s, '/', c->target.n) : NULL;
        if (!slash)
            continue;
        const span owner_id = {c->target.s, (size_t)(slash - c->target.s)};
        const span sid = {slash + 1, c->target.n - owner_id.n - 1};
        /* "ID/SID" only: members (".X", "(0)") and deeper paths are not read */
        if (sid.n == 0 || memchr(sid.s, '/', sid.n) || memchr(sid.s, '.', sid.n) ||
            memchr(sid.s, '(', sid.n))
            continue;
        const int owner = find_id(rd, ids, owner_id, -1);
        const int target = owner >= 0 ? find_sid(rd, sids, owner, sid) : -1;
        if (target < 0 || is_transform(rd->sids[target].element) ||
            !one_number(rd->sids[target].content))
            continue;
        char name[600];
        const span label = rd->ids[owner].label;
        snprintf(name, sizeof name, "%.*s.%.*s", (int)(label.n < 256 ? label.n : 256), label.s,
                 (int)(sid.n < 256 ? sid.n : 256), sid.s);
        if (!rd->sids[target].in_extra && !is_named(rd, name))
            continue;
        const char *clip;
        if (!clip_of(rd, info, c, &clip))
            continue; /* in no clip: assimp plays it in none either */
        bool twice = false;
        for (int t = 0; t < out->count && !twice; ++t)
            twice = strcmp(out->tracks[t].track.name, name) == 0 &&
                    (out->tracks[t].clip == clip ||
                     (clip && out->tracks[t].clip && strcmp(out->tracks[t].clip, clip) == 0));
        if (twice) {
            if (!ossai_import_warn(rd->im, "a second channel for '%s' ignored", name))
                return ossa_error_set(rd->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                      "%s: out of memory", rd->path);
            continue;
        }
        ossa_result r = keys(rd, ids, c, name, &out->tracks[out->count].track);
        if (r)
            return r;
        out->tracks[out->count++].clip = clip;
    }
    return OSSA_OK;
}

