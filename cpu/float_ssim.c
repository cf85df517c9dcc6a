/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ssim on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/float_ssim.c and ssim.c, and the SSIM map float_ms_ssim
 * shares (cpu/float_ssim.h): iqa/convolve.c _iqa_convolve() (1-D passes,
 * IQA_CONVOLVE_1D), iqa/ssim_tools.c _iqa_ssim() and iqa/decimate.c.
 *
 * Arithmetic as libvmaf's C: each tap is a float product added to a
 * double accumulator, taps in ascending order, the sum rounded to float;
 * the four sums of the map are double, row-major, one pixel after the
 * other. The convolution loops run over a row of accumulators so that
 * the compiler can vectorise across outputs without changing any
 * output's order of additions.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_ssim.h"
#include "common/fplane.h"
#include "cpu/float_ssim.h"

static const float gauss[VG_SSIM_WIN] = VG_SSIM_GAUSS_TAPS;

int vg_ssim_work_alloc(VgSsimWork *wk, int w, int h)
{
    const size_t n = (size_t)w * h;

    wk->mu_r = malloc(n * sizeof(float));
    wk->mu_c = malloc(n * sizeof(float));
    wk->rr = malloc(n * sizeof(float));
    wk->cc = malloc(n * sizeof(float));
    wk->rc = malloc(n * sizeof(float));
    wk->cache = malloc(n * sizeof(float));
    wk->acc = malloc(((size_t)w + 1) * sizeof(double));
    if (!wk->mu_r || !wk->mu_c || !wk->rr || !wk->cc || !wk->rc || !wk->cache ||
        !wk->acc)
        return -ENOMEM;
    return 0;
}

void vg_ssim_work_free(VgSsimWork *wk)
{
    free(wk->mu_r);
    free(wk->mu_c);
    free(wk->rr);
    free(wk->cc);
    free(wk->rc);
    free(wk->cache);
    free(wk->acc);
}

/*
 * _iqa_convolve(): valid 11x11 Gaussian of the packed w x h image src
 * into dst ((w - 10) x (h - 10), packed), which may be src. The
 * horizontal pass keeps libvmaf's cache layout (output column x at x + 5).
 */
VG_CPU_INLINE void convolve_any(const float *src, int w, int h, float *cache,
                                double *restrict acc, float *dst)
{
    const int dw = w - (VG_SSIM_WIN - 1), dh = h - (VG_SSIM_WIN - 1);

    for (int y = 0; y < h; y++) {
        const float *row = src + (size_t)y * w;
        float *out = cache + (size_t)y * w + VG_SSIM_WIN_HALF;

        for (int x = 0; x < dw; x++)
            acc[x] = 0.0;
        for (int u = 0; u < VG_SSIM_WIN; u++)
            for (int x = 0; x < dw; x++)
                acc[x] += row[x + u] * gauss[u];
        for (int x = 0; x < dw; x++)
            out[x] = (float)acc[x];
    }
    for (int y = 0; y < dh; y++) {
        const float *col = cache + (size_t)y * w + VG_SSIM_WIN_HALF;
        float *out = dst + (size_t)y * dw;

        for (int x = 0; x < dw; x++)
            acc[x] = 0.0;
        for (int v = 0; v < VG_SSIM_WIN; v++)
            for (int x = 0; x < dw; x++)
                acc[x] += col[(size_t)v * w + x] * gauss[v];
        for (int x = 0; x < dw; x++)
            out[x] = (float)acc[x];
    }
}

VG_CPU_BUILDS(convolve,
              (const float *src, int w, int h, float *cache, double *acc,
               float *dst),
              (src, w, h, cache, acc, dst))

void vg_ssim_ref_terms(const VgSsimDSP *dsp, const float *ref, int w, int h,
                       VgSsimWork *wk, float *mu, float *rr)
{
    const size_t n = (size_t)w * h;

    dsp->convolve(ref, w, h, wk->cache, wk->acc, mu);
    for (size_t i = 0; i < n; i++)
        wk->rr[i] = ref[i] * ref[i];
    dsp->convolve(wk->rr, w, h, wk->cache, wk->acc, rr);
}

