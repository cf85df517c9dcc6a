/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM, per-element arithmetic of the CUDA kernels (gpu/adm.cu) and
 * the steps of the decouple + CM kernel, written as __host__ __device__
 * functions so that tests/gpu/adm_host.cu runs the very same code on the
 * host against cpu/adm.c. Every integer
 * width, shift and rounding is libvmaf v3.2.0 src/feature/integer_adm.c's
 * portable C path as cpu/adm.c reproduces it (the function each step comes
 * from is named); signed overflows that x86-64 compiles to a wrap are
 * written with unsigned arithmetic. The float/double angle test and
 * enhancement limit use the CPU's operations in the CPU's order; the
 * fatbin is built with -fmad=false, so no product is fused into an add.
 */

#ifndef VG_GPU_ADM_OPS_CUH
#define VG_GPU_ADM_OPS_CUH

#include <stdint.h>

#include "common/features/adm_params.h"

#define VG_ADM_HD __host__ __device__ __forceinline__

/* integer_adm.h dwt2_db2_coeffs_lo / dwt2_db2_coeffs_hi, Q15 */
#define VG_ADM_L0 15826
#define VG_ADM_L1 27411
#define VG_ADM_L2 7345
#define VG_ADM_L3 (-4240)
#define VG_ADM_H0 (-4240)
#define VG_ADM_H1 (-7345)
#define VG_ADM_H2 27411
#define VG_ADM_H3 (-15826)
/* integer_adm.h dwt2_db2_coeffs_lo_sum */
#define VG_ADM_LSUM 46342

VG_ADM_HD int vg_adm_clz32(uint32_t x)
{
#ifdef __CUDA_ARCH__
    return __clz((int)x);
#else
    return __builtin_clz(x);
#endif
}

/** integer_adm.h div_lookup_generator(): entry 32768 + i = 2^30 / i. */
VG_ADM_HD int32_t vg_adm_recip(int32_t i)
{
    return i > 0 ? (int32_t)(1073741824 / i) : -(int32_t)(1073741824 / -i);
}

/* ---- DWT ----------------------------------------------------------------- */

/** Input index v of a DWT tap, mirrored as dwt2_src_indices_filt() does
 *  (-1 -> 1, n + m -> n - 1 - m). The kernels also ask for -2 (lane 0 of
 *  a row's first warp lends column -2, unused), which gives 2: inputs have
 *  at least 5 samples (VG_ADM_MIN_SIZE 33 at scale 0). Taps of outputs
 *  past the band's end on small bands (read, never used) are clamped to
 *  0. */
VG_ADM_HD int vg_adm_dwt_mirror(int v, int n)
{
    v = v < 0 ? -v : v >= n ? 2 * n - v - 1 : v;
    return v < 0 ? 0 : v;
}

/**
 * adm_dwt2_8 / adm_dwt2_16, vertical, one input column: lo = (sum L p -
 * 46342 2^(b-1) + 2^(b-1)) >> b, hi = (sum H p + 2^(b-1)) >> b in
 * modulo-2^32 arithmetic (libvmaf's int32 sums wrap for 16 bits; the true
 * values fit), stored int16.
 */
VG_ADM_HD void vg_adm_dwt_s0_v(int bpc, uint32_t s0, uint32_t s1, uint32_t s2,
                               uint32_t s3, int32_t *lo, int32_t *hi)
{
    const uint32_t rnd = 1u << (bpc - 1);
    const uint32_t dc = (uint32_t)VG_ADM_LSUM * rnd;
    const uint32_t l = (uint32_t)VG_ADM_L0 * s0 + (uint32_t)VG_ADM_L1 * s1 +
                       (uint32_t)VG_ADM_L2 * s2 + (uint32_t)VG_ADM_L3 * s3 -
                       dc + rnd;
    const uint32_t h = (uint32_t)VG_ADM_H0 * s0 + (uint32_t)VG_ADM_H1 * s1 +
                       (uint32_t)VG_ADM_H2 * s2 + (uint32_t)VG_ADM_H3 * s3 +
                       rnd;
    *lo = (int16_t)((int32_t)l >> bpc);
    *hi = (int16_t)((int32_t)h >> bpc);
}

