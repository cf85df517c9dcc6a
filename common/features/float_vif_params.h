/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float VIF's per-sample arithmetic, written once for the CPU code
 * (cpu/float_vif.c) and the kernels (gpu/float_vif.cu), and the kernels'
 * parameter struct. C and CUDA evaluate these expressions with the same
 * IEEE operations (no contraction: -ffp-contract=off, -fmad=false; IEEE
 * float division, no flush to zero), so a sample's value is the same bits
 * on both.
 */

#ifndef VG_FEATURES_FLOAT_VIF_PARAMS_H
#define VG_FEATURES_FLOAT_VIF_PARAMS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/features/vif_tools.h"

#ifdef __CUDACC__
#define VG_FVIF_FN static __host__ __device__ __forceinline__
#else
#define VG_FVIF_FN static inline
#endif

/** Largest filter: vif_kernelscale 4 at scale 0 gives 69 taps. */
#define VG_FVIF_MAX_TAPS 72
/**
 * vif_tools.c log2f_approx() (VIF_OPT_FAST_LOG2 is defined in
 * vif_options.h): -inf at 0, NaN below; else the unbiased exponent plus
 * log2_poly_s (double literals rounded to float) at mantissa - 1, Horner
 * in float from the highest degree.
 */
VG_FVIF_FN float vg_fvif_log2f(float x)
{
    uint32_t u, r;
    float rem, t, var, l;

    memcpy(&u, &x, sizeof(u));
    r = (u & 0x007FFFFFu) | 0x3F800000u;
    memcpy(&rem, &r, sizeof(rem));
    t = rem - 1.0f;
    /* the coefficients written out (each double literal rounded to float,
     * as libvmaf's float array holds them), so that no array is read */
    var = 0.0f * t + (float)-0.012671635276421;
    var = var * t + (float)0.064841182402670;
    var = var * t + (float)-0.157048836463065;
    var = var * t + (float)0.257167726303123;
    var = var * t + (float)-0.353800560300520;
    var = var * t + (float)0.480131410397451;
    var = var * t + (float)-0.721314327952201;
    var = var * t + (float)1.442694803896991;
    var = var * t + 0.0f;
    l = (float)((int32_t)((u & 0x7F800000u) >> 23) - 127) + var;
    /* selected, not branched: a row of samples vectorises on the CPU */
    return x == 0 ? -INFINITY : x < 0 ? NAN : l;
}

/**
 * vif_tools.c vif_statistic_s() for one sample (the 'matching_matlab'
 * arrangement): float except where sigma_nsq (a double) enters, which
 * makes the two quotients and their 1 + q double before log2 takes
 * them as floats, and the comparison sigma1^2 < sigma_nsq double.
 */
VG_FVIF_FN void vg_fvif_statistic(float mu1, float mu2, float xx, float yy,
                                  float xy, float egl, double sigma_nsq,
                                  float sigma_max_inv, float *num, float *den)
{
    const float eps = 1.0e-10f;
    float sigma1_sq = xx - mu1 * mu1;
    float sigma2_sq = yy - mu2 * mu2;
    const float sigma12 = xy - mu1 * mu2;
    float g, sv_sq, n, d;

    /* the steps of libvmaf's branches as selects (a row of samples
     * vectorises on the CPU), in its order */
    sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
    sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;
    g = sigma12 / (sigma1_sq + eps);
    sv_sq = sigma2_sq - g * sigma12;
    const int low1 = sigma1_sq < eps;
    g = low1 ? 0.0f : g;
    sv_sq = low1 ? sigma2_sq : sv_sq;
    sigma1_sq = low1 ? 0.0f : sigma1_sq;
    const int low2 = sigma2_sq < eps;
    g = low2 ? 0.0f : g;
    sv_sq = low2 ? 0.0f : sv_sq;
    const int neg = g < 0.0f;
    sv_sq = neg ? sigma2_sq : sv_sq;
    g = neg ? 0.0f : g;
    sv_sq = sv_sq > eps ? sv_sq : eps;
    g = g < egl ? g : egl;
    n = vg_fvif_log2f(
        (float)(1.0f + (g * g * sigma1_sq) / (sv_sq + sigma_nsq)));
    d = vg_fvif_log2f((float)(1.0f + sigma1_sq / sigma_nsq));
    n = sigma12 < 0.0f ? 0.0f : n;
    const int flat = sigma1_sq < sigma_nsq;
    *num = flat ? 1.0f - sigma2_sq * sigma_max_inv : n;
    *den = flat ? 1.0f : d;
}

