/* harness.c - interleaved timing, medians and reports for the benchmarks. */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int bench_parse_option(int argc, char **argv, int *i, bench_options *o)
{
    const char *a = argv[*i];
    if (cli_is(a, "--frames", NULL))
        return cli_int_arg(argc, argv, i, 0, 10000000, &o->frames) ? 1 : -1;
    if (cli_is(a, "--warmup", NULL))
        return cli_int_arg(argc, argv, i, 0, 1000000, &o->warmup) ? 1 : -1;
    if (cli_is(a, "--threads", "-j"))
        return cli_int_arg(argc, argv, i, 1, 1024, &o->threads) ? 1 : -1;
    if (cli_is(a, "--variant", NULL))
        return cli_string_arg(argc, argv, i, &o->variant) ? 1 : -1;
    if (cli_is(a, "--model", NULL))
        return cli_string_arg(argc, argv, i, &o->model) ? 1 : -1;
    if (cli_is(a, "--cache", NULL)) {
        const char *mode;
        if (!cli_string_arg(argc, argv, i, &mode))
            return -1;
        if (strcmp(mode, "warm") == 0 || strcmp(mode, "cold") == 0) {
            o->cache = mode[0] == 'w' ? BENCH_CACHE_WARM : BENCH_CACHE_COLD;
            return 1;
        }
        cli_error("bench", "--cache %s: expected warm or cold", mode);
        return -1;
    }
    if (cli_is(a, "--list-variants", NULL)) {
        o->list = true;
        return 1;
    }
    if (cli_is(a, "--json", NULL)) {
        o->json = true;
        return 1;
    }
    return 0;
}

const char *bench_common_help(void)
{
    return "  --frames N      timed frames per variant\n"
           "  --warmup N      untimed frames per variant first (default 5)\n"
           "  --variant NAME  run only this variant (for valgrind counts)\n"
           "  --cache warm    time each frame right after 3 untimed ones of the same variant\n"
           "  --cache cold    time each frame after evicting the caches (by touching a\n"
           "                  buffer twice the last-level cache); without --cache a frame\n"
           "                  finds what the other variants' frames left\n"
           "  --list-variants print the variant names\n"
           "  --json          JSON on stdout instead of the table\n";
}

bool bench_selected(const bench_variant *v, const bench_options *o)
{
    return !o->variant || strcmp(o->variant, v->name) == 0;
}

static bool selected(const bench_variant *v, const bench_options *o)
{
    return bench_selected(v, o);
}

/* Size of the largest CPU cache Linux reports for cpu0 (sysfs, which unlike
 * sysconf gives a virtual machine's own view), or 0. */
static size_t largest_cache_bytes(void)
{
    size_t largest = 0;
    for (int index = 0; index < 8; ++index) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", index);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        unsigned long value = 0;
        char unit = 0;
        if (fscanf(f, "%lu%c", &value, &unit) >= 1) {
            size_t bytes = (size_t)value * (unit == 'K' ? 1024u : unit == 'M' ? 1048576u : 1u);
            largest = bytes > largest ? bytes : largest;
        }
        fclose(f);
    }
    return largest;
}

size_t bench_eviction_bytes(void)
{
    const size_t floor_bytes = (size_t)64 << 20;
    const size_t twice = 2 * largest_cache_bytes();
    return twice > floor_bytes ? twice : floor_bytes;
}

/* Reads and writes one byte of every cache line: the lines come into the
 * caches and push out whatever a variant left there. (A memset could use
 * streaming stores, which bypass the caches.) */
static void evict(unsigned char *buffer, size_t bytes)
{
    for (size_t i = 0; i < bytes; i += 64)
        buffer[i] = (unsigned char)(buffer[i] + 1u);
    bench_consume(buffer, bytes);
}

