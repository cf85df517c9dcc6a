/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF, bit-exact with the portable C path of libvmaf v3.2.0
 * (src/feature/integer_vif.c: vif_statistic_8, vif_statistic_16,
 * subsample_rd_8, subsample_rd_16, decimate_and_pad, pad_top_and_bottom,
 * log_generate, write_scores; integer_vif.h: tables, log2_32, log2_64).
 *
 * Per scale s (0..3, picture ⌊W/2^s⌋ x ⌊H/2^s⌋), row by row:
 *  - vertical pass with the scale's taps over mirrored rows: sums of c*x,
 *    c*y (uint32) and c*x*x, c*y*y, c*x*y, rounded and shifted to the
 *    8-bit-equivalent working unit (mu x 2^8, squares x 2^16);
 *  - horizontal pass over the mirrored row: sums M1, M2 (uint32) and
 *    XX, YY, XY (uint64);
 *  - per pixel sigma1^2, sigma2^2, sigma12 and the log-domain terms, summed
 *    into the four int64 accumulators of VgVifAccum.
 * Between scales the picture is low-passed with the next scale's taps and
 * every second row and column is kept.
 *
 * libvmaf pads its buffers by copying rows/columns; for W, H >= 16 every
 * sample it reads that way is the reflect-101 mirror (x[-k] = x[k],
 * x[n-1+k] = x[n-1-k]) of an in-picture sample, which is what this file
 * computes directly. Below 16 (scale 3 then has one row or column, fewer
 * than its filter half-width) libvmaf reads stale rows or columns, so the
 * descriptor refuses such sizes.
 *
 * All integer sums are exact (no overflow, checked for 16-bit maxima in
 * tests/unit/test_vif.c), so they may be formed in any order; the loops
 * below run tap by tap over whole rows, which GCC vectorises.
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/feature.h"
#include "cpu/vif.h"

/* integer_vif.h vif_filter1d_table, vif_filter1d_width */
const uint16_t vg_vif_taps[4][17] = {
    { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274,
      3896, 2640, 1640, 935, 489 },
    { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },
    { 3571, 16004, 26386, 16004, 3571 },
    { 10904, 43728, 10904 },
};
const unsigned vg_vif_taps_len[4] = { 17, 9, 5, 3 };

/* Largest filter half-width (scale 0): margin of the row buffers. */
#define PAD 8
/* Smallest picture side with exact mirrors at every scale (see @file). */
#define VIF_MIN_SIZE 16

static uint16_t log2_table[65537];
static pthread_once_t log2_once = PTHREAD_ONCE_INIT;

/* integer_vif.c log_generate(): glibc log2f, then round() in double. */
static void log2_build(void)
{
    for (unsigned i = 32767; i < 65536; i++)
        log2_table[i] = (uint16_t)round(log2f((float)i) * 2048);
}

const uint16_t *vg_vif_log2_table(void)
{
    pthread_once(&log2_once, log2_build);
    return log2_table;
}

typedef struct VifCpu {
    const uint16_t *log2;
    unsigned w[4], h[4];
    uint16_t *img[4][2];    ///< scales 1..3, ref/dis, row stride w[s]
    uint32_t *vmu[2];       ///< vertical sums of c*x, c*y
    uint64_t *vsq[3];       ///< vertical sums of c*x*x, c*y*y, c*x*y
    uint32_t *tmu[2];       ///< filtered row (mu), PAD margin each side
    uint32_t *tsq[3];       ///< filtered row (squares), PAD margin each side
    uint32_t *hmu[2];       ///< horizontal sums M1, M2
    uint64_t *hsq[3];       ///< horizontal sums XX, YY, XY
    int32_t *sig[3];        ///< sigma1^2, sigma2^2, sigma12 of one row
    void *mem;
} VifCpu;

static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * (n - 1) - i;
    return i;
}

/* ---- vertical passes ---------------------------------------------------- */

/* 8-bit scale 0 (vif_statistic_8): every sum fits uint32 (max
 * 65536 * 255^2 < 2^32), the squares are kept unshifted. */
