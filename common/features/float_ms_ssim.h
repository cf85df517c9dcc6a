/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim (libvmaf v3.2.0 src/feature/float_ms_ssim.c, ms_ssim.c):
 * options, outputs and the finish both backends call with the l, c, s
 * sums of each scale's SSIM map.
 */

#ifndef VG_FEATURES_FLOAT_MS_SSIM_H
#define VG_FEATURES_FLOAT_MS_SSIM_H

#include <stdbool.h>

#include "common/feature.h"
#include "common/features/float_ssim_params.h"

/** Outputs: the score, then l, c, s of scales 0..4 (libvmaf's order). */
enum {
    VG_FLOAT_MS_SSIM_OUT_SCORE,
    VG_FLOAT_MS_SSIM_OUT_L0,
    VG_FLOAT_MS_SSIM_OUT_C0 = VG_FLOAT_MS_SSIM_OUT_L0 + VG_MS_SSIM_SCALES,
    VG_FLOAT_MS_SSIM_OUT_S0 = VG_FLOAT_MS_SSIM_OUT_C0 + VG_MS_SSIM_SCALES,
};

typedef struct VgFloatMsSsimOptions {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
} VgFloatMsSsimOptions;

typedef struct VgFloatMsSsimParams {
    int w[VG_MS_SSIM_SCALES], h[VG_MS_SSIM_SCALES]; ///< pyramid sizes
    /** per scale, the sums the outputs read (VG_SSIM_SUM_BIT): c and s;
     * l where its exponent is not 0 or enable_lcs prints it */
    unsigned sums[VG_MS_SSIM_SCALES];
    double max_db;
} VgFloatMsSsimParams;

/**
 * Smallest side: the window must fit at each of the 5 scales, the sizes
 * halved (floor) between them (ms_ssim.c, "scale below 1x1"): 11 << 4.
 */
#define VG_MS_SSIM_MIN_SIZE (VG_SSIM_WIN << (VG_MS_SSIM_SCALES - 1))

/** Pyramid sizes (ceil halving, iqa/decimate.c), the sums and the dB cap. */
void vg_float_ms_ssim_setup(VgFloatMsSsimParams *p,
                            const VgFloatMsSsimOptions *o, unsigned bpc,
                            unsigned w, unsigned h);

/**
 * Emit frame `index`'s outputs; sums[i][k] is sum k (VG_SSIM_SUM_L, _C or
 * _S; _SSIM is unused) of scale i's SSIM map; only those of p->sums[i]
 * are read.
 */
int vg_float_ms_ssim_emit(
    VgFeatureCtx *fc, const VgFloatMsSsimParams *p, unsigned index,
    const double sums[VG_MS_SSIM_SCALES][VG_SSIM_NB_SUMS]);

#endif /* VG_FEATURES_FLOAT_MS_SSIM_H */
