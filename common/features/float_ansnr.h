/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ANSNR (libvmaf v3.2.0 src/feature/float_ansnr.c, ansnr.c,
 * ansnr_tools.c): the luma as float with offset -128, the reference
 * filtered by a 3x3 and the distorted by a 5x5 filter, and the signal and
 * noise energies, each summed per row in float and the rows in float. The
 * backends produce the two sums; the scores are the home's.
 */

#ifndef VG_FEATURES_FLOAT_ANSNR_H
#define VG_FEATURES_FLOAT_ANSNR_H

#include "common/feature.h"

enum {
    VG_FLOAT_ANSNR_OUT_ANSNR,
    VG_FLOAT_ANSNR_OUT_ANPSNR
};

/**
 * Add the row sums of one plane as ansnr_mse_s() does: into a float, top
 * to bottom. rows[2 * i] is row i's signal, rows[2 * i + 1] its noise.
 */
void vg_float_ansnr_add_rows(const float *rows, unsigned h, float *sig,
                             float *noise);

/** Emit frame `index`'s float_ansnr and float_anpsnr (compute_ansnr()). */
int vg_float_ansnr_emit(VgFeatureCtx *fc, unsigned index, float sig,
                        float noise);

#endif /* VG_FEATURES_FLOAT_ANSNR_H */
