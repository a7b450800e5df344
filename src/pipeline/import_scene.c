/* import_scene.c - ossa_import_file: checks the file, runs assimp, finds the
 * format, then hands the scene to the node, unit, clip, skeleton and mesh
 * steps (import_*.c). */
#define _POSIX_C_SOURCE 200809L
#include <assimp/cimport.h>
#include <assimp/config.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <sys/stat.h>

#include "import_dae.h"
#include "import_fbx.h"
#include "import_gltf.h"
#include "import_internal.h"
#include "import_preflight.h"

/* What assimp does for us: triangles only, normals where the file has
 * none (smooth, which keeps indexed vertices as they are), and its own
 * consistency check, so malformed files stop there. Vertices are not joined
 * (that would reorder glTF's); FBX corners are welded in import_mesh.c. */
#define IMPORT_FLAGS                                                                           \
    (aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_ValidateDataStructure)

static bool has_extension(const char *path, const char *ext)
{
    const char *dot = strrchr(path, '.');
    return dot && strcasecmp(dot + 1, ext) == 0;
}

static const char *metadata_string(const struct aiScene *scene, const char *key)
{
    const struct aiMetadata *meta = scene->mMetaData;
    for (unsigned i = 0; meta && i < meta->mNumProperties; ++i)
        if (strcmp(meta->mKeys[i].data, key) == 0 && meta->mValues[i].mType == AI_AISTRING &&
            meta->mValues[i].mData)
            return ((const struct aiString *)meta->mValues[i].mData)->data;
    return NULL;
}

static ossa_source_format detect_format(const struct aiScene *scene, const char *path)
{
    const char *importer = metadata_string(scene, "SourceAsset_Format");
    if (importer) {
        if (strstr(importer, "glTF2"))
            return OSSA_SOURCE_GLTF;
        if (strstr(importer, "FBX"))
            return OSSA_SOURCE_FBX;
        if (strstr(importer, "Collada"))
            return OSSA_SOURCE_COLLADA;
        if (strstr(importer, "glTF"))
            return OSSA_SOURCE_OTHER; /* glTF 1.0: assimp's own reading */
    }
    if (has_extension(path, "fbx"))
        return OSSA_SOURCE_FBX;
    if (has_extension(path, "dae"))
        return OSSA_SOURCE_COLLADA;
    return OSSA_SOURCE_OTHER;
}

/* The file must exist, be a regular file and be readable: checked here so
 * the message says which (assimp would only say it could not open it). */
static ossa_result check_file(const char *path, ossa_error *error)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: %s", path,
                              errno == ENOENT ? "no such file" : strerror(errno));
    if (!S_ISREG(st.st_mode))
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: not a regular file", path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot read: %s", path,
                              strerror(errno));
    fclose(f);
    return OSSA_OK;
}

/* A .gltf / .glb name, or GLB's magic bytes. */
static bool looks_like_gltf(const char *path)
{
    if (has_extension(path, "gltf") || has_extension(path, "glb"))
        return true;
    unsigned char magic[4] = {0};
    FILE *f = fopen(path, "rb");
    const size_t got = f ? fread(magic, 1, 4, f) : 0;
    if (f)
        fclose(f);
    return got == 4 && memcmp(magic, "glTF", 4) == 0;
}

/* The formats with a preflight of their own besides glTF: the FBX and
 * Collada readers, which assimp picks by the name's extension, else by
 * content (FBX's binary magic, a <COLLADA element near the start). */
typedef enum checked_format { CHECK_NONE, CHECK_FBX, CHECK_DAE } checked_format;

static checked_format format_to_check(const char *path, const unsigned char *head, size_t n)
{
    if (has_extension(path, "fbx") || (n >= 20 && memcmp(head, "Kaydara FBX Binary  ", 20) == 0))
        return CHECK_FBX;
    if (has_extension(path, "dae"))
        return CHECK_DAE;
    for (size_t i = 0; i + 8 <= n; ++i)
        if (strncasecmp((const char *)head + i, "<collada", 8) == 0)
            return CHECK_DAE;
    return CHECK_NONE;
}

