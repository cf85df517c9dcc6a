/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The per-frame passes of integer VIF (cpu/vif.c), written once for both
 * sample types and compiled once per BITDEPTH:
 *  - 8 (cpu/vif_8.c): uint8 samples, scale 0 of 8-bit pictures (libvmaf
 *    v3.2.0 integer_vif.c vif_statistic_8, subsample_rd_8);
 *  - 16 (cpu/vif_16.c): uint16 samples, scale 0 of 9..16-bit pictures and
 *    scales 1..3 of every depth (vif_statistic_16, subsample_rd_16).
 * Only the sample type, the width of a sample's square and the scale-0
 * shifts depend on BITDEPTH. Each instance provides a C, an AVX2 and an
 * AVX-512 build of its two entry points (vg_vif_dsp_init_8bpc/16bpc()).
 *
 * The kernels are written per filter length (scale constant at every call,
 * so `fw` and the taps are folded in) with the tap loop fully unrolled, so
 * that GCC vectorises the column loop and keeps the sums in registers.
 * Every product is 16 x 16 bits: squares (up to 65535^2) are split into
 * high and low 16-bit halves, whose filtered sums each stay below
 * 65536 * 65535 < 2^32 because the taps sum to 65536; the halves are
 * recombined exactly after the pass.
 */

#include <string.h>

#include "common/cpu.h"
#include "cpu/vif.h"

#if VG_CPU_HAVE_AVX2
#include <immintrin.h>
#endif

#if BITDEPTH == 8
typedef uint8_t pixel;
/* a sample's square: 8-bit squares fit 16 bits (vif_statistic_8), so the
 * high halves below are 0 */
typedef uint16_t sqr;
#define bitfn(x) x##_8bpc
#elif BITDEPTH == 16
typedef uint16_t pixel;
typedef uint32_t sqr;
#define bitfn(x) x##_16bpc
#else
#error "cpu/vif_tmpl.c: BITDEPTH must be 8 or 16"
#endif

/* An AVX2 and an AVX-512 build of the same C, all at -O3 (common/cpu.h;
 * 1080p: 3.2 frames per CPU second at -O2, 5.0 at -O3, 11.1 with AVX2). */
#define VIF_HAVE_AVX2 VG_CPU_HAVE_AVX2
#define VIF_HAVE_AVX512 VG_CPU_HAVE_AVX512
/* which build an inlined body is part of (`simd` below) */
enum {
    VIF_C,
    VIF_AVX2,
    VIF_AVX512
};
#define VIF_O3 VG_CPU_O3
#define VIF_INLINE VG_CPU_INLINE

/* The feature's taps (common/features/vif_params.h), visible to this file
 * so that the unrolled filter loops fold them in. */
static const uint16_t taps[4][17] = VG_VIF_TAPS_INIT;
static const unsigned taps_len[4] = VG_VIF_TAPS_LEN_INIT;

static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * (n - 1) - i;
    return i;
}

/* ---- vertical passes ---------------------------------------------------- */

/*
 * The statistic's vertical pass (vif_statistic_8/16) over columns
 * [j0, j0 + n): mu = (m + rnd_mu) >> sh_mu; each filtered square
 * q = hi * 2^16 + lo becomes (q + rnd_sq) >> sh_sq, computed as
 * (hi << (16 - sh_sq)) + ((lo + rnd_sq) >> sh_sq) (sh_sq <= 16, exact).
 * For 8-bit samples hi is 0 and sh_sq is 0 (vif_statistic_8 keeps the
 * squares unshifted; their sums fit uint32, <= 65536 * 255^2). With rd (a
 * ladder's reader) the reference's own sums (mu1, xh, xl) are left out.
 */
