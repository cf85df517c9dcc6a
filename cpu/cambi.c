/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI on the CPU, bit-exact with libvmaf v3.2.0 src/feature/cambi.c's
 * C path (its AVX2 kernels do the same integer work and the same one
 * float multiply per c-value). Per pass (the distorted luma, and with
 * full_ref the reference):
 *  1. to 10 bits at the working size (cambi_preprocessing(): shifts, or
 *     nearest sampling with float coordinates when the size changes), and
 *     the anti-dithering 2x2 mean below 10 encoding bits;
 *  2. the spatial mask once at full size: pixels whose 7x7 neighbourhood
 *     has more than mask_index flat pixels (equal to right and lower
 *     neighbour, edges counting as equal);
 *  3. five scales, each halving the picture and the mask by decimation
 *     (the first too with the high-resolution speed-up): the 3x3 mode
 *     filter, the c-values from the histograms of the window around each
 *     masked pixel, and the mean of the top-k c-values;
 *  4. the scale scores weighted 16, 8, 4, 2, 1 over the window's pixels.
 * The integer steps are computed in whatever order is convenient (their
 * results are exact counts); the float and double steps in cambi.c's
 * order: the c-value's product and multiply, and the top-k mean, a double
 * sum in the order cambi.c's quick_select() leaves the c-values (the
 * home's vg_cambi_pool()), or an exact integer sum where that order
 * cannot matter (pool()). With heatmaps_path, each scale's c-values of
 * the distorted pass are written before the pooling. In a ladder with
 * full_ref, the reference pass's score is the reference stage: rendition
 * 0 computes it, the others read it.
 *
 * Steps 1 to 3 but the pooling are written once as always-inline C, with
 * the histograms updated by runs of equal keys (hist_slide()), and built
 * three times at -O3 (common/cpu.h): plain, for AVX2 and for AVX-512, the
 * latter two with intrinsics for the run updates and the c-values
 * (gathers). All three give the same bits: the work is integer but for
 * the c-value's one conversion and one multiply per step, done per lane
 * as in C, and the maximum over the steps, which does not depend on
 * their order.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/features/cambi.h"

#if VG_CPU_HAVE_AVX2
#include <immintrin.h>
#endif

/* the key of a pixel outside the mask or the histogram band */
#define KEY_NONE 0xffffu
/* keys past the last row: hist_slide() reads one past a row */
#define KEY_PAD 64
/* elements past the last histogram row: whole-vector updates that add 0
 * there, and the 32-bit gathers of the last element */
#define HIST_PAD 64

typedef struct CambiCpu CambiCpu;

typedef void CambiPrepFn(CambiCpu *s, const VgImage *in, unsigned w, unsigned h,
                         unsigned mask_index);
typedef void CambiScaleFn(CambiCpu *s, unsigned w, unsigned h, int decimate,
                          unsigned pad);

typedef struct VgCambiDSP {
    CambiPrepFn *prep;   ///< steps 1 and 2 (C, AVX2 or AVX-512 build)
    CambiScaleFn *scale; ///< step 3 but the pooling (same)
} VgCambiDSP;

struct CambiCpu {
    VgCambiParams p;
    VgCambiDSP dsp;
    uint16_t *img;        ///< alloc_w x alloc_h work picture (10-bit)
    uint8_t *mask;        ///< same size, 0/1
    uint16_t *key;        ///< same size: histogram row of a pixel, or KEY_NONE,
                          ///< + KEY_PAD
    float *cval;          ///< c-values of the current scale (w x h packed)
    uint16_t *hist;       ///< band_size rows of alloc_w counts, + HIST_PAD
    uint16_t *lines;      ///< mode filter: 3 rows; mask: 7 rows of sums
    uint16_t *colsum;     ///< mask: column sums over 7 rows
    uint16_t *flat;       ///< mask: one row of zero-derivative flags, 3 zeros
                          ///< either side; anti-dithering: one row
    uint16_t *none;       ///< a row of KEY_NONE, + KEY_PAD
    VgCambiPoolSeg *bins; ///< pooling's scratch
    uint64_t n_pooled, n_ordered; ///< scales pooled; of them in cambi.c's order
    VgCambiHeatmaps hm;
};

/* ---- 1. to 10 bits ------------------------------------------------------ */

static inline unsigned in_sample(const VgImage *in, unsigned y, unsigned x)
{
    const uint8_t *row =
        (const uint8_t *)in->data[0] + (ptrdiff_t)y * in->stride[0];

    return in->bpc > 8 ? ((const uint16_t *)row)[x] : row[x];
}

/*
 * decimate_generic_{uint8,9b,uint16}_and_convert_to_10b(): below 10 bits a
 * left shift, above a rounded right shift; a different output size takes
 * the nearest sample, the source coordinate stepping by in / out in float
 * from (in / out) / 2 - 0.5, rounded by truncating x + 0.5 (in double).
 */
