/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: the whole API, several features and vmaf_v0.6.1 in one
 * context, the CUDA backend against the CPU backend. Every case scores
 * the same frames on the CPU backend and on three CUDA contexts at once:
 * one on a library-owned CUDA context from host pictures (2 host
 * threads), one on the caller's context and stream from device pictures,
 * and one chosen by VG_BACKEND_AUTO from device pictures; two picture
 * sets alternate by frame, so that a set is rewritten while the library
 * may still read the previous frame's (the uploads are ordered behind
 * those reads on the caller's stream). Every per-frame value of every
 * output is compared bit for bit. Cases run over bit depths 8/10/12/16,
 * planar 4:2:0/4:2:2/4:4:4/4:0:0, NV12, P010, P016, NV16, P216, planar
 * MSB 4:4:4, sizes from 1x1 to 3840x2160, the patterns of
 * tests/checkasm/pic.h (but the gradient), psnr with motion (3-frame and
 * 5-frame windows), vif and adm with their option sets, vmaf_v0.6.1 with
 * and without frame subsampling. A last case puts a sample above the bit
 * depth into a device picture: the frame is refused with the sample
 * named, and no score of that frame is written.
 *
 * Options of the runner: --quick (no 1080p/2160p cases), --sample=K
 * (every K-th small case only, for slow runs under compute-sanitizer).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/checkasm/checkasm.h"

/* one whole-API case */
typedef struct ApiCase {
    enum VgPixFmt fmt;
    unsigned bpc, w, h;
    enum CaPattern pat;
    int motion; ///< motion (needs 3x3)
    int five;   ///< motion_five_frame_window
    int model;  ///< vmaf_v0.6.1
    int vif;    ///< vif with vif_opts[vif] (0: no vif; needs 16x16)
    int adm;    ///< adm with adm_opts[adm] (0: no adm; needs 33x33)
    unsigned frames;
    unsigned subsample; ///< VgConfig.n_subsample
    uint64_t seed;
} ApiCase;

/* vif's option sets: debug outputs (every num/den), the gain limit, the
 * skipped scale 0 */
static const char *const vif_opts[] = {
    NULL,
    "debug=true",
    "debug=true:vif_enhn_gain_limit=1.0",
    "debug=true:vif_skip_scale0=true",
};

/* adm's option sets: debug outputs (every per-scale num/den), the gain
 * limit, the skipped scale 0, another viewing distance (computed CSF
 * weights), Barten CSF without AIM */
static const char *const adm_opts[] = {
    NULL,
    "debug=true",
    "debug=true:adm_enhn_gain_limit=1.0",
    "debug=true:adm_skip_scale0=true",
    "debug=true:adm_norm_view_dist=4",
    "debug=true:adm_csf_mode=1:adm_skip_aim=true",
};
#define N_ADM_OPTS 5

/* the patterns of the whole-API cases: pic.h's but the gradient */
#define N_PATS CA_PAT_GRADIENT

static const BenchCuda *cuda;
static unsigned n_pass, n_fail;
static unsigned long long n_values;

/* one scoring of a case: a context and its two picture sets */
typedef struct ApiRun {
    const char *label;
    VgContext *ctx;
    CaPic ref[2], dis[2];
    const BenchCuda *cuda; ///< device pictures: the set-up, else NULL
    enum VgBackend backend;
    unsigned threads;
    int callers_ctx; ///< the library on the caller's context
    uint64_t garbage;
} ApiRun;

static void print_case(const ApiCase *c)
{
    printf("checkasm:   case: %s %u-bit %ux%u pattern=%s frames=%u%s%s%s "
           "%s%s%s%s subsample=%u seed=%" PRIu64 "\n",
           ca_fmt_name(c->fmt), c->bpc, c->w, c->h, ca_pattern_names[c->pat],
           c->frames, c->motion ? " motion" : "", c->five ? " five-frame" : "",
           c->model ? " vmaf_v0.6.1" : "", c->vif ? "vif " : "",
           c->vif ? vif_opts[c->vif] : "", c->adm ? " adm " : "",
           c->adm ? adm_opts[c->adm] : "", c->subsample, c->seed);
}

