/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: every feature alone, the CUDA backend against the CPU
 * backend, exact, through the public API (include/vmafgpu.h).
 *
 * Each feature test (tests/checkasm/<feat>.c) describes its feature (a
 * CaFeature: name, smallest size, frames per case, option sets, edge
 * sizes) and hands it to ca_check_feature(), which runs the case matrix:
 * bit depths 8/10/12/16 x layouts (4:2:0/4:2:2/4:4:4/4:0:0 planar, NV12,
 * P010, P016, NV16, P210/P212/P216, planar MSB 4:4:4) x sizes (the
 * feature's edge sizes from its minimum, odd sizes, one-row and
 * one-column strips at the feature's minimum, 1080p and 2160p) x patterns (tests/checkasm/pic.h) x pitches x option sets.
 * Every case scores the same frames on the CPU backend from host memory,
 * on the CUDA backend from host memory and on the CUDA backend from
 * device memory, each from its own copy of the pictures with its own
 * garbage around the samples, and compares every output of every frame
 * as doubles, bit for bit. A mismatch prints the case, the output, the
 * frame, both values (%.17g) and the command that repeats the case.
 *
 * Adding a feature FEAT:
 *   1. tests/checkasm/FEAT.c with void checkasm_check_FEAT(void) that
 *      calls ca_check_feature() on its description and, for a feature
 *      with SIMD builds, ca_check_builds() on their comparisons;
 *   2. one line checkasm_features += tests/checkasm/FEAT.c in
 *      tests/Makefile.inc.
 * The table of tests is the feature list (common/features/list.h): a
 * feature registered there without its checkasm_check_FEAT() does not
 * link.
 *
 * Options: --test=NAME (one feature), --list, --seed=N (default: the
 * time; always printed), --case=K (one case of the matrix, as printed on
 * a mismatch), --quick (no 1080p/2160p cases), --verbose, --bench[=N]
 * (instead of the checks: the CPU time per call of each feature alone in
 * each CPU build the processor runs, C, AVX2 and AVX-512, on the calling
 * thread at 1080p, NV12 and P010, host pictures, N / 20 calls per figure,
 * and the GPU time per call at 1080p and 2160p, NV12 and P010, pictures
 * resident in device memory, N calls per figure, default 200; printed,
 * never asserted; without a usable GPU, or with --cpu-only, the CPU
 * figures only; tests/bench/bench_cpu -b runs this), --cpu-only
 * (no GPU: the CPU backend on the calling thread against the CPU backend
 * with 2 threads, each on its own garbage, over the same matrix),
 * --builds (no GPU: instead of the matrix, the CPU backend's C, AVX2 and
 * AVX-512 builds, those the processor runs, against each other over each
 * feature's own comparisons, ca_check_builds(); VG_REQUIRE_AVX512 set in
 * the environment makes a processor without AVX-512 a failure).
 *
 * After the features, the test api (tests/checkasm/api.c, GPU mode only)
 * runs whole-API cases, several features and a model in one context;
 * --sample=K keeps every K-th of its small cases (compute-sanitizer).
 *
 * Exit status: 0 all passed, 1 a case failed, 77 no usable GPU (skip),
 * which is a failure when the environment sets VG_REQUIRE_GPU=1.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cpu.h"
#include "tests/checkasm/checkasm.h"

/* the table of feature tests, in the order of common/features/list.h */
static const struct {
    const char *name;
    void (*fn)(void);
    int gpu; ///< the feature has a CUDA implementation
    int api; ///< whole-API cases: GPU mode only
} tests[] = {
#define VG_FEATURE(feat, gpu) { #feat, checkasm_check_##feat, gpu, 0 },
#include "common/features/list.h"
#undef VG_FEATURE
    { "api", checkasm_check_api, 1, 1 }, { NULL, NULL, 0, 0 }
};

/* failing cases whose details are printed; the rest are only counted */
#define MAX_REPORTED 10
/* mismatching values printed per comparison */
#define MAX_VALUES 4
/* frame pairs resident on the GPU for --bench */
#define BENCH_PAIRS 4

static struct {
    uint64_t seed;
    const char *test; ///< --test
    long case_only;   ///< --case, or -1
    int quick, verbose, cpu_only;
    unsigned sample; ///< --sample: every sample-th small case (api)
    int builds;      ///< --builds: the CPU builds against each other
    unsigned bench;  ///< --bench: calls per figure, 0 = check
    BenchCuda cuda;  ///< the caller's CUDA set-up (GPU mode)
    unsigned n_cases, n_failed, n_reported;
    unsigned n_errors; ///< failures outside the cases (bench, set-up)
    unsigned long long n_values;
    int expect_refusal; ///< the running case is one the feature refuses
    int gpu;            ///< the running test's feature runs on CUDA
} state = { .case_only = -1, .sample = 1 };

/* ---- for tests that run their own cases ------------------------------------ */

const BenchCuda *ca_cuda(void)
{
    return state.cpu_only || state.builds || state.bench ? NULL : &state.cuda;
}

uint64_t ca_run_seed(void)
{
    return state.seed;
}

int ca_verbose(void)
{
    return state.verbose;
}

int ca_quick(void)
{
    return state.quick;
}

unsigned ca_sample(void)
{
    return state.sample;
}

void ca_count_cases(unsigned passed, unsigned failed, unsigned long long values)
{
    state.n_cases += passed + failed;
    state.n_failed += failed;
    state.n_values += values;
}

/* ---- the case matrix ------------------------------------------------------ */

typedef struct CaCase {
    unsigned index; ///< position in the feature's matrix (--case)
    enum VgPixFmt fmt;
    unsigned bpc, w, h;
    enum CaPattern pat;
    enum CaPitch pitch;
    unsigned opt; ///< index in CaFeature.opts
    unsigned frames;
    int own_stream; ///< device pictures: the library on its own stream
    int big;        ///< skipped with --quick
} CaCase;

/* every depth and layout the API takes */
static const struct {
    enum VgPixFmt fmt;
    unsigned bpc;
} combos[] = {
    { VG_PIX_FMT_YUV420P, 8 },      { VG_PIX_FMT_YUV422P, 8 },
    { VG_PIX_FMT_YUV444P, 8 },      { VG_PIX_FMT_YUV400P, 8 },
    { VG_PIX_FMT_NV12, 8 },         { VG_PIX_FMT_YUV420P, 10 },
    { VG_PIX_FMT_YUV422P, 10 },     { VG_PIX_FMT_YUV444P, 10 },
    { VG_PIX_FMT_YUV400P, 10 },     { VG_PIX_FMT_P010, 10 },
    { VG_PIX_FMT_P016, 10 },        { VG_PIX_FMT_YUV420P, 12 },
    { VG_PIX_FMT_YUV422P, 12 },     { VG_PIX_FMT_YUV444P, 12 },
    { VG_PIX_FMT_YUV400P, 12 },     { VG_PIX_FMT_P016, 12 },
    { VG_PIX_FMT_YUV420P, 16 },     { VG_PIX_FMT_YUV422P, 16 },
    { VG_PIX_FMT_YUV444P, 16 },     { VG_PIX_FMT_YUV400P, 16 },
    { VG_PIX_FMT_P016, 16 },        { VG_PIX_FMT_NV16, 8 },
    { VG_PIX_FMT_P216, 10 },        { VG_PIX_FMT_P216, 12 },
    { VG_PIX_FMT_P216, 16 },        { VG_PIX_FMT_YUV444P_MSB, 10 },
    { VG_PIX_FMT_YUV444P_MSB, 12 },
};
#define N_COMBOS (sizeof(combos) / sizeof(combos[0]))

#define MAX_SIZES 32

static unsigned lift(unsigned v, unsigned min)
{
    return v < min ? min + 2 : v;
}

/* the feature's edge sizes, then odd sizes and the strips one row or
 * column high where the feature allows it (else its minimum) */
static unsigned small_sizes(const CaFeature *f, CaSize *s)
{
    static const CaSize odd[] = { { 33, 17 }, { 67, 35 }, { 577, 323 } };
    unsigned n = 0;

    for (unsigned i = 0; f->sizes && f->sizes[i].w && n < MAX_SIZES - 5; i++)
        s[n++] = f->sizes[i];
    for (unsigned i = 0; i < 3; i++)
        s[n++] = (CaSize){ lift(odd[i].w, f->min_w), lift(odd[i].h, f->min_h) };
    s[n++] = (CaSize){ lift(577, f->min_w), f->min_h ? f->min_h : 1 };
    s[n++] = (CaSize){ f->min_w ? f->min_w : 1, lift(323, f->min_h) };
    return n;
}

static unsigned n_opts(const CaFeature *f)
{
    unsigned n = 0;

    while (f->opts[n])
        n++;
    return n;
}

/* the n-th layout of this depth (cycling) */
static enum VgPixFmt fmt_of_depth(unsigned bpc, unsigned n)
{
    unsigned count = 0;

    for (unsigned c = 0; c < N_COMBOS; c++)
        count += combos[c].bpc == bpc;
    n %= count;
    for (unsigned c = 0; c < N_COMBOS; c++)
        if (combos[c].bpc == bpc && !n--)
            return combos[c].fmt;
    return VG_PIX_FMT_YUV420P;
}

/*
 * The matrix of feature f, in a fixed order (the --case numbers). Each
 * depth x layout meets every size once, the patterns, pitches, option sets
 * and streams rotating so that each depth x layout sees every pattern and
 * each size every pattern; then every option set at every depth; then the
 * big sizes. @return the number of cases (at most max).
 */
static unsigned make_cases(const CaFeature *f, CaCase *cs, unsigned max)
{
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const CaSize big[] = { { 1920, 1080 }, { 3840, 2160 } };
    const unsigned no = n_opts(f);
    const unsigned big_frames = f->frames < 3 ? f->frames : 3;
    CaSize sizes[MAX_SIZES];
    const unsigned ns = small_sizes(f, sizes);
    unsigned n = 0;

#define ADD(...)                                                               \
    do {                                                                       \
        if (n < max) {                                                         \
            cs[n] = (CaCase){ __VA_ARGS__ };                                   \
            cs[n].index = n;                                                   \
        }                                                                      \
        n++;                                                                   \
    } while (0)
    for (unsigned c = 0; c < N_COMBOS; c++)
        for (unsigned s = 0; s < ns; s++)
            ADD(.fmt = combos[c].fmt, .bpc = combos[c].bpc, .w = sizes[s].w,
                .h = sizes[s].h, .pat = (enum CaPattern)((c + s) % CA_PAT_NB),
                .pitch = (enum CaPitch)((c / 2 + s) % CA_PITCH_NB),
                .opt = (c + 2 * s) % no, .frames = f->frames,
                .own_stream = (c + s / 2) & 1);
    for (unsigned o = 0; o < no; o++)
        for (unsigned d = 0; d < 4; d++)
            ADD(.fmt = fmt_of_depth(depths[d], o + d), .bpc = depths[d],
                .w = (o + d) & 1 ? lift(67, f->min_w) : sizes[0].w,
                .h = (o + d) & 1 ? lift(35, f->min_h) : sizes[0].h,
                .pat = (enum CaPattern)((3 * o + d) % CA_PAT_NB),
                .pitch = (enum CaPitch)(((o + d) & 1) ^ 1), .opt = o,
                .frames = f->frames, .own_stream = (o + d / 2) & 1);
    for (unsigned b = 0; b < 2; b++) {
        static const enum VgPixFmt fmts[] = {
            VG_PIX_FMT_NV12,
            VG_PIX_FMT_P010,
            VG_PIX_FMT_YUV422P,
            VG_PIX_FMT_YUV420P,
        };
        static const enum CaPattern pats[] = {
            CA_PAT_RANDOM,
            CA_PAT_NOISE,
            CA_PAT_GRADIENT,
            CA_PAT_PM1,
        };
        for (unsigned d = 0; d < 4; d++)
            ADD(.fmt = fmts[d], .bpc = depths[d], .w = big[b].w, .h = big[b].h,
                .pat = pats[(d + b) % 4], .pitch = CA_PITCH_PADDED,
                .opt = (d + b) % no, .frames = big_frames,
                .own_stream = (d + b) & 1, .big = 1);
        ADD(.fmt = VG_PIX_FMT_YUV444P, .bpc = 10, .w = big[b].w, .h = big[b].h,
            .pat = CA_PAT_MAX, .pitch = CA_PITCH_TIGHT, .opt = 0,
            .frames = big_frames, .own_stream = b, .big = 1);
    }
#undef ADD
    return n;
}

/* ---- one case ------------------------------------------------------------- */

/* one scoring of a case's frames: a context and its copy of the pictures */
typedef struct Run {
    const char *label;
    VgContext *ctx;
    CaPic ref, dis;
    const BenchCuda *cuda; ///< pictures in device memory: the set-up, else NULL
    enum VgBackend backend;
    unsigned threads;
    int callers_ctx;  ///< the library on the caller's context and stream
    uint64_t garbage; ///< this copy's garbage
} Run;

void ca_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    /* a refusal the case expects is not news */
    if ((level <= VG_LOG_WARNING && !state.expect_refusal) || state.verbose)
        fprintf(stderr, "  [lib, %s] %s\n", (const char *)opaque, msg);
}

