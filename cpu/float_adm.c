/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ADM on the CPU, bit-exact with libvmaf v3.2.0's float_adm (adm.c
 * compute_adm(), adm_tools.c; ADM_OPT_AVOID_ATAN and
 * ADM_OPT_RECIP_DIVISION as adm_options.h defines them). Per scale: the
 * db2 DWT of both pictures, the decoupling of the distorted detail bands
 * into restored (r) and additive (a) parts, the reference energy
 * (denominator), the CSF of a and the masking of r by it (DLM numerator),
 * the CSF of r and the masking of a by it (AIM numerator).
 *
 * Each of the three region sums is produced as libvmaf adds it: one float
 * per row, its columns left to right, and the rows then added top to
 * bottom by the home's vg_float_adm_scale_value(), which the CUDA backend
 * calls with its own row sums. The per-sample arithmetic is
 * common/features/float_adm_params.h, shared with the kernels.
 *
 * On x86 the decoupling divides as libvmaf's SSE2 builds do: times the
 * hardware's approximate reciprocal refined by one Newton step
 * (vg_float_adm_rcp_hw()); elsewhere it divides.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/fplane.h"
#include "common/features/float_adm.h"
#include "common/features/float_adm_params.h"

typedef struct Bands {
    float *a, *h, *v, *d;
} Bands;

typedef struct FloatAdmPriv FloatAdmPriv;

typedef struct VgFloatAdmDSP {
    /** dwt_any()'s C, AVX2 or AVX-512 build */
    void (*dwt)(FloatAdmPriv *s, const float *src, ptrdiff_t sst, int w, int h,
                float *oa, float *oh, float *ov, float *od);
    /** cm_rows_any()'s (same) */
    void (*cm_rows)(FloatAdmPriv *s, const VgAdmScale *sc, const float *rf,
                    float *const src[3], int bypass, float *const out[3]);
} VgFloatAdmDSP;

struct FloatAdmPriv {
    VgFloatAdmParams p;
    ptrdiff_t in_stride;          ///< floats per row of the input planes
    ptrdiff_t stride;             ///< floats per row of every band
    float *in_ref, *in_dis;       ///< the pictures as float, offset -128
    float *lo_ref[2], *lo_dis[2]; ///< band a of each scale, ping-pong
    float *ref[3], *dis[3];       ///< DWT detail bands h, v, d
    float *r[3], *a[3];           ///< decoupled
    float *cv[3], *cf[3];         ///< CSF of the masker: value, |value| / 30
    float *tmplo, *tmphi;         ///< the DWT's vertical pass
    float *cm_thr, *cm_e[3];      ///< a row of masking thresholds and terms
    float *rows[3][3];            ///< row sums [kind][band]
    void *mem;
    VgFplaneDSP fplane; ///< the planes' conversion to float
    VgFloatAdmDSP dsp;
};

/* adm_dwt2_s / adm_dwt2_lo_s: per output row, the vertical pass over every
 * column, then the horizontal pass; v = hi(lo rows), h = lo(hi rows). The
 * output columns whose taps need no mirroring are computed side by side
 * (the same four products and sums each). */
