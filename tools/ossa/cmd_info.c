/* cmd_info.c - `ossa info FILE.ossa`: what a blob holds (skeleton, units,
 * hierarchy, clips, meshes, sections), as text or JSON, or why it is
 * invalid. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob_input.h"
#include "cli.h"
#include "clip_table.h"
#include "commands.h"
#include "json_out.h"
#include "ossa/pipeline.h"
#include "tracks_report.h"
#include "units.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa info FILE.ossa [--tree] [--json]\n"
            "\n"
            "Validates a blob and prints its skeleton (joints, roots, depth, units),\n"
            "clips (name, duration, rate, keys per track, bytes, resampling error),\n"
            "meshes (vertices, triangles, skin joints, influence histogram, bytes per\n"
            "stream) and sections. Exits 1 and says what is wrong and where when the\n"
            "file is not a valid blob.\n"
            "  --tree      print the joint hierarchy with names\n"
            "  --json      one JSON object instead of text (always with the hierarchy)\n"
            "  -h, --help  this text\n");
}

static const char *kind_name(ossa_section_kind kind)
{
    switch (kind) {
    case OSSA_SECTION_SKELETON: return "skeleton";
    case OSSA_SECTION_CLIP: return "clip";
    case OSSA_SECTION_MESH: return "mesh";
    default: return "?";
    }
}

/* The bytes of each part of a mesh, as stored (ossa_mesh_bytes adds the
 * header, the name and alignment padding). */
typedef struct mesh_streams {
    size_t skinned;    /* bind-pose position, normal[, tangent]: read by skinning */
    size_t influences; /* joints (uint16) and weights (n - 1 floats per vertex) */
    size_t statics;    /* uv, colour: never touched per frame */
    size_t indices;
    size_t skin;       /* skin joint -> skeleton joint map and inverse bind matrices */
    size_t source_map; /* runtime vertex -> source vertex */
} mesh_streams;

static mesh_streams streams_of(const ossa_mesh *m)
{
    const size_t n = (size_t)ossa_mesh_vertex_count(m);
    const size_t skins = (size_t)ossa_mesh_skin_joint_count(m);
    int c[OSSA_MAX_INFLUENCES];
    ossa_mesh_influence_counts(m, c);
    size_t joints = 0, weights = 0;
    for (int k = 0; k < OSSA_MAX_INFLUENCES; ++k) {
        joints += (size_t)(k + 1) * (size_t)c[k];
        weights += (size_t)k * (size_t)c[k];
    }
    mesh_streams s;
    s.skinned = n * (size_t)ossa_mesh_skinned_stride(m);
    s.influences = 2 * joints + 4 * weights;
    s.statics = n * ((ossa_mesh_uvs(m) ? 8u : 0u) + (ossa_mesh_colors(m) ? 4u : 0u));
    s.indices = (size_t)ossa_mesh_triangle_count(m) * 12u;
    s.skin = skins * (2u + sizeof(ossa_mat34));
    s.source_map = 4u * n;
    return s;
}

static const char *static_contents(const ossa_mesh *m)
{
    if (ossa_mesh_uvs(m) && ossa_mesh_colors(m))
        return "uv, colour";
    return ossa_mesh_uvs(m) ? "uv" : (ossa_mesh_colors(m) ? "colour" : "none");
}

/* One row of the mesh table and a line with the bytes of each stream. */
static void print_mesh(const ossa_mesh *m)
{
    const int n = ossa_mesh_vertex_count(m);
    int c[OSSA_MAX_INFLUENCES];
    ossa_mesh_influence_counts(m, c);
    const double pct = 100.0 / (n > 0 ? n : 1);
    char influences[96];
    snprintf(influences, sizeof influences, "%d/%d/%d/%d (%.0f/%.0f/%.0f/%.0f%%)", c[0], c[1],
             c[2], c[3], c[0] * pct, c[1] * pct, c[2] * pct, c[3] * pct);
    printf("  %-28s %8d %9d %5d  %-36s %9zu\n", ossa_mesh_name(m), n, ossa_mesh_triangle_count(m),
           ossa_mesh_skin_joint_count(m), influences, ossa_mesh_bytes(m));
    const mesh_streams s = streams_of(m);
    printf("      skinned stream %zu B (%d per vertex: position, normal%s), influences %zu B, "
           "static stream %zu B (%s), indices %zu B, skin joints %zu B, source map %zu B\n",
           s.skinned, ossa_mesh_skinned_stride(m), ossa_mesh_has_tangents(m) ? ", tangent" : "",
           s.influences, s.statics, static_contents(m), s.indices, s.skin, s.source_map);
}

