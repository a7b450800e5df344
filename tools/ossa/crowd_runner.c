/* crowd_runner.c - see crowd_runner.h. */
#include "crowd_runner.h"

#include <string.h>

#include "cli.h"

#ifdef _OPENMP
#include <omp.h>
static int thread_id(void)
{
    return omp_get_thread_num();
}
static int thread_count(void)
{
    return omp_get_num_threads();
}
#else
static int thread_id(void)
{
    return 0;
}
static int thread_count(void)
{
    return 1;
}
#endif

/* This thread's share [*begin, *end) of total items; false when empty (a
 * 0, 0 range would mean "all" to the crowd). */
static int share(int total, int *begin, int *end)
{
    const int t = thread_id(), n = thread_count();
    *begin = (int)((int64_t)total * t / n);
    *end = (int)((int64_t)total * (t + 1) / n);
    return *begin < *end;
}

/* The crowd's stage hook: the time since the last call goes to the stage
 * that was running. */
static void on_stage(void *user, ossa_crowd_stage stage)
{
    runner_thread *t = &((crowd_runner *)user)->thread[thread_id()];
    const uint64_t now = cli_now_ns();
    if (t->current < RUN_STAGES)
        t->ns[t->current] += (double)(now - t->last_ns);
    t->current = stage == OSSA_CROWD_STAGE_DONE ? RUN_STAGES : (int)stage;
    t->last_ns = now;
}

int crowd_runner_init(crowd_runner *r, ossa_crowd *crowd, const ossa_mesh *mesh,
                      int skinned_capacity, int threads)
{
    memset(r, 0, sizeof *r);
    r->crowd = crowd;
    r->mesh = mesh;
    r->stream_output = true;
    r->threads = threads < 1 ? 1 : threads > RUNNER_MAX_THREADS ? RUNNER_MAX_THREADS : threads;
    r->scratch_bytes = ossa_crowd_scratch_size(crowd);
    for (int t = 0; t < r->threads; ++t)
        r->scratch[t] = cli_alloc(r->scratch_bytes);
    if (mesh && skinned_capacity > 0) {
        r->stream_bytes = (size_t)ossa_mesh_vertex_count(mesh) *
                          (size_t)ossa_mesh_skinned_stride(mesh);
        r->stream_bytes = (r->stream_bytes + 63) / 64 * 64;
        r->stream_count = skinned_capacity;
        r->streams = cli_alloc(r->stream_bytes * (size_t)skinned_capacity);
        memset(r->streams, 0, r->stream_bytes * (size_t)skinned_capacity);
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

static void skin(crowd_runner *r, runner_thread *t)
{
    int begin, end;
    if (!share(r->skinned, &begin, &end))
        return;
    const uint64_t t0 = cli_now_ns();
    for (int s = begin; s < end; ++s) {
        ossa_skinning_job job = {0};
        job.mesh = r->mesh;
        job.palette = ossa_crowd_palette(r->crowd, ossa_crowd_entity_at(r->crowd, s));
        job.palette_count = ossa_crowd_skin_joint_count(r->crowd);
        job.output = r->streams + (size_t)s * r->stream_bytes;
        job.output_bytes = r->stream_bytes;
        job.path = r->skin_path;
        job.stream_output = r->stream_output;
        const ossa_result result = ossa_skinning_job_run(&job);
        if (result != OSSA_OK && t->result == OSSA_OK)
            t->result = result;
    }
    t->ns[RUN_SKIN] += (double)(cli_now_ns() - t0);
}

ossa_result crowd_runner_frame(crowd_runner *r, float dt_s)
{
    const uint64_t t0 = cli_now_ns();
    ossa_crowd_set_stage_hook(r->crowd, r->timed ? on_stage : NULL, r);
    ossa_result result = ossa_crowd_begin_frame(r->crowd, dt_s, &r->batches);
    if (result != OSSA_OK)
        return result;
    r->skinned = r->stream_count ? ossa_crowd_skinned_count(r->crowd) : 0;
    if (r->skinned > r->stream_count)
        return OSSA_ERR_OUTPUT_TOO_SMALL;
    for (int t = 0; t < r->threads; ++t) {
        memset(r->thread[t].ns, 0, sizeof r->thread[t].ns);
        r->thread[t].current = RUN_STAGES;
        r->thread[t].result = OSSA_OK;
    }
#ifdef _OPENMP
#pragma omp parallel num_threads(r->threads)
#endif
    {
        runner_thread *t = &r->thread[thread_id()];
        int begin, end;
        if (share(r->batches, &begin, &end)) {
            const ossa_result u = ossa_crowd_update(r->crowd, begin, end, r->scratch[thread_id()],
                                                    r->scratch_bytes);
            if (u != OSSA_OK)
                t->result = u;
        }
#ifdef _OPENMP
#pragma omp barrier
#endif
        skin(r, t);
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