static void describe(char *buf, size_t size, const CaFeature *f,
                     const CaCase *c)
{
    snprintf(buf, size,
             "%u-bit %ux%u %s, pattern %s, pitch %s, options "
             "\"%s\", %u frames",
             c->bpc, c->w, c->h, ca_fmt_name(c->fmt), ca_pattern_names[c->pat],
             ca_pitch_names[c->pitch], f->opts[c->opt], c->frames);
}

/* the first line of a failing case's report; @return 1 if details are to
 * be printed */
static int report_case(const CaFeature *f, const CaCase *c, int *reported)
{
    char desc[256];

    if (*reported)
        return *reported > 0;
    if (state.n_reported >= MAX_REPORTED) {
        *reported = -1;
        return 0;
    }
    state.n_reported++;
    *reported = 1;
    describe(desc, sizeof(desc), f, c);
    printf("checkasm: FAIL %s case %u: %s\n", f->name, c->index, desc);
    return 1;
}

static void fail(const CaFeature *f, const CaCase *c, int *reported,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void fail(const CaFeature *f, const CaCase *c, int *reported,
                 const char *fmt, ...)
{
    va_list ap;

    if (!report_case(f, c, reported))
        return;
    printf("checkasm:   ");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

static int open_run(Run *r, const CaFeature *f, const CaCase *c,
                    const CaFrame *fr)
{
    VgConfig cfg = {
        .backend = r->backend,
        .n_threads = r->threads,
        .log_level = state.verbose ? VG_LOG_INFO : VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)r->label,
    };
    int ret;

    if (r->callers_ctx) {
        cfg.cuda_context = state.cuda.ctx;
        cfg.cuda_stream = state.cuda.st;
    }
    if ((ret = ca_pic_alloc(&r->ref, fr, c->pitch, r->cuda)) < 0 ||
        (ret = ca_pic_alloc(&r->dis, fr, c->pitch, r->cuda)) < 0 ||
        (ret = vg_context_create(&r->ctx, &cfg)) < 0)
        return ret;
    return vg_use_feature(r->ctx, f->name, f->opts[c->opt]);
}

/*
 * Every output of every frame of run b against run a, bit for bit.
 * @return the number of values compared, or -1 on a mismatch.
 */
static long compare(const CaFeature *f, const CaCase *c, Run *a, Run *b,
                    int *reported)
{
    const unsigned n = vg_metric_count(a->ctx), frames = vg_frame_count(a->ctx);
    unsigned bad = 0;
    long values = 0;

    if (n != vg_metric_count(b->ctx) || frames != vg_frame_count(b->ctx)) {
        fail(f, c, reported,
             "%s: %u outputs of %u frames, %s: %u outputs of "
             "%u frames",
             a->label, n, frames, b->label, vg_metric_count(b->ctx),
             vg_frame_count(b->ctx));
        return -1;
    }
    for (unsigned m = 0; m < n; m++) {
        const char *name = vg_metric_name(a->ctx, m);
        for (unsigned i = 0; i < frames; i++) {
            double x = 0, y = 0;
            const int ra = vg_get_score(a->ctx, name, i, &x);
            const int rb = vg_get_score(b->ctx, name, i, &y);

            if (ra == rb && (ra < 0 || !memcmp(&x, &y, sizeof(x)))) {
                values += !ra;
                continue;
            }
            if (bad++ < MAX_VALUES && report_case(f, c, reported)) {
                if (bad == 1)
                    printf("checkasm:   %s against %s\n", b->label, a->label);
                printf(
                    "checkasm:   %s frame %u: %s %.17g (%s), %s %.17g (%s)\n",
                    name, i, a->label, x, ra ? strerror(-ra) : "ok", b->label,
                    y, rb ? strerror(-rb) : "ok");
            }
        }
    }
    if (bad > MAX_VALUES && report_case(f, c, reported))
        printf("checkasm:   ... %u values differ in all\n", bad);
    if (!bad && !values)
        fail(f, c, reported, "%s against %s: no value to compare", b->label,
             a->label);
    return bad || !values ? -1 : values;
}

static void fill_frame(const CaFeature *f, CaFrame *fr, enum CaPattern pat,
                       unsigned frame, uint64_t *rng)
{
    if (f->fill)
        f->fill(fr, pat, frame, rng);
    else
        ca_frame_fill(fr, pat, frame, rng);
}

static void run_case(const CaFeature *f, const CaCase *c)
{
    const uint64_t key = ca_seed(state.seed, c->index);
    uint64_t fnv = UINT64_C(14695981039346656037), rng;
    Run runs[3] = { { 0 } };
    const int refused = f->refuses && f->refuses(c->fmt, c->bpc, c->w, c->h);
    int refusal[3] = { 0 };
    unsigned n_runs;
    int reported = 0, ok = 0;
    long values = 0;
    CaFrame fr;
    int ret;

    if (f->needs_chroma && c->fmt == VG_PIX_FMT_YUV400P)
        return;
    /* each feature and case has its own inputs, whatever else runs */
    for (const char *s = f->name; *s; s++)
        fnv = (fnv ^ (uint8_t)*s) * UINT64_C(1099511628211);
    rng = ca_seed(key, fnv);
    runs[0] = (Run){ .label = "cpu", .backend = VG_BACKEND_CPU };
    if (state.cpu_only) {
        runs[1] = (Run){ .label = "cpu (2 threads)",
                         .backend = VG_BACKEND_CPU,
                         .threads = 2 };
        n_runs = 2;
    } else {
        runs[1] = (Run){ .label = "cuda (host memory)",
                         .backend = VG_BACKEND_CUDA,
                         .threads = 2 };
        runs[2] = (Run){ .label = c->own_stream
                                      ? "cuda (device memory, library's stream)"
                                      : "cuda (device memory, caller's stream)",
                         .backend = VG_BACKEND_CUDA,
                         .cuda = &state.cuda,
                         .callers_ctx = !c->own_stream };
        n_runs = 3;
    }
    for (unsigned r = 0; r < n_runs; r++)
        runs[r].garbage = ca_seed(rng, 1000 + r);

    if ((ret = ca_frame_alloc(&fr, c->fmt, c->bpc, c->w, c->h)) < 0) {
        fail(f, c, &reported, "cannot allocate the frames: %s", strerror(-ret));
        goto end;
    }
    for (unsigned r = 0; r < n_runs; r++) {
        if ((ret = open_run(&runs[r], f, c, &fr)) < 0) {
            fail(f, c, &reported, "%s: cannot set up: %s", runs[r].label,
                 strerror(-ret));
            goto end;
        }
    }
    state.expect_refusal = refused;
    if (refused) {
        /* the first frame starts every run: each one must refuse it alike */
        fill_frame(f, &fr, c->pat, 0, &rng);
        for (unsigned r = 0; r < n_runs; r++) {
            Run *x = &runs[r];
            ca_pic_pack(&x->ref, &fr, 0, &x->garbage);
            ca_pic_pack(&x->dis, &fr, 1, &x->garbage);
            if (x->cuda && ((ret = ca_pic_upload(&x->ref, x->cuda)) < 0 ||
                            (ret = ca_pic_upload(&x->dis, x->cuda)) < 0)) {
                fail(f, c, &reported, "%s: upload: %s", x->label,
                     strerror(-ret));
                goto end;
            }
            refusal[r] = vg_submit(x->ctx, &x->ref.pic, &x->dis.pic);
            if (refusal[r] >= 0 || refusal[r] != refusal[0]) {
                fail(f, c, &reported,
                     "%s: vg_submit() returned %d, %s %d, "
                     "where the feature refuses",
                     x->label, refusal[r], runs[0].label, refusal[0]);
                goto end;
            }
        }
        ok = 1;
        goto end;
    }
    for (unsigned i = 0; i < c->frames; i++) {
        fill_frame(f, &fr, c->pat, i, &rng);
        for (unsigned r = 0; r < n_runs; r++) {
            Run *x = &runs[r];
            ca_pic_pack(&x->ref, &fr, 0, &x->garbage);
            ca_pic_pack(&x->dis, &fr, 1, &x->garbage);
            /* the previous frame's device pictures are consumed before
             * work queued on their stream after vg_submit() returned */
            if (x->cuda && ((ret = ca_pic_upload(&x->ref, x->cuda)) < 0 ||
                            (ret = ca_pic_upload(&x->dis, x->cuda)) < 0)) {
                fail(f, c, &reported, "%s: upload of frame %u: %s", x->label, i,
                     strerror(-ret));
                goto end;
            }
            if ((ret = vg_submit(x->ctx, &x->ref.pic, &x->dis.pic)) < 0) {
                fail(f, c, &reported, "%s: vg_submit() of frame %u: %s",
                     x->label, i, strerror(-ret));
                goto end;
            }
        }
    }
    for (unsigned r = 0; r < n_runs; r++) {
        if ((ret = vg_flush(runs[r].ctx)) < 0) {
            fail(f, c, &reported, "%s: vg_flush(): %s", runs[r].label,
                 strerror(-ret));
            goto end;
        }
        if (vg_backend_is_cuda(runs[r].ctx) !=
            (runs[r].backend == VG_BACKEND_CUDA)) {
            fail(f, c, &reported, "%s: ran on the %s backend", runs[r].label,
                 vg_backend_is_cuda(runs[r].ctx) ? "CUDA" : "CPU");
            goto end;
        }
    }
    ok = 1;
    for (unsigned r = 1; r < n_runs; r++) {
        long v = compare(f, c, &runs[0], &runs[r], &reported);
        if (v < 0)
            ok = 0;
        else
            values += v;
    }

end:
    for (unsigned r = 0; r < n_runs; r++)
        vg_context_destroy(&runs[r].ctx);
    /* the device pictures' last reads are queued on the caller's stream */
    if (!state.cpu_only &&
        VG_CU(state.cuda.cu, NULL, cuStreamSynchronize, state.cuda.st) < 0) {
        fail(f, c, &reported, "cuStreamSynchronize() after the case failed");
        ok = 0;
    }
    for (unsigned r = 0; r < n_runs; r++) {
        if (ca_pic_free(&runs[r].ref, runs[r].cuda) < 0 ||
            ca_pic_free(&runs[r].dis, runs[r].cuda) < 0) {
            fail(f, c, &reported, "%s: freeing the pictures failed",
                 runs[r].label);
            ok = 0;
        }
    }
    ca_frame_free(&fr);
    state.expect_refusal = 0;
    state.n_cases++;
    if (!ok) {
        state.n_failed++;
        if (reported > 0)
            printf("checkasm:   reproduce: checkasm --test=%s --seed=%" PRIu64
                   " --case=%u%s\n",
                   f->name, state.seed, c->index,
                   state.cpu_only ? " --cpu-only" : "");
        return;
    }
    state.n_values += (unsigned long long)values;
    if (state.verbose) {
        char desc[256];
        describe(desc, sizeof(desc), f, c);
        printf("checkasm: %s case %u: %s: %ld values equal\n", f->name,
               c->index, desc, values);
    }
}

/* ---- the CPU builds ------------------------------------------------------- */

/* at most this many outputs per builds comparison */
#define MAX_KEYS 16

static const struct {
    const char *name;
    unsigned need; ///< CPU flags the build needs
    unsigned mask; ///< vg_cpu_set_mask() that selects it
} cpu_builds[] = {
    { "C", 0, VG_CPU_FLAG_AVX2 },
    { "AVX2", VG_CPU_FLAG_AVX2, VG_CPU_FLAG_AVX512 },
    { "AVX-512", VG_CPU_FLAG_AVX2 | VG_CPU_FLAG_AVX512, 0 },
};
#define N_CPU_BUILDS (sizeof(cpu_builds) / sizeof(cpu_builds[0]))

/* the number of builds this processor runs, C first */
static unsigned cpu_builds_run(void)
{
    const unsigned have = vg_cpu_flags();
    unsigned n = 0;

    while (n < N_CPU_BUILDS &&
           (have & cpu_builds[n].need) == cpu_builds[n].need)
        n++;
    return n;
}

/*
 * The values of keys over the frames of one case in the build selected
 * now, the frames drawn anew. @return 0, or a negative errno with err
 * set.
 */
static int builds_values(const CaBuilds *b, const char *const *keys,
                         unsigned nk, CaFrame *fr, unsigned pat,
                         unsigned frames, uint64_t *garbage, double *out,
                         char *err, size_t err_size)
{
    const VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .log_level = state.verbose ? VG_LOG_INFO : VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)"cpu builds",
    };
    VgContext *ctx = NULL;
    CaPic ref, dis;
    int ret;

    memset(&ref, 0, sizeof(ref));
    memset(&dis, 0, sizeof(dis));
    if ((ret = ca_pic_alloc(&ref, fr, CA_PITCH_PADDED, NULL)) < 0 ||
        (ret = ca_pic_alloc(&dis, fr, CA_PITCH_PADDED, NULL)) < 0 ||
        (ret = vg_context_create(&ctx, &cfg)) < 0 ||
        (ret = vg_use_feature(ctx, b->name, b->opts)) < 0) {
        snprintf(err, err_size, "cannot set up: %s", strerror(-ret));
        goto end;
    }
    for (unsigned i = 0; i < frames; i++) {
        if (b->fill)
            b->fill(fr, pat, i);
        else
            ca_frame_fill_builds(fr, pat, i);
        ca_pic_pack(&ref, fr, 0, garbage);
        ca_pic_pack(&dis, fr, 1, garbage);
        if ((ret = vg_submit(ctx, &ref.pic, &dis.pic)) < 0) {
            snprintf(err, err_size, "vg_submit() of frame %u: %s", i,
                     strerror(-ret));
            goto end;
        }
    }
    if ((ret = vg_flush(ctx)) < 0) {
        snprintf(err, err_size, "vg_flush(): %s", strerror(-ret));
        goto end;
    }
    for (unsigned i = 0; i < frames; i++) {
        for (unsigned k = 0; k < nk; k++) {
            if ((ret = vg_get_score(ctx, keys[k], i, &out[i * nk + k])) < 0) {
                snprintf(err, err_size, "%s of frame %u missing", keys[k], i);
                goto end;
            }
        }
    }
