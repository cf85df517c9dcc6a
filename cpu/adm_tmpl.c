/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The per-scale passes of integer ADM (cpu/adm.c), written once for both
 * band types and compiled once per BAND:
 *  - 16 (cpu/adm_s0.c): scale 0, int16 bands (libvmaf v3.2.0
 *    integer_adm.c adm_dwt2_8, adm_dwt2_16, adm_decouple, adm_csf,
 *    adm_csf_den_scale, adm_cm);
 *  - 32 (cpu/adm_s123.c): scales 1..3, int32 bands
 *    (adm_dwt2_s123_combined, adm_decouple_s123, i4_adm_csf,
 *    adm_csf_den_s123, i4_adm_cm).
 * libvmaf's two families compute the same steps with other widths,
 * rounding constants and shifts: those are the BAND-dependent types and
 * constants below, next to the libvmaf function they come from. The one
 * step that is not the same shape, the decoupling quotient, has a
 * definition per band type.
 *
 * Each instance provides a C, an AVX2 and an AVX-512 build of its scale
 * pass (vg_adm_dsp_init_s0/s123()); the AVX-512 one decouples with
 * hand-written vectors (decouple_avx512()), the AVX2 one at scale 0
 * (decouple_avx2()), the rest is the same C. Only how the integer work is
 * vectorised differs between them: nothing is contracted (VG_CPU_O3 turns
 * contraction off even where the target has FMA), the float steps are the
 * same IEEE operations, so all give identical results.
 */

#include <stdlib.h>

#include "common/cpu.h"
#if VG_CPU_HAVE_AVX2
#include <immintrin.h>
#endif
#include "cpu/adm.h"

#if BAND == 16
/* scale 0 */
typedef int16_t band;
/* products of a band value with a tap or a factor, the DWT's horizontal
 * sums, the CSF and CM products: int32 (adm_dwt2_8/16, adm_csf, adm_cm) */
typedef int32_t wide;
/* the DWT's vertical sums: modulo 2^32 (see dwt_vert()) */
typedef uint32_t vsum;
#define bandfn(x) x##_s0
#elif BAND == 32
/* scales 1..3 */
typedef int32_t band;
typedef int64_t wide;
typedef int64_t vsum;
#define bandfn(x) x##_s123
#else
#error "cpu/adm_tmpl.c: BAND must be 16 or 32"
#endif

/* AVX2 and AVX-512 builds of the same C, all at -O3 (common/cpu.h; GCC's
 * -O2 vectorises none of these loops: 1080p about 1.7x slower). */
#define ADM_HAVE_AVX2 VG_CPU_HAVE_AVX2
#define ADM_O3 VG_CPU_O3
#define ADM_INLINE VG_CPU_INLINE

static inline AdmBands *bands(AdmPriv *p)
{
    return BAND == 16 ? &p->b16 : &p->b32;
}

/* ------------------------------------------------------------------------
 * DWT
 * ---------------------------------------------------------------------- */

/* What a DWT reads: the picture (uint8 or uint16) at scale 0, the previous
 * scale's low-pass band after (int16 at scale 1, int32 at 2 and 3). */
enum {
    IN_U8,
    IN_U16,
    IN_S16,
    IN_S32
};

ADM_INLINE int32_t load(const uint8_t *row, const int in, int j)
{
    switch (in) {
    case IN_U8:
        return row[j];
    case IN_U16:
        return ((const uint16_t *)row)[j];
    case IN_S16:
        return ((const int16_t *)row)[j];
    default:
        return ((const int32_t *)row)[j];
    }
}

/*
 * Vertical pass of one output row (source row stride in bytes):
 * lo = (sum(L * p) - dc + rnd) >> sh, hi = (sum(Hf * p) + rnd) >> sh.
 * Scale 0 (adm_dwt2_8/16): rnd = 2^(b-1), dc = 46342 * 2^(b-1), sh = b.
 * The true value always fits int32 (|lo|, |hi| <= 27411 * 2^16) but the
 * raw sum does not for b = 16 (libvmaf wraps); modulo-2^32 arithmetic
 * gives the exact value for every depth. Scales 1..3: int64, no dc.
 */
ADM_INLINE void dwt_vert(const void *src, ptrdiff_t stride, const int in,
                         const int *iy, int w, vsum dc, vsum rnd, int sh,
                         band *restrict lo, band *restrict hi)
{
    const vsum L0 = (vsum)vg_adm_dwt_lo[0], L1 = (vsum)vg_adm_dwt_lo[1],
               L2 = (vsum)vg_adm_dwt_lo[2], L3 = (vsum)vg_adm_dwt_lo[3];
    const vsum H0 = (vsum)vg_adm_dwt_hi[0], H1 = (vsum)vg_adm_dwt_hi[1],
               H2 = (vsum)vg_adm_dwt_hi[2], H3 = (vsum)vg_adm_dwt_hi[3];
    const uint8_t *p0 = (const uint8_t *)src + iy[0] * stride;
    const uint8_t *p1 = (const uint8_t *)src + iy[1] * stride;
    const uint8_t *p2 = (const uint8_t *)src + iy[2] * stride;
    const uint8_t *p3 = (const uint8_t *)src + iy[3] * stride;

    for (int j = 0; j < w; j++) {
        const vsum s0 = load(p0, in, j), s1 = load(p1, in, j);
        const vsum s2 = load(p2, in, j), s3 = load(p3, in, j);
        const vsum l = L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 - dc + rnd;
        const vsum h = H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + rnd;
        lo[j] = (band)((wide)l >> sh);
        hi[j] = (band)((wide)h >> sh);
    }
}

/* Horizontal pass at output column j from source columns c0..c3:
 * (sum + rnd) >> sh of the four taps (wide) into a = L.lo, v = H.lo,
 * h = L.hi, d = H.hi. (No restrict here: inlined into dwt_horz(), whose
 * restrict pointers must stay the ones the vectoriser sees.) */
