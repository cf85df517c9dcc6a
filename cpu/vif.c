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
 *    c*y and c*x*x, c*y*y, c*x*y, rounded and shifted to the
 *    8-bit-equivalent working unit (mu x 2^8, squares x 2^16);
 *  - horizontal pass over the mirrored row: sums M1, M2 and XX, YY, XY
 *    (libvmaf: uint32 and uint64; here XX, YY, XY as two uint32 halves);
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
 * tests/unit/test_vif.c), so they may be formed in any order and split
 * into parts; the kernels below are shaped for GCC's auto-vectoriser.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/features/vif.h"

/* An AVX2 build of the same C, chosen at init (x86-64, GCC or clang). */
#if defined(__x86_64__) && defined(__GNUC__)
#define VIF_HAVE_AVX2 1
#else
#define VIF_HAVE_AVX2 0
#endif

/* The per-frame passes ask GCC for -O3: autoconf's default CFLAGS (-g -O2)
 * come after AM_CFLAGS' -O3 on the compile line, and GCC's -O2 cost model
 * leaves most of these loops scalar (1080p: 3.2 against 5.0 frames per CPU
 * second, 11.1 with AVX2). */
#if defined(__GNUC__) && !defined(__clang__)
#define VIF_O3 __attribute__((optimize("O3")))
#else
#define VIF_O3
#endif

/* The feature's taps (common/features/vif_params.h), visible to this file
 * so that the unrolled filter loops fold them in. */
static const uint16_t vif_taps[4][17] = VG_VIF_TAPS_INIT;
static const unsigned vif_taps_len[4] = VG_VIF_TAPS_LEN_INIT;

/* Largest filter half-width (scale 0): margin of the row buffers. */
#define PAD 8

typedef struct VifCpu VifCpu;
typedef void (*VifFrameFn)(VifCpu *s, const VgImage *ref, const VgImage *dis,
                           unsigned bpc, int skip_scale0, double egl,
                           VgVifAccum acc[4]);

struct VifCpu {
    VifFrameFn frame;       ///< vif_frame_c or vif_frame_avx2
    const uint16_t *log2;
    unsigned w[4], h[4];
    size_t stride[4];       ///< row stride of img[s] in samples (whole blocks)
    uint16_t *img[4][2];    ///< scales 1..3, ref/dis
    /* One vertically filtered row, PAD samples of margin on each side:
     * mu of ref/dis, then the filtered squares xx, yy, xy (uint32) split
     * into high and low 16 bits. */
    uint16_t *mu[2];
    uint16_t *sq_hi[3], *sq_lo[3];
    /** horizontal sums of one row: M1, M2, then high and low halves of
     *  XX, YY, XY */
    uint32_t *hsum[8];
    int32_t *sig[3];        ///< sigma1^2, sigma2^2, sigma12 of one row
    uint16_t *even, *odd;   ///< de-interleaved row for the down-sampling
    void *mem;
};

#define VIF_INLINE static inline __attribute__((always_inline))


static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * (n - 1) - i;
    return i;
}

/*
 * The kernels below are written per filter length (constant `fw`, taps
 * folded in) with the tap loop fully unrolled, so that GCC vectorises the
 * column loop and keeps the sums in registers. Every product is 16 x 16
 * bits: squares (up to 65535^2) are split into high and low 16-bit halves,
 * whose filtered sums each stay below 65536 * 65535 < 2^32 because the taps
 * sum to 65536; the halves are recombined exactly after the pass.
 */

/* ---- vertical passes ---------------------------------------------------- */

/* 8-bit scale 0 (vif_statistic_8): x*x, y*y, x*y fit 16 bits and their sums
 * fit uint32 (<= 65536 * 255^2); mu = (m + 128) >> 8, squares unshifted. */