static void to_10bit(uint16_t *out, ptrdiff_t os, const VgImage *in,
                     unsigned ow, unsigned oh)
{
    const unsigned bpc = in->bpc, iw = in->w[0], ih = in->h[0];
    const unsigned up = bpc < 10 ? 10 - bpc : 0;
    const unsigned down = bpc > 10 ? bpc - 10 : 0;
    const unsigned rnd = down ? 1u << (down - 1) : 0;

    if (iw == ow && ih == oh) {
        for (unsigned i = 0; i < oh; i++)
            for (unsigned j = 0; j < ow; j++)
                out[i * os + j] =
                    (uint16_t)(((in_sample(in, i, j) << up) + rnd) >> down);
    } else {
        const float rx = (float)iw / (float)ow, ry = (float)ih / (float)oh;
        const float sx = rx / 2 - 0.5, sy = ry / 2 - 0.5;
        float y = sy;

        for (unsigned i = 0; i < oh; i++) {
            unsigned iy = (unsigned)(int)(y + 0.5);
            float x = sx;

            if (iy >= ih)
                iy = ih - 1;
            for (unsigned j = 0; j < ow; j++) {
                unsigned ix = (unsigned)(int)(x + 0.5);

                /* only an upscale's float steps could run past the row
                 * (cambi.c then reads the stride padding): keep inside */
                if (ix >= iw)
                    ix = iw - 1;

                out[i * os + j] =
                    (uint16_t)(((in_sample(in, iy, ix) << up) + rnd) >> down);
                x += rx;
            }
            y += ry;
        }
    }
}

/* one row of anti_dithering_filter(): the 2x2 mean of rows a and b */
VG_CPU_INLINE void dither_row(uint16_t *restrict o, const uint16_t *restrict a,
                              const uint16_t *restrict b, unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++)
        o[j] = (uint16_t)((a[j] + a[j + 1] + b[j] + b[j + 1]) >> 2);
    o[w - 1] = (uint16_t)((a[w - 1] + b[w - 1]) >> 1);
}

/* anti_dithering_filter(), in place, row by row: a row's right and lower
 * neighbours are read before they are written (the row from a copy) */
VG_CPU_INLINE void anti_dither(uint16_t *d, ptrdiff_t s, unsigned w, unsigned h,
                               uint16_t *restrict tmp)
{
    uint16_t *r;

    for (unsigned i = 0; i + 1 < h; i++) {
        r = d + i * s;
        memcpy(tmp, r, w * sizeof(*r));
        dither_row(r, tmp, r + s, w);
    }
    r = d + (h - 1) * s;
    memcpy(tmp, r, w * sizeof(*r));
    for (unsigned j = 0; j + 1 < w; j++)
        r[j] = (uint16_t)((tmp[j] + tmp[j + 1]) >> 1);
}

/*
 * The same for an input of at most 8 bits at the working size, read from
 * the input: the mean of four samples shifted up by `up` is their sum
 * shifted up by `up`, then down by 2 (by 1 for two).
 */
VG_CPU_INLINE void dither_row8(uint16_t *restrict o, const uint8_t *restrict a,
                               const uint8_t *restrict b, unsigned w,
                               unsigned up)
{
    for (unsigned j = 0; j + 1 < w; j++)
        o[j] =
            (uint16_t)(((unsigned)(a[j] + a[j + 1] + b[j] + b[j + 1]) << up) >>
                       2);
    o[w - 1] = (uint16_t)(((unsigned)(a[w - 1] + b[w - 1]) << up) >> 1);
}

VG_CPU_INLINE void to_10bit_dither8(uint16_t *out, ptrdiff_t os,
                                    const VgImage *in, unsigned w, unsigned h)
{
    const uint8_t *src = in->data[0];
    const ptrdiff_t is = in->stride[0];
    const unsigned up = 10 - in->bpc;
    const uint8_t *a;
    uint16_t *o;

    for (unsigned i = 0; i + 1 < h; i++)
        dither_row8(out + i * os, src + i * is, src + (i + 1) * is, w, up);
    a = src + (h - 1) * is;
    o = out + (h - 1) * os;
    for (unsigned j = 0; j + 1 < w; j++)
        o[j] = (uint16_t)(((unsigned)(a[j] + a[j + 1]) << up) >> 1);
    o[w - 1] = (uint16_t)(a[w - 1] << up);
}

/* ---- 2. spatial mask ------------------------------------------------------ */

/* zero derivative: equal to the right and the lower neighbour (b = p on
 * the last row, whose lower neighbour counts as equal) */
VG_CPU_INLINE void flat_row(uint16_t *restrict z, const uint16_t *restrict p,
                            const uint16_t *restrict b, unsigned w)
{
    for (unsigned j = 0; j + 1 < w; j++)
        z[j] = (uint16_t)((p[j] == p[j + 1]) & (p[j] == b[j]));
    z[w - 1] = p[w - 1] == b[w - 1];
}

/* hs[j] = z[j - 3] + ... + z[j + 3] (z has 3 zeros either side); the
 * column sums take the new row and drop the one the ring slot held */
VG_CPU_INLINE void sum_row(uint16_t *restrict col, uint16_t *restrict hs,
                           const uint16_t *restrict z, size_t w)
{
    for (size_t j = 0; j < w; j++) {
        const uint16_t n = (uint16_t)(z[j] + z[j + 1] + z[j + 2] + z[j + 3] +
                                      z[j + 4] + z[j + 5] + z[j + 6]);

        col[j] = (uint16_t)(col[j] + n - hs[j]);
        hs[j] = n;
    }
}

/*
 * get_spatial_mask(): mask = 1 where the 7x7 box (out-of-picture pixels
 * count 0) holds more than mask_index flat pixels. cambi.c sums with a
 * summed-area table; here a horizontal 7-sum per row (ring of 7 rows) and
 * running column sums: the same integer counts.
 */
