/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * ladderbench: an ABR ladder scored in one ladder context (VgConfig.
 * n_distorted) against the same renditions in separate pair contexts, side
 * by side in one process. The reference is 1920x1080; the five renditions
 * are 1920x1080, 1600x900, 1280x720, 960x540 and 640x360, each scaled to
 * the reference's size with bicubic. All pictures are NV12, made from the
 * 640x360 corpus pair (raw 4:4:4 8-bit, given as arguments) with bilinear
 * interpolation, so that the content is natural video.
 *
 * For each model (vmaf_v0.6.1 and vmaf_v1.0.16_3d0h; LADDERBENCH_MODELS=
 * NAME[,NAME...] picks others, and an entry feature:NAME[=OPT=VAL...]
 * scores that feature alone, its pooled output LADDERBENCH_METRIC (by
 * default the output named as the feature) compared):
 *   - CUDA, frames resident in GPU memory: the ladder against five pair
 *     contexts fed frame by frame in turn (as five filter instances are),
 *     each with the library's own streams;
 *   - CPU, frames in host memory, n_threads 16 (LADDERBENCH_THREADS): the
 *     ladder against five pair runs one after another, each with all the
 *     threads.
 * Each figure is frames of the ladder (the reference and its five
 * renditions) per second, wall clock from the first submit to the flush,
 * measured twice in alternation (ladder, separate, ladder, separate); the
 * ratio is the ladder's time over the separate contexts', from the better
 * run of each. Every rendition's pooled score must equal its pair
 * context's, or the program fails.
 *
 * LADDERBENCH_ONLY=ladder or =separate runs that side alone, once and
 * without the untimed first run: for a profiler, whose kernel table then
 * holds that side alone.
 *
 * Usage: ladderbench REF.yuv DIS.yuv [frames [cpu_frames]] (defaults 300
 * and 30; 0 leaves that backend out).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"
#include "tests/bench/bench_util.h"

#define SRC_W 640
#define SRC_H 360
#define N_PICS 8 ///< pictures of each input, used in turn
#define N_REND 5

static const unsigned rend_size[N_REND][2] = {
    { 1920, 1080 }, { 1600, 900 }, { 1280, 720 }, { 960, 540 }, { 640, 360 },
};

/* the inputs of one backend: pics[0] the reference, pics[1 + r] rendition r */
typedef struct Inputs {
    VgPicture pics[1 + N_REND][N_PICS];
    enum VgBackend backend;
    unsigned threads;
} Inputs;

static const VgCuda *cu;

static int make_inputs(Inputs *in, uint8_t *const src[2], int device)
{
    const size_t fsz = (size_t)SRC_W * SRC_H * 3;

    for (unsigned k = 0; k <= N_REND; k++) {
        const unsigned w = k ? rend_size[k - 1][0] : 1920;
        const unsigned h = k ? rend_size[k - 1][1] : 1080;

        for (unsigned i = 0; i < N_PICS; i++) {
            VgPicture *pic = &in->pics[k][i];
            const size_t size = (size_t)w * h * 3 / 2;
            uint8_t *buf;
            CUdeviceptr mem;

            if (bench_semiplanar_picture(pic, &buf, src[k != 0] + i * fsz,
                                         SRC_W, SRC_H, w, h, 0) < 0)
                return -1;
            if (!device)
                continue; /* the host buffer is the picture's */
            if (VG_CU(cu, NULL, cuMemAlloc, &mem, size) < 0 ||
                VG_CU(cu, NULL, cuMemcpyHtoD, mem, buf, size) < 0) {
                free(buf);
                return -1;
            }
            free(buf);
            pic->memory = VG_MEMORY_CUDA;
            pic->data[0] = (const void *)(uintptr_t)mem;
            pic->data[1] = (const void *)(uintptr_t)(mem + (CUdeviceptr)w * h);
        }
    }
    return 0;
}

static int open_ctx(VgContext **ctx, const Inputs *in, const char *model,
                    unsigned n_distorted)
{
    VgConfig cfg = {
        .backend = in->backend,
        .n_threads = in->threads,
        .n_distorted = n_distorted,
        .scale = VG_SCALE_BICUBIC,
        .log_level = VG_LOG_WARNING,
    };
    char spec[128];
    char *opts;

    if (vg_context_create(ctx, &cfg) < 0)
        return -1;
    if (!strncmp(model, "feature:", 8)) {
        snprintf(spec, sizeof(spec), "%s", model + 8);
        if ((opts = strchr(spec, '=')))
            *opts++ = '\0';
        return vg_use_feature(*ctx, spec, opts);
    }
    snprintf(spec, sizeof(spec), "version=%s", model);
    return vg_use_model(*ctx, spec);
}