/** Tap k of the low-pass (hp = 0) or high-pass (hp = 1) filter. */
VG_ADM_HD int32_t vg_adm_dwt_tap(int hp, int k)
{
    static const int16_t taps[2][4] = {
        { VG_ADM_L0, VG_ADM_L1, VG_ADM_L2, VG_ADM_L3 },
        { VG_ADM_H0, VG_ADM_H1, VG_ADM_H2, VG_ADM_H3 },
    };
    return taps[hp][k];
}

/** adm_dwt2_8 / adm_dwt2_16, horizontal: R_16 of the low-pass (hp = 0) or
 *  high-pass (hp = 1) taps over four vertical results, int32 -> int16. */
VG_ADM_HD int16_t vg_adm_dwt_s0_h(int hp, int32_t v0, int32_t v1, int32_t v2,
                                  int32_t v3)
{
    return (int16_t)((vg_adm_dwt_tap(hp, 0) * v0 + vg_adm_dwt_tap(hp, 1) * v1 +
                      vg_adm_dwt_tap(hp, 2) * v2 + vg_adm_dwt_tap(hp, 3) * v3 +
                      32768) >>
                     16);
}

/** adm_dwt2_s123_combined, vertical, one input column: int64 sums,
 *  (sum + vrnd) >> vsh, int32. */
VG_ADM_HD void vg_adm_dwt_s123_v(const VgAdmDwtParams *p, int64_t s0,
                                 int64_t s1, int64_t s2, int64_t s3,
                                 int64_t *lo, int64_t *hi)
{
    *lo = (int32_t)((VG_ADM_L0 * s0 + VG_ADM_L1 * s1 + VG_ADM_L2 * s2 +
                     VG_ADM_L3 * s3 + p->vrnd) >>
                    p->vsh);
    *hi = (int32_t)((VG_ADM_H0 * s0 + VG_ADM_H1 * s1 + VG_ADM_H2 * s2 +
                     VG_ADM_H3 * s3 + p->vrnd) >>
                    p->vsh);
}

/** adm_dwt2_s123_combined, horizontal: (sum + hrnd) >> hsh of the low-pass
 *  (hp = 0) or high-pass (hp = 1) taps, int64 sums, int32 result. */
VG_ADM_HD int32_t vg_adm_dwt_s123_h(const VgAdmDwtParams *p, int hp, int64_t v0,
                                    int64_t v1, int64_t v2, int64_t v3)
{
    return (int32_t)((vg_adm_dwt_tap(hp, 0) * v0 + vg_adm_dwt_tap(hp, 1) * v1 +
                      vg_adm_dwt_tap(hp, 2) * v2 + vg_adm_dwt_tap(hp, 3) * v3 +
                      p->hrnd) >>
                     p->hsh);
}

/**
 * The four bands at output (i, j) of image z from the vertical results
 * lo[c], hi[c] of its input columns 2 j - 1 + c: a = L(lo), v = H(lo),
 * h = L(hi), d = H(hi). S0: adm_dwt2_8 / _16 (int16 bands), else
 * adm_dwt2_s123_combined (int32 bands).
 */
template <int S0, typename V>
VG_ADM_HD void vg_adm_dwt_store(const VgAdmDwtParams *p, int z, int i, int j,
                                const V lo[4], const V hi[4])
{
    const int64_t off = (int64_t)i * p->dst_pitch + (int64_t)j * (S0 ? 2 : 4);
    const V *in[4] = { lo, lo, hi, hi };
    static const int band[4] = { VG_ADM_BA, VG_ADM_BV, VG_ADM_BH, VG_ADM_BD };

    for (int k = 0; k < 4; k++) {
        uint8_t *d = (uint8_t *)(uintptr_t)p->dst[z][band[k]] + off;
        const V *v = in[k];
        if constexpr (S0)
            *(int16_t *)d = vg_adm_dwt_s0_h(k & 1, (int32_t)v[0], (int32_t)v[1],
                                            (int32_t)v[2], (int32_t)v[3]);
        else
            *(int32_t *)d = vg_adm_dwt_s123_h(p, k & 1, v[0], v[1], v[2], v[3]);
    }
}