VG_CPU_INLINE void spatial_mask(CambiCpu *s, ptrdiff_t st, unsigned w,
                                unsigned h, unsigned index)
{
    const uint16_t *img = s->img;
    uint16_t *ring = s->lines, *col = s->colsum, *z = s->flat;

    memset(col, 0, w * sizeof(*col));
    memset(ring, 0, 7 * w * sizeof(*ring));
    memset(z, 0, (w + 6) * sizeof(*z));
    for (unsigned r = 0; r < h + 3; r++) {
        uint16_t *hs = ring + (r % 7) * w;

        /* row r - 7 leaves (the ring slot of row r holds its sums, or 0) */
        if (r < h) {
            const uint16_t *p = img + r * st;

            flat_row(z + 3, p, r + 1 < h ? p + st : p, w);
            sum_row(col, hs, z, w);
        } else {
            for (unsigned j = 0; j < w; j++)
                col[j] = (uint16_t)(col[j] - hs[j]);
        }
        if (r >= 3) {
            uint8_t *restrict m = s->mask + (r - 3) * st;

            for (unsigned j = 0; j < w; j++)
                m[j] = col[j] > index;
        }
    }
}

/* ---- 3. scales ------------------------------------------------------------ */

VG_CPU_INLINE void decimate_row16(uint16_t *restrict o,
                                  const uint16_t *restrict a, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        o[j] = a[2 * j];
}

VG_CPU_INLINE void decimate_row8(uint8_t *restrict o, const uint8_t *restrict a,
                                 unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        o[j] = a[2 * j];
}

/* decimate(): keep every other sample, in place (row 0 onto itself, the
 * others from rows below them) */
VG_CPU_INLINE void decimate(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned h)
{
    for (unsigned j = 0; j < w; j++) {
        s->img[j] = s->img[2 * j];
        s->mask[j] = s->mask[2 * j];
    }
    for (unsigned i = 1; i < h; i++) {
        decimate_row16(s->img + i * st, s->img + 2 * i * st, w);
        decimate_row8(s->mask + i * st, s->mask + 2 * i * st, w);
    }
}

/* mode3(): the value two of them share, else the smallest (which of the
 * three is which does not matter) */
VG_CPU_INLINE uint16_t mode3(uint16_t a, uint16_t b, uint16_t c)
{
    const uint16_t ab = a < b ? a : b;
    const uint16_t m = ab < c ? ab : c;
    const uint16_t r = b == c ? b : m;

    return ((a == b) | (a == c)) ? a : r;
}

VG_CPU_INLINE void mode_row_h(uint16_t *restrict o, const uint16_t *restrict r,
                              unsigned w)
{
    o[0] = r[0];
    for (unsigned j = 1; j + 1 < w; j++)
        o[j] = mode3(r[j - 1], r[j], r[j + 1]);
    o[w - 1] = r[w - 1];
}

VG_CPU_INLINE void mode_row_v(uint16_t *restrict o, const uint16_t *restrict a,
                              const uint16_t *restrict b,
                              const uint16_t *restrict c, unsigned w)
{
    for (unsigned j = 0; j < w; j++)
        o[j] = mode3(a[j], b[j], c[j]);
}

/*
 * filter_mode(): rows 1..h-2 become the vertical mode3 of the horizontally
 * filtered rows above, at and below (horizontal mode3 on columns
 * 1..w-2, edge columns kept); rows 0 and h-1 are left as they are. In
 * place, each row's horizontal result kept in a ring of three.
 */
VG_CPU_INLINE void filter_mode(uint16_t *d, ptrdiff_t s, unsigned w, unsigned h,
                               uint16_t *buf)
{
    for (unsigned i = 0; i < h; i++) {
        mode_row_h(buf + (i % 3) * w, d + i * s, w);
        if (i >= 2)
            mode_row_v(d + (i - 1) * s, buf, buf + w, buf + 2 * w, w);
    }
}

/* each pixel's histogram row: its value less band_base when it is masked
 * and in the band (uint16 wrap, as cambi.c), else KEY_NONE */
VG_CPU_INLINE void key_row(uint16_t *restrict k, const uint16_t *restrict v,
                           const uint8_t *restrict m, unsigned w, uint16_t base,
                           uint16_t size)
{
    for (unsigned j = 0; j < w; j++) {
        const uint16_t r = (uint16_t)(v[j] - base);

        k[j] = m[j] && r < size ? r : KEY_NONE;
    }
}

/*
 * Histogram updates. cambi.c adds (removes) one to the histogram row of a
 * pixel's value over columns [j - pad, j + pad] clipped to the picture,
 * pixel by pixel. Here a run of columns [a, b] of one key at once: column
 * c gains the number of the run's pixels within pad of it,
 * min(b, c + pad) - max(a, c - pad) + 1, over [a - pad, b + pad] clipped:
 * the same counts (uint16 arithmetic wraps like cambi.c's, and the order
 * of the additions does not matter).
 */
VG_CPU_INLINE void run_update_c(uint16_t *h, int a, int b, int pad, int w,
                                int add)
{
    const int c0 = a > pad ? a - pad : 0;
    const int c1 = b + pad < w ? b + pad : w - 1;

    for (int c = c0; c <= c1; c++) {
        const int hi = b < c + pad ? b : c + pad;
        const int lo = a > c - pad ? a : c - pad;
        const uint16_t n = (uint16_t)(hi - lo + 1);

        h[c] = (uint16_t)(add ? h[c] + n : h[c] - n);
    }
}

#if VG_CPU_HAVE_AVX2
/* whole vectors from c0: past the run's reach the count is <= 0 (made 0),
 * past the row it is masked to 0 (HIST_PAD covers the last row) */
