/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ANSNR's descriptor and finish, as libvmaf v3.2.0
 * src/feature/float_ansnr.c: no options, luma only, 8, 10, 12 or 16 bits
 * (libvmaf's init() fails on any other depth). Pictures are at least 3x3:
 * below that the 5x5 filter's mirrored border leaves the plane (libvmaf
 * reads outside it).
 */

#include <math.h>

#include "common/features/float_ansnr.h"
#include "common/features/float_psnr.h"

/* clang-format off */
static const VgFeatureOutput float_ansnr_outputs[] = {
    [VG_FLOAT_ANSNR_OUT_ANSNR]  = { "float_ansnr",  NULL, 0 },
    [VG_FLOAT_ANSNR_OUT_ANPSNR] = { "float_anpsnr", NULL, 0 },
    { NULL }
};
/* clang-format on */

void vg_float_ansnr_add_rows(const float *rows, unsigned h, float *sig,
                             float *noise)
{
    float s = 0, n = 0;

    for (unsigned i = 0; i < h; i++) {
        s += rows[2 * i];
        n += rows[2 * i + 1];
    }
    *sig = s;
    *noise = n;
}

int vg_float_ansnr_emit(VgFeatureCtx *fc, unsigned index, float sig,
                        float noise)
{
    const int w = (int)fc->width, h = (int)fc->height;
    double peak, psnr_max, ansnr, anpsnr;
    int ret;

    /* the same peak and cap as float_psnr (float_ansnr.c init()) */
    vg_float_psnr_peak(fc->bpc, &peak, &psnr_max);
    /* ansnr.c compute_ansnr(): the quotient in float, the pixel count
     * multiplied in as ints after the double peak * peak */
    ansnr = noise == 0 ? psnr_max : 10.0 * log10(sig / noise);
    anpsnr = 10 * log10(peak * peak * w * h /
                        (noise > 1e-10 ? (double)noise : 1e-10));
    anpsnr = anpsnr < psnr_max ? anpsnr : psnr_max;
    if ((ret = vg_feature_emit(fc, VG_FLOAT_ANSNR_OUT_ANSNR, index, ansnr)) < 0)
        return ret;
    return vg_feature_emit(fc, VG_FLOAT_ANSNR_OUT_ANPSNR, index, anpsnr);
}

const VgFeatureDesc vg_feature_float_ansnr = {
    VG_FEATURE_DESC(float_ansnr),
    .bit_depths = VG_FLOAT_PSNR_DEPTHS,
    .min_width = 3,
    .min_height = 3,
};
