/* commands.h - the ossa tool's commands. Each takes (argc, argv) with argv[0]
 * its own name and returns an exit code. */
#ifndef OSSA_COMMANDS_H
#define OSSA_COMMANDS_H

int cmd_demo(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_view(int argc, char **argv);

#endif /* OSSA_COMMANDS_H */