VG_CPU_TARGET_AVX2
static inline void run_update_avx2(uint16_t *h, int a, int b, int pad, int w,
                                   int add)
{
    const int c0 = a > pad ? a - pad : 0;
    const int c1 = b + pad < w ? b + pad : w - 1;
    const __m256i iota =
        _mm256_setr_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i av = _mm256_set1_epi16((short)a);
    const __m256i bv = _mm256_set1_epi16((short)b);
    const __m256i pv = _mm256_set1_epi16((short)pad);
    const __m256i wv = _mm256_set1_epi16((short)w);
    const __m256i one = _mm256_set1_epi16(1);
    const __m256i zero = _mm256_setzero_si256();

    for (int c = c0; c <= c1; c += 16) {
        const __m256i cv = _mm256_add_epi16(_mm256_set1_epi16((short)c), iota);
        const __m256i hi = _mm256_min_epi16(bv, _mm256_add_epi16(cv, pv));
        const __m256i lo = _mm256_max_epi16(av, _mm256_sub_epi16(cv, pv));
        __m256i n = _mm256_max_epi16(
            _mm256_add_epi16(_mm256_sub_epi16(hi, lo), one), zero);
        __m256i v = _mm256_loadu_si256((const __m256i *)(h + c));

        n = _mm256_and_si256(n, _mm256_cmpgt_epi16(wv, cv));
        v = add ? _mm256_add_epi16(v, n) : _mm256_sub_epi16(v, n);
        _mm256_storeu_si256((__m256i *)(h + c), v);
    }
}

VG_CPU_TARGET_AVX512
static inline void run_update_avx512(uint16_t *h, int a, int b, int pad, int w,
                                     int add)
{
    const int c0 = a > pad ? a - pad : 0;
    const int c1 = b + pad < w ? b + pad : w - 1;
    const __m512i iota = _mm512_set_epi16(
        31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
        13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i av = _mm512_set1_epi16((short)a);
    const __m512i bv = _mm512_set1_epi16((short)b);
    const __m512i pv = _mm512_set1_epi16((short)pad);
    const __m512i one = _mm512_set1_epi16(1);
    const __m512i zero = _mm512_setzero_si512();

    for (int c = c0; c <= c1; c += 32) {
        const __m512i cv = _mm512_add_epi16(_mm512_set1_epi16((short)c), iota);
        const __m512i hi = _mm512_min_epi16(bv, _mm512_add_epi16(cv, pv));
        const __m512i lo = _mm512_max_epi16(av, _mm512_sub_epi16(cv, pv));
        const __m512i n = _mm512_max_epi16(
            _mm512_add_epi16(_mm512_sub_epi16(hi, lo), one), zero);
        const __mmask32 in = c1 - c >= 31 ? ~0u : (1u << (c1 - c + 1)) - 1;
        __m512i v = _mm512_maskz_loadu_epi16(in, h + c);

        v = add ? _mm512_add_epi16(v, n) : _mm512_sub_epi16(v, n);
        _mm512_mask_storeu_epi16(h + c, in, v);
    }
}
#endif

/* The vector versions hold columns in int16 lanes: every column they form,
 * up to w + pad + 31, must stay below 2^15. (The reciprocal table's limit
 * on the window keeps every width cambi accepts far below that; wider
 * rows would take the C.) */
#define RUN_VEC_MAX_W (32767 - 31)

VG_CPU_INLINE void run_update(uint16_t *h, int a, int b, int pad, int w,
                              int add, const int simd)
{
#if VG_CPU_HAVE_AVX2
    if (simd && w + pad <= RUN_VEC_MAX_W) {
        if (simd == 2)
            run_update_avx512(h, a, b, pad, w, add);
        else
            run_update_avx2(h, a, b, pad, w, add);
        return;
    }
#endif
    run_update_c(h, a, b, pad, w, add);
}

/* bit t: a[t] != b[t], for t < n <= 64 */
VG_CPU_INLINE uint64_t ne_mask_c(const uint16_t *a, const uint16_t *b,
                                 unsigned n)
{
    uint64_t m = 0;

    for (unsigned t = 0; t < n; t++)
        m |= (uint64_t)(a[t] != b[t]) << t;
    return m;
}

#if VG_CPU_HAVE_AVX2
VG_CPU_TARGET_AVX2
static inline uint64_t ne_mask_avx2(const uint16_t *a, const uint16_t *b)
{
    uint64_t m = 0;

    for (int h = 0; h < 2; h++) {
        const __m256i e0 = _mm256_cmpeq_epi16(
            _mm256_loadu_si256((const __m256i *)(a + 32 * h)),
            _mm256_loadu_si256((const __m256i *)(b + 32 * h)));
        const __m256i e1 = _mm256_cmpeq_epi16(
            _mm256_loadu_si256((const __m256i *)(a + 32 * h + 16)),
            _mm256_loadu_si256((const __m256i *)(b + 32 * h + 16)));
        /* packs works per 128-bit lane: put the 64-bit quarters back in
         * column order */
        const __m256i e =
            _mm256_permute4x64_epi64(_mm256_packs_epi16(e0, e1), 0xd8);

        m |= (uint64_t)(uint32_t)~_mm256_movemask_epi8(e) << (32 * h);
    }
    return m;
}

VG_CPU_TARGET_AVX512
static inline uint64_t ne_mask_avx512(const uint16_t *a, const uint16_t *b)
{
    return (uint64_t)_mm512_cmpneq_epi16_mask(_mm512_loadu_si512(a),
                                              _mm512_loadu_si512(b)) |
           (uint64_t)_mm512_cmpneq_epi16_mask(_mm512_loadu_si512(a + 32),
                                              _mm512_loadu_si512(b + 32))
               << 32;
}
#endif

VG_CPU_INLINE uint64_t ne_mask(const uint16_t *a, const uint16_t *b, unsigned n,
                               const int simd)
{
#if VG_CPU_HAVE_AVX2
    if (simd == 2 && n == 64)
        return ne_mask_avx512(a, b);
    if (simd == 1 && n == 64)
        return ne_mask_avx2(a, b);
#endif
    return ne_mask_c(a, b, n);
}

/* bits [t, e) of a word, 0 <= t <= e <= 64 */
static inline uint64_t bits_between(unsigned t, unsigned e)
{
    const uint64_t below_e = e >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << e) - 1;

    return t >= 64 ? 0 : below_e & (~(uint64_t)0 << t);
}

