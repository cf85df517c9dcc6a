/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM's descriptor and its backend-independent parts, as libvmaf
 * v3.2.0 src/feature/integer_adm.c: the division table, the CSF factors
 * of every CSF mode, the geometry of the four scales, the float finals of
 * each scale from its integer totals and the frame's finish (adm2, aim,
 * adm3, per-scale scores). Both backends call these (cpu/adm.c,
 * gpu/adm.c), so they print the same bits.
 */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "common/features/adm.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846264338327
#endif

/* ------------------------------------------------------------------------
 * Tables and factors
 * ---------------------------------------------------------------------- */

static int32_t div_lookup[65537];
static float cos1_sq;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_tables(void)
{
    /* integer_adm.h div_lookup_generator(): 2^30 / i, truncated */
    for (int i = 1; i <= 32768; i++) {
        int32_t recip = (int32_t)(1073741824 / i);
        div_lookup[32768 + i] = recip;
        div_lookup[32768 - i] = -recip;
    }
    /* integer_adm.c adm_decouple(): cos(1 deg)^2 in double, stored float */
    cos1_sq = (float)(cos(1.0 * M_PI / 180.0) * cos(1.0 * M_PI / 180.0));
}

const int32_t *vg_adm_div_lookup(void)
{
    pthread_once(&tables_once, build_tables);
    return div_lookup;
}

float vg_adm_cos1_sq(void)
{
    pthread_once(&tables_once, build_tables);
    return cos1_sq;
}

/*
 * Conversions of out-of-range doubles to uint16_t/uint32_t are undefined in
 * C; x86-64 GCC emits cvttsd2si (32-bit, resp. 64-bit) and keeps the low
 * bits, which yields 0 for NaN and values beyond the register range. That is
 * what libvmaf's i_rfactor conversions compile to (adm_csf, i4_adm_csf).
 */
static uint16_t cvt_u16(double x)
{
    if (!(x > -2147483649.0 && x < 2147483648.0))
        return 0;
    return (uint16_t)(uint32_t)(int32_t)x;
}

static uint32_t cvt_u32(double x)
{
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return 0;
    return (uint32_t)(uint64_t)(int64_t)x;
}

/* Watson 1997 model, luma (integer_adm.h dwt_7_9_YCbCr_threshold[0],
 * dwt_7_9_basis_function_amplitudes), stored as float like libvmaf. */
static const float watson_a = 0.495f, watson_k = 0.466f, watson_f0 = 0.401f;
static const float watson_g[4] = { 1.501f, 1.0f, 0.534f, 1.0f };
static const float watson_amp[4][4] = {
    { 0.62171f, 0.67234f, 0.72709f, 0.67234f },
    { 0.34537f, 0.41317f, 0.49428f, 0.41317f },
    { 0.18004f, 0.22727f, 0.28688f, 0.22727f },
    { 0.091401f, 0.11792f, 0.15214f, 0.11792f },
};

/* integer_adm.c dwt_quant_step() (adm_tools.h dwt_quant_step() is the
 * same): mixed float/double exactly as there */
float vg_adm_watson_q(int lambda, int theta, double nvd, int rdh)
{
    float r = nvd * rdh * M_PI / 180.0;
    float t = log10(pow(2.0, lambda + 1) * watson_f0 * watson_g[theta] / r);
    float q = 2.0 * watson_a * pow(10.0, watson_k * t * t) /
              watson_amp[lambda][theta];
    return q;
}

/* barten_csf_tools.h tables */
static const float barten_anchor[6] = {
    0.002f, 0.02f, 0.2f, 2.0f, 20.0f, 150.0f
};
static const float barten_par[6][5] = {
    { 0.0160737f, 0.991265f, 3.74038f, 0.50722f, 4.46044f },
    { 0.383873f, 0.800889f, 3.54104f, 0.682505f, 4.94958f },
    { 0.929301f, 0.476505f, 4.37453f, 0.750315f, 5.28678f },
    { 1.29776f, 0.405782f, 4.40602f, 0.935314f, 5.61425f },
    { 1.49222f, 0.334278f, 3.79542f, 1.07327f, 6.4635f },
    { 1.46213f, 0.394533f, 2.7755f, 1.16577f, 7.45665f },
};
static const float barten_sa[4] = { 30.162f, 4.0627f, 1.6596f, 0.2712f };
static const float barten_mtf_a[4] = { 0.424838596301290f, 0.572435103936480f,
                                       0.000167576239164937f,
                                       0.00255872352306433f };