VIF_INLINE void vert_stat_u8(const unsigned fw, const uint16_t *taps,
                             uint16_t *restrict mu1, uint16_t *restrict mu2,
                             uint16_t *restrict xh, uint16_t *restrict xl,
                             uint16_t *restrict yh, uint16_t *restrict yl,
                             uint16_t *restrict zh, uint16_t *restrict zl,
                             const uint8_t *const *ra, const uint8_t *const *rb,
                             size_t j0, size_t n)
{
    const uint8_t *a[17], *b[17];

    for (unsigned k = 0; k < fw; k++) {
        a[k] = ra[k];
        b[k] = rb[k];
    }
    for (size_t q = 0; q < n; q++) {
        const size_t j = j0 + q;
        uint32_t s1 = 0, s2 = 0, sxx = 0, syy = 0, sxy = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            const uint32_t c = taps[k];
            const uint16_t x = a[k][j], y = b[k][j];
            s1 += c * x;
            s2 += c * y;
            sxx += c * (uint16_t)(x * x);
            syy += c * (uint16_t)(y * y);
            sxy += c * (uint16_t)(x * y);
        }
        mu1[j] = (s1 + 128) >> 8;
        mu2[j] = (s2 + 128) >> 8;
        xh[j] = sxx >> 16;
        xl[j] = sxx;
        yh[j] = syy >> 16;
        yl[j] = syy;
        zh[j] = sxy >> 16;
        zl[j] = sxy;
    }
}

/* 16-bit samples (vif_statistic_16): mu = (m + rnd_mu) >> sh_mu; each
 * square sum q = hi * 2^16 + lo becomes (q + rnd_sq) >> sh_sq, computed as
 * (hi << (16 - sh_sq)) + ((lo + rnd_sq) >> sh_sq) (sh_sq <= 16, exact). */
VIF_INLINE void vert_stat_u16(const unsigned fw, const uint16_t *taps,
                              uint16_t *restrict mu1, uint16_t *restrict mu2,
                              uint16_t *restrict xh, uint16_t *restrict xl,
                              uint16_t *restrict yh, uint16_t *restrict yl,
                              uint16_t *restrict zh, uint16_t *restrict zl,
                              const uint16_t *const *ra,
                              const uint16_t *const *rb, size_t j0, size_t n,
                              unsigned sh_mu, unsigned sh_sq)
{
    const uint32_t rnd_mu = 1u << (sh_mu - 1);
    const uint32_t rnd_sq = sh_sq ? 1u << (sh_sq - 1) : 0;
    const uint16_t *a[17], *b[17];

    for (unsigned k = 0; k < fw; k++) {
        a[k] = ra[k];
        b[k] = rb[k];
    }
    for (size_t q = 0; q < n; q++) {
        const size_t j = j0 + q;
        uint32_t s1 = 0, s2 = 0, xxh = 0, xxl = 0, yyh = 0, yyl = 0;
        uint32_t xyh = 0, xyl = 0, txx, tyy, txy;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            const uint32_t c = taps[k];
            const uint32_t x = a[k][j], y = b[k][j];
            const uint32_t xx = x * x, yy = y * y, xy = x * y;
            s1 += c * x;
            s2 += c * y;
            xxh += c * (xx >> 16);
            xxl += c * (xx & 0xffff);
            yyh += c * (yy >> 16);
            yyl += c * (yy & 0xffff);
            xyh += c * (xy >> 16);
            xyl += c * (xy & 0xffff);
        }
        txx = (xxh << (16 - sh_sq)) + ((xxl + rnd_sq) >> sh_sq);
        tyy = (yyh << (16 - sh_sq)) + ((yyl + rnd_sq) >> sh_sq);
        txy = (xyh << (16 - sh_sq)) + ((xyl + rnd_sq) >> sh_sq);
        mu1[j] = (s1 + rnd_mu) >> sh_mu;
        mu2[j] = (s2 + rnd_mu) >> sh_mu;
        xh[j] = txx >> 16;
        xl[j] = txx;
        yh[j] = tyy >> 16;
        yl[j] = tyy;
        zh[j] = txy >> 16;
        zl[j] = txy;
    }
}