/* the runs of one key among columns j0 + [t, e) of k (a key changes at the
 * set bits of `change`): added or removed */
VG_CPU_INLINE void runs(CambiCpu *s, const uint16_t *k, unsigned j0,
                        uint64_t change, unsigned t, unsigned e, unsigned w,
                        unsigned pad, int add, const int simd)
{
    while (t < e) {
        const uint64_t next = change & bits_between(t + 1, e);
        const unsigned n = next ? (unsigned)__builtin_ctzll(next) : e;
        const uint16_t key = k[j0 + t];

        if (key != KEY_NONE)
            run_update(s->hist + (size_t)key * w, (int)(j0 + t),
                       (int)(j0 + n) - 1, (int)pad, (int)w, add, simd);
        t = n;
    }
}

/*
 * The window moves: the pixels of row keys ko leave, those of ki enter,
 * 64 columns at a time: the columns whose keys differ (equal keys cancel)
 * form stretches, split into runs where the leaving or the entering key
 * changes (a run is also split at the start of every 64 columns).
 */
VG_CPU_INLINE void hist_slide(CambiCpu *s, const uint16_t *ko,
                              const uint16_t *ki, unsigned w, unsigned pad,
                              const int simd)
{
    for (unsigned j0 = 0; j0 < w; j0 += 64) {
        const unsigned n = w - j0 < 64 ? w - j0 : 64;
        uint64_t d = ne_mask(ko + j0, ki + j0, n, simd);
        uint64_t co, ci;

        if (!d)
            continue;
        /* bit t: the key differs from column t - 1's (bit 0: a start;
         * of 64 columns the last compares with the padding, shifted out) */
        co = ne_mask(ko + j0 + 1, ko + j0, n < 64 ? n - 1 : 64, simd) << 1 | 1;
        ci = ne_mask(ki + j0 + 1, ki + j0, n < 64 ? n - 1 : 64, simd) << 1 | 1;
        while (d) {
            const unsigned t = (unsigned)__builtin_ctzll(d);
            const uint64_t rest = ~(d >> t);
            const unsigned e = rest ? t + (unsigned)__builtin_ctzll(rest) : 64;

            runs(s, ko, j0, co, t, e, w, pad, 0, simd);
            runs(s, ki, j0, ci, t, e, w, pad, 1, simd);
            d &= ~bits_between(t, e);
        }
    }
}

/*
 * c_value_pixel(): for value v (10-bit) at a masked pixel, with p0 the
 * count of v in its window, the largest over the steps d = 1..num_diffs
 * still visible at v (v + num_diffs <= tvi_for_diff) and above vlt_luma of
 * weight_d * p0 * pm / (p0 + pm), pm the larger count of v + d and v - d
 * (v - d below the band counts 0): the int product made float, times
 * the float reciprocal. The steps' maximum does not depend on their order.
 */
VG_CPU_INLINE float c_pixel(const VgCambiParams *p, const uint16_t *h,
                            unsigned k, unsigned w)
{
    const int nd = (int)p->num_diffs;
    const int value = (int)k + p->band_base + nd;
    const unsigned p0 = h[(size_t)k * w];
    float c = 0.0f;

    for (int d = 0; d < nd; d++) {
        unsigned p1, p2, pm;
        float val;

        if (value > p->tvi_for_diff[d] || value + d + 1 <= p->vlt_luma)
            continue;
        p1 = h[(size_t)(k + d + 1) * w];
        p2 = (int)k - d - 1 >= 0 ? h[(size_t)(k - d - 1) * w] : 0;
        pm = p1 > p2 ? p1 : p2;
        val =
            (float)(p->diff_weights[d] * (int)p0 * (int)pm) * p->rlut[pm + p0];
        if (val > c)
            c = val;
    }
    return c;
}

VG_CPU_INLINE void c_row_c(const VgCambiParams *p, const uint16_t *key,
                           const uint16_t *hist, float *out, unsigned j,
                           unsigned w)
{
    for (; j < w; j++)
        out[j] = key[j] == KEY_NONE ? 0.0f : c_pixel(p, hist + j, key[j], w);
}

#if VG_CPU_HAVE_AVX2
/* c_pixel() on 8 columns: 32-bit gathers of the 16-bit counts (masked
 * lanes read nothing), the same int product, conversion and multiply per
 * lane */