void vg_ssim_sums(const VgSsimDSP *dsp, const float *ref, const float *cmp,
                  int w, int h, VgSsimWork *wk, const float *mu_r,
                  const float *rr_r, double sums[VG_SSIM_NB_SUMS])
{
    const float c1 = (VG_SSIM_K1 * VG_SSIM_L) * (VG_SSIM_K1 * VG_SSIM_L);
    const float c2 = (VG_SSIM_K2 * VG_SSIM_L) * (VG_SSIM_K2 * VG_SSIM_L);
    const float c3 = c2 / 2.0f;
    const size_t n = (size_t)w * h;
    const size_t dn = vg_ssim_map_size(w, h);
    double ssim_sum = 0.0, l_sum = 0.0, c_sum = 0.0, s_sum = 0.0;

    if (!mu_r) {
        vg_ssim_ref_terms(dsp, ref, w, h, wk, wk->mu_r, wk->rr);
        mu_r = wk->mu_r;
        rr_r = wk->rr;
    }
    dsp->convolve(cmp, w, h, wk->cache, wk->acc, wk->mu_c);
    for (size_t i = 0; i < n; i++) {
        wk->cc[i] = cmp[i] * cmp[i];
        wk->rc[i] = ref[i] * cmp[i];
    }
    dsp->convolve(wk->cc, w, h, wk->cache, wk->acc, wk->cc);
    dsp->convolve(wk->rc, w, h, wk->cache, wk->acc, wk->rc);

    for (size_t i = 0; i < dn; i++) {
        const float mr = mu_r[i], mc = wk->mu_c[i];
        float vr = rr_r[i] - mr * mr;
        float vc = wk->cc[i] - mc * mc;
        /* MAX(0.0, x) in double, stored back as float */
        vr = 0.0 > vr ? 0.0f : vr;
        vc = 0.0 > vc ? 0.0f : vc;
        const float cov = wk->rc[i] - mr * mc;

        /* the default branch of _iqa_ssim()'s per-pixel loop */
        const float sr = (float)sqrt((double)(vr * vc));
        const double l = (2.0 * mr * mc + c1) / (mr * mr + mc * mc + c1);
        const double c = (2.0 * sr + c2) / (vr + vc + c2);
        const float cov_c = (cov < 0.0f && sr <= 0.0f) ? 0.0f : cov;
        const double s = (cov_c + c3) / (sr + c3);

        ssim_sum += l * c * s;
        l_sum += l;
        c_sum += c;
        s_sum += s;
    }
    sums[VG_SSIM_SUM_SSIM] = ssim_sum;
    sums[VG_SSIM_SUM_L] = l_sum;
    sums[VG_SSIM_SUM_C] = c_sum;
    sums[VG_SSIM_SUM_S] = s_sum;
}

/* _iqa_filter_pixel() centred on (x * factor, y * factor): v outer, u
 * inner; mirroring leaves inner coordinates as they are, so every tap
 * goes through it */
static inline float decimate_one(const float *img, int w, int h, int factor,
                                 const float *k, int half, int even, int x,
                                 int y)
{
    const float *kk = k;
    double sum = 0.0;

    for (int v = -half; v <= half - even; v++) {
        const int yy = VG_SSIM_MIRROR(y * factor + v, h);
        for (int u = -half; u <= half - even; u++) {
            const int xx = VG_SSIM_MIRROR(x * factor + u, w);
            sum += img[(size_t)yy * w + xx] * *kk++;
        }
    }
    return (float)sum;
}

/*
 * One output row at a time: the columns whose taps are all inside the
 * picture side by side (each output's taps still in order, into its own
 * accumulator), the others one by one. In place, a row whose outputs
 * land where the row itself reads (the first rows) is computed output
 * after output as libvmaf writes them.
 */
VG_CPU_INLINE void decimate_any(float *img, int w, int h, int factor,
                                const float *k, int klen, float *dst,
                                double *restrict acc)
{
    const int sw = w / factor + (w & 1), sh = h / factor + (h & 1);
    const int half = klen / 2, even = !(klen & 1);
    /* x0 .. x1 - 1: x * factor - half >= 0, x * factor + half - even < w */
    const int x0 = (half + factor - 1) / factor;
    int x1 = (w - 1 - half + even) / factor + 1;

    if (x1 > sw)
        x1 = sw;
    for (int y = 0; y < sh; y++) {
        int top = h;

        for (int v = -half; v <= half - even; v++) {
            const int yy = VG_SSIM_MIRROR(y * factor + v, h);
            top = yy < top ? yy : top;
        }
        if (dst == img && (size_t)(y + 1) * sw > (size_t)top * w) {
            for (int x = 0; x < sw; x++)
                dst[(size_t)y * sw + x] =
                    decimate_one(img, w, h, factor, k, half, even, x, y);
            continue;
        }
        for (int x = x0; x < x1; x++)
            acc[x] = 0.0;
        for (int v = -half, t = 0; v <= half - even; v++) {
            const float *row =
                img + (size_t)VG_SSIM_MIRROR(y * factor + v, h) * w;
            for (int u = -half; u <= half - even; u++, t++) {
                const float kt = k[t];
                for (int x = x0; x < x1; x++)
                    acc[x] += row[x * factor + u] * kt;
            }
        }
        for (int x = 0; x < sw; x++)
            dst[(size_t)y * sw + x] =
                x >= x0 && x < x1
                    ? (float)acc[x]
                    : decimate_one(img, w, h, factor, k, half, even, x, y);
    }
}