VG_CPU_INLINE void dwt_any(FloatAdmPriv *s, const float *src, ptrdiff_t sst,
                           int w, int h, float *oa, float *oh, float *ov,
                           float *od)
{
    const ptrdiff_t dst = s->stride;
    float *restrict tl = s->tmplo, *restrict th = s->tmphi;
    const int ow = (w + 1) / 2;
    /* 2j - 1 >= 0 and 2j + 2 < w */
    const int in0 = 1 < ow ? 1 : ow,
              in1 = (w - 1) / 2 > in0 ? (w - 1) / 2 : in0;

    for (int i = 0; i < (h + 1) / 2; i++) {
        const float *restrict r0 = src + vg_fadm_src_index(i, 0, h) * sst;
        const float *restrict r1 = src + vg_fadm_src_index(i, 1, h) * sst;
        const float *restrict r2 = src + vg_fadm_src_index(i, 2, h) * sst;
        const float *restrict r3 = src + vg_fadm_src_index(i, 3, h) * sst;
        float *restrict a = oa + i * dst;

        for (int j = 0; j < w; j++)
            tl[j] = vg_fadm_lo(r0[j], r1[j], r2[j], r3[j]);
        if (oh) {
            for (int j = 0; j < w; j++)
                th[j] = vg_fadm_hi(r0[j], r1[j], r2[j], r3[j]);
        }
        for (int j = in0; j < in1; j++)
            a[j] = vg_fadm_lo(tl[2 * j - 1], tl[2 * j], tl[2 * j + 1],
                              tl[2 * j + 2]);
        if (oh) {
            float *restrict v = ov + i * dst, *restrict hh = oh + i * dst;
            float *restrict d = od + i * dst;

            for (int j = in0; j < in1; j++) {
                v[j] = vg_fadm_hi(tl[2 * j - 1], tl[2 * j], tl[2 * j + 1],
                                  tl[2 * j + 2]);
                hh[j] = vg_fadm_lo(th[2 * j - 1], th[2 * j], th[2 * j + 1],
                                   th[2 * j + 2]);
                d[j] = vg_fadm_hi(th[2 * j - 1], th[2 * j], th[2 * j + 1],
                                  th[2 * j + 2]);
            }
        }
        for (int j = 0; j < ow; j = j + 1 == in0 && in1 > in0 ? in1 : j + 1) {
            const int j0 = vg_fadm_src_index(j, 0, w);
            const int j1 = vg_fadm_src_index(j, 1, w);
            const int j2 = vg_fadm_src_index(j, 2, w);
            const int j3 = vg_fadm_src_index(j, 3, w);

            a[j] = vg_fadm_lo(tl[j0], tl[j1], tl[j2], tl[j3]);
            if (!oh)
                continue;
            ov[i * dst + j] = vg_fadm_hi(tl[j0], tl[j1], tl[j2], tl[j3]);
            oh[i * dst + j] = vg_fadm_lo(th[j0], th[j1], th[j2], th[j3]);
            od[i * dst + j] = vg_fadm_hi(th[j0], th[j1], th[j2], th[j3]);
        }
    }
}

VG_CPU_BUILDS(dwt,
              (FloatAdmPriv * s, const float *src, ptrdiff_t sst, int w, int h,
               float *oa, float *oh, float *ov, float *od),
              (s, src, sst, w, h, oa, oh, ov, od))

static inline float quotient(float n, float d)
{
#if VG_FADM_HAVE_RCP
    return vg_fadm_div_rcp(n, d, vg_float_adm_rcp_hw(d));
#else
    return n / d;
#endif
}

/* adm_decouple_s over the CSF region of scale sc */
static void decouple(FloatAdmPriv *s, const VgAdmScale *sc, double egl)
{
    const VgAdmRegion *rg = &sc->dec;
    const float cos1 = s->p.cos1_sq;

    for (int i = rg->top; i < rg->bottom; i++) {
        for (int j = rg->left; j < rg->right; j++) {
            const ptrdiff_t k = i * s->stride + j;
            float o[3], t[3], rst[3];

            for (int b = 0; b < 3; b++) {
                o[b] = s->ref[b][k];
                t[b] = s->dis[b][k];
            }
            for (int b = 0; b < 3; b++) {
                const float kb =
                    vg_fadm_clamp01(quotient(t[b], o[b] + VG_FADM_EPS));
                rst[b] = kb * o[b];
            }
            const int flag = vg_fadm_angle_flag(o[0], o[1], t[0], t[1], cos1);
            for (int b = 0; b < 3; b++) {
                rst[b] = vg_fadm_restore(rst[b], t[b], flag, egl);
                s->r[b][k] = rst[b];
                s->a[b][k] = t[b] - rst[b];
            }
        }
    }
}