VG_CPU_TARGET_AVX2
static void c_row_avx2(const VgCambiParams *p, const uint16_t *key,
                       const uint16_t *hist, float *out, unsigned w)
{
    const int nd = (int)p->num_diffs;
    const __m256i none = _mm256_set1_epi32(KEY_NONE);
    const __m256i lo16 = _mm256_set1_epi32(0xffff);
    const __m256i wv = _mm256_set1_epi32((int)w);
    const __m256i off = _mm256_set1_epi32(p->band_base + nd);
    const __m256i vlt = _mm256_set1_epi32(p->vlt_luma);
    const __m256i iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    const __m256i zero = _mm256_setzero_si256();
    const int *h32 = (const int *)hist;
    unsigned j = 0;

    for (; j + 8 <= w; j += 8) {
        __m256i k =
            _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(key + j)));
        const __m256i out_band = _mm256_cmpeq_epi32(k, none);
        __m256i act, value, i0, p0;
        __m256 c = _mm256_setzero_ps();

        if (_mm256_movemask_epi8(out_band) == -1) {
            _mm256_storeu_ps(out + j, c);
            continue;
        }
        act = _mm256_xor_si256(out_band, _mm256_set1_epi32(-1));
        k = _mm256_and_si256(k, act);
        value = _mm256_add_epi32(k, off);
        i0 =
            _mm256_add_epi32(_mm256_mullo_epi32(k, wv),
                             _mm256_add_epi32(_mm256_set1_epi32((int)j), iota));
        p0 = _mm256_and_si256(
            _mm256_mask_i32gather_epi32(zero, h32, i0, act, 2), lo16);
        for (int d = 0; d < nd; d++) {
            const __m256i dd = _mm256_set1_epi32(d + 1);
            const __m256i step = _mm256_set1_epi32((d + 1) * (int)w);
            __m256i pred = _mm256_and_si256(
                act, _mm256_and_si256(
                         _mm256_cmpgt_epi32(
                             _mm256_set1_epi32(p->tvi_for_diff[d] + 1), value),
                         _mm256_cmpgt_epi32(_mm256_add_epi32(value, dd), vlt)));
            __m256i below, p1, p2, pm, num;
            __m256 rc;

            if (_mm256_testz_si256(pred, pred))
                continue;
            below = _mm256_and_si256(
                pred, _mm256_cmpgt_epi32(k, _mm256_set1_epi32(d)));
            p1 = _mm256_mask_i32gather_epi32(
                zero, h32, _mm256_add_epi32(i0, step), pred, 2);
            p2 = _mm256_mask_i32gather_epi32(
                zero, h32, _mm256_sub_epi32(i0, step), below, 2);
            pm = _mm256_max_epi32(_mm256_and_si256(p1, lo16),
                                  _mm256_and_si256(p2, lo16));
            num = _mm256_mullo_epi32(
                _mm256_mullo_epi32(_mm256_set1_epi32(p->diff_weights[d]), p0),
                pm);
            rc = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), p->rlut,
                                          _mm256_add_epi32(pm, p0),
                                          _mm256_castsi256_ps(pred), 4);
            c = _mm256_max_ps(
                c, _mm256_and_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(num), rc),
                                 _mm256_castsi256_ps(pred)));
        }
        _mm256_storeu_ps(out + j, c);
    }
    c_row_c(p, key, hist, out, j, w);
}

/* the same on 16 columns */
VG_CPU_TARGET_AVX512
static void c_row_avx512(const VgCambiParams *p, const uint16_t *key,
                         const uint16_t *hist, float *out, unsigned w)
{
    const int nd = (int)p->num_diffs;
    const __m512i none = _mm512_set1_epi32(KEY_NONE);
    const __m512i lo16 = _mm512_set1_epi32(0xffff);
    const __m512i wv = _mm512_set1_epi32((int)w);
    const __m512i off = _mm512_set1_epi32(p->band_base + nd);
    const __m512i vlt = _mm512_set1_epi32(p->vlt_luma);
    const __m512i iota =
        _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
    const __m512i zero = _mm512_setzero_si512();
    unsigned j = 0;

    for (; j + 16 <= w; j += 16) {
        const __m512i k = _mm512_cvtepu16_epi32(
            _mm256_loadu_si256((const __m256i *)(key + j)));
        const __mmask16 act = _mm512_cmpneq_epi32_mask(k, none);
        __m512i value, i0, p0;
        __m512 c = _mm512_setzero_ps();

        if (!act) {
            _mm512_storeu_ps(out + j, c);
            continue;
        }
        value = _mm512_add_epi32(k, off);
        i0 =
            _mm512_add_epi32(_mm512_mullo_epi32(k, wv),
                             _mm512_add_epi32(_mm512_set1_epi32((int)j), iota));
        p0 = _mm512_and_si512(
            _mm512_mask_i32gather_epi32(zero, act, i0, hist, 2), lo16);
        for (int d = 0; d < nd; d++) {
            const __m512i step = _mm512_set1_epi32((d + 1) * (int)w);
            const __mmask16 pred = _mm512_mask_cmpgt_epi32_mask(
                _mm512_mask_cmple_epi32_mask(
                    act, value, _mm512_set1_epi32(p->tvi_for_diff[d])),
                _mm512_add_epi32(value, _mm512_set1_epi32(d + 1)), vlt);
            __m512i p1, p2, pm, num;
            __m512 rc;

            if (!pred)
                continue;
            p1 = _mm512_mask_i32gather_epi32(
                zero, pred, _mm512_add_epi32(i0, step), hist, 2);
            p2 = _mm512_mask_i32gather_epi32(
                zero,
                _mm512_mask_cmpgt_epi32_mask(pred, k, _mm512_set1_epi32(d)),
                _mm512_sub_epi32(i0, step), hist, 2);
            pm = _mm512_max_epi32(_mm512_and_si512(p1, lo16),
                                  _mm512_and_si512(p2, lo16));
            num = _mm512_mullo_epi32(
                _mm512_mullo_epi32(_mm512_set1_epi32(p->diff_weights[d]), p0),
                pm);
            rc = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), pred,
                                          _mm512_add_epi32(pm, p0), p->rlut, 4);
            c = _mm512_max_ps(
                c, _mm512_maskz_mul_ps(pred, _mm512_cvtepi32_ps(num), rc));
        }
        _mm512_storeu_ps(out + j, c);
    }
    c_row_c(p, key, hist, out, j, w);
}
#endif