end:
    vg_context_destroy(&ctx);
    ca_pic_free(&ref, NULL);
    ca_pic_free(&dis, NULL);
    return ret;
}

void ca_check_builds(const CaBuilds *b)
{
    const unsigned nb = cpu_builds_run();
    const unsigned frames = b->frames ? b->frames : 2;
    const unsigned n_pat = b->fill ? b->patterns : CA_BPAT_NB;
    const unsigned cases0 = state.n_cases, failed0 = state.n_failed;
    const unsigned long long values0 = state.n_values;
    const char *opts = b->opts ? b->opts : "";
    char key_buf[MAX_KEYS][96];
    const char *keys[MAX_KEYS];
    unsigned nk = 0, index = 0;
    double *v;

    if (!state.builds)
        return;
    for (; b->keys[nk]; nk++) {
        if (nk == MAX_KEYS) {
            printf("checkasm: builds %s: more than %u outputs\n", b->name,
                   MAX_KEYS);
            state.n_errors++;
            return;
        }
        snprintf(key_buf[nk], sizeof(key_buf[nk]), "%s%s", b->keys[nk],
                 b->suffix ? b->suffix : "");
        keys[nk] = key_buf[nk];
    }
    if (!(v = malloc(sizeof(*v) * N_CPU_BUILDS * frames * nk))) {
        printf("checkasm: builds %s: out of memory\n", b->name);
        state.n_errors++;
        return;
    }
    for (unsigned s = 0; b->sizes[s].w; s++) {
        for (unsigned d = 0; b->depths[d]; d++) {
            for (unsigned pat = 0; pat < n_pat; pat++, index++) {
                const unsigned w = b->sizes[s].w, h = b->sizes[s].h;
                const unsigned bpc = b->depths[d];
                uint64_t garbage = ca_seed(state.seed, index);
                unsigned long long values = 0;
                unsigned shown = 0;
                char err[256];
                int ok = 1;
                CaFrame fr;

                if (ca_frame_alloc(&fr, VG_PIX_FMT_YUV420P, bpc, w, h) < 0) {
                    printf("checkasm: FAIL builds %s \"%s\" %ux%u %u-bit: "
                           "out of memory\n",
                           b->name, opts, w, h, bpc);
                    ok = 0;
                }
                for (unsigned m = 0; ok && m < nb; m++) {
                    vg_cpu_set_mask(cpu_builds[m].mask);
                    if (builds_values(b, keys, nk, &fr, pat, frames, &garbage,
                                      v + m * frames * nk, err,
                                      sizeof(err)) < 0) {
                        printf("checkasm: FAIL builds %s \"%s\" %ux%u "
                               "%u-bit pattern %u: %s build: %s\n",
                               b->name, opts, w, h, bpc, pat,
                               cpu_builds[m].name, err);
                        ok = 0;
                    }
                }
                vg_cpu_set_mask(0);
                ca_frame_free(&fr);
                for (unsigned m = 1; ok && m < nb; m++) {
                    const double *c = v, *x = v + m * frames * nk;
                    for (unsigned k = 0; k < frames * nk; k++) {
                        if (!memcmp(&c[k], &x[k], sizeof(double))) {
                            values++;
                            continue;
                        }
                        if (shown++ < MAX_VALUES)
                            printf("checkasm: FAIL builds %s \"%s\" %ux%u "
                                   "%u-bit pattern %u frame %u: %s %.17g (%s), "
                                   "C %.17g\n",
                                   b->name, opts, w, h, bpc, pat, k / nk,
                                   keys[k % nk], x[k], cpu_builds[m].name,
                                   c[k]);
                    }
                }
                state.n_cases++;
                if (!ok || shown)
                    state.n_failed++;
                else
                    state.n_values += values;
            }
        }
    }
    free(v);
    printf("checkasm: builds %-6s \"%s\": %4u cases, %4u failed, %7llu "
           "values compared [%s]\n",
           b->name, opts, state.n_cases - cases0, state.n_failed - failed0,
           state.n_values - values0,
           state.n_failed == failed0 ? "OK" : "FAILED");
}

