/* make_import_seeds.c - writes the seed corpus for import_fuzz: the tests'
 * skinned triangle (two joints, a LINEAR and a STEP clip) as glTF and GLB,
 * the same scene exported by assimp as FBX (ASCII, binary) and Collada, and
 * a few broken files (one that crashed assimp), and the sparse-accessor
 * files of import_gltf_sparse_test.c. Run by hand: make_import_seeds DIR. */
#include <assimp/cexport.h>
#include <assimp/cimport.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <string.h>

#include "import_gltf_sparse.h"
#include "import_gltf_writer.h"

static const char clips[] =
    "[{\"name\":\"turn\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"rotation\"}}],"
    "\"samplers\":[{\"input\":6,\"output\":7}]},"
    "{\"name\":\"hop\",\"channels\":[{\"sampler\":0,\"target\":{\"node\":2,\"path\":\"translation\"}}],"
    "\"samplers\":[{\"input\":9,\"output\":8,\"interpolation\":\"STEP\"}]}]";

static int truncated_copy(const char *from, const char *to, long bytes)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out)
        return 1;
    for (long i = 0; i < bytes; ++i) {
        int c = fgetc(in);
        if (c == EOF)
            break;
        fputc(c, out);
    }
    fclose(in);
    return fclose(out) != 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_import_seeds DIR\n");
        return 2;
    }
    char gltf[4096], glb[4096], path[4096];
    snprintf(gltf, sizeof gltf, "%s/triangle.gltf", argv[1]);
    snprintf(glb, sizeof glb, "%s/triangle.glb", argv[1]);
    if (tg_write_skinned(gltf, "A", "B", clips) || tg_write_skinned_glb(glb, "A", "B", clips))
        return 1;
    const struct aiScene *scene = aiImportFile(gltf, 0);
    if (!scene) {
        fprintf(stderr, "%s\n", aiGetErrorString());
        return 1;
    }
    /* assimp 5.2 reads back its ASCII FBX but neither its binary FBX nor a
     * Collada file with animations: those are kept as seeds of the parsers'
     * error paths, and a Collada copy without clips is the readable one. */
    const char *formats[][2] = {{"fbxa", "triangle.fbx"},
                                {"fbx", "triangle_binary.fbx"},
                                {"collada", "triangle_clips.dae"}};
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/%s", argv[1], formats[i][1]);
        if (aiExportScene(scene, formats[i][0], path, 0) != aiReturn_SUCCESS) {
            fprintf(stderr, "export %s: %s\n", formats[i][0], aiGetErrorString());
            return 1;
        }
    }
    struct aiScene *still = NULL;
    aiCopyScene(scene, &still);
    if (!still)
        return 1;
    still->mNumAnimations = 0; /* the copy's clips leak: a one-shot tool */
    snprintf(path, sizeof path, "%s/triangle.dae", argv[1]);
    if (aiExportScene(still, "collada", path, 0) != aiReturn_SUCCESS)
        return 1;
    aiReleaseImport(scene);
    snprintf(path, sizeof path, "%s/truncated.glb", argv[1]);
    if (truncated_copy(glb, path, 700))
        return 1;
    /* No truncated FBX: assimp 5.2's FBX parser leaks its tokens when a
     * file ends early, and LeakSanitizer would report assimp's leak. */
    tg_doc doc;
    sp_anim_doc(&doc, true);
    snprintf(path, sizeof path, "%s/sparse_anim.gltf", argv[1]);
    if (tg_write_doc(path, &doc, sp_anim_members))
        return 1;
    sp_quad_doc(&doc, true, 0);
    snprintf(path, sizeof path, "%s/sparse_quad.gltf", argv[1]);
    if (tg_write_doc(path, &doc, sp_quad_members))
        return 1;
    sp_quad_doc(&doc, true, 16); /* refused: assimp 5.2 misreads it */
    snprintf(path, sizeof path, "%s/sparse_strided.gltf", argv[1]);
    if (tg_write_doc(path, &doc, sp_quad_members))
        return 1;
    /* A nodeless channel with no node loaded: crashed assimp 5.2. */
    char json[1024];
    snprintf(json, sizeof json, tg_nodeless_json, "{}");
    snprintf(path, sizeof path, "%s/nodeless_channel.gltf", argv[1]);
    if (tg_write_text(path, json))
        return 1;
    snprintf(path, sizeof path, "%s/bad_view.gltf", argv[1]);
    return tg_write_skinned(path, "A", "A", "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":9,"
                                          "\"path\":\"scale\"}}],\"samplers\":[{\"input\":7,"
                                          "\"output\":6}]}]");
}