VIF_INLINE void vert_stat(const int rd, const unsigned fw, const uint16_t *t,
                          uint16_t *restrict mu1, uint16_t *restrict mu2,
                          uint16_t *restrict xh, uint16_t *restrict xl,
                          uint16_t *restrict yh, uint16_t *restrict yl,
                          uint16_t *restrict zh, uint16_t *restrict zl,
                          const pixel *const *ra, const pixel *const *rb,
                          size_t j0, size_t n, unsigned sh_mu, unsigned sh_sq)
{
    const uint32_t rnd_mu = 1u << (sh_mu - 1);
    const uint32_t rnd_sq = sh_sq ? 1u << (sh_sq - 1) : 0;
    const pixel *a[17], *b[17];

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
            const uint32_t c = t[k];
            const sqr x = a[k][j], y = b[k][j];
            const sqr xx = x * x, yy = y * y, xy = x * y;
            if (!rd) {
                s1 += c * x;
                xxh += c * (xx >> 16);
                xxl += c * (xx & 0xffff);
            }
            s2 += c * y;
            yyh += c * (yy >> 16);
            yyl += c * (yy & 0xffff);
            xyh += c * (xy >> 16);
            xyl += c * (xy & 0xffff);
        }
        txx = (xxh << (16 - sh_sq)) + ((xxl + rnd_sq) >> sh_sq);
        tyy = (yyh << (16 - sh_sq)) + ((yyl + rnd_sq) >> sh_sq);
        txy = (xyh << (16 - sh_sq)) + ((xyl + rnd_sq) >> sh_sq);
        if (!rd) {
            mu1[j] = (s1 + rnd_mu) >> sh_mu;
            xh[j] = txx >> 16;
            xl[j] = txx;
        }
        mu2[j] = (s2 + rnd_mu) >> sh_mu;
        yh[j] = tyy >> 16;
        yl[j] = tyy;
        zh[j] = txy >> 16;
        zl[j] = txy;
    }
}

/* Vertical pass of the down-sampling (subsample_rd_8/16): mu only; with
 * rd the distorted picture's alone. */
VIF_INLINE void vert_mu(const int rd, const unsigned fw, const uint16_t *t,
                        uint16_t *restrict mu1, uint16_t *restrict mu2,
                        const pixel *const *ra, const pixel *const *rb,
                        size_t j0, size_t n, unsigned sh)
{
    const uint32_t rnd = 1u << (sh - 1);
    const pixel *a[17], *b[17];

    for (unsigned k = 0; k < fw; k++) {
        a[k] = ra[k];
        b[k] = rb[k];
    }
    for (size_t q = 0; q < n; q++) {
        const size_t j = j0 + q;
        uint32_t s1 = 0, s2 = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            if (!rd)
                s1 += (uint32_t)t[k] * a[k][j];
            s2 += (uint32_t)t[k] * b[k][j];
        }
        if (!rd)
            mu1[j] = (s1 + rnd) >> sh;
        mu2[j] = (s2 + rnd) >> sh;
    }
}

/* integer_vif.h PADDING_SQ_DATA / PADDING_SQ_DATA_2: reflect-101. */
static void pad_row(uint16_t *r, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        r[-(int)f] = r[f];
        r[w - 1 + f] = r[w - 1 - f];
    }
}

/* ---- horizontal passes --------------------------------------------------- */

/*
 * Horizontal pass of the statistic over two rows (inputs point `half`
 * samples before column 0): oa = sum_k c_k a[j + k], ob likewise, uint32.
 * Used for (mu1, mu2) -> (M1, M2) and for the high and low halves of each
 * filtered square (vif_statistic_*: XX, YY, XY).
 */
VIF_INLINE void horiz_pair(const unsigned fw, const uint16_t *t,
                           uint32_t *restrict oa, uint32_t *restrict ob,
                           const uint16_t *restrict a,
                           const uint16_t *restrict b, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t sa = 0, sb = 0;
#pragma GCC unroll 17
        for (unsigned k = 0; k < fw; k++) {
            sa += (uint32_t)t[k] * a[j + k];
            sb += (uint32_t)t[k] * b[j + k];
        }
        oa[j] = sa;
        ob[j] = sb;
    }
}

/* Even and odd samples of a padded row (from index -half), so that the
 * decimating filter below reads contiguous memory. */
static void split_even_odd(uint16_t *restrict ev, uint16_t *restrict od,
                           const uint16_t *restrict r, unsigned n)
{
    for (size_t j = 0; j < n; j++) {
        ev[j] = r[2 * j];
        od[j] = r[2 * j + 1];
    }
}

/* Horizontal pass of the down-sampling at even columns only:
 * sum_k c_k r[2j + k], rounded (v + 2^15) >> 16 (subsample_rd_8/16), then
 * decimate_and_pad; r[2j + k] is ev[j + k/2] or od[j + k/2]. */
VIF_INLINE void horiz_decimate(const unsigned fw, const uint16_t *t,
                               uint16_t *restrict d,
                               const uint16_t *restrict ev,
                               const uint16_t *restrict od, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        uint32_t s = 0;
#pragma GCC unroll 9
        for (unsigned k = 0; k < fw; k += 2)
            s += (uint32_t)t[k] * ev[j + k / 2];
#pragma GCC unroll 8
        for (unsigned k = 1; k < fw; k += 2)
            s += (uint32_t)t[k] * od[j + k / 2];
        d[j] = (s + 32768) >> 16;
    }
}

