/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float VIF on the CPU, bit-exact with the C path of libvmaf v3.2.0
 * (src/feature/float_vif.c extract(), vif.c compute_vif(), vif_tools.c
 * vif_filter1d_s/_sq_s/_xy_s, vif_dec2_s, vif_statistic_s,
 * vif_scale_frame_s).
 *
 * The luma becomes float with offset -128 (common/fplane.h), is prescaled
 * when vif_prescale changes its size, then per scale s (first..3):
 *  - s > 0: the previous scale's pictures are low-passed with scale s's
 *    filter and every second row and column is kept (vif_dec2_s); only the
 *    kept samples are filtered here, which are the same values;
 *  - per row i, the vertical pass: for each column, taps k ascending over
 *    mirrored rows i - N/2 + k, a float accumulator from 0 adding f_k * x
 *    (mu1), f_k * y (mu2), f_k * (x * x), f_k * (y * y), f_k * (x * y);
 *  - the horizontal pass over those five rows, mirrored the same way, taps
 *    ascending, float accumulators from 0;
 *  - vg_fvif_statistic() per sample, whose num and den are added left to
 *    right into the row's two float sums.
 * The row sums go to the home (vg_float_vif_sum_rows(), top to bottom as
 * vif_statistic_s does, then vg_float_vif_emit()). Loops run over columns
 * inside the tap loop (and vectorise); every sample's chain of operations
 * and its order are libvmaf's, so the result is.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/features/float_vif.h"
#include "common/fplane.h"

typedef struct FvifCpu FvifCpu;

typedef struct VgFloatVifDSP {
    /** decimate_any()'s C, AVX2 or AVX-512 build */
    void (*decimate)(const VgFvifSetup *s, unsigned sc,
                     const float *const src[2], ptrdiff_t stride,
                     float *const dst[2], float *const *v);
    /** statistic_any()'s (same) */
    void (*statistic)(FvifCpu *c, unsigned sc, const float *ref,
                      const float *dis, ptrdiff_t stride);
} VgFloatVifDSP;

struct FvifCpu {
    VgFvifSetup s;
    float *buf;       ///< one allocation for all below
    float *in[2];     ///< ref, dis as float, w x h
    float *pre[2];    ///< prescaled, sw x sh (prescale only)
    float *lvl[2][2]; ///< [ping-pong][ref, dis], scales 1..3
    float *v[5];      ///< vertical-pass rows, padded by VG_FVIF_MAX_TAPS / 2
    float *hz[5];     ///< horizontal-pass rows
    float *row_num, *row_den; ///< s.rows each
    VgFplaneDSP fplane;       ///< the planes' conversion to float
    VgFloatVifDSP dsp;
};

static void vg_float_vif_dsp_init(VgFloatVifDSP *dsp, unsigned flags);

#define PAD (VG_FVIF_MAX_TAPS / 2)

static int fvif_init(VgFeatureCtx *fc)
{
    FvifCpu *c = fc->priv;
    VgFvifSetup *s = &c->s;
    const size_t n_in = (size_t)fc->width * fc->height;
    size_t n_pre, n_lvl, n_row, total, off = 0;
    int ret;

    vg_fplane_dsp_init(&c->fplane, vg_cpu_flags());
    vg_float_vif_dsp_init(&c->dsp, vg_cpu_flags());

    if ((ret = vg_float_vif_setup(s, fc->opts, fc->width, fc->height,
                                  fc->log)) < 0)
        return ret;
    n_pre = s->prescale ? (size_t)s->sw * s->sh : 0;
    n_lvl = (size_t)s->sc_w[1] * s->sc_h[1];
    n_row = s->sw + 2 * PAD;
    total = 2 * n_in + 2 * n_pre + 4 * n_lvl + 10 * n_row + 2 * s->rows;
    if (!(c->buf = malloc(total * sizeof(float))))
        return -ENOMEM;
    for (int k = 0; k < 2; k++, off += n_in)
        c->in[k] = c->buf + off;
    for (int k = 0; k < 2; k++, off += n_pre)
        c->pre[k] = c->buf + off;
    for (int k = 0; k < 4; k++, off += n_lvl)
        c->lvl[k / 2][k % 2] = c->buf + off;
    for (int k = 0; k < 5; k++, off += n_row)
        c->v[k] = c->buf + off;
    for (int k = 0; k < 5; k++, off += n_row)
        c->hz[k] = c->buf + off;
    c->row_num = c->buf + off;
    c->row_den = c->buf + off + s->rows;
    return 0;
}

