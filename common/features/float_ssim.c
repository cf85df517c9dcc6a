/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ssim's descriptor and finish, as libvmaf v3.2.0
 * src/feature/float_ssim.c and ssim.c: float_ssim (or its dB value with
 * enable_db) and, with enable_lcs, float_ssim_l, _c and _s. None of the
 * options renames the outputs (no feature_param flag in libvmaf).
 */

#include <errno.h>
#include <math.h>

#include "common/features/float_ssim.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgFloatSsimOptions, field)

/* clang-format off */
static const VgFeatureOption float_ssim_options[] = {
    { .name = "enable_lcs", .type = VG_OPT_BOOL, OPT(enable_lcs),
      .def = 0, .min = 0, .max = 1,
      .help = "also output the luminance, contrast and structure terms" },
    { .name = "enable_db", .type = VG_OPT_BOOL, OPT(enable_db),
      .def = 0, .min = 0, .max = 1, .help = "write the SSIM as dB" },
    { .name = "clip_db", .type = VG_OPT_BOOL, OPT(clip_db),
      .def = 0, .min = 0, .max = 1, .help = "clip the dB score" },
    { .name = "scale", .type = VG_OPT_INT, OPT(scale),
      .def = 0, .min = 0, .max = 10,
      .help = "decimation factor (0 = from the picture size, 1 = none)" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput float_ssim_outputs[] = {
    [VG_FLOAT_SSIM_OUT_SSIM] = { "float_ssim",   NULL, 0 },
    [VG_FLOAT_SSIM_OUT_L]    = { "float_ssim_l", NULL, 0 },
    [VG_FLOAT_SSIM_OUT_C]    = { "float_ssim_c", NULL, 0 },
    [VG_FLOAT_SSIM_OUT_S]    = { "float_ssim_s", NULL, 0 },
    { NULL }
};
/* clang-format on */

double vg_ssim_max_db(bool clip_db, unsigned bpc, unsigned w, unsigned h)
{
    /* float_ssim.c init(): unsigned peak and pixel count */
    const unsigned peak = (1u << bpc) - 1;

    if (!clip_db)
        return INFINITY;
    const double mse = 0.5 / (w * h);
    return ceil(10. * log10(peak * peak / mse));
}

double vg_ssim_to_db(double score, double max_db)
{
    const double db = -10. * log10(1 - score);

    /* the MIN() macro of convert_to_db(): a NaN dB gives the cap */
    return db < max_db ? db : max_db;
}

double vg_ssim_mean(double sum, int w, int h)
{
    return (float)(sum / (double)(w * h));
}

/* iqa/math_utils.c _round() */
static int round_half_up(float a)
{
    const int sign = a > 0.0f ? 1 : -1;

    return a - (int)a >= 0.5 ? (int)a + sign : (int)a;
}

int vg_float_ssim_setup(VgFloatSsimParams *p, const VgFloatSsimOptions *o,
                        unsigned bpc, unsigned w, unsigned h, VgLog *log)
{
    int s = o->scale;

    /* ssim.c compute_ssim(): scale from the smaller side, 256 a step */
    if (s <= 0) {
        s = round_half_up((float)(w < h ? w : h) / 256.0f);
        if (s < 1)
            s = 1;
    }
    p->scale = s;
    p->dw = (int)w;
    p->dh = (int)h;
    if (s > 1) {
        /* iqa/decimate.c _iqa_decimate(): w / factor plus the parity of w */
        p->dw = (int)(w / s + (w & 1));
        p->dh = (int)(h / s + (h & 1));
    }
    if (p->dw < VG_SSIM_MIN_SIZE || p->dh < VG_SSIM_MIN_SIZE) {
        vg_log(log, VG_LOG_ERROR,
               "float_ssim: %ux%u decimated by %d is %dx%d, "
               "smaller than the %dx%d window",
               w, h, s, p->dw, p->dh, VG_SSIM_MIN_SIZE, VG_SSIM_MIN_SIZE);
        return -EINVAL;
    }
    p->sums =
        o->enable_lcs ? VG_SSIM_SUMS_ALL : VG_SSIM_SUM_BIT(VG_SSIM_SUM_SSIM);
    p->max_db = vg_ssim_max_db(o->clip_db, bpc, w, h);
    return 0;
}

int vg_float_ssim_emit(VgFeatureCtx *fc, const VgFloatSsimParams *p,
                       unsigned index, const double sums[VG_SSIM_NB_SUMS])
{
    const VgFloatSsimOptions *o = fc->opts;
    /* _iqa_ssim(): the means over the valid area of the convolutions */
    const int vw = p->dw - (VG_SSIM_WIN - 1), vh = p->dh - (VG_SSIM_WIN - 1);
    double score = vg_ssim_mean(sums[VG_SSIM_SUM_SSIM], vw, vh);
    int ret;

    if (o->enable_db)
        score = vg_ssim_to_db(score, p->max_db);
    if ((ret = vg_feature_emit(fc, VG_FLOAT_SSIM_OUT_SSIM, index, score)) < 0)
        return ret;
    if (!o->enable_lcs)
        return 0;
    for (unsigned i = 0; i < 3; i++) {
        const double m = vg_ssim_mean(sums[VG_SSIM_SUM_L + i], vw, vh);
        if ((ret = vg_feature_emit(fc, VG_FLOAT_SSIM_OUT_L + i, index, m)) < 0)
            return ret;
    }
    return 0;
}

static int float_ssim_outputs_used(const void *opts, unsigned out)
{
    const VgFloatSsimOptions *o = opts;

    return out == VG_FLOAT_SSIM_OUT_SSIM || o->enable_lcs;
}

/**
 * float_ssim. Its reference stage is the reference's picture after the
 * decimation and its SSIM terms: the Gaussian mean and the Gaussian of the
 * square (both backends share it).
 */
const VgFeatureDesc vg_feature_float_ssim = {
    VG_FEATURE_DESC(float_ssim),
    VG_FEATURE_OPTIONS(float_ssim, VgFloatSsimOptions),
    .outputs_used = float_ssim_outputs_used,
    /* the reference's picture and its mean and square, filtered */
    .flags = VG_FEATURE_REF_STAGE,
    .min_width = VG_SSIM_MIN_SIZE,
    .min_height = VG_SSIM_MIN_SIZE,
};
