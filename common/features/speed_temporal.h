/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED on the luma differences of consecutive frames (libvmaf v3.2.0
 * src/feature/speed.c, vmaf_fex_speed_temporal): options and output.
 */

#ifndef VG_FEATURES_SPEED_TEMPORAL_H
#define VG_FEATURES_SPEED_TEMPORAL_H

#include <stdbool.h>

#include "common/feature.h"
#include "common/features/speed_chroma.h"

enum {
    VG_SPEED_TEMPORAL_OUT_SCORE,
};

/** speed_temporal's options (speed.c SpeedTemporalState). */
typedef struct VgSpeedTemporalOptions {
    double speed_kernelscale;
    double speed_prescale;
    int speed_prescale_method; ///< enum VgVifPrescale
    double speed_sigma_nn;
    double speed_nn_floor;
    double speed_max_val; ///< accepted and named, never applied (as in speed.c)
    bool speed_use_ref_diff;
} VgSpeedTemporalOptions;

#endif /* VG_FEATURES_SPEED_TEMPORAL_H */
