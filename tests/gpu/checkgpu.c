/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkgpu: CUDA backend against the CPU backend, exact, through the
 * public API. Every case scores the same frames on the CPU backend and on
 * two CUDA contexts at once (one on a library-owned CUDA context, one on a
 * caller's context and stream), with host pictures and with device
 * pictures, and compares every per-frame value of every metric bit for
 * bit (memcmp of the doubles). Cases run over bit depths 8/10/12/16,
 * layouts 4:2:0/4:2:2/4:4:4/4:0:0 planar, NV12, P010, P016, sizes from 1x1 to
 * 3840x2160 (odd sizes, one row, one column), patterns random, flat,
 * maximum, ref == dis, ref = dis + 1 and full-range noise, all with
 * pitches wider than the rows and garbage in the padding (and in the low
 * bits of P010/P016 samples).
 *
 * Exit status: 0 all passed, 1 a case failed (the case and the seed are
 * printed; --seed=N repeats a run), 77 no usable GPU (skip), unless the
 * environment sets VG_REQUIRE_GPU=1, which makes a skip a failure.
 * Options: --seed=N, --quick (no 1080p/2160p cases), --sample=K (every
 * K-th small case only, for slow runs under compute-sanitizer),
 * --only=adm|vif (only the cases that use that feature), --verbose.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vmafgpu.h"
#include "gpu/core/cuda.h"

enum Pattern { PAT_RANDOM, PAT_FLAT, PAT_MAX, PAT_EQUAL, PAT_PLUS1, PAT_NOISE, PAT_NB };
static const char *const pattern_names[PAT_NB] = {
    "random", "flat", "max", "ref==dis", "ref=dis+1", "noise",
};

typedef struct Case {
    enum VgPixFmt fmt;
    unsigned bpc, w, h;
    enum Pattern pat;
    int motion;         ///< motion needs 3x3
    int five;           ///< motion_five_frame_window
    int model;          ///< vmaf_v0.6.1
    int vif;            ///< vif with vif_opts[vif] (0: no vif; needs 16x16)
    int adm;            ///< adm with adm_opts[adm] (0: no adm; needs 33x33)
    unsigned frames;
    unsigned subsample; ///< VgConfig.n_subsample
    uint64_t seed;
} Case;

static const VgCuda *cu;
static CUcontext cu_ctx;
static CUdevice cu_dev;
static CUstream cu_stream;
static int verbose;
static const char *only;    ///< --only=adm|vif: run the cases using it
static unsigned n_pass, n_fail;

static const char *fmt_name(enum VgPixFmt f)
{
    switch (f) {
    case VG_PIX_FMT_YUV420P: return "420";
    case VG_PIX_FMT_YUV422P: return "422";
    case VG_PIX_FMT_YUV444P: return "444";
    case VG_PIX_FMT_YUV400P: return "400";
    case VG_PIX_FMT_NV12:    return "nv12";
    case VG_PIX_FMT_P010:    return "p010";
    case VG_PIX_FMT_P016:    return "p016";
    case VG_PIX_FMT_NV16:    return "nv16";
    case VG_PIX_FMT_P216:    return "p216";
    case VG_PIX_FMT_YUV444P_MSB: return "444msb";
    }
    return "?";
}

/* VIF's option sets: debug outputs (every num/den), the gain limit, the
 * skipped scale 0 */
static const char *const vif_opts[] = {
    NULL, "debug=true", "debug=true:vif_enhn_gain_limit=1.0",
    "debug=true:vif_skip_scale0=true",
};

/* ADM's option sets: debug outputs (every per-scale num/den), the gain
 * limit, the skipped scale 0, another viewing distance (computed CSF
 * weights), Barten CSF without AIM */
static const char *const adm_opts[] = {
    NULL, "debug=true", "debug=true:adm_enhn_gain_limit=1.0",
    "debug=true:adm_skip_scale0=true", "debug=true:adm_norm_view_dist=4",
    "debug=true:adm_csf_mode=1:adm_skip_aim=true",
};
#define N_ADM_OPTS 5

static void log_cb(void *opaque, enum VgLogLevel level, const char *msg)
{
    if (level <= VG_LOG_WARNING || verbose)
        fprintf(stderr, "  [lib %s] %s\n", (const char *)opaque, msg);
}

/* xorshift64* */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * UINT64_C(2685821657736338717);
}

/* ---- pictures ------------------------------------------------------------ */