/* ---- AVX2 and AVX-512 multiply-adds --------------------------------------- */

#if VIF_HAVE_AVX2
/*
 * Two taps per instruction with vpmaddwd (16 x 16-bit products, adjacent
 * pairs added into 32 bits). vpmaddwd takes signed 16-bit operands, so a
 * sample v (0..65535) enters as v - 32768 (its top bit flipped) and the
 * taps must be below 32768 (scales 0..2: vif_avx2_taps()); the sum then
 * comes out as sum c_k v_k - 32768 * sum c_k, and adding 32768 * sum c_k
 * back modulo 2^32 gives sum c_k v_k, which is below 2^32: exactly the
 * C sums. Each pair's products add up to at most 2 * 32767 * 32768 in
 * magnitude, within int32; the running sums wrap modulo 2^32 as the C's
 * uint32 sums would. Samples below 32768 (8-bit ones) enter as they are.
 *
 * vpunpck{l,h}wd interleave two rows within each 128-bit lane, so the low
 * products are columns 0..3 and 8..11 of a 16-column step and the high ones
 * 4..7 and 12..15; vpackusdw puts them back in order, and the 32-bit
 * stores below reorder them with vperm2i128.
 */

/* the filter of `scale` fits vpmaddwd's signed taps */
static inline int vif_avx2_taps(unsigned scale)
{
    for (unsigned k = 0; k < taps_len[scale]; k++)
        if (taps[scale][k] >= 32768)
            return 0;
    return 1;
}

#define VW 256
#include "cpu/vif_simd.h"
#undef VW
#endif /* VIF_HAVE_AVX2 */

#if VIF_HAVE_AVX512
/*
 * The AVX2 kernels at twice the width: the same vpmaddwd pairs, the same
 * flipped samples and correction, so the same uint32 sums, over 32 columns
 * a step. vpunpck{l,h}wd still work within 128-bit lanes: the low products
 * are columns 0..3, 8..11, 16..19 and 24..27 of a step, the high ones the
 * four groups after each; vpackusdw restores the order of 16-bit results
 * and vpermt2q that of the 32-bit ones. A last block of 16 columns goes to
 * the AVX2 kernel.
 */

#define VW 512
#include "cpu/vif_simd.h"
#undef VW
#endif /* VIF_HAVE_AVX512 */

/* ---- one scale ----------------------------------------------------------- */

/*
 * Per pixel of one row (vif_statistic_8/16), from the horizontal sums M1
 * (m1: hs[0], or a ladder's stage), M2 and the high/low halves of XX, YY,
 * XY (hs[1..7]): each filtered square is (hi * 2^16 + lo + 2^15) >> 16 =
 * hi + ((lo + 2^15) >> 16) (uint32); mu products in uint64 rounded >> 32
 * to uint32; differences in uint32 reinterpreted as int32; sigma2^2
 * clamped at 0. With rd (a ladder's reader, whose sigma1^2 is the
 * stage's) sigma1^2 is not formed and XX is not read.
 */
VIF_INLINE void row_sigmas(const int rd, int32_t *restrict s1o,
                           int32_t *restrict s2o, int32_t *restrict s12o,
                           uint32_t *const *hs, const uint32_t *restrict m1,
                           size_t n)
{
    const uint32_t *restrict m2 = hs[1];
    const uint32_t *restrict xh = hs[2], *restrict xl = hs[3];
    const uint32_t *restrict yh = hs[4], *restrict yl = hs[5];
    const uint32_t *restrict zh = hs[6], *restrict zl = hs[7];

    for (size_t j = 0; j < n; j++) {
        uint32_t mu2_sq =
            (uint32_t)(((uint64_t)m2[j] * m2[j] + 2147483648u) >> 32);
        uint32_t mu12 =
            (uint32_t)(((uint64_t)m1[j] * m2[j] + 2147483648u) >> 32);
        uint32_t fyy = yh[j] + ((yl[j] + 32768) >> 16);
        uint32_t fxy = zh[j] + ((zl[j] + 32768) >> 16);
        int32_t v2 = (int32_t)(fyy - mu2_sq);

        if (!rd) {
            uint32_t mu1_sq =
                (uint32_t)(((uint64_t)m1[j] * m1[j] + 2147483648u) >> 32);
            uint32_t fxx = xh[j] + ((xl[j] + 32768) >> 16);

            s1o[j] = (int32_t)(fxx - mu1_sq);
        }
        s2o[j] = v2 < 0 ? 0 : v2;
        s12o[j] = (int32_t)(fxy - mu12);
    }
}