/**
 * The four bands at output (i, j) of image z, one output at a time (the
 * kernels compute each input column once for a warp's outputs). T: the
 * input sample type, uint8_t or uint16_t at scale 0 (S0), int16_t at
 * scale 1 (the scale-0 LL band, i16_to_i32 in libvmaf), int32_t at 2, 3.
 */
template <int S0, typename T>
VG_ADM_HD void vg_adm_dwt_elem(const VgAdmDwtParams *p, int z, int i, int j)
{
    const uint8_t *src = (const uint8_t *)(uintptr_t)p->src[z];
    const T *row[4];
    int64_t lo[4], hi[4];

    for (int k = 0; k < 4; k++)
        row[k] = (const T *)(src + (int64_t)vg_adm_dwt_mirror(2 * i - 1 + k,
                                                              p->in_h) *
                                       p->src_pitch);
    for (int c = 0; c < 4; c++) {
        const int x = vg_adm_dwt_mirror(2 * j - 1 + c, p->in_w);
        if constexpr (S0) {
            int32_t l, h;
            vg_adm_dwt_s0_v(p->bpc, row[0][x], row[1][x], row[2][x], row[3][x],
                            &l, &h);
            lo[c] = l;
            hi[c] = h;
        } else {
            vg_adm_dwt_s123_v(p, row[0][x], row[1][x], row[2][x], row[3][x],
                              &lo[c], &hi[c]);
        }
    }
    vg_adm_dwt_store<S0>(p, z, i, j, lo, hi);
}

/* ---- decouple and CSF ------------------------------------------------------ */

/**
 * adm_decouple / adm_decouple_s123 angle test: int64 dot products rounded
 * to float, then compared in double, left to right (the /4096 scalings are
 * exact). Products only, so nothing can be contracted into an FMA.
 */
VG_ADM_HD int vg_adm_angle_flag(float c, int64_t oh, int64_t ov, int64_t th,
                                int64_t tv)
{
    const int64_t ot = oh * th + ov * tv;
    const int64_t oo = oh * oh + ov * ov;
    const int64_t tt = th * th + tv * tv;
    const double a = (double)(float)ot / 4096.0;
    const double o = (double)(float)oo / 4096.0;
    const double t = (double)(float)tt / 4096.0;
    return a >= 0.0 && a * a >= ((double)c * o) * t;
}

/** adm_decouple, one band at scale 0: restored value r (int16). */
VG_ADM_HD int16_t vg_adm_dec_s0(int flag, double egl, int16_t o, int16_t t)
{
    int32_t k = 32768;
    if (o != 0) {
        const int64_t q = ((int64_t)vg_adm_recip(o) * t + 16384) >> 15;
        k = q < 0 ? 0 : q > 32768 ? 32768 : (int32_t)q;
    }
    int16_t rst = (int16_t)((k * o + 16384) >> 15);
    if (flag && k > 0 && o != 0) {
        const double e = rst * egl;
        if (o > 0)
            rst = (int16_t)(e < t ? e : (double)t);
        else
            rst = (int16_t)(e > t ? e : (double)t);
    }
    return rst;
}

/** adm_decouple_s123, one band: restored value r (int32); |o| reduced to
 *  15 significant bits first (get_best15_from32). */
