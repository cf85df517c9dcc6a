/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float PSNR (libvmaf v3.2.0 src/feature/float_psnr.c, psnr.c): the luma
 * as float (common/fplane.h, offset 0), the squared differences rounded to
 * float and added into one double. The backends produce that sum; the
 * score is the home's.
 */

#ifndef VG_FEATURES_FLOAT_PSNR_H
#define VG_FEATURES_FLOAT_PSNR_H

#include "common/feature.h"

/** The bit depths float_psnr and float_ansnr accept, as 1 << bpc. */
#define VG_FLOAT_PSNR_DEPTHS ((1u << 8) | (1u << 10) | (1u << 12) | (1u << 16))

/**
 * Peak and cap of a bit depth in VG_FLOAT_PSNR_DEPTHS (float_psnr.c and
 * float_ansnr.c init()).
 */
void vg_float_psnr_peak(unsigned bpc, double *peak, double *psnr_max);

/** Emit frame `index`'s float_psnr from compute_psnr()'s noise sum. */
int vg_float_psnr_emit(VgFeatureCtx *fc, unsigned index, double noise);

#endif /* VG_FEATURES_FLOAT_PSNR_H */
