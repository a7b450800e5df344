/* main.c - the ossa command-line tool: `ossa COMMAND [options]`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "ossa/ossa.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"demo", cmd_demo, "animate a crowd of the default (or a given) character, print timings"},
    {"build", cmd_build, "import glTF / FBX / Collada files into a .ossa blob (or --default)"},
    {"info", cmd_info, "show what a .ossa blob holds, or why it is invalid"},
    {"dump", cmd_dump, "every joint's model matrix at a time of a clip (text or JSON)"},
#ifdef OSSA_HAVE_BENCH
    {"bench", cmd_bench, "the seeds' experiments, before vs after, side by side"},
#endif
#ifdef OSSA_HAVE_RENDER
    {"render", cmd_render, "draw skinned characters headless into a PNG or an animated GIF"},
    {"view", cmd_view, "an interactive window: orbit, play, clips, crowd size, CPU/GPU skinning"},
#endif

};

static void usage(FILE *to)
{
    fprintf(to, "usage: ossa COMMAND [options]   (ossa COMMAND --help for its options)\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        fprintf(to, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(to, "\nossa %d.%d.%d - data-oriented skeletal animation\n", OSSA_VERSION_MAJOR,
            OSSA_VERSION_MINOR, OSSA_VERSION_PATCH);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("ossa %d.%d.%d\n", OSSA_VERSION_MAJOR, OSSA_VERSION_MINOR, OSSA_VERSION_PATCH);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; ++i)
        if (strcmp(argv[1], commands[i].name) == 0) {
            cli_set_command(commands[i].name);
            return commands[i].run(argc - 1, argv + 1);
        }
    fprintf(stderr, "ossa: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
