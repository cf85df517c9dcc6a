/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * threads8: eight library contexts scoring at once in eight threads on
 * one GPU give, bit for bit, what one context alone gives.
 *
 * Each thread t has its own frames (noise of seed t: two references and
 * two distorted pictures, alternated so that motion changes) scored with
 * vmaf_v0.6.1 and psnr on the CUDA backend. First one context at a time
 * scores each thread's frames (the reference results); then all threads
 * start together, each with its own context, in three modes:
 *  - host: host pictures, each context on the library's own CUDA context;
 *  - device: the same frames in device memory, library's contexts;
 *  - caller: device pictures, every context on the caller's (primary)
 *    context with a stream of its own per thread (as FFmpeg filters in
 *    one process do).
 * Every per-frame value of every metric and every pooled mean must equal
 * the reference (memcmp of the doubles). Each mode runs --repeat times.
 *
 * Usage: threads8 [--threads=N] [--frames=N] [--size=WxH] [--repeat=N]
 * Exit status: 0 identical, 1 a difference or an error, 77 no usable GPU
 * (1 when VG_REQUIRE_GPU=1).
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"

#define MAX_THREADS 64

typedef struct Scores {
    unsigned n_metrics;
    char **names;
    double *v;     ///< n_metrics x frames, NaN-free doubles as read
    uint8_t *have; ///< the metric has a value for that frame
    double vmaf_mean;
} Scores;

typedef struct Job {
    unsigned t;
    int device;      ///< device pictures
    int caller;      ///< caller's context and stream
    CUstream stream; ///< the caller's stream of this thread
    VgPicture host[4], dev[4];
    Scores out;
    int ret;
    char err[256];
} Job;

static unsigned n_threads = 8, n_frames = 48, width = 1920, height = 1080;
static unsigned n_repeat = 2;
static pthread_barrier_t start_line;
static CUcontext primary;

static void log_cb(void *opaque, enum VgLogLevel level, const char *msg)
{
    Job *j = opaque;

    if (level <= VG_LOG_ERROR && j && !*j->err)
        snprintf(j->err, sizeof(j->err), "%s", msg);
    if (level <= VG_LOG_WARNING)
        fprintf(stderr, "threads8: thread %u: %s\n", j ? j->t : 0, msg);
}

static void free_scores(Scores *s)
{
    for (unsigned m = 0; s->names && m < s->n_metrics; m++)
        free(s->names[m]);
    free(s->names);
    free(s->v);
    free(s->have);
    memset(s, 0, sizeof(*s));
}

/* score the job's frames in one context; 0 or a negative errno */
static int score(Job *j, int wait)
{
    const VgPicture *pics = j->device ? j->dev : j->host;
    VgConfig cfg = {
        .backend = VG_BACKEND_CUDA,
        .log_level = VG_LOG_WARNING,
        .log_cb = log_cb,
        .log_opaque = j,
    };
    VgContext *ctx = NULL;
    Scores *s = &j->out;
    int ret;

    if (j->caller) {
        cfg.cuda_context = primary;
        cfg.cuda_stream = j->stream;
    }
    free_scores(s);
    if (wait)
        pthread_barrier_wait(&start_line);
    if ((ret = vg_context_create(&ctx, &cfg)) < 0 ||
        (ret = vg_use_model(ctx, "version=vmaf_v0.6.1")) < 0 ||
        (ret = vg_use_feature(ctx, "psnr", NULL)) < 0)
        goto end;
    for (unsigned i = 0; i < n_frames; i++) {
        if ((ret = vg_submit(ctx, &pics[i & 1], &pics[2 + ((i >> 1) & 1)])) < 0)
            goto end;
        vg_frames_ready(ctx);
    }
    if ((ret = vg_flush(ctx)) < 0 ||
        (ret = vg_get_pooled(ctx, "vmaf", VG_POOL_MEAN, &s->vmaf_mean)) < 0)
        goto end;
    s->n_metrics = vg_metric_count(ctx);
    s->names = calloc(s->n_metrics, sizeof(*s->names));
    s->v = calloc((size_t)s->n_metrics * n_frames, sizeof(*s->v));
    s->have = calloc((size_t)s->n_metrics * n_frames, 1);
    if (!s->names || !s->v || !s->have) {
        ret = -ENOMEM;
        goto end;
    }
    for (unsigned m = 0; m < s->n_metrics; m++) {
        const char *name = vg_metric_name(ctx, m);
        if (!(s->names[m] = strdup(name ? name : ""))) {
            ret = -ENOMEM;
            goto end;
        }
        for (unsigned i = 0; i < n_frames; i++)
            s->have[m * n_frames + i] =
                vg_get_score(ctx, name, i, &s->v[m * n_frames + i]) == 0;
    }
    ret = vg_backend_is_cuda(ctx) ? 0 : -ENODEV;
end:
    vg_context_destroy(&ctx);
    return ret;
}

static void *thread_main(void *arg)
{
    Job *j = arg;

    j->ret = score(j, 1);
    return NULL;
}