static void print_mesh_json(const ossa_mesh *m, const ossa_skeleton *skeleton)
{
    int c[OSSA_MAX_INFLUENCES];
    ossa_mesh_influence_counts(m, c);
    printf("{\"name\": ");
    json_string(stdout, ossa_mesh_name(m));
    printf(", \"vertices\": %d, \"triangles\": %d, \"influences\": [%d, %d, %d, %d],\n"
           "   \"tangents\": %s, \"uvs\": %s, \"colors\": %s, \"bytes\": %zu,\n",
           ossa_mesh_vertex_count(m), ossa_mesh_triangle_count(m), c[0], c[1], c[2], c[3],
           ossa_mesh_has_tangents(m) ? "true" : "false", ossa_mesh_uvs(m) ? "true" : "false",
           ossa_mesh_colors(m) ? "true" : "false", ossa_mesh_bytes(m));
    const mesh_streams s = streams_of(m);
    printf("   \"stream_bytes\": {\"skinned\": %zu, \"skinned_stride\": %d, \"influences\": %zu, "
           "\"static\": %zu, \"indices\": %zu, \"skin_joints\": %zu, \"source_map\": %zu},\n"
           "   \"skin_joints\": [",
           s.skinned, ossa_mesh_skinned_stride(m), s.influences, s.statics, s.indices, s.skin,
           s.source_map);
    const uint16_t *joints = ossa_mesh_skin_joints(m);
    for (int k = 0; k < ossa_mesh_skin_joint_count(m); ++k) {
        printf("%s", k ? ", " : "");
        json_string(stdout, skeleton ? ossa_skeleton_joint_name(skeleton, joints[k]) : NULL);
    }
    printf("]}");
}

/* depth[i] of every joint (parents come first). */
static int *joint_depths(const ossa_skeleton *s)
{
    const int n = ossa_skeleton_joint_count(s);
    const uint16_t *parents = ossa_skeleton_parents(s);
    int *depth = calloc((size_t)n, sizeof *depth);
    for (int j = 0; depth && j < n; ++j)
        depth[j] = parents[j] == OSSA_NO_PARENT ? 0 : depth[parents[j]] + 1;
    return depth;
}

/* The hierarchy, children under their parent, whatever the numbering. */
static void print_tree(const ossa_skeleton *s, const int *depth)
{
    const int n = ossa_skeleton_joint_count(s);
    const uint16_t *parents = ossa_skeleton_parents(s);
    int *first = malloc(sizeof(int) * (size_t)n), *next = malloc(sizeof(int) * (size_t)n);
    int *stack = malloc(sizeof(int) * (size_t)n);
    if (!first || !next || !stack) {
        free(first), free(next), free(stack);
        return;
    }
    for (int j = 0; j < n; ++j)
        first[j] = next[j] = -1;
    int top = 0;
    for (int j = n; j-- > 0;) {
        if (parents[j] == OSSA_NO_PARENT) {
            stack[top++] = j; /* roots, first one on top */
        } else {
            next[j] = first[parents[j]];
            first[parents[j]] = j;
        }
    }
    while (top > 0) {
        const int j = stack[--top];
        printf("  %*s%s  (joint %d)\n", 2 * depth[j], "", ossa_skeleton_joint_name(s, j), j);
        int kids = 0;
        for (int c = first[j]; c >= 0; c = next[c])
            ++kids;
        /* Push children so the first comes out first. */
        top += kids;
        int k = top;
        for (int c = first[j]; c >= 0; c = next[c])
            stack[--k] = c;
    }
    free(first), free(next), free(stack);
}

static int roots_of(const ossa_skeleton *s)
{
    int roots = 0;
    const uint16_t *parents = ossa_skeleton_parents(s);
    for (int j = 0; j < ossa_skeleton_joint_count(s); ++j)
        roots += parents[j] == OSSA_NO_PARENT;
    return roots;
}