VG_ADM_HD int32_t vg_adm_dec_s123(int flag, double egl, int32_t o, int32_t t)
{
    int64_t k = 32768;
    if (o != 0) {
        uint32_t m = o < 0 ? 0u - (uint32_t)o : (uint32_t)o;
        int sh = 0;
        if (m >= 32768) {
            sh = 17 - vg_adm_clz32(m);
            m = (m + (1u << (sh - 1))) >> sh;
        }
        /* (1 << (14 + sh)) is an int in libvmaf: 2^31 wraps to -2^31 */
        const int64_t rnd = (int32_t)(1u << (14 + sh));
        const int64_t q =
            (((int64_t)vg_adm_recip((int32_t)m) * t) * (o < 0 ? -1 : 1) +
             rnd) >>
            (15 + sh);
        k = q < 0 ? 0 : q > 32768 ? 32768 : q;
    }
    int32_t rst = (int32_t)((k * o + 16384) >> 15);
    if (flag && k > 0 && o != 0) {
        const double e = rst * egl;
        if (o > 0)
            rst = (int32_t)(e < t ? e : (double)t);
        else
            rst = (int32_t)(e > t ? e : (double)t);
    }
    return rst;
}

/** adm_csf, band b (0 h, 1 v, 2 d): value wrap16((I x + o) >> s), (o, s) =
 *  (16384, 15) for h, v and (65535, 17) for d. */
VG_ADM_HD int16_t vg_adm_csf_s0(int b, int32_t fac, int16_t x)
{
    const int32_t add = b == 2 ? 65535 : 16384;
    const int sh = b == 2 ? 17 : 15;
    return (int16_t)((fac * x + add) >> sh);
}

/** adm_csf: |value| / 30 = wrap16(R_12(4369 |v|)) (FIX_ONE_BY_30). */
VG_ADM_HD int16_t vg_adm_csf_f_s0(int16_t c)
{
    const int32_t m = c < 0 ? -c : c;
    return (int16_t)((4369 * m + 2048) >> 12);
}

/** i4_adm_csf: value int32((I x + 2^27) >> 28), I in Q32. */
VG_ADM_HD int32_t vg_adm_csf_s123(uint32_t fac, int32_t x)
{
    return (
        int32_t)((int64_t)((uint64_t)(int64_t)x * (uint64_t)fac + (1u << 27)) >>
                 28);
}

/** i4_adm_csf: |value| / 30 = int32((143165577 |v| - 2^31) >> 32); the
 *  rounding term 1u << 31 is stored in an int32 in libvmaf (-2^31). */
VG_ADM_HD int32_t vg_adm_csf_f_s123(int32_t c)
{
    const uint32_t m = c < 0 ? 0u - (uint32_t)c : (uint32_t)c;
    return (int32_t)(((int64_t)143165577 * (int32_t)m - 2147483648LL) >> 32);
}

#define VG_ADM_AT(T, base, pitch, i, j)                                        \
    (*(T *)((uint8_t *)(uintptr_t)(base) + (int64_t)(i) * (pitch) +            \
            (int64_t)(j) * sizeof(T)))

/** adm_cm: centre term of the masking threshold, |csf| / 15 =
 *  wrap16(R_12(8738 |c|)) (ONE_BY_15). */
VG_ADM_HD int16_t vg_adm_csf_f15_s0(int16_t c)
{
    const int32_t m = c < 0 ? -c : c;
    return (int16_t)((8738 * m + 2048) >> 12);
}

/** i4_adm_cm: centre term, |csf| / 15 = int32((286331153 |c| - 2^31) >> 32)
 *  (I4_ONE_BY_15). */
VG_ADM_HD int32_t vg_adm_csf_f15_s123(int32_t c)
{
    const uint32_t m = c < 0 ? 0u - (uint32_t)c : (uint32_t)c;
    return (int32_t)(((int64_t)286331153 * (int32_t)m - 2147483648LL) >> 32);
}

/* ---- contrast masking and denominator ------------------------------------ */

