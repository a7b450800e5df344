/* play.c - the whole frame for a few characters with the runtime alone
 * (libossa: the C library and libm, nothing else). It loads a blob, then
 * runs the five stages, each one job over every character: sample two clips,
 * blend them, walk the hierarchy (local -> model, each character placed in
 * the world by a root matrix), build skinning palettes, skin the mesh. It
 * prints where one joint and one skinned vertex of each character are.
 *
 *   play FILE.ossa [--characters N] [--time T] [--clips A B] [--joint NAME] [--vertex K]
 *
 * Character i starts both clips i x 0.25 s in and plays them for T seconds
 * (default 0.5); it blends clip B over clip A with weight i / (N - 1)
 * (character 0 plays A alone, the last one B alone); it stands 1.5 m (1.5
 * units when the blob does not say its units) to the right of the one
 * before, turned 0.5 rad more about +y. Defaults: 4
 * characters, the blob's first two clips, its deepest joint, source vertex 0.
 * Character 0 stands at the origin unturned, so its numbers are the ones
 * `ossa dump FILE.ossa --clip A --time T --json` prints for the joint and for
 * vertex K of the first mesh.
 *
 * Build it against an installed ossa (docs/linking.md):
 *   CMake:       find_package(ossa REQUIRED)
 *                target_link_libraries(play PRIVATE ossa::runtime)
 *   pkg-config:  cc -std=c11 play.c $(pkg-config --cflags --libs ossa) -o play
 * A blob to play: `ossa build --default -o hero.ossa` (the built-in character,
 * clips crouch, walk, run), or `ossa build model.fbx walk.fbx -o model.ossa`. */
#include <ossa/ossa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What to play, from the command line. */
typedef struct options {
    const char *path;
    int characters;
    float time_s;
    const char *clip_a, *clip_b; /* NULL: the blob's first two clips */
    const char *joint;           /* NULL: the deepest joint */
    int vertex;                  /* in the source's vertex order */
} options;

/* Memory for ossa: 64-byte aligned, a cache line. A blob needs 16 at least
 * (OSSA_BLOB_MIN_ALIGNMENT; 64 is best, OSSA_BLOB_SECTION_ALIGNMENT), and so
 * do the palettes skinning reads and the vertices it writes. aligned_alloc
 * wants a size that is a multiple of the alignment. Free with free(). */
static void *alloc64(size_t bytes)
{
    return aligned_alloc(64, bytes == 0 ? 64 : (bytes + 63) / 64 * 64);
}

/* Job results are codes; ossa_result_str says what they mean. */
static int failed(ossa_result r, const char *what)
{
    if (r != OSSA_OK)
        fprintf(stderr, "play: %s: %s (OSSA_%s)\n", what, ossa_result_str(r), ossa_result_name(r));
    return r != OSSA_OK;
}

static int usage(const char *message)
{
    fprintf(stderr,
            "play: %s\nusage: play FILE.ossa [--characters N] [--time T] [--clips A B]\n"
            "                 [--joint NAME] [--vertex K]\n",
            message);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.characters = 4, .time_s = 0.5f};
    for (int i = 1; i < argc; ++i) {
        const int more = argc - i - 1;
        if (strcmp(argv[i], "--characters") == 0 && more >= 1)
            o->characters = atoi(argv[++i]);
        else if (strcmp(argv[i], "--time") == 0 && more >= 1)
            o->time_s = strtof(argv[++i], NULL);
        else if (strcmp(argv[i], "--clips") == 0 && more >= 2) {
            o->clip_a = argv[++i];
            o->clip_b = argv[++i];
        } else if (strcmp(argv[i], "--joint") == 0 && more >= 1)
            o->joint = argv[++i];
        else if (strcmp(argv[i], "--vertex") == 0 && more >= 1)
            o->vertex = atoi(argv[++i]);
        else if (argv[i][0] == '-' || o->path)
            return usage("unexpected argument or missing value");
        else
            o->path = argv[i];
    }
    if (!o->path)
        return usage("no file given");
    if (o->characters < 1 || o->characters > 100000)
        return usage("--characters: expected 1 to 100000");
    return 0;
}