/* Reads the file whole and runs the FBX or Collada preflight on it; FBX
 * animated properties and Collada animated custom values are read on the
 * same walk. */
static ossa_result preflight_other(ossa_import *im, const char *path,
                                   const ossa_import_options *options, ossai_dae_info *dae,
                                   ossai_file_tracks *tracks, ossa_error *error)
{
    unsigned char head[1024];
    FILE *f = fopen(path, "rb");
    const size_t n = f ? fread(head, 1, sizeof head, f) : 0;
    const checked_format format = format_to_check(path, head, n);
    if (!f || format == CHECK_NONE) {
        if (f)
            fclose(f);
        return OSSA_OK;
    }
    struct stat st;
    ossa_result r = OSSA_OK;
    unsigned char *data = NULL;
    if (fstat(fileno(f), &st) != 0 || (uint64_t)st.st_size >= SIZE_MAX) {
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot read it", path);
        goto done;
    }
    const size_t bytes = (size_t)st.st_size;
    data = ossa_alloc(&im->allocator_, bytes + 1, 16);
    if (!data) {
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1,
                           "%s: out of memory for %zu bytes", path, bytes);
        goto done;
    }
    rewind(f);
    if (fread(data, 1, bytes, f) != bytes) {
        r = ossa_error_set(error, OSSA_ERR_IO, -1, -1, "%s: cannot read it", path);
        goto done;
    }
    data[bytes] = 0;
    if (format == CHECK_FBX) {
        ossai_fbx_visitor visitor;
        ossai_fbx_reader *reader = ossai_fbx_reader_begin(im, path, options, error, &visitor);
        if (!reader) {
            r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
            goto done;
        }
        r = ossai_fbx_preflight(im, path, data, bytes, &visitor, error);
        if (r == OSSA_OK)
            r = ossai_fbx_reader_finish(reader, tracks);
        ossai_fbx_reader_free(reader);
    } else {
        ossai_dae_visitor visitor;
        ossai_dae_reader *reader = ossai_dae_reader_begin(im, path, options, error, &visitor);
        if (!reader) {
            r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
            goto done;
        }
        r = ossai_dae_preflight(im, path, data, bytes, dae, &visitor, error);
        if (r == OSSA_OK)
            r = ossai_dae_reader_finish(reader, dae, tracks);
        ossai_dae_reader_free(reader);
    }
done:
    fclose(f);
    ossa_free(&im->allocator_, data);
    return r;
}

static ossa_result assimp_error(const char *path, ossa_error *error)
{
    const char *text = aiGetErrorString();
    char first_line[200];
    snprintf(first_line, sizeof first_line, "%s", text && text[0] ? text : "unknown error");
    first_line[strcspn(first_line, "\r\n")] = '\0';
    if (strstr(first_line, "No suitable reader"))
        return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1,
                              "%s: unsupported format (no importer reads it)", path);
    return ossa_error_set(error, OSSA_ERR_IMPORT, -1, -1, "%s: cannot import: %s", path,
                          first_line);
}