static void fvif_close(VgFeatureCtx *fc)
{
    FvifCpu *c = fc->priv;

    free(c->buf);
    vg_float_vif_free(&c->s);
}

/* vif_scale_frame_s() of one picture, from the home's axis tables */
static void prescale(const VgFvifSetup *s, const float *src, float *dst)
{
    for (unsigned y = 0; y < s->sh; y++)
        for (unsigned x = 0; x < s->sw; x++)
            dst[(size_t)y * s->sw + x] = vg_fvif_prescale_px(
                s->method, src, s->w,
                s->ax.idx + (size_t)x * VG_VIF_PRESCALE_TAPS,
                s->ax.w + (size_t)x * VG_VIF_PRESCALE_TAPS,
                s->ay.idx + (size_t)y * VG_VIF_PRESCALE_TAPS,
                s->ay.w + (size_t)y * VG_VIF_PRESCALE_TAPS);
}

/* Mirror the r samples beyond each end of a row of w (stored from PAD). */
static void pad_row(float *p, unsigned w, int r)
{
    for (int t = 1; t <= r; t++) {
        p[PAD - t] = p[PAD + t];
        p[PAD + (int)w - 1 + t] = p[PAD + (int)w - 1 - t];
    }
}

/* Horizontal pass of one padded row at columns 0, step, 2 step, ...
 * (step a constant where it is inlined) */
VG_CPU_INLINE void hpass(const float *f, int taps, const float *restrict p,
                         float *restrict out, unsigned n_out,
                         const unsigned step)
{
    const float *q = p + PAD - taps / 2;

    for (unsigned j = 0; j < n_out; j++)
        out[j] = 0;
    for (int k = 0; k < taps; k++) {
        const float fk = f[k];
        for (unsigned j = 0; j < n_out; j++)
            out[j] += fk * q[j * step + k];
    }
}

/* The vertical pass of one output row: a[j] = 0 + f_0 x_0[j] + ..., the
 * taps in order over the mirrored rows around `row` of src. */
VG_CPU_INLINE void vpass(float *restrict a, const float *restrict src,
                         ptrdiff_t stride, const float *f, int taps, int row,
                         int h, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        a[j] = 0;
    for (int k = 0; k < taps; k++) {
        const float *restrict x =
            src + vg_vif_mirror(row - taps / 2 + k, h) * stride;
        const float fk = f[k];
        for (unsigned j = 0; j < w; j++)
            a[j] += fk * x[j];
    }
}

/* Scale sc's decimation: next[i][j] = (F * prev)[2i][2j], ref and dis. */
VG_CPU_INLINE void decimate_any(const VgFvifSetup *s, unsigned sc,
                                const float *const src[2], ptrdiff_t stride,
                                float *const dst[2], float *const *v)
{
    const float *f = s->filter[sc];
    const int taps = s->taps[sc];
    const unsigned w = s->sc_w[sc - 1], h = s->sc_h[sc - 1];

    for (unsigned i = 0; i < s->sc_h[sc]; i++) {
        for (int q = 0; q < 2; q++) {
            vpass(v[q] + PAD, src[q], stride, f, taps, (int)(2 * i), (int)h, w);
            pad_row(v[q], w, taps / 2);
            hpass(f, taps, v[q], dst[q] + (size_t)i * s->sc_w[sc], s->sc_w[sc],
                  2);
        }
    }
}

VG_CPU_BUILDS(decimate,
              (const VgFvifSetup *s, unsigned sc, const float *const src[2],
               ptrdiff_t stride, float *const dst[2], float *const *v),
              (s, sc, src, stride, dst, v))

/* The vertical pass of the statistic's five rows (mu1, mu2, x^2, y^2, xy)
 * around `row`, as vpass() does each. */
VG_CPU_INLINE void vpass5(float *restrict m1, float *restrict m2,
                          float *restrict xx, float *restrict yy,
                          float *restrict xy, const float *restrict ref,
                          const float *restrict dis, ptrdiff_t stride,
                          const float *f, int taps, int row, int h, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        m1[j] = m2[j] = xx[j] = yy[j] = xy[j] = 0;
    for (int k = 0; k < taps; k++) {
        const ptrdiff_t o = vg_vif_mirror(row - taps / 2 + k, h) * stride;
        const float *restrict a = ref + o, *restrict b = dis + o;
        const float fk = f[k];
        for (unsigned j = 0; j < w; j++) {
            const float x = a[j], y = b[j];
            m1[j] += fk * x;
            m2[j] += fk * y;
            xx[j] += fk * (x * x);
            yy[j] += fk * (y * y);
            xy[j] += fk * (x * y);
        }
    }
}

