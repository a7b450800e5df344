/* crowd_play.c - the characters of play.c again, run by the crowd library
 * (libossa_crowd) the way a game runs it: a crowd in memory of ours, the
 * characters spawned once, then a frame loop at 60 Hz of begin_frame (advance
 * the playheads, plan the batches), update (sample, blend, local -> model,
 * palettes and skinning, W characters at a time in SIMD lanes) and end_frame
 * (footfalls). It prints each footfall as it happens (which character,
 * which foot, when, where), then the same lines play.c prints.
 *
 *   crowd_play FILE.ossa [--characters N] [--time T] [--clips A B] [--joint NAME]
 *              [--vertex K] [--feet LEFT RIGHT]
 *
 * The options and the characters are play.c's: character i starts both
 * clips i x 0.25 s in, blends clip B over clip A with weight i / (N - 1),
 * stands 1.5 m right of the one before, turned 0.5 rad more about +y. After
 * T seconds of frames its numbers are play.c's at --time T, up to float
 * rounding (the crowd's lanes sum in another order than the reference jobs,
 * and it adds up its playheads frame by frame). Footfalls are reported for
 * the joints --feet names, by default foot_l and foot_r when the skeleton
 * has them (the default character does; pab's arnaud has LeftFoot and
 * RightFoot).
 *
 * Build it against an installed ossa (docs/linking.md):
 *   CMake:       find_package(ossa REQUIRED)
 *                target_link_libraries(crowd_play PRIVATE ossa::crowd)
 *   pkg-config:  cc -std=c11 crowd_play.c $(pkg-config --cflags --libs ossa-crowd) -o crowd_play
 * A blob to play: `ossa build --default -o hero.ossa`. */
#include <ossa/crowd.h>
#include <ossa/ossa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CHARACTERS 4096

typedef struct options {
    const char *path;
    int characters;
    float time_s;
    const char *clip_a, *clip_b; /* NULL: the blob's first two clips */
    const char *joint;           /* NULL: the deepest joint */
    int vertex;                  /* in the source's vertex order */
    const char *feet[2];         /* joints watched for footfalls */
} options;

/* Memory for ossa: 64-byte aligned. The crowd, its scratch and a blob need
 * it (a blob 16 at least; 64 is best), skinned vertices 16 (64: whole cache
 * lines). aligned_alloc wants a multiple of the alignment. */
static void *alloc64(size_t bytes)
{
    return aligned_alloc(64, bytes == 0 ? 64 : (bytes + 63) / 64 * 64);
}

static int failed(ossa_result r, const char *what)
{
    if (r != OSSA_OK)
        fprintf(stderr, "crowd_play: %s: %s (OSSA_%s)\n", what, ossa_result_str(r),
                ossa_result_name(r));
    return r != OSSA_OK;
}

static int usage(const char *message)
{
    fprintf(stderr,
            "crowd_play: %s\nusage: crowd_play FILE.ossa [--characters N] [--time T]\n"
            "                  [--clips A B] [--joint NAME] [--vertex K] [--feet LEFT RIGHT]\n",
            message);
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){.characters = 4, .time_s = 0.5f, .feet = {"foot_l", "foot_r"}};
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
        else if (strcmp(argv[i], "--feet") == 0 && more >= 2) {
            o->feet[0] = argv[++i];
            o->feet[1] = argv[++i];
        } else if (argv[i][0] == '-' || o->path)
            return usage("unexpected argument or missing value");
        else
            o->path = argv[i];
    }
    if (!o->path)
        return usage("no file given");
    if (o->characters < 1 || o->characters > MAX_CHARACTERS)
        return usage("--characters: expected 1 to 4096");
    if (!(o->time_s >= 0.0f && o->time_s <= 3600.0f))
        return usage("--time: expected 0 to 3600 seconds (frames run forward)");
    return 0;
}

static const ossa_clip *find_clip(const ossa_blob *blob, const char *path, const char *name,
                                  int index)
{
    if (name)
        index = ossa_blob_find_clip(blob, name);
    else if (index >= blob->clip_count)
        index = 0;
    const ossa_clip *clip = ossa_blob_clip(blob, index);
    if (!clip)
        fprintf(stderr, "crowd_play: %s: no clip named '%s'\n", path, name);
    return clip;
}

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

/* The runtime vertex holding source vertex `source`, or -1. Skinned
 * vertices come out in the mesh's runtime order (grouped by influence
 * count), which ossa_mesh_indices refers to: draw them with those indices
 * as they are. ossa_mesh_source_vertices maps back to the source's order. */
static int runtime_vertex(const ossa_mesh *mesh, int source)
{
    const uint32_t *map = ossa_mesh_source_vertices(mesh);
    for (int v = 0; v < ossa_mesh_vertex_count(mesh); ++v)
        if (source >= 0 && map[v] == (uint32_t)source)
            return v;
    return -1;
}

/* The caller's memory for one crowd: the crowd itself, one update's scratch
 * (one per thread that updates), the skinned vertices. */
