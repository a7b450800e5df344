/* cmd_dump.c - `ossa dump FILE.ossa --time T`: a clip's pose at a time as
 * the runtime computes it (sampling with looping -> local->model -> palette
 * -> skinning): every joint's model-space matrix, and every mesh's skinned
 * positions and normals in source vertex order. The JSON form is a stable
 * interface for outside tools; docs/importing.md describes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blob_input.h"
#include "cli.h"
#include "commands.h"
#include "json_out.h"
#include "ossa/ossa.h"
#include "ossa/pipeline.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa dump FILE.ossa [--clip NAME] --time T [--json]\n"
            "\n"
            "Samples a clip (the first when none is named) at time T seconds, looping,\n"
            "and prints the model-space matrix of every joint (a row-major 3x4 matrix:\n"
            "rotation and scale in the first three columns, translation in the last),\n"
            "then the skinned position and normal of every vertex of every mesh, in the\n"
            "source file's vertex order. With --json, one object:\n"
            "  {\"clip\": NAME, \"time\": T,\n"
            "   \"joints\": [{\"name\": N, \"parent\": N or null, \"model\": [12 numbers]}],\n"
            "   \"meshes\": [{\"name\": N, \"positions\": [[x,y,z]...], \"normals\": [...]}]}\n"
            "A blob with no clip gives the rest pose and \"clip\": null. A source vertex\n"
            "no runtime vertex maps to is null (text: -); one several map to takes the\n"
            "first of them (hand-made blobs may do both).\n"
            "  --clip NAME  the clip to sample\n"
            "  --time T     the playhead in seconds (any value; wraps around the clip)\n"
            "  --json       JSON instead of text (see docs/importing.md)\n"
            "  -h, --help   this text\n");
}

/* What is printed: the pose and each mesh's skinned vertices in source
 * order, 3 floats per vertex. The source map of a valid blob need not be a
 * permutation (the validator checks only its range): a source vertex no
 * runtime vertex maps to has mapped[v] false and is printed as null. */
typedef struct dump {
    const ossa_blob *blob;
    const ossa_clip *clip; /* NULL: the rest pose */
    float time_s;
    ossa_mat34 *model;     /* joint_count matrices */
    float **positions;     /* per mesh: 3 * vertex_count floats */
    float **normals;
    bool **mapped;         /* per mesh: vertex_count flags */
} dump;

/* Model matrices of the pose at the dump's time (rest pose without a clip). */
static ossa_result pose(dump *d)
{
    const ossa_skeleton *s = d->blob->skeleton;
    const int n = ossa_skeleton_joint_count(s);
    ossa_transform *local = cli_alloc(sizeof *local * (size_t)n);
    ossa_result r = OSSA_OK;
    if (d->clip) {
        ossa_sampling_job sample = {0};
        sample.clips = &d->clip;
        sample.clip_count = 1;
        sample.time_s = &d->time_s;
        sample.character_count = 1;
        sample.rest_pose = ossa_skeleton_rest_pose(s);
        sample.rest_pose_count = n;
        sample.output = local;
        sample.output_count = n;
        r = ossa_sampling_job_run(&sample);
    } else {
        memcpy(local, ossa_skeleton_rest_pose(s), sizeof *local * (size_t)n);
    }
    if (r == OSSA_OK) {
        ossa_local_to_model_job l2m = {0};
        l2m.parents = ossa_skeleton_parents(s);
        l2m.joint_count = n;
        l2m.local = local;
        l2m.local_count = n;
        l2m.character_count = 1;
        l2m.model = d->model;
        l2m.model_count = n;
        r = ossa_local_to_model_job_run(&l2m);
    }
    cli_free(local);
    return r;
}

/* Palette and skinning of one mesh; the runtime's vertex order (grouped by
 * influence count) is mapped back to the source's. */
