/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Planes as float, the input of libvmaf's float features (v3.2.0
 * src/picture_copy.c picture_copy()): a sample becomes
 * (float)x / 2^(bpc - 8) + offset, the division and the add each in
 * float, so every bit depth lands on about 0..255. Offset is 0 (float_ssim,
 * float_ms_ssim, float_moment, float_psnr) or -128 (float_vif, float_adm,
 * float_motion, float_ansnr).
 *
 * libvmaf reads 9-, 11- and 13..15-bit pictures as if they were 8-bit
 * (bytes of the 16-bit words); the value it means to compute, the sample
 * scaled by 2^(bpc - 8) as for 10, 12 and 16 bits, is what is computed
 * here for every depth. The CUDA backend converts with the same formula
 * (gpu/core/picture.cu), once per frame for all its float features.
 */

#ifndef VG_COMMON_FPLANE_H
#define VG_COMMON_FPLANE_H

#include <stddef.h>

#include "common/image.h"

/** The divisor of a bit depth: 2^(bpc - 8) as a float (1 for 8 bits). */
static inline float vg_fplane_scaler(unsigned bpc)
{
    return (float)(1u << (bpc > 8 ? bpc - 8 : 0));
}

/**
 * Convert plane `plane` of host image `img` into `dst`, `dst_stride`
 * floats per row (>= the plane's width), adding `offset`.
 */
typedef void VgPlaneToFloatFn(float *dst, ptrdiff_t dst_stride,
                              const VgImage *img, unsigned plane, float offset);

typedef struct VgFplaneDSP {
    VgPlaneToFloatFn *to_float; ///< C, AVX2 or AVX-512 build
} VgFplaneDSP;

/** Fill `dsp` with the builds for `flags` (vg_cpu_flags()), once per
 * state, when the feature opens it. */
void vg_fplane_dsp_init(VgFplaneDSP *dsp, unsigned flags);

#endif /* VG_COMMON_FPLANE_H */