/* The log-domain terms of vif_statistic_8/16, in its order of operations:
 * g in double, sv^2 truncated to int32, (g*g)*sigma1^2 truncated to int64. */
static void row_accumulate(VgVifAccum *acc, const int32_t *s1v,
                           const int32_t *s2v, const int32_t *s12v, unsigned w,
                           const uint16_t *tab, double egl)
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

#if VIF_HAVE_AVX512
/*
 * vg_vif_log2_64() of eight int64 lanes n (2^17 <= n < 2^63) in two parts:
 * the table index n >> k and 2048 * k, with k = floor(log2 n) - 15 from
 * the exponent of n as a double with its low 11 bits cleared (53
 * significant bits at most, so the conversion is exact and keeps n's
 * leading bit). Lanes off m get index 0.
 */
VG_CPU_TARGET_AVX512
static inline __m256i vif_log2_512(__m512i n, __mmask8 m, __m256i *k2048)
{
    const __m512i d = _mm512_castpd_si512(
        _mm512_cvtepi64_pd(_mm512_andnot_si512(_mm512_set1_epi64(0x7ff), n)));
    const __m512i k = _mm512_sub_epi64(_mm512_srli_epi64(d, 52),
                                       _mm512_set1_epi64(1023 + 15));

    *k2048 = _mm256_slli_epi32(_mm512_cvtepi64_epi32(k), 11);
    return _mm512_maskz_cvtepi64_epi32(m, _mm512_srlv_epi64(n, k));
}

/* sum of the table's entries at eight indices (scalar loads: faster than
 * a gather here) */
static inline int64_t vif_tab_sum8(const uint16_t *tab, const uint32_t *i)
{
    return (int64_t)tab[i[0]] + tab[i[1]] + tab[i[2]] + tab[i[3]] + tab[i[4]] +
           tab[i[5]] + tab[i[6]] + tab[i[7]];
}

/*
 * row_accumulate() eight columns a step, the branches as masks: the same
 * IEEE double operations on each lane (division, products, differences,
 * both truncations: vcvttpd2dq and vcvttpd2qq give what cvttsd2si gives,
 * out-of-range values included; min(g, egl) is vminpd's g < egl ? g : egl)
 * and the same log terms, each the table's entry plus 2048 k: the k parts
 * summed in int64 lanes, the entries in scalar, lanes outside the branch
 * reading entry 0 and taken back out. Integer sums, so in any order the
 * C's. The log operands are within vif_log2_512()'s range: nsq + sigma1^2
 * and n1 are uint32 of at least nsq = 2^17, and n2 adds to n1
 * g^2 sigma1^2 <= 100^2 * 2^31 (egl <= 100).
 */
