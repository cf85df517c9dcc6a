/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ADM's per-sample arithmetic, written once for the CPU
 * (cpu/float_adm.c) and the CUDA kernels (gpu/float_adm.cu): each function
 * is the float/double operation sequence of libvmaf v3.2.0 adm_tools.c,
 * operation for operation, so that the two backends compute the same bits
 * (the kernels are built with -fmad=false, the C with -ffp-contract=off).
 * Plain C and CUDA C++.
 */

#ifndef VG_FEATURES_FLOAT_ADM_PARAMS_H
#define VG_FEATURES_FLOAT_ADM_PARAMS_H

#include <stdint.h>

#ifdef __CUDACC__
#define VG_FADM_HD static __host__ __device__ __forceinline__
#else
#include <math.h>
#define VG_FADM_HD static inline
#endif

/** db2 analysis taps as floats (adm_tools.c dwt2_db2_coeffs_lo_s/hi_s). */
#define VG_FADM_LO0 ((float)0.482962913144690)
#define VG_FADM_LO1 ((float)0.836516303737469)
#define VG_FADM_LO2 ((float)0.224143868041857)
#define VG_FADM_LO3 ((float)-0.129409522550921)
#define VG_FADM_HI0 ((float)-0.129409522550921)
#define VG_FADM_HI1 ((float)-0.224143868041857)
#define VG_FADM_HI2 ((float)0.836516303737469)
#define VG_FADM_HI3 ((float)-0.482962913144690)

/** adm_tools.c FLOAT_ONE_BY_30 and FLOAT_ONE_BY_15: double literals, so
 * the products with them are double. */
#define VG_FADM_ONE_BY_30 0.0333333351
#define VG_FADM_ONE_BY_15 0.0666666701

/** adm_decouple_s eps, a float. */
#define VG_FADM_EPS ((float)1e-30)

/** One 4-tap sum, accum starting at 0 (adm_dwt2_s). */
VG_FADM_HD float vg_fadm_lo(float s0, float s1, float s2, float s3)
{
    float accum = 0;
    accum += VG_FADM_LO0 * s0;
    accum += VG_FADM_LO1 * s1;
    accum += VG_FADM_LO2 * s2;
    accum += VG_FADM_LO3 * s3;
    return accum;
}

VG_FADM_HD float vg_fadm_hi(float s0, float s1, float s2, float s3)
{
    float accum = 0;
    accum += VG_FADM_HI0 * s0;
    accum += VG_FADM_HI1 * s1;
    accum += VG_FADM_HI2 * s2;
    accum += VG_FADM_HI3 * s3;
    return accum;
}

/**
 * Source index k (0..3) of output i of a DWT over n >= 2 samples
 * (dwt2_src_indices_filt_s): 2i - 1 + k, reflected at the start (-1 -> 1),
 * mirrored with the edge repeated at the end (n -> n - 1).
 */
VG_FADM_HD int vg_fadm_src_index(int i, int k, int n)
{
    int v = 2 * i - 1 + k;
    if (v < 0)
        v = -v;
    else if (v >= n)
        v = 2 * n - v - 1;
    return v;
}

/**
 * n / d as adm_tools.c DIVS() on SSE2 builds: n times one Newton step
 * from the hardware's approximate reciprocal `xi` of d (rcp_s()).
 */
VG_FADM_HD float vg_fadm_div_rcp(float n, float d, float xi)
{
    return n * (xi + xi * (1.0f - d * xi));
}

/** Clamp to [0, 1] as adm_decouple_s. */
VG_FADM_HD float vg_fadm_clamp01(float k)
{
    return k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
}

/**
 * The restored value of one band after the angle test (adm_decouple_s,
 * "modification"): r * egl in double, compared with t in double, stored
 * as float.
 */
VG_FADM_HD float vg_fadm_restore(float rst, float t, int angle_flag, double egl)
{
    if (angle_flag && (rst > 0.0)) {
        const double x = rst * egl;
        rst = x < t ? x : t;
    }
    if (angle_flag && (rst < 0.0)) {
        const double x = rst * egl;
        rst = x > t ? x : t;
    }
    return rst;
}

/** ADM_OPT_AVOID_ATAN angle test of (oh, ov) against (th, tv). */
VG_FADM_HD int vg_fadm_angle_flag(float oh, float ov, float th, float tv,
                                  float cos1_sq)
{
    const float ot_dp = oh * th + ov * tv;
    const float o_mag_sq = oh * oh + ov * ov;
    const float t_mag_sq = th * th + tv * tv;
    return (ot_dp >= 0.0f) && (ot_dp * ot_dp >= cos1_sq * o_mag_sq * t_mag_sq);
}

/** |csf| / 30 (adm_csf_s): a double product stored as float. */
VG_FADM_HD float vg_fadm_flt(float csf)
{
    return (float)(VG_FADM_ONE_BY_30 * fabsf(csf));
}

/**
 * One band's term of a masking threshold (ADM_CM_THRESH_S_* in
 * adm_tools.h): the 3x3 neighbourhood of the |csf| / 30 band f, with the
 * centre replaced by |csf| / 15 of the csf value c; rows im1, i, ip1 and
 * columns jm1, j, jp1 already mirrored. The centre is added in double.
 */
