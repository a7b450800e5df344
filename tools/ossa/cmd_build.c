/* cmd_build.c - `ossa build`: source files (or the default character) -> a
 * .ossa blob. The first input gives the skeleton and the meshes (whose bones
 * must be joints of that skeleton); every input may bring clips (matched to
 * the skeleton's joints by name). Everything is built before the blob is
 * written, so a failure leaves no file. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build_output.h"
#include "build_report.h"
#include "cli.h"
#include "commands.h"
#include "import_child.h"
#include "ossa/pipeline.h"
#include "tracks_report.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa build IN... -o OUT.ossa [options]\n"
            "       ossa build --default -o OUT.ossa\n"
            "\n"
            "Imports glTF 2.0, FBX, Collada (anything assimp reads) and writes a .ossa\n"
            "blob atomically. The first input gives the skeleton and the meshes; the\n"
            "others only add clips, whose tracks match its joints by name (their meshes\n"
            "are ignored, with a note), e.g.\n"
            "  ossa build arnaud.fbx walk.fbx jog.fbx run.fbx -o arnaud.ossa\n"
            "An input given with --mesh adds its skinned meshes too, bound to the first\n"
            "input's joints by name (a character exported apart from its rig), e.g.\n"
            "  ossa build --all-nodes skeleton.fbx --mesh arnaud.fbx walk.fbx -o a.ossa\n"
            "Joints present on one side only are reported. Clips are built on every\n"
            "core OpenMP is given (OMP_NUM_THREADS), the same bytes on any number.\n"
            "  -o, --output F   the file to write (required): a new file or a regular\n"
            "                   file to replace (checked before importing); - writes\n"
            "                   the blob to standard output (the summary to stderr)\n"
            "  --tolerance MM   the error bound of every clip, in millimetres (default\n"
            "                   0.1): how far points at --distance from each joint may\n"
            "                   move in model space, through the hierarchy, against the\n"
            "                   source curves; converted with the skeleton's units\n"
            "                   (unknown units are taken as metres)\n"
            "  --distance CM    where those points are, in centimetres (default 3)\n"
            "  --raw            store raw float keys (ten float32 per joint and key) instead\n"
            "                   of compressing the clips (docs/compression.md)\n"
            "  --thorough       compress measuring every candidate bit (about 1%% smaller,\n"
            "                   two to three times slower)\n"
            "  --rate HZ        keys per second of the clips, instead of the lowest rate\n"
            "                   (from the source's own key rate up) whose error is within\n"
            "                   the tolerance; the error it gives is reported\n"
            "  --mesh FILE      an input whose meshes are built too, not only its clips;\n"
            "                   every bone of its skins must be a joint of the first input\n"
            "  --clip NAME      build only this clip (repeat for several; default all)\n"
            "  --scale S        multiply every length by S (e.g. 0.01: centimetres to\n"
            "                   metres); units are recorded and shown by ossa info\n"
            "  --bfs            number joints breadth-first (default depth-first)\n"
            "  --no-tangents    leave tangents out of meshes\n"
            "  --all-nodes      also make every plain node below a joint a joint (end-of-\n"
            "                   chain 'Nub' nodes, sockets), as ozz-animation does, and\n"
            "                   animated cameras, lights and nulls\n"
            "  --import-timeout S   seconds one input's import may take (default %g)\n"
            "  --import-memory MIB  memory one input's import may use, in MiB (default\n"
            "                   %g); each input is first imported in a child process\n"
            "                   under both limits, so a file that crashes, hangs or\n"
            "                   floods the importer stops the build with a message\n"
            "  --root-motion J  extract root motion from joint J (default: the skeleton's\n"
            "                   root, or the hips when the root does not move): its travel\n"
            "                   on the ground and turn about +y become the clip's motion\n"
            "                   track and the clip plays in place\n"
            "  --no-root-motion keep the clips as the source moves them\n"
            "  --track NODE     the animated channels of NODE (a joint or any node, e.g.\n"
            "                   'Bip01 Footsteps') become float tracks of the clips,\n"
            "                   NODE.translation.x ... (repeat for several); morph target\n"
            "                   weights, FBX animated user properties and Collada\n"
            "                   animated <extra> values always do; --track\n"
            "                   OBJECT.PROPERTY adds a built-in FBX property (e.g.\n"
            "                   Camera01.Roll) or Collada value (e.g. Cam.xfov)\n"
            "  --default        the embedded default character (96 joints; crouch, walk,\n"
            "                   run; a ~5k-triangle skinned body) instead of input files\n"
            "  -q, --quiet      no progress and no summary\n"
            "  -h, --help       this text\n"
            "Every skinned mesh of the first input and of --mesh inputs is built\n"
            "(influences reduced to the 4 heaviest, vertices grouped by influence count)\n"
            "and written with the clips.\n",
            IMPORT_CHILD_DEFAULT_TIMEOUT_S, IMPORT_CHILD_DEFAULT_MEMORY_MIB);
}

static int build_default(const char *output, bool quiet)
{
    ossa_default_character character;
    ossa_error error;
    if (ossa_default_character_build(&character, NULL, &error) != OSSA_OK) {
        cli_error("build", "default character: %s", error.message);
        return 1;
    }
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        clips[i] = character.clips[i];
    const ossa_mesh *meshes[1] = {character.mesh};
    ossa_blob_contents contents = {character.skeleton, clips, OSSA_DEFAULT_CLIP_COUNT, meshes, 1};
    int code = 0;
    if (build_output_write(output, &contents, &error) != OSSA_OK) {
        cli_error("build", "%s", error.message);
        code = 1;
    } else if (!quiet) {
        const int saved = build_output_report_begin(output);
        build_report_written(output, character.skeleton, NULL);
        build_report_clips_header();
        for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i) {
            build_report_clip(character.clips[i], "default", NULL, NULL);
            tracks_report(character.clips[i], character.skeleton, 1.0f);
        }
        build_report_meshes_header();
        build_report_mesh(character.mesh, NULL, NULL);
        build_output_report_end(saved);
    }
    ossa_default_character_free(&character, NULL);
    return code;
}

typedef struct build_job {
    const char **inputs;
    int input_count;
    const char **clip_names;
    int clip_name_count;
    bool *mesh_inputs; /* per input: given with --mesh (its meshes are built) */
    const char **track_nodes; /* --track names (count in import.track_node_count) */
    const char *output; /* "-": standard output */
    ossa_import_options import;
    import_limits limits;
    ossa_clip_build_options clip;
    bool bfs, quiet;
    int rigid_joints; /* joints measured at the reach of a rigid mesh */
    /* Results, freed by build_job_fini. */
    ossa_import *imports;
    ossa_skeleton *skeleton;
    build_clip *clips;
    int clip_count;
    build_mesh *meshes;
    int mesh_count;
} build_job;

