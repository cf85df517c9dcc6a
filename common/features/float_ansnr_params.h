/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ansnr's filters, shared by cpu/float_ansnr.c and
 * gpu/float_ansnr.cu: libvmaf v3.2.0 src/feature/ansnr_tools.c
 * ansnr_filter2d_ref_s (3x3) and ansnr_filter2d_dis_s (5x5), each tap a
 * double quotient rounded to float. ansnr_options.h leaves every option
 * off: the 2-D filters, mirrored borders, no normalisation.
 */

#ifndef VG_FEATURES_FLOAT_ANSNR_PARAMS_H
#define VG_FEATURES_FLOAT_ANSNR_PARAMS_H

#include <stdint.h>

/** Offset added to every sample before filtering (float_ansnr.c). */
#define VG_ANSNR_OFFSET (-128.0f)

#define VG_ANSNR_REF_WIDTH 3
#define VG_ANSNR_DIS_WIDTH 5

#define VG_ANSNR_REF_TAPS                                                      \
    {                                                                          \
        1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 4.0 / 16.0,            \
            2.0 / 16.0, 1.0 / 16.0, 2.0 / 16.0, 1.0 / 16.0,                    \
    }

#define VG_ANSNR_DIS_TAPS                                                      \
    {                                                                          \
        2.0 / 571.0, 7.0 / 571.0, 12.0 / 571.0, 7.0 / 571.0, 2.0 / 571.0,      \
            7.0 / 571.0, 31.0 / 571.0, 52.0 / 571.0, 31.0 / 571.0,             \
            7.0 / 571.0, 12.0 / 571.0, 52.0 / 571.0, 127.0 / 571.0,            \
            52.0 / 571.0, 12.0 / 571.0, 7.0 / 571.0, 31.0 / 571.0,             \
            52.0 / 571.0, 31.0 / 571.0, 7.0 / 571.0, 2.0 / 571.0, 7.0 / 571.0, \
            12.0 / 571.0, 7.0 / 571.0, 2.0 / 571.0,                            \
    }

/**
 * ansnr_filter2d_s()'s border: -i before the start (the edge sample is
 * not repeated), 2n - i - 1 past the end (it is). One reflection only,
 * which stays in the plane for n >= 3 (the feature's minimum size).
 */
#ifdef __CUDACC__
#define VG_ANSNR_HD __host__ __device__
#else
#define VG_ANSNR_HD
#endif

static inline VG_ANSNR_HD int vg_ansnr_mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

#define VG_ANSNR_BLOCK_X 32       ///< filter kernel: threads per block along x
#define VG_ANSNR_BLOCK_Y 8        ///< filter kernel: threads per block along y
#define VG_ANSNR_ROWS_THREADS 256 ///< threads of the row sums' blocks
#define VG_ANSNR_ROWS_STRIP 4     ///< rows per block of the row sums

/** Parameters of the CUDA kernels (gpu/float_ansnr.cu). */
typedef struct VgAnsnrKernelParams {
    uint64_t ref, dis; ///< device float luma, offset 0 (VgCudaFrame.ref_f)
    int64_t pitch;     ///< bytes
    uint64_t ref_filt, dis_filt; ///< device scratch, w floats per row
    uint64_t rows;               ///< device scratch, 2 floats per row
    uint64_t out;                ///< device float[2]: signal, noise
    uint64_t counter; ///< rows kernel's blocks done (0 between launches)
    int32_t w, h;
} VgAnsnrKernelParams;

#endif /* VG_FEATURES_FLOAT_ANSNR_PARAMS_H */