typedef struct world {
    ossa_crowd *crowd;
    void *crowd_memory, *scratch;
    size_t scratch_bytes;
    unsigned char *vertices;
    size_t character_stride; /* bytes from one skinned character's vertices to the next */
    ossa_entity entity[MAX_CHARACTERS];
} world;

static int world_init(world *w, const ossa_blob *blob, const ossa_clip *const clips[2],
                      const options *o)
{
    const ossa_mesh *mesh = ossa_blob_mesh(blob, 0);
    ossa_crowd_desc desc = {0}; /* zeroed fields are defaults */
    desc.skeleton = blob->skeleton;
    desc.clips = clips;
    desc.clip_count = 2;
    desc.capacity = o->characters;
    desc.mesh = mesh; /* skinned characters are skinned by the update */
    /* Clips with root motion would carry the characters away from their
     * placements; this example keeps them where it puts them, as play.c
     * does, so that each can be checked against it. */
    desc.no_root_motion = true;
    /* Feet to watch, by name (a name the skeleton lacks is an error). */
    const bool have_feet = ossa_skeleton_find_joint(blob->skeleton, o->feet[0]) >= 0 &&
                           ossa_skeleton_find_joint(blob->skeleton, o->feet[1]) >= 0;
    desc.foot_names = o->feet;
    desc.foot_count = have_feet ? 2 : 0;
    if (!have_feet)
        printf("%s: no joints %s and %s: no footfalls (see --feet)\n", o->path, o->feet[0],
               o->feet[1]);
    const size_t bytes = ossa_crowd_size(&desc); /* 0 for a bad desc: init says why */
    w->crowd_memory = alloc64(bytes);
    if (!w->crowd_memory || failed(ossa_crowd_init(&w->crowd, w->crowd_memory, bytes, &desc),
                                   "creating the crowd"))
        return 1;
    w->scratch_bytes = ossa_crowd_scratch_size(w->crowd);
    w->scratch = alloc64(w->scratch_bytes);
    /* Skinned character s (slot s, 0 <= s < ossa_crowd_skinned_count) is
     * written at vertices + s * character_stride, float4 position, normal
     * (and tangent) per vertex, ossa_mesh_skinned_stride bytes apart. */
    const size_t stride = (size_t)ossa_mesh_skinned_stride(mesh);
    w->character_stride = stride * (size_t)ossa_mesh_vertex_count(mesh);
    w->vertices = alloc64(w->character_stride * (size_t)o->characters);
    if (!w->scratch || !w->vertices) {
        fprintf(stderr, "crowd_play: out of memory\n");
        return 1;
    }
    ossa_crowd_skin_output out = {0};
    out.vertices = w->vertices;
    out.vertices_bytes = w->character_stride * (size_t)o->characters;
    out.character_stride = w->character_stride;
    if (failed(ossa_crowd_set_skin_output(w->crowd, &out), "setting the skin output"))
        return 1;

    const float metres = ossa_skeleton_metres_per_unit(blob->skeleton);
    const float spacing = 1.5f / (metres > 0.0f ? metres : 1.0f);
    for (int i = 0; i < o->characters; ++i) {
        char name[OSSA_CROWD_NAME_BYTES];
        snprintf(name, sizeof name, "character %d", i);
        ossa_character_desc c = {0};
        c.name = name; /* copied */
        c.clip_a = 0;
        c.clip_b = 1;
        c.weight_b = o->characters > 1 ? (float)i / (float)(o->characters - 1) : 0.0f;
        c.time_s = (float)i * 0.25f;
        c.position.x = (float)i * spacing;
        c.yaw_rad = 0.5f * (float)i;
        c.skinned = true; /* near the camera: a palette and vertices every frame */
        if (failed(ossa_crowd_spawn(w->crowd, &c, &w->entity[i]), "spawning"))
            return 1;
    }
    return 0;
}

static void world_fini(world *w)
{
    free(w->crowd_memory);
    free(w->scratch);
    free(w->vertices);
}

/* The frame loop: T seconds in frames of at most 1/60 s. */
static int run(world *w, const options *o)
{
    int frames = (int)(o->time_s * 60.0f);
    frames += (float)frames < o->time_s * 60.0f || frames == 0;
    const float dt = o->time_s / (float)frames;
    printf("%s: %d characters, %d frames of %.6f s\n", o->path, o->characters, frames,
           (double)dt);
    for (int frame = 1; frame <= frames; ++frame) {
        int batches = 0;
        if (failed(ossa_crowd_begin_frame(w->crowd, dt, &batches), "begin_frame"))
            return 1;
        /* All batches on this thread. With threads, each runs a disjoint
         * range [begin, end) of the batches with a scratch of its own. */
        if (failed(ossa_crowd_update(w->crowd, 0, batches, w->scratch, w->scratch_bytes),
                   "update") ||
            failed(ossa_crowd_end_frame(w->crowd), "end_frame"))
            return 1;
        int count = 0;
        const ossa_footfall *footfalls = ossa_crowd_footfalls(w->crowd, &count);
        for (int k = 0; k < count; ++k) {
            ossa_character_state state; /* hot and cold state, the name among it */
            ossa_crowd_character(w->crowd, footfalls[k].entity, &state);
            printf("footfall: %s, %s, %.6f s, at %.6f %.6f %.6f\n", state.name,
                   o->feet[footfalls[k].foot], (double)((float)frame * dt),
                   (double)footfalls[k].position.x, (double)footfalls[k].position.y,
                   (double)footfalls[k].position.z);
        }
    }
    return 0;
}

