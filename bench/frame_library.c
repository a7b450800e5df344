/* frame_library.c - see frame_library.h. */
#include "frame_library.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ossa/pipeline.h"

/* Keys for clip sampled at each of its frames, phase_s later (wrapped as
 * the loop does; 0: the clip's own frames), at the clip's rate: LINEAR keys,
 * so a clip built from them has these samples as its frames (within its
 * tolerance when compressed). Both kinds are built from the same keys where
 * asked (out[kind] != NULL). Returns 0 after saying why. */
static int build_kinds(const ossa_clip *clip, const ossa_skeleton *skeleton, float phase_s,
                       ossa_clip **out[LIB_KINDS])
{
    const int frames = ossa_clip_frame_count(clip), joints = ossa_skeleton_joint_count(skeleton);
    const float duration = ossa_clip_duration(clip);
    const ossa_transform *rest = ossa_skeleton_rest_pose(skeleton);
    float *times = cli_alloc(sizeof(float) * (size_t)frames);
    ossa_float3 *t = cli_alloc(sizeof *t * (size_t)frames * (size_t)joints);
    ossa_float3 *s = cli_alloc(sizeof *s * (size_t)frames * (size_t)joints);
    ossa_quat *r = cli_alloc(sizeof *r * (size_t)frames * (size_t)joints);
    ossa_raw_joint_track *tracks = cli_alloc(sizeof *tracks * (size_t)joints);
    for (int f = 0; f < frames; ++f)
        times[f] = frames > 1 ? duration * (float)f / (float)(frames - 1) : 0.0f;
    for (int j = 0; j < joints; ++j) {
        const size_t at = (size_t)j * (size_t)frames;
        for (int f = 0; f < frames; ++f) {
            const float when = phase_s > 0.0f
                                   ? ossa_clip_time(OSSA_WRAP_LOOP, duration, times[f] + phase_s)
                                   : times[f];
            const ossa_transform x =
                ossa_clip_sample_joint(clip, rest, j, when, OSSA_ROTATION_NLERP);
            t[at + (size_t)f] = x.translation;
            r[at + (size_t)f] = x.rotation;
            s[at + (size_t)f] = x.scale;
        }
        memset(&tracks[j], 0, sizeof tracks[j]);
        tracks[j].joint_name = ossa_skeleton_joint_name(skeleton, j);
        tracks[j].translation = (ossa_raw_track3){times, t + at, NULL, NULL, frames, OSSA_INTERP_LINEAR};
        tracks[j].rotation = (ossa_raw_track_quat){times, r + at, NULL, NULL, frames, OSSA_INTERP_LINEAR};
        tracks[j].scale = (ossa_raw_track3){times, s + at, NULL, NULL, frames, OSSA_INTERP_LINEAR};
    }
    ossa_raw_clip rc = {ossa_clip_name(clip), duration, tracks, joints};
    int ok = 1;
    for (int kind = 0; ok && kind < LIB_KINDS; ++kind) {
        if (!out[kind])
            continue;
        ossa_clip_build_options o = {0};
        o.rate = ossa_clip_rate(clip);
        o.raw = kind == LIB_RAW;
        ossa_error e;
        if (ossa_clip_build(&rc, skeleton, &o, out[kind], NULL, &e) != OSSA_OK) {
            cli_error("bench frame", "building a %s copy of clip '%s': %s",
                      kind == LIB_RAW ? "raw" : "compressed", ossa_clip_name(clip), e.message);
            ok = 0;
        }
    }
    cli_free(times);
    cli_free(t);
    cli_free(s);
    cli_free(r);
    cli_free(tracks);
    return ok;
}

/* clip into its own 64-byte-aligned allocation (clips start on a line) */
static void *place(const ossa_clip *clip, size_t *bytes)
{
    const size_t n = ossa_clip_bytes(clip);
    void *to = cli_alloc((n + 63) / 64 * 64);
    memcpy(to, clip, n);
    *bytes += n;
    return to;
}

static void view_of(frame_character *view, const frame_character *c, const ossa_clip **clips,
                    int count, const char *what)
{
    *view = *c;
    view->clips = clips;
    view->clip_count = count;
    view->blob_data = NULL;
    view->blob_bytes = 0;
    snprintf(view->description, sizeof view->description, "%.180s, %d %s clips", c->description,
             count, what);
}

