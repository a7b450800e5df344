/* cmd_info.c - `ossa info FILE.ossa`: what a blob holds, or why it is invalid. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ossa/pipeline.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa info FILE.ossa\n"
            "\n"
            "Validates a blob and prints its skeleton, clips, meshes and sizes. Exits 1 and\n"
            "says what is wrong and where when the file is not a valid blob.\n");
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

/* Vertices, triangles, influence histogram and the bytes of each stream. */
static void print_mesh(const ossa_mesh *m)
{
    const int n = ossa_mesh_vertex_count(m);
    int c[OSSA_MAX_INFLUENCES];
    ossa_mesh_influence_counts(m, c);
    const double pct = 100.0 / (n > 0 ? n : 1);
    printf("  %-16s %d vertices, %d triangles, %d skin joints, %zu bytes\n", ossa_mesh_name(m), n,
           ossa_mesh_triangle_count(m), ossa_mesh_skin_joint_count(m), ossa_mesh_bytes(m));
    printf("    influences: 1: %d (%.0f%%), 2: %d (%.0f%%), 3: %d (%.0f%%), 4: %d (%.0f%%)\n",
           c[0], c[0] * pct, c[1], c[1] * pct, c[2], c[2] * pct, c[3], c[3] * pct);
    const size_t joints = (size_t)c[0] + 2u * (size_t)c[1] + 3u * (size_t)c[2] + 4u * (size_t)c[3];
    const size_t weights = (size_t)c[1] + 2u * (size_t)c[2] + 3u * (size_t)c[3];
    printf("    skinned stream: %zu bytes (%d per vertex: position, normal%s); influences: %zu "
           "bytes\n",
           (size_t)n * (size_t)ossa_mesh_skinned_stride(m), ossa_mesh_skinned_stride(m),
           ossa_mesh_has_tangents(m) ? ", tangent" : "", 2 * joints + 4 * weights);
    printf("    static stream: %zu bytes (%s%s%s); indices: %zu bytes\n",
           (size_t)n * ((ossa_mesh_uvs(m) ? 8u : 0u) + (ossa_mesh_colors(m) ? 4u : 0u)),
           ossa_mesh_uvs(m) ? "uv" : "", ossa_mesh_uvs(m) && ossa_mesh_colors(m) ? ", " : "",
           ossa_mesh_colors(m) ? "colour" : (ossa_mesh_uvs(m) ? "" : "none"),
           (size_t)ossa_mesh_triangle_count(m) * 12u);
}

int cmd_info(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
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
    ossa_error error;
    void *data = NULL;
    if (ossa_blob_load_file(path, NULL, &blob, &data, &error) != OSSA_OK) {
        cli_error("info", "%s (%s)", error.message, ossa_result_name(error.code));
        return 1;
    }
    printf("%s: ossa blob version %u, %zu bytes, CRC-32C 0x%08x, %d sections\n", path,
           blob.version, blob.bytes, blob.checksum, blob.section_count);
    if (blob.skeleton) {
        const ossa_skeleton *s = blob.skeleton;
        int roots = 0;
        const uint16_t *parents = ossa_skeleton_parents(s);
        for (int j = 0; j < ossa_skeleton_joint_count(s); ++j)
            roots += parents[j] == OSSA_NO_PARENT;
        printf("skeleton: %d joints, %d root%s, depth %d, %s order, %zu bytes\n",
               ossa_skeleton_joint_count(s), roots, roots == 1 ? "" : "s",
               ossa_skeleton_max_depth(s),
               ossa_skeleton_is_breadth_first(s) ? "breadth-first" : "depth-first",
               ossa_skeleton_bytes(s));
    } else {
        printf("skeleton: none\n");
    }
    printf("clips: %d\n", blob.clip_count);
    if (blob.clip_count)
        printf("  %-16s %9s %8s %7s %10s %12s %10s\n", "name", "duration", "rate", "frames",
               "bytes", "error units", "error deg");
    for (int i = 0; i < blob.clip_count; ++i) {
        const ossa_clip *c = ossa_blob_clip(&blob, i);
        float et, er, es;
        ossa_clip_build_error(c, &et, &er, &es);
        printf("  %-16s %7.3f s %5.1f Hz %7d %10zu %12.3g %10.3g\n", ossa_clip_name(c),
               (double)ossa_clip_duration(c), (double)ossa_clip_rate(c),
               ossa_clip_frame_count(c), ossa_clip_bytes(c), (double)et, (double)er);
    }
    printf("meshes: %d\n", blob.mesh_count);
    for (int i = 0; i < blob.mesh_count; ++i)
        print_mesh(ossa_blob_mesh(&blob, i));
    printf("sections:\n");
    for (int i = 0; i < blob.section_count; ++i) {
        uint64_t offset, bytes;
        ossa_section_kind kind = ossa_blob_section(&blob, i, &offset, &bytes);
        printf("  %2d %-8s at %8llu  %10llu bytes\n", i, kind_name(kind),
               (unsigned long long)offset, (unsigned long long)bytes);
    }
    ossa_free(NULL, data);
    return 0;
}
