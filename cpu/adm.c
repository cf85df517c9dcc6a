/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM (detail loss / additive impairment), CPU reference.
 *
 * Bit-exact with the portable C path of libvmaf v3.2.0
 * src/feature/integer_adm.c (not with its AVX2/AVX-512 twins, which differ
 * on some inputs). Per scale: db2 DWT of reference and distorted luma,
 * decoupling of the distorted detail bands into restored (r) and additive
 * (a) parts, CSF weighting, contrast masking of r by a (DLM numerator) and
 * of a by r (AIM numerator), and the reference energy (denominator).
 * Scale 0 works on int16 bands, scales 1..3 on int32 bands.
 *
 * Every step keeps libvmaf's integer widths, shifts and roundings,
 * including its wrap-arounds (int16 CSF values, the -2^31 offsets of the
 * scale 1..3 divisions, the full-divisor rounding of the denominator).
 * Where libvmaf's C has undefined behaviour that x86-64 GCC compiles to a
 * wrap, we write the wrap explicitly with unsigned arithmetic.
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/cpu.h"
#include "common/features/adm.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846264338327
#endif

/*
 * The per-frame passes are inlined into two entry points, the C build and
 * an AVX2 build of the same code, picked at init from the one CPU-flags
 * mask (common/cpu.h; x86-64 GCC or clang). Only how the integer work is
 * vectorised changes: no FMA is enabled (and -ffp-contract=off), the
 * float steps are the same IEEE operations, so both give identical
 * results. Both ask GCC for -O3: autoconf's default CFLAGS (-g -O2) come
 * after AM_CFLAGS on the command line, and GCC's -O2 cost model
 * vectorises none of these loops (1080p: about 1.7x slower).
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define ADM_HAVE_AVX2 1
#else
#define ADM_HAVE_AVX2 0
#endif
#if defined(__GNUC__) && !defined(__clang__)
#define ADM_O3 __attribute__((optimize("O3")))
#else
#define ADM_O3
#endif
#define ADM_HOT __attribute__((always_inline))

enum { BA = 0, BH = 1, BV = 2, BD = 3 };

typedef struct AdmPriv AdmPriv;
typedef void AdmFrameFn(AdmPriv *p, const VgAdmOpts *o, unsigned bpc,
                        const VgImage *ref, const VgImage *dis, float *num_s,
                        float *den_s, float *aim_s);

struct AdmPriv {
    AdmFrameFn *frame;       ///< adm_frame_c or adm_frame_avx2
    VgAdmScale sc[VG_ADM_NB_SCALES];
    VgAdmFactors fac;
    const int32_t *div;
    float cos1;
    /* dwt2_src_indices_filt(): 4 source indices per output row/column */
    int *iy[VG_ADM_NB_SCALES], *ix[VG_ADM_NB_SCALES];
    ptrdiff_t bs0, bs1;      ///< band strides (elements), scale 0 and 1..3
    /* scale 0, int16, stride bs0 */
    int16_t *ref16[4], *dis16[4];
    int16_t *r16[4], *a16[4], *ca16[4], *cf16[4];   ///< index BH..BD used
    /* scales 1..3, int32, stride bs1 */
    int32_t *ref32[4], *dis32[4];
    int32_t *refa32[2], *disa32[2];  ///< low-pass band ping-pong
    int32_t *r32[4], *a32[4], *ca32[4], *cf32[4];
    /* row scratch */
    void *tmp;
    int32_t *cs, *thr;
    void *mem;
};

static AdmFrameFn adm_frame_c;
#if ADM_HAVE_AVX2
static AdmFrameFn adm_frame_avx2;
#endif

/* dwt2_src_indices_filt(): top/left reflect (-1 -> 1), bottom/right
 * reflect with edge repeat (n -> n - 1). Requires n >= 5. */
static void build_indices(int *idx, int n)
{
    const int half = (n + 1) / 2;
    for (int i = 0; i < half; i++) {
        for (int k = 0; k < 4; k++) {
            int v = 2 * i - 1 + k;
            if (i == 0)
                v = k == 0 ? 1 : k - 1;
            else if (v >= n)
                v = 2 * n - v - 1;
            idx[4 * i + k] = v;
        }
    }
}

/* ------------------------------------------------------------------------
 * DWT
 * ---------------------------------------------------------------------- */

/*
 * adm_dwt2_8 / adm_dwt2_16, vertical pass of one output row:
 * lo = (sum(L * p) - 46342 * 2^(b-1) + 2^(b-1)) >> b, hi = R_b(sum(Hf * p)).
 * The true value always fits int32 (|lo|, |hi| <= 27411 * 2^16) but the raw
 * sum does not for b = 16 (libvmaf wraps); modulo-2^32 arithmetic gives the
 * exact value for every depth.
 */