static void build_job_fini(build_job *job)
{
    for (int i = 0; i < job->clip_count; ++i)
        ossa_clip_free(job->clips[i].clip, NULL);
    for (int i = 0; i < job->mesh_count; ++i)
        ossa_mesh_free(job->meshes[i].mesh, NULL);
    free(job->meshes);
    for (int i = 0; job->imports && i < job->input_count; ++i)
        ossa_import_free(&job->imports[i]);
    ossa_skeleton_free(job->skeleton, NULL);
    free(job->imports);
    free(job->clips);
    free(job->inputs);
    free(job->clip_names);
    free(job->mesh_inputs);
    free(job->track_nodes);
}

static int import_all(build_job *job)
{
    job->imports = calloc((size_t)job->input_count, sizeof *job->imports);
    if (!job->imports) {
        cli_error("build", "out of memory");
        return 1;
    }
    cli_progress progress = {0};
    if (!job->quiet)
        cli_progress_begin(&progress, "importing", job->input_count);
    for (int i = 0; i < job->input_count; ++i) {
        ossa_error error;
        /* The inputs after the first only add clips, unless given with --mesh. */
        ossa_import_options options = job->import;
        options.no_meshes = i > 0 && !job->mesh_inputs[i];
        /* A progress line is open on a terminal once a step was drawn. */
        const bool line_open = !job->quiet && progress.tty && i > 0;
        if (!import_child_check(job->inputs[i], &options, &job->limits)) {
            if (line_open)
                fputc('\n', stderr);
            return 1;
        }
        if (ossa_import_file(job->inputs[i], &options, &job->imports[i], &error)) {
            if (line_open)
                fputc('\n', stderr);
            cli_error("build", "%s", error.message);
            return 1;
        }
        if (!job->quiet)
            cli_progress_step(&progress, i + 1);
    }
    if (!job->quiet)
        cli_progress_end(&progress);
    return 0;
}

