/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim's descriptor and finish, as libvmaf v3.2.0
 * src/feature/float_ms_ssim.c and ms_ssim.c (Wang's MS-SSIM, Gaussian
 * window, 5 scales): float_ms_ssim (or its dB value with enable_db) and,
 * with enable_lcs, the l, c and s means of every scale
 * (float_ms_ssim_l_scale0 ...). The products of powers are computed here,
 * on the host, for every backend, with the C library's pow().
 */

#include <errno.h>
#include <math.h>

#include "common/features/float_ms_ssim.h"
#include "common/features/float_ssim.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgFloatMsSsimOptions, field)

/* clang-format off */
static const VgFeatureOption float_ms_ssim_options[] = {
    { .name = "enable_lcs", .type = VG_OPT_BOOL, OPT(enable_lcs),
      .def = 0, .min = 0, .max = 1,
      .help = "also output the luminance, contrast and structure terms of each scale" },
    { .name = "enable_db", .type = VG_OPT_BOOL, OPT(enable_db),
      .def = 0, .min = 0, .max = 1, .help = "write the MS-SSIM as dB" },
    { .name = "clip_db", .type = VG_OPT_BOOL, OPT(clip_db),
      .def = 0, .min = 0, .max = 1, .help = "clip the dB score" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput float_ms_ssim_outputs[] = {
    [VG_FLOAT_MS_SSIM_OUT_SCORE] = { "float_ms_ssim", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_L0 + 0] = { "float_ms_ssim_l_scale0", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_L0 + 1] = { "float_ms_ssim_l_scale1", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_L0 + 2] = { "float_ms_ssim_l_scale2", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_L0 + 3] = { "float_ms_ssim_l_scale3", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_L0 + 4] = { "float_ms_ssim_l_scale4", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_C0 + 0] = { "float_ms_ssim_c_scale0", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_C0 + 1] = { "float_ms_ssim_c_scale1", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_C0 + 2] = { "float_ms_ssim_c_scale2", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_C0 + 3] = { "float_ms_ssim_c_scale3", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_C0 + 4] = { "float_ms_ssim_c_scale4", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_S0 + 0] = { "float_ms_ssim_s_scale0", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_S0 + 1] = { "float_ms_ssim_s_scale1", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_S0 + 2] = { "float_ms_ssim_s_scale2", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_S0 + 3] = { "float_ms_ssim_s_scale3", NULL, 0 },
    [VG_FLOAT_MS_SSIM_OUT_S0 + 4] = { "float_ms_ssim_s_scale4", NULL, 0 },
    { NULL }
};
/* clang-format on */

/* ms_ssim.c g_alphas, g_betas (= g_gammas) */
static const float ms_alpha[VG_MS_SSIM_SCALES] = { 0.0000f, 0.0000f, 0.0000f,
                                                   0.0000f, 0.1333f };
static const float ms_beta[VG_MS_SSIM_SCALES] = { 0.0448f, 0.2856f, 0.3001f,
                                                  0.2363f, 0.1333f };

void vg_float_ms_ssim_setup(VgFloatMsSsimParams *p,
                            const VgFloatMsSsimOptions *o, unsigned bpc,
                            unsigned w, unsigned h)
{
    int cw = (int)w, ch = (int)h;

    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        p->w[i] = cw;
        p->h[i] = ch;
        /* pow(l, 0) is 1 whatever l is: the score needs no l there */
        p->sums[i] = VG_SSIM_SUM_BIT(VG_SSIM_SUM_C) |
                     VG_SSIM_SUM_BIT(VG_SSIM_SUM_S) |
                     (o->enable_lcs || ms_alpha[i] != 0.0f
                          ? VG_SSIM_SUM_BIT(VG_SSIM_SUM_L)
                          : 0);
        cw = cw / 2 + (cw & 1);
        ch = ch / 2 + (ch & 1);
    }
    p->max_db = vg_ssim_max_db(o->clip_db, bpc, w, h);
}

int vg_float_ms_ssim_emit(VgFeatureCtx *fc, const VgFloatMsSsimParams *p,
                          unsigned index,
                          const double sums[VG_MS_SSIM_SCALES][VG_SSIM_NB_SUMS])
{
    const VgFloatMsSsimOptions *o = fc->opts;
    double l[VG_MS_SSIM_SCALES], c[VG_MS_SSIM_SCALES], s[VG_MS_SSIM_SCALES];
    double msssim = 1.0;
    int ret;

    /* ms_ssim.c compute_ms_ssim(): float means, then the product of
     * (pow(l, a) * pow(c, b)) * pow(s, g) over the scales, in double */
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        const int vw = p->w[i] - (VG_SSIM_WIN - 1),
                  vh = p->h[i] - (VG_SSIM_WIN - 1);

        l[i] = p->sums[i] & VG_SSIM_SUM_BIT(VG_SSIM_SUM_L)
                   ? vg_ssim_mean(sums[i][VG_SSIM_SUM_L], vw, vh)
                   : 1.0;
        c[i] = vg_ssim_mean(sums[i][VG_SSIM_SUM_C], vw, vh);
        s[i] = vg_ssim_mean(sums[i][VG_SSIM_SUM_S], vw, vh);
        msssim *= pow(l[i], ms_alpha[i]) * pow(c[i], ms_beta[i]) *
                  pow(s[i], ms_beta[i]);
        if (msssim == INFINITY) {
            vg_log(fc->log, VG_LOG_ERROR,
                   "float_ms_ssim: frame %u: the "
                   "score is infinite at scale %u",
                   index, i);
            return -ERANGE;
        }
    }
    if (o->enable_db)
        msssim = vg_ssim_to_db(msssim, p->max_db);
    if ((ret = vg_feature_emit(fc, VG_FLOAT_MS_SSIM_OUT_SCORE, index, msssim)) <
        0)
        return ret;
    if (!o->enable_lcs)
        return 0;
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        if ((ret = vg_feature_emit(fc, VG_FLOAT_MS_SSIM_OUT_L0 + i, index,
                                   l[i])) < 0 ||
            (ret = vg_feature_emit(fc, VG_FLOAT_MS_SSIM_OUT_C0 + i, index,
                                   c[i])) < 0 ||
            (ret = vg_feature_emit(fc, VG_FLOAT_MS_SSIM_OUT_S0 + i, index,
                                   s[i])) < 0)
            return ret;
    }
    return 0;
}

static int float_ms_ssim_outputs_used(const void *opts, unsigned out)
{
    const VgFloatMsSsimOptions *o = opts;

    return out == VG_FLOAT_MS_SSIM_OUT_SCORE || o->enable_lcs;
}

/**
 * float_ms_ssim. Its reference stage is, at each of the five scales, the
 * reference's picture of the pyramid and its SSIM terms: the Gaussian mean
 * and the Gaussian of the square (both backends share it).
 */
const VgFeatureDesc vg_feature_float_ms_ssim = {
    VG_FEATURE_DESC(float_ms_ssim),
    VG_FEATURE_OPTIONS(float_ms_ssim, VgFloatMsSsimOptions),
    .outputs_used = float_ms_ssim_outputs_used,
    /* the reference's pyramid and its means and squares, filtered */
    .flags = VG_FEATURE_REF_STAGE,
    .min_width = VG_MS_SSIM_MIN_SIZE,
    .min_height = VG_MS_SSIM_MIN_SIZE,
};