static inline __attribute__((always_inline))
void dwt_s0_vert(const void *src, ptrdiff_t stride, int bytes,
                 const int *iy, int w, int bpc, int16_t *restrict lo,
                 int16_t *restrict hi)
{
    const uint32_t rnd = 1u << (bpc - 1);
    const uint32_t dc = (uint32_t)VG_ADM_DWT_LO_SUM * rnd;
    const uint32_t L0 = vg_adm_dwt_lo[0], L1 = vg_adm_dwt_lo[1],
                   L2 = vg_adm_dwt_lo[2], L3 = (uint32_t)vg_adm_dwt_lo[3];
    const uint32_t H0 = (uint32_t)vg_adm_dwt_hi[0], H1 = (uint32_t)vg_adm_dwt_hi[1],
                   H2 = vg_adm_dwt_hi[2], H3 = (uint32_t)vg_adm_dwt_hi[3];

    if (bytes == 1) {
        const uint8_t *p0 = (const uint8_t *)src + iy[0] * stride;
        const uint8_t *p1 = (const uint8_t *)src + iy[1] * stride;
        const uint8_t *p2 = (const uint8_t *)src + iy[2] * stride;
        const uint8_t *p3 = (const uint8_t *)src + iy[3] * stride;
        for (int j = 0; j < w; j++) {
            uint32_t s0 = p0[j], s1 = p1[j], s2 = p2[j], s3 = p3[j];
            uint32_t l = L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 - dc + rnd;
            uint32_t h = H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + rnd;
            lo[j] = (int16_t)((int32_t)l >> bpc);
            hi[j] = (int16_t)((int32_t)h >> bpc);
        }
    } else {
        const uint16_t *p0 = (const uint16_t *)((const uint8_t *)src + iy[0] * stride);
        const uint16_t *p1 = (const uint16_t *)((const uint8_t *)src + iy[1] * stride);
        const uint16_t *p2 = (const uint16_t *)((const uint8_t *)src + iy[2] * stride);
        const uint16_t *p3 = (const uint16_t *)((const uint8_t *)src + iy[3] * stride);
        for (int j = 0; j < w; j++) {
            uint32_t s0 = p0[j], s1 = p1[j], s2 = p2[j], s3 = p3[j];
            uint32_t l = L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 - dc + rnd;
            uint32_t h = H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + rnd;
            lo[j] = (int16_t)((int32_t)l >> bpc);
            hi[j] = (int16_t)((int32_t)h >> bpc);
        }
    }
}

/* adm_dwt2_8/16, horizontal pass: R_16 of the four taps, int32 -> int16 */
ADM_HOT
static inline void dwt_s0_horz(const int16_t *restrict lo, const int16_t *restrict hi,
                        const int *ix, int bw, int16_t *restrict a,
                        int16_t *restrict v, int16_t *restrict h,
                        int16_t *restrict d)
{
    const int32_t L0 = vg_adm_dwt_lo[0], L1 = vg_adm_dwt_lo[1],
                  L2 = vg_adm_dwt_lo[2], L3 = vg_adm_dwt_lo[3];
    const int32_t H0 = vg_adm_dwt_hi[0], H1 = vg_adm_dwt_hi[1],
                  H2 = vg_adm_dwt_hi[2], H3 = vg_adm_dwt_hi[3];
    const int mid_end = bw - 2;

#define DWT_S0_H_ONE(j, c0, c1, c2, c3) do {                                 \
        int32_t l0 = lo[c0], l1 = lo[c1], l2 = lo[c2], l3 = lo[c3];         \
        int32_t h0 = hi[c0], h1 = hi[c1], h2 = hi[c2], h3 = hi[c3];         \
        a[j] = (int16_t)((L0 * l0 + L1 * l1 + L2 * l2 + L3 * l3 + 32768) >> 16); \
        v[j] = (int16_t)((H0 * l0 + H1 * l1 + H2 * l2 + H3 * l3 + 32768) >> 16); \
        h[j] = (int16_t)((L0 * h0 + L1 * h1 + L2 * h2 + L3 * h3 + 32768) >> 16); \
        d[j] = (int16_t)((H0 * h0 + H1 * h1 + H2 * h2 + H3 * h3 + 32768) >> 16); \
    } while (0)

    DWT_S0_H_ONE(0, ix[0], ix[1], ix[2], ix[3]);
    for (int j = 1; j < mid_end; j++)
        DWT_S0_H_ONE(j, 2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2);
    for (int j = mid_end > 1 ? mid_end : 1; j < bw; j++)
        DWT_S0_H_ONE(j, ix[4 * j], ix[4 * j + 1], ix[4 * j + 2], ix[4 * j + 3]);
#undef DWT_S0_H_ONE
}

static inline __attribute__((always_inline))
void dwt_s0(AdmPriv *p, const VgImage *img, int bytes, int16_t *const band[4])
{
    const VgAdmScale *sc = &p->sc[0];
    int16_t *lo = p->tmp, *hi = lo + sc->in_w;
    for (int i = 0; i < sc->h; i++) {
        dwt_s0_vert(img->data[0], img->stride[0], bytes, &p->iy[0][4 * i],
                    sc->in_w, img->bpc, lo, hi);
        const ptrdiff_t o = i * p->bs0;
        dwt_s0_horz(lo, hi, p->ix[0], sc->w, band[BA] + o, band[BV] + o,
                    band[BH] + o, band[BD] + o);
    }
}

ADM_HOT
static inline void dwt_s0_8(AdmPriv *p, const VgImage *img, int16_t *const band[4])
{
    dwt_s0(p, img, 1, band);
}

ADM_HOT
static inline void dwt_s0_16(AdmPriv *p, const VgImage *img, int16_t *const band[4])
{
    dwt_s0(p, img, 2, band);
}

/*
 * adm_dwt2_s123_combined: int64 sums, vertical (o, s) = (0, 0) at scale 1,
 * (32768, 16) at 2 and 3; horizontal (16384, 15), (32768, 16), (16384, 15).
 */