static int build_skeleton(build_job *job)
{
    const ossa_import *base = &job->imports[0];
    if (base->skeleton.joint_count == 0) {
        cli_error("build", "%s: no skeleton: the file has no skinned mesh and no animated "
                           "node (the first input gives the skeleton)",
                  base->path);
        return 1;
    }
    ossa_skeleton_build_options options = {0};
    options.breadth_first = job->bfs;
    options.metres_per_unit = base->metres_per_unit;
    ossa_error error;
    if (ossa_skeleton_build(&base->skeleton, &options, &job->skeleton, NULL, &error)) {
        cli_error("build", "%s: %s", base->path, error.message);
        return 1;
    }
    return 0;
}

/* Every skin joint of every mesh must be a joint of the skeleton. */
static int check_meshes(const build_job *job)
{
    for (int i = 0; i < job->input_count; ++i) {
        const ossa_import *im = &job->imports[i];
        for (int m = 0; m < im->mesh_count; ++m) {
            const ossa_raw_mesh *mesh = &im->meshes[m];
            for (int k = 0; k < mesh->skin_joint_count; ++k)
                if (ossa_skeleton_find_joint(job->skeleton, mesh->skin_joints[k].name) < 0) {
                    cli_error("build", "%s: mesh '%s': bone '%s' is not a joint of the skeleton "
                                       "(from %s)",
                              im->path, mesh->name ? mesh->name : "",
                              mesh->skin_joints[k].name, job->imports[0].path);
                    return 1;
                }
        }
    }
    return 0;
}

static build_clip clip_of(const ossa_import *im, int index)
{
    build_clip bc;
    memset(&bc, 0, sizeof bc);
    bc.source = im;
    bc.raw = &im->clips[index];
    return bc;
}

/* The clips to build: the named ones (first match over the inputs), or all. */
static int select_clips(build_job *job)
{
    int total = 0;
    for (int i = 0; i < job->input_count; ++i)
        total += job->imports[i].clip_count;
    const int wanted = job->clip_name_count ? job->clip_name_count : total;
    job->clips = calloc((size_t)wanted + 1, sizeof *job->clips);
    if (!job->clips) {
        cli_error("build", "out of memory");
        return 1;
    }
    if (!job->clip_name_count) {
        for (int i = 0; i < job->input_count; ++i)
            for (int c = 0; c < job->imports[i].clip_count; ++c)
                job->clips[job->clip_count++] = clip_of(&job->imports[i], c);
        return 0;
    }
    for (int n = 0; n < job->clip_name_count; ++n) {
        const char *name = job->clip_names[n];
        build_clip found;
        memset(&found, 0, sizeof found);
        for (int i = 0; i < job->input_count && !found.raw; ++i)
            for (int c = 0; c < job->imports[i].clip_count && !found.raw; ++c)
                if (strcmp(job->imports[i].clips[c].name, name) == 0)
                    found = clip_of(&job->imports[i], c);
        if (!found.raw) {
            char list[200] = "";
            size_t used = 0;
            for (int i = 0; i < job->input_count; ++i)
                for (int c = 0; c < job->imports[i].clip_count && used < sizeof list - 40; ++c)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s'%s'",
                                             used ? ", " : "", job->imports[i].clips[c].name);
            cli_error("build", "no clip named '%s' in the inputs (clips: %s)", name,
                      used ? list : "none");
            return 1;
        }
        job->clips[job->clip_count++] = found;
    }
    return 0;
}

static bool has_keys(const ossa_raw_clip *raw)
{
    for (int t = 0; t < raw->track_count; ++t)
        if (raw->tracks[t].translation.key_count || raw->tracks[t].rotation.key_count ||
            raw->tracks[t].scale.key_count)
            return true;
    return false;
}

