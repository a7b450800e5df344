/* skeleton_builder.c - raw joints in any order -> flattened runtime skeleton
 * (depth-first or breadth-first numbering, hot arrays apart from names). */
#include "ossa/skeleton_builder.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob/format.h"
#include "core/math_internal.h"

typedef struct name_ref {
    const char *name;
    int index;
} name_ref;

static int compare_names(const void *a, const void *b)
{
    const name_ref *x = (const name_ref *)a, *y = (const name_ref *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Names the joints of the cycle reached by walking up from `start`, which no
 * root reaches. Writes "'a' -> 'b' -> 'a'" (possibly shortened) into buf. */
static int describe_cycle(const ossa_raw_joint *joints, int count, int start, char *buf,
                          size_t size)
{
    /* Walking count steps up from start is guaranteed to land on the cycle. */
    int j = start;
    for (int k = 0; k < count; ++k)
        j = joints[j].parent;
    int first = j;
    size_t used = 0;
    buf[0] = '\0';
    int steps = 0;
    do {
        int n = snprintf(buf + used, size - used, "%s'%s'", steps ? " -> " : "", joints[j].name);
        if (n < 0 || (size_t)n >= size - used) {
            break;
        }
        used += (size_t)n;
        j = joints[j].parent;
        ++steps;
    } while (j != first && steps < 8);
    if (used < size)
        snprintf(buf + used, size - used, " -> '%s'%s", joints[first].name,
                 j == first ? "" : " ...");
    return first;
}

ossa_result ossa_skeleton_build(const ossa_raw_skeleton *raw,
                                const ossa_skeleton_build_options *options, ossa_skeleton **out,
                                int *raw_to_joint, ossa_error *error)
{
    static const ossa_skeleton_build_options defaults;
    if (!options)
        options = &defaults;
    const ossa_allocator *allocator = &options->allocator;
    ossa_error_clear(error);
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "skeleton: no output");
    *out = NULL;
    if (!raw || (!raw->joints && raw->joint_count > 0))
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "skeleton: no raw joints");
    const int n = raw->joint_count;
    const ossa_raw_joint *joints = raw->joints;
    if (!isfinite(options->metres_per_unit) || options->metres_per_unit < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "skeleton: metres_per_unit %g must be finite and >= 0",
                              (double)options->metres_per_unit);
    if (n <= 0)
        return ossa_error_set(error, OSSA_ERR_SKELETON_EMPTY, -1, -1,
                              "skeleton: it has no joints");
    if (n > OSSA_MAX_JOINTS)
        return ossa_error_set(error, OSSA_ERR_SKELETON_TOO_MANY_JOINTS, OSSA_MAX_JOINTS, -1,
                              "skeleton: %d joints, at most %d fit; joint '%s' is the first "
                              "that does not",
                              n, OSSA_MAX_JOINTS,
                              joints[OSSA_MAX_JOINTS].name ? joints[OSSA_MAX_JOINTS].name : "");
    for (int i = 0; i < n; ++i) {
        const ossa_raw_joint *j = &joints[i];
        if (!j->name)
            return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, i, -1,
                                  "skeleton: joint %d has no name", i);
        if (j->parent < -1 || j->parent >= n)
            return ossa_error_set(error, OSSA_ERR_SKELETON_UNKNOWN_PARENT, i, -1,
                                  "skeleton: joint '%s' has parent %d, which does not exist "
                                  "(%d joints)",
                                  j->name, j->parent, n);
        if (j->parent == i)
            return ossa_error_set(error, OSSA_ERR_SKELETON_CYCLE, i, -1,
                                  "skeleton: joint '%s' is its own parent", j->name);
        const ossa_quat q = j->rest.rotation;
        float qlen2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
        if (!ossai_isfinite3(j->rest.translation) || !ossai_isfinite3(j->rest.scale) ||
            !isfinite(qlen2) || !(qlen2 > 1e-12f))
            return ossa_error_set(error, OSSA_ERR_BAD_VALUE, i, -1,
                                  "skeleton: joint '%s' has a non-finite rest transform or a "
                                  "zero rotation",
                                  j->name);
    }

    ossa_result result = OSSA_OK;
    ossa_skeleton *s = NULL;
    /* Scratch: name sort, children (CSR), traversal order and depth. */
    const size_t ints = sizeof(int) * (size_t)n;
    name_ref *names = ossa_alloc(allocator, sizeof *names * (size_t)n, 16);
    int *child_start = ossa_alloc(allocator, ints + 2 * sizeof(int), 16);
    int *children = ossa_alloc(allocator, ints, 16);
    int *order = ossa_alloc(allocator, ints, 16);   /* runtime index -> raw index */
    int *runtime = ossa_alloc(allocator, ints, 16); /* raw index -> runtime index */
    int *stack = ossa_alloc(allocator, ints, 16);
    int *depth = ossa_alloc(allocator, ints, 16);
    if (child_start)
        memset(child_start, 0, ints + 2 * sizeof(int));
    if (!names || !child_start || !children || !order || !runtime || !stack || !depth) {
        result = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                "skeleton: out of memory for %d joints", n);
        goto fail;
    }

    for (int i = 0; i < n; ++i) {
        names[i].name = joints[i].name;
        names[i].index = i;
    }
    qsort(names, (size_t)n, sizeof *names, compare_names);
    for (int i = 1; i < n; ++i)
        if (strcmp(names[i - 1].name, names[i].name) == 0) {
            result = ossa_error_set(error, OSSA_ERR_SKELETON_DUPLICATE_NAME, names[i].index, -1,
                                    "skeleton: joints %d and %d are both named '%s'",
                                    names[i - 1].index, names[i].index, names[i].name);
            goto fail;
        }

    /* Children of raw joint p, in raw order: children[child_start[p] ..
     * child_start[p + 1]). Slot n collects the roots. */
    for (int i = 0; i < n; ++i)
        child_start[(joints[i].parent < 0 ? n : joints[i].parent) + 1]++;
    for (int p = 0; p <= n; ++p)
        child_start[p + 1] += child_start[p];
    {
        int *fill = stack; /* reuse as a cursor per parent before the walk */
        int roots = child_start[n + 1] - child_start[n];
        int *root_list = depth; /* roots in raw order, kept apart from children */
        int r = 0;
        for (int p = 0; p < n; ++p)
            fill[p] = child_start[p];
        for (int i = 0; i < n; ++i) {
            if (joints[i].parent < 0)
                root_list[r++] = i;
            else
                children[fill[joints[i].parent]++] = i;
        }
        if (roots == 0) {
            char cycle[200];
            int at = describe_cycle(joints, n, 0, cycle, sizeof cycle);
            result = ossa_error_set(error, OSSA_ERR_SKELETON_CYCLE, at, -1,
                                    "skeleton: no joint is a root; joint '%s' is in a cycle: %s",
                                    joints[at].name, cycle);
            goto fail;
        }
        /* Walk: depth-first pre-order (stack, children pushed in reverse so
         * they come out in raw order) or breadth-first (order doubles as the
         * queue). */
        int count = 0;
        if (options->breadth_first) {
            for (int k = 0; k < roots; ++k)
                order[count++] = root_list[k];
            for (int head = 0; head < count; ++head) {
                int p = order[head];
                for (int c = child_start[p]; c < child_start[p + 1]; ++c)
                    order[count++] = children[c];
            }
        } else {
            for (int k = 0; k < roots; ++k) {
                int top = 0;
                stack[top++] = root_list[k];
                while (top > 0) {
                    int p = stack[--top];
                    order[count++] = p;
                    for (int c = child_start[p + 1] - 1; c >= child_start[p]; --c)
                        stack[top++] = children[c];
                }
            }
        }
        if (count < n) {
            /* Joints no root reaches: each has a parent, so walking up loops. */
            for (int i = 0; i < n; ++i)
                runtime[i] = -1;
            for (int k = 0; k < count; ++k)
                runtime[order[k]] = k;
            int stray = 0;
            while (runtime[stray] >= 0)
                ++stray;
            char cycle[200];
            int at = describe_cycle(joints, n, stray, cycle, sizeof cycle);
            result = ossa_error_set(error, OSSA_ERR_SKELETON_CYCLE, at, -1,
                                    "skeleton: joint '%s' is in a cycle: %s", joints[at].name,
                                    cycle);
            goto fail;
        }
    }
    for (int k = 0; k < n; ++k)
        runtime[order[k]] = k;

    /* Layout: header, parents, rest pose (hot), then name offsets and names
     * (cold), each 16-byte aligned; the whole rounded to 64. */
    size_t strings_bytes = 0;
    for (int i = 0; i < n; ++i)
        strings_bytes += strlen(joints[i].name) + 1;
    const size_t parents_offset = sizeof(ossa_skeleton);
    const size_t rest_offset = (parents_offset + 2 * (size_t)n + 15) & ~(size_t)15;
    const size_t names_offset = rest_offset + sizeof(ossa_transform) * (size_t)n;
    const size_t strings_offset = (names_offset + 4 * (size_t)n + 15) & ~(size_t)15;
    const size_t total = (strings_offset + strings_bytes + 63) & ~(size_t)63;
    if (total > UINT32_MAX) {
        result = ossa_error_set(error, OSSA_ERR_SKELETON_TOO_MANY_JOINTS, -1, -1,
                                "skeleton: names take %zu bytes, too many to store",
                                strings_bytes);
        goto fail;
    }
    s = ossa_alloc(allocator, total, 64);
    if (!s) {
        result = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                                "skeleton: out of memory for %zu bytes", total);
        goto fail;
    }
    memset(s, 0, total);
    s->tag = OSSAI_TAG_SKELETON;
    s->bytes = (uint32_t)total;
    s->joint_count = (uint32_t)n;
    s->flags = options->breadth_first ? OSSAI_SKELETON_BREADTH_FIRST : 0u;
    s->parents_offset = (uint32_t)parents_offset;
    s->rest_offset = (uint32_t)rest_offset;
    s->names_offset = (uint32_t)names_offset;
    s->strings_offset = (uint32_t)strings_offset;
    s->strings_bytes = (uint32_t)strings_bytes;
    s->metres_per_unit = options->metres_per_unit;
    char *base = (char *)s;
    uint16_t *parents = (uint16_t *)(void *)(base + parents_offset);
    ossa_transform *rest = (ossa_transform *)(void *)(base + rest_offset);
    uint32_t *name_at = (uint32_t *)(void *)(base + names_offset);
    char *strings = base + strings_offset;
    size_t cursor = 0;
    int max_depth = 0;
    for (int k = 0; k < n; ++k) {
        const ossa_raw_joint *j = &joints[order[k]];
        int p = j->parent < 0 ? -1 : runtime[j->parent];
        OSSA_ASSERT(p < k);
        parents[k] = p < 0 ? (uint16_t)OSSA_NO_PARENT : (uint16_t)p;
        depth[k] = p < 0 ? 0 : depth[p] + 1;
        if (depth[k] > max_depth)
            max_depth = depth[k];
        rest[k] = j->rest;
        rest[k].rotation = ossa_quat_normalize(j->rest.rotation);
        size_t len = strlen(j->name) + 1;
        memcpy(strings + cursor, j->name, len);
        name_at[k] = (uint32_t)cursor;
        cursor += len;
    }
    s->max_depth = (uint32_t)max_depth;
    if (raw_to_joint)
        memcpy(raw_to_joint, runtime, sizeof(int) * (size_t)n);
    *out = s;
    s = NULL;

fail:
    ossa_free(allocator, s);
    ossa_free(allocator, names);
    ossa_free(allocator, child_start);
    ossa_free(allocator, children);
    ossa_free(allocator, order);
    ossa_free(allocator, runtime);
    ossa_free(allocator, stack);
    ossa_free(allocator, depth);
    return result;
}

void ossa_skeleton_free(ossa_skeleton *skeleton, const ossa_allocator *allocator)
{
    ossa_free(allocator, skeleton);
}