/** adm_cm / i4_adm_cm mirror of the 3x3 neighbourhood: -1 -> 1, n -> n - 1. */
VG_ADM_HD int vg_adm_cm_mirror(int v, int n)
{
    return v < 0 ? -v : v >= n ? n - 1 : v;
}

/** adm_cm, scale 0, band b: R_cub(sq X') with X = x I (int32),
 *  X' = max(0, |X| - (thr << u)), sq = R_29/R_30(X'^2). */
VG_ADM_HD int64_t vg_adm_cm_val_s0(int b, int32_t fac, uint32_t cub,
                                   int32_t thr, int16_t x)
{
    const int us = b == 2 ? 12 : 10;
    const int qs = b == 2 ? 30 : 29;
    const int32_t v = x * fac;
    const uint32_t av = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    int32_t d = (int32_t)(av - ((uint32_t)thr << us));
    d = d < 0 ? 0 : d;
    const int32_t sq = (int32_t)(((int64_t)d * d + (1ll << (qs - 1))) >> qs);
    return ((int64_t)sq * d + (int64_t)(1ull << (cub - 1))) >> cub;
}

/** i4_adm_cm, band b: X = int32((x I + 2^27) >> 28), X' = max(0, |X| - thr),
 *  sq = int32(R_30(X'^2)), R_cub(sq X'). */
VG_ADM_HD int64_t vg_adm_cm_val_s123(uint32_t fac, uint32_t cub, int32_t thr,
                                     int32_t x)
{
    const int32_t v = vg_adm_csf_s123(fac, x);
    const uint32_t av = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    int32_t d = (int32_t)(av - (uint32_t)thr);
    d = d < 0 ? 0 : d;
    const int32_t sq = (int32_t)(((int64_t)d * d + 536870912) >> 30);
    return ((int64_t)sq * d + (int64_t)(1ull << (cub - 1))) >> cub;
}

/** adm_csf_den_scale: |b|^3 (uint64). */
VG_ADM_HD uint64_t vg_adm_den_s0(int16_t x)
{
    const uint64_t m = (uint16_t)(x < 0 ? -x : x);
    return m * m * m;
}

/** adm_csf_den_s123: q = (b^2 + 2^e) >> e (full divisor), R_c(q |b|). */
VG_ADM_HD uint64_t vg_adm_den_s123(uint32_t e, uint32_t c, int32_t x)
{
    const uint64_t m = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
    const uint64_t q = (m * m + (1ull << e)) >> e;
    return (q * m + (c > 0 ? 1ull << (c - 1) : 0)) >> c;
}

/**
 * What the decoupling at one position gives the contrast masking. The
 * masking threshold of a position is the sum, over h, v and d, of the
 * 3 x 3 neighbours' |csf| / 30 and the centre's |csf| / 15, in int32 wrap
 * arithmetic (written unsigned), which any order gives exactly.
 */
typedef struct VgAdmDec {
    uint32_t f[2]; ///< sum over h, v, d of |csf(a)| / 30 [0], |csf(r)| / 30 [1]
    uint32_t
        cen[2]; ///< sum over h, v, d of |csf(a)| / 15 [0], |csf(r)| / 15 [1]
    int32_t r[3], a[3]; ///< restored and additive values, h, v, d
    uint64_t den[3];    ///< the reference's h, v, d energy (adm_csf_den_*)
} VgAdmDec;

/**
 * Decouple, both CSFs and the denominator terms at (i, j) of scale s
 * (adm_decouple, adm_csf, adm_csf_den_scale; i4 and _s123 for scales
 * 1..3). The AIM sums (f[1], cen[1]) only when p->aim.
 */
