/* build_report.c - see build_report.h. */
#include "build_report.h"

#include <stdio.h>
#include <string.h>

#include "clip_table.h"
#include "units.h"

#define MAX_LISTED 12

void build_report_written(const char *path, const ossa_skeleton *skeleton,
                          const ossa_import *base)
{
    FILE *f = strcmp(path, "-") == 0 ? NULL : fopen(path, "rb");
    long bytes = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        bytes = ftell(f);
    if (f)
        fclose(f);
    if (strcmp(path, "-") == 0)
        printf("wrote the blob to standard output\n");
    else
        printf("wrote %s (%ld bytes)\n", path, bytes);
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    int roots = 0;
    for (int j = 0; j < ossa_skeleton_joint_count(skeleton); ++j)
        roots += parents[j] == OSSA_NO_PARENT;
    char units[32];
    printf("skeleton: %d joints, %d root%s, depth %d, %s order, units %s\n",
           ossa_skeleton_joint_count(skeleton), roots, roots == 1 ? "" : "s",
           ossa_skeleton_max_depth(skeleton),
           ossa_skeleton_is_breadth_first(skeleton) ? "breadth-first" : "depth-first",
           units_name(ossa_skeleton_metres_per_unit(skeleton), units, sizeof units));
    if (base) {
        char source_units[32];
        printf("  from %s (%s, source units %s", base->path, base->format_name,
               units_name(base->source_metres_per_unit, source_units, sizeof source_units));
        if (base->scale != 1.0f)
            printf(", scaled by %g", (double)base->scale);
        if (base->folded_helpers)
            printf(", %d FBX pivot helper nodes folded into joints", base->folded_helpers);
        printf(")\n");
    }
}

void build_report_clips_header(void)
{
    printf("clips:\n");
    clip_table_header(true);
}

void build_report_clip(const ossa_clip *clip, const char *source, const ossa_skeleton *skeleton,
                       const ossa_clip_build_report *report)
{
    clip_table_row(clip, skeleton, source);
    if (!report)
        return;
    if (report->units_assumed_metres)
        printf("      the skeleton's units are unknown: the tolerance is in model units taken "
               "as metres\n");
    if (!report->within_tolerance)
        printf("      warning: above the tolerance (%.3g model units) at every rate tried; the "
               "smallest error is kept\n",
               (double)report->tolerance);
}

static void list_names(const char *what, const char *const *names, int count)
{
    printf("      %s:", what);
    for (int i = 0; i < count && i < MAX_LISTED; ++i)
        printf("%s '%s'", i ? "," : "", names[i]);
    if (count > MAX_LISTED)
        printf(" and %d more", count - MAX_LISTED);
    printf("\n");
}

void build_report_joint_match(const ossa_skeleton *skeleton, const build_clip *bc,
                              bool names)
{
    const ossa_raw_clip *raw = bc->raw;
    const int joints = ossa_skeleton_joint_count(skeleton);
    const char *held[MAX_LISTED], *ignored[MAX_LISTED];
    int held_count = 0, ignored_count = 0;
    for (int j = 0; j < joints; ++j) {
        const char *name = ossa_skeleton_joint_name(skeleton, j);
        if (!ossa_raw_clip_find_track(raw, name)) {
            if (held_count < MAX_LISTED)
                held[held_count] = name;
            ++held_count;
        }
    }
    for (int t = 0; t < raw->track_count; ++t)
        if (ossa_skeleton_find_joint(skeleton, raw->tracks[t].joint_name) < 0) {
            if (ignored_count < MAX_LISTED)
                ignored[ignored_count] = raw->tracks[t].joint_name;
            ++ignored_count;
        }
    printf("      %d of %d joints animated", joints - held_count, joints);
    if (ignored_count)
        printf("; %d track%s name no joint (ignored)", ignored_count,
               ignored_count == 1 ? "" : "s");
    printf("\n");
    if (!names)
        return;
    if (held_count)
        list_names("not in the clip (held at rest)", held, held_count);
    if (ignored_count)
        list_names("not in the skeleton (ignored)", ignored, ignored_count);
}

void build_report_meshes_header(void)
{
    printf("meshes:\n  %-28s %-16s %8s %9s %5s  %-22s %-8s %9s\n", "name", "from", "vertices",
           "triangles", "skin", "influences 1/2/3/4", "tangents", "bytes");
}

void build_report_mesh(const ossa_mesh *mesh, const char *source,
                       const ossa_mesh_build_report *report)
{
    const char *slash = source ? strrchr(source, '/') : NULL;
    int c[OSSA_MAX_INFLUENCES];
    ossa_mesh_influence_counts(mesh, c);
    char influences[64];
    snprintf(influences, sizeof influences, "%d/%d/%d/%d", c[0], c[1], c[2], c[3]);
    printf("  %-28s %-16s %8d %9d %5d  %-22s %-8s %9zu\n", ossa_mesh_name(mesh),
           slash ? slash + 1 : (source ? source : "default"), ossa_mesh_vertex_count(mesh),
           ossa_mesh_triangle_count(mesh), ossa_mesh_skin_joint_count(mesh), influences,
           ossa_mesh_has_tangents(mesh) ? "yes" : "no", ossa_mesh_bytes(mesh));
    if (!report)
        return;
    if (report->reduced_vertices)
        printf("      %d vertices had more than 4 influences: kept the 4 heaviest (largest weight "
               "dropped %.3g)\n",
               report->reduced_vertices, (double)report->largest_dropped_weight);
    if (report->renormalized_vertices)
        printf("      %d vertices' weights did not sum to 1: renormalised\n",
               report->renormalized_vertices);
    if (report->dropped_zero_weights)
        printf("      %d zero weights dropped\n", report->dropped_zero_weights);
    if (report->merged_influences)
        printf("      %d influences named a joint twice: merged\n", report->merged_influences);
}

void build_report_warnings(const ossa_import *imports, int count)
{
    for (int i = 0; i < count; ++i)
        for (int w = 0; w < imports[i].warning_count; ++w)
            printf("warning: %s: %s\n", imports[i].path, imports[i].warnings[w]);
}