static int make_ctx(ApiRun *r, const ApiCase *c)
{
    VgConfig cfg = {
        .backend = r->backend,
        .n_threads = r->threads,
        .log_level = ca_verbose() ? VG_LOG_INFO : VG_LOG_WARNING,
        .log_cb = ca_log,
        .log_opaque = (void *)r->label,
        .n_subsample = c->subsample,
    };
    int ret;

    if (r->callers_ctx) {
        cfg.cuda_context = cuda->ctx;
        cfg.cuda_stream = cuda->st;
    }
    if ((ret = vg_context_create(&r->ctx, &cfg)) < 0)
        return ret;
    if (c->model && (ret = vg_use_model(r->ctx, "version=vmaf_v0.6.1")) < 0)
        return ret;
    if ((ret = vg_use_feature(r->ctx, "psnr", "enable_mse=true")) < 0)
        return ret;
    if (c->motion && (ret = vg_use_feature(
                          r->ctx, "motion",
                          c->five ? "debug=true:motion_five_frame_window=true"
                                  : "debug=true")) < 0)
        return ret;
    if (c->vif && (ret = vg_use_feature(r->ctx, "vif", vif_opts[c->vif])) < 0)
        return ret;
    if (c->adm && (ret = vg_use_feature(r->ctx, "adm", adm_opts[c->adm])) < 0)
        return ret;
    return 0;
}

/* every value of every output of b against a, bit for bit; @return the
 * number of values compared, or -1 */
static long compare(ApiRun *a, ApiRun *b, const ApiCase *c)
{
    const unsigned n = vg_metric_count(a->ctx);
    long values = 0;

    if (n != vg_metric_count(b->ctx) || !n) {
        printf("checkasm: FAIL api %s: %u outputs, %s %u\n", b->label,
               vg_metric_count(b->ctx), a->label, n);
        print_case(c);
        return -1;
    }
    for (unsigned m = 0; m < n; m++) {
        const char *name = vg_metric_name(a->ctx, m);
        for (unsigned i = 0; i < c->frames; i++) {
            double x = 0, y = 0;
            const int ra = vg_get_score(a->ctx, name, i, &x);
            const int rb = vg_get_score(b->ctx, name, i, &y);
            if (ra != rb || (!ra && memcmp(&x, &y, sizeof(x)))) {
                printf("checkasm: FAIL api %s: %s frame %u: %s %.17g (%d), "
                       "%s %.17g (%d)\n",
                       b->label, name, i, a->label, x, ra, b->label, y, rb);
                print_case(c);
                return -1;
            }
            values += !ra;
        }
    }
    return values;
}

