/* cmd_demo.c - `ossa demo`: the main job. A crowd on the crowd module (see
 * demo_world.h: culling, update rates by distance, the nearest skinned, dust
 * at footfalls) for some frames, then a table of each stage's median time,
 * per joint, per vertex, and the frame per character. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "demo_world.h"
#ifdef OSSA_HAVE_RENDER
#include "crowd_picture.h"
#include "render_common.h"
#define DEFAULT_IMAGE "crowd.png"
#else
#define DEFAULT_IMAGE NULL /* built without rendering: no picture unless asked */
#endif

typedef struct demo_args {
    demo_options world;
    int frames;
    const char *model;
    const char *feet;    /* --feet LEFT,RIGHT, or NULL: found by name */
    const char *image;   /* NULL: no picture */
    bool image_asked;    /* --image given: nothing to draw is an error */
} demo_args;

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa demo [--characters N] [--frames N] [--skinned N] [--threads N]\n"
            "                 [--model FILE.ossa] [--skin-format F] [--image PATH | --no-image]\n"
            "\n"
            "Animates a crowd on a grid over gentle hills, seen by a camera that pans\n"
            "from side to side. IK plants every foot on the hills (lowering the pelvis\n"
            "when a foot needs it) and turns the heads toward a point circling over\n"
            "the crowd (skeletons with the default character's joint names).\n"
            "Each frame the characters outside the camera's view are culled (they cost\n"
            "nothing), the others update every frame, every 2nd or every 4th frame by\n"
            "distance (staggered), a quarter blend two clips, the nearest visible ones\n"
            "are skinned, and dust rises at their footfalls. Prints the median time of\n"
            "each stage - sample, blend, local->model, IK, palette, skin, particles - per\n"
            "joint and per vertex, and the whole frame per character - and draws the\n"
            "skinned characters of the last frame headless into a picture (OpenGL\n"
            "through EGL, no display needed).\n"
            "  --characters N   crowd size (default 1000)\n"
            "  --frames N       frames to run (default 300, 10 s at 30 Hz)\n"
            "  --skinned N      nearest visible characters skinned (default 100)\n"
            "  --threads N, -j  threads (default 1)\n"
            "  --model FILE     a .ossa blob with a skeleton and clips (and a mesh:\n"
            "                   without one nothing is skinned) instead of the embedded\n"
            "                   default character\n"
            "  --skin-format F  skinned vertices: packed (default; float3 position,\n"
            "                   10:10:10:2 normal and tangent, 20 bytes) or float4 (48)\n"
            "  --feet L,R       the foot joints dust rises from (default: found by name,\n"
            "                   e.g. foot_l / foot_r, LeftFoot / RightFoot)\n"
            "  --image PATH     where the picture goes (default crowd.png; none when ossa\n"
            "                   was built without rendering)\n"
            "  --no-image       no picture\n"
            "  -h, --help       this text\n");
}

static int parse(int argc, char **argv, demo_args *a)
{
    for (int i = 1; i < argc; ++i) {
        const char *s = argv[i];
        if (cli_is(s, "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(s, "--characters", "-n")) {
            if (!cli_int_arg(argc, argv, &i, 1, 1000000, &a->world.characters))
                return 2;
        } else if (cli_is(s, "--frames", "-f")) {
            if (!cli_int_arg(argc, argv, &i, 1, 1000000, &a->frames))
                return 2;
        } else if (cli_is(s, "--skinned", "-s")) {
            if (!cli_int_arg(argc, argv, &i, 0, 1000000, &a->world.skinned))
                return 2;
        } else if (cli_is(s, "--threads", "-j")) {
            if (!cli_int_arg(argc, argv, &i, 1, RUNNER_MAX_THREADS, &a->world.threads))
                return 2;
        } else if (cli_is(s, "--model", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &a->model))
                return 2;
        } else if (cli_is(s, "--skin-format", NULL)) {
            if (!cli_skin_format_arg(argc, argv, &i, "demo", &a->world.skin_format))
                return 2;
        } else if (cli_is(s, "--feet", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &a->feet))
                return 2;
        } else if (cli_is(s, "--image", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &a->image))
                return 2;
            a->image_asked = true;
        } else if (cli_is(s, "--no-image", NULL)) {
            a->image = NULL;
            a->image_asked = false;
        } else {
            cli_error("demo", "unexpected argument '%s'", s);
            help(stderr);
            return 2;
        }
    }
    return -1;
}