int frame_library_build(frame_library *lib, const frame_character *c, int count)
{
    memset(lib, 0, sizeof *lib);
    const int k = c->clip_count;
    if (k > 64) {
        cli_error("bench frame", "--clips: the character has %d clips, at most 64 are used", k);
        return 0;
    }
    lib->count = count;
    lib->base_count = k;
    const uint64_t start = cli_now_ns();
    /* the character's clips in both kinds */
    for (int i = 0; i < k; ++i) {
        const ossa_clip *clip = c->clips[i];
        const int kind = ossa_clip_is_compressed(clip) ? LIB_PACKED : LIB_RAW, other = 1 - kind;
        ossa_clip **out[LIB_KINDS] = {NULL, NULL};
        out[other] = &lib->built[other][i];
        lib->base[kind][i] = clip;
        if (!build_kinds(clip, c->skeleton, 0.0f, out)) {
            frame_library_free(lib);
            return 0;
        }
        lib->base[other][i] = lib->built[other][i];
    }
    static const char *const names[LIB_KINDS] = {"raw", "compressed"};
    const ossa_clip **clips[LIB_KINDS];
    for (int kind = 0; kind < LIB_KINDS; ++kind) {
        clips[kind] = cli_alloc(sizeof *clips[kind] * (size_t)count);
        lib->copies[kind] = cli_alloc(sizeof(void *) * (size_t)count);
        memset(lib->copies[kind], 0, sizeof(void *) * (size_t)count);
    }
    /* clip i: the character's clip i mod k; from the second round r = i / k
     * on, played from a phase of frac(r x 0.618...) of its duration (the
     * golden ratio's fraction: no two rounds alike), so that every clip is
     * different keys; both kinds built from the same keys. The builds are
     * independent and take most of the bench's set-up (seconds a clip), so
     * they run on every core OpenMP is given (with `taskset -c 1`, one);
     * the clips are then placed in clip order, one allocation each, so
     * that where they sit does not depend on the threads. */
    ossa_clip *(*variant)[LIB_KINDS] = cli_alloc(sizeof *variant * (size_t)count);
    memset(variant, 0, sizeof *variant * (size_t)count);
    int failed = 0;
    long done = 0;
    cli_progress progress;
    if (count > k)
        cli_progress_begin(&progress, "building the clip library", count - k);
#pragma omp parallel for schedule(dynamic, 1)
    for (int i = k; i < count; ++i) {
        int stop;
#pragma omp atomic read
        stop = failed;
        if (stop)
            continue;
        double phase = 0.6180339887498949 * (i / k);
        phase -= (double)(long)phase;
        const ossa_clip *from = lib->base[LIB_RAW][i % k];
        ossa_clip **out[LIB_KINDS] = {&variant[i][LIB_RAW], &variant[i][LIB_PACKED]};
        if (!build_kinds(from, c->skeleton, (float)phase * ossa_clip_duration(from), out)) {
#pragma omp atomic write
            failed = 1;
        }
#pragma omp critical(frame_library_progress)
        cli_progress_step(&progress, ++done);
    }
    if (count > k)
        cli_progress_end(&progress);
    for (int i = 0; i < count; ++i)
        for (int kind = 0; kind < LIB_KINDS; ++kind) {
            const ossa_clip *clip = i < k ? lib->base[kind][i] : variant[i][kind];
            if (!failed) {
                lib->copies[kind][i] = place(clip, &lib->bytes[kind]);
                clips[kind][i] = lib->copies[kind][i];
            }
            if (i >= k)
                ossa_clip_free(variant[i][kind], NULL);
        }
    cli_free(variant);
    if (failed) {
        for (int kind = 0; kind < LIB_KINDS; ++kind)
            lib->view[kind].clips = clips[kind];
        frame_library_free(lib);
        return 0;
    }
    lib->seconds_built = (double)(cli_now_ns() - start) * 1e-9;
    for (int kind = 0; kind < LIB_KINDS; ++kind) {
        view_of(&lib->view[kind], c, clips[kind], count, names[kind]);
        view_of(&lib->base_view[kind], c, lib->base[kind], k, names[kind]);
    }
    return 1;
}

void frame_library_free(frame_library *lib)
{
    for (int kind = 0; kind < LIB_KINDS; ++kind) {
        for (int i = 0; i < 64; ++i)
            ossa_clip_free(lib->built[kind][i], NULL);
        for (int i = 0; lib->copies[kind] && i < lib->count; ++i)
            cli_free(lib->copies[kind][i]);
        cli_free(lib->copies[kind]);
        cli_free((void *)lib->view[kind].clips);
    }
    memset(lib, 0, sizeof *lib);
}

double frame_library_touched(const frame_scene *s, double *per_sample)
{
    const frame_character *c = s->character;
    /* a bitmap of 64-byte lines per clip */
    size_t *first = cli_alloc(sizeof(size_t) * ((size_t)c->clip_count + 1));
    size_t lines = 0;
    for (int k = 0; k < c->clip_count; ++k) {
        first[k] = lines;
        lines += (ossa_clip_bytes(c->clips[k]) + 63) / 64;
    }
    unsigned char *seen = cli_alloc(lines + 1);
    memset(seen, 0, lines + 1);
    double touched = 0.0, read = 0.0;
    for (int i = 0; i < s->characters; ++i)
        for (int second = 0; second < 2; ++second) {
            const int k = second ? s->clip_b[i] : s->clip_a[i];
            const ossa_clip *clip = c->clips[k];
            const float t = ossa_clip_time(OSSA_WRAP_LOOP, ossa_clip_duration(clip),
                                           second ? s->time_b[i] : s->time_a[i]);
            size_t begin[OSSA_CLIP_SAMPLE_RANGES], end[OSSA_CLIP_SAMPLE_RANGES];
            const int n = ossa_clip_sample_ranges(clip, t, begin, end, OSSA_CLIP_SAMPLE_RANGES);
            for (int r = 0; r < n; ++r) {
                read += (double)(end[r] - begin[r]);
                for (size_t line = begin[r] / 64; line <= (end[r] - 1) / 64; ++line)
                    if (!seen[first[k] + line]) {
                        seen[first[k] + line] = 1;
                        touched += 64.0;
                    }
            }
        }
    *per_sample = read / (2.0 * s->characters);
    cli_free(seen);
    cli_free(first);
    return touched;
}