static void run_case(const ApiCase *c)
{
    ApiRun runs[4] = {
        { .label = "cpu", .backend = VG_BACKEND_CPU },
        { .label = "cuda-host", .backend = VG_BACKEND_CUDA, .threads = 2 },
        { .label = "cuda-callers",
          .backend = VG_BACKEND_CUDA,
          .cuda = cuda,
          .callers_ctx = 1 },
        { .label = "cuda-dev", .backend = VG_BACKEND_AUTO, .cuda = cuda },
    };
    const unsigned n_runs = 4;
    uint64_t rng = c->seed;
    long values = 0;
    int ret = -1;
    CaFrame fr;

    if (ca_frame_alloc(&fr, c->fmt, c->bpc, c->w, c->h) < 0) {
        printf("checkasm: FAIL api: cannot allocate the frames\n");
        print_case(c);
        goto end;
    }
    for (unsigned r = 0; r < n_runs; r++) {
        runs[r].garbage = ca_seed(c->seed, 1000 + r);
        for (unsigned k = 0; k < 2; k++) {
            if (ca_pic_alloc(&runs[r].ref[k], &fr, CA_PITCH_PADDED,
                             runs[r].cuda) < 0 ||
                ca_pic_alloc(&runs[r].dis[k], &fr, CA_PITCH_PADDED,
                             runs[r].cuda) < 0) {
                printf("checkasm: FAIL api %s: cannot allocate the pictures\n",
                       runs[r].label);
                print_case(c);
                goto end;
            }
        }
        if (make_ctx(&runs[r], c) < 0) {
            printf("checkasm: FAIL api %s: cannot create the context\n",
                   runs[r].label);
            print_case(c);
            goto end;
        }
    }
    for (unsigned i = 0; i < c->frames; i++) {
        ca_frame_fill(&fr, c->pat, i, &rng);
        for (unsigned r = 0; r < n_runs; r++) {
            ApiRun *x = &runs[r];
            CaPic *rp = &x->ref[i & 1], *dp = &x->dis[i & 1];
            /* the device copy of this set's previous frame may still be
             * read by queued work: the uploads are ordered on the
             * caller's stream, behind the library's reads */
            ca_pic_pack(rp, &fr, 0, &x->garbage);
            ca_pic_pack(dp, &fr, 1, &x->garbage);
            if (x->cuda && (ca_pic_upload(rp, x->cuda) < 0 ||
                            ca_pic_upload(dp, x->cuda) < 0)) {
                printf("checkasm: FAIL api %s: upload of frame %u\n", x->label,
                       i);
                print_case(c);
                goto end;
            }
            if ((ret = vg_submit(x->ctx, &rp->pic, &dp->pic)) < 0) {
                printf("checkasm: FAIL api %s: vg_submit() of frame %u: %s\n",
                       x->label, i, strerror(-ret));
                print_case(c);
                ret = -1;
                goto end;
            }
        }
    }
    for (unsigned r = 0; r < n_runs; r++) {
        if (vg_flush(runs[r].ctx) < 0) {
            printf("checkasm: FAIL api %s: vg_flush()\n", runs[r].label);
            print_case(c);
            ret = -1;
            goto end;
        }
        if (vg_backend_is_cuda(runs[r].ctx) != (r > 0)) {
            printf("checkasm: FAIL api %s: backend choice\n", runs[r].label);
            print_case(c);
            ret = -1;
            goto end;
        }
    }
    ret = 0;
    for (unsigned r = 1; r < n_runs; r++) {
        const long v = compare(&runs[0], &runs[r], c);
        if (v < 0)
            ret = -1;
        else
            values += v;
    }
end:
    for (unsigned r = 0; r < n_runs; r++)
        vg_context_destroy(&runs[r].ctx);
    if (VG_CU(cuda->cu, NULL, cuStreamSynchronize, cuda->st) < 0)
        ret = -1;
    for (unsigned r = 0; r < n_runs; r++) {
        for (unsigned k = 0; k < 2; k++) {
            if (ca_pic_free(&runs[r].ref[k], runs[r].cuda) < 0 ||
                ca_pic_free(&runs[r].dis[k], runs[r].cuda) < 0)
                ret = -1;
        }
    }
    ca_frame_free(&fr);
    if (ret < 0) {
        n_fail++;
        return;
    }
    n_pass++;
    n_values += (unsigned long long)values;
    if (ca_verbose())
        print_case(c);
}

/* ---- samples above the bit depth in device pictures ---------------------- */

static char range_msg[512];