ADM_INLINE void dwt_horz_one(const band *lo, const band *hi, int j, int c0,
                             int c1, int c2, int c3, wide rnd, int sh, band *a,
                             band *v, band *h, band *d)
{
    const wide L0 = vg_adm_dwt_lo[0], L1 = vg_adm_dwt_lo[1],
               L2 = vg_adm_dwt_lo[2], L3 = vg_adm_dwt_lo[3];
    const wide H0 = vg_adm_dwt_hi[0], H1 = vg_adm_dwt_hi[1],
               H2 = vg_adm_dwt_hi[2], H3 = vg_adm_dwt_hi[3];
    const wide l0 = lo[c0], l1 = lo[c1], l2 = lo[c2], l3 = lo[c3];
    const wide h0 = hi[c0], h1 = hi[c1], h2 = hi[c2], h3 = hi[c3];

    a[j] = (band)((L0 * l0 + L1 * l1 + L2 * l2 + L3 * l3 + rnd) >> sh);
    v[j] = (band)((H0 * l0 + H1 * l1 + H2 * l2 + H3 * l3 + rnd) >> sh);
    h[j] = (band)((L0 * h0 + L1 * h1 + L2 * h2 + L3 * h3 + rnd) >> sh);
    d[j] = (band)((H0 * h0 + H1 * h1 + H2 * h2 + H3 * h3 + rnd) >> sh);
}

/* The horizontal pass of one row: the edge columns through the reflected
 * indices, the others directly (vectorisable). */
ADM_INLINE void dwt_horz(const band *restrict lo, const band *restrict hi,
                         const int *ix, int bw, wide rnd, int sh,
                         band *restrict a, band *restrict v, band *restrict h,
                         band *restrict d)
{
    const int mid_end = bw - 2;

    dwt_horz_one(lo, hi, 0, ix[0], ix[1], ix[2], ix[3], rnd, sh, a, v, h, d);
    for (int j = 1; j < mid_end; j++)
        dwt_horz_one(lo, hi, j, 2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2, rnd, sh,
                     a, v, h, d);
    for (int j = mid_end > 1 ? mid_end : 1; j < bw; j++)
        dwt_horz_one(lo, hi, j, ix[4 * j], ix[4 * j + 1], ix[4 * j + 2],
                     ix[4 * j + 3], rnd, sh, a, v, h, d);
}

/* DWT of scale s from `src` (kind `in`, bits `bpc` at scale 0) into the
 * four bands `out` (a, h, v, d at BA..BD). */
ADM_INLINE void dwt(AdmPriv *p, int s, const void *src, ptrdiff_t stride,
                    const int in, unsigned bpc, void *const out[4])
{
#if BAND == 16
    /* adm_dwt2_8/16: vertical as dwt_vert(), horizontal (v + 2^15) >> 16 */
    const vsum vrnd = 1u << (bpc - 1);
    const vsum dc = (vsum)VG_ADM_DWT_LO_SUM * vrnd;
    const int vsh = bpc;
    const wide hrnd = 32768;
    const int hsh = 16;
#else
    /* adm_dwt2_s123_combined: vertical (o, s) = (0, 0) at scale 1,
     * (32768, 16) at 2 and 3; horizontal (16384, 15), (32768, 16),
     * (16384, 15) */
    static const int32_t vo[4] = { 0, 0, 32768, 32768 };
    static const int vs[4] = { 0, 0, 16, 16 };
    static const int32_t ho[4] = { 0, 16384, 32768, 16384 };
    static const int hs[4] = { 0, 15, 16, 15 };
    const vsum vrnd = vo[s], dc = 0;
    const int vsh = vs[s];
    const wide hrnd = ho[s];
    const int hsh = hs[s];
#endif
    const VgAdmScale *sc = &p->sc[s];
    const ptrdiff_t bs = bands(p)->stride;
    band *lo = p->tmp, *hi = lo + sc->in_w;

    for (int i = 0; i < sc->h; i++) {
        const ptrdiff_t o = i * bs;
        dwt_vert(src, stride, in, &p->iy[s][4 * i], sc->in_w, dc, vrnd, vsh, lo,
                 hi);
        dwt_horz(lo, hi, p->ix[s], sc->w, hrnd, hsh, (band *)out[BA] + o,
                 (band *)out[BV] + o, (band *)out[BH] + o, (band *)out[BD] + o);
    }
}

/* ------------------------------------------------------------------------
 * Decouple
 * ---------------------------------------------------------------------- */

/*
 * adm_decouple / adm_decouple_s123: angle test in float/double; the
 * division t / o through the 2^30 / i table; enhancement limit in double.
 */
static inline int angle_flag(float c, int64_t oh, int64_t ov, int64_t th,
                             int64_t tv)
{
    const int64_t ot = oh * th + ov * tv;
    const int64_t oo = oh * oh + ov * ov;
    const int64_t tt = th * th + tv * tv;
    return ((float)ot / 4096.0 >= 0.0f) &&
           ((float)ot / 4096.0) * ((float)ot / 4096.0) >=
               c * ((float)oo / 4096.0) * ((float)tt / 4096.0);
}

#if BAND == 16
/* adm_decouple: t * 2^15 / o, rounded, from the table at o itself. */
static inline int64_t dec_quotient(const int32_t *div, band o, band t)
{
    return ((int64_t)div[o + 32768] * t + 16384) >> 15;
}
#else
/* adm_decouple_s123: |o| first reduced to 15 significant bits
 * (get_best15_from32), the sign applied to the product. */
static inline int64_t dec_quotient(const int32_t *div, band o, band t)
{
    uint32_t m = o < 0 ? -(uint32_t)o : (uint32_t)o;
    int sh = 0;
    if (m >= 32768) {
        sh = 17 - __builtin_clz(m);
        m = (m + (1u << (sh - 1))) >> sh;
    }
    /* (1 << (14 + sh)) is an int: 2^31 wraps to -2^31 for sh = 17 */
    const int64_t rnd = (int32_t)(1u << (14 + sh));
    return (((int64_t)div[m + 32768] * t) * (o < 0 ? -1 : 1) + rnd) >>
           (15 + sh);
}
#endif

/* The restored value of one coefficient: k = clip(t / o, 0, 1) in Q15
 * (wide), rst = R_15(k * o), then the enhancement limit. */