/* vg_fvif_statistic() of a row of samples, side by side */
VG_CPU_INLINE void stat_row(const float *restrict h0, const float *restrict h1,
                            const float *restrict h2, const float *restrict h3,
                            const float *restrict h4, float egl,
                            double sigma_nsq, float sigma_max_inv,
                            float *restrict rn, float *restrict rd, unsigned w)
{
#pragma GCC ivdep
    for (unsigned j = 0; j < w; j++)
        vg_fvif_statistic(h0[j], h1[j], h2[j], h3[j], h4[j], egl, sigma_nsq,
                          sigma_max_inv, &rn[j], &rd[j]);
}

/* One scale's statistic: the two row sums of every row. The per-sample
 * values go to a row first (computed side by side), then are added left
 * to right. */
VG_CPU_INLINE void statistic_any(FvifCpu *c, unsigned sc, const float *ref,
                                 const float *dis, ptrdiff_t stride)
{
    const VgFvifSetup *s = &c->s;
    const float *f = s->filter[sc];
    const int taps = s->taps[sc];
    const unsigned w = s->sc_w[sc], h = s->sc_h[sc];
    /* the vertical pass' rows are free once filtered horizontally */
    float *rn = c->v[0], *rd = c->v[1];

    for (unsigned i = 0; i < h; i++) {
        float an = 0.0f, ad = 0.0f;

        vpass5(c->v[0] + PAD, c->v[1] + PAD, c->v[2] + PAD, c->v[3] + PAD,
               c->v[4] + PAD, ref, dis, stride, f, taps, (int)i, (int)h, w);
        for (int q = 0; q < 5; q++) {
            pad_row(c->v[q], w, taps / 2);
            hpass(f, taps, c->v[q], c->hz[q], w, 1);
        }
        stat_row(c->hz[0], c->hz[1], c->hz[2], c->hz[3], c->hz[4], s->egl,
                 s->sigma_nsq, s->sigma_max_inv, rn, rd, w);
        for (unsigned j = 0; j < w; j++) {
            an += rn[j];
            ad += rd[j];
        }
        c->row_num[s->row_off[sc] + i] = an;
        c->row_den[s->row_off[sc] + i] = ad;
    }
}

VG_CPU_BUILDS(statistic,
              (FvifCpu * c, unsigned sc, const float *ref, const float *dis,
               ptrdiff_t stride),
              (c, sc, ref, dis, stride))

static void vg_float_vif_dsp_init(VgFloatVifDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->decimate, decimate, flags);
    VG_CPU_DSP_SET(dsp->statistic, statistic, flags);
}

static int fvif_extract(VgFeatureCtx *fc, const VgFrame *fr)
{
    FvifCpu *c = fc->priv;
    const VgFvifSetup *s = &c->s;
    const float *cur[2];
    float num[4], den[4];
    ptrdiff_t stride;

    c->fplane.to_float(c->in[0], fc->width, fr->ref, 0, -128.0f);
    c->fplane.to_float(c->in[1], fc->width, fr->dis, 0, -128.0f);
    if (s->prescale) {
        prescale(s, c->in[0], c->pre[0]);
        prescale(s, c->in[1], c->pre[1]);
        cur[0] = c->pre[0];
        cur[1] = c->pre[1];
    } else {
        cur[0] = c->in[0];
        cur[1] = c->in[1];
    }
    stride = s->sw;
    for (unsigned sc = 0; sc < 4; sc++) {
        if (sc > 0) {
            float *const *dst = c->lvl[sc & 1];
            c->dsp.decimate(s, sc, cur, stride, dst, c->v);
            cur[0] = dst[0];
            cur[1] = dst[1];
            stride = s->sc_w[sc];
        }
        if (sc >= s->first)
            c->dsp.statistic(c, sc, cur[0], cur[1], stride);
    }
    vg_float_vif_sum_rows(s, c->row_num, c->row_den, num, den);
    return vg_float_vif_emit(fc, s, fr->index, num, den);
}

const VgFeatureImpl vg_cpu_float_vif = {
    .priv_size = sizeof(FvifCpu),
    .init = fvif_init,
    .extract = fvif_extract,
    .close = fvif_close,
};