static void print_text(const char *path, const ossa_blob *blob, bool tree)
{
    printf("%s: ossa blob version %u, %zu bytes, CRC-32C 0x%08x, %d sections\n", path,
           blob->version, blob->bytes, blob->checksum, blob->section_count);
    const ossa_skeleton *s = blob->skeleton;
    if (s) {
        const int roots = roots_of(s);
        char units[32];
        printf("skeleton: %d joints, %d root%s, depth %d, %s order, units %s, %zu bytes\n",
               ossa_skeleton_joint_count(s), roots, roots == 1 ? "" : "s",
               ossa_skeleton_max_depth(s),
               ossa_skeleton_is_breadth_first(s) ? "breadth-first" : "depth-first",
               units_name(ossa_skeleton_metres_per_unit(s), units, sizeof units),
               ossa_skeleton_bytes(s));
        int *depth = tree ? joint_depths(s) : NULL;
        if (depth)
            print_tree(s, depth);
        free(depth);
    } else {
        printf("skeleton: none\n");
    }
    printf("clips: %d\n", blob->clip_count);
    bool assumed = false;
    if (blob->clip_count)
        clip_table_header(false);
    for (int i = 0; i < blob->clip_count; ++i) {
        const ossa_clip *c = ossa_blob_clip(blob, i);
        assumed |= clip_table_row(c, blob->skeleton, NULL);
        clip_table_tracks(c);
        tracks_report(c, blob->skeleton,
                      blob->skeleton ? ossa_skeleton_metres_per_unit(blob->skeleton) : 0.0f);
    }
    clip_table_footnote(assumed);
    printf("meshes: %d\n", blob->mesh_count);
    if (blob->mesh_count)
        printf("  %-28s %8s %9s %5s  %-36s %9s\n", "name", "vertices", "triangles", "skin",
               "influences 1/2/3/4", "bytes");
    for (int i = 0; i < blob->mesh_count; ++i)
        print_mesh(ossa_blob_mesh(blob, i));
    printf("sections:\n");
    for (int i = 0; i < blob->section_count; ++i) {
        uint64_t offset, bytes;
        ossa_section_kind kind = ossa_blob_section(blob, i, &offset, &bytes);
        printf("  %2d %-8s at %8llu  %10llu bytes\n", i, kind_name(kind),
               (unsigned long long)offset, (unsigned long long)bytes);
    }
    printf("total: %zu bytes\n", blob->bytes);
}

static void print_json(const char *path, const ossa_blob *blob)
{
    printf("{\"file\": ");
    json_string(stdout, path);
    printf(", \"version\": %u, \"bytes\": %zu, \"checksum\": \"0x%08x\",\n", blob->version,
           blob->bytes, blob->checksum);
    const ossa_skeleton *s = blob->skeleton;
    printf(" \"skeleton\": ");
    int *depth = s ? joint_depths(s) : NULL;
    if (s && depth) {
        char units[32];
        const int n = ossa_skeleton_joint_count(s);
        printf("{\"joint_count\": %d, \"roots\": %d, \"depth\": %d, \"order\": \"%s\", "
               "\"metres_per_unit\": ",
               n, roots_of(s), ossa_skeleton_max_depth(s),
               ossa_skeleton_is_breadth_first(s) ? "breadth-first" : "depth-first");
        json_float(stdout, ossa_skeleton_metres_per_unit(s));
        printf(", \"units\": ");
        json_string(stdout, units_name(ossa_skeleton_metres_per_unit(s), units, sizeof units));
        printf(", \"bytes\": %zu,\n  \"joints\": [", ossa_skeleton_bytes(s));
        for (int j = 0; j < n; ++j) {
            printf("%s\n    ", j ? "," : "");
            blob_input_json_joint(stdout, s, j);
            printf(", \"depth\": %d}", depth[j]);
        }
        printf("]}");
    } else {
        printf("null");
    }
    free(depth);
    printf(",\n \"clips\": [");
    for (int i = 0; i < blob->clip_count; ++i) {
        printf("%s\n  {", i ? "," : "");
        clip_table_json(stdout, ossa_blob_clip(blob, i), blob->skeleton);
        printf("}");
    }
    printf("],\n \"meshes\": [");
    for (int i = 0; i < blob->mesh_count; ++i) {
        printf("%s\n  ", i ? "," : "");
        print_mesh_json(ossa_blob_mesh(blob, i), blob->skeleton);
    }
    printf("],\n \"sections\": [");
    for (int i = 0; i < blob->section_count; ++i) {
        uint64_t offset, bytes;
        ossa_section_kind kind = ossa_blob_section(blob, i, &offset, &bytes);
        printf("%s{\"kind\": \"%s\", \"offset\": %llu, \"bytes\": %llu}", i ? ", " : "",
               kind_name(kind), (unsigned long long)offset, (unsigned long long)bytes);
    }
    printf("]}\n");
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    bool tree = false, json = false;
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--tree", NULL)) {
            tree = true;
        } else if (cli_is(argv[i], "--json", NULL)) {
            json = true;
        } else if (argv[i][0] == '-' || path) {
            cli_error("info", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        cli_error("info", "no file given");
        help(stderr);
        return 2;
    }
    ossa_blob blob;
    void *data;
    if (!blob_input_load("info", path, &blob, &data))
        return 1;
    if (json)
        print_json(path, &blob);
    else
        print_text(path, &blob, tree);
    blob_input_free(data);
    return 0;
}
