/* import_child.c - one input imported in a child process with a wall-clock
 * limit (the parent kills it) and an address-space limit (setrlimit in the
 * child); the child's error message comes back through a pipe. */
#define _POSIX_C_SOURCE 200809L
#include "import_child.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* AddressSanitizer reserves terabytes of address space for its shadow, so
 * an address-space limit would stop every sanitized child at its start. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

enum { EXIT_IMPORTED = 0, EXIT_IMPORT_ERROR = 1, EXIT_OUT_OF_MEMORY = 3 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void write_all(int fd, const char *text)
{
    size_t left = strlen(text);
    while (left > 0) {
        const ssize_t n = write(fd, text, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        text += n;
        left -= (size_t)n;
    }
}

static void child(int fd, const char *path, const ossa_import_options *options,
                  double memory_mib)
{
    if (!UNDER_ASAN) {
        const double bytes = memory_mib * 1048576.0;
        struct rlimit limit;
        limit.rlim_cur = limit.rlim_max =
            bytes >= (double)RLIM_INFINITY ? RLIM_INFINITY : (rlim_t)bytes;
        setrlimit(RLIMIT_AS, &limit);
    }
    ossa_import im;
    ossa_error error;
    const ossa_result r = ossa_import_file(path, options, &im, &error);
    if (r == OSSA_OK) {
        ossa_import_free(&im);
        _exit(EXIT_IMPORTED);
    }
    write_all(fd, error.message);
    /* Out of memory: ours, or assimp's (it reports the C++ exception). */
    const bool memory = r == OSSA_ERR_OUT_OF_MEMORY || strstr(error.message, "bad_alloc");
    _exit(memory ? EXIT_OUT_OF_MEMORY : EXIT_IMPORT_ERROR);
}

/* Reads the child's message until it closes the pipe or the deadline. */
static bool read_message(int fd, double deadline, char *message, size_t size)
{
    size_t used = 0;
    for (;;) {
        const double left = deadline - now_s();
        if (left <= 0.0)
            return false;
        struct pollfd p = {fd, POLLIN, 0};
        const int ready = poll(&p, 1, (int)ceil(fmin(left, 1.0) * 1000.0));
        if (ready < 0 && errno != EINTR)
            return true;
        if (ready <= 0)
            continue;
        char scratch[256];
        char *to = used + 1 < size ? message + used : scratch;
        const size_t room = used + 1 < size ? size - 1 - used : sizeof scratch;
        const ssize_t n = read(fd, to, room);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return true; /* closed: the child is exiting */
        if (to == message + used)
            used += (size_t)n;
    }
}

bool import_child_check(const char *path, const ossa_import_options *options,
                        const import_limits *limits)
{
    const double timeout_s =
        limits && limits->timeout_s > 0.0f ? (double)limits->timeout_s : IMPORT_CHILD_DEFAULT_TIMEOUT_S;
    const double memory_mib = limits && limits->memory_mib > 0.0f
                                  ? (double)limits->memory_mib
                                  : IMPORT_CHILD_DEFAULT_MEMORY_MIB;
    int fds[2];
    if (pipe(fds) != 0)
        return true; /* cannot isolate: the import runs directly */
    fflush(stdout);
    fflush(stderr);
    const double deadline = now_s() + timeout_s;
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return true;
    }
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], path, options, memory_mib);
    }
    close(fds[1]);
    char message[512] = "";
    bool in_time = read_message(fds[0], deadline, message, sizeof message);
    close(fds[0]);
    int status = 0;
    while (in_time) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            break;
        if (now_s() >= deadline) {
            in_time = false;
        } else {
            const struct timespec pause = {0, 2000000};
            nanosleep(&pause, NULL);
        }
    }
    if (!in_time) {
        kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        cli_error("build", "%s: the import took longer than %g s, the limit (--import-timeout "
                           "S raises it): the file is malformed, or very large",
                  path, timeout_s);
        return false;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_IMPORTED)
        return true;
    /* The child's message names the file too: said once. */
    const size_t path_length = strlen(path);
    const char *detail = strncmp(message, path, path_length) == 0 &&
                                 strncmp(message + path_length, ": ", 2) == 0
                             ? message + path_length + 2
                             : message;
    if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_OUT_OF_MEMORY)
        cli_error("build", "%s: the import needed more than %g MiB of memory, the limit "
                           "(--import-memory MIB raises it)%s%s",
                  path, memory_mib, detail[0] ? ": " : "", detail);
    else if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_IMPORT_ERROR && message[0])
        cli_error("build", "%s", message);
    else if (WIFSIGNALED(status))
        cli_error("build", "%s: the importer (assimp) crashed reading it (signal %d): the file "
                           "is malformed or uses something assimp cannot read%s",
                  path, WTERMSIG(status),
                  UNDER_ASAN ? "" : " (or it ran out of memory: --import-memory MIB)");
    else
        cli_error("build", "%s: the importer failed reading it (exit %d)", path,
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return false;
}
