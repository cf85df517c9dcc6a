/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_temporal's descriptor, as libvmaf v3.2.0 src/feature/speed.c
 * (options, provided_features, init(), extract(); a TEMPORAL extractor).
 *
 * Frame 0 scores 0.0. Frame n > 0 is SpEED (common/features/speed.c) of the luma
 * differences, as floats (sample / 2^(bpc - 8) - 128, common/fplane.h,
 * then subtracted in float): ref(n-1) - ref(n) against dis(n-1) - dis(n),
 * or dis(n-1) - ref(n) with speed_use_ref_diff. speed.c keeps the two
 * frames in a pair of buffers and overwrites the older one with the
 * difference, so frame n sees frame n-1 as it was read: each frame's score
 * depends on frames n-1 and n only, and is computed from them here
 * (VgFrame.prev_ref, prev_dis). The score is the float SpEED value;
 * speed_max_val is accepted and names the output, but speed.c never applies
 * it to this feature, so neither do we.
 *
 * With speed_prescale above 1, libvmaf's two frame buffers hold h rows,
 * fewer than the prescaled picture it writes into them (a heap overflow);
 * ours hold max(h, prescaled h) rows, which gives the values libvmaf
 * computes whenever that overflow does not crash it.
 *
 * Refused: a luma plane whose prescaled size leaves no 5x5 block after
 * the decimation by 16 (80x80 at speed_prescale 1), kernel scales
 * vif_tools.h does not list (see speed_chroma).
 */

#include "common/features/speed.h"
#include "common/features/speed_temporal.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgSpeedTemporalOptions, field)

/* clang-format off */
static const VgFeatureOption speed_temporal_options[] = {
    VG_SPEED_OPTIONS_COMMON(OPT),
    { .name = "speed_max_val", .alias = "mxv", .type = VG_OPT_DOUBLE,
      OPT(speed_max_val), .def = 1000.0, .min = 0.0, .max = 1000.0,
      .feature_param = 1,
      .help = "maximum value allowed (libvmaf names the output with it but "
              "does not clip this feature)" },
    { .name = "speed_use_ref_diff", .alias = "urd", .type = VG_OPT_BOOL,
      OPT(speed_use_ref_diff), .def = 0, .min = 0, .max = 1,
      .feature_param = 1,
      .help = "difference the distorted frame n-1 against the reference "
              "frame n" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput speed_temporal_outputs[] = {
    [VG_SPEED_TEMPORAL_OUT_SCORE] =
        { "Speed_temporal_feature_speed_temporal_score", "speed_temporal", 0 },
    { NULL }
};
/* clang-format on */

static int speed_temporal_check_opts(const void *opts, VgLog *log)
{
    const VgSpeedTemporalOptions *o = opts;

    return vg_speed_check_kernelscale("speed_temporal", o->speed_kernelscale,
                                      log);
}

int vg_speed_temporal_setup(VgFeatureCtx *fc, VgSpeed *speed, int no_frames)
{
    const VgSpeedTemporalOptions *o = fc->opts;
    const VgSpeedParams p = {
        .kernelscale = o->speed_kernelscale,
        .prescale = o->speed_prescale,
        .method = o->speed_prescale_method,
        .sigma_nn = o->speed_sigma_nn,
        .nn_floor = o->speed_nn_floor,
        .weight_var_mode = 0,
        .no_frames = no_frames,
    };

    return vg_speed_init(speed, &p, fc->width, fc->height, "speed_temporal",
                         fc->log);
}

const VgFeatureDesc vg_feature_speed_temporal = {
    VG_FEATURE_DESC(speed_temporal),
    VG_FEATURE_OPTIONS(speed_temporal, VgSpeedTemporalOptions),
    .check_opts = speed_temporal_check_opts,
    .flags = VG_FEATURE_PREV_REF | VG_FEATURE_PREV_DIS | VG_FEATURE_EVERY_FRAME,
};
