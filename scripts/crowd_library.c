/* crowd_library.c - a crowd on a clip library, for instruction counts of
 * its frame under callgrind (scripts/crowd_library_counts.sh builds and runs
 * it): the clips of a blob copied into `clips` separate allocations (clip k
 * a copy of clip k mod the blob's count - each copy is its own memory, so
 * a batch whose lanes play copies samples several clips), `characters`
 * characters each blending clip a (chosen by a hash of its index) with clip
 * a + 1 at a weight of its own, nothing skinned; then `frames` frames of
 * ossa_crowd_begin_frame, ossa_crowd_update over every batch and
 * ossa_crowd_end_frame, `changes` characters a frame given new clips first.
 * Prints the median update time and the slot swaps of the clip order a frame
 * (ossa_crowd_stats.reordered, the first frame's left out).
 *
 *   crowd_library BLOB [clips 256] [characters 1000] [frames 20] [changes 0] */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ossa/crowd.h"
#include "ossa/ossa.h"

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int by_value(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b;
}

static void *aligned(size_t bytes)
{
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (!p) {
        fprintf(stderr, "crowd_library: out of memory\n");
        exit(1);
    }
    return p;
}

static int arg(int argc, char **argv, int i, int fallback)
{
    return argc > i ? atoi(argv[i]) : fallback;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: crowd_library BLOB [clips] [characters] [frames] [changes]\n");
        return 2;
    }
    const int clip_count = arg(argc, argv, 2, 256), characters = arg(argc, argv, 3, 1000);
    const int frames = arg(argc, argv, 4, 20), changes = arg(argc, argv, 5, 0);
    if (clip_count < 1 || clip_count > 65535 || characters < 1 || frames < 1 || changes < 0) {
        fprintf(stderr, "crowd_library: a count out of range\n");
        return 2;
    }
    size_t bytes;
    ossa_error e;
    ossa_blob blob;
    if (ossa_blob_file_bytes(argv[1], &bytes, &e) != OSSA_OK ||
        ossa_blob_file_read(&blob, argv[1], aligned(bytes), bytes, 0, &e) != OSSA_OK) {
        fprintf(stderr, "crowd_library: %s\n", e.message);
        return 1;
    }
    if (!blob.skeleton || blob.clip_count < 1) {
        fprintf(stderr, "crowd_library: %s holds no skeleton or no clip\n", argv[1]);
        return 1;
    }
    const ossa_clip **clips = malloc(sizeof *clips * (size_t)clip_count);
    ossa_entity *entity = malloc(sizeof *entity * (size_t)characters);
    double *ms = malloc(sizeof *ms * (size_t)frames);
    if (!clips || !entity || !ms)
        return 1;
    for (int k = 0; k < clip_count; ++k) {
        const ossa_clip *from = ossa_blob_clip(&blob, k % blob.clip_count);
        void *to = aligned(ossa_clip_bytes(from));
        memcpy(to, from, ossa_clip_bytes(from));
        clips[k] = to;
    }
    ossa_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.skeleton = blob.skeleton;
    d.clips = clips;
    d.clip_count = clip_count;
    d.capacity = characters;
    const size_t crowd_bytes = ossa_crowd_size(&d);
    ossa_crowd *crowd;
    if (!crowd_bytes || ossa_crowd_init(&crowd, aligned(crowd_bytes), crowd_bytes, &d) != OSSA_OK) {
        fprintf(stderr, "crowd_library: the crowd's description is refused\n");
        return 1;
    }
    for (int i = 0; i < characters; ++i) {
        ossa_character_desc c;
        memset(&c, 0, sizeof c);
        c.clip_a = (int)(hash((uint32_t)i * 5u + 11u) % (uint32_t)clip_count);
        c.clip_b = (c.clip_a + 1) % clip_count;
        c.weight_b = (float)(hash((uint32_t)i * 7u + 3u) % 9999u + 1u) * 1e-4f;
        c.time_s = (float)(hash((uint32_t)i * 3u + 2u) % 1000u) * 1e-3f;
        c.position.x = (float)(i % 40);
        c.position.z = (float)(i / 40);
        if (ossa_crowd_spawn(crowd, &c, &entity[i]) != OSSA_OK) {
            fprintf(stderr, "crowd_library: character %d refused\n", i);
            return 1;
        }
    }
    const size_t scratch_bytes = ossa_crowd_scratch_size(crowd);
    void *scratch = aligned(scratch_bytes);
    double swaps = 0.0;
    for (int f = 0; f < frames; ++f) {
        for (int k = 0; k < changes; ++k) {
            const uint32_t r = hash((uint32_t)f * 1000u + (uint32_t)k * 7u + 5u);
            const int a = (int)(r % (uint32_t)clip_count);
            ossa_crowd_set_clips(crowd, entity[hash(r) % (uint32_t)characters], a,
                                 (a + 1) % clip_count, 0.5f);
        }
        ossa_crowd_begin_frame(crowd, 1.0f / 30.0f, NULL);
        if (f)
            swaps += ossa_crowd_get_stats(crowd).reordered;
        const double t0 = now_ms();
        ossa_crowd_update(crowd, 0, 0, scratch, scratch_bytes);
        ms[f] = now_ms() - t0;
        ossa_crowd_end_frame(crowd);
    }
    qsort(ms, (size_t)frames, sizeof *ms, by_value);
    printf("%d characters over %d clips, %d changing clips a frame: update %.3f ms (median of "
           "%d), %.1f swaps a frame\n",
           characters, clip_count, changes, ms[frames / 2], frames,
           frames > 1 ? swaps / (frames - 1) : 0.0);
    return 0;
}