VG_CPU_BUILDS(decimate,
              (float *img, int w, int h, int factor, const float *k, int klen,
               float *dst, double *acc),
              (img, w, h, factor, k, klen, dst, acc))

void vg_ssim_dsp_init(VgSsimDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->convolve, convolve, flags);
    VG_CPU_DSP_SET(dsp->decimate, decimate, flags);
}

typedef struct FloatSsimState {
    VgFloatSsimParams p;
    float *ref, *dis;   ///< packed w x h, decimated in place
    float box[10 * 10]; ///< the decimation's kernel
    VgSsimWork wk;
    VgSsimDSP dsp;
    VgFplaneDSP fplane; ///< the planes' conversion to float
} FloatSsimState;

static int float_ssim_init(VgFeatureCtx *fc)
{
    FloatSsimState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;
    int ret;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());
    vg_ssim_dsp_init(&s->dsp, vg_cpu_flags());

    if ((ret = vg_float_ssim_setup(&s->p, fc->opts, fc->bpc, fc->width,
                                   fc->height, fc->log)) < 0)
        return ret;
    /* ssim.c: scale x scale taps of 1.0f / (scale * scale) */
    for (int i = 0; i < s->p.scale * s->p.scale; i++)
        s->box[i] = 1.0f / (s->p.scale * s->p.scale);
    s->ref = malloc(n * sizeof(float));
    s->dis = malloc(n * sizeof(float));
    if (!s->ref || !s->dis)
        return -ENOMEM;
    return vg_ssim_work_alloc(&s->wk, s->p.dw, s->p.dh);
}

/*
 * A ladder's reference stage: the reference's picture at the decimated
 * size, then its SSIM terms (vg_ssim_ref_terms()), packed floats.
 */
static size_t float_ssim_stage_size(const VgFeatureCtx *fc)
{
    const FloatSsimState *s = fc->priv;

    return ((size_t)s->p.dw * s->p.dh +
            2 * vg_ssim_map_size(s->p.dw, s->p.dh)) *
           sizeof(float);
}

static int float_ssim_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    FloatSsimState *s = fc->priv;
    const int w = (int)fc->width, h = (int)fc->height;
    float *ref = s->ref, *mu = NULL, *rr = NULL;
    double sums[VG_SSIM_NB_SUMS];

    if (f->stage) {
        ref = f->stage;
        mu = ref + (size_t)s->p.dw * s->p.dh;
        rr = mu + vg_ssim_map_size(s->p.dw, s->p.dh);
    }
    if (f->stage_role != VG_STAGE_READ) {
        /* scale 1: the picture goes straight to the stage */
        float *full = s->p.scale > 1 ? s->ref : ref;

        s->fplane.to_float(full, w, f->ref, 0, 0.0f);
        if (s->p.scale > 1)
            s->dsp.decimate(full, w, h, s->p.scale, s->box, s->p.scale, ref,
                            s->wk.acc);
        if (f->stage)
            vg_ssim_ref_terms(&s->dsp, ref, s->p.dw, s->p.dh, &s->wk, mu, rr);
    }
    s->fplane.to_float(s->dis, w, f->dis, 0, 0.0f);
    if (s->p.scale > 1)
        s->dsp.decimate(s->dis, w, h, s->p.scale, s->box, s->p.scale, s->dis,
                        s->wk.acc);
    vg_ssim_sums(&s->dsp, ref, s->dis, s->p.dw, s->p.dh, &s->wk, mu, rr, sums);
    return vg_float_ssim_emit(fc, &s->p, f->index, sums);
}

static void float_ssim_close(VgFeatureCtx *fc)
{
    FloatSsimState *s = fc->priv;

    free(s->ref);
    free(s->dis);
    vg_ssim_work_free(&s->wk);
}

const VgFeatureImpl vg_cpu_float_ssim = {
    .priv_size = sizeof(FloatSsimState),
    .init = float_ssim_init,
    .extract = float_ssim_extract,
    .close = float_ssim_close,
    .ref_stage_size = float_ssim_stage_size,
};