static void vacc_stat_u8(uint32_t *restrict m1, uint32_t *restrict m2,
                         uint32_t *restrict xx, uint32_t *restrict yy,
                         uint32_t *restrict xy, const uint8_t *restrict a,
                         const uint8_t *restrict b, uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        uint32_t ca = c * a[j], cb = c * b[j];
        m1[j] += ca;
        m2[j] += cb;
        xx[j] += ca * a[j];
        yy[j] += cb * b[j];
        xy[j] += ca * b[j];
    }
}

/* 16-bit samples (vif_statistic_16): c*x fits uint32, the squares need
 * uint64 (up to 65536 * 65535^2). */
static void vacc_stat_u16(uint32_t *restrict m1, uint32_t *restrict m2,
                          uint64_t *restrict xx, uint64_t *restrict yy,
                          uint64_t *restrict xy, const uint16_t *restrict a,
                          const uint16_t *restrict b, uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        uint32_t ca = c * a[j], cb = c * b[j];
        m1[j] += ca;
        m2[j] += cb;
        xx[j] += (uint64_t)ca * a[j];
        yy[j] += (uint64_t)cb * b[j];
        xy[j] += (uint64_t)ca * b[j];
    }
}

static void vacc_mu_u8(uint32_t *restrict m1, uint32_t *restrict m2,
                       const uint8_t *restrict a, const uint8_t *restrict b,
                       uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        m1[j] += c * a[j];
        m2[j] += c * b[j];
    }
}

static void vacc_mu_u16(uint32_t *restrict m1, uint32_t *restrict m2,
                        const uint16_t *restrict a, const uint16_t *restrict b,
                        uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        m1[j] += c * a[j];
        m2[j] += c * b[j];
    }
}

static void round_u32(uint32_t *restrict dst, const uint32_t *restrict src,
                      uint32_t add, unsigned shift, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        dst[j] = (src[j] + add) >> shift;
}

static void round_u64(uint32_t *restrict dst, const uint64_t *restrict src,
                      uint64_t add, unsigned shift, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        dst[j] = (uint32_t)((src[j] + add) >> shift);
}

/* integer_vif.h PADDING_SQ_DATA / PADDING_SQ_DATA_2: reflect-101. */
static void pad_row(uint32_t *t, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        t[-(int)f] = t[f];
        t[w - 1 + f] = t[w - 1 - f];
    }
}

/* ---- one scale's statistic ----------------------------------------------- */

static void hacc_mu(uint32_t *restrict acc, const uint32_t *restrict t,
                    uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        acc[j] += c * t[j];
}

static void hacc_sq(uint64_t *restrict acc, const uint32_t *restrict t,
                    uint32_t c, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        acc[j] += (uint64_t)c * t[j];
}

/* vif_statistic_*: mu products (uint64, rounded >> 32 to uint32), filtered
 * squares rounded >> 16 to uint32, differences taken in uint32 and
 * reinterpreted as int32; sigma2^2 clamped at 0. */
static void row_sigmas(int32_t *restrict s1, int32_t *restrict s2,
                       int32_t *restrict s12, const uint32_t *restrict m1,
                       const uint32_t *restrict m2,
                       const uint64_t *restrict xx,
                       const uint64_t *restrict yy,
                       const uint64_t *restrict xy, unsigned w)
{
    for (unsigned j = 0; j < w; j++) {
        uint32_t mu1_sq = (uint32_t)(((uint64_t)m1[j] * m1[j] + 2147483648u) >> 32);
        uint32_t mu2_sq = (uint32_t)(((uint64_t)m2[j] * m2[j] + 2147483648u) >> 32);
        uint32_t mu12 = (uint32_t)(((uint64_t)m1[j] * m2[j] + 2147483648u) >> 32);
        uint32_t fxx = (uint32_t)((xx[j] + 32768) >> 16);
        uint32_t fyy = (uint32_t)((yy[j] + 32768) >> 16);
        uint32_t fxy = (uint32_t)((xy[j] + 32768) >> 16);
        int32_t v2 = (int32_t)(fyy - mu2_sq);

        s1[j] = (int32_t)(fxx - mu1_sq);
        s2[j] = v2 < 0 ? 0 : v2;
        s12[j] = (int32_t)(fxy - mu12);
    }
}

/* The per-pixel log-domain terms of vif_statistic_8/16, in its order of
 * operations: g in double, sv^2 truncated to int32, (g*g)*sigma1^2
 * truncated to int64. */
