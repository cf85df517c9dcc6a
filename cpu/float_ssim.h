/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The SSIM map on the CPU, shared by float_ssim (cpu/float_ssim.c) and
 * float_ms_ssim (cpu/float_ms_ssim.c): the valid Gaussian convolution,
 * the per-pixel SSIM with the four sums of its map, and the decimation
 * of libvmaf v3.2.0 iqa/ (ssim_tools.c, convolve.c, decimate.c).
 */

#ifndef VG_CPU_FLOAT_SSIM_H
#define VG_CPU_FLOAT_SSIM_H

#include <stddef.h>

#include "common/features/float_ssim_params.h"

/** Scratch of vg_ssim_sums() for pictures up to w x h. */
typedef struct VgSsimWork {
    float *mu_r, *mu_c;  ///< the means
    float *rr, *cc, *rc; ///< products, then their local (co)variances
    float *cache;        ///< horizontal pass
    double *acc;         ///< one row of accumulators
} VgSsimWork;

/** @return 0 or -ENOMEM (wk is freed by vg_ssim_work_free() either way). */
int vg_ssim_work_alloc(VgSsimWork *wk, int w, int h);
void vg_ssim_work_free(VgSsimWork *wk);

/** The C, AVX2 or AVX-512 builds of the SSIM loops. */
typedef struct VgSsimDSP {
    /** _iqa_convolve(): valid 11x11 Gaussian of the packed w x h image
     * src into dst (may be src); cache, acc: scratch (VgSsimWork) */
    void (*convolve)(const float *src, int w, int h, float *cache, double *acc,
                     float *dst);
    /**
     * iqa/decimate.c _iqa_decimate() of a packed w x h image by `factor`
     * with the klen x klen 2-D kernel k, mirrored at the borders
     * (KBND_SYMMETRIC), into dst (w / factor + (w & 1) wide); dst may be
     * img (in place, in libvmaf's write order). acc: w / factor + 1
     * doubles of scratch.
     */
    void (*decimate)(float *img, int w, int h, int factor, const float *k,
                     int klen, float *dst, double *acc);
} VgSsimDSP;

/** Fill `dsp` with the builds for `flags` (vg_cpu_flags()), once per
 * state, when the feature opens it. */
void vg_ssim_dsp_init(VgSsimDSP *dsp, unsigned flags);

/** Samples of the SSIM map (the valid convolution) of a w x h image:
 * (w - 10) x (h - 10). */
static inline size_t vg_ssim_map_size(int w, int h)
{
    return (size_t)(w - (VG_SSIM_WIN - 1)) * (size_t)(h - (VG_SSIM_WIN - 1));
}

/**
 * The reference's side of the SSIM map of a packed w x h float image
 * (w, h >= 11): its Gaussian mean into mu and the Gaussian of its square
 * into rr, each (w - 10) x (h - 10) packed; wk->rr is scratch. In a
 * ladder these are the reference stage (VG_FEATURE_REF_STAGE).
 */
void vg_ssim_ref_terms(const VgSsimDSP *dsp, const float *ref, int w, int h,
                       VgSsimWork *wk, float *mu, float *rr);

/**
 * The sums of the SSIM map of two packed w x h float images (w, h >= 11),
 * VG_SSIM_SUM_*: iqa/ssim_tools.c _iqa_ssim() with the default arguments.
 * mu_r and rr_r are the reference's terms from vg_ssim_ref_terms(), or
 * both NULL: computed here.
 */
void vg_ssim_sums(const VgSsimDSP *dsp, const float *ref, const float *cmp,
                  int w, int h, VgSsimWork *wk, const float *mu_r,
                  const float *rr_r, double sums[VG_SSIM_NB_SUMS]);

#endif /* VG_CPU_FLOAT_SSIM_H */
