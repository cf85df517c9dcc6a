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
#include "common/features/vif_tools.h"

/** Output indices, in libvmaf's provided_features order. */
enum {
    VG_SPEED_CHROMA_OUT_U,
    VG_SPEED_CHROMA_OUT_V,
    VG_SPEED_CHROMA_OUT_UV,
};

/** speed_chroma's options (speed.c SpeedChromaState). */
typedef struct VgSpeedChromaOptions {
    double speed_kernelscale;
    double speed_prescale;
    int speed_prescale_method; ///< enum VgVifPrescale
    double speed_sigma_nn;
    double speed_nn_floor;
    double speed_max_val;
    int speed_weight_var_mode;
} VgSpeedChromaOptions;

/**
 * The option rows speed_chroma and speed_temporal share (libvmaf's names,
 * aliases, defaults and ranges), for an options struct with these fields;
 * OPT(field) gives a row its offset.
 */
#define VG_SPEED_OPTIONS_COMMON(OPT)                                           \
    { .name = "speed_kernelscale",                                             \
      .alias = "ks",                                                           \
      .type = VG_OPT_DOUBLE,                                                   \
      OPT(speed_kernelscale),                                                  \
      .def = 1.0,                                                              \
      .min = 0.1,                                                              \
      .max = 4.0,                                                              \
      .feature_param = 1,                                                      \
      .help = "scaling factor for the gaussian kernel (2.0 doubles its "       \
              "standard deviation and its length); one of 21 values" },        \
        { .name = "speed_prescale",                                            \
          .alias = "ps",                                                       \
          .type = VG_OPT_DOUBLE,                                               \
          OPT(speed_prescale),                                                 \
          .def = 1.0,                                                          \
          .min = 0.1,                                                          \
          .max = 4.0,                                                          \
          .feature_param = 1,                                                  \
          .help = "scaling factor for the frame (2.0 makes it twice as large " \
                  "on each side)" },                                           \
        { .name = "speed_prescale_method",                                     \
          .alias = "psm",                                                      \
          .type = VG_OPT_ENUM,                                                 \
          OPT(speed_prescale_method),                                          \
          .def = VG_VIF_NEAREST,                                               \
          .min = 0,                                                            \
          .max = 3,                                                            \
          .feature_param = 1,                                                  \
          .values = vg_vif_prescale_names,                                     \
          .help = "scaling method for the frame: nearest, bilinear, bicubic, " \
                  "lanczos4" },                                                \
        { .name = "speed_sigma_nn",                                            \
          .alias = "snn",                                                      \
          .type = VG_OPT_DOUBLE,                                               \
          OPT(speed_sigma_nn),                                                 \
          .def = 0.29,                                                         \
          .min = 0.1,                                                          \
          .max = 2.0,                                                          \
          .feature_param = 1,                                                  \
          .help = "standard deviation of neural noise" },                      \
    {                                                                          \
        .name = "speed_nn_floor", .alias = "nnf", .type = VG_OPT_DOUBLE,       \
        OPT(speed_nn_floor), .def = 0.0, .min = 0.0, .max = 1.0,               \
        .feature_param = 1,                                                    \
        .help = "neural noise floor, expressed in percentage of sigma_nn"      \
    }

/**
 * Refuse a speed_kernelscale that vif_tools.h does not list (libvmaf's
 * speed_init() fails on it, leaving the extractor without buffers):
 * logged for feature `name`, -EINVAL.
 */
int vg_speed_check_kernelscale(const char *name, double ks, VgLog *log);

#endif /* VG_FEATURES_SPEED_CHROMA_H */