int bench_run(bench_variant *variants, int count, const bench_options *o)
{
    if (o->list) {
        for (int v = 0; v < count; ++v)
            printf("%s\n", variants[v].name);
        return 0;
    }
    int chosen = 0;
    for (int v = 0; v < count; ++v) {
        variants[v].frames_run = 0;
        variants[v].median_ns = variants[v].min_ns = 0.0;
        chosen += selected(&variants[v], o);
    }
    if (chosen == 0) {
        fprintf(stderr, "ossa bench: no variant named '%s'; the variants are:", o->variant);
        for (int v = 0; v < count; ++v)
            fprintf(stderr, " %s", variants[v].name);
        fputc('\n', stderr);
        return 0;
    }
    const int frames = o->frames;
    const size_t evict_bytes = o->cache == BENCH_CACHE_COLD ? bench_eviction_bytes() : 0;
    unsigned char *evict_buffer = evict_bytes ? calloc(evict_bytes, 1) : NULL;
    if (evict_bytes && !evict_buffer) {
        fprintf(stderr, "ossa bench: out of memory (%zu bytes to evict the caches)\n",
                evict_bytes);
        exit(1);
    }
    double **samples = calloc((size_t)count, sizeof *samples);
    int *order = malloc(sizeof *order * (size_t)count);
    bool fits = samples && order;
    for (int v = 0; fits && v < count; ++v)
        fits = (samples[v] = malloc(sizeof(double) * (size_t)(frames > 0 ? frames : 1))) != NULL;
    if (!fits) {
        fprintf(stderr, "ossa bench: out of memory (the timings of %d variants x %d frames)\n",
                count, frames);
        exit(1);
    }
    for (int w = 0; w < o->warmup && frames > 0; ++w)
        for (int v = 0; v < count; ++v)
            if (selected(&variants[v], o))
                variants[v].run(variants[v].context);
    cli_progress progress;
    if (!o->json && frames > 0)
        cli_progress_begin(&progress, "frames", frames);
    /* each round runs the variants in a new order (a shuffle from a fixed
     * seed, the same every run): what one variant leaves in the caches, or
     * in the core's clock after a heavy one, then weighs on all alike
     * instead of always on the one that follows it */
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    for (int f = 0; f < frames; ++f) {
        for (int i = 0; i < count; ++i)
            order[i] = i;
        for (int i = count - 1; i > 0; --i) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            const int k = (int)((seed >> 33) % (uint64_t)(i + 1));
            const int t = order[i];
            order[i] = order[k];
            order[k] = t;
        }
        for (int i = 0; i < count; ++i) {
            const int v = order[i];
            if (!selected(&variants[v], o))
                continue;
            if (o->cache == BENCH_CACHE_WARM)
                for (int k = 0; k < BENCH_WARM_FRAMES; ++k)
                    variants[v].run(variants[v].context);
            else if (evict_buffer)
                evict(evict_buffer, evict_bytes);
            uint64_t t0 = cli_now_ns();
            variants[v].run(variants[v].context);
            samples[v][f] = (double)(cli_now_ns() - t0);
        }
        if (!o->json)
            cli_progress_step(&progress, f + 1);
    }
    if (!o->json && frames > 0)
        cli_progress_end(&progress);
    for (int v = 0; v < count; ++v) {
        if (!selected(&variants[v], o))
            continue;
        variants[v].frames_run = frames;
        variants[v].median_ns = cli_median(samples[v], (size_t)frames);
        variants[v].min_ns = frames > 0 ? samples[v][0] : 0.0; /* sorted by the median */
    }
    for (int v = 0; v < count; ++v)
        free(samples[v]);
    free(samples);
    free(order);
    free(evict_buffer);
    return chosen;
}

static const char *const cache_names[BENCH_CACHE_COUNT] = {"as-is", "warm", "cold"};

static void print_json_string(const char *s)
{
    putchar('"');
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", *s);
        else
            putchar(*s);
    }
    putchar('"');
}

