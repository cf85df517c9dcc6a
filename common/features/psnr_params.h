/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Parameters and launch geometry of the PSNR SSE kernel (gpu/psnr.cu),
 * shared by gpu/psnr.c and gpu/psnr.cu.
 */

#ifndef VG_FEATURES_PSNR_PARAMS_H
#define VG_FEATURES_PSNR_PARAMS_H

#include <stdint.h>

#define VG_PSNR_BLOCK_X 32   ///< threads per block along x
#define VG_PSNR_BLOCK_Y 8    ///< threads per block along y (one row each)
#define VG_PSNR_PER_THREAD 8 ///< samples per thread, VG_PSNR_BLOCK_X apart
#define VG_PSNR_TILE_W (VG_PSNR_BLOCK_X * VG_PSNR_PER_THREAD)

typedef struct VgPsnrKernelParams {
    uint64_t ref[3], dis[3]; ///< device planes; both images share one geometry
    int64_t pitch[3];        ///< bytes
    uint32_t w[3], h[3];     ///< plane sizes
    uint64_t sse; ///< device uint64[3]: per-plane SSE (zeroed by the host)
} VgPsnrKernelParams;

#endif /* VG_FEATURES_PSNR_PARAMS_H */