static inline band dec_one(const int32_t *div, int flag, double egl, band o,
                           band t)
{
    wide k = 32768;
    if (o != 0) {
        const int64_t q = dec_quotient(div, o, t);
        k = (wide)(q < 0 ? 0 : q > 32768 ? 32768 : q);
    }
    band rst = (band)((k * o + 16384) >> 15);
    if (flag && k > 0 && o != 0) {
        const double e = rst * egl;
        if (o > 0)
            rst = (band)(e < t ? e : t);
        else
            rst = (band)(e > t ? e : t);
    }
    return rst;
}

/* One row of the decoupling: the reference's (o) and the distorted
 * picture's (t) detail bands, the restored (r) and additive (a) ones. */
typedef struct DecRow {
    const band *oh, *ov, *od, *th, *tv, *td;
    band *rh, *rv, *rd, *ah, *av, *ad;
} DecRow;

static inline DecRow dec_row(const AdmBands *bd, int i)
{
    const ptrdiff_t o = i * bd->stride;

    return (DecRow){
        .oh = (const band *)bd->ref[BH] + o,
        .ov = (const band *)bd->ref[BV] + o,
        .od = (const band *)bd->ref[BD] + o,
        .th = (const band *)bd->dis[BH] + o,
        .tv = (const band *)bd->dis[BV] + o,
        .td = (const band *)bd->dis[BD] + o,
        .rh = (band *)bd->r[BH] + o,
        .rv = (band *)bd->r[BV] + o,
        .rd = (band *)bd->r[BD] + o,
        .ah = (band *)bd->a[BH] + o,
        .av = (band *)bd->a[BV] + o,
        .ad = (band *)bd->a[BD] + o,
    };
}

/* Restored r and additive a = t - r (wrapping to the band type) of the
 * three detail bands at position j of a row. */
static inline void dec_position(const int32_t *div, float c, double egl,
                                const DecRow *r, int j)
{
    const int f = angle_flag(c, r->oh[j], r->ov[j], r->th[j], r->tv[j]);
    band x;

    x = dec_one(div, f, egl, r->oh[j], r->th[j]);
    r->rh[j] = x;
    r->ah[j] = (band)((uint32_t)r->th[j] - (uint32_t)x);
    x = dec_one(div, f, egl, r->ov[j], r->tv[j]);
    r->rv[j] = x;
    r->av[j] = (band)((uint32_t)r->tv[j] - (uint32_t)x);
    x = dec_one(div, f, egl, r->od[j], r->td[j]);
    r->rd[j] = x;
    r->ad[j] = (band)((uint32_t)r->td[j] - (uint32_t)x);
}

/* The decoupling over the decouple region. */
ADM_INLINE void decouple(AdmPriv *p, int s, double egl)
{
    const AdmBands *bd = bands(p);
    const VgAdmRegion *rg = &p->sc[s].dec;
    for (int i = rg->top; i < rg->bottom; i++) {
        const DecRow r = dec_row(bd, i);
        for (int j = rg->left; j < rg->right; j++)
            dec_position(p->div, p->cos1, egl, &r, j);
    }
}

#if ADM_HAVE_AVX2
/*
 * decouple() eight coefficients at a time in AVX-512: every value in a
 * 64-bit lane, so both band types take the same steps as the C, exactly.
 *  - The angle test: the int64 dot products rounded to float (vcvtqq2ps, as
 *    the C's conversion rounds), made double; dividing by 4096 is the
 *    exact multiplication by 2^-12; the products in the C's order.
 *  - The quotient: the table gathered, the products and shifts in int64.
 *    Scales 1..3 reduce |o| to 15 significant bits with the exponent of
 *    |o| as a double (exact below 2^53) for 31 - clz.
 *  - The enhancement limit in double; min/max are the C's `e < t ? e : t`
 *    and `e > t ? e : t` (no NaN can occur), truncated towards zero.
 * Stores truncate the int64 lanes to the band type, the C's wrapping casts.
 */
VG_CPU_TARGET_AVX512
static inline __m512i dec_load512(const band *x, __mmask8 m)
{
#if BAND == 16
    return _mm512_cvtepi16_epi64(_mm_maskz_loadu_epi16(m, x));
#else
    return _mm512_cvtepi32_epi64(_mm256_maskz_loadu_epi32(m, x));
#endif
}

VG_CPU_TARGET_AVX512
static inline void dec_store512(band *x, __mmask8 m, __m512i v)
{
#if BAND == 16
    _mm512_mask_cvtepi64_storeu_epi16(x, m, v);
#else
    _mm512_mask_cvtepi64_storeu_epi32(x, m, v);
#endif
}

/* int64 lanes truncated to the band type and sign-extended again */
VG_CPU_TARGET_AVX512
static inline __m512i dec_wrap512(__m512i v)
{
#if BAND == 16
    return _mm512_cvtepi16_epi64(_mm512_cvtepi64_epi16(v));
#else
    return _mm512_cvtepi32_epi64(_mm512_cvtepi64_epi32(v));
#endif
}

/* (double)(float)x / 4096.0 of int64 lanes */
VG_CPU_TARGET_AVX512
static inline __m512d dec_f4096(__m512i x)
{
    return _mm512_mul_pd(_mm512_cvtps_pd(_mm512_cvtepi64_ps(x)),
                         _mm512_set1_pd(1.0 / 4096.0));
}

/* angle_flag() of eight positions */
VG_CPU_TARGET_AVX512
static inline __mmask8 dec_angle512(double c, __m512i oh, __m512i ov,
                                    __m512i th, __m512i tv)
{
    const __m512d ot = dec_f4096(
        _mm512_add_epi64(_mm512_mul_epi32(oh, th), _mm512_mul_epi32(ov, tv)));
    const __m512d oo = dec_f4096(
        _mm512_add_epi64(_mm512_mul_epi32(oh, oh), _mm512_mul_epi32(ov, ov)));
    const __m512d tt = dec_f4096(
        _mm512_add_epi64(_mm512_mul_epi32(th, th), _mm512_mul_epi32(tv, tv)));
    const __m512d rhs = _mm512_mul_pd(_mm512_mul_pd(_mm512_set1_pd(c), oo), tt);
    return _mm512_cmp_pd_mask(ot, _mm512_setzero_pd(), _CMP_GE_OQ) &
           _mm512_cmp_pd_mask(_mm512_mul_pd(ot, ot), rhs, _CMP_GE_OQ);
}