static const float barten_mtf_b[4] = { 0.028f, 0.37f, 37.0f, 360.0f };

static float lin_interp(float lp, float lv, float rp, float rv, float sp)
{
    return lv + ((rv - lv) / (rp - lp)) * (sp - lp);
}

/* barten_csf_tools.h barten_rod_cone_sens() */
static float barten_sens(float lum)
{
    return barten_sa[0] *
           pow(pow(barten_sa[1] / lum, barten_sa[2]) + 1, -barten_sa[3]);
}

/* barten_csf_tools.h barten_mtf() */
static float barten_mtf(float sf)
{
    float mtf = 0.0f;
    for (int i = 0; i < 4; i++)
        mtf = mtf + barten_mtf_a[i] * exp(-barten_mtf_b[i] * sf);
    return mtf;
}

/* barten_csf_tools.h barten_csf(), luminance DEFAULT_ADM_CSF_LUM = 100 */
float vg_adm_barten_csf(int lambda, double nvd, int rdh, double scale)
{
    const double lum_level = 100.0;
    float r = nvd * rdh * M_PI / 180.0;
    float sf = r / pow(2, lambda + 1);
    double lum = lum_level > barten_anchor[5]   ? barten_anchor[5]
                 : lum_level < barten_anchor[0] ? barten_anchor[0]
                                                : lum_level;
    int li = 0, ri = 0;
    for (int i = 0; i < 5; i++) {
        if (lum >= barten_anchor[i] && lum <= barten_anchor[i + 1]) {
            li = i;
            ri = i + 1;
            break;
        }
    }
    float lp = log10(barten_anchor[li]);
    float rp = log10(barten_anchor[ri]);
    float sp = log10(lum);
    float p0 = lin_interp(lp, barten_par[li][1], rp, barten_par[ri][1], sp);
    float p1 = lin_interp(lp, barten_par[li][2], rp, barten_par[ri][2], sp);
    float p2 = lin_interp(lp, barten_par[li][3], rp, barten_par[ri][3], sp);
    float p3 = lin_interp(lp, barten_par[li][4], rp, barten_par[ri][4], sp);
    float a = 1.0f + pow(p0 * sf, p1);
    float b = 1.0f / pow(1 - exp(-pow(sf / 7, 2)), p2);
    float csf = p3 / pow(a * b, 0.5);
    return csf * barten_mtf(sf) * barten_sens(lum_level) * scale;
}