static inline __attribute__((always_inline))
void dwt_s123_tmpl(AdmPriv *p, int s, const void *src, int src16,
                   ptrdiff_t sstride, int32_t *const band[4])
{
    static const int32_t vo[4] = { 0, 0, 32768, 32768 };
    static const int vs[4] = { 0, 0, 16, 16 };
    static const int32_t ho[4] = { 0, 16384, 32768, 16384 };
    static const int hs[4] = { 0, 15, 16, 15 };
    const VgAdmScale *sc = &p->sc[s];
    const int64_t L0 = vg_adm_dwt_lo[0], L1 = vg_adm_dwt_lo[1],
                  L2 = vg_adm_dwt_lo[2], L3 = vg_adm_dwt_lo[3];
    const int64_t H0 = vg_adm_dwt_hi[0], H1 = vg_adm_dwt_hi[1],
                  H2 = vg_adm_dwt_hi[2], H3 = vg_adm_dwt_hi[3];
    const int64_t vrnd = vo[s], hrnd = ho[s];
    const int vsh = vs[s], hsh = hs[s];
    int32_t *lo = p->tmp, *hi = lo + sc->in_w;
    const int *ix = p->ix[s];
    const int mid_end = sc->w - 2;

    for (int i = 0; i < sc->h; i++) {
        const int *iy = &p->iy[s][4 * i];
        if (src16) {
            /* scale 1 reads the int16 low-pass band of scale 0 (libvmaf
             * widens it first, i16_to_i32: same values) */
            const int16_t *b = src;
            const int16_t *p0 = b + iy[0] * sstride, *p1 = b + iy[1] * sstride;
            const int16_t *p2 = b + iy[2] * sstride, *p3 = b + iy[3] * sstride;
            for (int j = 0; j < sc->in_w; j++) {
                int64_t s0 = p0[j], s1 = p1[j], s2 = p2[j], s3 = p3[j];
                lo[j] = (int32_t)((L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 + vrnd) >> vsh);
                hi[j] = (int32_t)((H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + vrnd) >> vsh);
            }
        } else {
            const int32_t *b = src;
            const int32_t *p0 = b + iy[0] * sstride, *p1 = b + iy[1] * sstride;
            const int32_t *p2 = b + iy[2] * sstride, *p3 = b + iy[3] * sstride;
            for (int j = 0; j < sc->in_w; j++) {
                int64_t s0 = p0[j], s1 = p1[j], s2 = p2[j], s3 = p3[j];
                lo[j] = (int32_t)((L0 * s0 + L1 * s1 + L2 * s2 + L3 * s3 + vrnd) >> vsh);
                hi[j] = (int32_t)((H0 * s0 + H1 * s1 + H2 * s2 + H3 * s3 + vrnd) >> vsh);
            }
        }
        int32_t *a = band[BA] + i * p->bs1, *v = band[BV] + i * p->bs1;
        int32_t *h = band[BH] + i * p->bs1, *d = band[BD] + i * p->bs1;

#define DWT_S123_H_ONE(j, c0, c1, c2, c3) do {                                \
        int64_t l0 = lo[c0], l1 = lo[c1], l2 = lo[c2], l3 = lo[c3];          \
        int64_t h0 = hi[c0], h1 = hi[c1], h2 = hi[c2], h3 = hi[c3];          \
        a[j] = (int32_t)((L0 * l0 + L1 * l1 + L2 * l2 + L3 * l3 + hrnd) >> hsh); \
        v[j] = (int32_t)((H0 * l0 + H1 * l1 + H2 * l2 + H3 * l3 + hrnd) >> hsh); \
        h[j] = (int32_t)((L0 * h0 + L1 * h1 + L2 * h2 + L3 * h3 + hrnd) >> hsh); \
        d[j] = (int32_t)((H0 * h0 + H1 * h1 + H2 * h2 + H3 * h3 + hrnd) >> hsh); \
    } while (0)

        DWT_S123_H_ONE(0, ix[0], ix[1], ix[2], ix[3]);
        for (int j = 1; j < mid_end; j++)
            DWT_S123_H_ONE(j, 2 * j - 1, 2 * j, 2 * j + 1, 2 * j + 2);
        for (int j = mid_end > 1 ? mid_end : 1; j < sc->w; j++)
            DWT_S123_H_ONE(j, ix[4 * j], ix[4 * j + 1], ix[4 * j + 2], ix[4 * j + 3]);
#undef DWT_S123_H_ONE
    }
}

ADM_HOT
static inline void dwt_s1(AdmPriv *p, const int16_t *src, int32_t *const band[4])
{
    dwt_s123_tmpl(p, 1, src, 1, p->bs0, band);
}

ADM_HOT
static inline void dwt_s23(AdmPriv *p, int s, const int32_t *src,
                    int32_t *const band[4])
{
    dwt_s123_tmpl(p, s, src, 0, p->bs1, band);
}

/* ------------------------------------------------------------------------
 * Decouple
 * ---------------------------------------------------------------------- */