/* dec_quotient() of eight positions */
VG_CPU_TARGET_AVX512
static inline __m512i dec_quotient512(const int32_t *div, __m512i o, __m512i t)
{
#if BAND == 16
    const __m512i d = _mm512_cvtepi32_epi64(_mm512_i64gather_epi32(
        _mm512_add_epi64(o, _mm512_set1_epi64(32768)), div, 4));
    return _mm512_srai_epi64(
        _mm512_add_epi64(_mm512_mul_epi32(d, t), _mm512_set1_epi64(16384)), 15);
#else
    const __m512i one = _mm512_set1_epi64(1);
    const __mmask8 neg = _mm512_cmplt_epi64_mask(o, _mm512_setzero_si512());
    __m512i m = _mm512_abs_epi64(o);
    /* m >= 2^15: sh = floor(log2(m)) - 14, m rounded to 15 bits */
    const __mmask8 big = _mm512_cmpge_epi64_mask(m, _mm512_set1_epi64(32768));
    const __m512i lg =
        _mm512_cvttpd_epi64(_mm512_getexp_pd(_mm512_cvtepi64_pd(m)));
    const __m512i sh = _mm512_maskz_sub_epi64(big, lg, _mm512_set1_epi64(14));
    const __m512i half = _mm512_srli_epi64(_mm512_sllv_epi64(one, sh), 1);
    m = _mm512_srlv_epi64(_mm512_add_epi64(m, half), sh);
    const __m512i d = _mm512_cvtepi32_epi64(_mm512_i64gather_epi32(
        _mm512_add_epi64(m, _mm512_set1_epi64(32768)), div, 4));
    /* the product fits 62 bits: the low halves' signed product is exact */
    __m512i pr = _mm512_mul_epi32(d, t);
    pr = _mm512_mask_sub_epi64(pr, neg, _mm512_setzero_si512(), pr);
    /* (int32)(1u << (14 + sh)): -2^31 for sh = 17 */
    const __m512i rnd = _mm512_cvtepi32_epi64(_mm512_cvtepi64_epi32(
        _mm512_sllv_epi64(one, _mm512_add_epi64(sh, _mm512_set1_epi64(14)))));
    return _mm512_srav_epi64(_mm512_add_epi64(pr, rnd),
                             _mm512_add_epi64(sh, _mm512_set1_epi64(15)));
#endif
}

/* dec_one() of eight positions: the restored value (sign-extended lanes) */
VG_CPU_TARGET_AVX512
static inline __m512i dec_one512(const int32_t *div, __mmask8 flag, __m512d egl,
                                 __m512i o, __m512i t)
{
    const __m512i zero = _mm512_setzero_si512();
    const __m512i one15 = _mm512_set1_epi64(32768);
    const __mmask8 nz = _mm512_cmpneq_epi64_mask(o, zero);
    __m512i k = _mm512_min_epi64(
        _mm512_max_epi64(dec_quotient512(div, o, t), zero), one15);
    k = _mm512_mask_blend_epi64(nz, one15, k);
    __m512i rst = dec_wrap512(_mm512_srai_epi64(
        _mm512_add_epi64(_mm512_mul_epi32(k, o), _mm512_set1_epi64(16384)),
        15));
    const __mmask8 lim = flag & nz & _mm512_cmpgt_epi64_mask(k, zero);
    if (lim) {
        const __m512d e = _mm512_mul_pd(_mm512_cvtepi64_pd(rst), egl);
        const __m512d td = _mm512_cvtepi64_pd(t);
        const __mmask8 pos = _mm512_cmpgt_epi64_mask(o, zero);
        const __m512d lo = _mm512_min_pd(e, td), hi = _mm512_max_pd(e, td);
        const __m512d v = _mm512_mask_blend_pd(pos, hi, lo);
        rst = _mm512_mask_mov_epi64(rst, lim,
                                    dec_wrap512(_mm512_cvttpd_epi64(v)));
    }
    return rst;
}

VG_CPU_TARGET_AVX512
static void decouple_avx512(AdmPriv *p, int s, double egl_d)
{
    const AdmBands *bd = bands(p);
    const VgAdmRegion *rg = &p->sc[s].dec;
    const int32_t *div = p->div;
    const double c = p->cos1;
    const __m512d egl = _mm512_set1_pd(egl_d);
    for (int i = rg->top; i < rg->bottom; i++) {
        const DecRow r = dec_row(bd, i);
        for (int j = rg->left; j < rg->right; j += 8) {
            const __mmask8 m = rg->right - j >= 8
                                   ? 0xff
                                   : (__mmask8)((1u << (rg->right - j)) - 1);
            const __m512i voh = dec_load512(r.oh + j, m);
            const __m512i vov = dec_load512(r.ov + j, m);
            const __m512i vod = dec_load512(r.od + j, m);
            const __m512i vth = dec_load512(r.th + j, m);
            const __m512i vtv = dec_load512(r.tv + j, m);
            const __m512i vtd = dec_load512(r.td + j, m);
            const __mmask8 f = dec_angle512(c, voh, vov, vth, vtv);
            __m512i x = dec_one512(div, f, egl, voh, vth);
            dec_store512(r.rh + j, m, x);
            dec_store512(r.ah + j, m, _mm512_sub_epi64(vth, x));
            x = dec_one512(div, f, egl, vov, vtv);
            dec_store512(r.rv + j, m, x);
            dec_store512(r.av + j, m, _mm512_sub_epi64(vtv, x));
            x = dec_one512(div, f, egl, vod, vtd);
            dec_store512(r.rd + j, m, x);
            dec_store512(r.ad + j, m, _mm512_sub_epi64(vtd, x));
        }
    }
}
#endif