VG_CPU_TARGET_AVX512
static void row_accumulate_avx512(VgVifAccum *acc, const int32_t *s1v,
                                  const int32_t *s2v, const int32_t *s12v,
                                  unsigned w, const uint16_t *tab, double egl)
{
    const __m256i nsq = _mm256_set1_epi32(VG_VIF_SIGMA_NSQ);
    const __m256i zero = _mm256_setzero_si256();
    const __m512d eps = _mm512_set1_pd(65536 * 1.0e-10);
    const __m512d vegl = _mm512_set1_pd(egl);
    __m512i num_log = _mm512_setzero_si512(), den_log = num_log;
    __m512i num_non_log = num_log;
    int64_t num_tab = 0, den_tab = 0, den_off = 0, den_non_log = 0;
    uint32_t idx[3][8];

    for (unsigned j = 0; j < w; j += 8) {
        const __mmask8 valid = w - j >= 8 ? 0xff : (1u << (w - j)) - 1;
        const __m256i s1 = _mm256_loadu_si256((const __m256i *)(s1v + j));
        const __m256i s2 = _mm256_loadu_si256((const __m256i *)(s2v + j));
        const __m256i s12 = _mm256_loadu_si256((const __m256i *)(s12v + j));
        const __mmask8 mlog = _mm256_mask_cmpge_epi32_mask(valid, s1, nsq);
        const __mmask8 mnum = _mm256_mask_cmpgt_epi32_mask(
            _mm256_mask_cmpgt_epi32_mask(mlog, s12, zero), s2, zero);
        const __mmask8 mnon = valid & ~mlog;
        __m256i k;

        _mm256_storeu_si256(
            (__m256i *)idx[0],
            vif_log2_512(_mm512_cvtepu32_epi64(_mm256_add_epi32(nsq, s1)), mlog,
                         &k));
        den_log = _mm512_mask_add_epi64(den_log, mlog, den_log,
                                        _mm512_cvtepi32_epi64(_mm256_sub_epi32(
                                            k, _mm256_set1_epi32(2048 * 17))));
        den_tab += vif_tab_sum8(tab, idx[0]);
        den_off += 8 - __builtin_popcount(mlog);
        num_non_log = _mm512_mask_add_epi64(num_non_log, mnon, num_non_log,
                                            _mm512_cvtepi32_epi64(s2));
        den_non_log += __builtin_popcount(mnon);
        if (mnum) {
            const __m512d d1 = _mm512_cvtepi32_pd(s1);
            const __m512d d12 = _mm512_cvtepi32_pd(s12);
            __m512d g = _mm512_div_pd(d12, _mm512_add_pd(d1, eps));
            const __m256i sv = _mm256_max_epi32(
                _mm512_cvttpd_epi32(_mm512_sub_pd(_mm512_cvtepi32_pd(s2),
                                                  _mm512_mul_pd(g, d12))),
                zero);
            __m512i n1, n2;
            __m256i k1, k2;

            g = _mm512_min_pd(g, vegl);
            n1 = _mm512_cvtepu32_epi64(_mm256_add_epi32(sv, nsq));
            n2 = _mm512_add_epi64(
                _mm512_cvttpd_epi64(_mm512_mul_pd(_mm512_mul_pd(g, g), d1)),
                n1);
            _mm256_storeu_si256((__m256i *)idx[1], vif_log2_512(n2, mnum, &k2));
            _mm256_storeu_si256((__m256i *)idx[2], vif_log2_512(n1, mnum, &k1));
            num_log = _mm512_mask_add_epi64(
                num_log, mnum, num_log,
                _mm512_cvtepi32_epi64(_mm256_sub_epi32(k2, k1)));
            num_tab += vif_tab_sum8(tab, idx[1]) - vif_tab_sum8(tab, idx[2]);
        }
    }
    acc->num_log += _mm512_reduce_add_epi64(num_log) + num_tab;
    acc->den_log +=
        _mm512_reduce_add_epi64(den_log) + den_tab - den_off * tab[0];
    acc->num_non_log += _mm512_reduce_add_epi64(num_non_log);
    acc->den_non_log += den_non_log;
}
#endif

/* Bits of the samples that reach scale 0 of this instance. */
static inline unsigned sample_bits(unsigned bpc)
{
    return BITDEPTH == 8 ? 8 : bpc;
}

/* horiz_pair() in the build `simd` */
VIF_INLINE void horiz_pair_any(const int simd, const unsigned scale,
                               const unsigned fw, const uint16_t *t,
                               uint32_t *restrict oa, uint32_t *restrict ob,
                               const uint16_t *restrict a,
                               const uint16_t *restrict b, size_t n)
{
#if VIF_HAVE_AVX512
    if (simd == VIF_AVX512 && vif_avx2_taps(scale)) {
        horiz_pair_avx512(fw, t, oa, ob, a, b, n);
        return;
    }
#endif
#if VIF_HAVE_AVX2
    if (simd == VIF_AVX2 && vif_avx2_taps(scale)) {
        horiz_pair_avx2(fw, t, oa, ob, a, b, n);
        return;
    }
#endif
    (void)simd;
    (void)scale;
    horiz_pair(fw, t, oa, ob, a, b, n);
}

/*
 * Statistic of one scale over samples `ref`/`dis` (row strides in bytes).
 * Rounding of the vertical pass (vif_statistic_16): scale 0 mu
 * (m + 2^(b-1)) >> b, squares (q + 2^(2(b-8)-1)) >> 2(b-8); for b = 8
 * (vif_statistic_8) mu (m + 128) >> 8 and squares unshifted; scales 1..3
 * both (v + 2^15) >> 16. In a ladder (s->stage_role) the writer stores
 * each row's M1 and sigma1^2 in the stage; with rd (a reader) they come
 * from there and only the distorted picture's and the cross term's sums
 * are formed.
 */
