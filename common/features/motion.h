/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion (libvmaf v3.2.0 src/feature/integer_motion.c): options,
 * outputs and the score finish shared by the backends. A backend computes
 * the SAD of the filtered reference difference (cpu/motion.c,
 * gpu/motion.cu) and hands it to vg_motion_emit_sad(); motion2 and motion3
 * are the backend-independent post-processing in common/features/motion.c.
 */

#ifndef VG_FEATURES_MOTION_H
#define VG_FEATURES_MOTION_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/features/motion_params.h"

enum {
    VG_MOTION_OUT_SAD,
    VG_MOTION_OUT_MOTION, ///< debug: same value as the SAD score
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

/**
 * libvmaf v3.2.0 src/feature/motion_blend_tools.h motion_blend(), shared
 * by integer and float motion: s * f + (1 - f) * min(offset, s), in double.
 */
static inline double vg_motion_blend(double s, double f, double off)
{
    return s * f + (1 - f) * (off < s ? off : s);
}

/** First frame index with a motion score (2 with the five-frame window). */
static inline unsigned vg_motion_min_idx(const VgMotionOptions *o)
{
    return o->motion_five_frame_window ? 2 : 1;
}

/** 1 when frame `index` has a SAD (else it scores 0: motion_force_zero,
 *  frames before min_idx), as integer_motion.c extract(). */
static inline int vg_motion_has_sad(const VgMotionOptions *o, unsigned index)
{
    return !o->motion_force_zero && index >= vg_motion_min_idx(o);
}

/**
 * The reference picture that frame `index` is compared with: *prev is set
 * to prev_ref (or prev_prev_ref with the five-frame window), or to NULL
 * when the frame has no SAD (vg_motion_has_sad()). @return 0, or -EINVAL (logged) when that picture is missing.
 */
int vg_motion_prev(const VgFeatureCtx *fc, unsigned index,
                   const VgImage *prev_ref, const VgImage *prev_prev_ref,
                   const VgImage **prev);

/**
 * Emit frame `index`'s SAD score (and integer_motion with debug) from the
 * SAD: min(SAD / 256 / (w * h) * fps_weight, max_val), left to right in
 * double as integer_motion.c extract(); `have_sad` 0 scores 0.
 */
int vg_motion_emit_sad(VgFeatureCtx *fc, unsigned index, int have_sad,
                       uint64_t sad);

#endif /* VG_FEATURES_MOTION_H */
