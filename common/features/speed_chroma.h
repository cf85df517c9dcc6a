/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED on the chroma planes (libvmaf v3.2.0 src/feature/speed.c,
 * vmaf_fex_speed_chroma): options, outputs, and what speed_chroma and
 * speed_temporal share: the prescale methods, the kernel-scale check and
 * the option checks run before any picture is seen.
 */

#ifndef VG_FEATURES_SPEED_CHROMA_H
#define VG_FEATURES_SPEED_CHROMA_H

#include "common/feature.h"
#include "common/log.h"

/** Output indices, in libvmaf's provided_features order. */
enum {
    VG_SPEED_CHROMA_OUT_U,
    VG_SPEED_CHROMA_OUT_V,
    VG_SPEED_CHROMA_OUT_UV,
};

/** speed_prescale_method values, in the order of the option's names. */
enum VgSpeedPrescale {
    VG_SPEED_NEAREST,
    VG_SPEED_BILINEAR,
    VG_SPEED_BICUBIC,
    VG_SPEED_LANCZOS4,
};

/** speed_chroma's options (speed.c SpeedChromaState). */
typedef struct VgSpeedChromaOptions {
    double speed_kernelscale;
    double speed_prescale;
    int speed_prescale_method;  ///< enum VgSpeedPrescale
    double speed_sigma_nn;
    double speed_nn_floor;
    double speed_max_val;
    int speed_weight_var_mode;
} VgSpeedChromaOptions;

/** The names of speed_prescale_method, NULL-terminated. */
extern const char *const vg_speed_prescale_methods[];

/**
 * Refuse a speed_kernelscale that vif_tools.h does not list (libvmaf's
 * speed_init() fails on it, leaving the extractor without buffers):
 * logged for feature `name`, -EINVAL.
 */
int vg_speed_check_kernelscale(const char *name, double ks, VgLog *log);

#endif /* VG_FEATURES_SPEED_CHROMA_H */