VG_FADM_HD float vg_fadm_thr_band(float f00, float f01, float f02, float f10,
                                  float c, float f12, float f20, float f21,
                                  float f22)
{
    float sum = 0;
    sum += f00;
    sum += f01;
    sum += f02;
    sum += f10;
    sum = (float)(sum + VG_FADM_ONE_BY_15 * fabsf(c));
    sum += f12;
    sum += f20;
    sum += f21;
    sum += f22;
    return sum;
}

/** max(|x| - thr, 0) (adm_cm_s). */
VG_FADM_HD float vg_fadm_masked(float x, float thr)
{
    x = fabsf(x) - thr;
    return x < 0.0f ? 0.0f : x;
}

/** x^3 as the p = 3 path writes it: (x * x) * x. */
VG_FADM_HD float vg_fadm_cube(float x)
{
    return x * x * x;
}

/* ------------------------------------------------------------------------
 * The hardware reciprocal as a table (the CUDA side of DIVS())
 * ---------------------------------------------------------------------- */

/** Entries of the reciprocal table: the 12 leading mantissa bits. */
#define VG_FADM_RCP_BITS 12
#define VG_FADM_RCP_SIZE (1 << VG_FADM_RCP_BITS)

#ifdef __CUDACC__
#define VG_FADM_F2U(x) __float_as_uint(x)
#define VG_FADM_U2F(x) __uint_as_float(x)
#else
#include <string.h>
static inline uint32_t vg_fadm_f2u(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
static inline float vg_fadm_u2f(uint32_t u)
{
    float x;
    memcpy(&x, &u, 4);
    return x;
}
#define VG_FADM_F2U(x) vg_fadm_f2u(x)
#define VG_FADM_U2F(x) vg_fadm_u2f(x)
#endif

/**
 * RCPSS as a table model: `tab[k]` is the host's RCPSS of the float in
 * [1, 2) whose mantissa starts with the 12 bits k (then zeros). For a
 * normal x the result has the table entry's mantissa, its exponent moved
 * by x's and the sign of x; a result below the normal range is +-0;
 * a zero or subnormal x gives +-inf, an infinite x +-0 and a NaN stays NaN.
 * The host checks at start-up that its RCPSS follows this model
 * (vg_float_adm_rcp_table()).
 */
VG_FADM_HD float vg_fadm_rcp_model(float x, const float *tab)
{
    const uint32_t u = VG_FADM_F2U(x);
    const uint32_t sign = u & 0x80000000u;
    const int e = (int)((u >> 23) & 0xff);

    if (e == 0)
        return VG_FADM_U2F(sign | 0x7f800000u);
    if (e == 255)
        return (u & 0x7fffffu) ? x : VG_FADM_U2F(sign);
    const uint32_t r = VG_FADM_F2U(
        tab[(u >> (23 - VG_FADM_RCP_BITS)) & (VG_FADM_RCP_SIZE - 1)]);
    const int re = (int)((r >> 23) & 0xff) + 127 - e;
    if (re <= 0)
        return VG_FADM_U2F(sign);
    if (re >= 255)
        return VG_FADM_U2F(sign | 0x7f800000u);
    return VG_FADM_U2F(sign | ((uint32_t)re << 23) | (r & 0x7fffffu));
}

/* ------------------------------------------------------------------------
 * Kernel parameters (gpu/float_adm.c, gpu/float_adm.cu)
 * ---------------------------------------------------------------------- */

#define VG_FADM_BX 32 ///< 2-D kernels: block 32 x 8
#define VG_FADM_BY 8
#define VG_FADM_ROWS_THREADS 256 ///< threads of vg_fadm_rows' blocks
#define VG_FADM_ROWS_STRIP 8     ///< rows per block of vg_fadm_rows

/** One scale's launch parameters; pointers as uint64_t, pitches in bytes. */
typedef struct VgFadmKernelParams {
    uint64_t src[2]; ///< DWT input: ref, dis
    int64_t src_pitch;
    uint64_t lo[2];          ///< DWT output band a: ref, dis
    uint64_t ref[3], dis[3]; ///< DWT detail bands h, v, d
    uint64_t counter;        ///< vg_fadm_rows' blocks done (0 between launches)
    uint64_t cva[3], cfa[3]; ///< CSF of a: value, |value| / 30
    uint64_t cvr[3], cfr[3]; ///< CSF of r
    uint64_t terms;          ///< [9 * n_rows][pitch]: the sums' terms
    int64_t pitch;           ///< of every band
    uint64_t rcp;            ///< VG_FADM_RCP_SIZE floats, or 0: divide
    uint64_t rows;           ///< row sums [kind][band][n_rows]
    uint64_t tot;            ///< totals [kind][band] of this scale
    double egl;              ///< adm_enhn_gain_limit
    float rf[3];             ///< CSF weights h, v, d
    float cos1_sq;
    float src_offset;   ///< added on load at scale 0 (-128)
    float p_f;          ///< (float)adm_p_norm when not 3
    int32_t add_offset; ///< 1 at scale 0
    int32_t lo_only;    ///< adm_skip_scale0 at scale 0: band a only
    int32_t bypass;     ///< adm_bypass_cm
    int32_t p_is_3;
    int32_t in_w, in_h;     ///< DWT input size
    int32_t w, h;           ///< band size
    int32_t dl, dt, dr, db; ///< decouple / CSF region
    int32_t cl, ct, cr, cb; ///< CM / denominator region
    int32_t n_rows;         ///< cb - ct
    int32_t pad;
} VgFadmKernelParams;

#endif /* VG_FEATURES_FLOAT_ADM_PARAMS_H */
