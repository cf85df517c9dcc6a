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
 * the distorted pass are written before the pooling.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/features/cambi.h"

typedef struct CambiCpu CambiCpu;

struct CambiCpu {
    VgCambiParams p;
    uint16_t *img;      ///< alloc_w x alloc_h work picture (10-bit)
    uint8_t *mask;      ///< same size, 0/1
    float *cval;        ///< c-values of the current scale (w x h packed)
    uint16_t *hist;     ///< band_size rows of alloc_w counts
    uint16_t *lines;    ///< mode filter: 3 rows; mask: 7 rows of sums
    uint16_t *colsum;   ///< mask: column sums over 7 rows
    uint8_t *flat;      ///< mask: one row of zero-derivative flags
    uint32_t *bins;     ///< pooling: 3 x 4096 counts
    uint64_t *sums;     ///< pooling: 2 x 4096 sums
    VgCambiHeatmaps hm;
};

static int cambi_init(VgFeatureCtx *fc)
{
    CambiCpu *s = fc->priv;
    VgCambiParams *p = &s->p;
    size_t n;
    int ret;

    if ((ret = vg_cambi_setup(p, fc->opts, fc->width, fc->height, fc->bpc,
                              fc->log)) < 0)
        return ret;
    if ((ret = vg_cambi_heatmaps_open(&s->hm, p, ((const VgCambiOptions *)
                                      fc->opts)->heatmaps_path, fc->log)) < 0)
        return ret;
    if (p->all_zero)
        return 0;
    n = (size_t)p->alloc_w * p->alloc_h;
    if (!(s->img = malloc(n * sizeof(*s->img))) ||
        !(s->mask = malloc(n * sizeof(*s->mask))) ||
        !(s->cval = malloc(n * sizeof(*s->cval))) ||
        !(s->hist = malloc((size_t)p->alloc_w * (p->band_size + 1u) *
                           sizeof(*s->hist))) ||
        !(s->lines = malloc((size_t)7 * p->alloc_w * sizeof(*s->lines))) ||
        !(s->colsum = malloc((size_t)p->alloc_w * sizeof(*s->colsum))) ||
        !(s->flat = malloc((size_t)p->alloc_w + 1)) ||
        !(s->bins = malloc(3 * 4096 * sizeof(*s->bins))) ||
        !(s->sums = malloc(2 * 4096 * sizeof(*s->sums)))) {
        vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
        return -ENOMEM;
    }
    return 0;
}

static void cambi_close(VgFeatureCtx *fc)
{
    CambiCpu *s = fc->priv;

    free(s->img);
    free(s->mask);
    free(s->cval);
    free(s->hist);
    free(s->lines);
    free(s->colsum);
    free(s->flat);
    free(s->bins);
    free(s->sums);
    vg_cambi_heatmaps_close(&s->hm);
    memset(s, 0, sizeof(*s));
}

/* ---- 1. to 10 bits ------------------------------------------------------ */