static ossa_result run(ossai_scene *sc, const ossa_import_options *options)
{
    ossa_import *im = sc->im;
    ossa_result r;
    im->format = detect_format(sc->ai, sc->path);
    im->format_name = ossa_source_format_name(im->format);
    if ((r = ossai_nodes_build(sc)) || (r = ossai_units_decide(sc)))
        return r;
    r = im->format == OSSA_SOURCE_GLTF ? ossai_clips_from_gltf(sc) : ossai_clips_from_assimp(sc);
    if (r || (r = ossai_skeleton_select(sc)) || (r = ossai_clips_finish(sc)) ||
        (r = ossai_float_tracks_finish(sc, options)))
        return r;
    if (options->no_meshes) {
        for (unsigned m = 0; m < sc->ai->mNumMeshes; ++m)
            im->skipped_meshes += !ossai_mesh_is_display(sc->ai, m);
        return OSSA_OK;
    }
    /* Which meshes bring their own tangents, before assimp computes the rest. */
    const unsigned mesh_count = sc->ai->mNumMeshes;
    bool *file_tangents = ossai_import_alloc(im, (size_t)mesh_count + 1, sizeof(bool));
    if (!file_tangents)
        return ossa_error_set(sc->error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory",
                              sc->path);
    for (unsigned m = 0; m < mesh_count; ++m)
        file_tangents[m] = sc->ai->mMeshes[m]->mTangents != NULL;
    if (!options->no_tangents) {
        sc->ai = aiApplyPostProcessing(sc->ai, aiProcess_CalcTangentSpace);
        if (!sc->ai) /* assimp released the scene */
            return assimp_error(sc->path, sc->error);
    }
    return ossai_meshes_extract(sc, file_tangents);
}

ossa_result ossa_import_file(const char *path, const ossa_import_options *options,
                             ossa_import *out, ossa_error *error)
{
    static const ossa_import_options defaults;
    ossa_error scratch;
    if (!error)
        error = &scratch;
    ossa_error_clear(error);
    if (!options)
        options = &defaults;
    if (!out)
        return ossa_error_set(error, OSSA_ERR_MISSING_OUTPUT, -1, -1, "import: no output");
    memset(out, 0, sizeof *out);
    out->allocator_ = options->allocator;
    if (!path)
        return ossa_error_set(error, OSSA_ERR_MISSING_INPUT, -1, -1, "import: no path");
    if (!isfinite(options->scale) || options->scale < 0.0f)
        return ossa_error_set(error, OSSA_ERR_BAD_VALUE, -1, -1,
                              "%s: scale %g must be positive and finite", path,
                              (double)options->scale);
    ossa_result r = check_file(path, error);
    if (r)
        return r;
    ossai_dae_info dae;
    memset(&dae, 0, sizeof dae);
    ossai_file_tracks tracks;
    memset(&tracks, 0, sizeof tracks);
    if (looks_like_gltf(path) ? (r = ossai_gltf_preflight(out, path, error)) != OSSA_OK
                              : (r = preflight_other(out, path, options, &dae, &tracks, error)) !=
                                    OSSA_OK)
        goto fail;
    out->path = ossai_import_strdup(out, path);
    if (!out->path) {
        r = ossa_error_set(error, OSSA_ERR_OUT_OF_MEMORY, -1, -1, "%s: out of memory", path);
        goto fail;
    }
    struct aiPropertyStore *props = aiCreatePropertyStore();
    /* Keep FBX pivots as helper nodes: import_skeleton.c and import_fold.c
     * fold them, keeping what assimp's own collapsing drops (the curves of
     * pivoted nodes; see docs/importing.md). */
    aiSetImportPropertyInteger(props, AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, 1);
    const struct aiScene *scene = aiImportFileExWithProperties(path, IMPORT_FLAGS, NULL, props);
    aiReleasePropertyStore(props);
    if (!scene || !scene->mRootNode) {
        r = assimp_error(path, error);
        if (scene)
            aiReleaseImport(scene);
        goto fail;
    }
    ossai_scene sc;
    memset(&sc, 0, sizeof sc);
    sc.im = out;
    sc.ai = scene;
    sc.path = out->path;
    sc.scale = options->scale > 0.0f ? (double)options->scale : 1.0;
    sc.no_tangents = options->no_tangents;
    sc.all_nodes = options->all_nodes;
    sc.no_meshes = options->no_meshes;
    sc.dae = dae;
    sc.file_tracks = &tracks;
    sc.error = error;
    r = run(&sc, options);
    if (sc.ai)
        aiReleaseImport(sc.ai);
    if (r == OSSA_OK)
        return OSSA_OK;
fail:
    ossa_import_free(out);
    return r;
}
