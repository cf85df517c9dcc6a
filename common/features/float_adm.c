/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ADM's descriptor and its backend-independent parts, as libvmaf
 * v3.2.0 src/feature/float_adm.c, adm.c compute_adm() and adm_tools.c:
 * the CSF weights of every mode (Watson and Barten shared with integer
 * ADM, common/features/adm.c), the per-scale geometry, the per-scale
 * values from the backends' row sums, and the frame's finish.
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "common/features/float_adm.h"
#include "common/features/float_adm_params.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846264338327
#endif

/* adm_csf_tools.h adm_native_csf(): the DLM paper's CSF, in the float and
 * double mix of libvmaf */
static float native_csf(int lambda, double nvd, int rdh, int theta)
{
    float r = nvd * rdh * M_PI / 180.0;
    float sf = r / pow(2, lambda + 1);

    if (theta == 45)
        sf /= 0.7;
    return (0.31 + 0.69 * sf) * exp(-0.29 * sf);
}

/* adm_tools.c adm_csf_s() (and the copies in adm_csf_den_scale_s(),
 * adm_cm_s()): the weights of scale s, then the f1sN / f2sN overrides */
static void csf_factors(const VgFloatAdmOpts *o, int s, float *f1, float *f2)
{
    const double nvd = o->norm_view_dist;
    const int rdh = o->ref_display_height;
    float factor1, factor2;

    if (o->csf_mode == 1) {
        factor1 = vg_adm_barten_csf(s, nvd, rdh, o->csf_scale);
        factor2 = vg_adm_barten_csf(s, nvd, rdh, o->csf_diag_scale);
    } else if (o->csf_mode == 2) {
        factor1 = native_csf(s, nvd, rdh, 0);
        factor2 = native_csf(s, nvd, rdh, 45);
    } else {
        factor1 = 1.0f / vg_adm_watson_q(s, 1, nvd, rdh);
        factor2 = 1.0f / vg_adm_watson_q(s, 2, nvd, rdh);
    }
    if (o->f1[s] >= 0)
        factor1 = o->f1[s];
    if (o->f2[s] >= 0)
        factor2 = o->f2[s];
    *f1 = factor1;
    *f2 = factor2;
}

void vg_float_adm_setup(VgFloatAdmParams *p, const VgFloatAdmOpts *o,
                        unsigned width, unsigned height)
{
    memset(p, 0, sizeof(*p));
    /* the regions of adm_decouple_s / adm_csf_s (dec) and adm_cm_s /
     * adm_csf_den_scale_s (cm) are integer ADM's, border factor 0.1 */
    vg_adm_scales(width, height, p->sc);
    for (int s = 0; s < VG_FADM_NB_SCALES; s++) {
        float f1, f2;
        csf_factors(o, s, &f1, &f2);
        p->rf[s][0] = f1;
        p->rf[s][1] = f1;
        p->rf[s][2] = f2;
    }
    p->cos1_sq = vg_adm_cos1_sq();
    p->p_is_3 = o->p_norm == 3.0;
    p->p_f = (float)o->p_norm;
    p->inv_p_f = (float)(1.0f / o->p_norm);
    p->first_scale = o->skip_scale0 ? 1 : 0;
}

float vg_float_adm_scale_value_tot(const VgFloatAdmParams *p,
                                   const VgFloatAdmOpts *o, int s, int kind,
                                   const float tot[3])
{
    const VgAdmRegion *rg = &p->sc[s].cm;
    /* get_noise_constant(right - left, bottom - top, weight, p): the AIM
     * numerator is adm_cm_s() called with noise weight 0.0 */
    const double nw = kind == VG_FADM_AIM ? 0.0 : o->noise_weight;
    const float noise = powf(
        (rg->right - rg->left) * (rg->bottom - rg->top) * nw, 1.0f / o->p_norm);
    float v[3];

    for (int b = 0; b < 3; b++)
        v[b] = powf(tot[b], 1.0f / o->p_norm) + noise;
    return v[0] + v[1] + v[2];
}

float vg_float_adm_scale_value(const VgFloatAdmParams *p,
                               const VgFloatAdmOpts *o, int s, int kind,
                               const float *const rows[3])
{
    const int n = vg_float_adm_rows(p, s);
    float tot[3];

    for (int b = 0; b < 3; b++) {
        float accum = 0;
        for (int i = 0; i < n; i++)
            accum += rows[b][i];
        tot[b] = accum;
    }
    return vg_float_adm_scale_value_tot(p, o, s, kind, tot);
}