#if ADM_HAVE_AVX2 && BAND == 16
/*
 * decouple() at scale 0 four coefficients at a time in AVX2, in double:
 * every int16 band value, product and sum here is an integer below 2^53,
 * so the double operations are exact and give the C's integers; the
 * shifts are floors of exact products by powers of two, the float
 * rounding of the angle test's dot products is vcvtpd2ps of their exact
 * values. The same steps as decouple_avx512() otherwise.
 */
VG_CPU_TARGET_AVX2
static inline __m256d dec_f4096_avx2(__m256d x)
{
    return _mm256_mul_pd(_mm256_cvtps_pd(_mm256_cvtpd_ps(x)),
                         _mm256_set1_pd(1.0 / 4096.0));
}

/* floor(x / 2^15) of an exact integer x */
VG_CPU_TARGET_AVX2
static inline __m256d dec_shr15_avx2(__m256d x)
{
    return _mm256_floor_pd(_mm256_mul_pd(x, _mm256_set1_pd(1.0 / 32768.0)));
}

/* angle_flag() of four positions, as all-ones lanes */
VG_CPU_TARGET_AVX2
static inline __m256d dec_angle_avx2(double c, __m256d oh, __m256d ov,
                                     __m256d th, __m256d tv)
{
    const __m256d ot = dec_f4096_avx2(
        _mm256_add_pd(_mm256_mul_pd(oh, th), _mm256_mul_pd(ov, tv)));
    const __m256d oo = dec_f4096_avx2(
        _mm256_add_pd(_mm256_mul_pd(oh, oh), _mm256_mul_pd(ov, ov)));
    const __m256d tt = dec_f4096_avx2(
        _mm256_add_pd(_mm256_mul_pd(th, th), _mm256_mul_pd(tv, tv)));
    const __m256d rhs = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(c), oo), tt);
    return _mm256_and_pd(_mm256_cmp_pd(ot, _mm256_setzero_pd(), _CMP_GE_OQ),
                         _mm256_cmp_pd(_mm256_mul_pd(ot, ot), rhs, _CMP_GE_OQ));
}

VG_CPU_TARGET_AVX2
static inline __m256d dec_one_avx2(const int32_t *div, __m256d flag,
                                   __m256d egl, __m128i o32, __m256d o,
                                   __m256d t)
{
    const __m256d zero = _mm256_setzero_pd(), one15 = _mm256_set1_pd(32768.0);
    const __m256d d = _mm256_cvtepi32_pd(
        _mm_i32gather_epi32(div, _mm_add_epi32(o32, _mm_set1_epi32(32768)), 4));
    __m256d k = dec_shr15_avx2(
        _mm256_add_pd(_mm256_mul_pd(d, t), _mm256_set1_pd(16384.0)));
    const __m256d nz = _mm256_cmp_pd(o, zero, _CMP_NEQ_OQ);
    k = _mm256_min_pd(_mm256_max_pd(k, zero), one15);
    k = _mm256_blendv_pd(one15, k, nz);
    const __m256d rst = dec_shr15_avx2(
        _mm256_add_pd(_mm256_mul_pd(k, o), _mm256_set1_pd(16384.0)));
    const __m256d lim = _mm256_and_pd(_mm256_and_pd(flag, nz),
                                      _mm256_cmp_pd(k, zero, _CMP_GT_OQ));
    const __m256d e = _mm256_mul_pd(rst, egl);
    const __m256d v = _mm256_blendv_pd(_mm256_max_pd(e, t), _mm256_min_pd(e, t),
                                       _mm256_cmp_pd(o, zero, _CMP_GT_OQ));
    /* truncated towards zero, as the C's conversion */
    return _mm256_blendv_pd(
        rst, _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), lim);
}

VG_CPU_TARGET_AVX2
static inline __m128i dec_load4_avx2(const band *x)
{
    return _mm_cvtepi16_epi32(_mm_loadl_epi64((const __m128i *)x));
}

VG_CPU_TARGET_AVX2
static inline void dec_store4_avx2(band *r, band *a, __m256d x, __m128i t32)
{
    const __m128i x32 = _mm256_cvttpd_epi32(x);
    _mm_storel_epi64((__m128i *)r, _mm_packs_epi32(x32, x32));
    /* t - x, wrapped to int16 */
    const __m128i d =
        _mm_sub_epi16(_mm_packs_epi32(t32, t32), _mm_packs_epi32(x32, x32));
    _mm_storel_epi64((__m128i *)a, d);
}

VG_CPU_TARGET_AVX2
static void decouple_avx2(AdmPriv *p, int s, double egl_d)
{
    const AdmBands *bd = bands(p);
    const VgAdmRegion rg = p->sc[s].dec;
    const int32_t *div = p->div;
    const double c = p->cos1;
    const __m256d egl = _mm256_set1_pd(egl_d);
    for (int i = rg.top; i < rg.bottom; i++) {
        const DecRow r = dec_row(bd, i);
        int j = rg.left;
        for (; j + 4 <= rg.right; j += 4) {
            const __m128i ioh = dec_load4_avx2(r.oh + j),
                          iov = dec_load4_avx2(r.ov + j);
            const __m128i iod = dec_load4_avx2(r.od + j),
                          ith = dec_load4_avx2(r.th + j);
            const __m128i itv = dec_load4_avx2(r.tv + j),
                          itd = dec_load4_avx2(r.td + j);
            const __m256d voh = _mm256_cvtepi32_pd(ioh),
                          vov = _mm256_cvtepi32_pd(iov);
            const __m256d vod = _mm256_cvtepi32_pd(iod),
                          vth = _mm256_cvtepi32_pd(ith);
            const __m256d vtv = _mm256_cvtepi32_pd(itv),
                          vtd = _mm256_cvtepi32_pd(itd);
            const __m256d f = dec_angle_avx2(c, voh, vov, vth, vtv);
            dec_store4_avx2(r.rh + j, r.ah + j,
                            dec_one_avx2(div, f, egl, ioh, voh, vth), ith);
            dec_store4_avx2(r.rv + j, r.av + j,
                            dec_one_avx2(div, f, egl, iov, vov, vtv), itv);
            dec_store4_avx2(r.rd + j, r.ad + j,
                            dec_one_avx2(div, f, egl, iod, vod, vtd), itd);
        }
        for (; j < rg.right; j++)
            dec_position(div, p->cos1, egl_d, &r, j);
    }
}
#endif

