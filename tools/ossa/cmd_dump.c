/* cmd_dump.c - `ossa dump FILE.ossa --time T`: every joint's model-space
 * matrix at a time of a clip, as the runtime computes it (sampling with
 * looping, then local -> model). The JSON form is a stable interface for
 * outside tools; docs/importing.md describes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
            "and prints the model-space matrix of every joint: a row-major 3x4 matrix,\n"
            "rotation and scale in the first three columns, translation in the last.\n"
            "With --json, one object:\n"
            "  {\"clip\": NAME, \"time\": T,\n"
            "   \"joints\": [{\"name\": N, \"parent\": N or null, \"model\": [12 numbers]}],\n"
            "   \"meshes\": [{\"name\": N, \"positions\": [[x,y,z]...], \"normals\": [...]}]}\n"
            "(meshes is empty until the blob holds meshes). A blob with no clip gives\n"
            "the rest pose and \"clip\": null.\n"
            "  --clip NAME  the clip to sample\n"
            "  --time T     the playhead in seconds (any value; wraps around the clip)\n"
            "  --json       JSON instead of a table\n"
            "  -h, --help   this text\n");
}

/* Model matrices of the pose at time t (rest pose when clip is NULL). */
static int compute(const ossa_skeleton *s, const ossa_clip *clip, float t, ossa_mat34 *model)
{
    const int n = ossa_skeleton_joint_count(s);
    ossa_transform *local = cli_alloc(sizeof *local * (size_t)n);
    ossa_result r = OSSA_OK;
    if (clip) {
        ossa_sampling_job sample = {0};
        sample.clips = &clip;
        sample.clip_count = 1;
        sample.time_s = &t;
        sample.time_count = 1;
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
        l2m.instance_count = 1;
        l2m.model = model;
        l2m.model_count = n;
        r = ossa_local_to_model_job_run(&l2m);
    }
    cli_free(local);
    if (r != OSSA_OK)
        cli_error("dump", "%s", ossa_result_str(r));
    return r == OSSA_OK ? 0 : 1;
}

static void print_json(const ossa_skeleton *s, const ossa_clip *clip, float t,
                       const ossa_mat34 *model)
{
    const uint16_t *parents = ossa_skeleton_parents(s);
    printf("{\"clip\": ");
    json_string(stdout, clip ? ossa_clip_name(clip) : NULL);
    printf(", \"time\": ");
    json_float(stdout, t);
    printf(",\n \"joints\": [");
    for (int j = 0; j < ossa_skeleton_joint_count(s); ++j) {
        printf("%s\n  {\"name\": ", j ? "," : "");
        json_string(stdout, ossa_skeleton_joint_name(s, j));
        printf(", \"parent\": ");
        json_string(stdout, parents[j] == OSSA_NO_PARENT ? NULL
                                                          : ossa_skeleton_joint_name(s, parents[j]));
        printf(", \"model\": [");
        for (int k = 0; k < 12; ++k) {
            if (k)
                printf(", ");
            json_float(stdout, model[j].m[k / 4][k % 4]);
        }
        printf("]}");
    }
    printf("],\n \"meshes\": []}\n");
}

static void print_text(const char *path, const ossa_skeleton *s, const ossa_clip *clip, float t,
                       const ossa_mat34 *model)
{
    const uint16_t *parents = ossa_skeleton_parents(s);
    if (clip)
        printf("%s: clip '%s' at %g s (clip time %g of %g s)\n", path, ossa_clip_name(clip),
               (double)t, (double)ossa_clip_time(OSSA_WRAP_LOOP, ossa_clip_duration(clip), t),
               (double)ossa_clip_duration(clip));
    else
        printf("%s: rest pose (the blob has no clip)\n", path);
    printf("%-24s %-24s model matrix rows (x axis, y axis, z axis | translation)\n", "joint",
           "parent");
    for (int j = 0; j < ossa_skeleton_joint_count(s); ++j) {
        const float(*m)[4] = model[j].m;
        printf("%-24s %-24s", ossa_skeleton_joint_name(s, j),
               parents[j] == OSSA_NO_PARENT ? "-" : ossa_skeleton_joint_name(s, parents[j]));
        for (int r = 0; r < 3; ++r)
            printf("%s[%9.4f %9.4f %9.4f | %10.4f]", r ? " " : " ", (double)m[r][0],
                   (double)m[r][1], (double)m[r][2], (double)m[r][3]);
        printf("\n");
    }
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
    ossa_error error;
    void *data = NULL;
    if (ossa_blob_load_file(path, NULL, &blob, &data, &error) != OSSA_OK) {
        cli_error("dump", "%s (%s)", error.message, ossa_result_name(error.code));
        return 1;
    }
    int code = 1;
    const ossa_clip *clip = NULL;
    ossa_mat34 *model = NULL;
    if (!blob.skeleton) {
        cli_error("dump", "%s: the blob has no skeleton", path);
        goto done;
    }
    if (clip_name) {
        const int index = ossa_blob_find_clip(&blob, clip_name);
        if (index < 0) {
            cli_error("dump", "%s: no clip named '%s' (the blob has %d clip%s%s%s)", path,
                      clip_name, blob.clip_count, blob.clip_count == 1 ? "" : "s",
                      blob.clip_count ? ", the first is " : "",
                      blob.clip_count ? ossa_clip_name(ossa_blob_clip(&blob, 0)) : "");
            goto done;
        }
        clip = ossa_blob_clip(&blob, index);
    } else if (blob.clip_count > 0) {
        clip = ossa_blob_clip(&blob, 0);
    }
    model = cli_alloc(sizeof *model * (size_t)ossa_skeleton_joint_count(blob.skeleton));
    if (compute(blob.skeleton, clip, t, model))
        goto done;
    if (json)
        print_json(blob.skeleton, clip, t, model);
    else
        print_text(path, blob.skeleton, clip, t, model);
    code = 0;
done:
    cli_free(model);
    ossa_free(NULL, data);
    return code;
}