/* What the table shows, one value per frame. */
enum {
    ROW_LOGIC,
    ROW_SAMPLE,
    ROW_BLEND,
    ROW_L2M,
    ROW_IK,
    ROW_POSE_OUT,
    ROW_PALETTE,
    ROW_SKIN,
    ROW_PARTICLES,
    ROW_FRAME,
    ROWS,
    /* counts */
    COUNT_VISIBLE = ROWS,
    COUNT_UPDATED,
    COUNT_PARTICLES,
    COUNT_FOOTFALLS,
    COUNT_UPDATES_PER_FRAME,
    SERIES
};

static void record(const demo_world *w, double frame_ns, double **series, int f)
{
    const crowd_runner *r = &w->runner;
    series[ROW_LOGIC][f] = w->logic_ns;
    series[ROW_SAMPLE][f] = crowd_runner_stage_ns(r, RUN_SAMPLE_A) +
                            crowd_runner_stage_ns(r, RUN_SAMPLE_B);
    series[ROW_BLEND][f] = crowd_runner_stage_ns(r, RUN_BLEND);
    series[ROW_L2M][f] = crowd_runner_stage_ns(r, RUN_LOCAL_TO_MODEL);
    series[ROW_IK][f] = crowd_runner_stage_ns(r, RUN_IK);
    series[ROW_POSE_OUT][f] = crowd_runner_stage_ns(r, RUN_POSE_OUT);
    series[ROW_PALETTE][f] = crowd_runner_stage_ns(r, RUN_PALETTE);
    series[ROW_SKIN][f] = crowd_runner_stage_ns(r, RUN_SKIN);
    series[ROW_PARTICLES][f] = w->particles_ns;
    series[ROW_FRAME][f] = frame_ns;
    series[COUNT_VISIBLE][f] = w->visible;
    series[COUNT_UPDATED][f] = w->stats.updated;
    series[COUNT_PARTICLES][f] = ossa_particles_count(w->dust);
    int footfalls;
    ossa_crowd_footfalls(w->crowd, &footfalls);
    series[COUNT_FOOTFALLS][f] = footfalls;
    series[COUNT_UPDATES_PER_FRAME][f] = w->stats.updates_per_frame;
}