VG_CPU_INLINE void c_row(const VgCambiParams *p, const uint16_t *key,
                         const uint16_t *hist, float *out, unsigned w,
                         const int simd)
{
#if VG_CPU_HAVE_AVX2
    if (simd == 2) {
        c_row_avx512(p, key, hist, out, w);
        return;
    }
    if (simd == 1) {
        c_row_avx2(p, key, hist, out, w);
        return;
    }
#endif
    c_row_c(p, key, hist, out, 0, w);
}

/* calculate_c_values(): the window of row i is rows [i - pad, i + pad] of
 * the picture, columns [j - pad, j + pad], clipped to it */
VG_CPU_INLINE void c_values(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned h,
                            unsigned pad, const int simd)
{
    unsigned lo = 0, hi = 0; /* rows [lo, hi) are in the histograms */

    memset(s->hist, 0, (size_t)w * s->p.band_size * sizeof(*s->hist));
    for (unsigned i = 0; i < h; i++) {
        const unsigned want_lo = i > pad ? i - pad : 0;
        const unsigned want_hi = i + pad + 1 < h ? i + pad + 1 : h;

        for (; lo < want_lo && hi < want_hi; lo++, hi++)
            hist_slide(s, s->key + lo * st, s->key + hi * st, w, pad, simd);
        for (; hi < want_hi; hi++)
            hist_slide(s, s->none, s->key + hi * st, w, pad, simd);
        for (; lo < want_lo; lo++)
            hist_slide(s, s->key + lo * st, s->none, w, pad, simd);
        c_row(&s->p, s->key + i * st, s->hist, s->cval + (size_t)i * w, w,
              simd);
    }
}

VG_CPU_INLINE void prep_any(CambiCpu *s, const VgImage *in, unsigned w,
                            unsigned h, unsigned mask_index)
{
    const VgCambiParams *p = &s->p;
    const ptrdiff_t st = p->alloc_w;

    if (p->enc_bitdepth < 10 && in->bpc <= 8 && in->w[0] == w &&
        in->h[0] == h) {
        to_10bit_dither8(s->img, st, in, w, h);
    } else {
        to_10bit(s->img, st, in, w, h);
        if (p->enc_bitdepth < 10)
            anti_dither(s->img, st, w, h, s->flat);
    }
    spatial_mask(s, st, w, h, mask_index);
}

VG_CPU_INLINE void scale_any(CambiCpu *s, unsigned w, unsigned h, int decim,
                             unsigned pad, const int simd)
{
    const VgCambiParams *p = &s->p;
    const ptrdiff_t st = p->alloc_w;

    if (decim)
        decimate(s, st, w, h);
    filter_mode(s->img, st, w, h, s->lines);
    for (unsigned i = 0; i < h; i++)
        key_row(s->key + i * st, s->img + i * st, s->mask + i * st, w,
                p->band_base, p->band_size);
    c_values(s, st, w, h, pad, simd);
}

VG_CPU_O3
static void prep_c(CambiCpu *s, const VgImage *in, unsigned w, unsigned h,
                   unsigned mask_index)
{
    prep_any(s, in, w, h, mask_index);
}

VG_CPU_O3
static void scale_c(CambiCpu *s, unsigned w, unsigned h, int decim,
                    unsigned pad)
{
    scale_any(s, w, h, decim, pad, 0);
}

#if VG_CPU_HAVE_AVX2
VG_CPU_TARGET_AVX2 VG_CPU_O3 static void prep_avx2(CambiCpu *s,
                                                   const VgImage *in,
                                                   unsigned w, unsigned h,
                                                   unsigned mask_index)
{
    prep_any(s, in, w, h, mask_index);
}

VG_CPU_TARGET_AVX2 VG_CPU_O3 static void scale_avx2(CambiCpu *s, unsigned w,
                                                    unsigned h, int decim,
                                                    unsigned pad)
{
    scale_any(s, w, h, decim, pad, 1);
}

VG_CPU_TARGET_AVX512 VG_CPU_O3 static void prep_avx512(CambiCpu *s,
                                                       const VgImage *in,
                                                       unsigned w, unsigned h,
                                                       unsigned mask_index)
{
    prep_any(s, in, w, h, mask_index);
}

VG_CPU_TARGET_AVX512 VG_CPU_O3 static void scale_avx512(CambiCpu *s, unsigned w,
                                                        unsigned h, int decim,
                                                        unsigned pad)
{
    scale_any(s, w, h, decim, pad, 2);
}
#endif

/* ---- pooling -------------------------------------------------------------- */

