/* crowd_runner.c - see crowd_runner.h. */
#include "crowd_runner.h"

#include <string.h>

#include "cli.h"

#ifdef _OPENMP
#include <omp.h>
#define THREAD_ID() omp_get_thread_num()
#else
#define THREAD_ID() 0
#endif

/* The crowd's stage hook: the time since the last call goes to the stage
 * that was running. */
static void on_stage(void *user, ossa_crowd_stage stage)
{
    runner_thread *t = &((crowd_runner *)user)->thread[THREAD_ID()];
    const uint64_t now = cli_now_ns();
    if (t->current < RUN_STAGES)
        t->ns[t->current] += (double)(now - t->last_ns);
    t->current = stage == OSSA_CROWD_STAGE_DONE ? RUN_STAGES : (int)stage;
    t->last_ns = now;
}

int crowd_runner_init(crowd_runner *r, ossa_crowd *crowd, const ossa_mesh *mesh,
                      int skinned_capacity, ossa_skin_format format, int threads)
{
    memset(r, 0, sizeof *r);
    r->crowd = crowd;
    r->mesh = mesh;
    r->stream_output = true;
    r->threads = threads < 1 ? 1 : threads > RUNNER_MAX_THREADS ? RUNNER_MAX_THREADS : threads;
    r->scratch_bytes = ossa_crowd_scratch_size(crowd);
    for (int t = 0; t < r->threads; ++t)
        r->scratch[t] = cli_alloc(r->scratch_bytes);
    r->format = format;
    if (mesh && skinned_capacity > 0) {
        if (ossa_skin_output_bytes(mesh, format) == 0)
            return 0;
        r->skin_mesh = mesh;
        r->stream_bytes = (ossa_skin_output_bytes(mesh, format) + 63) / 64 * 64;
        r->stream_capacity = (ossa_skin_output_bytes(mesh, OSSA_SKIN_FORMAT_FLOAT4) + 63) / 64 * 64;
        r->stream_count = skinned_capacity;
        r->streams = cli_alloc(r->stream_capacity * (size_t)skinned_capacity);
        memset(r->streams, 0, r->stream_capacity * (size_t)skinned_capacity);
    }
    return 1;
}

void crowd_runner_fini(crowd_runner *r)
{
    if (r->crowd)
        ossa_crowd_set_stage_hook(r->crowd, NULL, NULL);
    for (int t = 0; t < RUNNER_MAX_THREADS; ++t)
        cli_free(r->scratch[t]);
    cli_free(r->streams);
    memset(r, 0, sizeof *r);
}

ossa_result crowd_runner_frame(crowd_runner *r, float dt_s)
{
    const uint64_t t0 = cli_now_ns();
    ossa_crowd_set_stage_hook(r->crowd, r->timed ? on_stage : NULL, r);
    ossa_result result = ossa_crowd_begin_frame(r->crowd, dt_s, &r->batches);
    if (result != OSSA_OK)
        return result;
    r->skinned = r->stream_count ? ossa_crowd_skinned_count(r->crowd) : 0;
    ossa_crowd_skin_output out = {0};
    if (r->stream_count) {
        const size_t bytes = ossa_skin_output_bytes(r->skin_mesh, r->format);
        if (bytes == 0 || bytes > r->stream_capacity)
            return OSSA_ERR_BAD_ARGUMENT;
        r->stream_bytes = (bytes + 63) / 64 * 64;
        out.vertices = r->streams;
        out.vertices_bytes = r->stream_bytes * (size_t)r->stream_count;
        out.character_stride = r->stream_bytes;
        out.format = r->format;
        out.path = r->skin_path;
        out.stream_output = r->stream_output;
    }
    if ((result = ossa_crowd_set_skin_output(r->crowd, &out)) != OSSA_OK)
        return result;
    for (int t = 0; t < r->threads; ++t) {
        memset(r->thread[t].ns, 0, sizeof r->thread[t].ns);
        r->thread[t].current = RUN_STAGES;
        r->thread[t].result = OSSA_OK;
    }
    /* tasks of the crowd's batches per task (its locomotion jobs run once
     * per task), handed out one at a time */
    const int batches = r->batches, per = ossa_crowd_task_batches(r->crowd);
    const int tasks = (batches + per - 1) / per;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(r->threads)
#endif
    for (int k = 0; k < tasks; ++k) {
        runner_thread *t = &r->thread[THREAD_ID()];
        const int b = k * per, e = b + per < batches ? b + per : batches;
        const ossa_result u =
            ossa_crowd_update(r->crowd, b, e, r->scratch[THREAD_ID()], r->scratch_bytes);
        if (u != OSSA_OK && t->result == OSSA_OK)
            t->result = u;
    }
    for (int t = 0; t < r->threads && result == OSSA_OK; ++t)
        result = r->thread[t].result;
    if (result == OSSA_OK)
        result = ossa_crowd_end_frame(r->crowd);
    r->frame_ns = (double)(cli_now_ns() - t0);
    return result;
}

const void *crowd_runner_stream(const crowd_runner *r, int slot)
{
    return r->streams + (size_t)slot * r->stream_bytes;
}

double crowd_runner_stage_ns(const crowd_runner *r, int stage)
{
    double ns = 0;
    for (int t = 0; t < r->threads; ++t)
        ns += r->thread[t].ns[stage];
    return ns;
}