/*
 * adm_decouple / adm_decouple_s123: angle test in float/double; the
 * division t / o through the 2^30 / i table (scales 1..3 first reduce |o| to
 * 15 significant bits, get_best15_from32); enhancement limit in double.
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

static inline int16_t dec_s0_one(const int32_t *div, int flag, double egl,
                                 int16_t o, int16_t t)
{
    int32_t k = 32768;
    if (o != 0) {
        int64_t q = ((int64_t)div[o + 32768] * t + 16384) >> 15;
        k = q < 0 ? 0 : q > 32768 ? 32768 : (int32_t)q;
    }
    int16_t rst = (int16_t)((k * o + 16384) >> 15);
    if (flag && k > 0 && o != 0) {
        const double e = rst * egl;
        if (o > 0)
            rst = (int16_t)(e < t ? e : t);
        else
            rst = (int16_t)(e > t ? e : t);
    }
    return rst;
}

ADM_HOT
static inline void decouple_s0(AdmPriv *p, double egl)
{
    const VgAdmRegion *rg = &p->sc[0].dec;
    const int32_t *div = p->div;
    const float c = p->cos1;
    for (int i = rg->top; i < rg->bottom; i++) {
        const ptrdiff_t o = i * p->bs0;
        const int16_t *oh = p->ref16[BH] + o, *ov = p->ref16[BV] + o, *od = p->ref16[BD] + o;
        const int16_t *th = p->dis16[BH] + o, *tv = p->dis16[BV] + o, *td = p->dis16[BD] + o;
        int16_t *rh = p->r16[BH] + o, *rv = p->r16[BV] + o, *rd = p->r16[BD] + o;
        int16_t *ah = p->a16[BH] + o, *av = p->a16[BV] + o, *ad = p->a16[BD] + o;
        for (int j = rg->left; j < rg->right; j++) {
            const int f = angle_flag(c, oh[j], ov[j], th[j], tv[j]);
            int16_t x;
            x = dec_s0_one(div, f, egl, oh[j], th[j]);
            rh[j] = x;
            ah[j] = (int16_t)(th[j] - x);
            x = dec_s0_one(div, f, egl, ov[j], tv[j]);
            rv[j] = x;
            av[j] = (int16_t)(tv[j] - x);
            x = dec_s0_one(div, f, egl, od[j], td[j]);
            rd[j] = x;
            ad[j] = (int16_t)(td[j] - x);
        }
    }
}

static inline int32_t dec_s123_one(const int32_t *div, int flag, double egl,
                                   int32_t o, int32_t t)
{
    int64_t k = 32768;
    if (o != 0) {
        uint32_t m = o < 0 ? -(uint32_t)o : (uint32_t)o;
        int sh = 0;
        if (m >= 32768) {
            /* get_best15_from32() */
            sh = 17 - __builtin_clz(m);
            m = (m + (1u << (sh - 1))) >> sh;
        }
        /* (1 << (14 + sh)) is an int: 2^31 wraps to -2^31 for sh = 17 */
        const int64_t rnd = (int32_t)(1u << (14 + sh));
        int64_t q = (((int64_t)div[m + 32768] * t) * (o < 0 ? -1 : 1) + rnd)
                    >> (15 + sh);
        k = q < 0 ? 0 : q > 32768 ? 32768 : q;
    }
    int32_t rst = (int32_t)((k * o + 16384) >> 15);
    if (flag && k > 0 && o != 0) {
        const double e = rst * egl;
        if (o > 0)
            rst = (int32_t)(e < t ? e : t);
        else
            rst = (int32_t)(e > t ? e : t);
    }
    return rst;
}

ADM_HOT
static inline void decouple_s123(AdmPriv *p, int s, double egl)
{
    const VgAdmRegion *rg = &p->sc[s].dec;
    const int32_t *div = p->div;
    const float c = p->cos1;
    for (int i = rg->top; i < rg->bottom; i++) {
        const ptrdiff_t o = i * p->bs1;
        const int32_t *oh = p->ref32[BH] + o, *ov = p->ref32[BV] + o, *od = p->ref32[BD] + o;
        const int32_t *th = p->dis32[BH] + o, *tv = p->dis32[BV] + o, *td = p->dis32[BD] + o;
        int32_t *rh = p->r32[BH] + o, *rv = p->r32[BV] + o, *rd = p->r32[BD] + o;
        int32_t *ah = p->a32[BH] + o, *av = p->a32[BV] + o, *ad = p->a32[BD] + o;
        for (int j = rg->left; j < rg->right; j++) {
            const int f = angle_flag(c, oh[j], ov[j], th[j], tv[j]);
            int32_t x;
            x = dec_s123_one(div, f, egl, oh[j], th[j]);
            rh[j] = x;
            ah[j] = (int32_t)((uint32_t)th[j] - (uint32_t)x);
            x = dec_s123_one(div, f, egl, ov[j], tv[j]);
            rv[j] = x;
            av[j] = (int32_t)((uint32_t)tv[j] - (uint32_t)x);
            x = dec_s123_one(div, f, egl, od[j], td[j]);
            rd[j] = x;
            ad[j] = (int32_t)((uint32_t)td[j] - (uint32_t)x);
        }
    }
}

/* ------------------------------------------------------------------------
 * CSF
 * ---------------------------------------------------------------------- */

/*
 * adm_csf: v = wrap16((I * x + o) >> s), (o, s) = (16384, 15) for h, v and
 * (65535, 17) for d; f = wrap16(R_12(4369 * |v|)). Writes v to `val` and f
 * to `flt` over the decouple region.
 */