static void row_accumulate(VgVifAccum *acc, const int32_t *s1v,
                           const int32_t *s2v, const int32_t *s12v,
                           unsigned w, const uint16_t *tab, double egl)
{
    const int32_t nsq = VG_VIF_SIGMA_NSQ;
    const double eps = 65536 * 1.0e-10;
    int64_t num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;

    for (unsigned j = 0; j < w; j++) {
        int32_t s1 = s1v[j], s2 = s2v[j], s12 = s12v[j];

        if (s1 >= nsq) {
            den_log += vg_vif_log2_32(tab, nsq + s1) - 2048 * 17;
            if (s12 > 0 && s2 > 0) {
                double g = s12 / (s1 + eps);
                int32_t sv_sq = s2 - g * s12;
                uint32_t n1;
                int64_t n2;

                sv_sq = sv_sq < 0 ? 0 : sv_sq;
                g = g < egl ? g : egl;
                n1 = sv_sq + nsq;
                n2 = (int64_t)(g * g * s1) + n1;
                num_log += vg_vif_log2_64(tab, n2) - vg_vif_log2_64(tab, n1);
            }
        } else {
            num_non_log += s2;
            den_non_log++;
        }
    }
    acc->num_log += num_log;
    acc->den_log += den_log;
    acc->num_non_log += num_non_log;
    acc->den_non_log += den_non_log;
}

/* Horizontal pass and statistic of one vertically filtered row (tmu/tsq). */
static void stat_row(VifCpu *s, unsigned scale, unsigned w, double egl,
                     VgVifAccum *acc)
{
    const uint16_t *taps = vg_vif_taps[scale];
    const unsigned fw = vg_vif_taps_len[scale], half = fw / 2;

    for (unsigned p = 0; p < 2; p++) {
        pad_row(s->tmu[p], w, half);
        memset(s->hmu[p], 0, w * sizeof(*s->hmu[p]));
    }
    for (unsigned p = 0; p < 3; p++) {
        pad_row(s->tsq[p], w, half);
        memset(s->hsq[p], 0, w * sizeof(*s->hsq[p]));
    }
    for (unsigned k = 0; k < fw; k++) {
        int off = (int)k - (int)half;
        for (unsigned p = 0; p < 2; p++)
            hacc_mu(s->hmu[p], s->tmu[p] + off, taps[k], w);
        for (unsigned p = 0; p < 3; p++)
            hacc_sq(s->hsq[p], s->tsq[p] + off, taps[k], w);
    }
    row_sigmas(s->sig[0], s->sig[1], s->sig[2], s->hmu[0], s->hmu[1],
               s->hsq[0], s->hsq[1], s->hsq[2], w);
    row_accumulate(acc, s->sig[0], s->sig[1], s->sig[2], w, s->log2, egl);
}

/*
 * Statistic of one scale. src: samples (uint8 when bps = 1), row stride in
 * bytes. Rounding of the vertical pass (vif_statistic_16): scale 0 mu
 * (m + 2^(b-1)) >> b, squares (q + 2^(2(b-8)-1)) >> 2(b-8) (no rounding for
 * b = 8, which is vif_statistic_8); scales 1..3 both (v + 2^15) >> 16.
 */