static ossa_result skin(const dump *d, const ossa_mesh *mesh, float *positions, float *normals,
                        bool *mapped)
{
    const int skins = ossa_mesh_skin_joint_count(mesh), n = ossa_mesh_vertex_count(mesh);
    const size_t stride = (size_t)ossa_mesh_skinned_stride(mesh);
    ossa_mat34 *palette = cli_alloc(sizeof *palette * (size_t)skins);
    float *skinned = cli_alloc(stride * (size_t)n);
    ossa_palette_job pj = {0};
    pj.model = d->model;
    pj.model_count = ossa_skeleton_joint_count(d->blob->skeleton);
    pj.joint_count = pj.model_count;
    pj.skin_joint = ossa_mesh_skin_joints(mesh);
    pj.inverse_bind = ossa_mesh_inverse_binds(mesh);
    pj.skin_joint_count = skins;
    pj.character_count = 1;
    pj.palette = palette;
    pj.palette_count = skins;
    ossa_result r = ossa_palette_job_run(&pj);
    if (r == OSSA_OK) {
        ossa_skinning_job sj = {0};
        sj.mesh = mesh;
        sj.palette = palette;
        sj.palette_count = skins;
        sj.output = skinned;
        sj.output_bytes = stride * (size_t)n;
        r = ossa_skinning_job_run(&sj);
    }
    if (r == OSSA_OK) {
        const uint32_t *source = ossa_mesh_source_vertices(mesh);
        const size_t floats = stride / sizeof(float);
        for (int v = 0; v < n; ++v) {
            const size_t s = source[v]; /* < n: checked by the blob's validation */
            if (mapped[s]) /* a repeated entry: the first runtime vertex stays */
                continue;
            mapped[s] = true;
            const float *x = skinned + (size_t)v * floats;
            memcpy(positions + 3 * s, x, 3 * sizeof(float));
            memcpy(normals + 3 * s, x + 4, 3 * sizeof(float));
        }
    }
    cli_free(palette);
    cli_free(skinned);
    return r;
}

static int dump_compute(dump *d)
{
    const int meshes = d->blob->mesh_count;
    d->model = cli_alloc(sizeof *d->model * (size_t)ossa_skeleton_joint_count(d->blob->skeleton));
    d->positions = calloc((size_t)meshes + 1, sizeof *d->positions);
    d->normals = calloc((size_t)meshes + 1, sizeof *d->normals);
    d->mapped = calloc((size_t)meshes + 1, sizeof *d->mapped);
    if (!d->positions || !d->normals || !d->mapped) {
        cli_error("dump", "out of memory");
        return 1;
    }
    ossa_result r = pose(d);
    if (r != OSSA_OK) {
        cli_error("dump", "posing the skeleton: %s", ossa_result_str(r));
        return 1;
    }
    for (int i = 0; i < meshes; ++i) {
        const ossa_mesh *mesh = ossa_blob_mesh(d->blob, i);
        const size_t floats = 3 * (size_t)ossa_mesh_vertex_count(mesh);
        d->positions[i] = cli_alloc(sizeof(float) * floats);
        d->normals[i] = cli_alloc(sizeof(float) * floats);
        d->mapped[i] = calloc((size_t)ossa_mesh_vertex_count(mesh) + 1, sizeof(bool));
        if (!d->mapped[i]) {
            cli_error("dump", "out of memory");
            return 1;
        }
        if ((r = skin(d, mesh, d->positions[i], d->normals[i], d->mapped[i])) != OSSA_OK) {
            cli_error("dump", "skinning mesh '%s': %s", ossa_mesh_name(mesh),
                      ossa_result_str(r));
            return 1;
        }
    }
    return 0;
}

static void dump_fini(dump *d)
{
    for (int i = 0; d->positions && i < d->blob->mesh_count; ++i) {
        cli_free(d->positions[i]);
        cli_free(d->normals[i]);
        if (d->mapped)
            free(d->mapped[i]);
    }
    free(d->positions);
    free(d->normals);
    free(d->mapped);
    cli_free(d->model);
}

static void json_vectors(const float *v, const bool *mapped, int count)
{
    printf("[");
    for (int i = 0; i < count; ++i) {
        if (!mapped[i]) {
            printf("%snull", i ? ", " : "");
            continue;
        }
        printf("%s[", i ? ", " : "");
        for (int k = 0; k < 3; ++k) {
            if (k)
                printf(", ");
            json_float(stdout, v[3 * i + k]);
        }
        printf("]");
    }
    printf("]");
}

static void print_json(const dump *d)
{
    const ossa_skeleton *s = d->blob->skeleton;
    printf("{\"clip\": ");
    json_string(stdout, d->clip ? ossa_clip_name(d->clip) : NULL);
    printf(", \"time\": ");
    json_float(stdout, d->time_s);
    printf(",\n \"joints\": [");
    for (int j = 0; j < ossa_skeleton_joint_count(s); ++j) {
        printf("%s\n  ", j ? "," : "");
        blob_input_json_joint(stdout, s, j);
        printf(", \"model\": [");
        for (int k = 0; k < 12; ++k) {
            if (k)
                printf(", ");
            json_float(stdout, d->model[j].m[k / 4][k % 4]);
        }
        printf("]}");
    }
    printf("],\n \"meshes\": [");
    for (int i = 0; i < d->blob->mesh_count; ++i) {
        const ossa_mesh *mesh = ossa_blob_mesh(d->blob, i);
        printf("%s\n  {\"name\": ", i ? "," : "");
        json_string(stdout, ossa_mesh_name(mesh));
        printf(",\n   \"positions\": ");
        json_vectors(d->positions[i], d->mapped[i], ossa_mesh_vertex_count(mesh));
        printf(",\n   \"normals\": ");
        json_vectors(d->normals[i], d->mapped[i], ossa_mesh_vertex_count(mesh));
        printf("}");
    }
    printf("]}\n");
}