typedef struct Pic {
    VgPicture host, dev;
    void *hbuf[3];
    CUdeviceptr dbuf[3];
    size_t size[3];
} Pic;

static int semiplanar(enum VgPixFmt f)
{
    return f == VG_PIX_FMT_NV12 || f == VG_PIX_FMT_P010 || f == VG_PIX_FMT_P016 ||
           f == VG_PIX_FMT_NV16 || f == VG_PIX_FMT_P216;
}

/* samples in the high bits of 16-bit words */
static int msb(enum VgPixFmt f)
{
    return f == VG_PIX_FMT_P010 || f == VG_PIX_FMT_P016 ||
           f == VG_PIX_FMT_P216 || f == VG_PIX_FMT_YUV444P_MSB;
}

/* sample planes in the internal meaning (LSB-aligned values), per plane */
typedef struct Planes {
    unsigned w[3], h[3];
    uint16_t *v[3];
} Planes;

static void planes_geometry(Planes *pl, const Case *c)
{
    const unsigned ssx = c->fmt != VG_PIX_FMT_YUV444P &&
                         c->fmt != VG_PIX_FMT_YUV444P_MSB;
    const unsigned ssy = c->fmt == VG_PIX_FMT_YUV420P || c->fmt == VG_PIX_FMT_NV12 ||
                         c->fmt == VG_PIX_FMT_P010 || c->fmt == VG_PIX_FMT_P016;

    for (int p = 0; p < 3; p++) {
        /* callers' chroma planes are ceil-sized (FFmpeg's layout) */
        pl->w[p] = p ? (c->w + ssx) >> ssx : c->w;
        pl->h[p] = p ? (c->h + ssy) >> ssy : c->h;
        if (p && c->fmt == VG_PIX_FMT_YUV400P)
            pl->w[p] = pl->h[p] = 0;
    }
}

static void fill_pair(Planes *ref, Planes *dis, const Case *c, uint64_t *seed,
                      unsigned frame)
{
    const unsigned max = (1u << c->bpc) - 1;

    for (int p = 0; p < 3; p++) {
        const size_t n = (size_t)ref->w[p] * ref->h[p];
        const unsigned flat_r = (unsigned)(rnd(seed) & max);
        const unsigned flat_d = (unsigned)(rnd(seed) & max);
        for (size_t i = 0; i < n; i++) {
            unsigned r, d;
            switch (c->pat) {
            case PAT_FLAT:
                r = flat_r;
                d = flat_d;
                break;
            case PAT_MAX:
                /* extremes, alternating by frame so motion sees them too */
                r = (frame & 1) ? 0 : max;
                d = (frame & 1) ? max : 0;
                break;
            case PAT_NOISE:
                r = (unsigned)(rnd(seed) & max);
                d = (unsigned)(rnd(seed) & max);
                break;
            default: {
                /* smooth-ish content plus noise, moving by frame */
                const unsigned x = (unsigned)(i % ref->w[p]), y = (unsigned)(i / ref->w[p]);
                r = ((x * 3 + y * 5 + frame * 7) * (max / 64 + 1) +
                     (unsigned)(rnd(seed) % (max / 16 + 2))) & max;
                if (c->pat == PAT_EQUAL)
                    d = r;
                else if (c->pat == PAT_PLUS1)
                    d = r ? r - 1 : 1;
                else
                    d = (unsigned)((r + (rnd(seed) % 9) - 4) & max);
                break;
            }
            }
            ref->v[p][i] = (uint16_t)r;
            dis->v[p][i] = (uint16_t)d;
        }
    }
}

/* write planes into a caller picture of format c->fmt (host memory) */
static void pack(Pic *pic, const Planes *pl, const Case *c, uint64_t *seed)
{
    const int sp = semiplanar(c->fmt);
    const unsigned bps = c->bpc > 8 || msb(c->fmt) ? 2 : 1;
    const unsigned shift = msb(c->fmt) ? 16 - c->bpc : 0;
    const int n_planes = sp ? 2 : c->fmt == VG_PIX_FMT_YUV400P ? 1 : 3;

    for (int p = 0; p < n_planes; p++) {
        const unsigned comps = sp && p == 1 ? 2 : 1;
        uint8_t *base = pic->hbuf[p];
        const ptrdiff_t stride = pic->host.stride[p];
        for (unsigned y = 0; y < pl->h[p]; y++) {
            uint8_t *row = base + y * stride;
            /* garbage in the padding after the row */
            for (ptrdiff_t k = (ptrdiff_t)pl->w[p] * comps * bps; k < stride; k++)
                row[k] = (uint8_t)rnd(seed);
            for (unsigned x = 0; x < pl->w[p]; x++) {
                for (unsigned k = 0; k < comps; k++) {
                    const int src = comps == 2 ? 1 + (int)k : p;
                    unsigned v = pl->v[src][(size_t)y * pl->w[src] + x];
                    if (shift) /* significant bits high, garbage below */
                        v = (v << shift) | (unsigned)(rnd(seed) & ((1u << shift) - 1));
                    if (bps == 1)
                        row[x * comps + k] = (uint8_t)v;
                    else
                        ((uint16_t *)row)[x * comps + k] = (uint16_t)v;
                }
            }
        }
    }
}

