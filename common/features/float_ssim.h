/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ssim (libvmaf v3.2.0 src/feature/float_ssim.c, ssim.c and
 * iqa/ssim_tools.c): options, outputs and the finish both backends call
 * with the sums of the SSIM map (l, c and s read only for enable_lcs);
 * the dB conversion float_ms_ssim shares.
 */

#ifndef VG_FEATURES_FLOAT_SSIM_H
#define VG_FEATURES_FLOAT_SSIM_H

#include <stdbool.h>

#include "common/feature.h"
#include "common/features/float_ssim_params.h"

enum {
    VG_FLOAT_SSIM_OUT_SSIM,
    VG_FLOAT_SSIM_OUT_L,
    VG_FLOAT_SSIM_OUT_C,
    VG_FLOAT_SSIM_OUT_S,
};

typedef struct VgFloatSsimOptions {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
    int scale;
} VgFloatSsimOptions;

/** What a frame's computation needs, from the options and the picture size. */
typedef struct VgFloatSsimParams {
    int scale;  ///< decimation factor (1: none)
    int dw, dh; ///< size after the decimation
    /** the sums the outputs read (VG_SSIM_SUM_BIT): the score's; l, c and
     * s for enable_lcs */
    unsigned sums;
    double max_db; ///< cap of the dB score (+inf without clip_db)
} VgFloatSsimParams;

/** Smallest size the SSIM window fits in (one valid output). */
#define VG_SSIM_MIN_SIZE VG_SSIM_WIN

/**
 * The dB cap of float_ssim.c / float_ms_ssim.c init(): +inf, or with
 * clip_db ceil(10 log10(peak^2 / (0.5 / (w h)))).
 */
double vg_ssim_max_db(bool clip_db, unsigned bpc, unsigned w, unsigned h);

/** convert_to_db() of float_ssim.c / float_ms_ssim.c. */
double vg_ssim_to_db(double score, double max_db);

/** Mean of a sum over a w x h map as _iqa_ssim() returns it (float). */
double vg_ssim_mean(double sum, int w, int h);

/**
 * Scale and decimated size (ssim.c compute_ssim()); refuses (logged,
 * -EINVAL) a size the window does not fit in after the decimation.
 */
int vg_float_ssim_setup(VgFloatSsimParams *p, const VgFloatSsimOptions *o,
                        unsigned bpc, unsigned w, unsigned h, VgLog *log);

/** Emit frame `index`'s outputs from the sums of its SSIM map. */
int vg_float_ssim_emit(VgFeatureCtx *fc, const VgFloatSsimParams *p,
                       unsigned index, const double sums[VG_SSIM_NB_SUMS]);

#endif /* VG_FEATURES_FLOAT_SSIM_H */
