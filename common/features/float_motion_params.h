/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float motion's taps and the parameters of its kernels (gpu/float_motion.cu),
 * shared by cpu/float_motion.c, gpu/float_motion.c and gpu/float_motion.cu.
 */

#ifndef VG_FEATURES_FLOAT_MOTION_PARAMS_H
#define VG_FEATURES_FLOAT_MOTION_PARAMS_H

#include <stdint.h>

/*
 * libvmaf v3.2.0 src/feature/motion_tools.h FILTER_5_s, FILTER_3_s and
 * FILTER_5_NO_OP_s: double literals stored as float, hence the casts.
 */
#define VG_FMOTION_TAP5_0 ((float)0.054488685)
#define VG_FMOTION_TAP5_1 ((float)0.244201342)
#define VG_FMOTION_TAP5_2 ((float)0.402619947)
#define VG_FMOTION_TAP3_0 ((float)0.166378498)
#define VG_FMOTION_TAP3_1 ((float)0.667243004)

/** libvmaf src/mem.h ALIGN_CEIL(): bytes rounded up to 32. */
static inline unsigned vg_fmotion_align32(unsigned bytes)
{
    return bytes % 32 ? bytes + (32 - bytes % 32) : bytes;
}

/** The taps of motion_filter_size (float_motion.c extract()): 1 is the
 *  5-tap identity, 3 the 3-tap filter, any other value the 5-tap blur. */
static inline unsigned vg_fmotion_taps(int filter_size, float tap[5])
{
    if (filter_size == 3) {
        tap[0] = VG_FMOTION_TAP3_0;
        tap[1] = VG_FMOTION_TAP3_1;
        tap[2] = VG_FMOTION_TAP3_0;
        tap[3] = tap[4] = 0.0f;
        return 3;
    }
    if (filter_size == 1) {
        tap[0] = tap[1] = tap[3] = tap[4] = 0.0f;
        tap[2] = 1.0f;
        return 5;
    }
    tap[0] = tap[4] = VG_FMOTION_TAP5_0;
    tap[1] = tap[3] = VG_FMOTION_TAP5_1;
    tap[2] = VG_FMOTION_TAP5_2;
    return 5;
}

#define VG_FMOTION_BLOCK 128       ///< threads per block of every kernel
#define VG_FMOTION_ROWS 8          ///< rows per block of the blur kernels
#define VG_FMOTION_SAD_THREADS 256 ///< threads of vg_fmotion_row_sad's blocks
#define VG_FMOTION_SAD_STRIP 4     ///< rows per block of vg_fmotion_row_sad

/** Parameters of the blur kernels (gpu/float_motion.cu). */
typedef struct VgFloatMotionBlurParams {
    uint64_t src;      ///< float plane (device)
    uint64_t dst;      ///< float plane (device)
    int64_t src_pitch; ///< floats
    int64_t dst_pitch; ///< floats
    uint32_t w, h;
    uint32_t n_taps; ///< 3 or 5
    float tap[5];
} VgFloatMotionBlurParams;

/** Parameters of the row SAD kernel. */
typedef struct VgFloatMotionSadParams {
    uint64_t a, b;    ///< blurred planes (device)
    int64_t pitch;    ///< floats, both planes
    uint64_t row_sad; ///< device float[h]: one sum per row
    uint32_t w, h;
} VgFloatMotionSadParams;

#endif /* VG_FEATURES_FLOAT_MOTION_PARAMS_H */