/* adm_csf_s over the CSF region: the masker's CSF value and |value| / 30 */
static void csf(FloatAdmPriv *s, const VgAdmScale *sc, const float *rf,
                float *const src[3])
{
    const VgAdmRegion *rg = &sc->dec;

    for (int b = 0; b < 3; b++) {
        for (int i = rg->top; i < rg->bottom; i++) {
            for (int j = rg->left; j < rg->right; j++) {
                const ptrdiff_t k = i * s->stride + j;
                const float v = rf[b] * src[b][k];
                s->cv[b][k] = v;
                s->cf[b][k] = vg_fadm_flt(v);
            }
        }
    }
}

static inline float energy(const VgFloatAdmParams *p, float x)
{
    return p->p_is_3 ? vg_fadm_cube(x) : powf(x, p->p_f);
}

/* adm_csf_den_scale_s: per-row sums of |rf * ref|^p over the CM region */
static void den_rows(FloatAdmPriv *s, const VgAdmScale *sc, const float *rf)
{
    const VgAdmRegion *rg = &sc->cm;

    for (int i = rg->top; i < rg->bottom; i++) {
        for (int b = 0; b < 3; b++) {
            const float *row = s->ref[b] + i * s->stride;
            float inner = 0;
            for (int j = rg->left; j < rg->right; j++)
                inner += energy(&s->p, fabsf(rf[b] * row[j]));
            s->rows[VG_FADM_DEN][b][i - rg->top] = inner;
        }
    }
}

/* The masking threshold of row i at columns j0 .. j1 - 1 into thr[j]: the
 * sum over the bands, from 0, of each band's 3x3 term (vg_fadm_thr_band());
 * neighbours mirrored as the ADM_CM_THRESH_S_* macros: -1 -> 1 and n -> n - 1.
 * The columns away from the edges side by side. */
VG_CPU_INLINE void cm_thr(const FloatAdmPriv *s, int i, int h, int w, int j0,
                          int j1, float *restrict thr)
{
    const ptrdiff_t st = s->stride;
    const int im1 = i == 0 ? 1 : i - 1;
    const int ip1 = i == h - 1 ? h - 1 : i + 1;
    const int in0 = j0 > 1 ? j0 : 1, in1 = j1 < w - 1 ? j1 : w - 1;

    for (int j = j0; j < j1; j++)
        thr[j] = 0;
    for (int b = 0; b < 3; b++) {
        const float *restrict f0 = s->cf[b] + im1 * st;
        const float *restrict f1 = s->cf[b] + i * st;
        const float *restrict f2 = s->cf[b] + ip1 * st;
        const float *restrict c = s->cv[b] + i * st;

        for (int j = in0; j < in1; j++)
            thr[j] +=
                vg_fadm_thr_band(f0[j - 1], f0[j], f0[j + 1], f1[j - 1], c[j],
                                 f1[j + 1], f2[j - 1], f2[j], f2[j + 1]);
        for (int e = 0; e < 2; e++) {
            for (int j = e ? (in1 > j0 ? in1 : j0) : j0;
                 j < (e ? j1 : (in0 < j1 ? in0 : j1)); j++) {
                const int jm1 = j == 0 ? 1 : j - 1;
                const int jp1 = j == w - 1 ? w - 1 : j + 1;
                thr[j] +=
                    vg_fadm_thr_band(f0[jm1], f0[j], f0[jp1], f1[jm1], c[j],
                                     f1[jp1], f2[jm1], f2[j], f2[jp1]);
            }
        }
    }
}

/* adm_cm_s: per-row sums of max(|rf * src| - thr, 0)^p over the CM
 * region; thr from the masker's bands (s->cv, s->cf). Each row's terms are
 * computed side by side into s->cm_e, then added left to right as
 * libvmaf adds them (the three bands' sums interleaved, each in order). */
