/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * test_fault: every CUDA driver call of a short scoring run fails once.
 *
 * A run scores a few frames of a small picture with vmaf_v0.6.1 and psnr
 * through the public API on the CUDA backend, with the driver replaced by
 * tests/gpu/libcudafault.so (VG_CUDA_DRIVER). Four variants: (a) host
 * pictures on the library's context; (b) NV12 device pictures on a
 * caller's context and stream; (c) P010 device pictures on the library's
 * context, produced on other streams (the reference on one, the distorted
 * pictures alternately on a second one and on the reference's); (d)
 * 10-bit host pictures with events that the emulation completes only
 * after nine queries, so that frames are also waited for with
 * cuEventSynchronize. For each variant a
 * first run counts the driver calls; then, for every N from 1 to that
 * count, a run in a forked child fails the Nth call (VG_FAULT_N, with
 * VG_FAULT_FUNCS=all or the --funcs list) and must:
 *  - end with a negative errno from a vg_ call, the one gpu/core/cuda.c maps
 *    the CUDA error to (-ENODEV from the driver checks of
 *    vg_context_create() and the first vg_submit()), never with scores;
 *    a failure inside vg_context_destroy() cannot be returned and must be
 *    logged only;
 *  - log, at WARNING or ERROR, one line that names the failed call and
 *    its CUDA error name;
 *  - not crash and not hang (SIGALRM after --timeout seconds);
 *  - leave no driver object of its own after vg_context_destroy()
 *    (counted by the shim, those freed only by releasing the context
 *    included), except the object whose release was the failed call, or
 *    everything when cuCtxPushCurrent failed at close: then it must go
 *    with the context;
 *  - leave the host heap as it found it (mallinfo2() with glibc's
 *    per-thread cache off: the program restarts itself with
 *    GLIBC_TUNABLES=glibc.malloc.tcache_count=0; emulation only);
 *  - make no driver call that fails without injection (a misuse).
 * cuEventQuery answering CUDA_ERROR_NOT_READY is no failure: with each of
 * its calls answering so once, and with all of them answering so, the
 * run must complete with the scores of the first run.
 *
 * Without options the shim emulates the device (no GPU needed; kernels do
 * not run, so scores are meaningless but must be the same in every run).
 * --real[=LIBCUDA] forwards to the real driver (default libcuda.so.1) on a
 * GPU machine (VG_FAULT_TEST_REAL=LIBCUDA in the environment does the
 * same); there the number of calls varies from run to run (event polls),
 * and a run whose Nth call never came must succeed like the first.
 * Options: --sample=K (every K-th N only), --funcs=LIST (fail only those
 * functions, globs, each swept over its own calls), --err=NAME (one error
 * for every failure instead of one per function), --sticky (every call
 * from the Nth on fails; no leak check then), --variants=abcd, --frames=N,
 * --timeout=S, --shim=FILE (default
 * $VG_TOP_BUILDDIR/tests/gpu/libcudafault.so), --verbose. Without --real,
 * a second sweep checks the shim's forwarding: it forwards to an
 * emulating copy of itself, every K-th call (--forward=K, default 5; 0:
 * none).
 *
 * Exit status: 0 when every run passed, 1 otherwise.
 */

#include <dlfcn.h>
#include <errno.h>
#include <fnmatch.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"
#include "tests/gpu/cudafault.h"

#define W 64
#define H 48
#define MAX_FRAMES 16
#define MAX_FUNCS 128
#define MAX_SCORES 2048
#define LOG_BYTES 16384
#define MAX_SITES 8192

typedef struct Variant {
    char key;
    const char *name;
    enum VgPixFmt fmt;
    unsigned bpc;
    enum VgMemory memory;
    int caller_ctx; ///< VgConfig.cuda_context/cuda_stream are the test's
    int pic_stream; ///< pictures come with a stream of the test's
    int lag;        ///< emulation: queries before an event completes
} Variant;

static const Variant variants[] = {
    { 'a', "host yuv420p, library's context", VG_PIX_FMT_YUV420P, 8,
      VG_MEMORY_HOST, 0, 0, 0 },
    { 'b', "device nv12, caller's context and stream", VG_PIX_FMT_NV12, 8,
      VG_MEMORY_CUDA, 1, 1, 0 },
    { 'c', "device p010 on other streams, library's context", VG_PIX_FMT_P010,
      10, VG_MEMORY_CUDA, 0, 1, 0 },
    { 'd', "host yuv420p 10-bit, events complete late", VG_PIX_FMT_YUV420P, 10,
      VG_MEMORY_HOST, 0, 0, 9 },
};

/** One run: which calls fail, and how. */
typedef struct Case {
    char funcs[128]; ///< VG_FAULT_FUNCS
    unsigned long n; ///< VG_FAULT_N (0: none)
    const char *err; ///< VG_FAULT_ERR
    int sticky;
    int must_succeed; ///< the injected answer is not a failure
} Case;

/** What a child reports, in memory shared with the parent. */
typedef struct Result {
    int done;              ///< reached the end
    int ret;               ///< first negative return of a vg_ call, or 0
    char step[64];         ///< the call that returned it
    char setup_error[256]; ///< the test's own set-up failed
    int crash_func;        ///< failed function when the run died, or -1
    int crash_err;
    char err_name[64];     ///< CUDA_ERROR_* name of the injected error
    long heap_before;      ///< host heap in use before vg_context_create()
    long heap_after;       ///< and after vg_context_destroy()
    VgFaultStats before;   ///< after the test's own set-up
    VgFaultStats at_close; ///< just before vg_context_destroy()
    VgFaultStats closed;   ///< just after it
    VgFaultStats end;      ///< after the test's own clean-up
    unsigned long calls[MAX_FUNCS];
    unsigned n_funcs;
    char func_names[MAX_FUNCS][48];
    unsigned n_scores;
    double scores[MAX_SCORES];
    size_t log_len;
    char log[LOG_BYTES];
} Result;

typedef struct Options {
    const char *shim;
    const char *real; ///< forwarding to this driver, or NULL
    unsigned sample;
    const char *funcs; ///< per-function sweeps of these, or NULL (all)
    const char *variants;
    unsigned frames;
    unsigned timeout;
    const char *err; ///< VG_FAULT_ERR of the sweep (NULL: auto)
    int sticky;      ///< every call from the Nth on fails
    int heap;        ///< host heap use is exact (no tcache)
    int verbose;
} Options;

static Options opt = {
    .sample = 1,
    .variants = "abcd",
    .frames = 6,
    .timeout = 20,
};

/* ---- the child: one scoring run ---------------------------------------------- */

static Result *res;

static void capture_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    size_t room = LOG_BYTES - res->log_len;
    int n = snprintf(res->log + res->log_len, room, "%d:%s\n", (int)level, msg);

    if (n > 0)
        res->log_len += (size_t)n < room ? (size_t)n : room - 1;
}