VG_ADM_HD void vg_adm_dec_pos(const VgAdmParams *p, int s, int i, int j,
                              VgAdmDec *d)
{
    const VgAdmBands *bd = &p->b[s];
    const int64_t pt = bd->pitch;

    d->f[0] = d->f[1] = d->cen[0] = d->cen[1] = 0;
    if (s == 0) {
        const int16_t oh = VG_ADM_AT(int16_t, bd->ref[VG_ADM_BH], pt, i, j);
        const int16_t ov = VG_ADM_AT(int16_t, bd->ref[VG_ADM_BV], pt, i, j);
        const int16_t th = VG_ADM_AT(int16_t, bd->dis[VG_ADM_BH], pt, i, j);
        const int16_t tv = VG_ADM_AT(int16_t, bd->dis[VG_ADM_BV], pt, i, j);
        const int flag = vg_adm_angle_flag(p->cos1, oh, ov, th, tv);
        for (int b = 0; b < 3; b++) {
            const int16_t o =
                b == 0   ? oh
                : b == 1 ? ov
                         : VG_ADM_AT(int16_t, bd->ref[VG_ADM_BD], pt, i, j);
            const int16_t t =
                b == 0   ? th
                : b == 1 ? tv
                         : VG_ADM_AT(int16_t, bd->dis[VG_ADM_BD], pt, i, j);
            const int16_t r = vg_adm_dec_s0(flag, p->egl, o, t);
            const int16_t a = (int16_t)(t - r);
            const int32_t fac = (int32_t)p->g[s].fac[b];
            const int16_t ca = vg_adm_csf_s0(b, fac, a);
            d->f[0] += (uint32_t)(int32_t)vg_adm_csf_f_s0(ca);
            d->cen[0] += (uint32_t)(int32_t)vg_adm_csf_f15_s0(ca);
            if (p->aim) {
                const int16_t cr = vg_adm_csf_s0(b, fac, r);
                d->f[1] += (uint32_t)(int32_t)vg_adm_csf_f_s0(cr);
                d->cen[1] += (uint32_t)(int32_t)vg_adm_csf_f15_s0(cr);
            }
            d->r[b] = r;
            d->a[b] = a;
            d->den[b] = vg_adm_den_s0(o);
        }
    } else {
        /* adm_csf_den_s123: e = 31, 30, 31 for scales 1, 2, 3 */
        const uint32_t e = s == 2 ? 30 : 31;
        const int32_t oh = VG_ADM_AT(int32_t, bd->ref[VG_ADM_BH], pt, i, j);
        const int32_t ov = VG_ADM_AT(int32_t, bd->ref[VG_ADM_BV], pt, i, j);
        const int32_t th = VG_ADM_AT(int32_t, bd->dis[VG_ADM_BH], pt, i, j);
        const int32_t tv = VG_ADM_AT(int32_t, bd->dis[VG_ADM_BV], pt, i, j);
        const int flag = vg_adm_angle_flag(p->cos1, oh, ov, th, tv);
        for (int b = 0; b < 3; b++) {
            const int32_t o =
                b == 0   ? oh
                : b == 1 ? ov
                         : VG_ADM_AT(int32_t, bd->ref[VG_ADM_BD], pt, i, j);
            const int32_t t =
                b == 0   ? th
                : b == 1 ? tv
                         : VG_ADM_AT(int32_t, bd->dis[VG_ADM_BD], pt, i, j);
            const int32_t r = vg_adm_dec_s123(flag, p->egl, o, t);
            const int32_t a = (int32_t)((uint32_t)t - (uint32_t)r);
            const uint32_t fac = p->g[s].fac[b];
            const int32_t ca = vg_adm_csf_s123(fac, a);
            d->f[0] += (uint32_t)vg_adm_csf_f_s123(ca);
            d->cen[0] += (uint32_t)vg_adm_csf_f15_s123(ca);
            if (p->aim) {
                const int32_t cr = vg_adm_csf_s123(fac, r);
                d->f[1] += (uint32_t)vg_adm_csf_f_s123(cr);
                d->cen[1] += (uint32_t)vg_adm_csf_f15_s123(cr);
            }
            d->r[b] = r;
            d->a[b] = a;
            d->den[b] = vg_adm_den_s123(e, p->g[s].den_cub, o);
        }
    }
}