/* barten_csf_tools.h BLENDED_CSF_* tables: [resolution/distance][theta][scale] */
static const float blend_tab[2][8][2][4] = {
    {
        /* barten_watson_blend_csf */
        { { 0.01183f, 0.025026f, 0.04295f, 0.058621f },
          { 0.004302f, 0.011778f, 0.023918f, 0.035901f } }, /* 1080 3H */
        { { 0.004212f, 0.014809f, 0.029642f, 0.047464f },
          { 0.000984f, 0.005852f, 0.0146f, 0.027574f } }, /* 1080 5H */
        { { 0.00226f, 0.01183f, 0.025026f, 0.04295f },
          { 0.000479f, 0.004302f, 0.011778f, 0.023918f } }, /* 2160 3H */
        { { 0.000092f, 0.004212f, 0.014809f, 0.029642f },
          { 0.000050f, 0.000984f, 0.005852f, 0.0146f } }, /* 2160 5H */
        { { 0.018715f, 0.035637f, 0.052798f, 0.061509f },
          { 0.007999f, 0.018396f, 0.031851f, 0.037718f } }, /* 720 3H */
        { { 0.010144f, 0.022561f, 0.040309f, 0.05672f },
          { 0.003463f, 0.010282f, 0.021839f, 0.034641f } }, /* 720 5H */
        { { 0.027961f, 0.045875f, 0.060275f, 0.056234f },
          { 0.013572f, 0.026277f, 0.036959f, 0.034511f } }, /* 480 3H */
        { { 0.016781f, 0.032822f, 0.05032f, 0.061594f },
          { 0.00691f, 0.016545f, 0.029917f, 0.037777f } }, /* 480 5H */
    },
    {
        /* barten_watson_blend_csf_mae */
        { { 0.011249f, 0.022606f, 0.035930f, 0.045673f },
          { 0.004097f, 0.010921f, 0.021430f, 0.031313f } },
        { { 0.004052f, 0.013939f, 0.026298f, 0.038833f },
          { 0.000927f, 0.005544f, 0.013415f, 0.024515f } },
        { { 0.002166f, 0.011249f, 0.022606f, 0.035930f },
          { 0.000447f, 0.004097f, 0.010921f, 0.021430f } },
        { { 0.000077f, 0.004052f, 0.013939f, 0.026298f },
          { 0.000045f, 0.000927f, 0.005544f, 0.013415f } },
        { { 0.017329f, 0.030870f, 0.042134f, 0.047410f },
          { 0.007509f, 0.016707f, 0.028072f, 0.032722f } },
        { { 0.009689f, 0.020577f, 0.034162f, 0.044523f },
          { 0.003302f, 0.009579f, 0.019661f, 0.030318f } },
        { { 0.024969f, 0.037825f, 0.046676f, 0.043974f },
          { 0.012511f, 0.023424f, 0.032139f, 0.030166f } },
        { { 0.015665f, 0.028766f, 0.040612f, 0.047483f },
          { 0.006514f, 0.015107f, 0.026476f, 0.032776f } },
    },
};

/* barten_watson_blend_csf(_mae)(): which table, or -1 */
static int blend_index(double nvd, int rdh)
{
    if (rdh == 1080 && nvd == 3.0)
        return 0;
    if (rdh == 1080 && nvd == 5.0)
        return 1;
    if (rdh == 2160 && nvd == 1.5)
        return 0;
    if (rdh == 2160 && nvd == 3.0)
        return 2;
    if (rdh == 2160 && nvd == 5.0)
        return 3;
    if (rdh == 720 && nvd == 3.0)
        return 4;
    if (rdh == 720 && nvd == 5.0)
        return 5;
    if (rdh == 480 && nvd == 3.0)
        return 6;
    if (rdh == 480 && nvd == 5.0)
        return 7;
    return -1;
}

int vg_adm_factors(const VgAdmOpts *o, VgAdmFactors *f, VgLog *log)
{
    const double nvd = o->norm_view_dist;
    const int rdh = o->ref_display_height;
    int bi = -1;

    memset(f, 0, sizeof(*f));
    if (o->csf_mode == VG_ADM_CSF_BLEND ||
        o->csf_mode == VG_ADM_CSF_BLEND_MAE) {
        bi = blend_index(nvd, rdh);
        if (bi < 0) {
            vg_log(log, VG_LOG_ERROR,
                   "adm: adm_csf_mode=%d has no CSF table "
                   "for adm_norm_view_dist=%g adm_ref_display_height=%d "
                   "(tables exist for 480/720/1080/2160 at 3H and 5H, and "
                   "2160 at 1.5H)",
                   o->csf_mode, nvd, rdh);
            return -EINVAL;
        }
    }

    for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
        float f1, f2;
        switch (o->csf_mode) {
        case VG_ADM_CSF_BARTEN:
            f1 = vg_adm_barten_csf(s, nvd, rdh, o->csf_scale);
            f2 = vg_adm_barten_csf(s, nvd, rdh, o->csf_diag_scale);
            break;
        case VG_ADM_CSF_BLEND:
        case VG_ADM_CSF_BLEND_MAE:
            f1 = blend_tab[o->csf_mode - VG_ADM_CSF_BLEND][bi][0][s];
            f2 = blend_tab[o->csf_mode - VG_ADM_CSF_BLEND][bi][1][s];
            break;
        default:
            f1 = 1.0f / vg_adm_watson_q(s, 1, nvd, rdh);
            f2 = 1.0f / vg_adm_watson_q(s, 2, nvd, rdh);
            break;
        }
        f->f[s][0] = f1;
        f->f[s][1] = f2;
        if (s == 0) {
            /* adm_csf()/adm_cm(): the default viewing condition uses
             * hard-coded weights, otherwise truncated Q21/Q23 products */
            if (fabs(nvd * rdh - 3.0 * 1080) < 1.0e-8 &&
                o->csf_mode == VG_ADM_CSF_WATSON) {
                f->s0[0] = 36453;
                f->s0[1] = 36453;
                f->s0[2] = 49417;
            } else {
                f->s0[0] = cvt_u16(f1 * pow(2, 21));
                f->s0[1] = cvt_u16(f1 * pow(2, 21));
                f->s0[2] = cvt_u16(f2 * pow(2, 23));
            }
        } else {
            /* i4_adm_csf()/i4_adm_cm(): Q32 */
            f->s123[s][0] = cvt_u32(f1 * pow(2, 32));
            f->s123[s][1] = cvt_u32(f1 * pow(2, 32));
            f->s123[s][2] = cvt_u32(f2 * pow(2, 32));
        }
    }
    return 0;
}

