/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CPU benchmark: frames per second of the whole vmaf_v0.6.1 on the corpus
 * pairs p1080_crf32 and p2160 with 1 and 2 worker threads, and the time
 * of each feature the model uses (vif, adm, motion) run alone, to show
 * their share. Frames are read into memory first; timings are wall clock
 * from the first vg_submit() to the end of vg_flush(), and the process CPU
 * time over the same span (all threads; on a busy machine frames divided
 * by CPU seconds is the steadier figure).
 *
 * Usage: bench_cpu [-n frames] [-t threads,threads...] [pair...]
 *        bench_cpu -b [-n frames] [feature...]
 * Inputs from VG_CORPUS_RAW (default tests/corpus-raw), decoded by
 * tests/prepare-corpus.sh.
 *
 * -b: the CPU builds' figures of checkasm --bench (each feature alone in
 * each build this processor runs, C, AVX2 and AVX-512, CPU time per call
 * on one thread and the speed-up over C; -n sets the calls per figure):
 * runs tests/checkasm/checkasm --bench --cpu-only, once per feature named
 * (default: every feature).
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vmafgpu.h"

typedef struct BenchPair {
    const char *name, *ref, *dis;
    unsigned w, h;
} BenchPair;

static const BenchPair bench_pairs[] = {
    { "p1080_crf32", "p1080_ref.yuv", "p1080_dist_crf32.yuv", 1920, 1080 },
    { "p2160", "p2160_ref.yuv", "p2160_dist_x265crf30.yuv", 3840, 2160 },
};

typedef struct Clip {
    unsigned n, w, h;
    size_t frame_size;
    uint8_t *ref, *dis;
} Clip;

static int load_clip(Clip *c, const BenchPair *p, const char *dir,
                     unsigned max_frames)
{
    const size_t cw = (p->w + 1) / 2, ch = (p->h + 1) / 2;
    const char *names[2] = { p->ref, p->dis };
    uint8_t **bufs[2] = { &c->ref, &c->dis };
    char path[4096];

    memset(c, 0, sizeof(*c));
    c->w = p->w;
    c->h = p->h;
    c->frame_size = (size_t)p->w * p->h + 2 * cw * ch;
    for (int k = 0; k < 2; k++) {
        FILE *f;
        unsigned n = 0;
        snprintf(path, sizeof(path), "%s/%s", dir, names[k]);
        if (!(f = fopen(path, "rb"))) {
            fprintf(stderr,
                    "bench_cpu: cannot open %s (run "
                    "tests/prepare-corpus.sh or set VG_CORPUS_RAW)\n",
                    path);
            return -ENOENT;
        }
        *bufs[k] = malloc(c->frame_size * max_frames);
        if (!*bufs[k]) {
            fclose(f);
            return -ENOMEM;
        }
        while (n < max_frames && fread(*bufs[k] + n * c->frame_size, 1,
                                       c->frame_size, f) == c->frame_size)
            n++;
        fclose(f);
        c->n = k ? (n < c->n ? n : c->n) : n;
    }
    return c->n ? 0 : -EINVAL;
}

static void picture(VgPicture *pic, const Clip *c, const uint8_t *base)
{
    const size_t cw = (c->w + 1) / 2, ch = (c->h + 1) / 2;

    memset(pic, 0, sizeof(*pic));
    pic->fmt = VG_PIX_FMT_YUV420P;
    pic->width = c->w;
    pic->height = c->h;
    pic->bitdepth = 8;
    pic->data[0] = base;
    pic->data[1] = base + (size_t)c->w * c->h;
    pic->data[2] = base + (size_t)c->w * c->h + cw * ch;
    pic->stride[0] = c->w;
    pic->stride[1] = pic->stride[2] = (ptrdiff_t)cw;
}

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_seconds; ///< process CPU time of the last run()

/*
 * -b: checkasm --bench --cpu-only (next to this program's directory:
 * ../checkasm/checkasm), for the feature test (NULL: all). @return its
 * exit status, or -1.
 */
static int bench_builds(const char *argv0, unsigned calls, const char *test)
{
    const char *slash = strrchr(argv0, '/');
    char path[4096], bench[32], test_arg[128];
    char *args[5];
    int n = 0, st;
    pid_t pid;

    if (slash)
        snprintf(path, sizeof(path), "%.*s/../checkasm/checkasm",
                 (int)(slash - argv0), argv0);
    else
        snprintf(path, sizeof(path), "../checkasm/checkasm");
    snprintf(bench, sizeof(bench), "--bench=%u", calls * 20);
    args[n++] = path;
    args[n++] = bench;
    args[n++] = (char *)"--cpu-only";
    if (test) {
        snprintf(test_arg, sizeof(test_arg), "--test=%s", test);
        args[n++] = test_arg;
    }
    args[n] = NULL;
    fflush(stdout);
    if ((pid = fork()) < 0)
        return -1;
    if (!pid) {
        execv(path, args);
        fprintf(stderr, "bench_cpu: cannot run %s\n", path);
        _exit(127);
    }
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st);
}