VG_CPU_INLINE void cm_rows_any(FloatAdmPriv *s, const VgAdmScale *sc,
                               const float *rf, float *const src[3], int bypass,
                               float *const out[3])
{
    const VgAdmRegion *rg = &sc->cm;
    const int w = sc->w, h = sc->h, left = rg->left, right = rg->right;
    const ptrdiff_t st = s->stride;
    float *restrict thr = s->cm_thr;

    for (int i = rg->top; i < rg->bottom; i++) {
        float inner[3] = { 0, 0, 0 };

        if (bypass) {
            for (int j = left; j < right; j++)
                thr[j] = 0;
        } else {
            cm_thr(s, i, h, w, left, right, thr);
        }
        for (int b = 0; b < 3; b++) {
            const float *restrict x = src[b] + i * st;
            float *restrict e = s->cm_e[b];
            const float r = rf[b];

            if (s->p.p_is_3) {
                for (int j = left; j < right; j++)
                    e[j] = vg_fadm_cube(vg_fadm_masked(x[j] * r, thr[j]));
            } else {
                for (int j = left; j < right; j++)
                    e[j] = powf(vg_fadm_masked(x[j] * r, thr[j]), s->p.p_f);
            }
        }
        for (int j = left; j < right; j++) {
            inner[0] += s->cm_e[0][j];
            inner[1] += s->cm_e[1][j];
            inner[2] += s->cm_e[2][j];
        }
        for (int b = 0; b < 3; b++)
            out[b][i - rg->top] = inner[b];
    }
}

VG_CPU_BUILDS(cm_rows,
              (FloatAdmPriv * s, const VgAdmScale *sc, const float *rf,
               float *const src[3], int bypass, float *const out[3]),
              (s, sc, rf, src, bypass, out))

static void vg_float_adm_dsp_init(VgFloatAdmDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->dwt, dwt, flags);
    VG_CPU_DSP_SET(dsp->cm_rows, cm_rows, flags);
}

static void float_adm_close(VgFeatureCtx *fc)
{
    FloatAdmPriv *s = fc->priv;
    free(s->mem);
    s->mem = NULL;
}

static float *carve(char **top, size_t floats)
{
    float *r = (float *)*top;
    *top += (floats * sizeof(float) + 63) & ~(size_t)63;
    return r;
}

static int float_adm_init(VgFeatureCtx *fc)
{
    FloatAdmPriv *s = fc->priv;
    const VgFloatAdmOpts *o = fc->opts;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());
    vg_float_adm_dsp_init(&s->dsp, vg_cpu_flags());

    vg_float_adm_setup(&s->p, o, fc->width, fc->height);
    s->in_stride = ((ptrdiff_t)fc->width + 15) & ~(ptrdiff_t)15;
    s->stride = ((ptrdiff_t)s->p.sc[0].w + 15) & ~(ptrdiff_t)15;

    const size_t plane = (size_t)s->in_stride * fc->height;
    const size_t band = (size_t)s->stride * s->p.sc[0].h;
    const size_t rows = (size_t)s->p.sc[0].h;
    const size_t total = 2 * ((plane * 4 + 63) & ~(size_t)63) +
                         22 * ((band * 4 + 63) & ~(size_t)63) +
                         2 * ((fc->width * 4 + 63) & ~(size_t)63) +
                         4 * (((size_t)s->stride * 4 + 63) & ~(size_t)63) +
                         9 * ((rows * 4 + 63) & ~(size_t)63) + 64;
    s->mem = calloc(1, total);
    if (!s->mem) {
        vg_log(fc->log, VG_LOG_ERROR, "float_adm: out of memory (%zu bytes)",
               total);
        return -ENOMEM;
    }
    char *top = (char *)(((uintptr_t)s->mem + 63) & ~(uintptr_t)63);
    s->in_ref = carve(&top, plane);
    s->in_dis = carve(&top, plane);
    for (int k = 0; k < 2; k++) {
        s->lo_ref[k] = carve(&top, band);
        s->lo_dis[k] = carve(&top, band);
    }
    for (int b = 0; b < 3; b++) {
        s->ref[b] = carve(&top, band);
        s->dis[b] = carve(&top, band);
        s->r[b] = carve(&top, band);
        s->a[b] = carve(&top, band);
        s->cv[b] = carve(&top, band);
        s->cf[b] = carve(&top, band);
    }
    s->tmplo = carve(&top, fc->width);
    s->tmphi = carve(&top, fc->width);
    s->cm_thr = carve(&top, s->stride);
    for (int b = 0; b < 3; b++)
        s->cm_e[b] = carve(&top, s->stride);
    for (int k = 0; k < 3; k++)
        for (int b = 0; b < 3; b++)
            s->rows[k][b] = carve(&top, rows);
    return 0;
}