ADM_HOT
static inline void csf_s0(AdmPriv *p, int16_t *const src[4], int16_t *const val[4],
                   int16_t *const flt[4])
{
    static const int32_t add[3] = { 16384, 16384, 65535 };
    static const int sh[3] = { 15, 15, 17 };
    const VgAdmRegion *rg = &p->sc[0].dec;
    for (int b = 0; b < 3; b++) {
        const int32_t fac = p->fac.s0[b];
        const int32_t ad = add[b];
        const int shift = sh[b];
        for (int i = rg->top; i < rg->bottom; i++) {
            const ptrdiff_t o = i * p->bs0;
            const int16_t *restrict x = src[BH + b] + o;
            int16_t *restrict v = val[BH + b] + o, *restrict f = flt[BH + b] + o;
            for (int j = rg->left; j < rg->right; j++) {
                int16_t c = (int16_t)((fac * x[j] + ad) >> shift);
                int32_t m = c < 0 ? -c : c;
                v[j] = c;
                f[j] = (int16_t)((VG_ADM_ONE_BY_30_S0 * m + 2048) >> 12);
            }
        }
    }
}

/*
 * i4_adm_csf: v = int32((I * x + 2^27) >> 28) (I in Q32);
 * f = int32((143165577 * |v| - 2^31) >> 32): libvmaf's rounding term
 * (1u << 31) is stored in an int32 and becomes -2^31, so f(0) = -1.
 */
ADM_HOT
static inline void csf_s123(AdmPriv *p, int s, int32_t *const src[4],
                     int32_t *const val[4], int32_t *const flt[4])
{
    const VgAdmRegion *rg = &p->sc[s].dec;
    for (int b = 0; b < 3; b++) {
        const int64_t fac = p->fac.s123[s][b];
        for (int i = rg->top; i < rg->bottom; i++) {
            const ptrdiff_t o = i * p->bs1;
            const int32_t *restrict x = src[BH + b] + o;
            int32_t *restrict v = val[BH + b] + o, *restrict f = flt[BH + b] + o;
            for (int j = rg->left; j < rg->right; j++) {
                int32_t c = (int32_t)((fac * x[j] + (1 << 27)) >> 28);
                uint32_t m = c < 0 ? -(uint32_t)c : (uint32_t)c;
                v[j] = c;
                f[j] = (int32_t)(((int64_t)VG_ADM_ONE_BY_30_S123 * (int32_t)m
                                  - 2147483648LL) >> 32);
            }
        }
    }
}

/* ------------------------------------------------------------------------
 * Denominator
 * ---------------------------------------------------------------------- */

/*
 * adm_csf_den_scale: sum |b|^3 (uint64) per row, rows rounded by
 * sigma = max(0, ceil(log2(area) - 20)); csf = total / 2^(18 - sigma) * f^3.
 */
ADM_HOT
static inline float den_s0(AdmPriv *p, double nw)
{
    const VgAdmScale *sc = &p->sc[0];
    const VgAdmRegion *rg = &sc->cm;
    const uint32_t sh = sc->den_cub_shift;
    const uint64_t add = sh > 0 ? 1ull << (sh - 1) : 0;
    uint64_t tot[3];
    for (int b = 0; b < 3; b++) {
        uint64_t total = 0;
        for (int i = rg->top; i < rg->bottom; i++) {
            const int16_t *restrict x = p->ref16[BH + b] + i * p->bs0;
            uint64_t row = 0;
            for (int j = rg->left; j < rg->right; j++) {
                uint64_t m = (uint16_t)abs(x[j]);
                row += m * m * m;
            }
            total += (row + add) >> sh;
        }
        tot[b] = total;
    }
    return vg_adm_den_score(sc, &p->fac, 0, tot, nw);
}

/*
 * adm_csf_den_s123: q = (b^2 + 2^e) >> e (the offset is the full divisor),
 * e = 31, 30, 31; val = R_c(q * |b|), c = ceil(log2(region width)); rows
 * rounded by rho = ceil(log2(region height));
 * csf = total / 2^(K - rho - c) * f^3, K = 32, 27, 23.
 */
