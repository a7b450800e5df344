/* step_count.c - instructions one function executes, counted exactly by
 * single-stepping it under ptrace (x86-64 Linux): for AVX-512 code, which
 * valgrind does not run. Built and run by scripts/step_counts.sh.
 *
 *   step_count OUT FUNCTION_OFFSET CALLS PROGRAM [ARGS...]
 *
 * Runs PROGRAM until it has entered the function at FUNCTION_OFFSET (hex,
 * from the executable's load address, as nm prints it) CALLS times, counts
 * every instruction from each entry to its return (callees included), and
 * writes to OUT one line "offset count" per instruction address (offsets
 * from the load address; callees outside the executable are counted in the
 * total only). Prints "calls N instructions M" on stderr. Slow: a system
 * call per instruction. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* The load address of the executable at path in process pid. */
static uint64_t load_address(pid_t pid, const char *path)
{
    char maps[64], line[PATH_MAX + 128];
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    FILE *f = fopen(maps, "r");
    uint64_t base = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, path)) {
            base = strtoull(line, NULL, 16);
            break;
        }
    if (f)
        fclose(f);
    return base;
}

static void fail(const char *what)
{
    fprintf(stderr, "step_count: %s: %s\n", what, strerror(errno));
    exit(1);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: step_count OUT FUNCTION_OFFSET CALLS PROGRAM [ARGS...]\n");
        return 2;
    }
    const uint64_t offset = strtoull(argv[2], NULL, 16);
    const long max_calls = atol(argv[3]);
    char path[PATH_MAX];
    if (!realpath(argv[4], path))
        fail(argv[4]);
    const pid_t pid = fork();
    if (pid < 0)
        fail("fork");
    if (pid == 0) {
        ptrace(PTRACE_TRACEME, 0, 0, 0);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        execv(path, argv + 4);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0); /* stopped at its exec */
    if (!WIFSTOPPED(status))
        fail("the program did not start");
    const uint64_t base = load_address(pid, path), entry = base + offset;
    errno = 0;
    const long original = ptrace(PTRACE_PEEKTEXT, pid, (void *)entry, 0);
    if (errno)
        fail("reading the function's first bytes");
    const long trap = (original & ~0xFFL) | 0xCC;
    if (ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)trap))
        fail("setting the breakpoint");
    /* a histogram over the 16 MiB after the load address */
    const uint64_t span = 1u << 24;
    uint64_t *count = calloc(span, sizeof *count);
    if (!count)
        fail("memory");
    long calls = 0;
    uint64_t total = 0;
    int signal_to_pass = 0;
    while (calls < max_calls) {
        ptrace(PTRACE_CONT, pid, 0, (void *)(long)signal_to_pass);
        signal_to_pass = 0;
        waitpid(pid, &status, 0);
        if (WIFEXITED(status) || WIFSIGNALED(status))
            break;
        struct user_regs_struct r;
        ptrace(PTRACE_GETREGS, pid, 0, &r);
        if (WSTOPSIG(status) != SIGTRAP || r.rip != entry + 1) {
            signal_to_pass = WSTOPSIG(status) == SIGTRAP ? 0 : WSTOPSIG(status);
            continue;
        }
        /* at the entry: undo the trap, step to the return */
        r.rip = entry;
        ptrace(PTRACE_SETREGS, pid, 0, &r);
        ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)original);
        const uint64_t sp = r.rsp;
        for (;;) {
            ptrace(PTRACE_GETREGS, pid, 0, &r);
            if (r.rsp > sp)
                break; /* returned: its return address popped */
            if (r.rip >= base && r.rip - base < span)
                ++count[r.rip - base];
            ++total;
            ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
            waitpid(pid, &status, 0);
            if (WIFEXITED(status) || WIFSIGNALED(status))
                goto done;
        }
        ++calls;
        ptrace(PTRACE_POKETEXT, pid, (void *)entry, (void *)trap);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
done:;
    FILE *out = fopen(argv[1], "w");
    if (!out)
        fail(argv[1]);
    for (uint64_t i = 0; i < span; ++i)
        if (count[i])
            fprintf(out, "%llx %llu\n", (unsigned long long)i, (unsigned long long)count[i]);
    fclose(out);
    fprintf(stderr, "calls %ld instructions %llu\n", calls, (unsigned long long)total);
    free(count);
    return calls > 0 ? 0 : 1;
}
