/* cmd_bench.c - `ossa bench NAME`: the seeds' experiments side by side. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"

static void help(FILE *to)
{
    int count;
    const ossa_bench_entry *list = ossa_bench_list(&count);
    fprintf(to,
            "usage: ossa bench NAME [options]   (ossa bench NAME --help for its options)\n"
            "\n"
            "Runs one of the seeds' experiments: the naive 'before' version and the\n"
            "data-oriented ones, interleaved in one run, medians of many frames.\n\n");
    for (int i = 0; i < count; ++i)
        fprintf(to, "  %-10s %s\n", list[i].name, list[i].summary);
}

int cmd_bench(int argc, char **argv)
{
    if (argc < 2 || cli_is(argv[1], "--help", "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    int count;
    const ossa_bench_entry *list = ossa_bench_list(&count);
    for (int i = 0; i < count; ++i)
        if (strcmp(argv[1], list[i].name) == 0)
            return list[i].run(argc - 1, argv + 1);
    cli_error("bench", "unknown benchmark '%s'", argv[1]);
    help(stderr);
    return 2;
}