static void region_cm(int w, int h, VgAdmRegion *r)
{
    /* adm_cm, adm_csf_den_scale: (int)(w * ADM_BORDER_FACTOR - 0.5) */
    r->left = w * 0.1 - 0.5;
    r->top = h * 0.1 - 0.5;
    r->right = w - r->left;
    r->bottom = h - r->top;
}

static void region_dec(int w, int h, VgAdmRegion *r)
{
    /* adm_decouple, adm_csf: one more tap each side, then clamped */
    int left = w * 0.1 - 0.5 - 1;
    int top = h * 0.1 - 0.5 - 1;
    int right = w - left + 2;
    int bottom = h - top + 2;
    r->left = left < 0 ? 0 : left;
    r->top = top < 0 ? 0 : top;
    r->right = right > w ? w : right;
    r->bottom = bottom > h ? h : bottom;
}

void vg_adm_scales(unsigned width, unsigned height,
                   VgAdmScale sc[VG_ADM_NB_SCALES])
{
    int w = width, h = height;
    for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
        VgAdmScale *c = &sc[s];
        c->in_w = w;
        c->in_h = h;
        c->w = (w + 1) / 2;
        c->h = (h + 1) / 2;
        region_cm(c->w, c->h, &c->cm);
        region_dec(c->w, c->h, &c->dec);
        const int rw = c->cm.right - c->cm.left;
        const int rh = c->cm.bottom - c->cm.top;
        if (s == 0) {
            c->cm_cub_shift[0] = (uint32_t)ceil(log2(c->w) - 4);
            c->cm_cub_shift[1] = c->cm_cub_shift[0];
            c->cm_cub_shift[2] = (uint32_t)ceil(log2(c->w) - 3);
            int32_t sa = (int32_t)ceil(log2(rh * rw) - 20);
            c->den_cub_shift = sa > 0 ? sa : 0;
            c->den_row_shift = 0;
        } else {
            c->cm_cub_shift[0] = (uint32_t)ceil(log2(c->w));
            c->cm_cub_shift[1] = c->cm_cub_shift[0];
            c->cm_cub_shift[2] = c->cm_cub_shift[0];
            c->den_cub_shift = (uint32_t)ceil(log2(rw));
            c->den_row_shift = (uint32_t)ceil(log2(rh));
        }
        c->cm_row_shift = (uint32_t)ceil(log2(c->h));
        w = c->w;
        h = c->h;
    }
}

/* ------------------------------------------------------------------------
 * Per-instance state
 * ---------------------------------------------------------------------- */

/* ------------------------------------------------------------------------
 * Per-scale finals from the integer totals
 * ---------------------------------------------------------------------- */