/* ------------------------------------------------------------------------
 * CSF
 * ---------------------------------------------------------------------- */

/* adm_csf: v = (I * x + o) >> s, (o, s) = (16384, 15) for h, v and
 * (65535, 17) for d, I in Q21 (h, v), Q23 (d); i4_adm_csf:
 * (I * x + 2^27) >> 28, I in Q32. b: 0 h, 1 v, 2 d. */
static inline wide csf_add(int b)
{
    return BAND == 16 ? (b == 2 ? 65535 : 16384) : 1 << 27;
}

static inline int csf_shift(int b)
{
    return BAND == 16 ? (b == 2 ? 17 : 15) : 28;
}

#if BAND == 16
/* R_12(2^17/30 * m), R_12(2^17/15 * m) (adm_csf FIX_ONE_BY_30, adm_cm
 * ONE_BY_15) */
static const wide one_by_30 = VG_ADM_ONE_BY_30_S0;
static const wide one_by_15 = VG_ADM_ONE_BY_15_S0;
static const wide recip_add = 2048;
static const int recip_shift = 12;
#else
/* (2^32/30 * m - 2^31) >> 32, likewise 2^32/15 (i4_adm_csf, i4_adm_cm):
 * libvmaf's rounding term (1u << 31) is stored in an int32 and becomes
 * -2^31, so f(0) = -1 */
static const wide one_by_30 = VG_ADM_ONE_BY_30_S123;
static const wide one_by_15 = VG_ADM_ONE_BY_15_S123;
static const wide recip_add = -2147483648LL;
static const int recip_shift = 32;
#endif

/* The CSF factor of band b (h, v, d) of scale s. */
static inline wide csf_factor(const AdmPriv *p, int s, int b)
{
    return BAND == 16 ? p->fac.s0[b] : p->fac.s123[s][b];
}

/* |c| / 30 or |c| / 15 (k = one_by_30, one_by_15), wrapped to the band
 * type; m = |c| as int32 (|-2^31| stays -2^31, as libvmaf computes it). */
static inline band recip(wide k, int32_t m)
{
    return (band)((k * m + recip_add) >> recip_shift);
}

static inline int32_t abs32(int32_t v)
{
    return (int32_t)(v < 0 ? -(uint32_t)v : (uint32_t)v);
}

/* CSF over the decouple region: the weighted value c = wrap(R(I * x)) to
 * `val`, |c| / 30 to `flt`. */
ADM_INLINE void csf(AdmPriv *p, int s, void *const src[4], void *const val[4],
                    void *const flt[4])
{
    const ptrdiff_t bs = bands(p)->stride;
    /* the bounds in locals: int32 bands could alias the region's ints */
    const VgAdmRegion rg = p->sc[s].dec;
    for (int b = 0; b < 3; b++) {
        const wide fac = csf_factor(p, s, b);
        const wide add = csf_add(b);
        const int shift = csf_shift(b);
        for (int i = rg.top; i < rg.bottom; i++) {
            const ptrdiff_t o = i * bs;
            const band *restrict x = (const band *)src[BH + b] + o;
            band *restrict v = (band *)val[BH + b] + o;
            band *restrict f = (band *)flt[BH + b] + o;
            for (int j = rg.left; j < rg.right; j++) {
                const band c = (band)((fac * x[j] + add) >> shift);
                v[j] = c;
                f[j] = recip(one_by_30, abs32(c));
            }
        }
    }
}

/* ------------------------------------------------------------------------
 * Denominator
 * ---------------------------------------------------------------------- */

/*
 * Sum over the region of q = (|b|^2 + 2^e) >> e (the offset is the full
 * divisor), val = R_c(q * |b|) (uint64), rows rounded by rho.
 * adm_csf_den_scale (scale 0): plain cubes (e = c = 0), rho = sigma =
 * max(0, ceil(log2(area) - 20)) (sc->den_cub_shift); vg_adm_den_score()
 * divides by 2^(18 - sigma). adm_csf_den_s123: e = 31, 30, 31;
 * c = ceil(log2(region width)), rho = ceil(log2(region height)).
 */
ADM_INLINE float den(AdmPriv *p, int s, double nw)
{
    static const uint32_t esq[4] = { 0, 31, 30, 31 };
    const AdmBands *bd = bands(p);
    const VgAdmScale *sc = &p->sc[s];
    const VgAdmRegion rg = sc->cm;
    const uint32_t e = BAND == 16 ? 0 : esq[s];
    const uint64_t eadd = BAND == 16 ? 0 : 1ull << e;
    const uint32_t c = BAND == 16 ? 0 : sc->den_cub_shift;
    const uint32_t rho = BAND == 16 ? sc->den_cub_shift : sc->den_row_shift;
    /* 2^(c-1), or 0 for c = 0; likewise for rho */
    const uint64_t cadd = (1ull << c) >> 1;
    const uint64_t radd = (1ull << rho) >> 1;
    uint64_t tot[3];
    for (int b = 0; b < 3; b++) {
        uint64_t total = 0;
        for (int i = rg.top; i < rg.bottom; i++) {
            const band *restrict x =
                (const band *)bd->ref[BH + b] + i * bd->stride;
            uint64_t row = 0;
            for (int j = rg.left; j < rg.right; j++) {
                const uint64_t m = x[j] < 0 ? -(uint32_t)x[j] : (uint32_t)x[j];
                const uint64_t q = (m * m + eadd) >> e;
                row += (q * m + cadd) >> c;
            }
            total += (row + radd) >> rho;
        }
        tot[b] = total;
    }
    return vg_adm_den_score(sc, &p->fac, s, tot, nw);
}

/* ------------------------------------------------------------------------
 * Contrast masking
 * ---------------------------------------------------------------------- */

