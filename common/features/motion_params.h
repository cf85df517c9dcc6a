/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion's taps, and the parameters and launch geometry of its
 * SAD kernel (gpu/motion.cu), shared by cpu/motion.c, gpu/motion.c and
 * gpu/motion.cu.
 */

#ifndef VG_FEATURES_MOTION_PARAMS_H
#define VG_FEATURES_MOTION_PARAMS_H

#include <stdint.h>

/** 5-tap filter, integer_motion.h (Q16, sum 65536): g0 g1 g2 g1 g0. */
#define VG_MOTION_TAP0 3571
#define VG_MOTION_TAP1 16004
#define VG_MOTION_TAP2 26386

#define VG_MOTION_BLOCK_X 32 ///< threads per block along x (a warp)
#define VG_MOTION_BLOCK_Y 8  ///< warps per block
/** output rows per warp: four (40 registers; eight took 60) with two a
 *  warp at ADM's DWT scales 1..3 gave vmaf_v0.6.1 at 1080p 7% more
 *  frames/s than eight and four, at 2160p the same */
#define VG_MOTION_ROWS 4
/** output columns per warp and block: two per lane; lanes 0 and 31 only
 *  lend their columns */
#define VG_MOTION_TILE_W (2 * (VG_MOTION_BLOCK_X - 2))
#define VG_MOTION_TILE_H                                                       \
    (VG_MOTION_BLOCK_Y * VG_MOTION_ROWS) ///< output rows per block

typedef struct VgMotionParams {
    uint64_t prev;      ///< previous reference luma (device)
    uint64_t cur;       ///< current reference luma (device)
    int64_t prev_pitch; ///< bytes
    int64_t cur_pitch;  ///< bytes
    uint64_t sad;       ///< device uint64: SAD accumulator (zeroed by the host)
    uint32_t w, h;      ///< luma size
    uint32_t bpc;       ///< bits per sample, 8..16
} VgMotionParams;

#endif /* VG_FEATURES_MOTION_PARAMS_H */