/** Seconds for the whole clip; what = "model" or a feature name. */
static double run(const Clip *c, const char *what, unsigned threads,
                  double *vmaf_mean)
{
    VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .n_threads = threads,
        .log_level = VG_LOG_ERROR,
    };
    VgContext *ctx = NULL;
    double t0, t1, c0;
    int ret;

    if (vg_context_create(&ctx, &cfg) < 0)
        return -1;
    ret = !strcmp(what, "model") ? vg_use_model(ctx, "version=vmaf_v0.6.1")
                                 : vg_use_feature(ctx, what, NULL);
    if (ret < 0)
        goto fail;
    c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    t0 = now(CLOCK_MONOTONIC);
    for (unsigned i = 0; i < c->n; i++) {
        VgPicture r, d;
        picture(&r, c, c->ref + i * c->frame_size);
        picture(&d, c, c->dis + i * c->frame_size);
        if ((ret = vg_submit(ctx, &r, &d)) < 0)
            goto fail;
    }
    if ((ret = vg_flush(ctx)) < 0)
        goto fail;
    t1 = now(CLOCK_MONOTONIC);
    cpu_seconds = now(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (vmaf_mean && vg_get_pooled(ctx, "vmaf", VG_POOL_MEAN, vmaf_mean) < 0)
        *vmaf_mean = -1;
    vg_context_destroy(&ctx);
    return t1 - t0;
fail:
    fprintf(stderr, "bench_cpu: %s failed (%d)\n", what, ret);
    vg_context_destroy(&ctx);
    return -1;
}

int main(int argc, char **argv)
{
    const char *dir = getenv("VG_CORPUS_RAW");
    unsigned max_frames = 30, threads[8] = { 1, 2 }, n_threads = 2;
    const char *only[8];
    unsigned n_only = 0;
    static const char *const feats[] = { "vif", "adm", "motion" };
    int builds = 0;

    if (!dir || !*dir)
        dir = "tests/corpus-raw";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-b")) {
            builds = 1;
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            max_frames = (unsigned)atoi(argv[++i]);
        } else if (!strcmp(argv[i], "-t") && i + 1 < argc) {
            char *s = argv[++i];
            n_threads = 0;
            while (*s && n_threads < 8) {
                threads[n_threads++] = (unsigned)strtoul(s, &s, 10);
                if (*s == ',')
                    s++;
            }
        } else if (n_only < 8) {
            only[n_only++] = argv[i];
        }
    }
    if (!max_frames || !n_threads) {
        fprintf(stderr,
                "usage: %s [-n frames] [-t 1,2] [pair...]\n"
                "       %s -b [-n frames] [feature...]\n",
                argv[0], argv[0]);
        return 1;
    }
    if (builds) {
        int ret = 0;

        if (!n_only)
            return bench_builds(argv[0], max_frames, NULL) != 0;
        for (unsigned k = 0; k < n_only; k++)
            ret |= bench_builds(argv[0], max_frames, only[k]) != 0;
        return ret;
    }

    for (unsigned p = 0; p < sizeof(bench_pairs) / sizeof(bench_pairs[0]);
         p++) {
        const BenchPair *bp = &bench_pairs[p];
        Clip clip;
        int skip = n_only > 0;

        for (unsigned k = 0; k < n_only; k++)
            skip &= !!strcmp(only[k], bp->name);
        if (skip)
            continue;
        if (load_clip(&clip, bp, dir, max_frames) < 0)
            return 1;
        printf("%s %ux%u, %u frames\n", bp->name, clip.w, clip.h, clip.n);
        for (unsigned t = 0; t < n_threads; t++) {
            double mean = 0, tf[3], cf[3], sum = 0;
            double tm = run(&clip, "model", threads[t], &mean);
            if (tm < 0)
                return 1;
            printf("  threads %u: vmaf_v0.6.1 %7.2f fps wall (%.3f s), "
                   "%6.2f frames per CPU second, mean vmaf %.6f\n",
                   threads[t], clip.n / tm, tm, clip.n / cpu_seconds, mean);
            for (unsigned f = 0; f < 3; f++) {
                if ((tf[f] = run(&clip, feats[f], threads[t], NULL)) < 0)
                    return 1;
                cf[f] = cpu_seconds;
                sum += cf[f];
            }
            for (unsigned f = 0; f < 3; f++)
                printf("    %-6s alone %7.2f fps wall, %6.2f frames per CPU "
                       "second, %4.1f%% of the CPU time of vif+adm+motion\n",
                       feats[f], clip.n / tf[f], clip.n / cf[f],
                       100.0 * cf[f] / sum);
        }
        free(clip.ref);
        free(clip.dis);
    }
    return 0;
}