/* ---- benchmark -------------------------------------------------------------- */

static int bench_one(const CaFeature *f, enum VgPixFmt fmt, unsigned bpc,
                     unsigned w, unsigned h)
{
    const VgConfig cfg = {
        .backend = VG_BACKEND_CUDA,
        .log_level = VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)"bench",
        .cuda_context = state.cuda.ctx,
        .cuda_stream = state.cuda.st,
    };
    const BenchCuda *cuda = &state.cuda;
    CaPic ref[BENCH_PAIRS], dis[BENCH_PAIRS];
    uint64_t rng = ca_seed(state.seed, w), garbage = ca_seed(state.seed, h);
    VgContext *ctx = NULL;
    double t0, t1;
    float ms = 0;
    CaFrame fr;
    int ret;

    memset(ref, 0, sizeof(ref));
    memset(dis, 0, sizeof(dis));
    if ((ret = ca_frame_alloc(&fr, fmt, bpc, w, h)) < 0)
        goto end;
    for (unsigned i = 0; i < BENCH_PAIRS; i++) {
        ca_frame_fill(&fr, CA_PAT_RANDOM, i, &rng);
        if ((ret = ca_pic_alloc(&ref[i], &fr, CA_PITCH_TIGHT, cuda)) < 0 ||
            (ret = ca_pic_alloc(&dis[i], &fr, CA_PITCH_TIGHT, cuda)) < 0)
            goto end;
        ca_pic_pack(&ref[i], &fr, 0, &garbage);
        ca_pic_pack(&dis[i], &fr, 1, &garbage);
        if ((ret = ca_pic_upload(&ref[i], cuda)) < 0 ||
            (ret = ca_pic_upload(&dis[i], cuda)) < 0)
            goto end;
    }
    if ((ret = vg_context_create(&ctx, &cfg)) < 0 ||
        (ret = vg_use_feature(ctx, f->name, f->opts[0])) < 0)
        goto end;
    /* warm-up: engine start, module load, allocations */
    for (unsigned i = 0; i < BENCH_PAIRS; i++)
        if ((ret = vg_submit(ctx, &ref[i].pic, &dis[i].pic)) < 0)
            goto end;
    if ((ret = VG_CU(cuda->cu, NULL, cuStreamSynchronize, cuda->st)) < 0)
        goto end;
    t0 = bench_now();
    if ((ret = VG_CU(cuda->cu, NULL, cuEventRecord, cuda->e0, cuda->st)) < 0)
        goto end;
    for (unsigned i = 0; i < state.bench; i++)
        if ((ret = vg_submit(ctx, &ref[i % BENCH_PAIRS].pic,
                             &dis[i % BENCH_PAIRS].pic)) < 0)
            goto end;
    if ((ret = VG_CU(cuda->cu, NULL, cuEventRecord, cuda->e1, cuda->st)) < 0 ||
        (ret = vg_flush(ctx)) < 0)
        goto end;
    t1 = bench_now();
    if (bench_cuda_elapsed(cuda, &ms) < 0) {
        ret = -EIO;
        goto end;
    }
    printf("checkasm: bench %-6s %4ux%-4u %-4s: GPU %8.4f ms/call (CUDA "
           "events), wall %8.4f ms/call, %u calls\n",
           f->name, w, h, ca_fmt_name(fmt), ms / state.bench,
           (t1 - t0) * 1e3 / state.bench, state.bench);