VIF_INLINE void vif_scale(VifCpu *s, const int rd, const unsigned scale,
                          const int simd, const void *ref, ptrdiff_t ref_stride,
                          const void *dis, ptrdiff_t dis_stride, unsigned bpc,
                          double egl, VgVifAccum *acc)
{
    const unsigned fw = taps_len[scale], half = fw / 2;
    const uint16_t *const t = taps[scale];
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned sh_mu = scale ? 16 : sample_bits(bpc);
    const unsigned sh_sq = scale ? 16 : 2 * (sample_bits(bpc) - 8);
    const size_t nb = vif_ceil_block(w), st = s->stride[scale];
    const int wr = !rd && s->stage_role == VG_STAGE_WRITE;
    uint16_t *const *m = s->mu, *const *hi = s->sq_hi, *const *lo = s->sq_lo;
    uint32_t *const *g = s->hsum;
    /* column ranges of the vertical pass: [0, n0) and [n0, n0 + n1) */
    const size_t n0 = scale ? nb : w & ~(size_t)(VIF_BLOCK - 1);
    const size_t n1 = scale ? 0 : w - n0;
    const pixel *ra[17], *rb[17];

    memset(acc, 0, sizeof(*acc));
    for (unsigned i = 0; i < h; i++) {
        const int32_t *s1 = s->sig[0];

        for (unsigned k = 0; k < fw; k++) {
            ptrdiff_t r = mirror((int)(i + k) - (int)half, h);
            ra[k] = (const pixel *)((const uint8_t *)ref + r * ref_stride);
            rb[k] = (const pixel *)((const uint8_t *)dis + r * dis_stride);
        }
#if VIF_HAVE_AVX512 && BITDEPTH == 8
        if (simd == VIF_AVX512)
            (rd ? vert_stat8_rd_avx512 : vert_stat8_avx512)(
                t, m[0], m[1], hi[0], lo[0], hi[1], lo[1], hi[2], lo[2],
                (const uint8_t *const *)ra, (const uint8_t *const *)rb, n0);
        else
#endif
#if VIF_HAVE_AVX2 && BITDEPTH == 8
            if (simd == VIF_AVX2)
            (rd ? vert_stat8_rd_avx2 : vert_stat8_avx2)(
                t, m[0], m[1], hi[0], lo[0], hi[1], lo[1], hi[2], lo[2],
                (const uint8_t *const *)ra, (const uint8_t *const *)rb, n0);
        else
#endif
            vert_stat(rd, fw, t, m[0], m[1], hi[0], lo[0], hi[1], lo[1], hi[2],
                      lo[2], ra, rb, 0, n0, sh_mu, sh_sq);
        if (n1)
            vert_stat(rd, fw, t, m[0], m[1], hi[0], lo[0], hi[1], lo[1], hi[2],
                      lo[2], ra, rb, n0, n1, sh_mu, sh_sq);
        for (unsigned p = rd; p < 3; p++) {
            pad_row(hi[p], w, half);
            pad_row(lo[p], w, half);
        }
        if (!rd)
            pad_row(m[0], w, half);
        pad_row(m[1], w, half);
        if (rd) {
            /* M2, YY and XY's halves in pairs; the last pair's second
             * output (the unused M1 row) takes a copy of XY's low half */
            horiz_pair_any(simd, scale, fw, t, g[1], g[4], m[1] - half,
                           hi[1] - half, nb);
            horiz_pair_any(simd, scale, fw, t, g[5], g[6], lo[1] - half,
                           hi[2] - half, nb);
            horiz_pair_any(simd, scale, fw, t, g[7], g[0], lo[2] - half,
                           lo[2] - half, nb);
            s1 = s->st_s1[scale] + i * st;
            row_sigmas(1, s->sig[0], s->sig[1], s->sig[2], g,
                       s->st_m1[scale] + i * st, nb);
        } else {
            for (unsigned p = 0; p < 4; p++) {
                const uint16_t *a = p ? hi[p - 1] : m[0];
                const uint16_t *b = p ? lo[p - 1] : m[1];

                horiz_pair_any(simd, scale, fw, t, g[2 * p], g[2 * p + 1],
                               a - half, b - half, nb);
            }
            row_sigmas(0, s->sig[0], s->sig[1], s->sig[2], g, g[0], nb);
            if (wr) {
                memcpy(s->st_m1[scale] + i * st, g[0], nb * sizeof(uint32_t));
                memcpy(s->st_s1[scale] + i * st, s->sig[0],
                       nb * sizeof(int32_t));
            }
        }
#if VIF_HAVE_AVX512
        if (simd == VIF_AVX512)
            row_accumulate_avx512(acc, s1, s->sig[1], s->sig[2], w, s->log2,
                                  egl);
        else
#endif
            row_accumulate(acc, s1, s->sig[1], s->sig[2], w, s->log2, egl);
    }
}