/* the pooled output compared: the model's score, or a feature's
 * LADDERBENCH_METRIC (default: the output named as the feature) */
static const char *metric(const char *model)
{
    static char name[64];
    const char *m = getenv("LADDERBENCH_METRIC");

    if (strncmp(model, "feature:", 8))
        return "vmaf";
    if (m && *m)
        return m;
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(model + 8, "="),
             model + 8);
    return name;
}

/* the ladder over `frames` frames: seconds, and each rendition's pooled */
static double run_ladder(const Inputs *in, const char *model, unsigned frames,
                         double pooled[N_REND])
{
    VgContext *ctx = NULL;
    double t0, t = -1;

    if (open_ctx(&ctx, in, model, N_REND) < 0)
        goto end;
    t0 = bench_now();
    for (unsigned i = 0; i < frames; i++) {
        const VgPicture *dis[N_REND];

        for (unsigned r = 0; r < N_REND; r++)
            dis[r] = &in->pics[1 + r][i % N_PICS];
        if (vg_submit_ladder(ctx, &in->pics[0][i % N_PICS], dis) < 0)
            goto end;
    }
    if (vg_flush(ctx) < 0)
        goto end;
    t = bench_now() - t0;
    for (unsigned r = 0; r < N_REND; r++)
        if (vg_get_pooled(vg_rendition(ctx, r), metric(model), VG_POOL_MEAN,
                          &pooled[r]) < 0)
            t = -1;
end:
    vg_context_destroy(&ctx);
    return t;
}

/* five pair contexts: fed in turn (interleaved) or one after another */
static double run_separate(const Inputs *in, const char *model, unsigned frames,
                           int interleaved, double pooled[N_REND])
{
    VgContext *ctx[N_REND] = { NULL };
    double t0, t = -1;

    for (unsigned r = 0; r < N_REND; r++)
        if (open_ctx(&ctx[r], in, model, 0) < 0)
            goto end;
    t0 = bench_now();
    /* interleaved: one pass over all five; else a pass per context */
    for (unsigned k = 0; k < (interleaved ? 1 : N_REND); k++) {
        const unsigned lo = interleaved ? 0 : k;
        const unsigned hi = interleaved ? N_REND : k + 1;

        for (unsigned i = 0; i < frames; i++)
            for (unsigned r = lo; r < hi; r++)
                if (vg_submit(ctx[r], &in->pics[0][i % N_PICS],
                              &in->pics[1 + r][i % N_PICS]) < 0)
                    goto end;
        for (unsigned r = lo; r < hi; r++)
            if (vg_flush(ctx[r]) < 0)
                goto end;
    }
    t = bench_now() - t0;
    for (unsigned r = 0; r < N_REND; r++)
        if (vg_get_pooled(ctx[r], metric(model), VG_POOL_MEAN, &pooled[r]) < 0)
            t = -1;
end:
    for (unsigned r = 0; r < N_REND; r++)
        vg_context_destroy(&ctx[r]);
    return t;
}

