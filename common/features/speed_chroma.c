/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_chroma's descriptor, as libvmaf v3.2.0 src/feature/speed.c
 * (options_chroma, provided_features_chroma, init_chroma(),
 * extract_chroma()), and the parts speed_temporal shares.
 *
 * The U and V planes (as floats, sample / 2^(bpc - 8) - 128,
 * common/fplane.h) each give a SpEED score (common/features/speed.c); uv is their
 * mean, (u + v) / 2.0 rounded to float, or the other channel's score when
 * exactly one channel's covariance is singular (a flat plane). Each output
 * is MIN(score, speed_max_val), a double.
 *
 * Refused: 4:0:0 (init_chroma() returns -EINVAL: no chroma); a chroma
 * plane whose prescaled size leaves no 5x5 block after the decimation by
 * 16 (at least 80x80 at speed_prescale 1, so 160x160 luma in 4:2:0:
 * speed.c logs "image too small" and then reads unallocated buffers);
 * kernel scales vif_tools.h does not list (speed_init() fails, and
 * init_chroma() goes on without buffers).
 */

#include <errno.h>
#include <math.h>

#include "common/features/speed.h"
#include "common/features/speed_chroma.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgSpeedChromaOptions, field)

int vg_speed_check_kernelscale(const char *name, double ks, VgLog *log)
{
    if (vg_vif_kernelscale_valid((float)ks))
        return 0;
    vg_log(
        log, VG_LOG_ERROR,
        "feature '%s': speed_kernelscale=%g is not one of " VG_VIF_KERNELSCALES,
        name, ks);
    return -EINVAL;
}

/* clang-format off */
static const VgFeatureOption speed_chroma_options[] = {
    VG_SPEED_OPTIONS_COMMON(OPT),
    { .name = "speed_max_val", .alias = "mxv", .type = VG_OPT_DOUBLE,
      OPT(speed_max_val), .def = 1000.0, .min = 0.0, .max = 1000.0,
      .feature_param = 1,
      .help = "maximum value allowed; larger values will be clipped to "
              "this value" },
    { .name = "speed_weight_var_mode", .alias = "wvm", .type = VG_OPT_INT,
      OPT(speed_weight_var_mode), .def = 0, .min = 0, .max = 6,
      .feature_param = 1,
      .help = "variance weighting of the entropies: 0 each its own, 1 the "
              "reference's, 2 the distorted's, 3 their mean, 4 the mean for "
              "the distorted only, 5 and 6 weighted means (0.75/0.25, "
              "0.25/0.75) for the distorted only" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput speed_chroma_outputs[] = {
    [VG_SPEED_CHROMA_OUT_U] =
        { "Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u", 0 },
    [VG_SPEED_CHROMA_OUT_V] =
        { "Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v", 0 },
    [VG_SPEED_CHROMA_OUT_UV] =
        { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv", 0 },
    { NULL }
};
/* clang-format on */

static int speed_chroma_check_opts(const void *opts, VgLog *log)
{
    const VgSpeedChromaOptions *o = opts;

    return vg_speed_check_kernelscale("speed_chroma", o->speed_kernelscale,
                                      log);
}

int vg_speed_chroma_setup(VgFeatureCtx *fc, VgSpeed *speed, int no_frames)
{
    const VgSpeedChromaOptions *o = fc->opts;
    const VgSpeedParams p = {
        .kernelscale = o->speed_kernelscale,
        .prescale = o->speed_prescale,
        .method = o->speed_prescale_method,
        .sigma_nn = o->speed_sigma_nn,
        .nn_floor = o->speed_nn_floor,
        .weight_var_mode = o->speed_weight_var_mode,
        .no_frames = no_frames,
    };
    unsigned ssx, ssy;

    if (fc->layout == VG_LAYOUT_400) {
        vg_log(fc->log, VG_LOG_ERROR,
               "speed_chroma: needs chroma planes; "
               "4:0:0 (gray) input has none");
        return -EINVAL;
    }
    /* init_chroma(): the chroma plane's size, w / 2 and h / 2 as
     * subsampled */
    vg_layout_shifts(fc->layout, &ssx, &ssy);
    return vg_speed_init(speed, &p, fc->width >> ssx, fc->height >> ssy,
                         "speed_chroma", fc->log);
}

int vg_speed_chroma_emit(VgFeatureCtx *fc, unsigned index, float u, float v,
                         int err_u, int err_v)
{
    const VgSpeedChromaOptions *o = fc->opts;
    const double mx = o->speed_max_val;
    float uv;
    int ret;

    /* extract_chroma(): a singular channel takes the other's score */
    if (err_u && !err_v)
        uv = v;
    else if (err_v && !err_u)
        uv = u;
    else
        uv = (u + v) / 2.0;
    /* MIN(x, max_val) with a double max_val */
    if ((ret = vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_U, index,
                               u < mx ? u : mx)) < 0 ||
        (ret = vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_V, index,
                               v < mx ? v : mx)) < 0)
        return ret;
    return vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_UV, index,
                           uv < mx ? uv : mx);
}

/**
 * speed_chroma. Its reference stage is, for each chroma plane, SpEED's
 * estimate of the reference alone: the blocks' entropies and variances
 * and whether its covariance was singular (the CPU backend shares it).
 */
const VgFeatureDesc vg_feature_speed_chroma = {
    VG_FEATURE_DESC(speed_chroma),
    VG_FEATURE_OPTIONS(speed_chroma, VgSpeedChromaOptions),
    .check_opts = speed_chroma_check_opts,
    /* the reference's entropies and variances */
    .flags = VG_FEATURE_CHROMA | VG_FEATURE_REF_STAGE,
};