/* Vertical pass of the down-sampling (subsample_rd_8/16): mu only. */
VIF_INLINE void vert_mu_u8(const unsigned fw, const uint16_t *taps,
                           uint16_t *restrict mu1, uint16_t *restrict mu2,
                           const uint8_t *const *ra, const uint8_t *const *rb,
                           size_t j0, size_t n, unsigned sh)
{
    const uint32_t rnd = 1u << (sh - 1);
    const uint8_t *a[17], *b[17];

    for (unsigned k = 0; k < fw; k++) {
        a[k] = ra[k];
        b[k] = rb[k];
    }
    for (size_t q = 0; q < n; q++) {
        const size_t j = j0 + q;
        uint32_t s1 = 0, s2 = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            s1 += (uint32_t)taps[k] * a[k][j];
            s2 += (uint32_t)taps[k] * b[k][j];
        }
        mu1[j] = (s1 + rnd) >> sh;
        mu2[j] = (s2 + rnd) >> sh;
    }
}

VIF_INLINE void vert_mu_u16(const unsigned fw, const uint16_t *taps,
                            uint16_t *restrict mu1, uint16_t *restrict mu2,
                            const uint16_t *const *ra,
                            const uint16_t *const *rb, size_t j0, size_t n,
                            unsigned sh)
{
    const uint32_t rnd = 1u << (sh - 1);
    const uint16_t *a[17], *b[17];

    for (unsigned k = 0; k < fw; k++) {
        a[k] = ra[k];
        b[k] = rb[k];
    }
    for (size_t q = 0; q < n; q++) {
        const size_t j = j0 + q;
        uint32_t s1 = 0, s2 = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            s1 += (uint32_t)taps[k] * a[k][j];
            s2 += (uint32_t)taps[k] * b[k][j];
        }
        mu1[j] = (s1 + rnd) >> sh;
        mu2[j] = (s2 + rnd) >> sh;
    }
}

/* integer_vif.h PADDING_SQ_DATA / PADDING_SQ_DATA_2: reflect-101. */
static void pad_row(uint16_t *t, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        t[-(int)f] = t[f];
        t[w - 1 + f] = t[w - 1 - f];
    }
}

/* ---- horizontal passes --------------------------------------------------- */

/*
 * Horizontal pass of the statistic over two rows (inputs point `half`
 * samples before column 0): oa = sum_k c_k a[j + k], ob likewise, uint32.
 * Used for (mu1, mu2) -> (M1, M2) and for the high and low halves of each
 * filtered square (vif_statistic_*: XX, YY, XY).
 */
VIF_INLINE void horiz_pair(const unsigned fw, const uint16_t *taps,
                           uint32_t *restrict oa, uint32_t *restrict ob,
                           const uint16_t *restrict a,
                           const uint16_t *restrict b, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t sa = 0, sb = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            sa += (uint32_t)taps[k] * a[j + k];
            sb += (uint32_t)taps[k] * b[j + k];
        }
        oa[j] = sa;
        ob[j] = sb;
    }
}

/* Even and odd samples of a padded row (from index -half), so that the
 * decimating filter below reads contiguous memory. */
static void split_even_odd(uint16_t *restrict ev, uint16_t *restrict od,
                           const uint16_t *restrict t, unsigned n)
{
    for (size_t j = 0; j < n; j++) {
        ev[j] = t[2 * j];
        od[j] = t[2 * j + 1];
    }
}

/* Horizontal pass of the down-sampling at even columns only:
 * sum_k c_k t[2j + k], rounded (v + 2^15) >> 16 (subsample_rd_8/16), then
 * decimate_and_pad; t[2j + k] is ev[j + k/2] or od[j + k/2]. */
VIF_INLINE void horiz_decimate(const unsigned fw, const uint16_t *taps,
                               uint16_t *restrict d,
                               const uint16_t *restrict ev,
                               const uint16_t *restrict od, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t s = 0;
#pragma GCC unroll 9
        for (unsigned k = 0; k < fw; k += 2)
            s += (uint32_t)taps[k] * ev[j + k / 2];
#pragma GCC unroll 8
        for (unsigned k = 1; k < fw; k += 2)
            s += (uint32_t)taps[k] * od[j + k / 2];
        d[j] = (s + 32768) >> 16;
    }
}