float vg_adm_den_score(const VgAdmScale *sc, const VgAdmFactors *fac, int s,
                       const uint64_t total[3], double nw)
{
    /* adm_csf_den_s123: K = 32, 27, 23 for scales 1, 2, 3 */
    static const uint32_t kf[4] = { 0, 32, 27, 23 };
    const VgAdmRegion *rg = &sc->cm;
    const float rf[3] = { fac->f[s][0], fac->f[s][0], fac->f[s][1] };
    const float nwt =
        powf((rg->bottom - rg->top) * (rg->right - rg->left) * nw, 1.0f / 3.0f);
    float sum = 0.0f;
    for (int b = 0; b < 3; b++) {
        double csf;
        if (s == 0) {
            /* adm_csf_den_scale: total / 2^(18 - sigma) * f^3 */
            csf = (double)(total[b] / pow(2, 18 - (int32_t)sc->den_cub_shift)) *
                  pow(rf[b], 3);
        } else {
            /* uint32 arithmetic like libvmaf: wraps (-> pow = inf) if
             * negative */
            const double scale = pow(
                2, (uint32_t)(kf[s] - sc->den_row_shift - sc->den_cub_shift));
            csf = (double)(total[b] / scale) * pow(rf[b], 3);
        }
        const float v = powf(csf, 1.0f / 3.0f) + nwt;
        sum = b == 0 ? v : sum + v;
    }
    return sum;
}

float vg_adm_cm_score(const VgAdmScale *sc, int s, const int64_t total[3],
                      double nw)
{
    const VgAdmRegion *rg = &sc->cm;
    const uint32_t rho = sc->cm_row_shift;
    const float nwt =
        powf((rg->bottom - rg->top) * (rg->right - rg->left) * nw, 1.0f / 3.0f);
    float sum = 0.0f;
    if (s == 0) {
        /* adm_cm: int64 -> double, / 2^(52 - c - rho) (57 for d), -> float */
        static const uint32_t kexp[3] = { 52, 52, 57 };
        for (int b = 0; b < 3; b++) {
            const uint32_t e = kexp[b] - sc->cm_cub_shift[b] - rho;
            const float f = (float)(total[b] / pow(2, e));
            const float v = powf(f, 1.0f / 3.0f) + nwt;
            sum = b == 0 ? v : sum + v;
        }
    } else {
        /* i4_adm_cm: final_shift is a float; int64 -> float, float
         * division; E = 45, 39, 36 for scales 1, 2, 3 */
        static const uint32_t kexp[4] = { 0, 45, 39, 36 };
        const float fs =
            pow(2, (uint32_t)(kexp[s] - sc->cm_cub_shift[0] - rho));
        for (int b = 0; b < 3; b++) {
            const float f = total[b] / fs;
            const float v = powf(f, 1.0f / 3.0f) + nwt;
            sum = b == 0 ? v : sum + v;
        }
    }
    return sum;
}

/* ------------------------------------------------------------------------
 * The frame's finish
 * ---------------------------------------------------------------------- */

int vg_adm_finish(VgFeatureCtx *fc, unsigned index,
                  const float num_s[VG_ADM_NB_SCALES],
                  const float den_s[VG_ADM_NB_SCALES],
                  const float aim_s[VG_ADM_NB_SCALES])
{
    const VgAdmOpts *o = fc->opts;
    double num = 0.0, den = 0.0, aim_num = 0.0;

    /* integer_compute_adm(): double sums of the float scale values, scale 0
     * first (a skipped AIM adds nothing: its terms are 0) */
    for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
        num += num_s[s];
        den += den_s[s];
        aim_num += aim_s[s];
    }
    /* integer_compute_adm(): limits, ratios */
    const double limit =
        1e-10 * (double)(fc->width * fc->height) / (1920.0 * 1080.0);
    num = num < limit ? 0 : num;
    den = den < limit ? 0 : den;
    double adm2, aim;
    if (den == 0.0) {
        /* libvmaf writes 1.0 and leaves the AIM score uninitialised;
         * we define it as 0 (no additive impairment) */
        adm2 = 1.0f;
        aim = 0.0;
    } else {
        aim = aim_num / den;
        adm2 = num / den;
    }
    const double dlmw = o->dlm_weight;
    const double adm3_raw = adm2 * dlmw + (1 - aim) * (1 - dlmw);
    /* MAX() macro of integer_adm.c: a NaN first operand yields min_val */
    const double adm3 = adm3_raw > o->min_val ? adm3_raw : o->min_val;

    int ret = 0;