static VgFaultStatsFn *stats_fn;
static VgFaultPauseFn *pause_fn;
static VgFaultFiredFn *fired_fn;
static VgFaultErrNameFn *err_name_fn;

/* the test's own driver objects (device pictures) */
typedef struct Own {
    const VgCuda *cu;
    CUdevice dev;
    CUcontext ctx;
    int primary;
    CUstream stream;
    CUstream stream2; ///< variant c: the first distorted picture's
    CUdeviceptr buf[4];
} Own;

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* bytes per row and rows of plane p (0, 1; 2 for planar 4:2:0) */
static void plane_geom(const Variant *v, unsigned p, size_t *row,
                       unsigned *rows)
{
    const unsigned bps = v->bpc > 8 ? 2 : 1;

    if (v->fmt == VG_PIX_FMT_YUV420P) {
        *row = (size_t)(p ? W / 2 : W) * bps;
        *rows = p ? H / 2 : H;
    } else { /* NV12, P010: Y, then interleaved chroma */
        *row = (size_t)W * bps;
        *rows = p ? H / 2 : H;
    }
}

static unsigned n_planes(const Variant *v)
{
    return v->fmt == VG_PIX_FMT_YUV420P ? 3 : 2;
}

#define PITCH 128

/* noise of the picture's bit depth; P010 samples in the high bits */
static void fill_noise(const Variant *v, uint8_t *buf, size_t bytes)
{
    if (v->bpc == 8) {
        for (size_t i = 0; i < bytes; i++)
            buf[i] = (uint8_t)rnd();
        return;
    }
    for (size_t i = 0; i + 1 < bytes; i += 2) {
        uint16_t s = (uint16_t)(rnd() & 1023);
        if (v->fmt == VG_PIX_FMT_P010)
            s <<= 6;
        memcpy(buf + i, &s, 2);
    }
}

static size_t picture_bytes(const Variant *v)
{
    size_t total = 0;

    for (unsigned p = 0; p < n_planes(v); p++) {
        size_t row;
        unsigned rows;
        plane_geom(v, p, &row, &rows);
        total += (size_t)PITCH * rows;
    }
    return total;
}

static void describe(const Variant *v, VgPicture *pic, uintptr_t base,
                     CUstream stream)
{
    memset(pic, 0, sizeof(*pic));
    pic->fmt = v->fmt;
    pic->width = W;
    pic->height = H;
    pic->bitdepth = v->bpc;
    pic->memory = v->memory;
    pic->cuda_stream = stream;
    for (unsigned p = 0; p < n_planes(v); p++) {
        size_t row;
        unsigned rows;
        plane_geom(v, p, &row, &rows);
        pic->data[p] = (const void *)base;
        pic->stride[p] = PITCH;
        base += (size_t)PITCH * rows;
    }
}

