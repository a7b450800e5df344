/* cmd_build.c - `ossa build`: write a .ossa blob. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ossa/pipeline.h"

static void help(FILE *to)
{
    fprintf(to,
            "usage: ossa build --default -o OUT.ossa\n"
            "\n"
            "Builds a .ossa blob (skeleton, clips, meshes) and writes it atomically.\n"
            "  --default      the embedded default character (96 joints; crouch, walk, run;\n"
            "                 a ~5k-triangle skinned body)\n"
            "  -o, --output   the file to write\n"
            "  -h, --help     this text\n");
}

static void summary(const char *path, const ossa_skeleton *skeleton, ossa_clip *const *clips,
                    int clip_count)
{
    printf("wrote %s\n", path);
    printf("  skeleton: %d joints, depth %d, %zu bytes\n", ossa_skeleton_joint_count(skeleton),
           ossa_skeleton_max_depth(skeleton), ossa_skeleton_bytes(skeleton));
    for (int i = 0; i < clip_count; ++i) {
        float et, er, es;
        ossa_clip_build_error(clips[i], &et, &er, &es);
        printf("  clip %-8s %6.3f s  %5.1f Hz  %4d frames  %8zu bytes  max error %.2g units, "
               "%.2g deg\n",
               ossa_clip_name(clips[i]), (double)ossa_clip_duration(clips[i]),
               (double)ossa_clip_rate(clips[i]), ossa_clip_frame_count(clips[i]),
               ossa_clip_bytes(clips[i]), (double)et, (double)er);
    }
}

int cmd_build(int argc, char **argv)
{
    const char *output = NULL;
    bool use_default = false;
    for (int i = 1; i < argc; ++i) {
        if (cli_is(argv[i], "--help", "-h")) {
            help(stdout);
            return 0;
        } else if (cli_is(argv[i], "--default", NULL)) {
            use_default = true;
        } else if (cli_is(argv[i], "--output", "-o")) {
            if (!cli_string_arg(argc, argv, &i, &output))
                return 2;
        } else {
            cli_error("build", "unexpected argument '%s' (inputs other than --default come "
                               "with the importer)", argv[i]);
            help(stderr);
            return 2;
        }
    }
    if (!use_default || !output) {
        cli_error("build", "%s", !use_default ? "nothing to build: give --default"
                                              : "no output: give -o OUT.ossa");
        help(stderr);
        return 2;
    }
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
    if (ossa_blob_write_file(output, &contents, &error) != OSSA_OK) {
        cli_error("build", "%s", error.message);
        code = 1;
    } else {
        summary(output, character.skeleton, character.clips, OSSA_DEFAULT_CLIP_COUNT);
        int counts[OSSA_MAX_INFLUENCES];
        ossa_mesh_influence_counts(character.mesh, counts);
        printf("  mesh %-8s %5d vertices  %5d triangles  influences 1/2/3/4: %d/%d/%d/%d  "
               "%zu bytes\n",
               ossa_mesh_name(character.mesh), ossa_mesh_vertex_count(character.mesh),
               ossa_mesh_triangle_count(character.mesh), counts[0], counts[1], counts[2],
               counts[3], ossa_mesh_bytes(character.mesh));
    }
    ossa_default_character_free(&character, NULL);
    return code;
}