ADM_HOT
static inline float den_s123(AdmPriv *p, int s, double nw)
{
    static const uint32_t esq[4] = { 0, 31, 30, 31 };
    const VgAdmScale *sc = &p->sc[s];
    const VgAdmRegion *rg = &sc->cm;
    const uint32_t e = esq[s];
    const uint64_t eadd = 1ull << e;
    const uint32_t c = sc->den_cub_shift, rho = sc->den_row_shift;
    const uint64_t cadd = c > 0 ? 1ull << (c - 1) : 0;
    const uint64_t radd = rho > 0 ? 1ull << (rho - 1) : 0;
    uint64_t tot[3];
    for (int b = 0; b < 3; b++) {
        uint64_t total = 0;
        for (int i = rg->top; i < rg->bottom; i++) {
            const int32_t *restrict x = p->ref32[BH + b] + i * p->bs1;
            uint64_t row = 0;
            for (int j = rg->left; j < rg->right; j++) {
                uint64_t m = x[j] < 0 ? -(uint32_t)x[j] : (uint32_t)x[j];
                uint64_t q = (m * m + eadd) >> e;
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
#define COLSUMS(name, T)                                                      \
static inline void name(T *const flt[4], ptrdiff_t r0, ptrdiff_t r1,          \
                        ptrdiff_t r2, int left, int right, int w,             \
                        int32_t *restrict cs)                                 \
{                                                                             \
    const T *restrict h0 = flt[BH] + r0, *restrict h1 = flt[BH] + r1;         \
    const T *restrict h2 = flt[BH] + r2, *restrict v0 = flt[BV] + r0;         \
    const T *restrict v1 = flt[BV] + r1, *restrict v2 = flt[BV] + r2;         \
    const T *restrict d0 = flt[BD] + r0, *restrict d1 = flt[BD] + r1;         \
    const T *restrict d2 = flt[BD] + r2;                                      \
    int c = mirror_idx(left - 1, w);                                          \
    cs[0] = h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] +                   \
            d0[c] + d1[c] + d2[c];                                            \
    for (c = left; c < right; c++)                                            \
        cs[c - left + 1] = h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] +    \
                           d0[c] + d1[c] + d2[c];                             \
    c = mirror_idx(right, w);                                                 \
    cs[right - left + 1] = h0[c] + h1[c] + h2[c] + v0[c] + v1[c] + v2[c] +    \
                           d0[c] + d1[c] + d2[c];                             \
}
COLSUMS(colsums_s0, int16_t)
COLSUMS(colsums_s123, int32_t)
#undef COLSUMS

/* adm_cm / i4_adm_cm: the region is [top, bottom) x [left, right); each
 * row is summed in int64 and added as R_rho(rowsum) (the libvmaf edge
 * special cases reduce to this since top, left >= 0 and right = w - left) */

ADM_HOT
static inline float cm_s0(AdmPriv *p, int16_t *const x[4], int16_t *const cval[4],
                   int16_t *const flt[4], double nw)
{
    const VgAdmScale *sc = &p->sc[0];
    const VgAdmRegion *rg = &sc->cm;
    const int w = sc->w, h = sc->h;
    const int left = rg->left, right = rg->right;
    const int n = right - left;
    const uint32_t rho = sc->cm_row_shift;
    const int64_t radd = rho > 0 ? 1ll << (rho - 1) : 0;
    static const int sub_shift[3] = { 10, 10, 12 };
    static const int sq_shift[3] = { 29, 29, 30 };
    int64_t total[3] = { 0, 0, 0 };
    int32_t *cs = p->cs, *thr = p->thr;

    for (int i = rg->top; i < rg->bottom; i++) {
        const ptrdiff_t r0 = mirror_idx(i - 1, h) * p->bs0;
        const ptrdiff_t r1 = i * p->bs0;
        const ptrdiff_t r2 = mirror_idx(i + 1, h) * p->bs0;
        colsums_s0(flt, r0, r1, r2, left, right, w, cs);
        for (int k = 0; k < n; k++) {
            const int j = left + k;
            int32_t t = cs[k] + cs[k + 1] + cs[k + 2];
            for (int b = 1; b < 4; b++) {
                int32_t cv = cval[b][r1 + j];
                int32_t m = cv < 0 ? -cv : cv;
                /* centre: wrap16(R_12(8738 * |C|)) */
                t += (int16_t)((VG_ADM_ONE_BY_15_S0 * m + 2048) >> 12) -
                     flt[b][r1 + j];
            }
            thr[k] = t;
        }
        for (int b = 0; b < 3; b++) {
            const int32_t fac = p->fac.s0[b];
            const int us = sub_shift[b];
            const int qs = sq_shift[b];
            const int64_t qadd = 1ll << (qs - 1);
            const uint32_t cub = sc->cm_cub_shift[b];
            const int64_t cadd = (int64_t)(1ull << (cub - 1));
            const int16_t *restrict xr = x[BH + b] + r1 + left;
            int64_t row = 0;
            for (int k = 0; k < n; k++) {
                int32_t v = xr[k] * fac;
                uint32_t av = v < 0 ? -(uint32_t)v : (uint32_t)v;
                /* int32 wrap of abs(x) - (thr << u), as compiled */
                int32_t d = (int32_t)(av - ((uint32_t)thr[k] << us));
                d = d < 0 ? 0 : d;
                int32_t sq = (int32_t)(((int64_t)d * d + qadd) >> qs);
                row += ((int64_t)sq * d + cadd) >> cub;
            }
            total[b] += (row + radd) >> rho;
        }
    }

    return vg_adm_cm_score(sc, 0, total, nw);
}

ADM_HOT
static inline float cm_s123(AdmPriv *p, int s, int32_t *const x[4],
                     int32_t *const cval[4], int32_t *const flt[4], double nw)
{
    const VgAdmScale *sc = &p->sc[s];
    const VgAdmRegion *rg = &sc->cm;
    const int w = sc->w, h = sc->h;
    const int left = rg->left, right = rg->right;
    const int n = right - left;
    const uint32_t rho = sc->cm_row_shift;
    const int64_t radd = rho > 0 ? 1ll << (rho - 1) : 0;
    const uint32_t cub = sc->cm_cub_shift[0];
    const int64_t cadd = (int64_t)(1ull << (cub - 1));
    int64_t total[3] = { 0, 0, 0 };
    int32_t *cs = p->cs, *thr = p->thr;

    for (int i = rg->top; i < rg->bottom; i++) {
        const ptrdiff_t r0 = mirror_idx(i - 1, h) * p->bs1;
        const ptrdiff_t r1 = i * p->bs1;
        const ptrdiff_t r2 = mirror_idx(i + 1, h) * p->bs1;
        colsums_s123(flt, r0, r1, r2, left, right, w, cs);
        for (int k = 0; k < n; k++) {
            const int j = left + k;
            int32_t t = cs[k] + cs[k + 1] + cs[k + 2];
            for (int b = 1; b < 4; b++) {
                int32_t cv = cval[b][r1 + j];
                uint32_t m = cv < 0 ? -(uint32_t)cv : (uint32_t)cv;
                /* centre: int32((286331153 * |C| - 2^31) >> 32) */
                t += (int32_t)(((int64_t)VG_ADM_ONE_BY_15_S123 * (int32_t)m -
                                2147483648LL) >> 32) - flt[b][r1 + j];
            }
            thr[k] = t;
        }
        for (int b = 0; b < 3; b++) {
            const int64_t fac = p->fac.s123[s][b];
            const int32_t *restrict xr = x[BH + b] + r1 + left;
            int64_t row = 0;
            for (int k = 0; k < n; k++) {
                int32_t v = (int32_t)((xr[k] * fac + (1 << 27)) >> 28);
                uint32_t av = v < 0 ? -(uint32_t)v : (uint32_t)v;
                int32_t d = (int32_t)(av - (uint32_t)thr[k]);
                d = d < 0 ? 0 : d;
                int32_t sq = (int32_t)(((int64_t)d * d + 536870912) >> 30);
                row += ((int64_t)sq * d + cadd) >> cub;
            }
            total[b] += (row + radd) >> rho;
        }
    }

    return vg_adm_cm_score(sc, s, total, nw);
}

/* ------------------------------------------------------------------------
 * Feature glue
 * ---------------------------------------------------------------------- */

static void adm_close(VgFeatureCtx *fc)
{
    AdmPriv *p = fc->priv;
    free(p->mem);
    p->mem = NULL;
}

static void *carve(char **top, size_t bytes)
{
    void *r = *top;
    *top += (bytes + 63) & ~(size_t)63;
    return r;
}

static int adm_init(VgFeatureCtx *fc)
{
    AdmPriv *p = fc->priv;
    const VgAdmOpts *o = fc->opts;
    int ret;

    if (fc->width < VG_ADM_MIN_SIZE || fc->height < VG_ADM_MIN_SIZE) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: %ux%u is below the minimum "
               "frame size %dx%d", fc->width, fc->height, VG_ADM_MIN_SIZE,
               VG_ADM_MIN_SIZE);
        return -EINVAL;
    }
    p->frame = adm_frame_c;
#if ADM_HAVE_AVX2
    if (vg_cpu_flags() & VG_CPU_FLAG_AVX2)
        p->frame = adm_frame_avx2;
#endif
    if (fc->bpc < 8 || fc->bpc > 16) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: unsupported bit depth %u", fc->bpc);
        return -EINVAL;
    }
    ret = vg_adm_factors(o, &p->fac, fc->log);
    if (ret < 0)
        return ret;
    p->div = vg_adm_div_lookup();
    p->cos1 = vg_adm_cos1_sq();
    vg_adm_scales(fc->width, fc->height, p->sc);

    const int w0 = p->sc[0].w, h0 = p->sc[0].h;
    const int w1 = p->sc[1].w, h1 = p->sc[1].h;
    p->bs0 = (w0 + 31) & ~31;
    p->bs1 = (w1 + 15) & ~15;
    const size_t b16 = (size_t)p->bs0 * h0 * sizeof(int16_t);
    const size_t b32 = (size_t)p->bs1 * h1 * sizeof(int32_t);
    size_t total = 0;
    total += 20 * ((b16 + 63) & ~(size_t)63);
    total += 28 * ((b32 + 63) & ~(size_t)63);
    for (int s = 0; s < VG_ADM_NB_SCALES; s++)
        total += ((4 * sizeof(int) * p->sc[s].h + 63) & ~(size_t)63) +
                 ((4 * sizeof(int) * p->sc[s].w + 63) & ~(size_t)63);
    total += ((4 * sizeof(int32_t) * (size_t)fc->width + 63) & ~(size_t)63);
    total += 2 * ((sizeof(int32_t) * (size_t)(w0 + 2) + 63) & ~(size_t)63);
    total += 64;

    p->mem = calloc(1, total);
    if (!p->mem) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: out of memory (%zu bytes)", total);
        return -ENOMEM;
    }
    char *top = (char *)(((uintptr_t)p->mem + 63) & ~(uintptr_t)63);
    for (int b = 0; b < 4; b++) {
        p->ref16[b] = carve(&top, b16);
        p->dis16[b] = carve(&top, b16);
        if (b == BA)
            continue;
        p->r16[b] = carve(&top, b16);
        p->a16[b] = carve(&top, b16);
        p->ca16[b] = carve(&top, b16);
        p->cf16[b] = carve(&top, b16);
    }
    for (int b = 0; b < 4; b++) {
        if (b == BA) {
            for (int k = 0; k < 2; k++) {
                p->refa32[k] = carve(&top, b32);
                p->disa32[k] = carve(&top, b32);
            }
            continue;
        }
        p->ref32[b] = carve(&top, b32);
        p->dis32[b] = carve(&top, b32);
        p->r32[b] = carve(&top, b32);
        p->a32[b] = carve(&top, b32);
        p->ca32[b] = carve(&top, b32);
        p->cf32[b] = carve(&top, b32);
    }
    for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
        p->iy[s] = carve(&top, 4 * sizeof(int) * p->sc[s].h);
        p->ix[s] = carve(&top, 4 * sizeof(int) * p->sc[s].w);
        build_indices(p->iy[s], p->sc[s].in_h);
        build_indices(p->ix[s], p->sc[s].in_w);
    }
    p->tmp = carve(&top, 4 * sizeof(int32_t) * (size_t)fc->width);
    p->cs = carve(&top, sizeof(int32_t) * (size_t)(w0 + 2));
    p->thr = carve(&top, sizeof(int32_t) * (size_t)(w0 + 2));
    return 0;
}

