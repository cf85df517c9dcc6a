/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float VIF (libvmaf v3.2.0 src/feature/float_vif.c, vif.c compute_vif(),
 * vif_tools.c, vif_options.h): options, outputs, and everything the
 * backends share: the prescale tables, the Gaussian filters of each scale
 * (built on the host, with the host's libm, as vif_tools.c does), the
 * statistic's constants and the finish from the per-row sums.
 *
 * What a backend computes, per scale s in first..3, is one float per row
 * and per quantity: the row's sum, in ascending column order starting from
 * 0.0f, of the per-pixel num and den of vif_statistic_s(); then the rows
 * added top to bottom into a float (vg_float_vif_sum_rows(), or the same
 * additions on the device). The scores from those eight floats are
 * vg_float_vif_emit() on the host, the same code for both backends.
 */

#ifndef VG_FEATURES_FLOAT_VIF_H
#define VG_FEATURES_FLOAT_VIF_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/feature.h"
#include "common/log.h"
#include "common/features/float_vif_params.h"

/** Output indices, in libvmaf's provided_features order. */
enum {
    VG_FVIF_OUT_SCALE0,
    VG_FVIF_OUT_SCALE1,
    VG_FVIF_OUT_SCALE2,
    VG_FVIF_OUT_SCALE3,
    VG_FVIF_OUT_VIF, ///< debug outputs from here on
    VG_FVIF_OUT_NUM,
    VG_FVIF_OUT_DEN,
    VG_FVIF_OUT_NUM_SCALE0, ///< then den_scale0, num_scale1, ... den_scale3
};

typedef struct VgFloatVifOptions {
    bool debug;
    double vif_enhn_gain_limit;
    double vif_kernelscale;
    double vif_prescale;
    double vif_scale1_min_val;
    double vif_scale2_min_val;
    double vif_scale3_min_val;
    int vif_prescale_method; ///< enum VgVifPrescale
    double vif_sigma_nsq;
    bool vif_skip_scale0;
} VgFloatVifOptions;

/**
 * One axis of the prescale (vif_tools.c vif_scale_frame_*_s()): for each
 * output coordinate, the source indices (already mirrored) and weights.
 *  - nearest: idx[0];
 *  - bilinear: idx[0] = floor, idx[1] = ceil, w[0] = the fraction d
 *    (the value is (1-dy)(1-dx)s00 + (1-dy)dx s01 + dy(1-dx)s10 + dy dx s11);
 *  - bicubic: 4 indices and weights; lanczos4: 9 of each.
 */
typedef struct VgFvifAxis {
    int32_t *idx; ///< n * VG_VIF_PRESCALE_TAPS
    float *w;     ///< n * VG_VIF_PRESCALE_TAPS
} VgFvifAxis;

/** The per-stream constants both backends use. */
typedef struct VgFvifSetup {
    unsigned w, h;             ///< input luma size
    unsigned sw, sh;           ///< prescaled size (compute_vif's w, h)
    int prescale;              ///< 0: sw x sh is w x h, no resampling
    int method;                ///< enum VgVifPrescale
    VgFvifAxis ax, ay;         ///< prescale tables (prescale only)
    unsigned first;            ///< first computed scale (1 with skip_scale0)
    unsigned sc_w[4], sc_h[4]; ///< picture size of each scale
    int taps[4];               ///< filter length per scale (odd)
    float filter[4][VG_FVIF_MAX_TAPS];
    float egl; ///< (float)vif_enhn_gain_limit
    double sigma_nsq;
    float sigma_max_inv; ///< powf(sigma_nsq, 2) / (255 * 255)
    unsigned rows;       ///< sum of sc_h[first..3]: row sums per quantity
    unsigned row_off[4]; ///< first row-sum index of each scale
} VgFvifSetup;

/**
 * Build the constants for a w x h stream; refuses (logged, -EINVAL) a
 * picture too small for the filters of every computed scale (libvmaf
 * would read outside its buffers), -ENOMEM. Release with
 * vg_float_vif_free().
 */
int vg_float_vif_setup(VgFvifSetup *s, const VgFloatVifOptions *o, unsigned w,
                       unsigned h, VgLog *log);
void vg_float_vif_free(VgFvifSetup *s);

/**
 * The per-scale sums from the row sums: num_rows[s->row_off[sc] + i] (and
 * den_rows) is row i of scale sc, added top to bottom into a float as
 * vif_statistic_s() does; scales below s->first are 0. The CUDA
 * backend's last kernel performs the same additions in the same order.
 */
void vg_float_vif_sum_rows(const VgFvifSetup *s, const float *num_rows,
                           const float *den_rows, float num[4], float den[4]);

/**
 * Emit frame `index` from the per-scale float sums (compute_vif()'s
 * scores, then float_vif.c extract()).
 */
int vg_float_vif_emit(VgFeatureCtx *fc, const VgFvifSetup *s, unsigned index,
                      const float num[4], const float den[4]);

#endif /* VG_FEATURES_FLOAT_VIF_H */