/* ---- one scale ----------------------------------------------------------- */

/*
 * Per pixel of one row (vif_statistic_8/16), from the horizontal sums M1,
 * M2 and the high/low halves of XX, YY, XY: each filtered square is
 * (hi * 2^16 + lo + 2^15) >> 16 = hi + ((lo + 2^15) >> 16) (uint32); mu
 * products in uint64 rounded >> 32 to uint32; differences in uint32
 * reinterpreted as int32; sigma2^2 clamped at 0.
 */
VIF_INLINE void row_sigmas(int32_t *restrict s1o, int32_t *restrict s2o,
                           int32_t *restrict s12o, uint32_t *const *hs,
                           size_t n)
{
    const uint32_t *restrict m1 = hs[0], *restrict m2 = hs[1];
    const uint32_t *restrict xh = hs[2], *restrict xl = hs[3];
    const uint32_t *restrict yh = hs[4], *restrict yl = hs[5];
    const uint32_t *restrict zh = hs[6], *restrict zl = hs[7];

    for (size_t j = 0; j < n; j++) {
        uint32_t mu1_sq = (uint32_t)(((uint64_t)m1[j] * m1[j] + 2147483648u) >> 32);
        uint32_t mu2_sq = (uint32_t)(((uint64_t)m2[j] * m2[j] + 2147483648u) >> 32);
        uint32_t mu12 = (uint32_t)(((uint64_t)m1[j] * m2[j] + 2147483648u) >> 32);
        uint32_t fxx = xh[j] + ((xl[j] + 32768) >> 16);
        uint32_t fyy = yh[j] + ((yl[j] + 32768) >> 16);
        uint32_t fxy = zh[j] + ((zl[j] + 32768) >> 16);
        int32_t v2 = (int32_t)(fyy - mu2_sq);

        s1o[j] = (int32_t)(fxx - mu1_sq);
        s2o[j] = v2 < 0 ? 0 : v2;
        s12o[j] = (int32_t)(fxy - mu12);
    }
}

/* The log-domain terms of vif_statistic_8/16, in its order of operations:
 * g in double, sv^2 truncated to int32, (g*g)*sigma1^2 truncated to int64. */