#define OWN_CU(fn, ...)                                                        \
    do {                                                                       \
        CUresult r_ = own->cu->f->fn(__VA_ARGS__);                             \
        if (r_ != CUDA_SUCCESS) {                                              \
            snprintf(res->setup_error, sizeof(res->setup_error),               \
                     "%s failed (%d)", #fn, (int)r_);                          \
            return -1;                                                         \
        }                                                                      \
    } while (0)

/* device pictures (and a context and stream) of the test's own */
static int own_setup(const Variant *v, Own *own, VgPicture pics[4],
                     uint8_t *host)
{
    const size_t bytes = picture_bytes(v);
    CUcontext dummy;

    if (vg_cuda_load(&own->cu, NULL, VG_LOG_ERROR) < 0) {
        snprintf(res->setup_error, sizeof(res->setup_error),
                 "the driver cannot be loaded");
        return -1;
    }
    OWN_CU(cuDeviceGet, &own->dev, 0);
    if (v->caller_ctx) {
        /* a context of its own, as FFmpeg's CUDA device makes one */
        OWN_CU(cuCtxCreate, &own->ctx, 0, own->dev);
        OWN_CU(cuCtxPopCurrent, &dummy);
    } else {
        OWN_CU(cuDevicePrimaryCtxRetain, &own->ctx, own->dev);
        own->primary = 1;
    }
    OWN_CU(cuCtxPushCurrent, own->ctx);
    if (v->pic_stream)
        OWN_CU(cuStreamCreate, &own->stream, CU_STREAM_NON_BLOCKING);
    if (v->pic_stream && !v->caller_ctx)
        OWN_CU(cuStreamCreate, &own->stream2, CU_STREAM_NON_BLOCKING);
    for (int i = 0; i < 4; i++) {
        fill_noise(v, host, bytes);
        OWN_CU(cuMemAlloc, &own->buf[i], bytes);
        OWN_CU(cuMemcpyHtoD, own->buf[i], host, bytes);
        describe(v, &pics[i], (uintptr_t)own->buf[i],
                 i == 2 && own->stream2 ? own->stream2 : own->stream);
    }
    OWN_CU(cuCtxPopCurrent, &dummy);
    return 0;
}

static int own_cleanup(Own *own)
{
    CUcontext dummy;

    if (!own->cu)
        return 0;
    OWN_CU(cuCtxPushCurrent, own->ctx);
    for (int i = 0; i < 4; i++)
        if (own->buf[i])
            OWN_CU(cuMemFree, own->buf[i]);
    if (own->stream)
        OWN_CU(cuStreamDestroy, own->stream);
    if (own->stream2)
        OWN_CU(cuStreamDestroy, own->stream2);
    OWN_CU(cuCtxPopCurrent, &dummy);
    if (own->primary)
        OWN_CU(cuDevicePrimaryCtxRelease, own->dev);
    else
        OWN_CU(cuCtxDestroy, own->ctx);
    vg_cuda_unload(&own->cu);
    return 0;
}

/* a vg_ call; the first failure ends the run */
#define STEP(name, call)                                                       \
    do {                                                                       \
        int ret_ = (call);                                                     \
        if (ret_ < 0) {                                                        \
            res->ret = ret_;                                                   \
            snprintf(res->step, sizeof(res->step), "%s", name);                \
            goto close;                                                        \
        }                                                                      \
    } while (0)

/* bytes of host memory allocated and not freed */
static long heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();

    return (long)(mi.uordblks + mi.hblkhd);
}

static void stats(VgFaultStats *st, int with_calls)
{
    stats_fn(st, with_calls ? res->calls : NULL, with_calls ? MAX_FUNCS : 0);
}