end:
    vg_context_destroy(&ctx);
    if (VG_CU(cuda->cu, NULL, cuStreamSynchronize, cuda->st) < 0 && ret >= 0)
        ret = -EIO;
    for (unsigned i = 0; i < BENCH_PAIRS; i++)
        if ((ca_pic_free(&ref[i], cuda) < 0 ||
             ca_pic_free(&dis[i], cuda) < 0) &&
            ret >= 0)
            ret = -EIO;
    ca_frame_free(&fr);
    if (ret < 0)
        printf("checkasm: bench %s %ux%u %s: FAILED (%s)\n", f->name, w, h,
               ca_fmt_name(fmt), strerror(-ret));
    return ret;
}

static void bench_feature(const CaFeature *f)
{
    static const CaSize sizes[] = { { 1920, 1080 }, { 3840, 2160 } };

    for (unsigned s = 0; s < 2; s++) {
        if (bench_one(f, VG_PIX_FMT_NV12, 8, sizes[s].w, sizes[s].h) < 0)
            state.n_errors++;
        if (bench_one(f, VG_PIX_FMT_P010, 10, sizes[s].w, sizes[s].h) < 0)
            state.n_errors++;
    }
}

/* process CPU time in seconds (every thread) */
static double cpu_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * CPU seconds per call of feature f on the calling thread in the build
 * selected now, from host pictures, after one untimed call. @return the
 * seconds, or a negative errno.
 */
