/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float PSNR's descriptor and finish, as libvmaf v3.2.0
 * src/feature/float_psnr.c: no options, luma only, 8, 10, 12 or 16 bits
 * (libvmaf's init() fails on any other depth).
 */

#include <math.h>

#include "common/features/float_psnr.h"

/* clang-format off */
static const VgFeatureOutput float_psnr_outputs[] = {
    { "float_psnr", NULL, 0 },
    { NULL }
};
/* clang-format on */

void vg_float_psnr_peak(unsigned bpc, double *peak, double *psnr_max)
{
    /* float_psnr.c init(): the largest sample after the division by
     * 2^(bpc - 8), and a cap of 6 * bpc + 12 dB */
    switch (bpc) {
    case 10:
        *peak = 255.75;
        *psnr_max = 72.0;
        break;
    case 12:
        *peak = 255.9375;
        *psnr_max = 84.0;
        break;
    case 16:
        *peak = 255.99609375;
        *psnr_max = 108.0;
        break;
    default:
        *peak = 255.0;
        *psnr_max = 60.0;
        break;
    }
}

int vg_float_psnr_emit(VgFeatureCtx *fc, unsigned index, double noise)
{
    double peak, psnr_max, db;

    vg_float_psnr_peak(fc->bpc, &peak, &psnr_max);
    /* psnr.c compute_psnr(): an int pixel count, eps 1e-10 */
    noise /= (int)fc->width * (int)fc->height;
    db = 10 * log10(peak * peak / (noise > 1e-10 ? noise : 1e-10));
    return vg_feature_emit(fc, 0, index, db < psnr_max ? db : psnr_max);
}

const VgFeatureDesc vg_feature_float_psnr = {
    VG_FEATURE_DESC(float_psnr),
    .bit_depths = VG_FLOAT_PSNR_DEPTHS,
};
