/* import_fuzz.c - fuzz target for the importer: the bytes are written to a
 * temporary file of each format the importer treats specially (glTF, GLB,
 * FBX, Collada) and imported (naming a few FBX properties as tracks). Every import either fails with an error or
 * yields data that keeps the importer's promises (checked here, then fed to
 * the skeleton, clip and mesh builders, whose results must make a blob that
 * ossa_blob_open accepts, as `ossa build` writes them). */
/* OSSA_TEST_NEEDS_PIPELINE OSSA_TEST_NEEDS_IMPORTER */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ossa/pipeline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define EXPECT(cond)                                                                           \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "import_fuzz: broken promise: %s\n", #cond);                       \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

static void check_mesh(const ossa_raw_mesh *m, const ossa_raw_skeleton *s)
{
    EXPECT(m->vertex_count > 0 && m->positions && m->normals && m->index_count % 3 == 0);
    for (int i = 0; i < m->index_count; ++i)
        EXPECT(m->indices[i] < (uint32_t)m->vertex_count);
    EXPECT(m->influence_offsets[0] == 0);
    for (int v = 0; v < m->vertex_count; ++v) {
        EXPECT(m->influence_offsets[v + 1] >= m->influence_offsets[v]);
        for (int k = m->influence_offsets[v]; k < m->influence_offsets[v + 1]; ++k)
            EXPECT(m->influences[k].joint >= 0 && m->influences[k].joint < m->skin_joint_count);
    }
    for (int k = 0; k < m->skin_joint_count; ++k)
        EXPECT(ossa_raw_skeleton_find(s, m->skin_joints[k].name) >= 0);
}

/* A float track as ossa_clip_build takes it: named, keyed, finite times
 * in order, finite values. */
static void check_float_track(const ossa_raw_float_track *t)
{
    EXPECT(t->name && t->name[0] && t->key_count >= 1 && t->times_s && t->values);
    for (int k = 0; k < t->key_count; ++k) {
        EXPECT(t->times_s[k] == t->times_s[k] && t->values[k] == t->values[k]);
        EXPECT(k == 0 || t->times_s[k] >= t->times_s[k - 1]);
    }
}

static void use(const ossa_import *im)
{
    const ossa_raw_skeleton *s = &im->skeleton;
    for (int c = 0; c < im->clip_count && im->clip_float_tracks; ++c)
        for (int t = 0; t < im->clip_float_tracks[c].count; ++t)
            check_float_track(&im->clip_float_tracks[c].tracks[t]);
    for (int j = 0; j < s->joint_count; ++j)
        EXPECT(s->joints[j].name && s->joints[j].parent >= -1 && s->joints[j].parent < j);
    for (int m = 0; m < im->mesh_count; ++m)
        check_mesh(&im->meshes[m], s);
    ossa_skeleton *skeleton = NULL;
    ossa_error e;
    if (s->joint_count == 0 || ossa_skeleton_build(s, NULL, &skeleton, NULL, &e) != OSSA_OK)
        return;
    ossa_clip_build_options options = {0};
    options.max_frames = 10000;
    enum { MAX_PARTS = 16 };
    ossa_clip *clips[MAX_PARTS];
    ossa_mesh *meshes[MAX_PARTS];
    int clip_count = 0, mesh_count = 0;
    for (int c = 0; c < im->clip_count && clip_count < MAX_PARTS; ++c) {
        options.float_tracks = im->clip_float_tracks ? im->clip_float_tracks[c].tracks : NULL;
        options.float_track_count = im->clip_float_tracks ? im->clip_float_tracks[c].count : 0;
        if (ossa_clip_build(&im->clips[c], skeleton, &options, &clips[clip_count], NULL, &e) ==
            OSSA_OK)
            ++clip_count;
    }
    for (int m = 0; m < im->mesh_count && mesh_count < MAX_PARTS; ++m)
        if (ossa_mesh_build(&im->meshes[m], skeleton, NULL, &meshes[mesh_count], NULL, &e) ==
            OSSA_OK)
            ++mesh_count;
    ossa_blob_contents contents = {skeleton, (const ossa_clip *const *)clips, clip_count,
                                   (const ossa_mesh *const *)meshes, mesh_count};
    void *blob_data = NULL;
    size_t blob_bytes = 0;
    if (ossa_blob_write_memory(&contents, NULL, &blob_data, &blob_bytes, &e) == OSSA_OK) {
        ossa_blob blob;
        EXPECT(ossa_blob_open(&blob, blob_data, blob_bytes, OSSA_BLOB_DEFAULT, &e) == OSSA_OK);
        ossa_free(NULL, blob_data);
    }
    for (int c = 0; c < clip_count; ++c)
        ossa_clip_free(clips[c], NULL);
    for (int m = 0; m < mesh_count; ++m)
        ossa_mesh_free(meshes[m], NULL);
    ossa_skeleton_free(skeleton, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char dir[256];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ossa-import-fuzz-XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(dir))
            abort();
    }
    static const char *const extensions[] = {"gltf", "glb", "fbx", "dae"};
    for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; ++i) {
        char path[320];
        snprintf(path, sizeof path, "%s/input.%s", dir, extensions[i]);
        FILE *f = fopen(path, "wb");
        if (!f)
            abort();
        if (size)
            fwrite(data, 1, size, f);
        fclose(f);
        /* Names that select built-in FBX properties and Collada values (the
         * seeds' own). */
        static const char *const named[] = {"Root.Visibility", "Root.secret", "Camera01.Roll",
                                            "Cam.xfov"};
        ossa_import_options options = {0};
        options.track_nodes = named;
        options.track_node_count = 4;
        ossa_import im;
        ossa_error e;
        if (ossa_import_file(path, &options, &im, &e) == OSSA_OK) {
            use(&im);
            ossa_import_free(&im);
        } else {
            EXPECT(e.code != OSSA_OK && e.message[0] && im.blocks_ == NULL);
        }
        unlink(path);
    }
    return 0;
}