/* ---- the decouple + CM kernel's tiles ---------------------------------- */

/*
 * A block takes a tile of VG_ADM_CM_TH rows and VG_ADM_CM_TW columns of a
 * scale's CM region, a warp a row of it, four columns per lane (lane +
 * 32 q). It decouples the tile and the ring of positions around it that
 * the 3 x 3 thresholds read (mirrored at the band's edges like adm_cm),
 * keeping the sums in shared memory, then masks the tile. The functions
 * below are the block's steps; the kernel (gpu/adm.cu) and
 * tests/gpu/adm_host.cu run them, the latter thread by thread.
 */

/** A tile: its scale, its first row and column in band coordinates, the
 *  rows and columns of it inside the CM region, its tile row. */
typedef struct VgAdmTile {
    int s, i0, j0, nr, nc, trow;
} VgAdmTile;

/** The tile's shared memory. f: the f sums of the tile and its ring, local
 *  position (y, x) at [y + 1][x + 1]; c: per position of the tile, r h v
 *  d, a h v d and the two centre sums, [value][q][warp][lane]. */
typedef struct VgAdmTileMem {
    uint32_t f[2][VG_ADM_CM_TH + 2][VG_ADM_CM_TW + 2];
    int32_t c[8][VG_ADM_CM_TW / 32][VG_ADM_CM_TH][32];
} VgAdmTileMem;

/** Flattened tile t of all scales. */
VG_ADM_HD VgAdmTile vg_adm_tile(const VgAdmParams *p, int t)
{
    VgAdmTile tl;
    int s = VG_ADM_CUDA_SCALES - 1;

    while (s > p->s_first && t < p->g[s].cm_tile0)
        s--;
    const VgAdmGeo *g = &p->g[s];
    const int u = t - g->cm_tile0;
    tl.s = s;
    tl.trow = u / g->cm_tiles_x;
    tl.i0 = g->ct + tl.trow * VG_ADM_CM_TH;
    tl.j0 = g->cl + (u % g->cm_tiles_x) * VG_ADM_CM_TW;
    tl.nr = g->cb - tl.i0 < VG_ADM_CM_TH ? g->cb - tl.i0 : VG_ADM_CM_TH;
    tl.nc = g->cr - tl.j0 < VG_ADM_CM_TW ? g->cr - tl.j0 : VG_ADM_CM_TW;
    return tl;
}

/** Step 1: thread (warp, lane) decouples its positions of the tile; the
 *  denominator terms go to acc[6..8]. */
VG_ADM_HD void vg_adm_tile_centre(const VgAdmParams *p, const VgAdmTile *tl,
                                  int warp, int lane, VgAdmTileMem *m,
                                  int64_t acc[9])
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int q = 0; q < VG_ADM_CM_TW / 32; q++) {
        const int x = lane + 32 * q;
        VgAdmDec d;

        if (warp >= tl->nr || x >= tl->nc)
            break;
        vg_adm_dec_pos(p, tl->s, tl->i0 + warp, tl->j0 + x, &d);
        m->f[0][warp + 1][x + 1] = d.f[0];
        m->c[6][q][warp][lane] = (int32_t)d.cen[0];
        for (int b = 0; b < 3; b++) {
            m->c[b][q][warp][lane] = d.r[b];
            acc[6 + b] += (int64_t)d.den[b];
        }
        if (p->aim) {
            m->f[1][warp + 1][x + 1] = d.f[1];
            m->c[7][q][warp][lane] = (int32_t)d.cen[1];
            for (int b = 0; b < 3; b++)
                m->c[3 + b][q][warp][lane] = d.a[b];
        }
    }
}

/** Positions of the tile's ring: the row above and below its rows inside
 *  the CM region, the column left and right of its columns. */
VG_ADM_HD int vg_adm_tile_ring_n(const VgAdmTile *tl)
{
    return 2 * (tl->nc + 2) + 2 * tl->nr;
}

