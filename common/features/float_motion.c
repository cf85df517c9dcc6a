/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float motion's descriptor and its backend-independent parts, as libvmaf
 * v3.2.0 src/feature/float_motion.c: the options, the outputs, a plane's
 * score from its row sums (src/feature/motion.c vmaf_image_sad_c()), and
 * motion2/motion3 (extract() one frame late and flush(), run
 * incrementally as frames complete).
 *
 * libvmaf computes frame n's score twice, at n (with n - 1) and at n + 1
 * (n - 1 with n, the same absolute differences); it is computed once here
 * and kept as the internal output VG_FMOTION_OUT_SCORE, which motion2 and
 * motion3 read back.
 */

#include <errno.h>

#include "common/features/float_motion.h"
#include "common/features/motion.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgFloatMotionOptions, field)

/* clang-format off */
static const VgFeatureOption float_motion_options[] = {
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug), .def = 1, .min = 0,
      .max = 1, .help = "also output motion (on by default)" },
    { .name = "motion_force_zero", .alias = "force_0", .type = VG_OPT_BOOL,
      OPT(motion_force_zero), .def = 0, .min = 0, .max = 1,
      .feature_param = 1, .help = "force the motion scores to zero" },
    { .name = "motion_fps_weight", .alias = "mfw", .type = VG_OPT_DOUBLE,
      OPT(motion_fps_weight), .def = 1.0, .min = 0.0, .max = 5.0,
      .feature_param = 1, .help = "frame-rate weight of the scores" },
    { .name = "motion_blend_factor", .alias = "mbf", .type = VG_OPT_DOUBLE,
      OPT(motion_blend_factor), .def = 1.0, .min = 0.0, .max = 1.0,
      .feature_param = 1, .help = "blend motion3 given an offset" },
    { .name = "motion_blend_offset", .alias = "mbo", .type = VG_OPT_DOUBLE,
      OPT(motion_blend_offset), .def = 40.0, .min = 0.0, .max = 1000.0,
      .feature_param = 1, .help = "blend motion3 starting from this offset" },
    { .name = "motion_add_scale1", .alias = "mdc", .type = VG_OPT_BOOL,
      OPT(motion_add_scale1), .def = 0, .min = 0, .max = 1,
      .feature_param = 1,
      .help = "add the score of the planes scaled to half size" },
    { .name = "motion_filter_size", .alias = "mfs", .type = VG_OPT_INT,
      OPT(motion_filter_size), .def = 5, .min = 0, .max = 9,
      .feature_param = 1,
      .help = "blur: 3 = 3-tap, 1 = none, any other = 5-tap" },
    { .name = "motion_add_uv", .alias = "mau", .type = VG_OPT_BOOL,
      OPT(motion_add_uv), .def = 0, .min = 0, .max = 1,
      .feature_param = 1, .help = "add the scores of the chroma planes" },
    { .name = "motion_max_val", .alias = "mmxv", .type = VG_OPT_DOUBLE,
      OPT(motion_max_val), .def = 10000.0, .min = 0.0, .max = 10000.0,
      .feature_param = 1, .help = "clip scores to this value" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput float_motion_outputs[] = {
    [VG_FMOTION_OUT_MOTION]  = { "VMAF_feature_motion_score", "motion", 1 },
    [VG_FMOTION_OUT_MOTION2] = { "VMAF_feature_motion2_score", "motion2", 0 },
    [VG_FMOTION_OUT_MOTION3] = { "VMAF_feature_motion3_score", "motion3", 0 },
    [VG_FMOTION_OUT_SCORE]   = { "float_motion_score", NULL, VG_OUTPUT_INTERNAL },
    { NULL }
};
/* clang-format on */

float vg_float_motion_sad(const float *row_sad, unsigned w, unsigned h)
{
    float accum = 0.0f;

    for (unsigned i = 0; i < h; i++)
        accum += row_sad[i];
    /* motion.c: (float)(accum / (width * height)), the int product as a
     * float */
    return (float)(accum / (int)(w * h));
}

int vg_float_motion_check(const VgFeatureCtx *fc)
{
    const VgFloatMotionOptions *o = fc->opts;
    unsigned ssx, ssy, cw, ch;

    if (!o->motion_add_uv)
        return 0;
    if (fc->layout == VG_LAYOUT_400) {
        vg_log(fc->log, VG_LOG_ERROR,
               "float_motion: motion_add_uv needs "
               "chroma planes, and 4:0:0 pictures have none");
        return -EINVAL;
    }
    /* the planes as libvmaf sizes them: w >> ssx, h >> ssy */
    vg_layout_shifts(fc->layout, &ssx, &ssy);
    cw = fc->width >> ssx;
    ch = fc->height >> ssy;
    if (cw < 3 || ch < 3) {
        vg_log(fc->log, VG_LOG_ERROR,
               "float_motion: motion_add_uv needs "
               "chroma planes of at least 3x3, these are %ux%u",
               cw, ch);
        return -EINVAL;
    }
    /* libvmaf keeps the chroma planes with the luma's row stride but has
     * motion_add_scale1 read them with a stride made from their own
     * width: where the two differ it reads the rows' unwritten padding */
    if (o->motion_add_scale1 &&
        vg_fmotion_align32(cw * 4) != vg_fmotion_align32(fc->width * 4)) {
        vg_log(
            fc->log, VG_LOG_ERROR,
            "float_motion: motion_add_scale1 with "
            "motion_add_uv is undefined for %ux%u chroma planes of a %u-wide "
            "picture: libvmaf reads them with a %u-sample row stride and "
            "takes uninitialised memory (use 4:4:4 input, or leave one of "
            "the options off)",
            cw, ch, fc->width, vg_fmotion_align32(cw * 4) / 4);
        return -EINVAL;
    }
    return 0;
}

static inline double clip_max(double v, double max)
{
    return v < max ? v : max;
}

int vg_float_motion_emit(VgFeatureCtx *fc, unsigned index, double score)
{
    const VgFloatMotionOptions *o = fc->opts;
    int ret;

    if (o->motion_force_zero) {
        if ((ret = vg_feature_emit(fc, VG_FMOTION_OUT_MOTION2, index, 0.)) <
                0 ||
            (ret = vg_feature_emit(fc, VG_FMOTION_OUT_MOTION3, index, 0.)) < 0)
            return ret;
        return vg_feature_emit(fc, VG_FMOTION_OUT_MOTION, index, 0.);
    }
    if (!index) {
        if ((ret = vg_feature_emit(fc, VG_FMOTION_OUT_MOTION2, 0, 0.)) < 0)
            return ret;
        return vg_feature_emit(fc, VG_FMOTION_OUT_MOTION, 0, 0.);
    }
    if ((ret = vg_feature_emit(
             fc, VG_FMOTION_OUT_MOTION, index,
             clip_max(score * o->motion_fps_weight, o->motion_max_val))) < 0)
        return ret;
    return vg_feature_emit(fc, VG_FMOTION_OUT_SCORE, index, score);
}

typedef struct FloatMotionPost {
    unsigned next;  ///< next frame >= 1 whose motion2/motion3 is to be written
    int have_first; ///< motion3 of frame 0 written
} FloatMotionPost;

static int emit_pair(VgFeatureCtx *fc, unsigned index, double s)
{
    const VgFloatMotionOptions *o = fc->opts;
    const double ws = s * o->motion_fps_weight;
    int ret;

    if ((ret = vg_feature_emit(fc, VG_FMOTION_OUT_MOTION2, index,
                               clip_max(ws, o->motion_max_val))) < 0)
        return ret;
    return vg_feature_emit(fc, VG_FMOTION_OUT_MOTION3, index,
                           clip_max(vg_motion_blend(ws, o->motion_blend_factor,
                                                    o->motion_blend_offset),
                                    o->motion_max_val));
}

/*
 * float_motion.c, run incrementally: motion3 of frame 0 is the blended
 * score of frame 1 (0 in a one-frame stream); motion2 and motion3 of frame
 * n >= 1 come from min(score n, score n + 1), written by libvmaf at frame
 * n + 1, and from score n alone for the last frame (flush()).
 */
static int float_motion_post(VgFeatureCtx *fc, unsigned n_done, int final)
{
    const VgFloatMotionOptions *o = fc->opts;
    FloatMotionPost *st = fc->priv;
    int ret;

    if (o->motion_force_zero)
        return 0;
    if (!st->have_first) {
        if (n_done >= 2) {
            double s1;
            if ((ret = vg_feature_read(fc, VG_FMOTION_OUT_SCORE, 1, &s1)) < 0)
                return ret;
            if ((ret = vg_feature_emit(
                     fc, VG_FMOTION_OUT_MOTION3, 0,
                     clip_max(vg_motion_blend(s1 * o->motion_fps_weight,
                                              o->motion_blend_factor,
                                              o->motion_blend_offset),
                              o->motion_max_val))) < 0)
                return ret;
            st->have_first = 1;
        } else if (final && n_done == 1) {
            if ((ret = vg_feature_emit(fc, VG_FMOTION_OUT_MOTION3, 0, 0.)) < 0)
                return ret;
            st->have_first = 1;
        }
    }
    if (st->next < 1)
        st->next = 1;
    while (st->next < n_done) {
        const unsigned i = st->next;
        double s, s_next;

        if (i + 1 >= n_done && !final)
            break;
        if ((ret = vg_feature_read(fc, VG_FMOTION_OUT_SCORE, i, &s)) < 0)
            return ret;
        if (i + 1 < n_done) {
            if ((ret = vg_feature_read(fc, VG_FMOTION_OUT_SCORE, i + 1,
                                       &s_next)) < 0)
                return ret;
            /* extract() at i + 1: score2 = score2 < score ? score2 : score */
            s = s < s_next ? s : s_next;
        }
        if ((ret = emit_pair(fc, i, s)) < 0)
            return ret;
        st->next++;
    }
    return 0;
}

const VgFeatureDesc vg_feature_float_motion = {
    VG_FEATURE_DESC(float_motion),
    VG_FEATURE_OPTIONS(float_motion, VgFloatMotionOptions),
    .flags = VG_FEATURE_PREV_REF | VG_FEATURE_EVERY_FRAME | VG_FEATURE_REF_ONLY,
    .min_width = 3,
    .min_height = 3,
    .post = float_motion_post,
    .post_priv_size = sizeof(FloatMotionPost),
};