static void print_table(const demo_world *w, const demo_args *a, double **series)
{
    double m[SERIES];
    for (int k = 0; k < SERIES; ++k)
        m[k] = cli_median(series[k], (size_t)a->frames);
    const int n = a->world.characters, joints = w->character->joints;
    const double updated_joints = m[COUNT_UPDATED] * joints;
    const int vertices = w->options.skinned ? ossa_mesh_vertex_count(w->character->mesh) : 0;
    const int skins = w->options.skinned ? ossa_mesh_skin_joint_count(w->character->mesh) : 0;
    const double skinned = w->skinned;
    static const char *const names[ROWS] = {
        "cull + LOD (game side)", "sample (2 clips)", "blend",   "local->model",
        "IK (feet, look-at)",     "pose out + footfalls", "palette", "skin",
        "particles",              "frame total"};
    printf("\nper frame (medians): %.0f of %d characters visible, %.0f culled; %.0f updated, "
           "%.1f on average\n(LOD); %.0f footfalls, %.0f dust particles alive. The last frame: "
           "%d characters updated\nevery frame (%d of them skinned), %d every 2nd frame, %d "
           "every 4th.\n",
           m[COUNT_VISIBLE], n, n - m[COUNT_VISIBLE], m[COUNT_UPDATED],
           m[COUNT_UPDATES_PER_FRAME], m[COUNT_FOOTFALLS], m[COUNT_PARTICLES],
           w->stats.interval_count[0], w->stats.skinned, w->stats.interval_count[1],
           w->stats.interval_count[2]);
    printf("\n%-24s %10s  %s\n", "stage", "median ms", "per element");
    for (int k = 0; k < ROWS; ++k) {
        char per[64] = "";
        if (k == ROW_IK && m[COUNT_UPDATED] > 0)
            snprintf(per, sizeof per, "%.1f ns/character (legs, %d-joint look, l->m)",
                     m[k] / m[COUNT_UPDATED], w->look_joints);
        else if (k >= ROW_SAMPLE && k <= ROW_POSE_OUT && updated_joints > 0)
            snprintf(per, sizeof per, "%.2f ns/joint", m[k] / updated_joints);
        else if (k == ROW_PALETTE && skinned > 0)
            snprintf(per, sizeof per, "%.2f ns/skin joint", m[k] / (skinned * skins));
        else if (k == ROW_SKIN && skinned > 0)
            snprintf(per, sizeof per, "%.2f ns/vertex", m[k] / (skinned * vertices));
        else if (k == ROW_PARTICLES && m[COUNT_PARTICLES] > 0)
            snprintf(per, sizeof per, "%.2f ns/particle", m[k] / m[COUNT_PARTICLES]);
        else if (k == ROW_FRAME && m[COUNT_UPDATED] > 0)
            snprintf(per, sizeof per, "%.3f us/updated character", m[k] * 1e-3 / m[COUNT_UPDATED]);
        if ((k == ROW_PALETTE || k == ROW_SKIN) && skinned == 0)
            continue; /* no mesh, no skin rows */
        if (k == ROW_IK && !w->ik)
            continue; /* a skeleton without the IK joints */
        printf("%-24s %10.3f  %s\n", names[k], m[k] * 1e-6, per);
    }
    printf("(%d frames; ns/joint divides by the characters updated x %d joints", a->frames,
           joints);
    if (skinned > 0)
        printf(", ns/vertex by %.0f skinned x %d vertices", skinned, vertices);
    printf(";\n");
    if (a->world.threads > 1)
        printf(" with %d threads the rows sample .. skin are CPU time summed over the threads,\n"
               " the frame total is wall time;\n", a->world.threads);
    printf(" the frame total includes the game side and the timing itself, a few clock reads "
           "per batch,\n and us/updated character divides it by the %.0f characters updated, "
           "skinning included)\n", m[COUNT_UPDATED]);
}

/* The last frame's skinned characters, drawn headless into a PNG. Their
 * vertices are already in world space: identity placements. With none
 * skinned there is nothing to draw: a note, or an error when --image asked. */
static int picture(const demo_frame_view *v, const char *path, bool asked)
{
    if (v->skinned == 0) {
        if (asked) {
            cli_error("demo", "no picture for %s: no character was skinned in the last frame "
                              "(--skinned N, and a model with a mesh)", path);
            return 1;
        }
        printf("\nno picture: no character was skinned in the last frame\n");
        return 0;
    }
#ifdef OSSA_HAVE_RENDER
    render_quiet_driver_logs();
    ossa_mat34 *identity = cli_alloc(sizeof(ossa_mat34) * (size_t)v->skinned);
    for (int i = 0; i < v->skinned; ++i)
        identity[i] = ossa_mat34_identity();
    crowd_picture p = {0};
    p.mesh = v->mesh;
    p.characters = v->skinned;
    p.skinned = v->streams;
    p.skinned_stride = v->stream_stride;
    p.format = v->format;
    p.placements = identity;
    if (v->ground) { /* the hills the feet are planted on */
        p.ground_heights = v->ground->heights;
        p.ground_columns = v->ground->columns;
        p.ground_rows = v->ground->rows;
        p.ground_origin_x = v->ground->origin_x;
        p.ground_origin_z = v->ground->origin_z;
        p.ground_cell = v->ground->cell_size;
    }
    p.path = path;
    char err[512];
    const bool ok = crowd_picture_write(&p, err, sizeof err);
    cli_free(identity);
    if (!ok) {
        cli_error("demo", "no picture: %s (--no-image skips it)", err);
        return 1;
    }
    char where[4096];
    printf("\npicture of the %d skinned characters at the last frame: %s\n", v->skinned,
           cli_absolute_path(path, where, sizeof where));
    return 0;
#else
    cli_error("demo", "no picture for %s: this ossa was built without rendering "
                      "(OSSA_BUILD_RENDER; --no-image skips it)", path);
    return 1;
#endif
}