/** Step 2 (any thread, k < vg_adm_tile_ring_n()): the f sums of ring
 *  position k, decoupled where adm_cm's mirror puts it. */
VG_ADM_HD void vg_adm_tile_ring(const VgAdmParams *p, const VgAdmTile *tl,
                                int k, VgAdmTileMem *m)
{
    const VgAdmGeo *g = &p->g[tl->s];
    const int n = tl->nc + 2;
    int y, x;
    VgAdmDec d;

    if (k < 2 * n) {
        y = k < n ? -1 : tl->nr;
        x = (k < n ? k : k - n) - 1;
    } else {
        k -= 2 * n;
        y = k < tl->nr ? k : k - tl->nr;
        x = k < tl->nr ? -1 : tl->nc;
    }
    vg_adm_dec_pos(p, tl->s, vg_adm_cm_mirror(tl->i0 + y, g->h),
                   vg_adm_cm_mirror(tl->j0 + x, g->w), &d);
    m->f[0][y + 1][x + 1] = d.f[0];
    if (p->aim)
        m->f[1][y + 1][x + 1] = d.f[1];
}

/**
 * Step 3, after steps 1 and 2 of the whole block: thread (warp, lane)
 * masks its positions of the tile. acc[0..2] num (r masked by csf(a)),
 * acc[3..5] AIM (a masked by csf(r)).
 */
VG_ADM_HD void vg_adm_tile_cm(const VgAdmParams *p, const VgAdmTile *tl,
                              int warp, int lane, const VgAdmTileMem *m,
                              int64_t acc[9])
{
    const VgAdmGeo *g = &p->g[tl->s];
    const int y = warp + 1;

#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int q = 0; q < VG_ADM_CM_TW / 32; q++) {
        const int x = lane + 32 * q + 1;

        if (warp >= tl->nr || x > tl->nc)
            break;
        for (int n = 0; n < (p->aim ? 2 : 1); n++) {
            const uint32_t(*f)[VG_ADM_CM_TW + 2] = m->f[n];
            const int32_t t =
                (int32_t)(f[y - 1][x - 1] + f[y - 1][x] + f[y - 1][x + 1] +
                          f[y][x - 1] + f[y][x + 1] + f[y + 1][x - 1] +
                          f[y + 1][x] + f[y + 1][x + 1] +
                          (uint32_t)m->c[6 + n][q][warp][lane]);
            for (int b = 0; b < 3; b++) {
                const int32_t v = m->c[3 * n + b][q][warp][lane];
                acc[3 * n + b] +=
                    tl->s == 0
                        ? vg_adm_cm_val_s0(b, (int32_t)g->fac[b], g->cm_cub[b],
                                           t, (int16_t)v)
                        : vg_adm_cm_val_s123(g->fac[b], g->cm_cub[b], t, v);
            }
        }
    }
}

/**
 * Per-row rounding of complete row sums (adm_cm, i4_adm_cm: R_rho with
 * rho = ceil(log2(h)); adm_csf_den_scale: R_sigma, none for sigma = 0;
 * adm_csf_den_s123: R_rho, rho = ceil(log2(region height))), into tot[9].
 */
VG_ADM_HD void vg_adm_round_row(const VgAdmParams *p, int s,
                                const int64_t row[9], int64_t tot[9])
{
    const VgAdmGeo *g = &p->g[s];
    const uint32_t rho = g->cm_rho;
    const int64_t radd = rho > 0 ? 1ll << (rho - 1) : 0;
    const uint32_t dsh = s == 0 ? g->den_cub : g->den_rho;
    const uint64_t dadd = dsh > 0 ? 1ull << (dsh - 1) : 0;

    for (int k = 0; k < 6; k++)
        tot[k] += (row[k] + radd) >> rho;
    for (int k = 6; k < 9; k++)
        tot[k] += (int64_t)(((uint64_t)row[k] + dadd) >> dsh);
}

#endif /* VG_GPU_ADM_OPS_CUH */
