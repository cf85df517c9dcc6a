/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float motion (libvmaf v3.2.0 src/feature/float_motion.c): options,
 * outputs and the score finish shared by the backends. A backend blurs the
 * reference luma (planes as float, offset -128), sums |blur(n-1) - blur(n)|
 * per row in float, left to right, and hands the row sums to
 * vg_float_motion_sad(); motion2 and motion3 are the backend-independent
 * post-processing in common/features/float_motion.c.
 */

#ifndef VG_FEATURES_FLOAT_MOTION_H
#define VG_FEATURES_FLOAT_MOTION_H

#include <stdbool.h>

#include "common/feature.h"
#include "common/features/float_motion_params.h"

enum {
    VG_FMOTION_OUT_MOTION, ///< "motion" (debug, on by default)
    VG_FMOTION_OUT_MOTION2,
    VG_FMOTION_OUT_MOTION3,
    VG_FMOTION_OUT_SCORE, ///< internal: the unweighted score of frame n >= 1
};

typedef struct VgFloatMotionOptions {
    bool debug;
    bool motion_force_zero;
    double motion_fps_weight;
    double motion_blend_factor;
    double motion_blend_offset;
    bool motion_add_scale1;
    int motion_filter_size;
    bool motion_add_uv;
    double motion_max_val;
} VgFloatMotionOptions;

/**
 * motion.c vmaf_image_sad_c(): the row sums added top to bottom in float,
 * divided by the pixel count (as a float): the mean absolute difference
 * of one plane at one scale.
 */
float vg_float_motion_sad(const float *row_sad, unsigned w, unsigned h);

/**
 * Refuse what libvmaf cannot compute (logged, negative errno):
 * motion_add_uv on 4:0:0 pictures (float_motion.c init() returns -EINVAL)
 * or on chroma planes under 3x3, where the blur's mirrors leave the plane.
 */
int vg_float_motion_check(const VgFeatureCtx *fc);

/** The scaled size of motion_add_scale1 (motion.c: (int)(w * 0.5 + 0.5)). */
static inline unsigned vg_float_motion_half(unsigned n)
{
    return (unsigned)(int)(n * 0.5 + 0.5);
}

/**
 * Emit what frame `index` gives on its own: with motion_force_zero 0 for
 * motion2, motion3 (and motion with debug); at frame 0 motion2 = 0 and
 * motion = 0; else `score` (the sum of the planes' scores, double) as
 * motion = min(score * fps_weight, max_val) and the internal score.
 */
int vg_float_motion_emit(VgFeatureCtx *fc, unsigned index, double score);

#endif /* VG_FEATURES_FLOAT_MOTION_H */