/* Every rigid mesh of every input, measured at its reach. */
static float *rigid_mesh_reach(const build_job *job, int *rigid_joints)
{
    const int n = ossa_skeleton_joint_count(job->skeleton);
    float *reach = calloc((size_t)n, sizeof *reach);
    *rigid_joints = 0;
    if (!reach)
        return NULL;
    for (int i = 0; i < job->input_count; ++i)
        *rigid_joints += ossa_clip_rigid_mesh_reach(job->skeleton, job->imports[i].meshes,
                                                    job->imports[i].mesh_count, reach);
    return reach;
}

static int build_clips_measured(build_job *job);

static int build_clips(build_job *job)
{
    int rigid = 0;
    float *reach = rigid_mesh_reach(job, &rigid);
    if (!reach) {
        cli_error("build", "out of memory");
        return 1;
    }
    job->clip.joint_distances = reach;
    job->clip.joint_distance_count = ossa_skeleton_joint_count(job->skeleton);
    job->rigid_joints = rigid;
    const int code = build_clips_measured(job);
    free(reach);
    job->clip.joint_distances = NULL;
    return code;
}

/* Whether clip i can be built (else, with `say`, says why): it has keys,
 * and its tracks name joints of the skeleton. */
static bool clip_buildable(const build_job *job, int i, bool say)
{
    const build_clip *bc = &job->clips[i];
    const ossa_raw_clip *raw = bc->raw;
    const char *path = bc->source->path;
    if (!has_keys(raw)) {
        if (say)
            cli_error("build", "%s: clip '%s' is empty: no joint has a key%s", path, raw->name,
                      job->clip_name_count ? "" : " (choose other clips with --clip NAME)");
        return false;
    }
    int matched = 0;
    for (int t = 0; t < raw->track_count; ++t)
        matched += ossa_skeleton_find_joint(job->skeleton, raw->tracks[t].joint_name) >= 0;
    if (matched == 0) {
        if (say)
            cli_error("build", "%s: clip '%s': none of its %d tracks names a joint of the "
                               "skeleton from %s (the first track is '%s')",
                      path, raw->name, raw->track_count, job->imports[0].path,
                      raw->tracks[0].joint_name);
        return false;
    }
    return true;
}

/* The clips before the first that cannot be built are built on every core
 * OpenMP is given (each build is independent, and takes up to seconds);
 * then, in clip order, the first failure is reported - the same message
 * whatever the threads, as if they had been built one by one. */
static int build_clips_measured(build_job *job)
{
    int buildable = 0;
    ossa_error *errors = calloc((size_t)job->clip_count + 1, sizeof *errors);
    int *failed = calloc((size_t)job->clip_count + 1, sizeof *failed);
    if (!errors || !failed) {
        free(errors);
        free(failed);
        cli_error("build", "out of memory");
        return 1;
    }
    while (buildable < job->clip_count && clip_buildable(job, buildable, false))
        ++buildable;
    cli_progress progress = {0};
    if (!job->quiet && job->clip_count)
        cli_progress_begin(&progress, "building clips", job->clip_count);
    long done = 0;
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = 0; i < buildable; ++i) {
        build_clip *bc = &job->clips[i];
        ossa_clip_build_options options = job->clip;
        if (bc->source->clip_float_tracks) {
            const ossa_raw_float_tracks *ft =
                &bc->source->clip_float_tracks[bc->raw - bc->source->clips];
            options.float_tracks = ft->tracks;
            options.float_track_count = ft->count;
        }
        failed[i] = ossa_clip_build(bc->raw, job->skeleton, &options, &bc->clip, &bc->report,
                                    &errors[i]) != OSSA_OK;
#pragma omp critical(build_clips_progress)
        {
            ++done;
            if (!job->quiet)
                cli_progress_step(&progress, done);
        }
    }
    int code = 0;
    for (int i = 0; i < buildable && !code; ++i)
        if (failed[i]) {
            cli_error("build", "%s: %s", job->clips[i].source->path, errors[i].message);
            code = 1;
        }
    if (!code && buildable < job->clip_count) {
        (void)clip_buildable(job, buildable, true); /* says why */
        code = 1;
    }
    if (!job->quiet && job->clip_count && !code)
        cli_progress_end(&progress);
    free(errors);
    free(failed);
    return code;
}