/* A clip by name, or the blob's index-th when name is NULL. */
static const ossa_clip *find_clip(const ossa_blob *blob, const char *path, const char *name,
                                  int index)
{
    if (name)
        index = ossa_blob_find_clip(blob, name);
    else if (index >= blob->clip_count)
        index = 0; /* a blob with one clip blends it with itself */
    const ossa_clip *clip = ossa_blob_clip(blob, index);
    if (!clip)
        fprintf(stderr, "play: %s: no clip named '%s'\n", path, name);
    return clip;
}

/* Every per-frame buffer: the caller's memory, allocated once. Character i's
 * joint j is element i * joints + j of a pose; its skin joint k is element
 * i * skins + k of the palette. */
typedef struct frame {
    int characters, joints, skins, vertices;
    size_t stride; /* bytes per skinned vertex: 32, or 48 with tangents */
    float *time_s, *weight_a, *weight_b;
    ossa_mat34 *root;
    ossa_transform *pose_a, *pose_b, *pose;
    ossa_mat34 *model, *palette;
    unsigned char *skinned; /* characters x vertices x stride bytes */
} frame;

static int frame_init(frame *f, const ossa_skeleton *skeleton, const ossa_mesh *mesh, int n)
{
    f->characters = n;
    f->joints = ossa_skeleton_joint_count(skeleton);
    f->skins = ossa_mesh_skin_joint_count(mesh);
    f->vertices = ossa_mesh_vertex_count(mesh);
    f->stride = (size_t)ossa_mesh_skinned_stride(mesh);
    const size_t poses = (size_t)n * (size_t)f->joints;
    f->time_s = alloc64(sizeof(float) * (size_t)n);
    f->weight_a = alloc64(sizeof(float) * (size_t)n);
    f->weight_b = alloc64(sizeof(float) * (size_t)n);
    f->root = alloc64(sizeof(ossa_mat34) * (size_t)n);
    f->pose_a = alloc64(sizeof(ossa_transform) * poses);
    f->pose_b = alloc64(sizeof(ossa_transform) * poses);
    f->pose = alloc64(sizeof(ossa_transform) * poses);
    f->model = alloc64(sizeof(ossa_mat34) * poses);
    f->palette = alloc64(sizeof(ossa_mat34) * (size_t)n * (size_t)f->skins);
    f->skinned = alloc64(f->stride * (size_t)f->vertices * (size_t)n);
    if (f->time_s && f->weight_a && f->weight_b && f->root && f->pose_a && f->pose_b &&
        f->pose && f->model && f->palette && f->skinned)
        return 0;
    fprintf(stderr, "play: out of memory\n");
    return 1;
}

static void frame_fini(frame *f)
{
    free(f->time_s);
    free(f->weight_a);
    free(f->weight_b);
    free(f->root);
    free(f->pose_a);
    free(f->pose_b);
    free(f->pose);
    free(f->model);
    free(f->palette);
    free(f->skinned);
}

/* Where each character stands and what it plays (see the top of the file). */
static void place_characters(frame *f, const options *o, float metres_per_unit)
{
    const float spacing = 1.5f / (metres_per_unit > 0.0f ? metres_per_unit : 1.0f);
    for (int i = 0; i < f->characters; ++i) {
        f->time_s[i] = (float)i * 0.25f + o->time_s;
        f->weight_b[i] = f->characters > 1 ? (float)i / (float)(f->characters - 1) : 0.0f;
        f->weight_a[i] = 1.0f - f->weight_b[i];
        ossa_transform place = ossa_transform_identity();
        place.translation.x = (float)i * spacing;
        const ossa_float3 up = {0.0f, 1.0f, 0.0f};
        place.rotation = ossa_quat_from_axis_angle(up, 0.5f * (float)i);
        f->root[i] = ossa_mat34_from_transform(place);
    }
}

/* The five stages for every character. Each job takes a character range
 * (character_begin, character_end; 0, 0 is all): threads may run disjoint
 * ranges of the same job. Zeroed fields are valid defaults. */