static int pic_alloc(Pic *pic, const Case *c, const Planes *pl)
{
    const int sp = semiplanar(c->fmt);
    const unsigned bps = c->bpc > 8 || msb(c->fmt) ? 2 : 1;
    const int n_planes = sp ? 2 : c->fmt == VG_PIX_FMT_YUV400P ? 1 : 3;

    memset(pic, 0, sizeof(*pic));
    pic->host.fmt = c->fmt;
    pic->host.width = c->w;
    pic->host.height = c->h;
    pic->host.bitdepth = c->bpc;
    pic->host.memory = VG_MEMORY_HOST;
    for (int p = 0; p < n_planes; p++) {
        const unsigned comps = sp && p == 1 ? 2 : 1;
        /* pitch wider than the row, and not a multiple of 64 */
        const ptrdiff_t stride = (ptrdiff_t)(pl->w[p] * comps * bps) + 2 * bps + 6 * bps;
        pic->size[p] = (size_t)stride * pl->h[p];
        pic->hbuf[p] = malloc(pic->size[p] ? pic->size[p] : 1);
        if (!pic->hbuf[p])
            return -ENOMEM;
        pic->host.data[p] = pic->hbuf[p];
        pic->host.stride[p] = stride;
        if (VG_CU(cu, NULL, cuMemAlloc, &pic->dbuf[p],
                  pic->size[p] ? pic->size[p] : 1) < 0)
            return -ENOMEM;
    }
    pic->dev = pic->host;
    pic->dev.memory = VG_MEMORY_CUDA;
    pic->dev.cuda_stream = cu_stream;
    for (int p = 0; p < n_planes; p++)
        pic->dev.data[p] = (const void *)(uintptr_t)pic->dbuf[p];
    return 0;
}

/* queue the host contents into the device copy on the caller's stream */
static int pic_upload(Pic *pic)
{
    for (int p = 0; p < 3; p++)
        if (pic->size[p] &&
            VG_CU(cu, NULL, cuMemcpyHtoDAsync, pic->dbuf[p], pic->hbuf[p],
                  pic->size[p], cu_stream) < 0)
            return -EIO;
    return 0;
}

static void pic_free(Pic *pic)
{
    for (int p = 0; p < 3; p++) {
        free(pic->hbuf[p]);
        if (pic->dbuf[p])
            VG_CU(cu, NULL, cuMemFree, pic->dbuf[p]);
    }
}

/* ---- contexts ------------------------------------------------------------ */

static int make_ctx(VgContext **ctx, const Case *c, enum VgBackend b,
                    int callers_ctx, const char *label, unsigned threads)
{
    VgConfig cfg = {
        .backend = b,
        .n_threads = threads,
        .log_level = verbose ? VG_LOG_INFO : VG_LOG_WARNING,
        .log_cb = log_cb,
        .log_opaque = (void *)label,
        .n_subsample = c->subsample,
    };
    int ret;

    if (callers_ctx) {
        cfg.cuda_context = cu_ctx;
        cfg.cuda_stream = cu_stream;
    }
    if ((ret = vg_context_create(ctx, &cfg)) < 0)
        return ret;
    if (c->model) {
        if ((ret = vg_use_model(*ctx, "version=vmaf_v0.6.1")) < 0)
            return ret;
    }
    if ((ret = vg_use_feature(*ctx, "psnr", "enable_mse=true")) < 0)
        return ret;
    if (c->motion && (ret = vg_use_feature(*ctx, "motion", c->five ?
                          "debug=true:motion_five_frame_window=true" :
                          "debug=true")) < 0)
        return ret;
    if (c->vif && (ret = vg_use_feature(*ctx, "vif", vif_opts[c->vif])) < 0)
        return ret;
    if (c->adm && (ret = vg_use_feature(*ctx, "adm", adm_opts[c->adm])) < 0)
        return ret;
    return 0;
}