/* the process's CPU seconds so far, every thread's */
static double cpu_seconds(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

static int bench(const Inputs *in, const char *label, const char *model,
                 unsigned frames)
{
    const char *only = getenv("LADDERBENCH_ONLY");
    double best_l = 0, best_s = 0, pl[N_REND], ps[N_REND];

    if (only && *only) {
        const int ladder = !strcmp(only, "ladder");
        double t;

        if (!ladder && strcmp(only, "separate")) {
            printf("ladderbench: LADDERBENCH_ONLY=%s: ladder or separate\n",
                   only);
            return -1;
        }
        t = ladder ? run_ladder(in, model, frames, pl)
                   : run_separate(in, model, frames,
                                  in->backend == VG_BACKEND_CUDA, ps);
        if (t < 0) {
            printf("ladderbench: %s %s: FAILED\n", label, model);
            return -1;
        }
        printf("ladderbench: %s %-18s %s alone: %7.1f frames/s\n", label, model,
               only, frames / t);
        return 0;
    }
    /* the first, untimed run: module load, allocations */
    if (run_ladder(in, model, 2, pl) < 0) {
        printf("ladderbench: %s %s: the ladder FAILED\n", label, model);
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        const double c0 = cpu_seconds();
        const double tl = run_ladder(in, model, frames, pl);
        const double c1 = cpu_seconds();
        const double ts =
            run_separate(in, model, frames, in->backend == VG_BACKEND_CUDA, ps);
        const double c2 = cpu_seconds();

        if (tl < 0 || ts < 0) {
            printf("ladderbench: %s %s: FAILED\n", label, model);
            return -1;
        }
        for (unsigned r = 0; r < N_REND; r++) {
            if (pl[r] != ps[r]) {
                printf("ladderbench: %s %s: rendition %u pooled %.17g in the "
                       "ladder, %.17g alone: MISMATCH\n",
                       label, model, r, pl[r], ps[r]);
                return -1;
            }
        }
        printf("ladderbench: %s %-18s run %d: ladder %7.1f frames/s, 5 "
               "separate %7.1f frames/s, ladder/separate time %.3f; host "
               "CPU ms per frame %.3f / %.3f\n",
               label, model, k + 1, frames / tl, frames / ts, tl / ts,
               (c1 - c0) * 1e3 / frames, (c2 - c1) * 1e3 / frames);
        if (!best_l || tl < best_l)
            best_l = tl;
        if (!best_s || ts < best_s)
            best_s = ts;
    }
    printf("ladderbench: %s %-18s best: ladder %7.1f frames/s, 5 separate "
           "%7.1f frames/s, ladder/separate time %.3f (pooled %s of the "
           "renditions %.3f %.3f %.3f %.3f %.3f, equal in both)\n",
           label, model, frames / best_l, frames / best_s, best_l / best_s,
           metric(model), pl[0], pl[1], pl[2], pl[3], pl[4]);
    return 0;
}

int main(int argc, char **argv)
{
    const unsigned frames = argc > 3 ? (unsigned)atoi(argv[3]) : 300;
    const unsigned cpu_frames = argc > 4 ? (unsigned)atoi(argv[4]) : 30;
    const char *models = getenv("LADDERBENCH_MODELS");
    const char *threads = getenv("LADDERBENCH_THREADS");
    const size_t fsz = (size_t)SRC_W * SRC_H * 3;
    static Inputs gpu, cpu;
    uint8_t *src[2];
    char list[256], name[128] = "";
    CUdevice dev;
    CUcontext cctx;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 3) {
        fprintf(stderr, "usage: ladderbench REF.yuv DIS.yuv [frames "
                        "[cpu_frames]] (640x360 4:4:4 8-bit raw files)\n");
        return 2;
    }
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(argv[1 + k], "rb");
        src[k] = malloc(fsz * N_PICS);
        if (!f || !src[k] || fread(src[k], fsz, N_PICS, f) != N_PICS) {
            fprintf(stderr, "ladderbench: cannot read %d frames of %s\n",
                    N_PICS, argv[1 + k]);
            return 2;
        }
        fclose(f);
    }
    snprintf(list, sizeof(list), "%s",
             models ? models : "vmaf_v0.6.1,vmaf_v1.0.16_3d0h");
    gpu.backend = VG_BACKEND_CUDA;
    cpu.backend = VG_BACKEND_CPU;
    cpu.threads = threads ? (unsigned)atoi(threads) : 16;
    if (frames && (vg_cuda_load(&cu, NULL, VG_LOG_WARNING) < 0 ||
                   VG_CU(cu, NULL, cuInit, 0) < 0 ||
                   VG_CU(cu, NULL, cuDeviceGet, &dev, 0) < 0 ||
                   VG_CU(cu, NULL, cuDevicePrimaryCtxRetain, &cctx, dev) < 0 ||
                   VG_CU(cu, NULL, cuCtxPushCurrent, cctx) < 0)) {
        fprintf(stderr, "ladderbench: no usable CUDA device\n");
        return 77;
    }
    if (frames)
        cu->f->cuDeviceGetName(name, sizeof(name) - 1, dev);
    printf("ladderbench: %s; reference 1920x1080, renditions 1920x1080, "
           "1600x900, 1280x720, 960x540, 640x360 scaled with bicubic; %u "
           "frames per CUDA figure, %u per CPU figure (%u threads)\n",
           frames ? name : "no GPU", frames, cpu_frames, cpu.threads);
    if ((frames && make_inputs(&gpu, src, 1) < 0) ||
        (cpu_frames && make_inputs(&cpu, src, 0) < 0)) {
        fprintf(stderr, "ladderbench: cannot make the pictures\n");
        return 1;
    }
    for (char *m = strtok(list, ","); m; m = strtok(NULL, ",")) {
        if (frames && bench(&gpu, "cuda, resident", m, frames) < 0)
            return 1;
        if (cpu_frames && bench(&cpu, "cpu", m, cpu_frames) < 0)
            return 1;
    }
    return 0;
}