static int run_frame(frame *f, const ossa_skeleton *skeleton, const ossa_mesh *mesh,
                     const ossa_clip *clip_a, const ossa_clip *clip_b)
{
    const int n = f->characters, poses = n * f->joints;
    /* 1 sample: each clip at each character's playhead (looping). */
    ossa_sampling_job sample = {0};
    sample.clips = &clip_a;
    sample.clip_count = 1;
    sample.time_s = f->time_s;
    sample.character_count = n;
    /* Compressed clips store what differs from the rest pose; raw ones ignore it. */
    sample.rest_pose = ossa_skeleton_rest_pose(skeleton);
    sample.rest_pose_count = f->joints;
    sample.output = f->pose_a;
    sample.output_count = poses;
    if (failed(ossa_sampling_job_run(&sample), "sampling clip A"))
        return 1;
    sample.clips = &clip_b;
    sample.output = f->pose_b;
    if (failed(ossa_sampling_job_run(&sample), "sampling clip B"))
        return 1;

    /* 2 blend: two layers, a weight per character. */
    ossa_blend_layer layers[2] = {{0}, {0}};
    layers[0].pose = f->pose_a;
    layers[0].pose_count = poses;
    layers[0].weights = f->weight_a;
    layers[0].weight_count = n;
    layers[1] = layers[0];
    layers[1].pose = f->pose_b;
    layers[1].weights = f->weight_b;
    ossa_blending_job blend = {0};
    blend.layers = layers;
    blend.layer_count = 2;
    blend.rest_pose = ossa_skeleton_rest_pose(skeleton);
    blend.joint_count = f->joints;
    blend.character_count = n;
    blend.output = f->pose;
    blend.output_count = poses;
    if (failed(ossa_blending_job_run(&blend), "blending"))
        return 1;

    /* 3 local -> model: model[j] = model[parent[j]] * local[j], each
     * character's root matrix in front, so "model" here is world space. */
    ossa_local_to_model_job l2m = {0};
    l2m.parents = ossa_skeleton_parents(skeleton);
    l2m.joint_count = f->joints;
    l2m.local = f->pose;
    l2m.local_count = poses;
    l2m.character_count = n;
    l2m.root = f->root;
    l2m.root_count = n;
    l2m.model = f->model;
    l2m.model_count = poses;
    if (failed(ossa_local_to_model_job_run(&l2m), "local to model"))
        return 1;

    /* 4 palette: model[skin_joint[k]] x inverse_bind[k]. A mesh's skin
     * joints may be a subset of the skeleton, in their own order. */
    ossa_palette_job palette = {0};
    palette.model = f->model;
    palette.model_count = poses;
    palette.joint_count = f->joints;
    palette.skin_joint = ossa_mesh_skin_joints(mesh);
    palette.inverse_bind = ossa_mesh_inverse_binds(mesh);
    palette.skin_joint_count = f->skins;
    palette.character_count = n;
    palette.palette = f->palette;
    palette.palette_count = n * f->skins;
    if (failed(ossa_palette_job_run(&palette), "palettes"))
        return 1;

    /* 5 skin: one job per character (a mesh's vertices, one palette). The
     * palette and the output must be 16-byte aligned; the output is float4
     * position, normal (and tangent) per vertex, stride bytes apart. */
    const size_t bytes = f->stride * (size_t)f->vertices;
    for (int i = 0; i < n; ++i) {
        ossa_skinning_job skin = {0};
        skin.mesh = mesh;
        skin.palette = f->palette + (size_t)i * (size_t)f->skins;
        skin.palette_count = f->skins;
        skin.output = f->skinned + (size_t)i * bytes;
        skin.output_bytes = bytes;
        if (failed(ossa_skinning_job_run(&skin), "skinning"))
            return 1;
    }
    return 0;
}

/* The runtime vertex holding source vertex `source`, or -1. The mesh stores
 * vertices grouped by influence count, not in the source file's order;
 * ossa_mesh_indices refers to that runtime order, so a renderer draws the
 * skinned vertices with those indices as they are. Only to compare with the
 * source (or with `ossa dump`, which prints source order) does one map back,
 * through ossa_mesh_source_vertices (cold data: runtime -> source). */
static int runtime_vertex(const ossa_mesh *mesh, int source)
{
    const uint32_t *map = ossa_mesh_source_vertices(mesh);
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v)
        if (source >= 0 && map[v] == (uint32_t)source)
            return v;
    return -1;
}

static void print_frame(const frame *f, int joint, int vertex)
{
    for (int i = 0; i < f->characters; ++i) {
        /* A 3x4 matrix, row-major: the translation is the last column. */
        const ossa_mat34 *m = &f->model[(size_t)i * (size_t)f->joints + (size_t)joint];
        const float *p = (const float *)(const void *)(f->skinned +
                                                       ((size_t)i * (size_t)f->vertices +
                                                        (size_t)vertex) * f->stride);
        printf("character %d: weight %.3f, joint %.6f %.6f %.6f, vertex %.6f %.6f %.6f\n", i,
               (double)f->weight_b[i], (double)m->m[0][3], (double)m->m[1][3],
               (double)m->m[2][3], (double)p[0], (double)p[1], (double)p[2]);
    }
}

