/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float VIF's descriptor and its backend-independent parts, as libvmaf
 * v3.2.0 src/feature/float_vif.c (options, outputs, extract()'s score
 * lines), vif.c compute_vif() (scales, sizes, the per-scale and total
 * num/den) and vif_tools.c (the kernelscale check, and the prescale
 * tables of the filters and taps of common/features/vif_tools.c). vif_options.h defines VIF_OPT_HANDLE_BORDERS
 * (filters keep the picture's size, mirrored borders) and
 * VIF_OPT_FAST_LOG2 (common/features/float_vif_params.h).
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/features/float_vif.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgFloatVifOptions, field)

/*
 * One axis of vif_scale_frame_*_s(): ratio = src / dst in float; output
 * coordinate x reads (x + 0.5) * ratio - 0.5 (double, kept as float),
 * nearest (int)(x * ratio). Indices are mirrored as libvmaf does; one that
 * still falls outside the picture (a tiny side) is refused.
 */
static int build_axis(VgFvifAxis *ax, enum VgVifPrescale method, int src,
                      int dst, const char *side, VgLog *log)
{
    const size_t n = (size_t)dst * VG_VIF_PRESCALE_TAPS;

    ax->idx = calloc(n, sizeof(*ax->idx));
    ax->w = calloc(n, sizeof(*ax->w));
    if (!ax->idx || !ax->w)
        return -ENOMEM;
    for (int x = 0; x < dst; x++) {
        int32_t *idx = ax->idx + (size_t)x * VG_VIF_PRESCALE_TAPS;
        float *w = ax->w + (size_t)x * VG_VIF_PRESCALE_TAPS;
        const int taps = vg_vif_prescale_taps(method, src, dst, x, idx, w);

        for (int t = 0; t < taps; t++) {
            if (idx[t] < 0 || idx[t] >= src) {
                vg_log(log, VG_LOG_ERROR,
                       "float_vif: prescaling a %s of %d "
                       "samples to %d reads sample %d, outside the picture",
                       side, src, dst, (int)idx[t]);
                return -EINVAL;
            }
        }
    }
    return 0;
}

void vg_float_vif_free(VgFvifSetup *s)
{
    free(s->ax.idx);
    free(s->ax.w);
    free(s->ay.idx);
    free(s->ay.w);
    s->ax = s->ay = (VgFvifAxis){ 0 };
}

int vg_float_vif_setup(VgFvifSetup *s, const VgFloatVifOptions *o, unsigned w,
                       unsigned h, VgLog *log)
{
    const float ks = (float)o->vif_kernelscale;
    int ret;

    *s = (VgFvifSetup){ 0 };
    s->w = w;
    s->h = h;
    /* float_vif.c init(): (int)(w * prescale + 0.5) */
    s->sw = (unsigned)(int)(w * o->vif_prescale + 0.5);
    s->sh = (unsigned)(int)(h * o->vif_prescale + 0.5);
    s->method = o->vif_prescale_method;
    /* vif_scale_frame_*_s(): the same size is a copy */
    s->prescale = s->sw != w || s->sh != h;
    if (!s->sw || !s->sh) {
        vg_log(log, VG_LOG_ERROR,
               "float_vif: vif_prescale=%g makes a %ux%u "
               "picture empty",
               o->vif_prescale, w, h);
        return -EINVAL;
    }
    if (s->prescale && ((ret = build_axis(&s->ax, s->method, (int)w, (int)s->sw,
                                          "width", log)) < 0 ||
                        (ret = build_axis(&s->ay, s->method, (int)h, (int)s->sh,
                                          "height", log)) < 0)) {
        vg_float_vif_free(s);
        return ret;
    }

    s->first = o->vif_skip_scale0 ? 1 : 0;
    s->egl = (float)o->vif_enhn_gain_limit;
    s->sigma_nsq = o->vif_sigma_nsq;
    /* vif_statistic_s(): powf of the float, divided in double */
    s->sigma_max_inv = powf(o->vif_sigma_nsq, 2.0f) / (255.0 * 255.0);
    for (unsigned sc = 0; sc < 4; sc++) {
        s->sc_w[sc] = sc ? s->sc_w[sc - 1] / 2 : s->sw;
        s->sc_h[sc] = sc ? s->sc_h[sc - 1] / 2 : s->sh;
        /* vif_get_filter(): sigma = n / 5 in float */
        s->taps[sc] = vg_vif_filter_size((int)sc, ks);
        vg_vif_gaussian(s->filter[sc], s->taps[sc], s->taps[sc] / 5.0f);
    }
    for (unsigned sc = s->first; sc < 4; sc++) {
        /* the mirror reaches taps / 2 samples out: it stays inside a side
         * of at least taps / 2 + 1 samples, and libvmaf reads outside its
         * buffers below that */
        const unsigned need = (unsigned)s->taps[sc] / 2 + 1;
        if (s->sc_w[sc] < need || s->sc_h[sc] < need) {
            vg_log(log, VG_LOG_ERROR,
                   "float_vif: a %ux%u picture%s is too "
                   "small: scale %u is %ux%u, its %d-tap filter needs at "
                   "least %ux%u",
                   w, h, s->prescale ? " (prescaled)" : "", sc, s->sc_w[sc],
                   s->sc_h[sc], s->taps[sc], need, need);
            vg_float_vif_free(s);
            return -EINVAL;
        }
        s->row_off[sc] = s->rows;
        s->rows += s->sc_h[sc];
    }
    return 0;
}