static void print_case(const Case *c)
{
    fprintf(stderr, "  case: %s %u-bit %ux%u pattern=%s frames=%u%s%s%s "
            "%s%s%s%s subsample=%u seed=%" PRIu64 "\n", fmt_name(c->fmt), c->bpc,
            c->w, c->h, pattern_names[c->pat], c->frames,
            c->motion ? " motion" : "", c->five ? " five-frame" : "",
            c->model ? " vmaf_v0.6.1" : "", c->vif ? "vif " : "",
            c->vif ? vif_opts[c->vif] : "", c->adm ? " adm " : "",
            c->adm ? adm_opts[c->adm] : "", c->subsample, c->seed);
}

/* every value of every metric of a against b, bit for bit */
static int compare(VgContext *a, VgContext *b, const Case *c, const char *what)
{
    const unsigned n = vg_metric_count(a);

    if (n != vg_metric_count(b) || !n) {
        fprintf(stderr, "FAIL %s: %u metrics on the CPU, %u on CUDA\n", what,
                n, vg_metric_count(b));
        print_case(c);
        return -1;
    }
    for (unsigned m = 0; m < n; m++) {
        const char *name = vg_metric_name(a, m);
        for (unsigned i = 0; i < c->frames; i++) {
            double x, y;
            int ra = vg_get_score(a, name, i, &x);
            int rb = vg_get_score(b, name, i, &y);
            if (ra != rb || (!ra && memcmp(&x, &y, sizeof(x)))) {
                fprintf(stderr, "FAIL %s: %s frame %u: CPU %.17g (%d), CUDA "
                        "%.17g (%d)\n", what, name, i, x, ra, y, rb);
                print_case(c);
                return -1;
            }
        }
    }
    return 0;
}

static int run_case(const Case *c)
{
    VgContext *cpu = NULL, *own = NULL, *callers = NULL, *devown = NULL;
    Planes ref = { 0 }, dis = { 0 };
    Pic hr[2], hd[2];
    uint64_t seed = c->seed;
    int ret = -1, alloc = 0;

    if (only && !((!strcmp(only, "adm") && (c->adm || c->model)) ||
                  (!strcmp(only, "vif") && (c->vif || c->model))))
        return 0;
    planes_geometry(&ref, c);
    planes_geometry(&dis, c);
    for (int p = 0; p < 3; p++) {
        ref.v[p] = malloc(((size_t)ref.w[p] * ref.h[p] + 1) * 2);
        dis.v[p] = malloc(((size_t)dis.w[p] * dis.h[p] + 1) * 2);
        if (!ref.v[p] || !dis.v[p])
            goto end;
    }
    for (alloc = 0; alloc < 2; alloc++)
        if (pic_alloc(&hr[alloc], c, &ref) < 0 || pic_alloc(&hd[alloc], c, &dis) < 0) {
            alloc++;
            goto end;
        }

    /* CPU reference; CUDA on host pictures (own context, 2 host threads
     * for the host-side features), CUDA on device pictures (caller's
     * context and stream), CUDA on device pictures (own context) */
    if (make_ctx(&cpu, c, VG_BACKEND_CPU, 0, "cpu", 0) < 0 ||
        make_ctx(&own, c, VG_BACKEND_CUDA, 0, "cuda-host", 2) < 0 ||
        make_ctx(&callers, c, VG_BACKEND_CUDA, 1, "cuda-callers", 0) < 0 ||
        make_ctx(&devown, c, VG_BACKEND_AUTO, 0, "cuda-dev", 0) < 0) {
        fprintf(stderr, "FAIL: cannot create the contexts\n");
        print_case(c);
        goto end;
    }
    for (unsigned i = 0; i < c->frames; i++) {
        Pic *r = &hr[i & 1], *d = &hd[i & 1];
        fill_pair(&ref, &dis, c, &seed, i);
        /* the device copy of the previous use of these buffers may still
         * be read by queued work: the uploads are ordered on cu_stream,
         * behind the library's reads (VgPicture.cuda_stream contract) */
        pack(r, &ref, c, &seed);
        pack(d, &dis, c, &seed);
        if (pic_upload(r) < 0 || pic_upload(d) < 0)
            goto end;
        if ((ret = vg_submit(cpu, &r->host, &d->host)) < 0 ||
            (ret = vg_submit(own, &r->host, &d->host)) < 0 ||
            (ret = vg_submit(callers, &r->dev, &d->dev)) < 0 ||
            (ret = vg_submit(devown, &r->dev, &d->dev)) < 0) {
            fprintf(stderr, "FAIL: vg_submit frame %u: %s\n", i, strerror(-ret));
            print_case(c);
            ret = -1;
            goto end;
        }
        /* host buffers are rewritten next round: the library copied them */
    }
    if (vg_flush(cpu) < 0 || vg_flush(own) < 0 || vg_flush(callers) < 0 ||
        vg_flush(devown) < 0) {
        fprintf(stderr, "FAIL: vg_flush\n");
        print_case(c);
        ret = -1;
        goto end;
    }
    if (!vg_backend_is_cuda(own) || !vg_backend_is_cuda(callers) ||
        !vg_backend_is_cuda(devown) || vg_backend_is_cuda(cpu)) {
        fprintf(stderr, "FAIL: backend choice\n");
        print_case(c);
        ret = -1;
        goto end;
    }
    ret = compare(cpu, own, c, "host pictures") |
          compare(cpu, callers, c, "device pictures, caller's context") |
          compare(cpu, devown, c, "device pictures, own context");
end:
    vg_context_destroy(&cpu);
    vg_context_destroy(&own);
    vg_context_destroy(&callers);
    vg_context_destroy(&devown);
    VG_CU(cu, NULL, cuStreamSynchronize, cu_stream);
    for (int i = 0; i < alloc; i++) {
        pic_free(&hr[i]);
        pic_free(&hd[i]);
    }
    for (int p = 0; p < 3; p++) {
        free(ref.v[p]);
        free(dis.v[p]);
    }
    if (ret < 0)
        n_fail++;
    else
        n_pass++;
    if (verbose && ret >= 0)
        print_case(c);
    return ret;
}