/* Every mesh of every input, in input order. */
static int build_meshes(build_job *job)
{
    int total = 0;
    for (int i = 0; i < job->input_count; ++i)
        total += job->imports[i].mesh_count;
    job->meshes = calloc((size_t)total + 1, sizeof *job->meshes);
    if (!job->meshes) {
        cli_error("build", "out of memory");
        return 1;
    }
    cli_progress progress = {0};
    if (!job->quiet && total)
        cli_progress_begin(&progress, "building meshes", total);
    ossa_mesh_build_options options = {0};
    options.no_tangents = job->import.no_tangents;
    for (int i = 0; i < job->input_count; ++i)
        for (int m = 0; m < job->imports[i].mesh_count; ++m) {
            build_mesh *bm = &job->meshes[job->mesh_count];
            bm->source = &job->imports[i];
            bm->raw = &job->imports[i].meshes[m];
            ossa_error error;
            if (ossa_mesh_build(bm->raw, job->skeleton, &options, &bm->mesh, &bm->report,
                                &error)) {
                if (!job->quiet && progress.tty && job->mesh_count > 0)
                    fputc('\n', stderr);
                cli_error("build", "%s: %s", bm->source->path, error.message);
                return 1;
            }
            ++job->mesh_count;
            if (!job->quiet)
                cli_progress_step(&progress, job->mesh_count);
        }
    if (!job->quiet && total)
        cli_progress_end(&progress);
    return 0;
}

static int write_blob(build_job *job)
{
    const ossa_clip **clips = calloc((size_t)job->clip_count + 1, sizeof *clips);
    const ossa_mesh **meshes = calloc((size_t)job->mesh_count + 1, sizeof *meshes);
    if (!clips || !meshes) {
        free(clips);
        free(meshes);
        cli_error("build", "out of memory");
        return 1;
    }
    for (int i = 0; i < job->clip_count; ++i)
        clips[i] = job->clips[i].clip;
    for (int i = 0; i < job->mesh_count; ++i)
        meshes[i] = job->meshes[i].mesh;
    ossa_blob_contents contents = {job->skeleton, clips, job->clip_count, meshes,
                                   job->mesh_count};
    ossa_error error;
    const ossa_result r = build_output_write(job->output, &contents, &error);
    free(clips);
    free(meshes);
    if (r) {
        cli_error("build", "%s", error.message);
        return 1;
    }
    return 0;
}

static void summary(const build_job *job)
{
    build_report_written(job->output, job->skeleton, &job->imports[0]);
    build_report_clips_header();
    if (job->clip_count) {
        const ossa_clip_build_report *r = &job->clips[0].report;
        printf("  error bound %.3g model units at %.3g from each joint", (double)r->tolerance,
               (double)r->distance);
        if (job->rigid_joints)
            printf(" (%d joint%s carrying a rigid mesh: at its reach)", job->rigid_joints,
                   job->rigid_joints == 1 ? "" : "s");
        printf("\n");
    }
    for (int i = 0; i < job->clip_count; ++i) {
        const build_clip *bc = &job->clips[i];
        build_report_clip(bc->clip, bc->source->path, job->skeleton, &bc->report);
        build_report_joint_match(job->skeleton, bc, bc->source != &job->imports[0]);
        tracks_report(bc->clip, job->skeleton, job->imports[0].metres_per_unit);
    }
    if (job->mesh_count)
        build_report_meshes_header();
    for (int i = 0; i < job->mesh_count; ++i)
        build_report_mesh(job->meshes[i].mesh, job->meshes[i].source->path,
                          &job->meshes[i].report);
    build_report_warnings(job->imports, job->input_count);
    for (int i = 1; i < job->input_count; ++i)
        if (job->imports[i].skipped_meshes > 0)
            printf("note: %s: %d mesh%s ignored (the inputs after the first only add clips; "
                   "--mesh FILE keeps them)\n",
                   job->imports[i].path, job->imports[i].skipped_meshes,
                   job->imports[i].skipped_meshes == 1 ? "" : "es");
}