static double bench_cpu_build(const CaFeature *f, CaPic *ref, CaPic *dis,
                              unsigned calls)
{
    const VgConfig cfg = {
        .backend = VG_BACKEND_CPU,
        .log_level = VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)"bench",
    };
    VgContext *ctx = NULL;
    double c0;
    int ret;

    if ((ret = vg_context_create(&ctx, &cfg)) < 0 ||
        (ret = vg_use_feature(ctx, f->name, f->opts[0])) < 0 ||
        (ret = vg_submit(ctx, &ref[0].pic, &dis[0].pic)) < 0)
        goto end;
    c0 = cpu_now();
    for (unsigned i = 0; i < calls; i++)
        if ((ret = vg_submit(ctx, &ref[(i + 1) % BENCH_PAIRS].pic,
                             &dis[(i + 1) % BENCH_PAIRS].pic)) < 0)
            goto end;
    if ((ret = vg_flush(ctx)) < 0)
        goto end;
    vg_context_destroy(&ctx);
    return (cpu_now() - c0) / calls;
end:
    vg_context_destroy(&ctx);
    return ret;
}

/* each CPU build of f at w x h, one line */
static int bench_cpu_one(const CaFeature *f, enum VgPixFmt fmt, unsigned bpc,
                         unsigned w, unsigned h)
{
    const unsigned nb = cpu_builds_run();
    const unsigned calls = state.bench < 20 ? 1 : state.bench / 20;
    CaPic ref[BENCH_PAIRS], dis[BENCH_PAIRS];
    uint64_t rng = ca_seed(state.seed, w), garbage = ca_seed(state.seed, h);
    double sec[N_CPU_BUILDS];
    char line[256];
    size_t n = 0;
    CaFrame fr;
    int ret = 0;

    memset(ref, 0, sizeof(ref));
    memset(dis, 0, sizeof(dis));
    if (f->refuses && f->refuses(fmt, bpc, w, h))
        return 0;
    if ((ret = ca_frame_alloc(&fr, fmt, bpc, w, h)) < 0)
        goto end;
    for (unsigned i = 0; i < BENCH_PAIRS; i++) {
        ca_frame_fill(&fr, CA_PAT_RANDOM, i, &rng);
        if ((ret = ca_pic_alloc(&ref[i], &fr, CA_PITCH_TIGHT, NULL)) < 0 ||
            (ret = ca_pic_alloc(&dis[i], &fr, CA_PITCH_TIGHT, NULL)) < 0)
            goto end;
        ca_pic_pack(&ref[i], &fr, 0, &garbage);
        ca_pic_pack(&dis[i], &fr, 1, &garbage);
    }
    for (unsigned m = 0; m < nb; m++) {
        vg_cpu_set_mask(cpu_builds[m].mask);
        sec[m] = bench_cpu_build(f, ref, dis, calls);
        vg_cpu_set_mask(0);
        if (sec[m] < 0) {
            ret = (int)sec[m];
            goto end;
        }
        n += (size_t)snprintf(line + n, sizeof(line) - n, ", %s %9.3f ms",
                              cpu_builds[m].name, sec[m] * 1e3);
        if (m && n < sizeof(line))
            n += (size_t)snprintf(line + n, sizeof(line) - n, " (%4.2fx)",
                                  sec[0] / sec[m]);
        if (n >= sizeof(line))
            n = sizeof(line) - 1;
    }
    printf("checkasm: bench %-6s %4ux%-4u %-4s: CPU per call (CPU time, one "
           "thread)%s, %u calls\n",
           f->name, w, h, ca_fmt_name(fmt), line, calls);
end:
    for (unsigned i = 0; i < BENCH_PAIRS; i++) {
        ca_pic_free(&ref[i], NULL);
        ca_pic_free(&dis[i], NULL);
    }
    ca_frame_free(&fr);
    if (ret < 0)
        printf("checkasm: bench %s %ux%u %s: CPU FAILED (%s)\n", f->name, w, h,
               ca_fmt_name(fmt), strerror(-ret));
    return ret;
}

