/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion (libvmaf v3.2.0 src/feature/integer_motion.c): options,
 * outputs and the score finish shared by the CPU and CUDA paths. The
 * backends compute the SAD of the filtered reference difference; the
 * motion2/motion3 post-processing is backend-independent (cpu/motion.c).
 */

#ifndef VG_CPU_MOTION_H
#define VG_CPU_MOTION_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

enum {
    VG_MOTION_OUT_SAD,
    VG_MOTION_OUT_MOTION,  ///< debug: same value as the SAD score
    VG_MOTION_OUT_MOTION2,
    VG_MOTION_OUT_MOTION3,
};

typedef struct VgMotionOptions {
    bool motion_force_zero;
    double motion_blend_factor;
    double motion_blend_offset;
    double motion_fps_weight;
    double motion_max_val;
    bool motion_five_frame_window;
    bool motion_moving_average;
    bool debug;
} VgMotionOptions;

/** Filter taps, integer_motion.h (sum 65536). */
extern const int32_t vg_motion_taps[5];

/**
 * The per-frame score from the SAD, as integer_motion.c extract():
 * min(SAD / 256 / (w * h) * fps_weight, max_val), left to right in double.
 */
static inline double vg_motion_score(const VgMotionOptions *o, uint64_t sad,
                                     unsigned w, unsigned h)
{
    double s = (double)sad / 256. / (double)(w * h) * o->motion_fps_weight;
    return s < o->motion_max_val ? s : o->motion_max_val;
}

/** First frame index with a motion score (2 with the five-frame window). */
static inline unsigned vg_motion_min_idx(const VgMotionOptions *o)
{
    return o->motion_five_frame_window ? 2 : 1;
}

struct VgFeatureCtx;

/** Emit the per-frame SAD score (and integer_motion with debug). */
int vg_motion_emit_sad_score(struct VgFeatureCtx *fc, unsigned index,
                             double score);

#if HAVE_CUDA
extern const struct VgCudaFeatureImpl vg_motion_cuda;
#endif

#endif /* VG_CPU_MOTION_H */