/*
 * Picture of scale `scale + 1` from scale `scale` (subsample_rd_8,
 * subsample_rd_16, decimate_and_pad): filter with the next scale's taps,
 * vertical rounding (v + 2^(b-1)) >> b from scale 0, (v + 2^15) >> 16
 * after; horizontal (v + 2^15) >> 16; keep even rows and columns. Only the
 * kept rows and columns are computed. The reference's picture goes to
 * s->rimg[scale + 1] (a ladder's stage, or img[scale + 1][0]); with rd (a
 * ladder's reader, which reads it there) the distorted picture's alone is
 * made.
 */
VIF_INLINE void vif_downsample(VifCpu *s, const int rd, const unsigned scale,
                               const void *ref, ptrdiff_t ref_stride,
                               const void *dis, ptrdiff_t dis_stride,
                               unsigned bpc)
{
    const unsigned fw = taps_len[scale + 1], half = fw / 2;
    const uint16_t *const t = taps[scale + 1];
    const unsigned w = s->w[scale], h = s->h[scale];
    const unsigned w2 = s->w[scale + 1], h2 = s->h[scale + 1];
    const size_t stride2 = s->stride[scale + 1];
    const unsigned sh = scale ? 16 : sample_bits(bpc);
    const size_t n0 = scale ? vif_ceil_block(w) : w & ~(size_t)(VIF_BLOCK - 1);
    const size_t n1 = scale ? 0 : w - n0;
    uint16_t *const *m = s->mu;
    const pixel *ra[17], *rb[17];

    for (unsigned i2 = 0; i2 < h2; i2++) {
        uint16_t *d1 = s->rimg[scale + 1] + i2 * stride2;
        uint16_t *d2 = s->img[scale + 1][1] + i2 * stride2;

        for (unsigned k = 0; k < fw; k++) {
            ptrdiff_t r = mirror((int)(2 * i2 + k) - (int)half, h);
            ra[k] = (const pixel *)((const uint8_t *)ref + r * ref_stride);
            rb[k] = (const pixel *)((const uint8_t *)dis + r * dis_stride);
        }
        vert_mu(rd, fw, t, m[0], m[1], ra, rb, 0, n0, sh);
        if (n1)
            vert_mu(rd, fw, t, m[0], m[1], ra, rb, n0, n1, sh);
        for (unsigned p = rd; p < 2; p++) {
            uint16_t *d = p ? d2 : d1;
            const size_t n = vif_ceil_block(w2);
            /* taps over [-half, 2 * (n - 1) + half]: n + half even/odd pairs */
            pad_row(m[p], w, half);
            split_even_odd(s->even, s->odd, m[p] - half, n + half);
            horiz_decimate(fw, t, d, s->even, s->odd, n);
        }
    }
}

/* ---- entry points -------------------------------------------------------- */

/* One inlined copy of the passes per scale, each with its constant filter,
 * and per role (rd: a ladder's reader); 8-bit samples only ever come at
 * scale 0. */
VIF_INLINE void scale_role(VifCpu *s, const int rd, unsigned scale,
                           const int simd, const void *ref,
                           ptrdiff_t ref_stride, const void *dis,
                           ptrdiff_t dis_stride, unsigned bpc, double egl,
                           VgVifAccum *acc)
{
    if (BITDEPTH == 8 || scale == 0)
        vif_scale(s, rd, 0, simd, ref, ref_stride, dis, dis_stride, bpc, egl,
                  acc);
    else if (scale == 1)
        vif_scale(s, rd, 1, simd, ref, ref_stride, dis, dis_stride, bpc, egl,
                  acc);
    else if (scale == 2)
        vif_scale(s, rd, 2, simd, ref, ref_stride, dis, dis_stride, bpc, egl,
                  acc);
    else
        vif_scale(s, rd, 3, simd, ref, ref_stride, dis, dis_stride, bpc, egl,
                  acc);
}

VIF_INLINE void scale_any(VifCpu *s, unsigned scale, const int simd,
                          const void *ref, ptrdiff_t ref_stride,
                          const void *dis, ptrdiff_t dis_stride, unsigned bpc,
                          double egl, VgVifAccum *acc)
{
    if (s->stage_role == VG_STAGE_READ)
        scale_role(s, 1, scale, simd, ref, ref_stride, dis, dis_stride, bpc,
                   egl, acc);
    else
        scale_role(s, 0, scale, simd, ref, ref_stride, dis, dis_stride, bpc,
                   egl, acc);
}