static void bench_cpu_feature(const CaFeature *f)
{
    if (bench_cpu_one(f, VG_PIX_FMT_NV12, 8, 1920, 1080) < 0)
        state.n_errors++;
    if (bench_cpu_one(f, VG_PIX_FMT_P010, 10, 1920, 1080) < 0)
        state.n_errors++;
}

/* ---- the runner ------------------------------------------------------------- */

void ca_check_feature(const CaFeature *f)
{
    const unsigned cases0 = state.n_cases, failed0 = state.n_failed;
    const unsigned long long values0 = state.n_values;
    unsigned n, skipped = 0;
    CaCase *cs;

    if (state.builds)
        return;
    if (state.bench) {
        bench_cpu_feature(f);
        if (!state.cpu_only && state.gpu)
            bench_feature(f);
        return;
    }
    if (!state.cpu_only && !state.gpu) {
        /* nothing to compare the CPU backend with */
        printf("checkasm: %-6s no CUDA implementation, skipped\n", f->name);
        return;
    }
    n = make_cases(f, NULL, 0);
    if (!(cs = calloc(n, sizeof(*cs)))) {
        printf("checkasm: %s: out of memory\n", f->name);
        state.n_errors++;
        return;
    }
    make_cases(f, cs, n);
    if (state.case_only >= (long)n) {
        printf("checkasm: %s has no case %ld (0..%u)\n", f->name,
               state.case_only, n - 1);
        state.n_errors++;
    }
    for (unsigned i = 0; i < n; i++) {
        if (state.case_only >= 0 && (long)i != state.case_only)
            continue;
        if (state.case_only < 0 && state.quick && cs[i].big) {
            skipped++;
            continue;
        }
        run_case(f, &cs[i]);
    }
    free(cs);
    printf(
        "checkasm: %-6s %4u cases, %4u failed, %9llu values compared%s [%s]\n",
        f->name, state.n_cases - cases0, state.n_failed - failed0,
        state.n_values - values0, skipped ? ", big sizes skipped" : "",
        state.n_failed == failed0 ? "OK" : "FAILED");
}