#if VG_FADM_HAVE_RCP
static float rcp_tab[VG_FADM_RCP_SIZE];
static int rcp_ok;
static pthread_once_t rcp_once = PTHREAD_ONCE_INIT;

static int rcp_matches(float x)
{
    const float hw = vg_float_adm_rcp_hw(x), m = vg_fadm_rcp_model(x, rcp_tab);
    return vg_fadm_f2u(hw) == vg_fadm_f2u(m);
}

/* The table from this CPU's RCPSS, then the model checked against it: on
 * every float of [1, 2), on every exponent with a spread of mantissas of
 * both signs, and at zero, subnormals and infinities. */
static void build_rcp(void)
{
    for (uint32_t k = 0; k < VG_FADM_RCP_SIZE; k++)
        rcp_tab[k] = vg_float_adm_rcp_hw(
            vg_fadm_u2f(0x3f800000u | (k << (23 - VG_FADM_RCP_BITS))));
    for (uint32_t m = 0; m < (1u << 23); m++)
        if (!rcp_matches(vg_fadm_u2f(0x3f800000u | m)))
            return;
    for (uint32_t e = 0; e < 256; e++) {
        for (uint32_t m = 0; m < (1u << 23); m += 4093) {
            const uint32_t u = (e << 23) | m;
            if (e == 255 && m)
                continue;
            if (!rcp_matches(vg_fadm_u2f(u)) ||
                !rcp_matches(vg_fadm_u2f(u | 0x80000000u)))
                return;
        }
        if (e < 255 && !rcp_matches(vg_fadm_u2f((e << 23) | 0x7fffffu)))
            return;
    }
    rcp_ok = 1;
}

const float *vg_float_adm_rcp_table(void)
{
    pthread_once(&rcp_once, build_rcp);
    return rcp_ok ? rcp_tab : NULL;
}
#endif

int vg_float_adm_finish(VgFeatureCtx *fc, unsigned index,
                        const float val[VG_FADM_NB_SCALES][3])
{
    const VgFloatAdmOpts *o = fc->opts;
    const double limit = 1e-10 * (fc->width * fc->height) / (1920.0 * 1080.0);
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    double scores[2 * VG_FADM_NB_SCALES];
    double score, score_aim = 0.0;
    int ret = 0;

    /* compute_adm(): float scale values into double totals, scale 0 first;
     * a skipped scale 0 contributes num 0 and den 1e-10f */
    for (int s = 0; s < VG_FADM_NB_SCALES; s++) {
        float num_scale = 0.0, den_scale = 0.0, aim_num_scale = 0.0;

        if (s == 0 && o->skip_scale0) {
            den_scale = 1e-10;
        } else {
            num_scale = val[s][VG_FADM_NUM];
            den_scale = val[s][VG_FADM_DEN];
            aim_num_scale = val[s][VG_FADM_AIM];
        }
        num += num_scale;
        den += den_scale;
        if (o->skip_aim_scale != s) {
            aim_den += den_scale;
            aim_num += aim_num_scale;
        }
        scores[2 * s + 0] = num_scale;
        scores[2 * s + 1] = den_scale;
    }
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    if (den == 0.0) {
        /* libvmaf leaves the AIM score uninitialised here; we define it as
         * 0 (no additive impairment), as integer ADM does */
        score = 1.0f;
    } else {
        const double q = aim_num / aim_den;
        score_aim = q < 1.0f ? q : 1.0f;
        score = num / den;
    }

    double adm3;
    if (o->adm3_apply_hm) {
        const double hm = 2 * score * score_aim / (score + score_aim);
        adm3 = hm > o->min_val ? hm : o->min_val;
    } else {
        const double lin =
            score * o->dlm_weight + (1 - score_aim) * (1 - o->dlm_weight);
        adm3 = lin > o->min_val ? lin : o->min_val;
    }

#define EMIT(out, v)                                                           \
    do {                                                                       \
        int e_ = vg_feature_emit(fc, (out), index, (v));                       \
        if (e_ < 0 && !ret)                                                    \
            ret = e_;                                                          \
    } while (0)
    EMIT(VG_FADM_OUT_ADM2, score);
    EMIT(VG_FADM_OUT_AIM, score_aim);
    EMIT(VG_FADM_OUT_ADM3, adm3);
    for (int s = 0; s < VG_FADM_NB_SCALES; s++)
        EMIT(VG_FADM_OUT_SCALE0 + s, scores[2 * s] / scores[2 * s + 1]);
    if (o->debug) {
        EMIT(VG_FADM_OUT_ADM, score);
        EMIT(VG_FADM_OUT_NUM, num);
        EMIT(VG_FADM_OUT_DEN, den);
        for (int s = 0; s < VG_FADM_NB_SCALES; s++) {
            EMIT(VG_FADM_OUT_NUM_SCALE0 + 2 * s, scores[2 * s]);
            EMIT(VG_FADM_OUT_DEN_SCALE0 + 2 * s, scores[2 * s + 1]);
        }
    }
#undef EMIT
    return ret;
}

