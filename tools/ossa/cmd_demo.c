/* cmd_demo.c - `ossa demo`: the main job. A crowd of the default character,
 * each playing one of its clips at its own start time and speed, a quarter
 * blending two clips; every frame runs sample -> blend -> local->model ->
 * palette for all of them, skins the first --skinned of them, and the
 * per-stage medians are printed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#ifdef OSSA_HAVE_RENDER
#include "crowd_picture.h"
#include "render_common.h"
#define DEFAULT_IMAGE "crowd.png"
#else
#define DEFAULT_IMAGE NULL /* built without rendering: no picture unless asked */
#endif
#include "ossa/ossa.h"
#include "ossa/pipeline.h"

typedef struct demo_options {
    int characters;
    int frames;
    int skinned;
    const char *image; /* NULL: no picture */
} demo_options;

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa demo [--characters N] [--frames N] [--skinned N] [--image PATH]\n"
            "                 [--no-image]\n"
            "\n"
            "Animates a crowd of the embedded default character (96 joints; crouch,\n"
            "walk and run clips): each character plays a clip from its own start time\n"
            "at its own speed, a quarter blend two clips. Every frame runs\n"
            "sample -> blend -> local->model -> palette for every character and skins\n"
            "the body mesh of some of them, then the median time of each stage over the\n"
            "frames is printed, and a picture of the skinned characters at the last frame\n"
            "is drawn headless (OpenGL through EGL, no display needed).\n"
            "  --characters N   crowd size (default 1000)\n"
            "  --frames N       frames to run (default 300)\n"
            "  --skinned N      characters whose mesh is skinned each frame (default 100)\n"
            "  --image PATH     where the picture goes (default crowd.png; none when ossa\n"
            "                   was built without rendering)\n"
            "  --no-image       no picture\n"
            "  -h, --help       this text\n");
}

enum { STAGE_SAMPLE, STAGE_BLEND, STAGE_L2M, STAGE_PALETTE, STAGE_SKIN, STAGE_COUNT };
static const char *const stage_names[STAGE_COUNT] = {"sample", "blend", "local->model",
                                                     "palette", "skin"};

typedef struct crowd {
    int characters, blended, joints;
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    const uint16_t *parents;
    uint16_t *clip_a, *clip_b; /* clip of every character; second clip of blended ones */
    float *start, *speed, *time_a, *time_b, *weight_a, *weight_b;
    ossa_transform *layer_a, *layer_b; /* blended characters' two sampled poses */
    ossa_transform *pose;              /* every character's final local pose */
    ossa_mat34 *model, *palette;
    const ossa_transform *rest;
    const ossa_mesh *mesh; /* the skinned body: its skin joints make the palette */
    int skin_joints, skinned, vertices;
    float *skinned_stream; /* skinned characters x vertices x stride */
} crowd;

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    return x ^ (x >> 16);
}

static float unit(uint32_t seed)
{
    return (float)(hash(seed) >> 8) / 16777216.0f;
}