int cmd_build(int argc, char **argv)
{
    build_job job;
    memset(&job, 0, sizeof job);
    job.inputs = calloc((size_t)argc, sizeof *job.inputs);
    job.clip_names = calloc((size_t)argc, sizeof *job.clip_names);
    job.mesh_inputs = calloc((size_t)argc, sizeof *job.mesh_inputs);
    job.track_nodes = calloc((size_t)argc, sizeof *job.track_nodes);
    job.import.track_nodes = job.track_nodes;
    if (!job.inputs || !job.clip_names || !job.mesh_inputs || !job.track_nodes) {
        build_job_fini(&job);
        cli_error("build", "out of memory");
        return 1;
    }
    bool use_default = false, no_root_motion = false;
    int code = 2;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        if (cli_is(a, "--help", "-h")) {
            help(stdout);
            code = 0;
            goto done;
        } else if (cli_is(a, "--default", NULL)) {
            use_default = true;
        } else if (cli_is(a, "--output", "-o")) {
            if (!cli_string_arg(argc, argv, &i, &job.output))
                goto done;
        } else if (cli_is(a, "--rate", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 0.001f, 10000.0f, &job.clip.rate))
                goto done;
        } else if (cli_is(a, "--raw", NULL)) {
            job.clip.raw = true;
        } else if (cli_is(a, "--thorough", NULL)) {
            job.clip.compression_level = 1;
        } else if (cli_is(a, "--tolerance", NULL)) {
            float mm;
            if (!cli_float_arg(argc, argv, &i, 1e-6f, 1e6f, &mm))
                goto done;
            job.clip.tolerance_m = mm * 0.001f;
        } else if (cli_is(a, "--distance", NULL)) {
            float cm;
            if (!cli_float_arg(argc, argv, &i, 1e-6f, 1e6f, &cm))
                goto done;
            job.clip.distance_m = cm * 0.01f;
        } else if (cli_is(a, "--scale", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 1e-9f, 1e9f, &job.import.scale))
                goto done;
        } else if (cli_is(a, "--mesh", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &job.inputs[job.input_count]))
                goto done;
            job.mesh_inputs[job.input_count++] = true;
        } else if (cli_is(a, "--clip", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &job.clip_names[job.clip_name_count++]))
                goto done;
        } else if (cli_is(a, "--bfs", NULL)) {
            job.bfs = true;
        } else if (cli_is(a, "--no-tangents", NULL)) {
            job.import.no_tangents = true;
        } else if (cli_is(a, "--all-nodes", NULL)) {
            job.import.all_nodes = true;
        } else if (cli_is(a, "--root-motion", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &job.clip.root_motion_joint))
                goto done;
        } else if (cli_is(a, "--track", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &job.track_nodes[job.import.track_node_count++]))
                goto done;
        } else if (cli_is(a, "--no-root-motion", NULL)) {
            no_root_motion = true;
        } else if (cli_is(a, "--import-timeout", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 1e-4f, 1e7f, &job.limits.timeout_s))
                goto done;
        } else if (cli_is(a, "--import-memory", NULL)) {
            if (!cli_float_arg(argc, argv, &i, 16.0f, 1e9f, &job.limits.memory_mib))
                goto done;
        } else if (cli_is(a, "--quiet", "-q")) {
            job.quiet = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("build", "unknown option '%s'", a);
            help(stderr);
            goto done;
        } else {
            job.inputs[job.input_count++] = a;
        }
    }
    if (!job.output || (use_default == (job.input_count > 0))) {
        cli_error("build", "%s", !job.output ? "no output: give -o OUT.ossa"
                                 : use_default ? "--default takes no input files"
                                               : "nothing to build: give input files or --default");
        help(stderr);
        goto done;
    }
    if (no_root_motion && job.clip.root_motion_joint) {
        cli_error("build", "--root-motion and --no-root-motion contradict each other");
        goto done;
    }
    job.clip.root_motion = no_root_motion ? OSSA_ROOT_MOTION_KEEP : OSSA_ROOT_MOTION_EXTRACT;
    code = 1;
    if (build_output_check(job.output))
        goto done;
    if (use_default) {
        code = build_default(job.output, job.quiet);
        goto done;
    }
    if (import_all(&job) ||
        tracks_check_nodes(job.imports, job.input_count, job.track_nodes,
                           job.import.track_node_count) ||
        build_skeleton(&job) || check_meshes(&job) || select_clips(&job) || build_clips(&job) ||
        build_meshes(&job) || write_blob(&job))
        goto done;
    if (!job.quiet) {
        const int saved = build_output_report_begin(job.output);
        summary(&job);
        build_output_report_end(saved);
    }
    code = 0;
done:
    build_job_fini(&job);
    return code;
}