/* a crash or a hang: say which call had failed, then die of the signal */
static void on_fatal(int sig)
{
    if (fired_fn)
        fired_fn(&res->crash_func, &res->crash_err);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void child(const Variant *v, const Case *c)
{
    static uint8_t host[4][PITCH * H * 2];
    VgPicture pics[4];
    VgContext *ctx = NULL;
    Own own = { 0 };
    VgConfig cfg = {
        .backend = VG_BACKEND_CUDA,
        .log_level = VG_LOG_INFO,
        .log_cb = capture_log,
    };
    VgFaultFuncCountFn *count_fn;
    VgFaultFuncNameFn *name_fn;
    const VgCuda *warm;
    char nbuf[32];
    void *shim;

    setenv("VG_CUDA_DRIVER", opt.shim, 1);
    if (opt.real)
        setenv("VG_FAULT_REAL", opt.real, 1);
    else
        unsetenv("VG_FAULT_REAL");
    setenv("VG_FAULT_FUNCS", c->funcs, 1);
    snprintf(nbuf, sizeof(nbuf), "%lu", c->n);
    setenv("VG_FAULT_N", nbuf, 1);
    setenv("VG_FAULT_ERR", c->err ? c->err : "auto", 1);
    setenv("VG_FAULT_STICKY", c->sticky ? "1" : "0", 1);
    snprintf(nbuf, sizeof(nbuf), "%d", v->lag);
    setenv("VG_FAULT_EVENT_LAG", nbuf, 1);
    unsetenv("VG_FAULT_COUNT");
    alarm(opt.timeout);

    if (!(shim = dlopen(opt.shim, RTLD_NOW)) ||
        !(stats_fn = (VgFaultStatsFn *)dlsym(shim, "vgfault_stats")) ||
        !(pause_fn = (VgFaultPauseFn *)dlsym(shim, "vgfault_pause")) ||
        !(count_fn = (VgFaultFuncCountFn *)dlsym(shim, "vgfault_func_count")) ||
        !(name_fn = (VgFaultFuncNameFn *)dlsym(shim, "vgfault_func_name")) ||
        !(fired_fn = (VgFaultFiredFn *)dlsym(shim, "vgfault_fired")) ||
        !(err_name_fn = (VgFaultErrNameFn *)dlsym(shim, "vgfault_err_name"))) {
        snprintf(res->setup_error, sizeof(res->setup_error),
                 "cannot load the shim %s: %s", opt.shim, dlerror());
        _exit(2);
    }
    signal(SIGSEGV, on_fatal);
    signal(SIGBUS, on_fatal);
    signal(SIGFPE, on_fatal);
    signal(SIGABRT, on_fatal);
    signal(SIGALRM, on_fatal);
    res->n_funcs = count_fn() < MAX_FUNCS ? count_fn() : MAX_FUNCS;
    for (unsigned i = 0; i < res->n_funcs; i++)
        snprintf(res->func_names[i], sizeof(res->func_names[i]), "%s",
                 name_fn(i));

    rng = 0x9e3779b97f4a7c15ull;
    if (v->memory == VG_MEMORY_CUDA) {
        int ret;
        pause_fn(1);
        ret = own_setup(v, &own, pics, host[0]);
        pause_fn(0);
        if (ret < 0)
            _exit(2);
        if (v->caller_ctx) {
            cfg.cuda_context = own.ctx;
            cfg.cuda_stream = own.stream;
        }
    } else {
        for (int i = 0; i < 4; i++) {
            fill_noise(v, host[i], picture_bytes(v));
            describe(v, &pics[i], (uintptr_t)host[i], NULL);
        }
    }
    /* the driver's first load allocates for good (its TLS, dlopen()'s
     * bookkeeping): load it once before the heap is measured */
    pause_fn(1);
    if (vg_cuda_load(&warm, NULL, VG_LOG_ERROR) >= 0)
        vg_cuda_unload(&warm);
    pause_fn(0);
    stats(&res->before, 0);
    res->heap_before = heap_in_use();

    STEP("vg_context_create", vg_context_create(&ctx, &cfg));
    STEP("vg_use_model", vg_use_model(ctx, "version=vmaf_v0.6.1"));
    STEP("vg_use_feature", vg_use_feature(ctx, "psnr", NULL));
    for (unsigned i = 0; i < opt.frames; i++) {
        /* reference i % 2, distorted 2 + (i / 2) % 2: motion sees change */
        STEP("vg_submit",
             vg_submit(ctx, &pics[i & 1], &pics[2 + ((i >> 1) & 1)]));
        vg_frames_ready(ctx);
    }
    STEP("vg_flush", vg_flush(ctx));
    for (unsigned m = 0; m < vg_metric_count(ctx); m++) {
        const char *name = vg_metric_name(ctx, m);
        for (unsigned i = 0; i < opt.frames && res->n_scores < MAX_SCORES;
             i++) {
            double s;
            if (vg_get_score(ctx, name, i, &s) < 0)
                continue; /* debug-only or subsampled outputs */
            res->scores[res->n_scores++] = s;
        }
    }
    if (!res->n_scores) {
        res->ret = -ENODATA;
        snprintf(res->step, sizeof(res->step), "vg_get_score");
    }
close:
    stats(&res->at_close, 0);
    vg_context_destroy(&ctx);
    res->heap_after = heap_in_use();
    stats(&res->closed, 0);
    pause_fn(1);
    if (own_cleanup(&own) < 0)
        _exit(2);
    pause_fn(0);
    stats(&res->end, 1);
    if (res->end.fired && err_name_fn(res->end.fired_err))
        snprintf(res->err_name, sizeof(res->err_name), "%s",
                 err_name_fn(res->end.fired_err));
    res->done = 1;
    _exit(0);
}

/* ---- the parent: runs and judgements ------------------------------------------- */

static Result *result_map;
static unsigned n_runs, n_fail, n_injected;
static struct {
    int func;
    const void *site;
} sites[MAX_SITES];
static unsigned n_sites;
static unsigned long func_hits[MAX_FUNCS];
static char func_names[MAX_FUNCS][48];

static const char *func_name(const Result *r, int f)
{
    return f >= 0 && (unsigned)f < r->n_funcs ? r->func_names[f] : "?";
}

/* fork a child for the case and wait for it; 0, or -1 with why */
static int run(const Variant *v, const Case *c, char *why, size_t why_size)
{
    pid_t pid;
    int status;

    memset(result_map, 0, sizeof(*result_map));
    result_map->crash_func = -1;
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0) {
        snprintf(why, why_size, "fork failed");
        return -1;
    }
    if (!pid) {
        res = result_map;
        child(v, c);
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            snprintf(why, why_size, "waitpid failed");
            return -1;
        }
    }
    n_runs++;
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        char failed[128] = "";
        if (result_map->crash_func >= 0)
            snprintf(failed, sizeof(failed), " after %s failed (CUresult %d)",
                     func_name(result_map, result_map->crash_func),
                     result_map->crash_err);
        if (sig == SIGALRM)
            snprintf(why, why_size, "hang: killed after %u s%s", opt.timeout,
                     failed);
        else
            snprintf(why, why_size, "crash: signal %d (%s)%s", sig,
                     strsignal(sig), failed);
        return -1;
    }
    if (!result_map->done) {
        snprintf(why, why_size, "the run did not finish (exit %d)%s%s",
                 WEXITSTATUS(status), *result_map->setup_error ? ": " : "",
                 result_map->setup_error);
        return -1;
    }
    return 0;
}