#define OPT(field) .offset = VG_OPT_OFFSET(VgFloatAdmOpts, field)
#define FACTOR(n, fld, i, what)                                                \
    {                                                                          \
        .name = "adm_" n, .alias = n, .type = VG_OPT_DOUBLE, OPT(fld[i]),      \
        .def = -1.0, .min = -1.0, .max = 10.0, .feature_param = 1,             \
        .help = what                                                           \
    }

/* float_adm.c `options`, in that order, with its names, aliases, defaults
 * and ranges (adm_skip_aim_scale's default -1 lies outside its range: it
 * can only be left unset, as in libvmaf) */
/* clang-format off */
static const VgFeatureOption float_adm_options[] = {
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug),
      .def = 0, .min = 0, .max = 1,
      .help = "debug mode: enable additional output" },
    { .name = "adm_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE,
      OPT(enhn_gain_limit), .def = 100.0, .min = 1.0, .max = 100.0,
      .feature_param = 1,
      .help = "enhancement gain imposed on adm, must be >= 1.0, where 1.0 "
              "means the gain is completely disabled" },
    { .name = "adm_norm_view_dist", .alias = "nvd", .type = VG_OPT_DOUBLE,
      OPT(norm_view_dist), .def = 3.0, .min = 0.75, .max = 24.0,
      .feature_param = 1,
      .help = "normalized viewing distance = viewing distance / ref "
              "display's physical height" },
    { .name = "adm_noise_weight", .alias = "nw", .type = VG_OPT_DOUBLE,
      OPT(noise_weight), .def = 0.03125, .min = 0.0, .max = 1500.0,
      .feature_param = 1, .help = "noise weight" },
    { .name = "adm_csf_scale", .alias = "scf", .type = VG_OPT_DOUBLE,
      OPT(csf_scale), .def = 1.0, .min = 0.0, .max = 50.0,
      .feature_param = 1, .help = "scale factor for the CSF" },
    { .name = "adm_csf_diag_scale", .alias = "scfd", .type = VG_OPT_DOUBLE,
      OPT(csf_diag_scale), .def = 1.0, .min = 0.0, .max = 50.0,
      .feature_param = 1, .help = "scale factor for the CSF diag" },
    { .name = "adm_ref_display_height", .alias = "rdf", .type = VG_OPT_INT,
      OPT(ref_display_height), .def = 1080, .min = 1, .max = 4320,
      .feature_param = 1, .help = "reference display height in pixels" },
    { .name = "adm_csf_mode", .alias = "csf", .type = VG_OPT_INT,
      OPT(csf_mode), .def = 0, .min = 0, .max = 9, .feature_param = 1,
      .help = "contrast sensitivity function: 1 Barten, 2 ADM (DLM paper), "
              "any other Watson" },
    { .name = "adm_bypass_cm", .alias = "bcm", .type = VG_OPT_INT,
      OPT(bypass_cm), .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "bypass contrast masking (CM)" },
    { .name = "adm_adm3_apply_hm", .alias = "aah", .type = VG_OPT_BOOL,
      OPT(adm3_apply_hm), .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "apply harmonic mean to combine DLM and AIM" },
    { .name = "adm_p_norm", .alias = "apn", .type = VG_OPT_DOUBLE,
      OPT(p_norm), .def = 3.0, .min = 1.0, .max = 20.0, .feature_param = 1,
      .help = "p-norm for energy vector" },
    { .name = "adm_dlm_weight", .alias = "dlmw", .type = VG_OPT_DOUBLE,
      OPT(dlm_weight), .def = 0.5, .min = 0.0, .max = 1.0,
      .feature_param = 1,
      .help = "linear weighting between DLM and AIM; 1 corresponds to "
              "DLM-only" },
    { .name = "adm_min_val", .alias = "min", .type = VG_OPT_DOUBLE,
      OPT(min_val), .def = 0.0, .min = 0.0, .max = 1.0, .feature_param = 1,
      .help = "minimum value allowed; lower values will be clipped to this "
              "value" },
    FACTOR("f1s0", f1, 0, "factor1 scale0"),
    FACTOR("f1s1", f1, 1, "factor1 scale1"),
    FACTOR("f1s2", f1, 2, "factor1 scale2"),
    FACTOR("f1s3", f1, 3, "factor1 scale3"),
    FACTOR("f2s0", f2, 0, "factor2 scale0"),
    FACTOR("f2s1", f2, 1, "factor2 scale1"),
    FACTOR("f2s2", f2, 2, "factor2 scale2"),
    FACTOR("f2s3", f2, 3, "factor2 scale3"),
    { .name = "adm_skip_aim_scale", .alias = "sasc", .type = VG_OPT_INT,
      OPT(skip_aim_scale), .def = -1, .min = 0, .max = 3, .feature_param = 1,
      .help = "when set, skip AIM calculations for that scale" },
    { .name = "adm_skip_scale0", .alias = "ssz", .type = VG_OPT_BOOL,
      OPT(skip_scale0), .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "skip the calculation of scale 0" },
    { NULL },
};
/* clang-format on */
#undef FACTOR
#undef OPT