static void vif_scale(VifCpu *s, unsigned scale, const void *ref,
                      ptrdiff_t ref_stride, const void *dis,
                      ptrdiff_t dis_stride, unsigned bps, unsigned bpc,
                      double egl, VgVifAccum *acc)
{
    const uint16_t *taps = vg_vif_taps[scale];
    const unsigned fw = vg_vif_taps_len[scale], half = fw / 2;
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned sh_mu = scale ? 16 : bpc;
    const unsigned sh_sq = scale ? 16 : 2 * (bpc - 8);
    const uint32_t rnd_mu = 1u << (sh_mu - 1);
    const uint64_t rnd_sq = sh_sq ? 1ull << (sh_sq - 1) : 0;

    memset(acc, 0, sizeof(*acc));
    for (unsigned i = 0; i < h; i++) {
        for (unsigned p = 0; p < 2; p++)
            memset(s->vmu[p], 0, w * sizeof(*s->vmu[p]));
        if (bps == 1) {
            for (unsigned p = 0; p < 3; p++)
                memset(s->tsq[p], 0, w * sizeof(*s->tsq[p]));
            for (unsigned k = 0; k < fw; k++) {
                ptrdiff_t r = mirror((int)(i + k) - (int)half, h);
                vacc_stat_u8(s->vmu[0], s->vmu[1], s->tsq[0], s->tsq[1],
                             s->tsq[2], (const uint8_t *)ref + r * ref_stride,
                             (const uint8_t *)dis + r * dis_stride, taps[k], w);
            }
        } else {
            for (unsigned p = 0; p < 3; p++)
                memset(s->vsq[p], 0, w * sizeof(*s->vsq[p]));
            for (unsigned k = 0; k < fw; k++) {
                ptrdiff_t r = mirror((int)(i + k) - (int)half, h);
                vacc_stat_u16(s->vmu[0], s->vmu[1], s->vsq[0], s->vsq[1],
                              s->vsq[2],
                              (const uint16_t *)((const uint8_t *)ref + r * ref_stride),
                              (const uint16_t *)((const uint8_t *)dis + r * dis_stride),
                              taps[k], w);
            }
            for (unsigned p = 0; p < 3; p++)
                round_u64(s->tsq[p], s->vsq[p], rnd_sq, sh_sq, w);
        }
        for (unsigned p = 0; p < 2; p++)
            round_u32(s->tmu[p], s->vmu[p], rnd_mu, sh_mu, w);
        stat_row(s, scale, w, egl, acc);
    }
}

/* ---- down-sampling ------------------------------------------------------- */

static void hdecimate(uint16_t *restrict dst, uint32_t *restrict acc,
                      const uint32_t *restrict t, const uint16_t *taps,
                      unsigned fw, unsigned w2)
{
    memset(acc, 0, w2 * sizeof(*acc));
    for (unsigned k = 0; k < fw; k++) {
        const uint32_t c = taps[k];
        const uint32_t *src = t + k;
        for (unsigned j = 0; j < w2; j++)
            acc[j] += c * src[2 * j];
    }
    for (unsigned j = 0; j < w2; j++)
        dst[j] = (uint16_t)((acc[j] + 32768) >> 16);
}

/*
 * Picture of scale `scale + 1` from scale `scale` (subsample_rd_8,
 * subsample_rd_16, decimate_and_pad): filter with the next scale's taps,
 * vertical rounding (v + 2^(b-1)) >> b from scale 0, (v + 2^15) >> 16
 * after; horizontal (v + 2^15) >> 16; keep even rows and columns. Only the
 * kept rows and columns are computed.
 */
static void vif_downsample(VifCpu *s, unsigned scale, const void *ref,
                           ptrdiff_t ref_stride, const void *dis,
                           ptrdiff_t dis_stride, unsigned bps, unsigned bpc)
{
    const uint16_t *taps = vg_vif_taps[scale + 1];
    const unsigned fw = vg_vif_taps_len[scale + 1], half = fw / 2;
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned w2 = s->w[scale + 1], h2 = s->h[scale + 1];
    const unsigned sh = scale ? 16 : bpc;
    const uint32_t rnd = 1u << (sh - 1);

    for (unsigned i2 = 0; i2 < h2; i2++) {
        const unsigned i = 2 * i2;

        for (unsigned p = 0; p < 2; p++)
            memset(s->vmu[p], 0, w * sizeof(*s->vmu[p]));
        for (unsigned k = 0; k < fw; k++) {
            ptrdiff_t r = mirror((int)(i + k) - (int)half, h);
            const uint8_t *a = (const uint8_t *)ref + r * ref_stride;
            const uint8_t *b = (const uint8_t *)dis + r * dis_stride;
            if (bps == 1)
                vacc_mu_u8(s->vmu[0], s->vmu[1], a, b, taps[k], w);
            else
                vacc_mu_u16(s->vmu[0], s->vmu[1], (const uint16_t *)a,
                            (const uint16_t *)b, taps[k], w);
        }
        for (unsigned p = 0; p < 2; p++) {
            round_u32(s->tmu[p], s->vmu[p], rnd, sh, w);
            pad_row(s->tmu[p], w, half);
            hdecimate(s->img[scale + 1][p] + (size_t)i2 * w2, s->hmu[p],
                      s->tmu[p] - half, taps, fw, w2);
        }
    }
}