void vg_float_vif_sum_rows(const VgFvifSetup *s, const float *num_rows,
                           const float *den_rows, float num[4], float den[4])
{
    /* vif_statistic_s(): the rows' float sums added top to bottom into a
     * float (accum_num, accum_den) */
    for (unsigned sc = 0; sc < 4; sc++) {
        float an = 0.0f, ad = 0.0f;
        for (unsigned i = 0; sc >= s->first && i < s->sc_h[sc]; i++) {
            an += num_rows[s->row_off[sc] + i];
            ad += den_rows[s->row_off[sc] + i];
        }
        num[sc] = an;
        den[sc] = ad;
    }
}

int vg_float_vif_emit(VgFeatureCtx *fc, const VgFvifSetup *s, unsigned index,
                      const float num[4], const float den[4])
{
    const VgFloatVifOptions *o = fc->opts;
    const double min_val[4] = { 0, o->vif_scale1_min_val, o->vif_scale2_min_val,
                                o->vif_scale3_min_val };
    double scores[8] = { 0 }, score_num = 0.0, score_den = 0.0, score;
    int ret;

    /* compute_vif(): scores[2 s], scores[2 s + 1] = the float sums */
    for (unsigned sc = s->first; sc < 4; sc++) {
        scores[2 * sc] = num[sc];
        scores[2 * sc + 1] = den[sc];
    }
    /* compute_vif(): totals in double, scale order; 1 for a zero den */
    for (unsigned sc = s->first; sc < 4; sc++) {
        score_num += scores[2 * sc];
        score_den += scores[2 * sc + 1];
    }
    score = score_den == 0.0 ? 1.0f : score_num / score_den;

    /* float_vif.c extract(): scale 0 is 0 when skipped; scales 1..3 are
     * MAX(num / den, min_val) with MAX(x, y) = x > y ? x : y */
    for (unsigned sc = 0; sc < 4; sc++) {
        double v;
        if (sc == 0)
            v = s->first ? 0.0f : scores[0] / scores[1];
        else
            v = scores[2 * sc] / scores[2 * sc + 1] > min_val[sc]
                    ? scores[2 * sc] / scores[2 * sc + 1]
                    : min_val[sc];
        if ((ret = vg_feature_emit(fc, VG_FVIF_OUT_SCALE0 + sc, index, v)) < 0)
            return ret;
    }
    if (!o->debug)
        return 0;
    if ((ret = vg_feature_emit(fc, VG_FVIF_OUT_VIF, index, score)) < 0 ||
        (ret = vg_feature_emit(fc, VG_FVIF_OUT_NUM, index, score_num)) < 0 ||
        (ret = vg_feature_emit(fc, VG_FVIF_OUT_DEN, index, score_den)) < 0)
        return ret;
    for (unsigned sc = 0; sc < 4; sc++) {
        /* skipped scale 0: num 0, den -1 */
        const double n = sc < s->first ? 0.0f : scores[2 * sc];
        const double d = sc < s->first ? -1.0f : scores[2 * sc + 1];
        if ((ret = vg_feature_emit(fc, VG_FVIF_OUT_NUM_SCALE0 + 2 * sc, index,
                                   n)) < 0 ||
            (ret = vg_feature_emit(fc, VG_FVIF_OUT_NUM_SCALE0 + 2 * sc + 1,
                                   index, d)) < 0)
            return ret;
    }
    return 0;
}