/* the object class a failed release leaves behind, or -1 */
static int release_kind(const char *fn)
{
    static const struct {
        const char *name;
        int kind;
    } rel[] = {
        { "cuMemFree", VGFAULT_MEMORY },
        { "cuMemFreeHost", VGFAULT_PINNED },
        { "cuEventDestroy", VGFAULT_EVENT },
        { "cuStreamDestroy", VGFAULT_STREAM },
        { "cuModuleUnload", VGFAULT_MODULE },
        { "cuDevicePrimaryCtxRelease", VGFAULT_CONTEXT },
        { "cuCtxDestroy", VGFAULT_CONTEXT },
    };

    for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
        if (!strcmp(fn, rel[i].name))
            return rel[i].kind;
    return -1;
}

static const char *const kind_names[VGFAULT_NB_KINDS] = {
    "context", "device memory", "pinned memory", "stream", "event", "module",
};

/* a line of the log at WARNING or ERROR that names both strings */
static int log_names(const Result *r, const char *a, const char *b)
{
    const char *line = r->log;

    while (line && *line) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char buf[1024];

        snprintf(buf, sizeof(buf), "%.*s", (int)len, line);
        if ((buf[0] == '0' || buf[0] == '1') && buf[1] == ':' &&
            strstr(buf, a) && (!b || strstr(buf, b)))
            return 1;
        line = end ? end + 1 : NULL;
    }
    return 0;
}

static int log_has_error(const Result *r)
{
    return !strncmp(r->log, "0:", 2) || strstr(r->log, "\n0:");
}

/* objects of the run still there (or freed only with their context) */
static void leaks(const Result *r, const VgFaultStats *at, unsigned long out[])
{
    for (int k = 0; k < VGFAULT_NB_KINDS; k++)
        out[k] = at->outstanding[k] - r->before.outstanding[k] +
                 at->reclaimed[k] - r->before.reclaimed[k];
}

/* the errno a vg_ call returns for a failed driver call (gpu/core/cuda.c) */
static int expected_errno(int cu_err)
{
    switch (cu_err) {
    case 1:
        return -EINVAL; /* CUDA_ERROR_INVALID_VALUE */
    case 2:
        return -ENOMEM; /* CUDA_ERROR_OUT_OF_MEMORY */
    case 3:
    case 35:
    case 100:
    case 101:
        return -ENODEV; /* not initialised, no device, ... */
    case 209:
    case 801:
        return -ENOTSUP; /* no binary for the GPU, not supported */
    case 600:
        return -EAGAIN; /* CUDA_ERROR_NOT_READY */
    default:
        return -EIO;
    }
}