static void range_log(void *opaque, enum VgLogLevel level, const char *msg)
{
    (void)opaque;
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
    const VgConfig cfg = {
        .backend = VG_BACKEND_CUDA,
        .log_cb = range_log,
        .cuda_context = cuda->ctx,
        .cuda_stream = cuda->st,
    };
    uint64_t rng = 7, garbage = 8;
    VgContext *ctx = NULL;
    CaPic ref, dis;
    CaFrame fr;
    int ret = 0, ok;
    double v;

    range_msg[0] = 0;
    memset(&ref, 0, sizeof(ref));
    memset(&dis, 0, sizeof(dis));
    if (ca_frame_alloc(&fr, VG_PIX_FMT_YUV420P, 10, 64, 48) < 0 ||
        ca_pic_alloc(&ref, &fr, CA_PITCH_PADDED, cuda) < 0 ||
        ca_pic_alloc(&dis, &fr, CA_PITCH_PADDED, cuda) < 0 ||
        vg_context_create(&ctx, &cfg) < 0 ||
        vg_use_feature(ctx, "psnr", NULL) < 0) {
        printf("checkasm: api range: FAIL (set-up)\n");
        n_fail++;
        goto end;
    }
    ca_frame_fill(&fr, CA_PAT_NOISE, 0, &rng);
    for (unsigned f = 0; f < 3 && ret >= 0; f++) {
        ca_pic_pack(&ref, &fr, 0, &garbage);
        ca_pic_pack(&dis, &fr, 1, &garbage);
        if (f == 1) { /* Cb sample (5, 3) */
            const uint16_t big = 0xffff;
            memcpy(dis.buf[1] + CA_GUARD + 3 * dis.pic.stride[1] + 5 * 2, &big,
                   2);
        }
        if (ca_pic_upload(&ref, cuda) < 0 || ca_pic_upload(&dis, cuda) < 0)
            break;
        ret = vg_submit(ctx, &ref.pic, &dis.pic);
        /* the pictures are rewritten next: wait for the library's reads */
        VG_CU(cuda->cu, NULL, cuStreamSynchronize, cuda->st);
    }
    if (ret >= 0)
        ret = vg_flush(ctx);
    ok = ret == -EINVAL &&
         strstr(range_msg, "distorted picture, frame 1, plane 1 (Cb): sample "
                           "65535 at (5, 3) exceeds the 10-bit maximum 1023") &&
         vg_get_score(ctx, "psnr_cb", 1, &v) < 0 &&
         vg_get_score(ctx, "psnr_cb", 0, &v) == 0;
    printf("checkasm: api range: %s (%d: %s)\n", ok ? "PASS" : "FAIL", ret,
           range_msg);
    if (ok)
        n_pass++;
    else
        n_fail++;
end:
    vg_context_destroy(&ctx);
    VG_CU(cuda->cu, NULL, cuStreamSynchronize, cuda->st);
    ca_pic_free(&ref, cuda);
    ca_pic_free(&dis, cuda);
    ca_frame_free(&fr);
}

/* ---- the matrix ---------------------------------------------------------- */

static const CaSize small_sizes[] = {
    { 1, 1 }, { 2, 5 },  { 1, 17 },  { 33, 1 },  { 3, 3 },     { 4, 3 },
    { 5, 4 }, { 17, 9 }, { 31, 33 }, { 67, 35 }, { 257, 131 }, { 640, 360 },
};

static const unsigned depths[] = { 8, 10, 12, 16 };

static const enum VgPixFmt planar[] = {
    VG_PIX_FMT_YUV420P,
    VG_PIX_FMT_YUV422P,
    VG_PIX_FMT_YUV444P,
};

/* the semi-planar format of this depth */
static enum VgPixFmt semiplanar(unsigned bpc)
{
    return bpc == 8    ? VG_PIX_FMT_NV12
           : bpc == 10 ? VG_PIX_FMT_P010
                       : VG_PIX_FMT_P016;
}

static void group_done(const char *what)
{
    printf("checkasm: api %s: %u passed, %u failed\n", what, n_pass, n_fail);
}