static void row_accumulate(VgVifAccum *acc, const int32_t *s1v,
                           const int32_t *s2v, const int32_t *s12v,
                           unsigned w, const uint16_t *tab, double egl)
{
    const int32_t nsq = VG_VIF_SIGMA_NSQ;
    const double eps = 65536 * 1.0e-10;
    int64_t num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;

    for (unsigned j = 0; j < w; j++) {
        const int32_t s1 = s1v[j], s2 = s2v[j], s12 = s12v[j];

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

/*
 * Column counts. Loops run over whole blocks of VIF_BLOCK columns, so that
 * GCC vectorises them even at -O2 (its "very cheap" cost model there only
 * takes loops that need no scalar remainder). Our own row buffers and
 * pictures have room for the extra columns, whose values are never used;
 * the caller's picture (scale 0) is read up to column w only, the last
 * partial block in a separate call.
 */
#define VIF_BLOCK 16

static inline size_t ceil_block(size_t w)
{
    return (w + VIF_BLOCK - 1) & ~(size_t)(VIF_BLOCK - 1);
}

/*
 * Statistic of one scale over samples `ref`/`dis` (uint8 when bps = 1, row
 * strides in bytes). Rounding of the vertical pass (vif_statistic_16):
 * scale 0 mu (m + 2^(b-1)) >> b, squares (q + 2^(2(b-8)-1)) >> 2(b-8);
 * for b = 8 (vif_statistic_8) mu (m + 128) >> 8 and squares unshifted;
 * scales 1..3 both (v + 2^15) >> 16.
 */
VIF_INLINE void vif_scale(VifCpu *s, unsigned scale, const void *ref,
                          ptrdiff_t ref_stride, const void *dis,
                          ptrdiff_t dis_stride, unsigned bps, unsigned bpc,
                          double egl, VgVifAccum *acc)
{
    const unsigned fw = vif_taps_len[scale], half = fw / 2;
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned sh_mu = scale ? 16 : bpc;
    const unsigned sh_sq = scale ? 16 : 2 * (bpc - 8);
    uint16_t *const *m = s->mu, *const *hi = s->sq_hi, *const *lo = s->sq_lo;
    uint32_t *const *g = s->hsum;
    /* column ranges of the vertical pass: [0, n0) and [n0, n0 + n1) */
    const size_t n0 = scale ? ceil_block(w) : w & ~(size_t)(VIF_BLOCK - 1);
    const size_t n1 = scale ? 0 : w - n0;
    const void *ra[17], *rb[17];

    memset(acc, 0, sizeof(*acc));
    for (unsigned i = 0; i < h; i++) {
        for (unsigned k = 0; k < fw; k++) {
            ptrdiff_t r = mirror((int)(i + k) - (int)half, h);
            ra[k] = (const uint8_t *)ref + r * ref_stride;
            rb[k] = (const uint8_t *)dis + r * dis_stride;
        }
#define VERT8(j0, n) vert_stat_u8(17, vif_taps[0], m[0], m[1], hi[0],      \
                                  lo[0], hi[1], lo[1], hi[2], lo[2],          \
                                  (const uint8_t *const *)ra,                 \
                                  (const uint8_t *const *)rb, j0, n)
#define VERT(sc, j0, n) vert_stat_u16(vif_taps_len[sc], vif_taps[sc],   \
                                      m[0], m[1], hi[0], lo[0], hi[1], lo[1], \
                                      hi[2], lo[2],                           \
                                      (const uint16_t *const *)ra,            \
                                      (const uint16_t *const *)rb, j0, n,     \
                                      sh_mu, sh_sq)
        if (bps == 1) {
            VERT8(0, n0);
            if (n1)
                VERT8(n0, n1);
        } else {
            switch (scale) {
            case 0:
                VERT(0, 0, n0);
                if (n1)
                    VERT(0, n0, n1);
                break;
            case 1: VERT(1, 0, n0); break;
            case 2: VERT(2, 0, n0); break;
            default: VERT(3, 0, n0); break;
            }
        }
#undef VERT8
#undef VERT
        for (unsigned p = 0; p < 3; p++) {
            pad_row(hi[p], w, half);
            pad_row(lo[p], w, half);
        }
        pad_row(m[0], w, half);
        pad_row(m[1], w, half);
#define HORIZ(sc, oa, ob, a, b)                                               \
        horiz_pair(vif_taps_len[sc], vif_taps[sc], oa, ob, (a) - half,  \
                   (b) - half, ceil_block(w))
        for (unsigned p = 0; p < 4; p++) {
            uint16_t *a = p ? hi[p - 1] : m[0], *b = p ? lo[p - 1] : m[1];
            switch (scale) {
            case 0: HORIZ(0, g[2 * p], g[2 * p + 1], a, b); break;
            case 1: HORIZ(1, g[2 * p], g[2 * p + 1], a, b); break;
            case 2: HORIZ(2, g[2 * p], g[2 * p + 1], a, b); break;
            default: HORIZ(3, g[2 * p], g[2 * p + 1], a, b); break;
            }
        }
#undef HORIZ
        row_sigmas(s->sig[0], s->sig[1], s->sig[2], g, ceil_block(w));
        row_accumulate(acc, s->sig[0], s->sig[1], s->sig[2], w, s->log2, egl);
    }
}

/*
 * Picture of scale `scale + 1` from scale `scale` (subsample_rd_8,
 * subsample_rd_16, decimate_and_pad): filter with the next scale's taps,
 * vertical rounding (v + 2^(b-1)) >> b from scale 0, (v + 2^15) >> 16
 * after; horizontal (v + 2^15) >> 16; keep even rows and columns. Only the
 * kept rows and columns are computed.
 */