#define EMIT(out, val)                                                         \
    do {                                                                       \
        int e_ = vg_feature_emit(fc, (out), index, (val));                     \
        if (e_ < 0 && !ret)                                                    \
            ret = e_;                                                          \
    } while (0)
    EMIT(VG_ADM_OUT_ADM2, adm2);
    EMIT(VG_ADM_OUT_AIM, aim);
    EMIT(VG_ADM_OUT_ADM3, adm3);
    for (int s = 0; s < VG_ADM_NB_SCALES; s++)
        EMIT(VG_ADM_OUT_SCALE0 + s, (double)num_s[s] / (double)den_s[s]);
    if (o->debug) {
        EMIT(VG_ADM_OUT_ADM, adm2);
        EMIT(VG_ADM_OUT_NUM, num);
        EMIT(VG_ADM_OUT_DEN, den);
        for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
            EMIT(VG_ADM_OUT_NUM_SCALE0 + 2 * s, num_s[s]);
            EMIT(VG_ADM_OUT_DEN_SCALE0 + 2 * s, den_s[s]);
        }
    }
#undef EMIT
    return ret;
}

#define OPT(field) .offset = VG_OPT_OFFSET(VgAdmOpts, field)

/* clang-format off */
static const VgFeatureOption adm_options[] = {
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug),
      .def = 0, .min = 0, .max = 1,
      .help = "debug mode: enable additional output" },
    { .name = "adm_csf_scale", .alias = "scf", .type = VG_OPT_DOUBLE, OPT(csf_scale),
      .def = 1.0, .min = 0.0, .max = 50.0, .feature_param = 1,
      .help = "scale coefficient for the horizontal & vertical direction terms of CSF" },
    { .name = "adm_csf_diag_scale", .alias = "scfd", .type = VG_OPT_DOUBLE, OPT(csf_diag_scale),
      .def = 1.0, .min = 0.0, .max = 50.0, .feature_param = 1,
      .help = "scale coefficient for the diagonal direction term of CSF" },
    { .name = "adm_dlm_weight", .alias = "dlmw", .type = VG_OPT_DOUBLE, OPT(dlm_weight),
      .def = 0.5, .min = 0.0, .max = 1.0, .feature_param = 1,
      .help = "linear weighting between DLM and AIM; 1 corresponds to DLM-only" },
    { .name = "adm_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE, OPT(enhn_gain_limit),
      .def = 100.0, .min = 1.0, .max = 100.0, .feature_param = 1,
      .help = "enhancement gain imposed on adm, must be >= 1.0, where 1.0 means the gain is completely disabled" },
    { .name = "adm_norm_view_dist", .alias = "nvd", .type = VG_OPT_DOUBLE, OPT(norm_view_dist),
      .def = 3.0, .min = 0.75, .max = 24.0, .feature_param = 1,
      .help = "normalized viewing distance = viewing distance / ref display's physical height" },
    { .name = "adm_ref_display_height", .alias = "rdh", .type = VG_OPT_INT, OPT(ref_display_height),
      .def = 1080, .min = 1, .max = 4320, .feature_param = 1,
      .help = "reference display height in pixels" },
    { .name = "adm_csf_mode", .alias = "csf", .type = VG_OPT_INT, OPT(csf_mode),
      .def = 0, .min = 0, .max = 3, .feature_param = 1,
      .help = "contrast sensitivity function: 0 Watson, 1 Barten, 2 Barten/Watson blend, 3 blend (MAE fit)" },
    { .name = "adm_noise_weight", .alias = "nw", .type = VG_OPT_DOUBLE, OPT(noise_weight),
      .def = 0.03125, .min = 0.0, .max = 1500.0, .feature_param = 1,
      .help = "noise weight" },
    { .name = "adm_skip_aim", .type = VG_OPT_BOOL, OPT(skip_aim),
      .def = 0, .min = 0, .max = 1,
      .help = "skip the calculation of AIM" },
    { .name = "adm_skip_scale0", .alias = "ssz", .type = VG_OPT_BOOL, OPT(skip_scale0),
      .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "skip the calculation of scale 0" },
    { .name = "adm_min_val", .alias = "min", .type = VG_OPT_DOUBLE, OPT(min_val),
      .def = 0.0, .min = 0.0, .max = 1.0, .feature_param = 1,
      .help = "minimum value allowed; lower values will be clipped to this value" },
    { NULL },
};
/* clang-format on */
#undef OPT

