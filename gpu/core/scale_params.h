/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Parameters of the scaling kernels (gpu/core/scale.cu), shared by the host
 * code in gpu/core/scale.c: up to three planes per launch, one per grid z.
 * Plain fixed-width fields only: the struct is passed by value to
 * cuLaunchKernel().
 */

#ifndef VG_GPU_SCALE_PARAMS_H
#define VG_GPU_SCALE_PARAMS_H

#include <stdint.h>

#define VG_SCALE_BLOCK_X 64
#define VG_SCALE_BLOCK_Y 4

/** One axis' filter on the device (common/scale.h VgScaleFilter). */
typedef struct VgScaleTaps {
    uint64_t pos;  ///< device int32 first input of each output
    uint64_t coef; ///< device int16 taps, `size` per output
    uint32_t size; ///< taps per output
    uint32_t n_in; ///< input samples: taps at or past it are not read
} VgScaleTaps;

/** One plane of a pass. */
typedef struct VgScalePlane {
    uint64_t src;      ///< horizontal: source plane; vertical: intermediates
    uint64_t dst;      ///< horizontal: intermediates; vertical: output plane
    int64_t src_pitch; ///< bytes
    int64_t dst_pitch; ///< bytes
    uint32_t w, h;     ///< outputs of the pass: columns, rows
    VgScaleTaps taps;
} VgScalePlane;

typedef struct VgScaleParams {
    VgScalePlane plane[3];
    uint32_t bpc; ///< 8..14
} VgScaleParams;

#endif /* VG_GPU_SCALE_PARAMS_H */