static int judge(const Variant *v, const Case *c, const Result *base, char *why,
                 size_t why_size)
{
    const Result *r = result_map;
    const int fired = r->end.fired > 0;
    const char *fn = fired ? func_name(r, r->end.fired_func) : "";
    const int at_close = fired && r->end.fired_at > r->at_close.total;
    unsigned long left[VGFAULT_NB_KINDS];
    int push_at_close, rk;

    if (opt.heap && r->heap_after != r->heap_before) {
        snprintf(why, why_size,
                 "%ld bytes of host memory more in use after "
                 "vg_context_destroy() than before vg_context_create()",
                 r->heap_after - r->heap_before);
        return -1;
    }
    if (r->end.errors) {
        snprintf(why, why_size,
                 "%lu driver call(s) failed without injection, "
                 "last: %s",
                 r->end.errors, r->end.last_error);
        return -1;
    }
    if (!fired && c->n && !r->end.forwarding) {
        /* the emulation is deterministic: every N of the range fires */
        snprintf(why, why_size, "call %lu of %s was never made", c->n,
                 c->funcs);
        return -1;
    }
    if (!fired || c->must_succeed) {
        if (r->ret < 0) {
            snprintf(why, why_size, "%s returned %d (%s)%s", r->step, r->ret,
                     strerror(-r->ret),
                     fired ? " on a call that did not fail"
                           : " without a failed call");
            return -1;
        }
        if (log_has_error(r)) {
            snprintf(why, why_size, "an error was logged in a successful run");
            return -1;
        }
        if (base && (r->n_scores != base->n_scores ||
                     memcmp(r->scores, base->scores,
                            r->n_scores * sizeof(r->scores[0])))) {
            snprintf(why, why_size, "scores differ from the first run's");
            return -1;
        }
    } else {
        const char *err = *r->err_name ? r->err_name : NULL;

        if (!at_close && r->ret >= 0) {
            snprintf(why, why_size,
                     "%s failed (%s) but every vg_ call "
                     "succeeded%s",
                     fn, err ? err : "?", r->n_scores ? ", with scores" : "");
            return -1;
        }
        /* vg_context_create() answers -ENODEV for any driver failure, and
         * so does the driver check at the first vg_submit() (cuInit,
         * cuDeviceGetCount: gpu/core/engine.c cuda_usable()) */
        const int want =
            !strcmp(fn, "cuInit") || !strcmp(fn, "cuDeviceGetCount")
                ? -ENODEV
                : expected_errno(r->end.fired_err);
        if (!at_close && strcmp(r->step, "vg_context_create") &&
            r->ret != want) {
            snprintf(why, why_size, "%s returned %d (%s) for %s, not %d",
                     r->step, r->ret, strerror(-r->ret), err ? err : "?", want);
            return -1;
        }
        if (!log_names(r, fn, err)) {
            snprintf(why, why_size, "no log line names %s and %s", fn,
                     err ? err : "its error");
            return -1;
        }
    }

    /* leaks: after vg_context_destroy(), and after the test's clean-up;
     * with every call failing from the Nth on, releases fail too */
    if (c->sticky && !c->must_succeed)
        return 0;
    leaks(r, &r->closed, left);
    push_at_close = at_close && !strcmp(fn, "cuCtxPushCurrent");
    rk = at_close ? release_kind(fn) : -1;
    for (int k = 0; k < VGFAULT_NB_KINDS; k++) {
        unsigned long allowed = k == rk ? 1 : 0;
        if (!push_at_close && left[k] > allowed) {
            snprintf(why, why_size,
                     "%lu %s object(s) left after "
                     "vg_context_destroy()%s",
                     left[k] - allowed, kind_names[k],
                     fired ? "" : " (no failure)");
            return -1;
        }
        if (r->end.outstanding[k] > allowed) {
            snprintf(why, why_size, "%lu %s object(s) left at the end",
                     r->end.outstanding[k], kind_names[k]);
            return -1;
        }
    }
    return 0;
}

static void note_site(const Result *r)
{
    if (!r->end.fired)
        return;
    if (r->end.fired_func >= 0 && r->end.fired_func < MAX_FUNCS) {
        func_hits[r->end.fired_func]++;
        memcpy(func_names[r->end.fired_func], r->func_names[r->end.fired_func],
               sizeof(func_names[0]));
    }
    for (unsigned i = 0; i < n_sites; i++)
        if (sites[i].func == r->end.fired_func &&
            sites[i].site == r->end.fired_site)
            return;
    if (n_sites < MAX_SITES) {
        sites[n_sites].func = r->end.fired_func;
        sites[n_sites].site = r->end.fired_site;
        n_sites++;
    }
}

static void report_fail(const Variant *v, const Case *c, const char *why)
{
    const Result *r = result_map;
    const char *line, *last = NULL;
    int lines = 0;

    n_fail++;
    printf("FAIL [%c] FUNCS=%s N=%lu%s%s%s: %s\n", v->key, c->funcs, c->n,
           c->err ? " ERR=" : "", c->err ? c->err : "",
           c->sticky ? " sticky" : "", why);
    if (r->end.fired)
        printf("    failed call: %s (CUresult %d) at driver call %lu\n",
               func_name(r, r->end.fired_func), r->end.fired_err,
               r->end.fired_at);
    /* the last lines of the log */
    for (line = r->log; (line = strchr(line, '\n')); line++)
        lines++;
    line = r->log;
    for (int skip = lines > 8 ? lines - 8 : 0; skip > 0 && line; skip--)
        line = strchr(line, '\n') + 1;
    for (; line && *line; line = last) {
        const char *end = strchr(line, '\n');
        printf("    log %.*s\n", (int)(end ? end - line : (long)strlen(line)),
               line);
        last = end ? end + 1 : NULL;
    }
}