static void crowd_init(crowd *c, const ossa_default_character *character, int characters,
                       int skinned)
{
    memset(c, 0, sizeof *c);
    c->characters = characters;
    c->blended = characters / 4;
    c->joints = ossa_skeleton_joint_count(character->skeleton);
    c->parents = ossa_skeleton_parents(character->skeleton);
    c->rest = ossa_skeleton_rest_pose(character->skeleton);
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        c->clips[i] = character->clips[i];
    const size_t n = (size_t)characters, b = (size_t)(c->blended ? c->blended : 1);
    const size_t joints = (size_t)c->joints;
    c->clip_a = cli_alloc(sizeof(uint16_t) * n);
    c->clip_b = cli_alloc(sizeof(uint16_t) * b);
    c->start = cli_alloc(sizeof(float) * n);
    c->speed = cli_alloc(sizeof(float) * n);
    c->time_a = cli_alloc(sizeof(float) * n);
    c->time_b = cli_alloc(sizeof(float) * b);
    c->weight_a = cli_alloc(sizeof(float) * b);
    c->weight_b = cli_alloc(sizeof(float) * b);
    c->layer_a = cli_alloc(sizeof(ossa_transform) * b * joints);
    c->layer_b = cli_alloc(sizeof(ossa_transform) * b * joints);
    c->pose = cli_alloc(sizeof(ossa_transform) * n * joints);
    c->model = cli_alloc(sizeof(ossa_mat34) * n * joints);
    c->mesh = character->mesh;
    c->skin_joints = ossa_mesh_skin_joint_count(c->mesh);
    c->palette = cli_alloc(sizeof(ossa_mat34) * n * (size_t)c->skin_joints);
    c->skinned = skinned < characters ? skinned : characters;
    c->vertices = ossa_mesh_vertex_count(c->mesh);
    c->skinned_stream = cli_alloc((size_t)c->skinned * (size_t)c->vertices *
                                  (size_t)ossa_mesh_skinned_stride(c->mesh));
    /* Deterministic variety: characters 0..blended-1 blend two clips. */
    for (int i = 0; i < characters; ++i) {
        uint32_t s = (uint32_t)i * 4u;
        c->clip_a[i] = (uint16_t)(hash(s) % OSSA_DEFAULT_CLIP_COUNT);
        c->start[i] = unit(s + 1) * 10.0f;
        c->speed[i] = 0.8f + 0.45f * unit(s + 2);
        if (i < c->blended)
            c->clip_b[i] = (uint16_t)((c->clip_a[i] + 1 + hash(s + 3) % 2) % OSSA_DEFAULT_CLIP_COUNT);
    }
}

static void crowd_fini(crowd *c)
{
    void *blocks[] = {c->clip_a, c->clip_b, c->start, c->speed, c->time_a, c->time_b,
                      c->weight_a, c->weight_b, c->layer_a, c->layer_b, c->pose, c->model,
                      c->palette, c->skinned_stream};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; ++i)
        cli_free(blocks[i]);
}