/* float_adm.c's emitted names with feature_name.c's aliases. The debug
 * value "adm" is not among libvmaf's provided_features, so its name never
 * takes the option suffixes. */
/* clang-format off */
static const VgFeatureOutput float_adm_outputs[] = {
    [VG_FADM_OUT_ADM2]   = { "VMAF_feature_adm2_score", "adm2", 0 },
    [VG_FADM_OUT_AIM]    = { "VMAF_feature_aim_score", "aim", 0 },
    [VG_FADM_OUT_ADM3]   = { "VMAF_feature_adm3_score", "adm3", 0 },
    [VG_FADM_OUT_SCALE0] = { "VMAF_feature_adm_scale0_score", "adm_scale0", 0 },
    [VG_FADM_OUT_SCALE1] = { "VMAF_feature_adm_scale1_score", "adm_scale1", 0 },
    [VG_FADM_OUT_SCALE2] = { "VMAF_feature_adm_scale2_score", "adm_scale2", 0 },
    [VG_FADM_OUT_SCALE3] = { "VMAF_feature_adm_scale3_score", "adm_scale3", 0 },
    [VG_FADM_OUT_ADM]    = { "adm", NULL, VG_OUTPUT_DEBUG | VG_OUTPUT_NO_PARAMS },
    [VG_FADM_OUT_NUM]    = { "adm_num", NULL, 1 },
    [VG_FADM_OUT_DEN]    = { "adm_den", NULL, 1 },
    [VG_FADM_OUT_NUM_SCALE0] = { "adm_num_scale0", NULL, 1 },
    [VG_FADM_OUT_DEN_SCALE0] = { "adm_den_scale0", NULL, 1 },
    { "adm_num_scale1", NULL, 1 },
    { "adm_den_scale1", NULL, 1 },
    { "adm_num_scale2", NULL, 1 },
    { "adm_den_scale2", NULL, 1 },
    { "adm_num_scale3", NULL, 1 },
    { "adm_den_scale3", NULL, 1 },
    { NULL },
};
/* clang-format on */

/** Float ADM (libvmaf "float_adm"). */
const VgFeatureDesc vg_feature_float_adm = {
    VG_FEATURE_DESC(float_adm),
    VG_FEATURE_OPTIONS(float_adm, VgFloatAdmOpts),
    .flags = 0,
    .min_width = VG_FADM_MIN_SIZE,
    .min_height = VG_FADM_MIN_SIZE,
};