static inline unsigned in_sample(const VgImage *in, unsigned y, unsigned x)
{
    const uint8_t *row = (const uint8_t *)in->data[0] +
                         (ptrdiff_t)y * in->stride[0];

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

/* anti_dithering_filter(), in place, row by row: the right and lower
 * neighbours it reads are not yet written */
static void anti_dither(uint16_t *d, ptrdiff_t s, unsigned w, unsigned h)
{
    for (unsigned i = 0; i + 1 < h; i++) {
        uint16_t *r = d + i * s, *b = r + s;

        for (unsigned j = 0; j + 1 < w; j++)
            r[j] = (uint16_t)((r[j] + r[j + 1] + b[j] + b[j + 1]) >> 2);
        r[w - 1] = (uint16_t)((r[w - 1] + b[w - 1]) >> 1);
    }
    for (unsigned j = 0; j + 1 < w; j++) {
        uint16_t *r = d + (h - 1) * s;

        r[j] = (uint16_t)((r[j] + r[j + 1]) >> 1);
    }
}

/* ---- 2. spatial mask ------------------------------------------------------ */

/*
 * get_spatial_mask(): mask = 1 where the 7x7 box (out-of-picture pixels
 * count 0) holds more than mask_index flat pixels. cambi.c sums with a
 * summed-area table; here a horizontal 7-sum per row (ring of 7 rows) and
 * running column sums: the same integer counts.
 */
static void spatial_mask(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned h,
                         unsigned index)
{
    const uint16_t *img = s->img;
    uint16_t *ring = s->lines, *col = s->colsum;
    uint8_t *z = s->flat;

    memset(col, 0, w * sizeof(*col));
    for (unsigned r = 0; r < h + 3; r++) {
        uint16_t *hs = ring + (r % 7) * w;

        /* row r - 7 (always a picture row: r < h + 3) leaves; it held
         * the ring slot of row r */
        if (r >= 7)
            for (unsigned j = 0; j < w; j++)
                col[j] -= hs[j];
        if (r < h) {
            const uint16_t *p = img + r * st;
            unsigned run = 0;

            for (unsigned j = 0; j < w; j++)
                z[j] = (j == w - 1 || p[j] == p[j + 1]) &&
                       (r == h - 1 || p[j] == p[j + st]);
            /* hs[j] = z[j - 3] + ... + z[j + 3] */
            for (unsigned j = 0; j < 3 && j < w; j++)
                run += z[j];
            for (unsigned j = 0; j < w; j++) {
                if (j + 3 < w)
                    run += z[j + 3];
                if (j >= 4)
                    run -= z[j - 4];
                hs[j] = (uint16_t)run;
                col[j] += hs[j];
            }
        }
        if (r >= 3) {
            uint8_t *m = s->mask + (r - 3) * st;

            for (unsigned j = 0; j < w; j++)
                m[j] = col[j] > index;
        }
    }
}

/* ---- 3. scales ------------------------------------------------------------ */

/* decimate(): keep every other sample, in place */
static void decimate16(uint16_t *d, ptrdiff_t s, unsigned w, unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++)
            d[i * s + j] = d[2 * i * s + 2 * j];
}

static void decimate8(uint8_t *d, ptrdiff_t s, unsigned w, unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        for (unsigned j = 0; j < w; j++)
            d[i * s + j] = d[2 * i * s + 2 * j];
}

/* mode3(): the value two of them share, else the smallest */
static inline uint16_t mode3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/*
 * filter_mode(): rows 1..h-2 become the vertical mode3 of the horizontally
 * filtered rows above, at and below (horizontal mode3 on columns
 * 1..w-2, edge columns kept); rows 0 and h-1 are left as they are. In
 * place, each row's horizontal result kept in a ring of three.
 */
static void filter_mode(uint16_t *d, ptrdiff_t s, unsigned w, unsigned h,
                        uint16_t *buf)
{
    for (unsigned i = 0; i < h; i++) {
        const uint16_t *r = d + i * s;
        uint16_t *b = buf + (i % 3) * w;

        b[0] = r[0];
        for (unsigned j = 1; j + 1 < w; j++)
            b[j] = mode3(r[j - 1], r[j], r[j + 1]);
        b[w - 1] = r[w - 1];
        if (i >= 2) {
            uint16_t *o = d + (i - 1) * s;

            for (unsigned j = 0; j < w; j++)
                o[j] = mode3(buf[j], buf[w + j], buf[2 * w + j]);
        }
    }
}

/* in the band: the rows of the histogram (uint16 wrap, as cambi.c) */
static inline int in_band(const VgCambiParams *p, unsigned v)
{
    return (uint16_t)(v - p->band_base) < p->band_size;
}

/* one histogram row's counts of columns [lo, hi), plus or minus one;
 * kept out of line so that the compiler vectorises them */
static __attribute__((noinline)) void range_inc(uint16_t *restrict h,
                                                 unsigned lo, unsigned hi)
{
    for (unsigned c = lo; c < hi; c++)
        h[c]++;
}