/* differences between a thread's scores and the reference; prints them */
static unsigned compare(const Scores *ref, const Scores *got, unsigned t,
                        const char *mode, unsigned long *n_values)
{
    unsigned bad = 0;

    if (got->n_metrics != ref->n_metrics) {
        printf("threads8: %s thread %u: %u metrics, %u alone\n", mode, t,
               got->n_metrics, ref->n_metrics);
        return 1;
    }
    for (unsigned m = 0; m < ref->n_metrics; m++) {
        unsigned gm = m;
        if (strcmp(ref->names[m], got->names[gm])) {
            for (gm = 0; gm < got->n_metrics; gm++)
                if (!strcmp(ref->names[m], got->names[gm]))
                    break;
            if (gm == got->n_metrics) {
                printf("threads8: %s thread %u: no %s\n", mode, t,
                       ref->names[m]);
                bad++;
                continue;
            }
        }
        for (unsigned i = 0; i < n_frames; i++) {
            const size_t a = (size_t)m * n_frames + i,
                         b = (size_t)gm * n_frames + i;
            if (ref->have[a] != got->have[b] ||
                (ref->have[a] &&
                 memcmp(&ref->v[a], &got->v[b], sizeof(double)))) {
                if (bad++ < 10)
                    printf(
                        "threads8: %s thread %u frame %u %s: %.17g, alone %.17g\n",
                        mode, t, i, ref->names[m], got->v[b], ref->v[a]);
            }
            *n_values += ref->have[a];
        }
    }
    if (memcmp(&ref->vmaf_mean, &got->vmaf_mean, sizeof(double))) {
        printf("threads8: %s thread %u: pooled vmaf %.17g, alone %.17g\n", mode,
               t, got->vmaf_mean, ref->vmaf_mean);
        bad++;
    }
    return bad;
}

/* ---- pictures ------------------------------------------------------------------ */

static uint64_t rng;

static unsigned rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 24);
}

static size_t frame_bytes(void)
{
    return (size_t)width * height +
           2 * (size_t)((width + 1) / 2) * ((height + 1) / 2);
}

static void describe(VgPicture *p, uintptr_t base, enum VgMemory mem)
{
    const unsigned cw = (width + 1) / 2, ch = (height + 1) / 2;

    memset(p, 0, sizeof(*p));
    p->fmt = VG_PIX_FMT_YUV420P;
    p->width = width;
    p->height = height;
    p->bitdepth = 8;
    p->memory = mem;
    p->data[0] = (const void *)base;
    p->data[1] = (const void *)(base + (size_t)width * height);
    p->data[2] =
        (const void *)(base + (size_t)width * height + (size_t)cw * ch);
    p->stride[0] = width;
    p->stride[1] = p->stride[2] = cw;
}

/* two references of smooth noise and two distorted versions of each */
static void make_frames(uint8_t *buf[4], unsigned t)
{
    const size_t n = frame_bytes();

    rng = 0x2545f4914f6cdd1dull * (t + 1);
    for (int k = 0; k < 2; k++) {
        uint8_t *r = buf[k];
        unsigned v = rnd() & 255;
        for (size_t i = 0; i < n; i++) {
            /* a random walk: content with structure and motion */
            v = (v + (rnd() % 9) - 4) & 255;
            r[i] = (uint8_t)v;
        }
    }
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++)
            buf[2 + k][i] = (uint8_t)(buf[k][i] + (rnd() % 7) - 3);
}