/* run a case and judge it; 0 passed */
static int check_case(const Variant *v, const Case *c, const Result *base)
{
    char why[512];

    int ret = run(v, c, why, sizeof(why));

    if (ret >= 0 && result_map->end.fired && !c->must_succeed)
        n_injected++;
    else if (ret < 0 && result_map->crash_func >= 0)
        n_injected++;
    if (ret < 0 || judge(v, c, base, why, sizeof(why)) < 0) {
        report_fail(v, c, why);
        return -1;
    }
    note_site(result_map);
    if (opt.verbose)
        printf("ok   [%c] FUNCS=%s N=%lu: %s\n", v->key, c->funcs, c->n,
               result_map->end.fired
                   ? func_name(result_map, result_map->end.fired_func)
                   : "(nothing failed)");
    return 0;
}

static int func_index(const Result *r, const char *name)
{
    for (unsigned i = 0; i < r->n_funcs; i++)
        if (!strcmp(r->func_names[i], name))
            return (int)i;
    return -1;
}

static int sweep(const Variant *v)
{
    Result *base = malloc(sizeof(*base));
    unsigned fail0 = n_fail, runs0 = n_runs;
    unsigned long total = 0;
    Case c = { .funcs = "all" };
    Case cs;
    char why[512];
    int eq;

    if (!base)
        return -1;
    /* the first run: nothing fails; its counts give the range of N */
    if (run(v, &c, why, sizeof(why)) < 0 ||
        judge(v, &c, NULL, why, sizeof(why)) < 0) {
        report_fail(v, &c, why);
        free(base);
        return -1;
    }
    *base = *result_map;
    for (unsigned f = 0; f < base->n_funcs; f++)
        if (strcmp(base->func_names[f], "cuGetErrorName") &&
            strcmp(base->func_names[f], "cuGetErrorString"))
            total += base->calls[f];
    printf("[%c] %s: %lu driver calls in the run\n", v->key, v->name, total);

    if (!opt.funcs) {
        for (unsigned long n = 1; n <= total; n++) {
            if ((n - 1) % opt.sample)
                continue;
            c.n = n;
            c.sticky = opt.sticky;
            c.err = opt.err;
            check_case(v, &c, base);
        }
    } else {
        char list[512], *save = NULL;
        snprintf(list, sizeof(list), "%s", opt.funcs);
        for (char *p = strtok_r(list, ",", &save); p;
             p = strtok_r(NULL, ",", &save)) {
            for (unsigned f = 0; f < base->n_funcs; f++) {
                if (fnmatch(p, base->func_names[f], 0) || !base->calls[f])
                    continue;
                snprintf(c.funcs, sizeof(c.funcs), "%s", base->func_names[f]);
                for (unsigned long n = 1; n <= base->calls[f]; n++) {
                    if ((n - 1) % opt.sample)
                        continue;
                    c.n = n;
                    c.sticky = opt.sticky;
                    c.err = opt.err;
                    check_case(v, &c, base);
                }
            }
        }
    }

    /* CUDA_ERROR_NOT_READY from cuEventQuery: once per call, then always */
    eq = func_index(base, "cuEventQuery");
    cs = (Case){ .funcs = "cuEventQuery",
                 .err = "not_ready",
                 .must_succeed = 1 };
    for (unsigned long n = 1; eq >= 0 && n <= base->calls[eq]; n++) {
        if ((n - 1) % opt.sample)
            continue;
        cs.n = n;
        check_case(v, &cs, base);
    }
    cs.n = 1;
    cs.sticky = 1;
    check_case(v, &cs, base);

    printf("[%c] %u runs, %u failed\n", v->key, n_runs - runs0, n_fail - fail0);
    free(base);
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: test_fault [--real[=LIBCUDA]] [--shim=FILE] "
            "[--sample=K] [--funcs=LIST] [--err=NAME] [--sticky] "
            "[--variants=abcd] [--frames=N] [--timeout=S] [--forward=K] "
            "[--verbose]\n");
    exit(2);
}