void bench_print(const bench_report *r, const bench_variant *variants, int count,
                 const bench_options *o)
{
    const bench_variant *base = &variants[r->baseline];
    const bool have_base = base->frames_run > 0 && base->median_ns > 0.0;
    if (o->json) {
        printf("{\"title\": ");
        print_json_string(r->title);
        printf(", \"element\": ");
        print_json_string(r->element);
        printf(", \"elements_per_frame\": %.0f, \"frames\": %d, \"cache\": \"%s\", "
               "\"variants\": [",
               r->elements_per_frame, o->frames, cache_names[o->cache]);
        int first = 1;
        for (int v = 0; v < count; ++v) {
            const bench_variant *x = &variants[v];
            if (!x->frames_run)
                continue;
            printf("%s\n  {\"name\": ", first ? "" : ",");
            print_json_string(x->name);
            printf(", \"label\": ");
            print_json_string(x->label);
            printf(", \"median_ms\": %.6f, \"min_ms\": %.6f, \"ns_per_%s\": %.4f",
                   x->median_ns * 1e-6, x->min_ns * 1e-6, r->element,
                   x->median_ns / r->elements_per_frame);
            if (have_base)
                printf(", \"speedup_vs_%s\": %.4f", base->name, base->median_ns / x->median_ns);
            if (x->seed_ms >= 0)
                printf(", \"seed_ms\": %.3f", x->seed_ms);
            if (x->bytes_per_element > 0)
                printf(", \"bytes_per_%s\": %.1f", r->element, x->bytes_per_element);
            if (x->flops_per_element > 0)
                printf(", \"flops_per_%s\": %.1f", r->element, x->flops_per_element);
            printf("}");
            first = 0;
        }
        printf("\n]}\n");
        return;
    }
    bool floors = false;
    for (int v = 0; v < count; ++v)
        floors |= variants[v].frames_run &&
                  (variants[v].bytes_per_element > 0 || variants[v].flops_per_element > 0);
    printf("\n%s\n", r->title);
    printf("%-46s %10s %10s %9s %9s", "variant", "median ms", r->element ? "ns/elem" : "",
           "speedup", "seed ms");
    if (floors)
        printf(" %8s %10s", "B/elem", "FLOP/elem");
    putchar('\n');
    for (int v = 0; v < count; ++v) {
        const bench_variant *x = &variants[v];
        if (!x->frames_run)
            continue;
        char speed[32] = "", seed[32] = "", bytes[32] = "", flops[32] = "";
        if (have_base)
            snprintf(speed, sizeof speed, "%.2fx", base->median_ns / x->median_ns);
        if (x->seed_ms >= 0)
            snprintf(seed, sizeof seed, "%.2f", x->seed_ms);
        if (x->bytes_per_element > 0)
            snprintf(bytes, sizeof bytes, "%.0f", x->bytes_per_element);
        if (x->flops_per_element > 0)
            snprintf(flops, sizeof flops, "%.0f", x->flops_per_element);
        printf("%-46s %10.3f %10.3f %9s %9s", x->label, x->median_ns * 1e-6,
               x->median_ns / r->elements_per_frame, speed, seed);
        if (floors)
            printf(" %8s %10s", bytes, flops);
        putchar('\n');
    }
    printf("(median of %d interleaved frames per variant; ns/elem = ns per %s; speedup is "
           "relative to '%s';\n ",
           o->frames, r->element, base->name);
    if (o->cache == BENCH_CACHE_WARM)
        printf("caches warm: each timed frame follows %d untimed ones of the same variant",
               BENCH_WARM_FRAMES);
    else if (o->cache == BENCH_CACHE_COLD)
        printf("caches cold: %zu MiB touched before each timed frame",
               bench_eviction_bytes() >> 20);
    else
        printf("caches as the previous variant's frame left them, the variants in a new\n"
               " order each round (--cache warm|cold to fix)");
    if (floors)
        printf(";\n B/elem = bytes read + written per %s, FLOP/elem = arithmetic per %s",
               r->element, r->element);
    if (r->seed_note)
        printf(";\n seed figures: %s", r->seed_note);
    printf(")\n");
    if (r->note)
        printf("%s\n", r->note);
}

void bench_consume(const void *p, size_t bytes)
{
    /* An opaque read the optimiser cannot see through. */
    static volatile unsigned char sink;
    const unsigned char *c = (const unsigned char *)p;
    if (bytes)
        sink = (unsigned char)(sink ^ c[0] ^ c[bytes - 1]);
}

void bench_print_groups(const char *bench, const bench_group *groups, int group_count,
                        const bench_variant *variants, const bench_options *o)
{
    int printed = 0;
    if (o->json) {
        printf("{\"bench\": ");
        print_json_string(bench);
        printf(", \"groups\": [\n");
    }
    for (int g = 0; g < group_count; ++g) {
        int ran = 0;
        for (int v = 0; v < groups[g].count; ++v)
            ran |= variants[groups[g].first + v].frames_run > 0;
        if (!ran)
            continue;
        if (o->json && printed)
            printf(",");
        bench_print(&groups[g].report, variants + groups[g].first, groups[g].count, o);
        ++printed;
    }
    if (o->json)
        printf("]}\n");
}

void bench_bandwidth(size_t bytes, double *read_gbps, double *write_gbps)
{
    /* The C library's memchr and memset pick the widest loads and stores
     * this CPU has; memchr scanning zeros for a byte that is not there reads
     * every byte. */
    bytes = bytes < 4096 ? 4096 : (bytes + 63) / 64 * 64;
    unsigned char *p = cli_alloc(bytes);
    memset(p, 0, bytes);
    int passes = (int)(2e9 / (double)bytes); /* ~50 ms of each, 5 .. 200 passes */
    passes = passes < 5 ? 5 : (passes > 200 ? 200 : passes);
    double *r = malloc(sizeof(double) * (size_t)passes);
    double *w = malloc(sizeof(double) * (size_t)passes);
    for (int i = 0; i < passes; ++i) {
        uint64_t t0 = cli_now_ns();
        const void *found = memchr(p, 1, bytes);
        uint64_t t1 = cli_now_ns();
        memset(p, 0, bytes);
        uint64_t t2 = cli_now_ns();
        bench_consume(&found, sizeof found);
        r[i] = (double)bytes / (double)(t1 - t0);
        w[i] = (double)bytes / (double)(t2 - t1);
    }
    *read_gbps = cli_median(r, (size_t)passes);
    *write_gbps = cli_median(w, (size_t)passes);
    free(r);
    free(w);
    cli_free(p);
}