static void print_characters(const world *w, const options *o, int joint, int vertex,
                             size_t stride)
{
    for (int i = 0; i < o->characters; ++i) {
        ossa_character_state state;
        ossa_crowd_character(w->crowd, w->entity[i], &state);
        /* World-space joint matrices as of the last update (3x4 row-major:
         * the translation is the last column). */
        const ossa_mat34 *m = &ossa_crowd_pose(w->crowd, w->entity[i])[joint];
        /* Skinned vertices sit at the character's slot, which moves as
         * characters spawn, die and change state: ask for it. */
        const int slot = ossa_crowd_slot(w->crowd, w->entity[i]);
        const float *p = (const float *)(const void *)(w->vertices +
                                                       (size_t)slot * w->character_stride +
                                                       (size_t)vertex * stride);
        printf("character %d: weight %.3f, joint %.6f %.6f %.6f, vertex %.6f %.6f %.6f\n", i,
               (double)state.weight_b, (double)m->m[0][3], (double)m->m[1][3],
               (double)m->m[2][3], (double)p[0], (double)p[1], (double)p[2]);
    }
}

static int play(const options *o, const ossa_blob *blob)
{
    const ossa_skeleton *skeleton = blob->skeleton;
    const ossa_mesh *mesh = ossa_blob_mesh(blob, 0);
    if (!skeleton || !mesh || blob->clip_count == 0) {
        fprintf(stderr, "crowd_play: %s: needs a skeleton, a clip and a mesh\n", o->path);
        return 1;
    }
    const ossa_clip *clips[2] = {find_clip(blob, o->path, o->clip_a, 0),
                                 find_clip(blob, o->path, o->clip_b, 1)};
    const int joint = o->joint ? ossa_skeleton_find_joint(skeleton, o->joint) : deepest(skeleton);
    const int vertex = runtime_vertex(mesh, o->vertex);
    if (!clips[0] || !clips[1])
        return 1;
    if (joint < 0 || vertex < 0) {
        fprintf(stderr, "crowd_play: %s: no %s\n", o->path,
                joint < 0 ? "such joint" : "such vertex");
        return 1;
    }
    world *w = calloc(1, sizeof *w);
    if (!w) {
        fprintf(stderr, "crowd_play: out of memory\n");
        return 1;
    }
    int code = world_init(w, blob, clips, o);
    if (code == 0)
        code = run(w, o);
    if (code == 0) {
        printf("%s: a crowd of %d, lanes of %d; clip A '%s', clip B '%s'; mesh '%s'\n", o->path,
               ossa_crowd_count(w->crowd), ossa_crowd_width(w->crowd), ossa_clip_name(clips[0]),
               ossa_clip_name(clips[1]), ossa_mesh_name(mesh));
        printf("%d characters at %g s; world positions of joint '%s' and of source vertex %d "
               "(runtime vertex %d):\n",
               o->characters, (double)o->time_s, ossa_skeleton_joint_name(skeleton, joint),
               o->vertex, vertex);
        print_characters(w, o, joint, vertex, (size_t)ossa_mesh_skinned_stride(mesh));
    }
    world_fini(w);
    free(w);
    return code;
}

int main(int argc, char **argv)
{
    options o;
    const int bad = parse(argc, argv, &o);
    if (bad)
        return bad;
    /* Load as play.c does: measure, aligned memory, one checked read. */
    ossa_error error;
    ossa_blob blob;
    size_t bytes = 0;
    if (ossa_blob_file_bytes(o.path, &bytes, &error) != OSSA_OK) {
        fprintf(stderr, "crowd_play: %s (OSSA_%s)\n", error.message, ossa_result_name(error.code));
        return 1;
    }
    void *memory = alloc64(bytes);
    if (!memory) {
        fprintf(stderr, "crowd_play: %s: out of memory\n", o.path);
        return 1;
    }
    if (ossa_blob_file_read(&blob, o.path, memory, bytes, OSSA_BLOB_DEFAULT, &error) != OSSA_OK) {
        fprintf(stderr, "crowd_play: %s (OSSA_%s)\n", error.message, ossa_result_name(error.code));
        free(memory);
        return 1;
    }
    const int code = play(&o, &blob);
    free(memory); /* the crowd and the blob point into it: free it last */
    return code;
}
