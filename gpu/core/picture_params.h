/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Parameters of the picture conversion kernels (gpu/core/picture.cu), shared by
 * the host code in gpu/core/picture.c. Plain fixed-width fields only: the
 * struct is passed by value to cuLaunchKernel().
 */

#ifndef VG_GPU_PICTURE_PARAMS_H
#define VG_GPU_PICTURE_PARAMS_H

#include <stdint.h>

#define VG_CONV_BLOCK_X 32
#define VG_CONV_BLOCK_Y 8

/** One plane of 16-bit words: src sample (x, y) at src + y * src_pitch + 2 x. */
typedef struct VgConvParams {
    uint64_t src;      ///< device address of the first source sample
    uint64_t dst;      ///< device address of the destination plane
    int64_t src_pitch; ///< bytes
    int64_t dst_pitch; ///< bytes
    uint32_t w, h;     ///< plane size in samples
    uint32_t shift; ///< right shift of the source words (MSB-aligned formats)
} VgConvParams;

/**
 * Interleaved chroma (NV12, NV16, P010, P016, P216) into two planes: pair
 * x of row y at src + y * src_pitch + 2 x samples, U first; four pairs per
 * thread of a VG_CONV_BLOCK_X-wide block.
 */
typedef struct VgSplitParams {
    uint64_t src;         ///< device address of the first pair
    uint64_t dst[2];      ///< device U and V planes, 8-byte aligned
    int64_t src_pitch;    ///< bytes
    int64_t dst_pitch[2]; ///< bytes, multiples of 8
    uint32_t w, h;        ///< plane size in samples (pairs)
    uint32_t
        shift; ///< right shift of 16-bit source words (MSB-aligned formats)
} VgSplitParams;

/**
 * One plane of a converted 16-bit image checked against its bit depth:
 * every sample above maxval raises *out to max(*out, value << 32 |
 * (0xffffffff - (y * w + x))), so the host reads the largest bad value and
 * the first position it has; 0 when the plane is in range.
 */
typedef struct VgRangeParams {
    uint64_t src;    ///< device plane (uint16 samples)
    int64_t pitch;   ///< bytes
    uint32_t w, h;   ///< plane size in samples
    uint32_t maxval; ///< (1 << bitdepth) - 1
    uint64_t out;    ///< device uint64, zeroed by the host
} VgRangeParams;

/**
 * Luma as float (common/fplane.h): dst = (float)src / scaler, the scaler
 * 2^(bpc - 8); four samples per thread of a VG_CONV_BLOCK_X-wide block.
 */
typedef struct VgFloatParams {
    uint64_t src;      ///< device plane (internal layout)
    uint64_t dst;      ///< device float plane, 16-byte aligned
    int64_t src_pitch; ///< bytes
    int64_t dst_pitch; ///< bytes, a multiple of 16
    uint32_t w, h;     ///< plane size in samples
    float inv_scaler;  ///< 1 / scaler, exact: 2^(8 - bpc); 1 for 8 bits
} VgFloatParams;

#endif /* VG_GPU_PICTURE_PARAMS_H */
