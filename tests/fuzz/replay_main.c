/* replay_main.c - runs a fuzz target over every file of a corpus folder, so
 * the corpus is a regression test under CTest (and under the sanitizers). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    /* An exact-size heap copy, so reading one byte past it is an ASan error. */
    uint8_t *data = malloc(n > 0 ? (size_t)n : 1);
    size_t got = n > 0 ? fread(data, 1, (size_t)n, f) : 0;
    fclose(f);
    LLVMFuzzerTestOneInput(data, got);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int files = 0, failures = 0;
    for (int a = 1; a < argc; ++a) {
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            failures += run_file(argv[a]);
            ++files;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            failures += run_file(path);
            ++files;
        }
        closedir(dir);
    }
    fprintf(stderr, "replayed %d inputs\n", files);
    return failures || files == 0;
}