VIF_INLINE void vif_downsample(VifCpu *s, unsigned scale,
                               const void *ref, ptrdiff_t ref_stride,
                               const void *dis, ptrdiff_t dis_stride,
                               unsigned bps, unsigned bpc)
{
    const unsigned fw = vif_taps_len[scale + 1], half = fw / 2;
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned w2 = s->w[scale + 1], h2 = s->h[scale + 1];
    const size_t stride2 = s->stride[scale + 1];
    const unsigned sh = scale ? 16 : bpc;
    const size_t n0 = scale ? ceil_block(w) : w & ~(size_t)(VIF_BLOCK - 1);
    const size_t n1 = scale ? 0 : w - n0;
    uint16_t *const *m = s->mu;
    const void *ra[17], *rb[17];

    for (unsigned i2 = 0; i2 < h2; i2++) {
        uint16_t *d1 = s->img[scale + 1][0] + i2 * stride2;
        uint16_t *d2 = s->img[scale + 1][1] + i2 * stride2;

        for (unsigned k = 0; k < fw; k++) {
            ptrdiff_t r = mirror((int)(2 * i2 + k) - (int)half, h);
            ra[k] = (const uint8_t *)ref + r * ref_stride;
            rb[k] = (const uint8_t *)dis + r * dis_stride;
        }
#define VMU8(j0, n) vert_mu_u8(9, vif_taps[1], m[0], m[1],                  \
                               (const uint8_t *const *)ra,                    \
                               (const uint8_t *const *)rb, j0, n, sh)
#define VMU(sc, j0, n) vert_mu_u16(vif_taps_len[sc], vif_taps[sc], m[0], \
                                   m[1], (const uint16_t *const *)ra,          \
                                   (const uint16_t *const *)rb, j0, n, sh)
        if (bps == 1) {
            VMU8(0, n0);
            if (n1)
                VMU8(n0, n1);
        } else if (scale == 0) {
            VMU(1, 0, n0);
            if (n1)
                VMU(1, n0, n1);
        } else if (scale == 1) {
            VMU(2, 0, n0);
        } else {
            VMU(3, 0, n0);
        }
#undef VMU8
#undef VMU
        for (unsigned p = 0; p < 2; p++) {
            uint16_t *d = p ? d2 : d1;
            const size_t n = ceil_block(w2);
            /* taps over [-half, 2 * (n - 1) + half]: n + half even/odd pairs */
            pad_row(m[p], w, half);
            split_even_odd(s->even, s->odd, m[p] - half, n + half);
            if (scale == 0)
                horiz_decimate(9, vif_taps[1], d, s->even, s->odd, n);
            else if (scale == 1)
                horiz_decimate(5, vif_taps[2], d, s->even, s->odd, n);
            else
                horiz_decimate(3, vif_taps[3], d, s->even, s->odd, n);
        }
    }
}

/* ---- feature glue -------------------------------------------------------- */

/* The four scales of one frame. */
VIF_INLINE void vif_frame(VifCpu *s, const VgImage *ref, const VgImage *dis,
                          unsigned bpc, int skip_scale0, double egl,
                          VgVifAccum acc[4])
{
    const unsigned bps = bpc > 8 ? 2 : 1;

    /* Scale 0 is still down-sampled when its statistic is skipped. */
    if (!skip_scale0)
        vif_scale(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                  dis->stride[0], bps, bpc, egl, &acc[0]);
    vif_downsample(s, 0, ref->data[0], ref->stride[0], dis->data[0],
                   dis->stride[0], bps, bpc);
    for (unsigned sc = 1; sc < 4; sc++) {
        const ptrdiff_t stride = (ptrdiff_t)s->stride[sc] * 2;
        vif_scale(s, sc, s->img[sc][0], stride, s->img[sc][1], stride, 2, bpc,
                  egl, &acc[sc]);
        if (sc < 3)
            vif_downsample(s, sc, s->img[sc][0], stride, s->img[sc][1], stride,
                           2, bpc);
    }
}