void checkasm_check_api(void)
{
    const unsigned sample = ca_sample();
    uint64_t s = ca_seed(ca_run_seed(), 0);
    unsigned n_small = 0;

    if (!(cuda = ca_cuda())) {
        printf("checkasm: api    needs a GPU, skipped\n");
        return;
    }
    n_pass = n_fail = 0;
    n_values = 0;

    /* small sizes: every depth x layout x pattern */
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned l = 0; l < 4; l++) {
            ApiCase c = { .bpc = depths[d], .frames = 4 };
            c.fmt = l < 3 ? planar[l] : semiplanar(c.bpc);
            /* two patterns per size, rotating so that every depth x
             * layout sees every pattern */
            for (unsigned z = 0;
                 z < sizeof(small_sizes) / sizeof(small_sizes[0]); z++) {
                for (unsigned k = 0; k < 2; k++) {
                    const unsigned p = (z + l + d + 3 * k) % N_PATS;
                    if (++n_small % sample)
                        continue;
                    c.w = small_sizes[z].w;
                    c.h = small_sizes[z].h;
                    c.pat = (enum CaPattern)p;
                    c.motion = c.w >= 3 && c.h >= 3;
                    c.five = c.motion && (z + p) % 3 == 0;
                    c.vif = c.w >= 16 && c.h >= 16 ? 1 + (z + k + d) % 3 : 0;
                    c.adm = c.w >= 33 && c.h >= 33
                                ? 1 + (z + k + d + l) % N_ADM_OPTS
                                : 0;
                    c.seed = ca_rand(&s);
                    run_case(&c);
                }
            }
            /* luma only */
            if (l == 0) {
                ApiCase y = c;
                y.fmt = VG_PIX_FMT_YUV400P;
                y.w = 67;
                y.h = 35;
                y.pat = (enum CaPattern)((d + 2) % N_PATS);
                y.motion = 1;
                y.seed = ca_rand(&s);
                run_case(&y);
            }
            /* P016 at 10 bits too (a 10-bit P016 is not P010's format) */
            if (c.fmt == VG_PIX_FMT_P010) {
                c.fmt = VG_PIX_FMT_P016;
                c.w = 67;
                c.h = 35;
                c.pat = CA_PAT_NOISE;
                c.motion = 1;
                c.seed = ca_rand(&s);
                run_case(&c);
            }
        }
        {
            char what[32];
            snprintf(what, sizeof(what), "%2u-bit small sizes", depths[d]);
            group_done(what);
        }
    }

    /* the 4:2:2 semi-planar and planar MSB-aligned formats of NVDEC and
     * FFmpeg's CUDA frames (NV16, P210/P212/P216, yuv444p10msb/12msb) */
    {
        static const struct {
            enum VgPixFmt fmt;
            unsigned bpc;
        } more[] = {
            { VG_PIX_FMT_NV16, 8 },         { VG_PIX_FMT_P216, 10 },
            { VG_PIX_FMT_P216, 12 },        { VG_PIX_FMT_P216, 16 },
            { VG_PIX_FMT_YUV444P_MSB, 10 }, { VG_PIX_FMT_YUV444P_MSB, 12 },
        };
        static const CaSize ms[] = {
            { 1, 1 }, { 3, 5 }, { 33, 33 }, { 67, 35 }, { 99, 67 },
        };
        for (unsigned m = 0; m < sizeof(more) / sizeof(more[0]); m++) {
            for (unsigned z = 0; z < sizeof(ms) / sizeof(ms[0]); z++) {
                ApiCase c = { .fmt = more[m].fmt,
                              .bpc = more[m].bpc,
                              .w = ms[z].w,
                              .h = ms[z].h,
                              .frames = 3 };
                c.pat = (enum CaPattern)((m + z) % N_PATS);
                c.motion = c.w >= 3 && c.h >= 3;
                c.vif = c.w >= 16 && c.h >= 16 ? 1 + (m + z) % 3 : 0;
                c.adm = c.w >= 33 && c.h >= 33 ? 1 + (m + z) % N_ADM_OPTS : 0;
                c.seed = ca_rand(&s);
                run_case(&c);
            }
        }
        group_done("nv16, p216, planar msb");
    }

    /* vif at its smallest accepted size and other odd sizes, every depth,
     * several layouts and patterns, each option set */
    {
        static const CaSize vs[] = {
            { 16, 16 }, { 17, 19 }, { 16, 33 },
            { 35, 16 }, { 99, 67 }, { 1023, 17 },
        };
        for (unsigned d = 0; d < 4; d++) {
            for (unsigned z = 0; z < sizeof(vs) / sizeof(vs[0]); z++) {
                const unsigned l = (z + d) % 4;
                ApiCase c = { .bpc = depths[d],
                              .w = vs[z].w,
                              .h = vs[z].h,
                              .motion = 1,
                              .frames = 3 };
                c.fmt = l < 3 ? planar[l] : semiplanar(c.bpc);
                for (unsigned k = 0; k < 3; k++) {
                    c.pat = (enum CaPattern)((z + d + 2 * k) % N_PATS);
                    c.vif = 1 + k;
                    c.seed = ca_rand(&s);
                    run_case(&c);
                }
            }
        }
        group_done("vif at small and odd sizes");
    }

    /* adm from its smallest accepted size (33x33) over odd sizes, every
     * depth, all layouts, patterns incl. full-range noise, each option set */
    {
        static const CaSize as[] = {
            { 33, 33 }, { 34, 35 }, { 37, 41 },   { 40, 36 },
            { 80, 48 }, { 99, 67 }, { 577, 323 }, { 1023, 34 },
        };
        for (unsigned d = 0; d < 4; d++) {
            for (unsigned z = 0; z < sizeof(as) / sizeof(as[0]); z++) {
                const unsigned l = (z + d) % 5;
                ApiCase c = {
                    .bpc = depths[d], .w = as[z].w, .h = as[z].h, .frames = 2
                };
                c.fmt = l < 3    ? planar[l]
                        : l == 3 ? VG_PIX_FMT_YUV400P
                                 : semiplanar(c.bpc);
                for (unsigned k = 0; k < 3; k++) {
                    if (++n_small % sample)
                        continue;
                    c.pat = k == 0 ? CA_PAT_NOISE
                                   : (enum CaPattern)((z + d + 2 * k) % N_PATS);
                    c.adm = 1 + (z + d + k) % N_ADM_OPTS;
                    c.seed = ca_rand(&s);
                    run_case(&c);
                }
            }
        }
        group_done("adm at small and odd sizes");
    }

    /* vmaf_v0.6.1 (vif, adm, motion) through the CUDA engine */
    {
        ApiCase c = { .fmt = VG_PIX_FMT_YUV420P,
                      .bpc = 8,
                      .w = 320,
                      .h = 180,
                      .pat = CA_PAT_RANDOM,
                      .motion = 1,
                      .model = 1,
                      .frames = 5 };
        for (unsigned d = 0; d < 4; d++) {
            c.bpc = depths[d];
            c.fmt = d == 1   ? VG_PIX_FMT_P010
                    : d == 2 ? VG_PIX_FMT_YUV422P
                             : VG_PIX_FMT_YUV420P;
            c.subsample = d == 3 ? 2 : 0;
            c.seed = ca_rand(&s);
            run_case(&c);
        }
        group_done("vmaf_v0.6.1 through the CUDA engine");
    }

    if (!ca_quick()) {
        static const CaSize big[] = { { 1920, 1080 }, { 3840, 2160 } };
        for (unsigned b = 0; b < 2; b++) {
            for (unsigned d = 0; d < 4; d++) {
                ApiCase c = { .bpc = depths[d],
                              .w = big[b].w,
                              .h = big[b].h,
                              .motion = 1,
                              .vif = 1,
                              .adm = 1,
                              .frames = 3 };
                c.fmt = d == 0   ? VG_PIX_FMT_NV12
                        : d == 1 ? VG_PIX_FMT_P010
                        : d == 2 ? VG_PIX_FMT_YUV422P
                                 : VG_PIX_FMT_YUV420P;
                c.pat = d & 1 ? CA_PAT_NOISE : CA_PAT_RANDOM;
                c.five = d == 3;
                c.seed = ca_rand(&s);
                run_case(&c);
                c.fmt = VG_PIX_FMT_YUV444P;
                c.pat = CA_PAT_MAX;
                c.seed = ca_rand(&s);
                run_case(&c);
            }
        }
        group_done("1080p and 2160p");
    }

    range_case();
    ca_count_cases(n_pass, n_fail, n_values);
    printf("checkasm: api    %4u cases, %4u failed, %9llu values compared%s "
           "[%s]\n",
           n_pass + n_fail, n_fail, n_values,
           ca_quick() ? ", big sizes skipped" : "", n_fail ? "FAILED" : "OK");
}