/*
 * The masking threshold at (i, j) is, summed over the three bands, the
 * 3x3 neighbourhood of the |csf|/30 values `flt` with the centre position
 * replaced by |csf(i, j)|/15 (adm_cm ADM_CM_THRESH_*). Out-of-band
 * neighbours: row/col -1 -> 1, row/col n -> n - 1. `cs` gets the column
 * sums of the three rows for columns left - 1 .. right (mirrored), then
 * thr[j - left] = cs window sum - flt(i, j) + centre(i, j), all int32.
 */
static inline int mirror_idx(int v, int n)
{
    return v < 0 ? -v : v >= n ? n - 1 : v;
}

/* Column sums of flt over rows r0, r1, r2 and the three bands, for columns
 * left - 1 .. right (cs[0 .. right - left + 1]); the two outer columns are
 * mirrored, the others are in the band (vectorisable). */
static inline void colsums(void *const flt[4], ptrdiff_t r0, ptrdiff_t r1,
                           ptrdiff_t r2, int left, int right, int w,
                           int32_t *restrict cs)
{
    const band *restrict h0 = (const band *)flt[BH] + r0;
    const band *restrict h1 = (const band *)flt[BH] + r1;
    const band *restrict h2 = (const band *)flt[BH] + r2;
    const band *restrict v0 = (const band *)flt[BV] + r0;
    const band *restrict v1 = (const band *)flt[BV] + r1;
    const band *restrict v2 = (const band *)flt[BV] + r2;
    const band *restrict d0 = (const band *)flt[BD] + r0;
    const band *restrict d1 = (const band *)flt[BD] + r1;
    const band *restrict d2 = (const band *)flt[BD] + r2;
    int c = mirror_idx(left - 1, w);
    cs[0] =
        h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] + d0[c] + d1[c] + d2[c];
    for (c = left; c < right; c++)
        cs[c - left + 1] = h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] +
                           d0[c] + d1[c] + d2[c];
    c = mirror_idx(right, w);
    cs[right - left + 1] =
        h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] + d0[c] + d1[c] + d2[c];
}

/* adm_cm: the weighted value x * I unshifted, compared with thr << 10
 * (h, v), 12 (d); squares R_29 (h, v), R_30 (d). i4_adm_cm:
 * (x * I + 2^27) >> 28, compared with thr; squares R_30. */
#if BAND == 16
static const wide cm_add = 0;
static const int cm_shift = 0;
#else
static const wide cm_add = 1 << 27;
static const int cm_shift = 28;
#endif

static inline int cm_thr_shift(int b)
{
    return BAND == 16 ? (b == 2 ? 12 : 10) : 0;
}

static inline int cm_sq_shift(int b)
{
    return BAND == 16 ? (b == 2 ? 30 : 29) : 30;
}

/*
 * adm_cm / i4_adm_cm: the region is [top, bottom) x [left, right); per
 * band d = max(0, int32 wrap of |v| - (thr << u)), val = R_cub(R_q(d^2) *
 * d) (cube shift per band, sc->cm_cub_shift); each row is summed in int64
 * and added as R_rho(rowsum) (the libvmaf edge special cases reduce to
 * this since top, left >= 0 and right = w - left).
 */
ADM_INLINE float cm(AdmPriv *p, int s, void *const x[4], void *const cval[4],
                    void *const flt[4], double nw)
{
    const ptrdiff_t bs = bands(p)->stride;
    const VgAdmScale *sc = &p->sc[s];
    const VgAdmRegion *rg = &sc->cm;
    const int w = sc->w, h = sc->h;
    const int left = rg->left, right = rg->right;
    const int n = right - left;
    const uint32_t rho = sc->cm_row_shift;
    const int64_t radd = rho > 0 ? 1ll << (rho - 1) : 0;
    int64_t total[3] = { 0, 0, 0 };
    int32_t *cs = p->cs, *thr = p->thr;

    for (int i = rg->top; i < rg->bottom; i++) {
        const ptrdiff_t r0 = mirror_idx(i - 1, h) * bs;
        const ptrdiff_t r1 = i * bs;
        const ptrdiff_t r2 = mirror_idx(i + 1, h) * bs;
        colsums(flt, r0, r1, r2, left, right, w, cs);
        for (int k = 0; k < n; k++) {
            const int j = left + k;
            int32_t t = cs[k] + cs[k + 1] + cs[k + 2];
            for (int b = 1; b < 4; b++) {
                const int32_t cv = ((const band *)cval[b])[r1 + j];
                /* centre: |C| / 15 */
                t += recip(one_by_15, abs32(cv)) -
                     ((const band *)flt[b])[r1 + j];
            }
            thr[k] = t;
        }
        for (int b = 0; b < 3; b++) {
            const wide fac = csf_factor(p, s, b);
            const int us = cm_thr_shift(b);
            const int qs = cm_sq_shift(b);
            const int64_t qadd = 1ll << (qs - 1);
            const uint32_t cub = sc->cm_cub_shift[b];
            const int64_t cadd = (int64_t)(1ull << (cub - 1));
            const band *restrict xr = (const band *)x[BH + b] + r1 + left;
            int64_t row = 0;
            for (int k = 0; k < n; k++) {
                const int32_t v = (int32_t)((xr[k] * fac + cm_add) >> cm_shift);
                const uint32_t av = v < 0 ? -(uint32_t)v : (uint32_t)v;
                /* int32 wrap of abs(x) - (thr << u), as compiled */
                int32_t d = (int32_t)(av - ((uint32_t)thr[k] << us));
                d = d < 0 ? 0 : d;
                const int32_t sq = (int32_t)(((int64_t)d * d + qadd) >> qs);
                row += ((int64_t)sq * d + cadd) >> cub;
            }
            total[b] += (row + radd) >> rho;
        }
    }

    return vg_adm_cm_score(sc, s, total, nw);
}

/* ------------------------------------------------------------------------
 * One scale
 * ---------------------------------------------------------------------- */