int cmd_demo(int argc, char **argv)
{
    demo_args a;
    memset(&a, 0, sizeof a);
    a.world.characters = 1000;
    a.world.skinned = 100;
    a.world.threads = 1;
    a.world.skin_format = OSSA_SKIN_FORMAT_PACKED;
    a.frames = 300;
    a.image = DEFAULT_IMAGE;
    int code = parse(argc, argv, &a);
    if (code >= 0)
        return code;
    scene_character character;
    if (!(a.model ? scene_character_load_file(&character, a.model, "demo")
                  : scene_character_load_default(&character, "demo")))
        return 1;
    if (a.feet) {
        char left[128];
        const char *comma = strchr(a.feet, ',');
        const size_t len = comma ? (size_t)(comma - a.feet) : 0;
        if (!comma || len >= sizeof left) {
            cli_error("demo", "--feet %s: expected LEFT,RIGHT (two joint names)", a.feet);
            scene_character_free(&character);
            return 2;
        }
        memcpy(left, a.feet, len);
        left[len] = '\0';
        if (!scene_character_set_feet(&character, left, comma + 1, "demo")) {
            scene_character_free(&character);
            return 2;
        }
    }
    if (!character.feet[0])
        printf("(no foot joints found by name: no dust; name them with --feet L,R)\n");
    demo_world w;
    if (!demo_world_init(&w, &character, &a.world)) {
        scene_character_free(&character);
        return 1;
    }
    printf("ossa demo: %d x %s;\n%d skinned (%s skinning, %s vertices), lanes of %d, %d "
           "thread%s, %d frames at 30 Hz\n",
           a.world.characters, character.description, w.options.skinned,
           ossa_simd_path_name(ossa_simd_best_path()), cli_skin_format_name(a.world.skin_format),
           ossa_crowd_width(w.crowd),
           a.world.threads, a.world.threads > 1 ? "s" : "", a.frames);
    if (!character.mesh && a.world.skinned > 0)
        printf("(the blob has no mesh: nothing is skinned)\n");
    double *series[SERIES];
    for (int k = 0; k < SERIES; ++k)
        series[k] = cli_alloc(sizeof(double) * (size_t)a.frames);
    cli_progress progress;
    cli_progress_begin(&progress, "frames", a.frames);
    for (int f = 0; f < a.frames; ++f) {
        const uint64_t t0 = cli_now_ns();
        const ossa_result r = demo_world_step(&w);
        const double frame_ns = (double)(cli_now_ns() - t0);
        if (r != OSSA_OK) {
            cli_error("demo", "frame %d: %s", f, ossa_result_str(r));
            code = 1;
            break;
        }
        record(&w, frame_ns, series, f);
        cli_progress_step(&progress, f + 1);
    }
    cli_progress_end(&progress);
    if (code < 0) {
        code = 0;
        print_table(&w, &a, series);
        /* The last frame, as plain arrays (skinned vertices in world space,
         * placements, dust, camera): what a renderer draws. */
        const demo_frame_view view = demo_world_view(&w);
        if (a.image)
            code = picture(&view, a.image, a.image_asked);
    }
    for (int k = 0; k < SERIES; ++k)
        cli_free(series[k]);
    demo_world_fini(&w);
    scene_character_free(&character);
    return code;
}