/* One frame's scales: the per-scale float values for vg_adm_finish(). */
ADM_HOT
static inline void adm_frame(AdmPriv *p, const VgAdmOpts *o, unsigned bpc,
                             const VgImage *ref, const VgImage *dis,
                             float num_s[VG_ADM_NB_SCALES],
                             float den_s[VG_ADM_NB_SCALES],
                             float aim_s[VG_ADM_NB_SCALES])
{
    /* ---- scale 0, int16 ---- */
    if (bpc == 8) {
        dwt_s0_8(p, ref, p->ref16);
        dwt_s0_8(p, dis, p->dis16);
    } else {
        dwt_s0_16(p, ref, p->ref16);
        dwt_s0_16(p, dis, p->dis16);
    }
    if (o->skip_scale0) {
        /* adm_dwt2_8_lo/16_lo: only the low-pass band; den 1e-10f */
        num_s[0] = 0.0f;
        den_s[0] = 1e-10f;
    } else {
        decouple_s0(p, o->enhn_gain_limit);
        den_s[0] = den_s0(p, o->noise_weight);
        csf_s0(p, p->a16, p->ca16, p->cf16);
        num_s[0] = cm_s0(p, p->r16, p->ca16, p->cf16, o->noise_weight);
        if (!o->skip_aim) {
            /* AIM: csf of r (values into cf, |.|/30 into ca), mask a by r */
            csf_s0(p, p->r16, p->cf16, p->ca16);
            aim_s[0] = cm_s0(p, p->a16, p->cf16, p->ca16, 0.0);
        }
    }

    /* ---- scales 1..3, int32 ---- */
    for (int s = 1; s < VG_ADM_NB_SCALES; s++) {
        int32_t *rb[4] = { p->refa32[(s - 1) & 1], p->ref32[BH], p->ref32[BV], p->ref32[BD] };
        int32_t *db[4] = { p->disa32[(s - 1) & 1], p->dis32[BH], p->dis32[BV], p->dis32[BD] };
        if (s == 1) {
            dwt_s1(p, p->ref16[BA], rb);
            dwt_s1(p, p->dis16[BA], db);
        } else {
            dwt_s23(p, s, p->refa32[s & 1], rb);
            dwt_s23(p, s, p->disa32[s & 1], db);
        }
        decouple_s123(p, s, o->enhn_gain_limit);
        den_s[s] = den_s123(p, s, o->noise_weight);
        csf_s123(p, s, p->a32, p->ca32, p->cf32);
        num_s[s] = cm_s123(p, s, p->r32, p->ca32, p->cf32, o->noise_weight);
        if (!o->skip_aim) {
            csf_s123(p, s, p->r32, p->cf32, p->ca32);
            aim_s[s] = cm_s123(p, s, p->a32, p->cf32, p->ca32, 0.0);
        }
    }

}