static __attribute__((noinline)) void range_dec(uint16_t *restrict h,
                                                 unsigned lo, unsigned hi)
{
    for (unsigned c = lo; c < hi; c++)
        h[c]--;
}

/* add (+1) or remove (-1) row r of the picture to the window histograms */
static void hist_row(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned pad,
                     unsigned r, int delta)
{
    const VgCambiParams *p = &s->p;
    const uint16_t *img = s->img + r * st;
    const uint8_t *m = s->mask + r * st;

    for (unsigned j = 0; j < w; j++) {
        uint16_t *h;
        unsigned lo, hi;

        if (!m[j] || !in_band(p, img[j]))
            continue;
        h = s->hist + (size_t)(uint16_t)(img[j] - p->band_base) * w;
        lo = j > pad ? j - pad : 0;
        hi = j + pad + 1 < w ? j + pad + 1 : w;
        if (delta > 0)
            range_inc(h, lo, hi);
        else
            range_dec(h, lo, hi);
    }
}

/* remove row `out`, add row `in`; equal values in the same column cancel */
static void hist_slide(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned pad,
                       unsigned out, unsigned in)
{
    const VgCambiParams *p = &s->p;
    const uint16_t *io = s->img + out * st, *ii = s->img + in * st;
    const uint8_t *mo = s->mask + out * st, *mi = s->mask + in * st;

    for (unsigned j = 0; j < w; j++) {
        const int so = mo[j] && in_band(p, io[j]);
        const int si = mi[j] && in_band(p, ii[j]);
        const unsigned lo = j > pad ? j - pad : 0;
        const unsigned hi = j + pad + 1 < w ? j + pad + 1 : w;

        if (so && si && io[j] == ii[j])
            continue;
        if (so)
            range_dec(s->hist + (size_t)(uint16_t)(io[j] - p->band_base) * w,
                      lo, hi);
        if (si)
            range_inc(s->hist + (size_t)(uint16_t)(ii[j] - p->band_base) * w,
                      lo, hi);
    }
}

/*
 * c_value_pixel(): for value v (10-bit) at a masked pixel, with p0 the
 * count of v in its window, the largest over the steps d = 1..num_diffs
 * still visible at v (v + num_diffs <= tvi_for_diff) and above vlt_luma of
 * weight_d * p0 * pm / (p0 + pm), pm the larger count of v + d and v - d
 * (v - d below the band counts 0): the int product made float, times
 * the float reciprocal.
 */
static void c_row(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned i)
{
    const VgCambiParams *p = &s->p;
    const uint16_t *img = s->img + i * st;
    const uint8_t *m = s->mask + i * st;
    const int nd = (int)p->num_diffs;
    float *out = s->cval + (size_t)i * w;

    for (unsigned j = 0; j < w; j++) {
        const int value = img[j] + nd;
        const int v = img[j] - p->band_base;
        const uint16_t *h = s->hist + j;
        unsigned p0;
        float c = 0.0f;

        if (!m[j] || (unsigned)v >= p->band_size)
            continue;
        p0 = h[(size_t)v * w];
        for (int d = 0; d < nd; d++) {
            unsigned p1, p2, pm;
            float val;

            if (value > p->tvi_for_diff[d] || value + d + 1 <= p->vlt_luma)
                continue;
            p1 = h[(size_t)(v + d + 1) * w];
            p2 = v - d - 1 >= 0 ? h[(size_t)(v - d - 1) * w] : 0;
            pm = p1 > p2 ? p1 : p2;
            val = (float)(p->diff_weights[d] * (int)p0 * (int)pm) *
                  p->rlut[pm + p0];
            if (val > c)
                c = val;
        }
        out[j] = c;
    }
}

/* calculate_c_values(): the window of row i is rows [i - pad, i + pad] of
 * the picture, columns [j - pad, j + pad], clipped to it */