int main(int argc, char **argv)
{
    const char *req = getenv("VG_REQUIRE_GPU");
    const int required = req && atoi(req) > 0;
    static const char *const modes[3] = { "host", "device", "caller" };
    static Job jobs[MAX_THREADS];
    static Scores ref[MAX_THREADS];
    uint8_t *host[MAX_THREADS][4] = { { 0 } };
    CUdeviceptr dbuf[MAX_THREADS][4] = { { 0 } };
    pthread_t tid[MAX_THREADS];
    const VgCuda *cu = NULL;
    CUdevice dev;
    CUcontext dummy;
    unsigned long n_values = 0;
    unsigned bad = 0;
    int ret = 1;

    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--threads=", 10))
            n_threads = (unsigned)atoi(argv[i] + 10);
        else if (!strncmp(argv[i], "--frames=", 9))
            n_frames = (unsigned)atoi(argv[i] + 9);
        else if (!strncmp(argv[i], "--repeat=", 9))
            n_repeat = (unsigned)atoi(argv[i] + 9);
        else if (!strncmp(argv[i], "--size=", 7) &&
                 sscanf(argv[i] + 7, "%ux%u", &width, &height) == 2)
            ;
        else {
            fprintf(stderr, "usage: threads8 [--threads=N] [--frames=N] "
                            "[--size=WxH] [--repeat=N]\n");
            return 2;
        }
    }
    if (!n_threads || n_threads > MAX_THREADS || n_frames < 2 || !n_repeat ||
        width < 36 || height < 36) {
        fprintf(stderr,
                "threads8: 1..%d threads, 2 frames or more, 36x36 or "
                "larger\n",
                MAX_THREADS);
        return 2;
    }

    if (vg_cuda_load(&cu, NULL, VG_LOG_WARNING) < 0 ||
        cu->f->cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
        cu->f->cuDevicePrimaryCtxRetain(&primary, dev) != CUDA_SUCCESS) {
        printf("threads8: %s: no usable CUDA device\n",
               required ? "FAIL" : "SKIP");
        vg_cuda_unload(&cu);
        return required ? 1 : 77;
    }
    if (VG_CU(cu, NULL, cuCtxPushCurrent, primary) < 0)
        goto end;
    for (unsigned t = 0; t < n_threads; t++) {
        for (int k = 0; k < 4; k++) {
            if (!(host[t][k] = malloc(frame_bytes()))) {
                fprintf(stderr, "threads8: out of memory\n");
                goto end_pop;
            }
        }
        make_frames(host[t], t);
        jobs[t].t = t;
        for (int k = 0; k < 4; k++) {
            if (VG_CU(cu, NULL, cuMemAlloc, &dbuf[t][k], frame_bytes()) < 0 ||
                VG_CU(cu, NULL, cuMemcpyHtoD, dbuf[t][k], host[t][k],
                      frame_bytes()) < 0)
                goto end_pop;
            describe(&jobs[t].host[k], (uintptr_t)host[t][k], VG_MEMORY_HOST);
            describe(&jobs[t].dev[k], (uintptr_t)dbuf[t][k], VG_MEMORY_CUDA);
        }
        if (VG_CU(cu, NULL, cuStreamCreate, &jobs[t].stream,
                  CU_STREAM_NON_BLOCKING) < 0)
            goto end_pop;
    }
    if (VG_CU(cu, NULL, cuCtxPopCurrent, &dummy) < 0)
        goto end;

    /* one context at a time: the reference results */
    for (unsigned t = 0; t < n_threads; t++) {
        if (score(&jobs[t], 0) < 0) {
            printf("threads8: FAIL: thread %u's frames alone: %s\n", t,
                   jobs[t].err);
            goto end;
        }
        ref[t] = jobs[t].out;
        memset(&jobs[t].out, 0, sizeof(jobs[t].out));
    }
    printf("threads8: %u threads x %u frames of %ux%u, vmaf_v0.6.1 + psnr; "
           "alone: pooled vmaf of thread 0 %.6f\n",
           n_threads, n_frames, width, height, ref[0].vmaf_mean);

    pthread_barrier_init(&start_line, NULL, n_threads);
    for (unsigned rep = 0; rep < n_repeat; rep++) {
        for (int mode = 0; mode < 3; mode++) {
            unsigned mode_bad = 0;
            unsigned long mode_values = 0;
            unsigned started = 0;

            for (unsigned t = 0; t < n_threads; t++) {
                jobs[t].device = mode > 0;
                jobs[t].caller = mode == 2;
                jobs[t].err[0] = 0;
                if (pthread_create(&tid[t], NULL, thread_main, &jobs[t]))
                    break;
                started++;
            }
            if (started < n_threads) {
                /* the barrier would wait for threads that do not exist */
                fprintf(stderr, "threads8: cannot start %u threads\n",
                        n_threads);
                exit(1);
            }
            for (unsigned t = 0; t < n_threads; t++)
                pthread_join(tid[t], NULL);
            for (unsigned t = 0; t < n_threads; t++) {
                if (jobs[t].ret < 0) {
                    printf("threads8: %s thread %u failed (%d): %s\n",
                           modes[mode], t, jobs[t].ret, jobs[t].err);
                    mode_bad++;
                    continue;
                }
                mode_bad += compare(&ref[t], &jobs[t].out, t, modes[mode],
                                    &mode_values);
            }
            printf(
                "threads8: round %u, %s: %u threads at once, %lu values, %s\n",
                rep + 1, modes[mode], n_threads, mode_values,
                mode_bad ? "DIFFERENT" : "identical to one context alone");
            bad += mode_bad;
            n_values += mode_values;
        }
    }
    pthread_barrier_destroy(&start_line);
    printf("threads8: %s (%lu values compared)\n", bad ? "FAIL" : "PASS",
           n_values);
    ret = bad ? 1 : 0;
    goto end;

end_pop:
    VG_CU(cu, NULL, cuCtxPopCurrent, &dummy);
end:
    if (cu && VG_CU(cu, NULL, cuCtxPushCurrent, primary) >= 0) {
        for (unsigned t = 0; t < n_threads; t++) {
            for (int k = 0; k < 4; k++)
                if (dbuf[t][k])
                    VG_CU(cu, NULL, cuMemFree, dbuf[t][k]);
            if (jobs[t].stream)
                VG_CU(cu, NULL, cuStreamDestroy, jobs[t].stream);
        }
        VG_CU(cu, NULL, cuCtxPopCurrent, &dummy);
    }
    for (unsigned t = 0; t < n_threads; t++) {
        free_scores(&ref[t]);
        free_scores(&jobs[t].out);
        for (int k = 0; k < 4; k++)
            free(host[t][k]);
    }
    if (cu) {
        cu->f->cuDevicePrimaryCtxRelease(dev);
        vg_cuda_unload(&cu);
    }
    return ret;
}
