/* tool_run.c - see tool_run.h. */
#define _POSIX_C_SOURCE 200809L
#include "tool_run.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_support.h"

extern char **environ;

static void read_file(const char *path, char *to, size_t bytes)
{
    to[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    const size_t n = fread(to, 1, bytes - 1, f);
    to[n] = '\0';
    fclose(f);
}

/* Environment for the child: ours without the `unset` names, plus `set`. */
static char **child_environment(const char *const *set, const char *const *unset)
{
    size_t n = 0;
    while (environ[n])
        ++n;
    char **env = calloc(n + 16, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        bool drop = false;
        for (const char *const *u = unset; u && *u; ++u)
            drop |= strncmp(environ[i], *u, strlen(*u)) == 0 && environ[i][strlen(*u)] == '=';
        for (const char *const *s = set; s && *s; ++s) {
            const size_t name = strcspn(*s, "=");
            drop |= strncmp(environ[i], *s, name + 1) == 0;
        }
        if (!drop)
            env[k++] = environ[i];
    }
    for (const char *const *s = set; s && *s && k < n + 15; ++s)
        env[k++] = (char *)*s;
    return env;
}

void ts_run(const char *const *argv, const char *const *set, const char *const *unset,
            const char *cwd, ts_run_result *r)
{
    static int serial;
    char out_path[512], err_path[512];
    snprintf(out_path, sizeof out_path, "%s/run%d.out", ts_temp_dir(), serial);
    snprintf(err_path, sizeof err_path, "%s/run%d.err", ts_temp_dir(), serial++);
    char **env = child_environment(set, unset);
#ifdef OSSA_TEST_EMULATOR
    /* The tool was built for another machine: run it through the emulator,
     * whose words ("qemu-aarch64 -L /usr/...") go in front. */
    char emulator[] = OSSA_TEST_EMULATOR;
    const char *line[64];
    int n = 0;
    for (char *word = strtok(emulator, " "); word && n < 32; word = strtok(NULL, " "))
        line[n++] = word;
    for (int i = 0; argv[i] && n < 63; ++i)
        line[n++] = argv[i];
    line[n] = NULL;
    argv = line;
#endif
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        const int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || (cwd && chdir(cwd)))
            _exit(126);
        execve(argv[0], (char *const *)argv, env);
        _exit(127);
    }
    free(env);
    int status = 0;
    waitpid(pid, &status, 0);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    read_file(out_path, r->out, sizeof r->out);
    read_file(err_path, r->err, sizeof r->err);
    remove(out_path);
    remove(err_path);
}

int ts_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; ++p)
        n += *p == '\n';
    return n;
}

int ts_files_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

uint64_t ts_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