/* ---- feature glue -------------------------------------------------------- */

static int vif_init(VgFeatureCtx *fc)
{
    VifCpu *s = fc->priv;
    const unsigned w = fc->width, h = fc->height;
    const size_t row = ((size_t)w + 2 * PAD + 15) & ~(size_t)15;
    size_t size = 0, off = 0, img_size = 0;
    uint8_t *p;

    if (w < VIF_MIN_SIZE || h < VIF_MIN_SIZE) {
        vg_log(fc->log, VG_LOG_ERROR, "vif: %ux%u is below the minimum "
               "%ux%u", w, h, VIF_MIN_SIZE, VIF_MIN_SIZE);
        return -EINVAL;
    }
    s->log2 = vg_vif_log2_table();
    for (unsigned sc = 0; sc < 4; sc++) {
        s->w[sc] = w >> sc;
        s->h[sc] = h >> sc;
        if (sc)
            img_size += 2 * (((size_t)s->w[sc] * s->h[sc] * 2 + 63) & ~(size_t)63);
    }
    /* 32-bit rows: vmu x2, tmu x2, tsq x3, hmu x2, sig x3;
     * 64-bit rows: vsq x3, hsq x3 */
    size = img_size + 12 * row * 4 + 6 * row * 8;
    if (!(s->mem = aligned_alloc(64, (size + 63) & ~(size_t)63)))
        return -ENOMEM;
    memset(s->mem, 0, size);
    p = s->mem;
    for (unsigned sc = 1; sc < 4; sc++) {
        for (unsigned q = 0; q < 2; q++) {
            s->img[sc][q] = (uint16_t *)(p + off);
            off += ((size_t)s->w[sc] * s->h[sc] * 2 + 63) & ~(size_t)63;
        }
    }
#define TAKE32(ptr, margin) \
    do { ptr = (uint32_t *)(p + off) + (margin); off += row * 4; } while (0)
#define TAKE64(ptr) \
    do { ptr = (uint64_t *)(p + off); off += row * 8; } while (0)
    for (unsigned q = 0; q < 2; q++) {
        TAKE32(s->vmu[q], 0);
        TAKE32(s->tmu[q], PAD);
        TAKE32(s->hmu[q], 0);
    }
    for (unsigned q = 0; q < 3; q++) {
        TAKE32(s->tsq[q], PAD);
        s->sig[q] = (int32_t *)(p + off);
        off += row * 4;
        TAKE64(s->vsq[q]);
        TAKE64(s->hsq[q]);
    }
#undef TAKE32
#undef TAKE64
    return 0;
}

static void vif_close(VgFeatureCtx *fc)
{
    VifCpu *s = fc->priv;

    free(s->mem);
    s->mem = NULL;
}

static int vif_extract(VgFeatureCtx *fc, const VgFrame *frame)
{
    VifCpu *s = fc->priv;
    const VgVifOptions *o = fc->opts;
    const unsigned bpc = fc->bpc, bps = bpc > 8 ? 2 : 1;
    const double egl = o->vif_enhn_gain_limit;
    const VgImage *ref = frame->ref, *dis = frame->dis;
    VgVifAccum acc[4] = { { 0 } };

    /* Scale 0 is still down-sampled when its statistic is skipped. */
    if (!o->vif_skip_scale0)
        vif_scale(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                  dis->stride[0], bps, bpc, egl, &acc[0]);
    vif_downsample(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                   dis->stride[0], bps, bpc);
    for (unsigned sc = 1; sc < 4; sc++) {
        const ptrdiff_t stride = (ptrdiff_t)s->w[sc] * 2;
        vif_scale(s, sc, s->img[sc][0], stride, s->img[sc][1], stride, 2, bpc,
                  egl, &acc[sc]);
        if (sc < 3)
            vif_downsample(s, sc, s->img[sc][0], stride, s->img[sc][1], stride,
                           2, bpc);
    }
    return vg_vif_emit(fc, frame->index, acc);
}

/* vif_statistic_8/16 final lines: double, stored as float. */
static void scale_result(const VgVifAccum *a, float *num, float *den)
{
    *num = a->num_log / 2048.0 +
           (a->den_non_log - (a->num_non_log / 16384.0) / 65025.0);
    *den = a->den_log / 2048.0 + a->den_non_log;
}