/* Everything after the DWT: decouple, denominator, CSF and masking of the
 * restored bands by the additive ones (DLM), and AIM: CSF of r (values
 * into cf, |.|/30 into ca), masking of a by r. `simd` names the build the
 * body is inlined into: 0 C, 2 AVX2, 512 AVX-512. */
ADM_INLINE void measures(AdmPriv *p, int s, const int simd, const VgAdmOpts *o,
                         float *num, float *den_s, float *aim)
{
    AdmBands *bd = bands(p);

#if ADM_HAVE_AVX2
    if (simd == 512)
        decouple_avx512(p, s, o->enhn_gain_limit);
#if BAND == 16
    else if (simd == 2)
        decouple_avx2(p, s, o->enhn_gain_limit);
#endif
    else
#endif
        decouple(p, s, o->enhn_gain_limit);
    *den_s = den(p, s, o->noise_weight);
    csf(p, s, bd->a, bd->ca, bd->cf);
    *num = cm(p, s, bd->r, bd->ca, bd->cf, o->noise_weight);
    if (!o->skip_aim) {
        csf(p, s, bd->r, bd->cf, bd->ca);
        *aim = cm(p, s, bd->a, bd->cf, bd->ca, 0.0);
    }
}

/* In a ladder, the reference's bands of scale s are the stage's (cpu/adm.h
 * sref): the state's pointers are moved there for the frame (adm_extract()
 * puts them back), and the reference's DWT runs for rendition 0 only. */
ADM_INLINE int stage_bands(AdmPriv *p, int s)
{
    if (!p->stage_role)
        return 1;
    if (s) {
        for (int b = BH; b <= BD; b++)
            p->b32.ref[b] = p->sref[s][b];
        p->lo_ref[(s - 1) & 1] = p->sref[s][BA];
    } else {
        for (int b = BA; b <= BD; b++)
            p->b16.ref[b] = p->sref[0][b];
    }
    return p->stage_role != VG_STAGE_READ;
}

#if BAND == 16
/* Scale 0 from the pictures; with adm_skip_scale0 only its low-pass band
 * is needed (adm_dwt2_8_lo/16_lo) and den is 1e-10f. */
ADM_INLINE void scale_any(AdmPriv *p, int s, const int simd, const VgAdmOpts *o,
                          const VgImage *ref, const VgImage *dis, float *num,
                          float *den_s, float *aim)
{
    AdmBands *bd = bands(p);
    const int ref_dwt = stage_bands(p, 0);

    if (ref->bpc == 8) {
        if (ref_dwt)
            dwt(p, 0, ref->data[0], ref->stride[0], IN_U8, 8, bd->ref);
        dwt(p, 0, dis->data[0], dis->stride[0], IN_U8, 8, bd->dis);
    } else {
        if (ref_dwt)
            dwt(p, 0, ref->data[0], ref->stride[0], IN_U16, ref->bpc, bd->ref);
        dwt(p, 0, dis->data[0], dis->stride[0], IN_U16, dis->bpc, bd->dis);
    }
    if (o->skip_scale0) {
        *num = 0.0f;
        *den_s = 1e-10f;
        return;
    }
    measures(p, 0, simd, o, num, den_s, aim);
}
#else
/* Scale s from the previous scale's low-pass bands: scale 0's int16 ones
 * (libvmaf widens them first, i16_to_i32: same values), then ours; the
 * low-pass output alternates between lo_ref/lo_dis[0] and [1]. */
ADM_INLINE void scale_any(AdmPriv *p, int s, const int simd, const VgAdmOpts *o,
                          const VgImage *ref, const VgImage *dis, float *num,
                          float *den_s, float *aim)
{
    AdmBands *bd = bands(p);
    const int ref_dwt = stage_bands(p, s);
    void *const rb[4] = { p->lo_ref[(s - 1) & 1], bd->ref[BH], bd->ref[BV],
                          bd->ref[BD] };
    void *const db[4] = { p->lo_dis[(s - 1) & 1], bd->dis[BH], bd->dis[BV],
                          bd->dis[BD] };

    if (s == 1) {
        const ptrdiff_t st = p->b16.stride * sizeof(int16_t);
        if (ref_dwt)
            dwt(p, 1, p->b16.ref[BA], st, IN_S16, 0, rb);
        dwt(p, 1, p->b16.dis[BA], st, IN_S16, 0, db);
    } else {
        const ptrdiff_t st = bd->stride * sizeof(int32_t);
        if (ref_dwt)
            dwt(p, s, p->lo_ref[s & 1], st, IN_S32, 0, rb);
        dwt(p, s, p->lo_dis[s & 1], st, IN_S32, 0, db);
    }
    measures(p, s, simd, o, num, den_s, aim);
}
#endif

ADM_O3
static void scale_c(AdmPriv *p, int s, const VgAdmOpts *o, const VgImage *ref,
                    const VgImage *dis, float *num, float *den_s, float *aim)
{
    scale_any(p, s, 0, o, ref, dis, num, den_s, aim);
}

#if ADM_HAVE_AVX2
VG_CPU_TARGET_AVX2 ADM_O3 static void scale_avx2(AdmPriv *p, int s,
                                                 const VgAdmOpts *o,
                                                 const VgImage *ref,
                                                 const VgImage *dis, float *num,
                                                 float *den_s, float *aim)
{
    scale_any(p, s, 2, o, ref, dis, num, den_s, aim);
}

VG_CPU_TARGET_AVX512 ADM_O3 static void scale_avx512(
    AdmPriv *p, int s, const VgAdmOpts *o, const VgImage *ref,
    const VgImage *dis, float *num, float *den_s, float *aim)
{
    scale_any(p, s, 512, o, ref, dis, num, den_s, aim);
}
#endif

void bandfn(vg_adm_dsp_init)(VgAdmDSP *dsp, unsigned flags)
{
    AdmScaleFn *fn = scale_c;

#if ADM_HAVE_AVX2
    if (flags & VG_CPU_FLAG_AVX2)
        fn = scale_avx2;
    if (flags & VG_CPU_FLAG_AVX512)
        fn = scale_avx512;
#else
    (void)flags;
#endif
    bandfn(dsp->scale) = fn;
}
