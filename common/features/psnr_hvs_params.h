/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * PSNR-HVS block code for every backend, and the parameters of its
 * kernels (gpu/psnr_hvs.cu), shared with cpu/psnr_hvs.c and
 * gpu/psnr_hvs.c.
 *
 * The code of one 8x8 block (libvmaf v3.2.0
 * src/feature/third_party/xiph/psnr_hvs.c calc_psnrhvs(), the body of the
 * block loop, and od_bin_fdct8() / od_bin_fdct8x8()) is plain C, compiled
 * by the host compiler for the CPU and by nvcc for the device, so that
 * both run the same float and integer operations in the same order. An
 * includer may define VG_PSNR_HVS_FN (the functions' qualifiers) before
 * including this file; the default is `static inline`.
 *
 * What a block yields is its 64 terms (err * csf)^2, in row-major order:
 * libvmaf adds every term of every block straight into one float per
 * plane, block after block in raster order, so the backends add the terms
 * themselves, in that order.
 */

#ifndef VG_FEATURES_PSNR_HVS_PARAMS_H
#define VG_FEATURES_PSNR_HVS_PARAMS_H

#include <math.h>
#include <stdint.h>

#ifndef VG_PSNR_HVS_FN
#define VG_PSNR_HVS_FN static inline
#endif

#define VG_PSNR_HVS_STEP                                                       \
    7 ///< calc_psnrhvs() _step: blocks overlap by one sample
#define VG_PSNR_HVS_BX                                                         \
    32                   ///< block kernel: threads along x (one 8x8 block each)
#define VG_PSNR_HVS_BY 4 ///< block kernel: threads along y

/**
 * Number of blocks along a plane dimension of n >= 8 samples: the
 * positions 0, 7, 14, ... below n - 7.
 */
static inline unsigned vg_psnr_hvs_nblocks(unsigned n)
{
    return (n - 1) / VG_PSNR_HVS_STEP;
}

typedef struct VgPsnrHvsKernelParams {
    uint64_t ref[3], dis[3]; ///< device planes (uint8 or uint16 samples)
    int64_t ref_pitch[3], dis_pitch[3]; ///< bytes
    uint32_t nbx[3], nby[3];            ///< blocks per row and per column
    uint64_t terms[3]; ///< device float[nby][nbx][64]: the blocks' terms
    uint64_t tables; ///< device float[3][2][64]: csf, then mask, of each plane
} VgPsnrHvsKernelParams;

/** psnr_hvs.c OD_DCT_RSHIFT(a, 1): a / 2 rounded toward zero. */
#define VG_PSNR_HVS_HALF(a)                                                    \
    ((int32_t)(((uint32_t)(a) >> 31) + (uint32_t)(a)) >> 1)

/**
 * psnr_hvs.c od_bin_fdct8(): the Daala integer 8-point forward DCT
 * (lifting steps, arithmetic right shifts), x read with stride xstride.
 */
VG_PSNR_HVS_FN void vg_psnr_hvs_fdct8(int32_t y[8], const int32_t *x,
                                      int xstride)
{
    int32_t t0 = x[0 * xstride], t4 = x[1 * xstride];
    int32_t t2 = x[2 * xstride], t6 = x[3 * xstride];
    int32_t t7 = x[4 * xstride], t3 = x[5 * xstride];
    int32_t t5 = x[6 * xstride], t1 = x[7 * xstride];
    int32_t t1h, t4h, t6h;

    /* +1/-1 butterflies */
    t1 = t0 - t1;
    t1h = VG_PSNR_HVS_HALF(t1);
    t0 -= t1h;
    t4 += t5;
    t4h = VG_PSNR_HVS_HALF(t4);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= VG_PSNR_HVS_HALF(t3);
    t6 += t7;
    t6h = VG_PSNR_HVS_HALF(t6);
    t7 = t6h - t7;
    /* embedded 4-point type-II DCT */
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    /* embedded 2-point type-II DCT */
    t0 -= (t4 * 13573 + 16384) >> 15;
    t4 += (t0 * 11585 + 8192) >> 14;
    t0 -= (t4 * 13573 + 16384) >> 15;
    /* embedded 2-point type-IV DST */
    t6 -= (t2 * 21895 + 16384) >> 15;
    t2 += (t6 * 15137 + 8192) >> 14;
    t6 -= (t2 * 21895 + 16384) >> 15;
    /* embedded 4-point type-IV DST */
    t3 += (t5 * 19195 + 16384) >> 15;
    t5 += (t3 * 11585 + 8192) >> 14;
    t3 -= (t5 * 7489 + 4096) >> 13;
    t7 = VG_PSNR_HVS_HALF(t5) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    t7 += (t1 * 3227 + 16384) >> 15;
    t1 -= (t7 * 6393 + 16384) >> 15;
    t7 += (t1 * 3227 + 16384) >> 15;
    t5 += (t3 * 2485 + 4096) >> 13;
    t3 -= (t5 * 18205 + 16384) >> 15;
    t5 += (t3 * 2485 + 4096) >> 13;
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

/**
 * psnr_hvs.c od_bin_fdct8x8() with both strides 8, in place: column i of
 * the block to row i of a temporary, then column i of the temporary to
 * row i of the block.
 */
VG_PSNR_HVS_FN void vg_psnr_hvs_fdct8x8(int32_t b[64])
{
    int32_t z[64];

    for (int i = 0; i < 8; i++)
        vg_psnr_hvs_fdct8(z + 8 * i, b + i, 8);
    for (int i = 0; i < 8; i++)
        vg_psnr_hvs_fdct8(b + 8 * i, z + i, 8);
}

/**
 * One block of calc_psnrhvs(): s and d hold the reference and distorted
 * samples (row-major, overwritten by their DCT); csf and mask are the
 * plane's tables (row-major). Writes the block's 64 terms.
 *
 * Every operation is libvmaf's: float means and variances of the block
 * and of its four 4x4 quadrants (quadrant ((i & 12) >> 2) + ((j & 12) >>
 * 1)), the variance scales 1 / 63.f * 64 and 1 / 15.f * 16 folded in
 * float, int32 squares of the coefficients, the masking threshold as
 * sqrt() in double divided by 32 in double and stored as float.
 */
VG_PSNR_HVS_FN void vg_psnr_hvs_block(int32_t s[64], int32_t d[64],
                                      const float *csf, const float *mask,
                                      float term[64])
{
    float s_means[4] = { 0, 0, 0, 0 }, d_means[4] = { 0, 0, 0, 0 };
    float s_vars[4] = { 0, 0, 0, 0 }, d_vars[4] = { 0, 0, 0, 0 };
    float s_gmean = 0, d_gmean = 0, s_gvar = 0, d_gvar = 0;
    float s_mask = 0, d_mask = 0;

    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = ((i & 12) >> 2) + ((j & 12) >> 1);
            s_gmean += (float)s[i * 8 + j];
            d_gmean += (float)d[i * 8 + j];
            s_means[q] += (float)s[i * 8 + j];
            d_means[q] += (float)d[i * 8 + j];
        }
    }
    s_gmean /= 64.f;
    d_gmean /= 64.f;
    for (int q = 0; q < 4; q++)
        s_means[q] /= 16.f;
    for (int q = 0; q < 4; q++)
        d_means[q] /= 16.f;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) {
            const int q = ((i & 12) >> 2) + ((j & 12) >> 1);
            const float sv = (float)s[i * 8 + j], dv = (float)d[i * 8 + j];
            s_gvar += (sv - s_gmean) * (sv - s_gmean);
            d_gvar += (dv - d_gmean) * (dv - d_gmean);
            s_vars[q] += (sv - s_means[q]) * (sv - s_means[q]);
            d_vars[q] += (dv - d_means[q]) * (dv - d_means[q]);
        }
    }
    s_gvar *= 1 / 63.f * 64;
    d_gvar *= 1 / 63.f * 64;
    for (int q = 0; q < 4; q++)
        s_vars[q] *= 1 / 15.f * 16;
    for (int q = 0; q < 4; q++)
        d_vars[q] *= 1 / 15.f * 16;
    if (s_gvar > 0)
        s_gvar = (s_vars[0] + s_vars[1] + s_vars[2] + s_vars[3]) / s_gvar;
    if (d_gvar > 0)
        d_gvar = (d_vars[0] + d_vars[1] + d_vars[2] + d_vars[3]) / d_gvar;

    vg_psnr_hvs_fdct8x8(s);
    vg_psnr_hvs_fdct8x8(d);

    /* the DC coefficient (0, 0) takes no part in the masking */
    for (int k = 1; k < 64; k++)
        s_mask += (float)(s[k] * s[k]) * mask[k];
    for (int k = 1; k < 64; k++)
        d_mask += (float)(d[k] * d[k]) * mask[k];
    s_mask = (float)(sqrt((double)(s_mask * s_gvar)) / 32.0);
    d_mask = (float)(sqrt((double)(d_mask * d_gvar)) / 32.0);
    if (d_mask > s_mask)
        s_mask = d_mask;

    for (int k = 0; k < 64; k++) {
        const int32_t e = s[k] - d[k];
        float err = (float)(e < 0 ? -e : e);

        if (k)
            err = err < s_mask / mask[k] ? 0.f : err - s_mask / mask[k];
        term[k] = (err * csf[k]) * (err * csf[k]);
    }
}

#endif /* VG_FEATURES_PSNR_HVS_PARAMS_H */