VIF_INLINE void downsample_role(VifCpu *s, const int rd, unsigned scale,
                                const void *ref, ptrdiff_t ref_stride,
                                const void *dis, ptrdiff_t dis_stride,
                                unsigned bpc)
{
    if (BITDEPTH == 8 || scale == 0)
        vif_downsample(s, rd, 0, ref, ref_stride, dis, dis_stride, bpc);
    else if (scale == 1)
        vif_downsample(s, rd, 1, ref, ref_stride, dis, dis_stride, bpc);
    else
        vif_downsample(s, rd, 2, ref, ref_stride, dis, dis_stride, bpc);
}

VIF_INLINE void downsample_any(VifCpu *s, unsigned scale, const void *ref,
                               ptrdiff_t ref_stride, const void *dis,
                               ptrdiff_t dis_stride, unsigned bpc)
{
    if (s->stage_role == VG_STAGE_READ)
        downsample_role(s, 1, scale, ref, ref_stride, dis, dis_stride, bpc);
    else
        downsample_role(s, 0, scale, ref, ref_stride, dis, dis_stride, bpc);
}

VIF_O3
static void scale_c(VifCpu *s, unsigned scale, const void *ref,
                    ptrdiff_t ref_stride, const void *dis, ptrdiff_t dis_stride,
                    unsigned bpc, double egl, VgVifAccum *acc)
{
    scale_any(s, scale, VIF_C, ref, ref_stride, dis, dis_stride, bpc, egl, acc);
}

VIF_O3
static void downsample_c(VifCpu *s, unsigned scale, const void *ref,
                         ptrdiff_t ref_stride, const void *dis,
                         ptrdiff_t dis_stride, unsigned bpc)
{
    downsample_any(s, scale, ref, ref_stride, dis, dis_stride, bpc);
}

#if VIF_HAVE_AVX2
/* The same C compiled for AVX2: vectors twice as wide, same results (the
 * kernels are integer arithmetic; the few double operations are IEEE
 * operations either way, never contracted: -ffp-contract=off, and this
 * target has no FMA). */
VG_CPU_TARGET_AVX2 VIF_O3 static void scale_avx2(
    VifCpu *s, unsigned scale, const void *ref, ptrdiff_t ref_stride,
    const void *dis, ptrdiff_t dis_stride, unsigned bpc, double egl,
    VgVifAccum *acc)
{
    scale_any(s, scale, VIF_AVX2, ref, ref_stride, dis, dis_stride, bpc, egl,
              acc);
}

VG_CPU_TARGET_AVX2 VIF_O3 static void downsample_avx2(
    VifCpu *s, unsigned scale, const void *ref, ptrdiff_t ref_stride,
    const void *dis, ptrdiff_t dis_stride, unsigned bpc)
{
    downsample_any(s, scale, ref, ref_stride, dis, dis_stride, bpc);
}
#endif

#if VIF_HAVE_AVX512
/* And for AVX-512 (-O3 vectors of 512 bits and the kernels above). */
VG_CPU_TARGET_AVX512 VIF_O3 static void scale_avx512(
    VifCpu *s, unsigned scale, const void *ref, ptrdiff_t ref_stride,
    const void *dis, ptrdiff_t dis_stride, unsigned bpc, double egl,
    VgVifAccum *acc)
{
    scale_any(s, scale, VIF_AVX512, ref, ref_stride, dis, dis_stride, bpc, egl,
              acc);
}

VG_CPU_TARGET_AVX512 VIF_O3 static void downsample_avx512(
    VifCpu *s, unsigned scale, const void *ref, ptrdiff_t ref_stride,
    const void *dis, ptrdiff_t dis_stride, unsigned bpc)
{
    downsample_any(s, scale, ref, ref_stride, dis, dis_stride, bpc);
}
#endif

void bitfn(vg_vif_dsp_init)(VgVifDSP *d, unsigned flags)
{
    d->scale = scale_c;
    d->downsample = downsample_c;
#if VIF_HAVE_AVX2
    if (flags & VG_CPU_FLAG_AVX2) {
        d->scale = scale_avx2;
        d->downsample = downsample_avx2;
    }
#endif
#if VIF_HAVE_AVX512
    if (flags & VG_CPU_FLAG_AVX512) {
        d->scale = scale_avx512;
        d->downsample = downsample_avx512;
    }
#endif
}