static void print_text(const char *path, const dump *d)
{
    const ossa_skeleton *s = d->blob->skeleton;
    const uint16_t *parents = ossa_skeleton_parents(s);
    if (d->clip)
        printf("%s: clip '%s' at %g s (clip time %g of %g s)\n", path, ossa_clip_name(d->clip),
               (double)d->time_s,
               (double)ossa_clip_time(OSSA_WRAP_LOOP, ossa_clip_duration(d->clip), d->time_s),
               (double)ossa_clip_duration(d->clip));
    else
        printf("%s: rest pose (the blob has no clip)\n", path);
    printf("%-24s %-24s model matrix rows (x axis, y axis, z axis | translation)\n", "joint",
           "parent");
    for (int j = 0; j < ossa_skeleton_joint_count(s); ++j) {
        const float(*m)[4] = d->model[j].m;
        printf("%-24s %-24s", ossa_skeleton_joint_name(s, j),
               parents[j] == OSSA_NO_PARENT ? "-" : ossa_skeleton_joint_name(s, parents[j]));
        for (int r = 0; r < 3; ++r)
            printf(" [%9.4f %9.4f %9.4f | %10.4f]", (double)m[r][0], (double)m[r][1],
                   (double)m[r][2], (double)m[r][3]);
        printf("\n");
    }
    for (int i = 0; i < d->blob->mesh_count; ++i) {
        const ossa_mesh *mesh = ossa_blob_mesh(d->blob, i);
        printf("mesh '%s': %d vertices in source order, skinned\n%8s  %-35s %s\n",
               ossa_mesh_name(mesh), ossa_mesh_vertex_count(mesh), "vertex", "position",
               "normal");
        const float *p = d->positions[i], *q = d->normals[i];
        for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v)
            if (!d->mapped[i][v])
                printf("%8d  -  (no runtime vertex maps to it)\n", v);
            else
                printf("%8d  %11.5f %11.5f %11.5f  %8.5f %8.5f %8.5f\n", v, (double)p[3 * v],
                       (double)p[3 * v + 1], (double)p[3 * v + 2], (double)q[3 * v],
                       (double)q[3 * v + 1], (double)q[3 * v + 2]);
    }
}

/* The clip named, else the first; NULL with *missing set when the name
 * matches none. */
static const ossa_clip *find_clip(const ossa_blob *blob, const char *name, bool *missing)
{
    *missing = false;
    if (!name)
        return blob->clip_count > 0 ? ossa_blob_clip(blob, 0) : NULL;
    const int index = ossa_blob_find_clip(blob, name);
    *missing = index < 0;
    return index < 0 ? NULL : ossa_blob_clip(blob, index);
}

int cmd_dump(int argc, char **argv)
{
    const char *path = NULL, *clip_name = NULL;
    float t = 0.0f;
    bool json = false, have_time = false;
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--json", NULL)) {
            json = true;
        } else if (cli_is(argv[i], "--clip", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &clip_name))
                return 2;
        } else if (cli_is(argv[i], "--time", "-t")) {
            if (!cli_float_arg(argc, argv, &i, -1e9f, 1e9f, &t))
                return 2;
            have_time = true;
        } else if (argv[i][0] == '-' || path) {
            cli_error("dump", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        } else {
            path = argv[i];
        }
    }
    if (!path || !have_time) {
        cli_error("dump", "%s", !path ? "no file given" : "no time given: add --time T");
        help(stderr);
        return 2;
    }
    ossa_blob blob;
    void *data;
    if (!blob_input_load("dump", path, &blob, &data))
        return 1;
    int code = 1;
    dump d;
    memset(&d, 0, sizeof d);
    d.blob = &blob;
    d.time_s = t;
    bool missing = false;
    if (blob.skeleton)
        d.clip = find_clip(&blob, clip_name, &missing);
    if (!blob.skeleton) {
        cli_error("dump", "%s: the blob has no skeleton", path);
    } else if (missing) {
        cli_error("dump", "%s: no clip named '%s' (the blob has %d clip%s%s%s)", path, clip_name,
                  blob.clip_count, blob.clip_count == 1 ? "" : "s",
                  blob.clip_count ? ", the first is " : "",
                  blob.clip_count ? ossa_clip_name(ossa_blob_clip(&blob, 0)) : "");
    } else if (dump_compute(&d) == 0) {
        if (json)
            print_json(&d);
        else
            print_text(path, &d);
        code = 0;
    }
    dump_fini(&d);
    blob_input_free(data);
    return code;
}