/* ---- the matrix ---------------------------------------------------------- */

static const struct { unsigned w, h; } small_sizes[] = {
    { 1, 1 }, { 2, 5 }, { 1, 17 }, { 33, 1 }, { 3, 3 }, { 4, 3 }, { 5, 4 },
    { 17, 9 }, { 31, 33 }, { 67, 35 }, { 257, 131 }, { 640, 360 },
};

/* ---- samples above the bit depth in device pictures --------------------- */

static char range_msg[512];

static void range_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    if (level == VG_LOG_ERROR && !range_msg[0])
        snprintf(range_msg, sizeof(range_msg), "%s", msg);
}

/*
 * A 10-bit planar device picture with one word above 1023 in frame 1's
 * distorted Cb plane: the pair is refused when the frame completes, with
 * the picture, frame, plane, value and position named, and no score of
 * that frame is written.
 */
static void range_case(void)
{
    const Case c = { .fmt = VG_PIX_FMT_YUV420P, .bpc = 10, .w = 64, .h = 48,
                     .frames = 3, .pat = PAT_NOISE, .motion = 1, .seed = 7 };
    VgConfig cfg = { .backend = VG_BACKEND_CUDA, .log_cb = range_log,
                     .cuda_context = cu_ctx, .cuda_stream = cu_stream };
    Planes pr, pd;
    Pic ref, dis;
    VgContext *ctx = NULL;
    uint64_t seed = c.seed;
    int ret = 0, ok;
    double v;

    range_msg[0] = 0;
    planes_geometry(&pr, &c);
    planes_geometry(&pd, &c);
    for (int p = 0; p < 3; p++) {
        pr.v[p] = malloc(((size_t)pr.w[p] * pr.h[p] + 1) * 2);
        pd.v[p] = malloc(((size_t)pd.w[p] * pd.h[p] + 1) * 2);
        if (!pr.v[p] || !pd.v[p])
            return;
    }
    fill_pair(&pr, &pd, &c, &seed, 0);
    if (pic_alloc(&ref, &c, &pr) < 0 || pic_alloc(&dis, &c, &pd) < 0 ||
        vg_context_create(&ctx, &cfg) < 0 ||
        vg_use_feature(ctx, "psnr", NULL) < 0) {
        printf("checkgpu: range: FAIL (set-up)\n");
        n_fail++;
        return;
    }
    for (unsigned f = 0; f < c.frames && ret >= 0; f++) {
        pack(&ref, &pr, &c, &seed);
        pack(&dis, &pd, &c, &seed);
        if (f == 1)  /* Cb sample (5, 3) */
            ((uint16_t *)((uint8_t *)dis.hbuf[1] + 3 * dis.host.stride[1]))[5] = 0xffff;
        if (pic_upload(&ref) < 0 || pic_upload(&dis) < 0)
            break;
        ret = vg_submit(ctx, &ref.dev, &dis.dev);
        /* the pictures are rewritten next: wait for the library's reads */
        VG_CU(cu, NULL, cuStreamSynchronize, cu_stream);
    }
    if (ret >= 0)
        ret = vg_flush(ctx);
    ok = ret == -EINVAL &&
         strstr(range_msg, "distorted picture, frame 1, plane 1 (Cb): sample "
                "65535 at (5, 3) exceeds the 10-bit maximum 1023") &&
         vg_get_score(ctx, "psnr_cb", 1, &v) < 0 &&
         vg_get_score(ctx, "psnr_cb", 0, &v) == 0;
    printf("checkgpu: range: %s (%d: %s)\n", ok ? "PASS" : "FAIL", ret,
           range_msg);
    ok ? n_pass++ : n_fail++;
    vg_context_destroy(&ctx);
    pic_free(&ref);
    pic_free(&dis);
    free(pr.v[0]); free(pr.v[1]); free(pr.v[2]);
    free(pd.v[0]); free(pd.v[1]); free(pd.v[2]);
}