/* clang-format off */
static const VgFeatureOption float_vif_options[] = {
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug), .def = 0, .min = 0,
      .max = 1, .help = "debug mode: enable additional output" },
    { .name = "vif_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE,
      OPT(vif_enhn_gain_limit), .def = 100.0, .min = 1.0, .max = 100.0,
      .feature_param = 1,
      .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 "
              "means the gain is completely disabled" },
    { .name = "vif_kernelscale", .alias = "ks", .type = VG_OPT_DOUBLE,
      OPT(vif_kernelscale), .def = 1.0, .min = 0.1, .max = 4.0,
      .feature_param = 1,
      .help = "scaling factor for the gaussian kernel (2.0 doubles its "
              "standard deviation and its length); one of 21 values" },
    { .name = "vif_prescale", .alias = "ps", .type = VG_OPT_DOUBLE,
      OPT(vif_prescale), .def = 1.0, .min = 0.1, .max = 4.0,
      .feature_param = 1,
      .help = "scaling factor for the frame (2.0 makes it twice as large "
              "on each side)" },
    { .name = "vif_scale1_min_val", .alias = "s1miv", .type = VG_OPT_DOUBLE,
      OPT(vif_scale1_min_val), .def = 0.0, .min = 0.0, .max = 1.0,
      .feature_param = 1,
      .help = "minimum value allowed; smaller values will be set to this value" },
    { .name = "vif_scale2_min_val", .alias = "s2miv", .type = VG_OPT_DOUBLE,
      OPT(vif_scale2_min_val), .def = 0.0, .min = 0.0, .max = 1.0,
      .feature_param = 1,
      .help = "minimum value allowed; smaller values will be set to this value" },
    { .name = "vif_scale3_min_val", .alias = "s3miv", .type = VG_OPT_DOUBLE,
      OPT(vif_scale3_min_val), .def = 0.0, .min = 0.0, .max = 1.0,
      .feature_param = 1,
      .help = "minimum value allowed; smaller values will be set to this value" },
    { .name = "vif_prescale_method", .alias = "pm", .type = VG_OPT_ENUM,
      OPT(vif_prescale_method), .def = VG_VIF_NEAREST, .min = 0, .max = 3,
      .feature_param = 1, .values = vg_vif_prescale_names,
      .help = "scaling method for the frame: nearest, bilinear, bicubic, "
              "lanczos4" },
    { .name = "vif_sigma_nsq", .alias = "snsq", .type = VG_OPT_DOUBLE,
      OPT(vif_sigma_nsq), .def = 2.0, .min = 0.0, .max = 5.0,
      .feature_param = 1, .help = "neural noise variance" },
    { .name = "vif_skip_scale0", .alias = "ssclz", .type = VG_OPT_BOOL,
      OPT(vif_skip_scale0), .def = 0, .min = 0, .max = 1, .feature_param = 1,
      .help = "when set, skip scale 0 calculations" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput float_vif_outputs[] = {
    { "VMAF_feature_vif_scale0_score", "vif_scale0", 0 },
    { "VMAF_feature_vif_scale1_score", "vif_scale1", 0 },
    { "VMAF_feature_vif_scale2_score", "vif_scale2", 0 },
    { "VMAF_feature_vif_scale3_score", "vif_scale3", 0 },
    { "vif", NULL, 1 },
    { "vif_num", NULL, 1 },
    { "vif_den", NULL, 1 },
    { "vif_num_scale0", NULL, 1 },
    { "vif_den_scale0", NULL, 1 },
    { "vif_num_scale1", NULL, 1 },
    { "vif_den_scale1", NULL, 1 },
    { "vif_num_scale2", NULL, 1 },
    { "vif_den_scale2", NULL, 1 },
    { "vif_num_scale3", NULL, 1 },
    { "vif_den_scale3", NULL, 1 },
    { NULL }
};
/* clang-format on */

/* compute_vif() fails on a kernel scale vif_tools.h does not list; the
 * filters need it, so it is refused with the options */
static int float_vif_check_opts(const void *opts, VgLog *log)
{
    const VgFloatVifOptions *o = opts;

    if (!vg_vif_kernelscale_valid((float)o->vif_kernelscale)) {
        vg_log(
            log, VG_LOG_ERROR,
            "feature 'float_vif': vif_kernelscale=%g is not one of " VG_VIF_KERNELSCALES,
            o->vif_kernelscale);
        return -EINVAL;
    }
    return 0;
}

const VgFeatureDesc vg_feature_float_vif = {
    VG_FEATURE_DESC(float_vif),
    VG_FEATURE_OPTIONS(float_vif, VgFloatVifOptions),
    .check_opts = float_vif_check_opts,
    /* 16x16 with the default options (scale 3's 3-tap filter needs 2x2);
     * other options can need more: vg_float_vif_setup() says so */
    .min_width = 16,
    .min_height = 16,
};