static int gpu_usable(void)
{
    const VgConfig cfg = {
        .backend = VG_BACKEND_CUDA,
        .log_level = VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)"probe",
    };
    VgContext *ctx = NULL;
    int ret = vg_context_create(&ctx, &cfg);

    vg_context_destroy(&ctx);
    return ret >= 0 && bench_cuda_open(&state.cuda) >= 0;
}

static void usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--test=NAME] [--list] [--seed=N] [--case=K] "
            "[--quick] [--verbose] [--bench[=CALLS]] [--cpu-only] "
            "[--builds] [--sample=K]\n",
            argv0);
}

static int parse_uint(const char *s, unsigned long long max,
                      unsigned long long *v)
{
    char *end;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return errno || *end || *v > max ? -1 : 0;
}

int main(int argc, char **argv)
{
    const char *req = getenv("VG_REQUIRE_GPU");
    const int require = req && !strcmp(req, "1");
    unsigned long long v;
    int list = 0;

    setvbuf(stdout, NULL, _IOLBF, 0);
    state.seed = (uint64_t)time(NULL);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "--test=", 7) && a[7]) {
            state.test = a + 7;
        } else if (!strcmp(a, "--list")) {
            list = 1;
        } else if (!strncmp(a, "--seed=", 7) &&
                   !parse_uint(a + 7, UINT64_MAX, &v)) {
            state.seed = v;
        } else if (!strncmp(a, "--case=", 7) &&
                   !parse_uint(a + 7, 1u << 30, &v)) {
            state.case_only = (long)v;
        } else if (!strcmp(a, "--quick")) {
            state.quick = 1;
        } else if (!strcmp(a, "--verbose")) {
            state.verbose = 1;
        } else if (!strcmp(a, "--bench")) {
            state.bench = 200;
        } else if (!strncmp(a, "--bench=", 8) &&
                   !parse_uint(a + 8, 1u << 20, &v) && v) {
            state.bench = (unsigned)v;
        } else if (!strcmp(a, "--cpu-only")) {
            state.cpu_only = 1;
        } else if (!strcmp(a, "--builds")) {
            state.builds = 1;
        } else if (!strncmp(a, "--sample=", 9) &&
                   !parse_uint(a + 9, 1u << 20, &v) && v) {
            state.sample = (unsigned)v;
        } else {
            fprintf(stderr, "checkasm: unknown or malformed option '%s'\n", a);
            usage(argv[0]);
            return 1;
        }
    }
    if (state.test) {
        unsigned t = 0;
        while (tests[t].name && strcmp(tests[t].name, state.test))
            t++;
        if (!tests[t].name) {
            fprintf(stderr, "checkasm: no test '%s' (--list lists them)\n",
                    state.test);
            return 1;
        }
    }
    if (list) {
        for (unsigned t = 0; tests[t].name; t++)
            printf("%s\n", tests[t].name);
        return 0;
    }
    if (state.case_only >= 0 && !state.test) {
        fprintf(stderr, "checkasm: --case needs --test\n");
        return 1;
    }
    if (state.builds &&
        (state.bench || state.cpu_only || state.case_only >= 0)) {
        fprintf(stderr, "checkasm: --builds goes with none of --bench, "
                        "--cpu-only and --case\n");
        return 1;
    }
    if (state.builds) {
        const unsigned nb = cpu_builds_run();

        printf("checkasm: seed %" PRIu64 ", the CPU builds:", state.seed);
        for (unsigned m = 0; m < nb; m++)
            printf(" %s", cpu_builds[m].name);
        printf(" (%u of %u)\n", nb, (unsigned)N_CPU_BUILDS);
        if (nb < N_CPU_BUILDS && getenv("VG_REQUIRE_AVX512")) {
            printf("checkasm: VG_REQUIRE_AVX512 is set and this processor "
                   "lacks %s: FAIL\n",
                   cpu_builds[nb].name);
            state.n_errors++;
        }
        for (unsigned t = 0; tests[t].name; t++)
            if (!tests[t].api &&
                (!state.test || !strcmp(tests[t].name, state.test)))
                tests[t].fn();
        printf("checkasm: builds: %u cases, %u passed, %u failed, %llu "
               "values compared%s (seed %" PRIu64 ")\n",
               state.n_cases, state.n_cases - state.n_failed, state.n_failed,
               state.n_values,
               state.n_errors ? ", errors outside the cases" : "", state.seed);
        return state.n_failed || state.n_errors ? 1 : 0;
    }

    printf("checkasm: seed %" PRIu64 "%s\n", state.seed,
           state.cpu_only && !state.bench
               ? ", CPU only (calling thread against 2 threads)"
               : "");
    if (!state.cpu_only) {
        if (!gpu_usable()) {
            if (state.bench && !require) {
                /* the CPU builds' figures still come */
                printf("checkasm: no usable CUDA GPU: the CUDA figures "
                       "skipped\n");
                state.cpu_only = 1;
            } else {
                printf("checkasm: no usable CUDA GPU: %s\n",
                       require ? "FAIL (VG_REQUIRE_GPU=1)" : "SKIP");
                return require ? 1 : 77;
            }
        } else {
            printf("checkasm: device %s\n", state.cuda.name);
        }
    }
    for (unsigned t = 0; tests[t].name; t++) {
        if (state.test && strcmp(tests[t].name, state.test))
            continue;
        if (tests[t].api && !ca_cuda())
            continue;
        state.gpu = tests[t].gpu;
        tests[t].fn();
    }
    if (!state.cpu_only && bench_cuda_close(&state.cuda) < 0) {
        printf("checkasm: releasing the CUDA set-up failed\n");
        state.n_errors++;
    }
    if (state.bench)
        printf("checkasm: bench done, %u failed (seed %" PRIu64 ")\n",
               state.n_errors, state.seed);
    else
        printf(
            "checkasm: %u cases, %u passed, %u failed, %llu values compared%s "
            "(seed %" PRIu64 ")\n",
            state.n_cases, state.n_cases - state.n_failed, state.n_failed,
            state.n_values, state.n_errors ? ", errors outside the cases" : "",
            state.seed);
    return state.n_failed || state.n_errors ? 1 : 0;
}