static int float_adm_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    FloatAdmPriv *s = fc->priv;
    const VgFloatAdmOpts *o = fc->opts;
    const VgFloatAdmParams *p = &s->p;
    float val[VG_FADM_NB_SCALES][3] = { { 0 } };

    if (f->ref->w[0] != fc->width || f->ref->h[0] != fc->height ||
        f->dis->w[0] != fc->width || f->dis->h[0] != fc->height) {
        vg_log(fc->log, VG_LOG_ERROR, "float_adm: picture geometry changed");
        return -EINVAL;
    }
    /* float_adm.c extract(): picture_copy() with offset -128 */
    s->fplane.to_float(s->in_ref, s->in_stride, f->ref, 0, -128.0f);
    s->fplane.to_float(s->in_dis, s->in_stride, f->dis, 0, -128.0f);

    const float *src_ref = s->in_ref, *src_dis = s->in_dis;
    ptrdiff_t sst = s->in_stride;
    for (int sc = 0; sc < VG_FADM_NB_SCALES; sc++) {
        const VgAdmScale *g = &p->sc[sc];
        float *lr = s->lo_ref[sc & 1], *ld = s->lo_dis[sc & 1];

        if (sc < p->first_scale) {
            /* adm_skip_scale0: the low-pass bands only */
            s->dsp.dwt(s, src_ref, sst, g->in_w, g->in_h, lr, NULL, NULL, NULL);
            s->dsp.dwt(s, src_dis, sst, g->in_w, g->in_h, ld, NULL, NULL, NULL);
        } else {
            s->dsp.dwt(s, src_ref, sst, g->in_w, g->in_h, lr, s->ref[0],
                       s->ref[1], s->ref[2]);
            s->dsp.dwt(s, src_dis, sst, g->in_w, g->in_h, ld, s->dis[0],
                       s->dis[1], s->dis[2]);
            decouple(s, g, o->enhn_gain_limit);
            den_rows(s, g, p->rf[sc]);
            csf(s, g, p->rf[sc], s->a);
            s->dsp.cm_rows(s, g, p->rf[sc], s->r, o->bypass_cm,
                           s->rows[VG_FADM_NUM]);
            csf(s, g, p->rf[sc], s->r);
            s->dsp.cm_rows(s, g, p->rf[sc], s->a, o->bypass_cm,
                           s->rows[VG_FADM_AIM]);
            for (int k = 0; k < 3; k++)
                val[sc][k] = vg_float_adm_scale_value(
                    p, o, sc, k, (const float *const *)s->rows[k]);
        }
        src_ref = lr;
        src_dis = ld;
        sst = s->stride;
    }
    return vg_float_adm_finish(fc, f->index, val);
}

const VgFeatureImpl vg_cpu_float_adm = {
    .priv_size = sizeof(FloatAdmPriv),
    .init = float_adm_init,
    .extract = float_adm_extract,
    .close = float_adm_close,
};
