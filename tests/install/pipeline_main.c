/* A program that uses an installed ossa pipeline (libossa_pipeline, which
 * needs libossa and, with the importer, assimp and cJSON): found through
 * find_package(ossa) or pkg-config ossa-pipeline by
 * tests/install/check_install.sh. It bakes the default character into a
 * blob in memory, opens it with the runtime, and asks the importer for a
 * file that does not exist (which links the importer in). */
#include <ossa/ossa.h>
#include <ossa/pipeline.h>
#include <stdio.h>

int main(void)
{
    ossa_default_character c;
    ossa_error error;
    if (ossa_default_character_build(&c, NULL, &error) != OSSA_OK) {
        fprintf(stderr, "default character: %s\n", error.message);
        return 1;
    }
    const ossa_clip *clips[OSSA_DEFAULT_CLIP_COUNT];
    for (int i = 0; i < OSSA_DEFAULT_CLIP_COUNT; ++i)
        clips[i] = c.clips[i];
    const ossa_mesh *meshes[1] = {c.mesh};
    const ossa_blob_contents contents = {c.skeleton, clips, OSSA_DEFAULT_CLIP_COUNT, meshes, 1};
    void *data = NULL;
    size_t bytes = 0;
    ossa_blob blob;
    ossa_result r = ossa_blob_write_memory(&contents, NULL, &data, &bytes, &error);
    if (r == OSSA_OK)
        r = ossa_blob_open(&blob, data, bytes, OSSA_BLOB_DEFAULT, &error);
    ossa_default_character_free(&c, NULL);
    if (r != OSSA_OK) {
        fprintf(stderr, "blob: %s\n", error.message);
        ossa_free(NULL, data);
        return 1;
    }
    printf("default character: %zu bytes, %d joints, %d clips, %d mesh\n", bytes,
           ossa_skeleton_joint_count(blob.skeleton), blob.clip_count, blob.mesh_count);
    ossa_free(NULL, data);
    ossa_import import;
    r = ossa_import_file("no-such-file.gltf", NULL, &import, &error);
    printf("importing a missing file: %s\n", r == OSSA_OK ? "read?" : error.message);
    if (r == OSSA_OK)
        ossa_import_free(&import);
    return r != OSSA_OK ? 0 : 1;
}