int vg_vif_emit(VgFeatureCtx *fc, unsigned index, const VgVifAccum acc[4])
{
    const VgVifOptions *o = fc->opts;
    const unsigned first = o->vif_skip_scale0;
    float num[4] = { 0 }, den[4] = { 0 };
    double sum_num = 0.0, sum_den = 0.0;
    int ret;

    for (unsigned sc = first; sc < 4; sc++)
        scale_result(&acc[sc], &num[sc], &den[sc]);

    /* write_scores(): score = num / den in float; skipped scale 0 is 0. */
    for (unsigned sc = 0; sc < 4; sc++) {
        float v = sc < first ? 0.0f : num[sc] / den[sc];
        if ((ret = vg_feature_emit(fc, VG_VIF_OUT_SCALE0 + sc, index, v)) < 0)
            return ret;
    }
    if (!o->debug)
        return 0;

    /* Sums in double, scale order; 1.0 when the denominator is 0. */
    for (unsigned sc = first; sc < 4; sc++) {
        sum_num += (double)num[sc];
        sum_den += (double)den[sc];
    }
    if ((ret = vg_feature_emit(fc, VG_VIF_OUT_VIF, index, sum_den == 0.0 ?
                               1.0 : sum_num / sum_den)) < 0 ||
        (ret = vg_feature_emit(fc, VG_VIF_OUT_NUM, index, sum_num)) < 0 ||
        (ret = vg_feature_emit(fc, VG_VIF_OUT_DEN, index, sum_den)) < 0)
        return ret;
    for (unsigned sc = 0; sc < 4; sc++) {
        /* skipped scale 0: num 0, den -1 */
        double n = sc < first ? 0.0 : num[sc];
        double d = sc < first ? -1.0 : den[sc];
        if ((ret = vg_feature_emit(fc, VG_VIF_OUT_NUM_SCALE0 + 2 * sc,
                                   index, n)) < 0 ||
            (ret = vg_feature_emit(fc, VG_VIF_OUT_NUM_SCALE0 + 2 * sc + 1,
                                   index, d)) < 0)
            return ret;
    }
    return 0;
}

static const VgFeatureOption vif_options[] = {
    { "debug", NULL, VG_OPT_BOOL, VG_OPT_OFFSET(VgVifOptions, debug),
      0, 0, 1, 0, "debug mode: enable additional output" },
    { "vif_enhn_gain_limit", "egl", VG_OPT_DOUBLE,
      VG_OPT_OFFSET(VgVifOptions, vif_enhn_gain_limit), 100.0, 1.0, 100.0, 1,
      "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means "
      "the gain is completely disabled" },
    { "vif_skip_scale0", "ssclz", VG_OPT_BOOL,
      VG_OPT_OFFSET(VgVifOptions, vif_skip_scale0), 0, 0, 1, 1,
      "when set, skip scale 0 calculations" },
    { NULL }
};

static const VgFeatureOutput vif_outputs[] = {
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0", 0 },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1", 0 },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2", 0 },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3", 0 },
    { "integer_vif", NULL, 1 },
    { "integer_vif_num", NULL, 1 },
    { "integer_vif_den", NULL, 1 },
    { "integer_vif_num_scale0", NULL, 1 },
    { "integer_vif_den_scale0", NULL, 1 },
    { "integer_vif_num_scale1", NULL, 1 },
    { "integer_vif_den_scale1", NULL, 1 },
    { "integer_vif_num_scale2", NULL, 1 },
    { "integer_vif_den_scale2", NULL, 1 },
    { "integer_vif_num_scale3", NULL, 1 },
    { "integer_vif_den_scale3", NULL, 1 },
    { NULL }
};

static const VgFeatureImpl vif_cpu = {
    .priv_size = sizeof(VifCpu),
    .init = vif_init,
    .extract = vif_extract,
    .close = vif_close,
};

const VgFeatureDesc vg_feature_vif = {
    .name = "vif",
    .options = vif_options,
    .opts_size = sizeof(VgVifOptions),
    .outputs = vif_outputs,
    /* 16x16: exact mirrors at scale 3 (see @file); smaller is refused. */
    .min_width = VIF_MIN_SIZE,
    .min_height = VIF_MIN_SIZE,
    .cpu = &vif_cpu,
};