ADM_O3
static void adm_frame_c(AdmPriv *p, const VgAdmOpts *o, unsigned bpc,
                        const VgImage *ref, const VgImage *dis, float *num_s,
                        float *den_s, float *aim_s)
{
    adm_frame(p, o, bpc, ref, dis, num_s, den_s, aim_s);
}

#if ADM_HAVE_AVX2
__attribute__((target("avx2"))) ADM_O3
static void adm_frame_avx2(AdmPriv *p, const VgAdmOpts *o, unsigned bpc,
                           const VgImage *ref, const VgImage *dis,
                           float *num_s, float *den_s, float *aim_s)
{
    adm_frame(p, o, bpc, ref, dis, num_s, den_s, aim_s);
}
#endif

static int adm_extract(VgFeatureCtx *fc, const VgFrame *frame)
{
    AdmPriv *p = fc->priv;
    const VgAdmOpts *o = fc->opts;
    const VgImage *ref = frame->ref, *dis = frame->dis;
    float num_s[VG_ADM_NB_SCALES], den_s[VG_ADM_NB_SCALES];
    float aim_s[VG_ADM_NB_SCALES] = { 0.0f, 0.0f, 0.0f, 0.0f };

    /* integer_adm.c extract(): the 16-bit pipeline cannot handle an
     * angular frequency below 1080p at 3H */
    if (o->norm_view_dist * o->ref_display_height < 3.0 * 1080) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: adm_norm_view_dist * "
               "adm_ref_display_height = %g is below 3240 (1080 lines at "
               "3H), which integer ADM cannot handle",
               o->norm_view_dist * o->ref_display_height);
        return -EINVAL;
    }
    if (ref->w[0] != fc->width || ref->h[0] != fc->height ||
        dis->w[0] != fc->width || dis->h[0] != fc->height ||
        ref->bpc != fc->bpc || dis->bpc != fc->bpc) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: picture geometry changed");
        return -EINVAL;
    }

    p->frame(p, o, fc->bpc, ref, dis, num_s, den_s, aim_s);
    return vg_adm_finish(fc, frame->index, num_s, den_s, aim_s);
}

const VgFeatureImpl vg_cpu_adm = {
    .priv_size = sizeof(AdmPriv),
    .init = adm_init,
    .extract = adm_extract,
    .close = adm_close,
};