/* One frame at world time t; stage times in ns into ns[]. */
static ossa_result crowd_frame(crowd *c, float t, double ns[STAGE_COUNT])
{
    const int n = c->characters, b = c->blended, joints = c->joints;
    for (int i = 0; i < n; ++i)
        c->time_a[i] = c->start[i] + c->speed[i] * t;
    for (int i = 0; i < b; ++i) {
        c->time_b[i] = c->time_a[i];
        float w = 0.5f + 0.5f * sinf(0.7f * t + (float)i);
        c->weight_a[i] = 1.0f - w;
        c->weight_b[i] = w;
    }
    ossa_result r = OSSA_OK;
    uint64_t t0 = cli_now_ns();
    if (b > 0) {
        ossa_sampling_job sa = {0};
        sa.clips = c->clips;
        sa.clip_count = OSSA_DEFAULT_CLIP_COUNT;
        sa.clip_index = c->clip_a;
        sa.clip_index_count = b;
        sa.time_s = c->time_a;
        sa.time_count = b;
        sa.output = c->layer_a;
        sa.output_count = b * joints;
        ossa_sampling_job sb = sa;
        sb.clip_index = c->clip_b;
        sb.time_s = c->time_b;
        sb.output = c->layer_b;
        if ((r = ossa_sampling_job_run(&sa)) || (r = ossa_sampling_job_run(&sb)))
            return r;
    }
    if (n > b) {
        ossa_sampling_job s = {0};
        s.clips = c->clips;
        s.clip_count = OSSA_DEFAULT_CLIP_COUNT;
        s.clip_index = c->clip_a + b;
        s.clip_index_count = n - b;
        s.time_s = c->time_a + b;
        s.time_count = n - b;
        s.output = c->pose + (size_t)b * (size_t)joints;
        s.output_count = (n - b) * joints;
        if ((r = ossa_sampling_job_run(&s)))
            return r;
    }
    uint64_t t1 = cli_now_ns();
    if (b > 0) {
        ossa_blend_layer layers[2] = {{0}, {0}};
        layers[0].pose = c->layer_a;
        layers[0].pose_count = b * joints;
        layers[0].weights = c->weight_a;
        layers[0].weight_count = b;
        layers[1] = layers[0];
        layers[1].pose = c->layer_b;
        layers[1].weights = c->weight_b;
        ossa_blending_job bl = {0};
        bl.layers = layers;
        bl.layer_count = 2;
        bl.rest_pose = c->rest;
        bl.joint_count = joints;
        bl.instance_count = b;
        bl.output = c->pose;
        bl.output_count = b * joints;
        if ((r = ossa_blending_job_run(&bl)))
            return r;
    }
    uint64_t t2 = cli_now_ns();
    ossa_local_to_model_job l2m = {0};
    l2m.parents = c->parents;
    l2m.joint_count = joints;
    l2m.local = c->pose;
    l2m.local_count = n * joints;
    l2m.instance_count = n;
    l2m.model = c->model;
    l2m.model_count = n * joints;
    if ((r = ossa_local_to_model_job_run(&l2m)))
        return r;
    uint64_t t3 = cli_now_ns();
    ossa_palette_job pal = {0};
    pal.model = c->model;
    pal.model_count = n * joints;
    pal.joint_count = joints;
    pal.skin_joint = ossa_mesh_skin_joints(c->mesh);
    pal.inverse_bind = ossa_mesh_inverse_binds(c->mesh);
    pal.skin_joint_count = c->skin_joints;
    pal.instance_count = n;
    pal.palette = c->palette;
    pal.palette_count = n * c->skin_joints;
    if ((r = ossa_palette_job_run(&pal)))
        return r;
    uint64_t t4 = cli_now_ns();
    const size_t stream_bytes = (size_t)c->vertices * (size_t)ossa_mesh_skinned_stride(c->mesh);
    for (int i = 0; i < c->skinned; ++i) {
        ossa_skinning_job skin = {0};
        skin.mesh = c->mesh;
        skin.palette = c->palette + (size_t)i * (size_t)c->skin_joints;
        skin.palette_count = c->skin_joints;
        skin.output = (char *)c->skinned_stream + (size_t)i * stream_bytes;
        skin.output_bytes = stream_bytes;
        if ((r = ossa_skinning_job_run(&skin)))
            return r;
    }
    uint64_t t5 = cli_now_ns();
    ns[STAGE_SAMPLE] = (double)(t1 - t0);
    ns[STAGE_BLEND] = (double)(t2 - t1);
    ns[STAGE_L2M] = (double)(t3 - t2);
    ns[STAGE_PALETTE] = (double)(t4 - t3);
    ns[STAGE_SKIN] = (double)(t5 - t4);
    return OSSA_OK;
}

/* The last frame's skinned characters (or, with none skinned, up to 100
 * characters' palettes), drawn headless into a PNG. */
static int picture(const crowd *c, const char *path)
{
#ifdef OSSA_HAVE_RENDER
    render_quiet_driver_logs();
    crowd_picture p = {0};
    p.mesh = c->mesh;
    p.characters = c->skinned > 0 ? c->skinned : (c->characters < 100 ? c->characters : 100);
    p.palettes = c->palette;
    p.skinned = c->skinned > 0 ? c->skinned_stream : NULL;
    p.path = path;
    char err[512];
    if (!crowd_picture_write(&p, err, sizeof err)) {
        cli_error("demo", "no picture: %s (--no-image skips it)", err);
        return 1;
    }
    printf("\npicture of the %d %s characters at the last frame: %s\n", p.characters,
           c->skinned > 0 ? "skinned" : "first", path);
    return 0;
#else
    (void)c;
    cli_error("demo", "no picture for %s: this ossa was built without rendering "
                      "(OSSA_BUILD_RENDER; --no-image skips it)", path);
    return 1;
#endif
}