/**
 * One sample of the prescaled picture (vif_tools.c
 * bilinear_interpolation(), bicubic_interpolation(),
 * lanczos4_interpolation(), vif_scale_frame_nearest_s()), from the taps
 * of its column (xi, xw) and row (yi, yw) of the axis tables built by
 * vg_float_vif_setup(); `stride` in floats. Float throughout, in
 * libvmaf's order: bilinear's four products left to right, the others
 * rows outer, columns inner.
 */
VG_FVIF_FN float vg_fvif_prescale_px(int method, const float *src,
                                     ptrdiff_t stride, const int32_t *xi,
                                     const float *xw, const int32_t *yi,
                                     const float *yw)
{
    switch (method) {
    case 1: { /* bilinear: xw[0], yw[0] are the fractions */
        const float dx = xw[0], dy = yw[0];
        const float *r1 = src + yi[0] * stride, *r2 = src + yi[1] * stride;
        return (1 - dy) * (1 - dx) * r1[xi[0]] + (1 - dy) * dx * r1[xi[1]] +
               dy * (1 - dx) * r2[xi[0]] + dy * dx * r2[xi[1]];
    }
    case 2: { /* bicubic */
        float v = 0.0f;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                const float wt = xw[i] * yw[j];
                v += src[yi[j] * stride + xi[i]] * wt;
            }
        return v;
    }
    case 3: { /* lanczos4: normalised by the sum of the weights */
        float v = 0.0f, sum = 0.0f;
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 9; i++) {
                const float wt = xw[i] * yw[j];
                sum += wt;
                v += src[yi[j] * stride + xi[i]] * wt;
            }
        return v / sum;
    }
    default: /* nearest */
        return src[yi[0] * stride + xi[0]];
    }
}

/* ---- CUDA kernels (gpu/float_vif.cu) ------------------------------------ */

#define VG_FVIF_BX 32            ///< threads per block along x (2-D kernels)
#define VG_FVIF_BY 8             ///< threads per block along y
#define VG_FVIF_TILE_THREADS 256 ///< threads of vg_fvif_dec*, vg_fvif_map*
#define VG_FVIF_TILE_ROWS 4      ///< their output rows per block
#define VG_FVIF_ROWS_STRIP 4     ///< rows per block of vg_fvif_rows
#define VG_FVIF_ROWS_THREADS 256 ///< its threads (VG_ROWSUM_THREADS)

/**
 * One launch's parameters (every kernel takes the same struct; planes are
 * packed float arrays, `w` floats per row, unless a pitch is given).
 */
typedef struct VgFvifKernelParams {
    uint64_t src[2];             ///< ref, dis input planes
    uint64_t dst[2];             ///< ref, dis output planes
    uint64_t num, den;           ///< per-sample num and den of every scale
    uint64_t rows_num, rows_den; ///< row sums (VgFvifSetup.rows each)
    uint64_t xi, xw, yi, yw;     ///< prescale axis tables
    uint64_t res;                ///< 8 floats: num, den of scales 0..3
    uint64_t counter;     ///< vg_fvif_rows' blocks done (0 between launches)
    int64_t src_pitch;    ///< bytes per row of src
    int32_t src_w, src_h; ///< source size
    int32_t w, h;         ///< output size
    int32_t taps;         ///< filter length (odd)
    int32_t method;       ///< prescale method
    int32_t first;        ///< first computed scale
    int32_t load_off;     ///< src is the input luma: add -128 on reading
    int32_t nd_off;       ///< this scale's first sample in num, den
    int32_t sc_w[4], sc_h[4]; ///< size of each scale
    int32_t sc_off[4];        ///< first row-sum index of each scale
    int32_t sc_nd[4];         ///< first sample of each scale in num, den
    int32_t strip_off[5];     ///< first vg_fvif_rows block of each scale
    float egl, sigma_max_inv;
    double sigma_nsq;
    float filter[VG_FVIF_MAX_TAPS];
} VgFvifKernelParams;

#endif /* VG_FEATURES_FLOAT_VIF_PARAMS_H */