static void c_values(CambiCpu *s, ptrdiff_t st, unsigned w, unsigned h,
                     unsigned pad)
{
    unsigned lo = 0, hi = 0;    /* rows [lo, hi) are in the histograms */

    memset(s->cval, 0, (size_t)w * h * sizeof(*s->cval));
    memset(s->hist, 0, (size_t)w * s->p.band_size * sizeof(*s->hist));
    for (unsigned i = 0; i < h; i++) {
        const unsigned want_lo = i > pad ? i - pad : 0;
        const unsigned want_hi = i + pad + 1 < h ? i + pad + 1 : h;

        for (; lo < want_lo && hi < want_hi; lo++, hi++)
            hist_slide(s, st, w, pad, lo, hi);
        for (; hi < want_hi; hi++)
            hist_row(s, st, w, pad, hi, 1);
        for (; lo < want_lo; lo++)
            hist_row(s, st, w, pad, lo, -1);
        c_row(s, st, w, i);
    }
}

/* ---- pooling -------------------------------------------------------------- */

/* c-values converted exactly to integers: times 2^26 (every float from
 * 1/8 up is a multiple of 2^-26), below 2^14 */
#define POOL_SHIFT 26
#define POOL_MIN 0x3e000000u    /* 0.125f */
#define POOL_MAX 0x46800000u    /* 16384.0f */

static inline uint64_t pool_fixed(uint32_t bits)
{
    float f;

    memcpy(&f, &bits, sizeof(f));
    return (uint64_t)((double)f * (double)(1u << POOL_SHIFT));
}

/*
 * The boundary bin of a descending walk over n bins: the first whose count
 * reaches `need`, which is left as what that bin must still give; the
 * sums of the bins above are added to *sum.
 */
static unsigned pool_bin(const uint32_t *cnt, const uint64_t *sums,
                         unsigned n, uint32_t *need, uint64_t *sum)
{
    unsigned b = n - 1;

    for (; b > 0 && cnt[b] < *need; b--) {
        *need -= cnt[b];
        *sum += sums[b];
    }
    return b;
}

/*
 * spatial_pooling() without the selection's order where the order cannot
 * matter. Every c-value is 0 or a float in [1/8, 2^14); those of the top k
 * are at least 2^e (e: the exponent of the smallest), so multiples of
 * 2^(e - 23), and so is every partial sum of them. While their total is
 * below 2^(30 + e), every partial sum is a double, cambi.c's double sum
 * is exact in whatever order quick_select() leaves them, and equals the
 * integer sum of the k largest values (a radix selection on the float
 * bits, which order non-negative floats; the bins of the first level
 * share the exponent). Returns 0 where that does not hold (the caller
 * then pools as cambi.c).
 */