/* sweep every chosen variant and print the summary; the failed runs */
static unsigned run_all(const char *label)
{
    struct timespec t0, t1;
    unsigned n_func_hit = 0;

    n_runs = n_fail = n_injected = n_sites = 0;
    memset(func_hits, 0, sizeof(func_hits));
    printf("test_fault: %s: driver %s, %u frames of %dx%d, vmaf_v0.6.1 + "
           "psnr, failing %s%s\n",
           label, opt.real ? opt.real : opt.shim, opt.frames, W, H,
           opt.funcs ? opt.funcs : "every call",
           opt.sample > 1 ? " (sampled)" : "");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
        if (strchr(opt.variants, variants[i].key))
            sweep(&variants[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);

    printf("test_fault: failed calls per function (call sites):");
    for (unsigned f = 0; f < MAX_FUNCS; f++) {
        unsigned n = 0;
        if (!func_hits[f])
            continue;
        for (unsigned i = 0; i < n_sites; i++)
            n += sites[i].func == (int)f;
        printf(" %s %lu (%u)", func_names[f], func_hits[f], n);
        n_func_hit++;
    }
    printf("\n");
    printf("test_fault: %s: %u runs, %u with a failed driver call, covering %u "
           "call sites in %u functions; %u failed (%.1f s)\n",
           label, n_runs, n_injected, n_sites, n_func_hit, n_fail,
           (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    return n_fail;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int ret = in && out ? 0 : -1;

    while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            ret = -1;
    if (in && ferror(in))
        ret = -1;
    if (in)
        fclose(in);
    if (out && fclose(out))
        ret = -1;
    return ret;
}

int main(int argc, char **argv)
{
    const char *env_real = getenv("VG_FAULT_TEST_REAL");
    const char *top = getenv("VG_TOP_BUILDDIR");
    const char *tunables = getenv("GLIBC_TUNABLES");
    char shim[4096];
    unsigned forward = 5, fails;

    /* glibc's per-thread cache keeps freed blocks counted as in use; with
     * it off, mallinfo2() tells whether the library freed all it took */
    if (!tunables || !strstr(tunables, "glibc.malloc.tcache_count=0")) {
        char buf[512];
        snprintf(buf, sizeof(buf), "%s%sglibc.malloc.tcache_count=0",
                 tunables ? tunables : "", tunables && *tunables ? ":" : "");
        setenv("GLIBC_TUNABLES", buf, 1);
        execv("/proc/self/exe", argv);
        fprintf(stderr, "test_fault: cannot restart without the malloc "
                        "cache; host memory is not checked\n");
    } else {
        opt.heap = 1;
    }
    if (env_real && *env_real)
        opt.real = env_real;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--real"))
            opt.real = "libcuda.so.1";
        else if (!strncmp(a, "--real=", 7))
            opt.real = a + 7;
        else if (!strncmp(a, "--shim=", 7))
            opt.shim = a + 7;
        else if (!strncmp(a, "--sample=", 9))
            opt.sample = (unsigned)strtoul(a + 9, NULL, 10);
        else if (!strncmp(a, "--funcs=", 8))
            opt.funcs = a + 8;
        else if (!strncmp(a, "--variants=", 11))
            opt.variants = a + 11;
        else if (!strncmp(a, "--frames=", 9))
            opt.frames = (unsigned)strtoul(a + 9, NULL, 10);
        else if (!strncmp(a, "--timeout=", 10))
            opt.timeout = (unsigned)strtoul(a + 10, NULL, 10);
        else if (!strncmp(a, "--err=", 6))
            opt.err = a + 6;
        else if (!strcmp(a, "--sticky"))
            opt.sticky = 1;
        else if (!strncmp(a, "--forward=", 10))
            forward = (unsigned)strtoul(a + 10, NULL, 10);
        else if (!strcmp(a, "--verbose") || !strcmp(a, "-v"))
            opt.verbose = 1;
        else
            usage();
    }
    if (!opt.sample || !opt.frames || opt.frames > MAX_FRAMES || !opt.timeout)
        usage();
    if (opt.real && opt.timeout == 20)
        opt.timeout = 120;
    /* the real driver keeps host memory of its own */
    if (opt.real)
        opt.heap = 0;
    if (!opt.shim) {
        snprintf(shim, sizeof(shim), "%s/tests/gpu/libcudafault.so",
                 top && *top ? top : ".");
        opt.shim = shim;
    }
    if (access(opt.shim, R_OK)) {
        fprintf(stderr, "test_fault: %s not found (--shim=FILE)\n", opt.shim);
        return 1;
    }
    result_map = mmap(NULL, sizeof(*result_map), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (result_map == MAP_FAILED) {
        perror("test_fault: mmap");
        return 1;
    }
    fails = run_all(opt.real ? "real" : "emulated");
    if (!opt.real && forward) {
        /* the forwarding code of the shim, to an emulating copy of it */
        char dir[] = "/tmp/vg-fault.XXXXXX", copy[64];
        if (!mkdtemp(dir)) {
            perror("test_fault: mkdtemp");
            return 1;
        }
        snprintf(copy, sizeof(copy), "%s/libcuda.so.1", dir);
        if (copy_file(opt.shim, copy) < 0) {
            fprintf(stderr, "test_fault: cannot copy %s to %s\n", opt.shim,
                    copy);
            fails++;
        } else {
            opt.real = copy;
            opt.heap = 0;
            opt.sample *= forward;
            fails += run_all("forwarding to an emulating copy");
        }
        unlink(copy);
        rmdir(dir);
    }
    return fails ? 1 : 0;
}