static int gpu_present(void)
{
    VgConfig cfg = { .backend = VG_BACKEND_CUDA, .log_level = VG_LOG_QUIET };
    VgContext *ctx = NULL;
    int ret = vg_context_create(&ctx, &cfg);

    vg_context_destroy(&ctx);
    return ret >= 0;
}

int main(int argc, char **argv)
{
    const char *req = getenv("VG_REQUIRE_GPU");
    const int require = req && !strcmp(req, "1");
    uint64_t seed = (uint64_t)time(NULL);
    int quick = 0;
    unsigned sample = 1, n_small = 0;
    char name[128] = "";

    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--seed=", 7))
            seed = strtoull(argv[i] + 7, NULL, 10);
        else if (!strcmp(argv[i], "--quick"))
            quick = 1;
        else if (!strncmp(argv[i], "--sample=", 9) && atoi(argv[i] + 9) > 0)
            sample = (unsigned)atoi(argv[i] + 9);
        else if (!strcmp(argv[i], "--verbose"))
            verbose = 1;
        else if (!strcmp(argv[i], "--only=adm") || !strcmp(argv[i], "--only=vif"))
            only = argv[i] + 7;
        else {
            fprintf(stderr, "usage: %s [--seed=N] [--quick] [--sample=K] "
                    "[--only=adm|vif] [--verbose]\n", argv[0]);
            return 1;
        }
    }
    if (!gpu_present() || vg_cuda_load(&cu, NULL, VG_LOG_WARNING) < 0) {
        printf("checkgpu: no usable CUDA GPU: %s\n", require ?
               "FAIL (VG_REQUIRE_GPU=1)" : "SKIP");
        return require ? 1 : 77;
    }
    if (VG_CU(cu, NULL, cuDeviceGet, &cu_dev, 0) < 0 ||
        VG_CU(cu, NULL, cuDevicePrimaryCtxRetain, &cu_ctx, cu_dev) < 0 ||
        VG_CU(cu, NULL, cuCtxPushCurrent, cu_ctx) < 0 ||
        VG_CU(cu, NULL, cuStreamCreate, &cu_stream, CU_STREAM_NON_BLOCKING) < 0)
        return 1;
    cu->f->cuDeviceGetName(name, sizeof(name) - 1, cu_dev);
    printf("checkgpu: device %s, seed %" PRIu64 "\n", name, seed);

    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const enum VgPixFmt planar[] = {
        VG_PIX_FMT_YUV420P, VG_PIX_FMT_YUV422P, VG_PIX_FMT_YUV444P,
    };
    uint64_t s = seed;

    /* small sizes: every depth x layout x pattern */
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned l = 0; l < 4; l++) {
            Case c = { .bpc = depths[d], .frames = 4 };
            if (l < 3) {
                c.fmt = planar[l];
            } else {
                /* the semi-planar format of this depth */
                c.fmt = c.bpc == 8 ? VG_PIX_FMT_NV12 :
                        c.bpc == 10 ? VG_PIX_FMT_P010 : VG_PIX_FMT_P016;
            }
            /* two patterns per size, rotating so that every depth x
             * layout sees every pattern */
            for (unsigned z = 0; z < sizeof(small_sizes) / sizeof(small_sizes[0]); z++) {
                for (unsigned k = 0; k < 2; k++) {
                    const unsigned p = (z + l + d + 3 * k) % PAT_NB;
                    if (++n_small % sample)
                        continue;
                    c.w = small_sizes[z].w;
                    c.h = small_sizes[z].h;
                    c.pat = p;
                    c.motion = c.w >= 3 && c.h >= 3;
                    c.five = c.motion && (z + p) % 3 == 0;
                    c.vif = c.w >= 16 && c.h >= 16 ? 1 + (z + k + d) % 3 : 0;
                    c.adm = c.w >= 33 && c.h >= 33 ? 1 + (z + k + d + l) % N_ADM_OPTS : 0;
                    c.seed = rnd(&s);
                    run_case(&c);
                }
            }
            /* luma only */
            if (l == 0) {
                Case y = c;
                y.fmt = VG_PIX_FMT_YUV400P;
                y.w = 67; y.h = 35; y.pat = (enum Pattern)((d + 2) % PAT_NB);
                y.motion = 1;
                y.seed = rnd(&s);
                run_case(&y);
            }
            /* P016 at 10 bits too (a 10-bit P016 is not P010's format) */
            if (c.fmt == VG_PIX_FMT_P010) {
                c.fmt = VG_PIX_FMT_P016;
                c.w = 67; c.h = 35; c.pat = PAT_NOISE; c.motion = 1;
                c.seed = rnd(&s);
                run_case(&c);
            }
        }
        printf("checkgpu: %2u-bit small sizes: %u passed, %u failed\n",
               depths[d], n_pass, n_fail);
    }

    /* the 4:2:2 semi-planar and planar MSB-aligned formats of NVDEC and
     * FFmpeg's CUDA frames (NV16, P210/P212/P216, yuv444p10msb/12msb) */
    {
        static const struct { enum VgPixFmt fmt; unsigned bpc; } more[] = {
            { VG_PIX_FMT_NV16, 8 }, { VG_PIX_FMT_P216, 10 },
            { VG_PIX_FMT_P216, 12 }, { VG_PIX_FMT_P216, 16 },
            { VG_PIX_FMT_YUV444P_MSB, 10 }, { VG_PIX_FMT_YUV444P_MSB, 12 },
        };
        static const struct { unsigned w, h; } ms[] = {
            { 1, 1 }, { 3, 5 }, { 33, 33 }, { 67, 35 }, { 99, 67 },
        };
        for (unsigned m = 0; m < sizeof(more) / sizeof(more[0]); m++) {
            for (unsigned z = 0; z < sizeof(ms) / sizeof(ms[0]); z++) {
                Case c = { .fmt = more[m].fmt, .bpc = more[m].bpc,
                           .w = ms[z].w, .h = ms[z].h, .frames = 3 };
                c.pat = (m + z) % PAT_NB;
                c.motion = c.w >= 3 && c.h >= 3;
                c.vif = c.w >= 16 && c.h >= 16 ? 1 + (m + z) % 3 : 0;
                c.adm = c.w >= 33 && c.h >= 33 ? 1 + (m + z) % N_ADM_OPTS : 0;
                c.seed = rnd(&s);
                run_case(&c);
            }
        }
        printf("checkgpu: nv16, p216, planar msb: %u passed, %u failed\n",
               n_pass, n_fail);
    }

    /* VIF at its smallest accepted size and other odd sizes, every depth,
     * several layouts and patterns, each option set */
    {
        static const struct { unsigned w, h; } vs[] = {
            { 16, 16 }, { 17, 19 }, { 16, 33 }, { 35, 16 }, { 99, 67 },
            { 1023, 17 },
        };
        for (unsigned d = 0; d < 4; d++) {
            for (unsigned z = 0; z < sizeof(vs) / sizeof(vs[0]); z++) {
                const unsigned l = (z + d) % 4;
                Case c = { .bpc = depths[d], .w = vs[z].w, .h = vs[z].h,
                           .motion = 1, .frames = 3 };
                if (l < 3)
                    c.fmt = planar[l];
                else
                    c.fmt = c.bpc == 8 ? VG_PIX_FMT_NV12 :
                            c.bpc == 10 ? VG_PIX_FMT_P010 : VG_PIX_FMT_P016;
                for (unsigned k = 0; k < 3; k++) {
                    c.pat = (z + d + 2 * k) % PAT_NB;
                    c.vif = 1 + k;
                    c.seed = rnd(&s);
                    run_case(&c);
                }
            }
        }
        printf("checkgpu: vif at small and odd sizes: %u passed, %u failed\n",
               n_pass, n_fail);
    }

    /* ADM from its smallest accepted size (33x33) over odd sizes, every
     * depth, all layouts, patterns incl. full-range noise, each option set */
    {
        static const struct { unsigned w, h; } as[] = {
            { 33, 33 }, { 34, 35 }, { 37, 41 }, { 40, 36 }, { 80, 48 },
            { 99, 67 }, { 577, 323 }, { 1023, 34 },
        };
        for (unsigned d = 0; d < 4; d++) {
            for (unsigned z = 0; z < sizeof(as) / sizeof(as[0]); z++) {
                const unsigned l = (z + d) % 5;
                Case c = { .bpc = depths[d], .w = as[z].w, .h = as[z].h,
                           .frames = 2 };
                if (l < 3)
                    c.fmt = planar[l];
                else if (l == 3)
                    c.fmt = VG_PIX_FMT_YUV400P;
                else
                    c.fmt = c.bpc == 8 ? VG_PIX_FMT_NV12 :
                            c.bpc == 10 ? VG_PIX_FMT_P010 : VG_PIX_FMT_P016;
                for (unsigned k = 0; k < 3; k++) {
                    if (++n_small % sample)
                        continue;
                    c.pat = k == 0 ? PAT_NOISE : (z + d + 2 * k) % PAT_NB;
                    c.adm = 1 + (z + d + k) % N_ADM_OPTS;
                    c.seed = rnd(&s);
                    run_case(&c);
                }
            }
        }
        printf("checkgpu: adm at small and odd sizes: %u passed, %u failed\n",
               n_pass, n_fail);
    }

    /* vmaf_v0.6.1 (vif, adm, motion) through the CUDA engine */
    {
        Case c = { .fmt = VG_PIX_FMT_YUV420P, .bpc = 8, .w = 320, .h = 180,
                   .pat = PAT_RANDOM, .motion = 1, .model = 1, .frames = 5 };
        for (unsigned d = 0; d < 4; d++) {
            c.bpc = depths[d];
            c.fmt = d == 1 ? VG_PIX_FMT_P010 : d == 2 ? VG_PIX_FMT_YUV422P :
                    VG_PIX_FMT_YUV420P;
            c.subsample = d == 3 ? 2 : 0;
            c.seed = rnd(&s);
            run_case(&c);
        }
        printf("checkgpu: vmaf_v0.6.1 through the CUDA engine: %u passed, "
               "%u failed\n", n_pass, n_fail);
    }

    if (!quick) {
        static const struct { unsigned w, h; } big[] = { { 1920, 1080 }, { 3840, 2160 } };
        for (unsigned b = 0; b < 2; b++) {
            for (unsigned d = 0; d < 4; d++) {
                Case c = { .bpc = depths[d], .w = big[b].w, .h = big[b].h,
                           .motion = 1, .vif = 1, .adm = 1, .frames = 3 };
                c.fmt = d == 0 ? VG_PIX_FMT_NV12 : d == 1 ? VG_PIX_FMT_P010 :
                        d == 2 ? VG_PIX_FMT_YUV422P : VG_PIX_FMT_YUV420P;
                c.pat = d & 1 ? PAT_NOISE : PAT_RANDOM;
                c.five = d == 3;
                c.seed = rnd(&s);
                run_case(&c);
                c.fmt = VG_PIX_FMT_YUV444P;
                c.pat = PAT_MAX;
                c.seed = rnd(&s);
                run_case(&c);
            }
        }
        printf("checkgpu: 1080p and 2160p: %u passed, %u failed\n", n_pass,
               n_fail);
    }

    range_case();
    VG_CU(cu, NULL, cuStreamDestroy, cu_stream);
    {
        CUcontext dummy;
        VG_CU(cu, NULL, cuCtxPopCurrent, &dummy);
    }
    VG_CU(cu, NULL, cuDevicePrimaryCtxRelease, cu_dev);
    vg_cuda_unload(&cu);
    printf("checkgpu: %u passed, %u failed, 0 skipped (seed %" PRIu64 ")\n",
           n_pass, n_fail, seed);
    return n_fail ? 1 : 0;
}