VIF_O3
static void vif_frame_c(VifCpu *s, const VgImage *ref, const VgImage *dis,
                        unsigned bpc, int skip_scale0, double egl,
                        VgVifAccum acc[4])
{
    vif_frame(s, ref, dis, bpc, skip_scale0, egl, acc);
}

#if VIF_HAVE_AVX2
/* The same C compiled for AVX2: vectors twice as wide, same results (the
 * kernels are integer arithmetic; the few double operations are IEEE
 * operations either way, never contracted: -ffp-contract=off, and this
 * target has no FMA). */
__attribute__((target("avx2"))) VIF_O3
static void vif_frame_avx2(VifCpu *s, const VgImage *ref, const VgImage *dis,
                           unsigned bpc, int skip_scale0, double egl,
                           VgVifAccum acc[4])
{
    vif_frame(s, ref, dis, bpc, skip_scale0, egl, acc);
}
#endif

static int vif_init(VgFeatureCtx *fc)
{
    VifCpu *s = fc->priv;
    const unsigned w = fc->width, h = fc->height;
    /* row buffers: PAD margin before, whole blocks plus the filter's and
     * the even/odd split's reach after; 64-byte multiples */
    const size_t row16 = ((PAD + ceil_block(w) + 64) * 2 + 63) & ~(size_t)63;
    const size_t row32 = (ceil_block(w) * 4 + 63) & ~(size_t)63;
    size_t size = 0, off = 0;
    uint8_t *p;

    if (w < VG_VIF_MIN_SIZE || h < VG_VIF_MIN_SIZE) {
        vg_log(fc->log, VG_LOG_ERROR, "vif: %ux%u is below the minimum "
               "%ux%u", w, h, VG_VIF_MIN_SIZE, VG_VIF_MIN_SIZE);
        return -EINVAL;
    }
    s->log2 = vg_vif_log2_table();
    s->frame = vif_frame_c;
#if VIF_HAVE_AVX2
    /* the one CPU-flags mask (common/cpu.h): tests run both */
    if (vg_cpu_flags() & VG_CPU_FLAG_AVX2)
        s->frame = vif_frame_avx2;
#endif
    for (unsigned sc = 0; sc < 4; sc++) {
        s->w[sc] = w >> sc;
        s->h[sc] = h >> sc;
        s->stride[sc] = ceil_block(s->w[sc]);
        if (sc)
            size += 2 * ((s->stride[sc] * s->h[sc] * 2 + 63) & ~(size_t)63);
    }
    size += 10 * row16 + 11 * row32;
    if (!(s->mem = aligned_alloc(64, size)))
        return -ENOMEM;
    memset(s->mem, 0, size);
    p = s->mem;
    for (unsigned sc = 1; sc < 4; sc++) {
        for (unsigned q = 0; q < 2; q++) {
            s->img[sc][q] = (uint16_t *)(p + off);
            off += (s->stride[sc] * s->h[sc] * 2 + 63) & ~(size_t)63;
        }
    }
    for (unsigned q = 0; q < 8; q++) {
        uint16_t *r = (uint16_t *)(p + off) + PAD;
        if (q < 2)
            s->mu[q] = r;
        else if (q < 5)
            s->sq_hi[q - 2] = r;
        else
            s->sq_lo[q - 5] = r;
        off += row16;
    }
    s->even = (uint16_t *)(p + off);
    off += row16;
    s->odd = (uint16_t *)(p + off);
    off += row16;
    for (unsigned q = 0; q < 8; q++) {
        s->hsum[q] = (uint32_t *)(p + off);
        off += row32;
    }
    for (unsigned q = 0; q < 3; q++) {
        s->sig[q] = (int32_t *)(p + off);
        off += row32;
    }
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
    VgVifAccum acc[4] = { { 0 } };

    s->frame(s, frame->ref, frame->dis, fc->bpc, o->vif_skip_scale0,
             o->vif_enhn_gain_limit, acc);
    return vg_vif_emit(fc, frame->index, acc);
}

const VgFeatureImpl vg_cpu_vif = {
    .priv_size = sizeof(VifCpu),
    .init = vif_init,
    .extract = vif_extract,
    .close = vif_close,
};

