/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Parameters and launch geometry of the motion SAD kernel
 * (gpu/motion.cu), shared with the host side in gpu/motion.c.
 */

#ifndef VG_GPU_MOTION_PARAMS_H
#define VG_GPU_MOTION_PARAMS_H

#include <stdint.h>

#define VG_MOTION_BLOCK_X 32   ///< threads per block along x = output tile width
#define VG_MOTION_BLOCK_Y 8    ///< threads per block along y
#define VG_MOTION_TILE_W  32   ///< output columns per block
#define VG_MOTION_TILE_H  16   ///< output rows per block (2 per thread)

typedef struct VgMotionParams {
    uint64_t prev;       ///< previous reference luma (device)
    uint64_t cur;        ///< current reference luma (device)
    int64_t prev_pitch;  ///< bytes
    int64_t cur_pitch;   ///< bytes
    uint64_t sad;        ///< device uint64: SAD accumulator (zeroed by the host)
    uint32_t w, h;       ///< luma size
    uint32_t bpc;        ///< bits per sample, 8..16
} VgMotionParams;

#endif /* VG_GPU_MOTION_PARAMS_H */