/* integer_adm.c provided_features, in that order (VG_ADM_OUT_* indices) */
/* clang-format off */
static const VgFeatureOutput adm_outputs[] = {
    { "VMAF_integer_feature_adm2_score", "integer_adm2", 0 },
    { "VMAF_integer_feature_aim_score", "integer_aim", 0 },
    { "VMAF_integer_feature_adm3_score", "integer_adm3", 0 },
    { "integer_adm_scale0", NULL, 0 },
    { "integer_adm_scale1", NULL, 0 },
    { "integer_adm_scale2", NULL, 0 },
    { "integer_adm_scale3", NULL, 0 },
    { "integer_adm", NULL, 1 },
    { "integer_adm_num", NULL, 1 },
    { "integer_adm_den", NULL, 1 },
    { "integer_adm_num_scale0", NULL, 1 },
    { "integer_adm_den_scale0", NULL, 1 },
    { "integer_adm_num_scale1", NULL, 1 },
    { "integer_adm_den_scale1", NULL, 1 },
    { "integer_adm_num_scale2", NULL, 1 },
    { "integer_adm_den_scale2", NULL, 1 },
    { "integer_adm_num_scale3", NULL, 1 },
    { "integer_adm_den_scale3", NULL, 1 },
    { NULL },
};
/* clang-format on */

/*
 * Known from the options alone, so refused when they are set: integer_adm.c
 * extract() refuses an angular frequency below 1080 lines at 3H (its 16-bit
 * scale-0 pipeline), and the blended CSFs have tables for a few viewing
 * conditions only (vg_adm_factors()). Each option's own range allows both.
 */
static int adm_check_opts(const void *opts, VgLog *log)
{
    const VgAdmOpts *o = opts;
    const double nvd = o->norm_view_dist;
    const int rdh = o->ref_display_height;

    if (nvd * rdh < 3.0 * 1080) {
        vg_log(log, VG_LOG_ERROR,
               "adm: adm_norm_view_dist * "
               "adm_ref_display_height = %g * %d = %g is below 3240 (1080 "
               "lines at 3H), which integer ADM cannot handle",
               nvd, rdh, nvd * rdh);
        return -EINVAL;
    }
    if ((o->csf_mode == VG_ADM_CSF_BLEND ||
         o->csf_mode == VG_ADM_CSF_BLEND_MAE) &&
        blend_index(nvd, rdh) < 0) {
        vg_log(log, VG_LOG_ERROR,
               "adm: adm_csf_mode=%d has no CSF table for "
               "adm_norm_view_dist=%g adm_ref_display_height=%d (tables exist "
               "for 480/720/1080/2160 at 3H and 5H, and 2160 at 1.5H)",
               o->csf_mode, nvd, rdh);
        return -EINVAL;
    }
    return 0;
}

/**
 * Integer ADM (libvmaf "adm"). Its reference stage is the reference's DWT
 * of every scale: the decoupling, the masking and the denominator read
 * it, none of the options changes it.
 */
const VgFeatureDesc vg_feature_adm = {
    VG_FEATURE_DESC(adm),
    VG_FEATURE_OPTIONS(adm, VgAdmOpts),
    /* the reference's DWT */
    .flags = VG_FEATURE_REF_STAGE,
    .min_width = VG_ADM_MIN_SIZE,
    .min_height = VG_ADM_MIN_SIZE,
    .check_opts = adm_check_opts,
};