int cmd_demo(int argc, char **argv)
{
    demo_options o = {1000, 300, 100, DEFAULT_IMAGE};
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--characters", "-n")) {
            if (!cli_int_arg(argc, argv, &i, 1, 1000000, &o.characters))
                return 2;
        } else if (cli_is(argv[i], "--frames", "-f")) {
            if (!cli_int_arg(argc, argv, &i, 1, 1000000, &o.frames))
                return 2;
        } else if (cli_is(argv[i], "--skinned", "-s")) {
            if (!cli_int_arg(argc, argv, &i, 0, 1000000, &o.skinned))
                return 2;
        } else if (cli_is(argv[i], "--image", NULL)) {
            if (!cli_string_arg(argc, argv, &i, &o.image))
                return 2;
        } else if (cli_is(argv[i], "--no-image", NULL)) {
            o.image = NULL;
        } else {
            cli_error("demo", "unexpected argument '%s'", argv[i]);
            help(stderr);
            return 2;
        }
    }
    ossa_default_character character;
    ossa_error error;
    if (ossa_default_character_build(&character, NULL, &error) != OSSA_OK) {
        cli_error("demo", "default character: %s", error.message);
        return 1;
    }
    crowd c;
    crowd_init(&c, &character, o.characters, o.skinned);
    int code = 0;
    printf("ossa demo: %d characters x %d joints (default character), %d blending two clips, "
           "%d skinned (%d vertices, %s path), %d frames\n",
           c.characters, c.joints, c.blended, c.skinned, c.vertices,
           ossa_skinning_path_name(ossa_skinning_best_path()), o.frames);
    double *samples[STAGE_COUNT + 1];
    for (int s = 0; s <= STAGE_COUNT; ++s)
        samples[s] = cli_alloc(sizeof(double) * (size_t)o.frames);
    cli_progress progress;
    cli_progress_begin(&progress, "frames", o.frames);
    for (int f = 0; f < o.frames && code == 0; ++f) {
        double ns[STAGE_COUNT];
        ossa_result r = crowd_frame(&c, (float)f / 30.0f, ns);
        if (r != OSSA_OK) {
            cli_error("demo", "frame %d: %s", f, ossa_result_str(r));
            code = 1;
            break;
        }
        double total = 0;
        for (int s = 0; s < STAGE_COUNT; ++s) {
            samples[s][f] = ns[s];
            total += ns[s];
        }
        samples[STAGE_COUNT][f] = total;
        cli_progress_step(&progress, f + 1);
    }
    cli_progress_end(&progress);
    if (code == 0) {
        const double joints_total = (double)c.characters * c.joints;
        printf("\n%-14s %12s %14s\n", "stage", "median ms", "ns per joint");
        for (int s = 0; s <= STAGE_COUNT; ++s) {
            double med = cli_median(samples[s], (size_t)o.frames);
            if (s == STAGE_SKIN)
                printf("%-14s %12.3f %14.2f ns per vertex\n", stage_names[s], med * 1e-6,
                       c.skinned ? med / ((double)c.skinned * c.vertices) : 0.0);
            else
                printf("%-14s %12.3f %14.2f\n", s < STAGE_COUNT ? stage_names[s] : "frame total",
                       med * 1e-6, med / joints_total);
        }
        printf("\n(medians over %d frames, one thread; the blend row covers the %d blended "
               "characters,\n ns per joint divides by all %d x %d joints; the skin row "
               "covers the %d skinned\n characters' %d vertices each)\n",
               o.frames, c.blended, c.characters, c.joints, c.skinned, c.vertices);
    }
    if (code == 0 && o.image)
        code = picture(&c, o.image);
    for (int s = 0; s <= STAGE_COUNT; ++s)
        cli_free(samples[s]);
    crowd_fini(&c);
    ossa_default_character_free(&character, NULL);
    return code;
}
