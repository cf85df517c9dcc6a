/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF's descriptor and its backend-independent parts, as libvmaf
 * v3.2.0 src/feature/integer_vif.c: the taps, the log2 table
 * (log_generate()), the options and outputs, and the finish from the four
 * accumulators of each scale (vif_statistic_8/16's last lines,
 * write_scores()).
 */

#include <math.h>
#include <pthread.h>

#include "common/features/vif.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgVifOptions, field)

const uint16_t vg_vif_taps[4][17] = VG_VIF_TAPS_INIT;
const unsigned vg_vif_taps_len[4] = VG_VIF_TAPS_LEN_INIT;

static uint16_t log2_table[65537];
static pthread_once_t log2_once = PTHREAD_ONCE_INIT;

/* integer_vif.c log_generate(): glibc log2f, then round() in double. */
static void log2_build(void)
{
    for (unsigned i = 32767; i < 65536; i++)
        log2_table[i] = (uint16_t)round(log2f((float)i) * 2048);
}

const uint16_t *vg_vif_log2_table(void)
{
    pthread_once(&log2_once, log2_build);
    return log2_table;
}

/* vif_statistic_8/16 final lines: double, stored as float. */
static void scale_result(const VgVifAccum *a, float *num, float *den)
{
    *num = a->num_log / 2048.0 +
           (a->den_non_log - (a->num_non_log / 16384.0) / 65025.0);
    *den = a->den_log / 2048.0 + a->den_non_log;
}

int vg_vif_emit(VgFeatureCtx *fc, unsigned index, const VgVifAccum acc[4])
{
    const VgVifOptions *o = fc->opts;
    const unsigned first = o->vif_skip_scale0;
    float num[4] = { 0 }, den[4] = { 0 };
    double sum_num = 0.0, sum_den = 0.0;
    int ret;

    for (unsigned sc = first; sc < 4; sc++)
        scale_result(&acc[sc], &num[sc], &den[sc]);

    /* write_scores(): score = num / den in float; skipped scale 0 is 0. */
    for (unsigned sc = 0; sc < 4; sc++) {
        float v = sc < first ? 0.0f : num[sc] / den[sc];
        if ((ret = vg_feature_emit(fc, VG_VIF_OUT_SCALE0 + sc, index, v)) < 0)
            return ret;
    }
    if (!o->debug)
        return 0;

    /* Sums in double, scale order; 1.0 when the denominator is 0. */
    for (unsigned sc = first; sc < 4; sc++) {
        sum_num += (double)num[sc];
        sum_den += (double)den[sc];
    }
    if ((ret = vg_feature_emit(fc, VG_VIF_OUT_VIF, index,
                               sum_den == 0.0 ? 1.0 : sum_num / sum_den)) < 0 ||
        (ret = vg_feature_emit(fc, VG_VIF_OUT_NUM, index, sum_num)) < 0 ||
        (ret = vg_feature_emit(fc, VG_VIF_OUT_DEN, index, sum_den)) < 0)
        return ret;
    for (unsigned sc = 0; sc < 4; sc++) {
        /* skipped scale 0: num 0, den -1 */
        double n = sc < first ? 0.0 : num[sc];
        double d = sc < first ? -1.0 : den[sc];
        if ((ret = vg_feature_emit(fc, VG_VIF_OUT_NUM_SCALE0 + 2 * sc, index,
                                   n)) < 0 ||
            (ret = vg_feature_emit(fc, VG_VIF_OUT_NUM_SCALE0 + 2 * sc + 1,
                                   index, d)) < 0)
            return ret;
    }
    return 0;
}

/* clang-format off */
static const VgFeatureOption vif_options[] = {
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug), .def = 0, .min = 0,
      .max = 1, .help = "debug mode: enable additional output" },
    { .name = "vif_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE,
      OPT(vif_enhn_gain_limit), .def = 100.0, .min = 1.0, .max = 100.0,
      .feature_param = 1,
      .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 "
              "means the gain is completely disabled" },
    { .name = "vif_skip_scale0", .alias = "ssclz", .type = VG_OPT_BOOL,
      OPT(vif_skip_scale0), .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "when set, skip scale 0 calculations" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput vif_outputs[] = {
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0", 0 },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1", 0 },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2", 0 },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3", 0 },
    { "integer_vif", NULL, 1 },
    { "integer_vif_num", NULL, 1 },
    { "integer_vif_den", NULL, 1 },
    { "integer_vif_num_scale0", NULL, 1 },
    { "integer_vif_den_scale0", NULL, 1 },
    { "integer_vif_num_scale1", NULL, 1 },
    { "integer_vif_den_scale1", NULL, 1 },
    { "integer_vif_num_scale2", NULL, 1 },
    { "integer_vif_den_scale2", NULL, 1 },
    { "integer_vif_num_scale3", NULL, 1 },
    { "integer_vif_den_scale3", NULL, 1 },
    { NULL }
};
/* clang-format on */

/*
 * The reference stage: at each scale, the reference's filtered mean and
 * square of every pixel and the reference's picture of the next scale;
 * none of the options changes them.
 */
const VgFeatureDesc vg_feature_vif = {
    VG_FEATURE_DESC(vif),
    VG_FEATURE_OPTIONS(vif, VgVifOptions),
    .flags = VG_FEATURE_REF_STAGE,
    /* 16x16: exact mirrors at scale 3 (see @file); smaller is refused. */
    .min_width = VG_VIF_MIN_SIZE,
    .min_height = VG_VIF_MIN_SIZE,
};