/* The first joint farthest from its root (parents[j] is OSSA_NO_PARENT at a
 * root), the joint printed when none is named. */
static int deepest(const ossa_skeleton *skeleton)
{
    const uint16_t *parents = ossa_skeleton_parents(skeleton);
    int best = 0, best_depth = -1;
    for (int j = 0; j < ossa_skeleton_joint_count(skeleton); ++j) {
        int depth = 0;
        for (int p = parents[j]; p != OSSA_NO_PARENT; p = parents[p])
            ++depth;
        if (depth > best_depth) {
            best = j;
            best_depth = depth;
        }
    }
    return best;
}

/* Everything after loading: checks the blob holds what is needed, runs one
 * frame and prints it. */
static int play(const options *o, const ossa_blob *blob)
{
    const ossa_skeleton *skeleton = blob->skeleton;
    const ossa_mesh *mesh = ossa_blob_mesh(blob, 0);
    if (!skeleton || !mesh || blob->clip_count == 0) {
        fprintf(stderr, "play: %s: needs a skeleton, a clip and a mesh\n", o->path);
        return 1;
    }
    const ossa_clip *clip_a = find_clip(blob, o->path, o->clip_a, 0);
    const ossa_clip *clip_b = find_clip(blob, o->path, o->clip_b, 1);
    const int joint = o->joint ? ossa_skeleton_find_joint(skeleton, o->joint) : deepest(skeleton);
    const int vertex = runtime_vertex(mesh, o->vertex);
    if (!clip_a || !clip_b)
        return 1;
    if (joint < 0 || vertex < 0) {
        fprintf(stderr, "play: %s: no %s\n", o->path, joint < 0 ? "such joint" : "such vertex");
        return 1;
    }
    frame f = {0};
    int code = frame_init(&f, skeleton, mesh, o->characters);
    if (code == 0) {
        place_characters(&f, o, ossa_skeleton_metres_per_unit(skeleton));
        code = run_frame(&f, skeleton, mesh, clip_a, clip_b);
    }
    if (code == 0) {
        printf("%s: %d joints; clip A '%s' (%.2f s), clip B '%s' (%.2f s); mesh '%s', "
               "%d vertices\n",
               o->path, f.joints, ossa_clip_name(clip_a), (double)ossa_clip_duration(clip_a),
               ossa_clip_name(clip_b), (double)ossa_clip_duration(clip_b), ossa_mesh_name(mesh),
               f.vertices);
        printf("%d characters at %g s; world positions of joint '%s' and of source vertex %d "
               "(runtime vertex %d):\n",
               f.characters, (double)o->time_s, ossa_skeleton_joint_name(skeleton, joint),
               o->vertex, vertex);
        print_frame(&f, joint, vertex);
    }
    frame_fini(&f);
    return code;
}

int main(int argc, char **argv)
{
    options o;
    const int bad = parse(argc, argv, &o);
    if (bad)
        return bad;

    /* Load: measure the file, hand ossa aligned memory of that size; it
     * reads the file with one fread and validates every count, offset and
     * invariant before anything uses it. The blob points into the memory. */
    ossa_error error;
    ossa_blob blob;
    size_t bytes = 0;
    if (ossa_blob_file_bytes(o.path, &bytes, &error) != OSSA_OK) {
        fprintf(stderr, "play: %s (OSSA_%s)\n", error.message, ossa_result_name(error.code));
        return 1;
    }
    void *memory = alloc64(bytes);
    if (!memory) {
        fprintf(stderr, "play: %s: out of memory\n", o.path);
        return 1;
    }
    if (ossa_blob_file_read(&blob, o.path, memory, bytes, OSSA_BLOB_DEFAULT, &error) != OSSA_OK) {
        /* error.message names the file, and the section and field at fault */
        fprintf(stderr, "play: %s (OSSA_%s)\n", error.message, ossa_result_name(error.code));
        free(memory);
        return 1;
    }
    const int code = play(&o, &blob);
    free(memory); /* after the last use of the blob, which points into it */
    return code;
}