/* spatial_pooling(): the home's exact shortcut, else cambi.c's order */
static double pool(CambiCpu *s, double topk, unsigned w, unsigned h)
{
    int exact;
    const double v = vg_cambi_pool_fast(s->cval, topk, w, h, s->bins, &exact);

    s->n_pooled++;
    s->n_ordered += !exact;
    return v;
}

/* ---- the feature ------------------------------------------------------------ */

static void vg_cambi_dsp_init(VgCambiDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->prep, prep, flags);
    VG_CPU_DSP_SET(dsp->scale, scale, flags);
}

static int cambi_init(VgFeatureCtx *fc)
{
    CambiCpu *s = fc->priv;
    VgCambiParams *p = &s->p;
    size_t n;
    int ret;

    if ((ret = vg_cambi_open(fc, p, &s->hm)) < 0 || p->all_zero)
        return ret;
    vg_cambi_dsp_init(&s->dsp, vg_cpu_flags());
    n = (size_t)p->alloc_w * p->alloc_h;
    if (!(s->img = malloc(n * sizeof(*s->img))) ||
        !(s->mask = malloc(n * sizeof(*s->mask))) ||
        !(s->key = calloc(n + KEY_PAD, sizeof(*s->key))) ||
        !(s->cval = malloc(n * sizeof(*s->cval))) ||
        !(s->hist = malloc(((size_t)p->alloc_w * p->band_size + HIST_PAD) *
                           sizeof(*s->hist))) ||
        !(s->lines = malloc((size_t)7 * p->alloc_w * sizeof(*s->lines))) ||
        !(s->colsum = malloc((size_t)p->alloc_w * sizeof(*s->colsum))) ||
        !(s->flat = malloc(((size_t)p->alloc_w + 6) * sizeof(*s->flat))) ||
        !(s->none =
              malloc(((size_t)p->alloc_w + KEY_PAD) * sizeof(*s->none))) ||
        !(s->bins = malloc(sizeof(*s->bins)))) {
        vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
        return -ENOMEM;
    }
    for (unsigned j = 0; j < p->alloc_w + KEY_PAD; j++)
        s->none[j] = KEY_NONE;
    return 0;
}

static void cambi_close(VgFeatureCtx *fc)
{
    CambiCpu *s = fc->priv;

    /* each worker's instance: a debug line */
    if (s->n_pooled)
        vg_log(fc->log, VG_LOG_DEBUG,
               "cambi: %" PRIu64 " of %" PRIu64 " scales "
               "pooled in cambi.c's order, the others by the exact integer "
               "sum",
               s->n_ordered, s->n_pooled);

    free(s->img);
    free(s->mask);
    free(s->key);
    free(s->cval);
    free(s->hist);
    free(s->lines);
    free(s->colsum);
    free(s->flat);
    free(s->none);
    free(s->bins);
    vg_cambi_heatmaps_close(&s->hm);
    memset(s, 0, sizeof(*s));
}

/* preprocess_and_extract_cambi() for one pass; the distorted pass writes
 * the heatmaps of frame `index` when they are on */
static int pass_score(CambiCpu *s, const VgCambiPass *ps, const VgImage *in,
                      unsigned index, VgLog *log, double *out)
{
    const VgCambiParams *p = &s->p;
    const unsigned pad = ps->window >> 1;
    unsigned w = ps->width, h = ps->height;
    const int heatmaps = s->hm.on && ps == &p->pass[0];
    double scores[VG_CAMBI_SCALES];
    int ret;

    s->dsp.prep(s, in, w, h, ps->mask_index);
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        const int decim = sc > 0 || p->high_res;

        if (decim) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        s->dsp.scale(s, w, h, decim, pad);
        if (heatmaps && (ret = vg_cambi_heatmaps_write(&s->hm, sc, index,
                                                       s->cval, w, h, log)) < 0)
            return ret;
        scores[sc] = pool(s, p->topk, w, h);
    }
    *out = vg_cambi_score(scores, ps->window);
    return 0;
}

/* a ladder's reference stage: with full_ref, the reference pass's score */
static size_t cambi_ref_stage_size(const VgFeatureCtx *fc)
{
    const CambiCpu *s = fc->priv;

    return s->p.full_ref && !s->p.all_zero ? sizeof(double) : 0;
}

static int cambi_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    CambiCpu *s = fc->priv;
    const VgCambiParams *p = &s->p;
    double dist = 0.0, src = 0.0;
    int ret;

    if (p->all_zero) {
        if (s->hm.on &&
            (ret = vg_cambi_heatmaps_zero(&s->hm, p, f->index, fc->log)) < 0)
            return ret;
        return vg_cambi_emit(fc, p, f->index, dist, src);
    }
    if ((ret = pass_score(s, &p->pass[0], f->dis, f->index, fc->log, &dist)) <
        0)
        return ret;
    if (f->stage && f->stage_role == VG_STAGE_READ)
        memcpy(&src, f->stage, sizeof(src));
    else if (p->full_ref && (ret = pass_score(s, &p->pass[1], f->ref, f->index,
                                              fc->log, &src)) < 0)
        return ret;
    if (f->stage && f->stage_role == VG_STAGE_WRITE)
        memcpy(f->stage, &src, sizeof(src));
    return vg_cambi_emit(fc, p, f->index, dist, src);
}

const VgFeatureImpl vg_cpu_cambi = {
    .priv_size = sizeof(CambiCpu),
    .init = cambi_init,
    .extract = cambi_extract,
    .close = cambi_close,
    .ref_stage_size = cambi_ref_stage_size,
};