static int pool_exact(CambiCpu *s, const float *c, unsigned n, uint32_t k,
                      double *out)
{
    uint32_t *cnt1 = s->bins, *cnt2 = s->bins + 4096, *cnt3 = s->bins + 8192;
    uint64_t *sum1 = s->sums, *sum2 = s->sums + 4096;
    uint64_t sum = 0, total = 0;
    uint32_t nz = 0, need = k, low = POOL_MAX;
    unsigned b1, b2;
    int exp;

    /* n < 2^24 values below 2^40 each: no uint64 overflow */
    if (n >= 1u << 24)
        return 0;
    memset(cnt1, 0, 4096 * sizeof(*cnt1));
    memset(sum1, 0, 4096 * sizeof(*sum1));
    for (unsigned i = 0; i < n; i++) {
        uint32_t bits;
        uint64_t v;

        memcpy(&bits, c + i, sizeof(bits));
        if (!bits)
            continue;
        if (bits < POOL_MIN || bits >= POOL_MAX)
            return 0;
        v = pool_fixed(bits);
        cnt1[bits >> 20]++;
        sum1[bits >> 20] += v;
        total += v;
        low = bits < low ? bits : low;
        nz++;
    }
    if (nz <= k) {
        /* all the non-zero values, and zeros */
        sum = total;
        b1 = low >> 20;
    } else {
        b1 = pool_bin(cnt1, sum1, 4096, &need, &sum);
        if (need == cnt1[b1]) {
            sum += sum1[b1];
        } else {
            memset(cnt2, 0, 1024 * sizeof(*cnt2));
            memset(sum2, 0, 1024 * sizeof(*sum2));
            for (unsigned i = 0; i < n; i++) {
                uint32_t bits;

                memcpy(&bits, c + i, sizeof(bits));
                if (bits >> 20 == b1) {
                    cnt2[bits >> 10 & 1023]++;
                    sum2[bits >> 10 & 1023] += pool_fixed(bits);
                }
            }
            b2 = pool_bin(cnt2, sum2, 1024, &need, &sum);
            b2 |= b1 << 10;
            memset(cnt3, 0, 1024 * sizeof(*cnt3));
            for (unsigned i = 0; i < n; i++) {
                uint32_t bits;

                memcpy(&bits, c + i, sizeof(bits));
                if (bits >> 10 == b2)
                    cnt3[bits & 1023]++;
            }
            for (unsigned b = 1023; need; b--) {
                const uint32_t t = cnt3[b] < need ? cnt3[b] : need;

                sum += t * pool_fixed(b2 << 10 | b);
                need -= t;
            }
        }
    }
    /* below 2^(30 + e) is below 2^(56 + e) in units of 2^-26 */
    exp = (int)(b1 >> 3) - 127;
    if (nz && exp < 8 && sum >= (uint64_t)1 << (56 + exp))
        return 0;
    *out = (double)sum / (double)(1u << POOL_SHIFT) / k;
    return 1;
}

/* spatial_pooling(): the mean of the top max(1, trunc(topk * n)) c-values */
static double pool(CambiCpu *s, double topk, unsigned w, unsigned h)
{
    const int n = (int)(w * h);
    const int t = (int)(topk * n);
    const int k = t < 1 ? 1 : t > n ? n : t;
    double score;

    if (pool_exact(s, s->cval, (unsigned)n, (uint32_t)k, &score))
        return score;
    return vg_cambi_pool(s->cval, topk, w, h);
}

/* preprocess_and_extract_cambi() for one pass; the distorted pass writes
 * the heatmaps of frame `index` when they are on */
static int pass_score(CambiCpu *s, const VgCambiPass *ps, const VgImage *in,
                      unsigned index, VgLog *log, double *out)
{
    const VgCambiParams *p = &s->p;
    const ptrdiff_t st = p->alloc_w;
    const unsigned pad = ps->window >> 1;
    unsigned w = ps->width, h = ps->height;
    const int heatmaps = s->hm.on && ps == &p->pass[0];
    double scores[VG_CAMBI_SCALES];
    int ret;

    to_10bit(s->img, st, in, w, h);
    if (p->enc_bitdepth < 10)
        anti_dither(s->img, st, w, h);
    spatial_mask(s, st, w, h, ps->mask_index);
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        if (sc > 0 || p->high_res) {
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
            decimate16(s->img, st, w, h);
            decimate8(s->mask, st, w, h);
        }
        filter_mode(s->img, st, w, h, s->lines);
        c_values(s, st, w, h, pad);
        if (heatmaps && (ret = vg_cambi_heatmaps_write(&s->hm, sc, index,
                                                        s->cval, w, h, log)) < 0)
            return ret;
        scores[sc] = pool(s, p->topk, w, h);
    }
    *out = vg_cambi_score(scores, ps->window);
    return 0;
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
    } else {
        if ((ret = pass_score(s, &p->pass[0], f->dis, f->index, fc->log,
                              &dist)) < 0 ||
            (p->full_ref && (ret = pass_score(s, &p->pass[1], f->ref,
                                              f->index, fc->log, &src)) < 0))
            return ret;
    }
    return vg_cambi_emit(fc, p, f->index, dist, src);
}

const VgFeatureImpl vg_cpu_cambi = {
    .priv_size = sizeof(CambiCpu),
    .init = cambi_init,
    .extract = cambi_extract,
    .close = cambi_close,
};
