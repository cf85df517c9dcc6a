/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion's descriptor and its backend-independent parts, as
 * libvmaf v3.2.0 src/feature/integer_motion.c: the options, the outputs,
 * the per-frame score from the SAD, and motion2/motion3 (flush(), run
 * incrementally as frames complete).
 */

#include <errno.h>

#include "common/features/motion.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgMotionOptions, field)

/* clang-format off */
static const VgFeatureOption motion_options[] = {
    { .name = "motion_force_zero", .alias = "force_0", .type = VG_OPT_BOOL,
      OPT(motion_force_zero), .def = 0, .min = 0, .max = 1,
      .feature_param = 1, .help = "force the motion score to zero" },
    { .name = "motion_blend_factor", .alias = "mbf", .type = VG_OPT_DOUBLE,
      OPT(motion_blend_factor), .def = 1.0, .min = 0.0, .max = 1.0,
      .feature_param = 1, .help = "blend the motion score given an offset" },
    { .name = "motion_blend_offset", .alias = "mbo", .type = VG_OPT_DOUBLE,
      OPT(motion_blend_offset), .def = 40.0, .min = 0.0, .max = 1000.0,
      .feature_param = 1,
      .help = "blend the motion score starting from this offset" },
    { .name = "motion_fps_weight", .alias = "mfw", .type = VG_OPT_DOUBLE,
      OPT(motion_fps_weight), .def = 1.0, .min = 0.0, .max = 5.0,
      .feature_param = 1, .help = "frame-rate weight of the score" },
    { .name = "motion_max_val", .alias = "mmxv", .type = VG_OPT_DOUBLE,
      OPT(motion_max_val), .def = 10000.0, .min = 0.0, .max = 10000.0,
      .feature_param = 1, .help = "clip scores to this value" },
    { .name = "motion_five_frame_window", .alias = "mffw", .type = VG_OPT_BOOL,
      OPT(motion_five_frame_window), .def = 0, .min = 0, .max = 1,
      .feature_param = 1,
      .help = "use a five-frame window (compare with frame n-2)" },
    { .name = "motion_moving_average", .alias = "mma", .type = VG_OPT_BOOL,
      OPT(motion_moving_average), .def = 0, .min = 0, .max = 1,
      .feature_param = 1,
      .help = "average motion3 with the previous frame's" },
    { .name = "debug", .type = VG_OPT_BOOL, OPT(debug), .def = 0, .min = 0,
      .max = 1, .help = "also output integer_motion" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput motion_outputs[] = {
    [VG_MOTION_OUT_SAD]     = { "VMAF_integer_feature_motion_sad_score", NULL, 0 },
    [VG_MOTION_OUT_MOTION]  = { "VMAF_integer_feature_motion_score", "integer_motion", 1 },
    [VG_MOTION_OUT_MOTION2] = { "VMAF_integer_feature_motion2_score", "integer_motion2", 0 },
    [VG_MOTION_OUT_MOTION3] = { "VMAF_integer_feature_motion3_score", "integer_motion3", 0 },
    { NULL }
};
/* clang-format on */

int vg_motion_prev(const VgFeatureCtx *fc, unsigned index,
                   const VgImage *prev_ref, const VgImage *prev_prev_ref,
                   const VgImage **prev)
{
    const VgMotionOptions *o = fc->opts;

    *prev = NULL;
    if (!vg_motion_has_sad(o, index))
        return 0;
    *prev = o->motion_five_frame_window ? prev_prev_ref : prev_ref;
    if (!*prev) {
        vg_log(fc->log, VG_LOG_ERROR,
               "motion: frame %u has no previous "
               "reference",
               index);
        return -EINVAL;
    }
    return 0;
}

int vg_motion_emit_sad(VgFeatureCtx *fc, unsigned index, int have_sad,
                       uint64_t sad)
{
    const VgMotionOptions *o = fc->opts;
    double score = 0.0;
    int ret;

    if (have_sad) {
        const double s = (double)sad / 256. / (double)(fc->width * fc->height) *
                         o->motion_fps_weight;
        score = s < o->motion_max_val ? s : o->motion_max_val;
    }
    ret = vg_feature_emit(fc, VG_MOTION_OUT_SAD, index, score);
    if (ret >= 0 && o->debug)
        ret = vg_feature_emit(fc, VG_MOTION_OUT_MOTION, index, score);
    return ret;
}

static inline double clip_max(double v, double max)
{
    return v < max ? v : max;
}

typedef struct MotionPost {
    unsigned next; ///< next frame whose motion2/3 is to be written
    int have_stamp;
    double stamp;
    double prev_processed;
} MotionPost;

/*
 * integer_motion.c flush(), run incrementally: motion2[i] needs the SAD
 * score of i + 1 (or the end of stream), motion3 of the first min_idx frames
 * needs the "stamp" from the score at min_idx.
 */
/* the SAD of frame n compares it with frame n - 1, or n - 2 with the
 * five-frame window */
static unsigned motion_lead_in(const void *opts)
{
    return vg_motion_min_idx(opts);
}

static int motion_post(VgFeatureCtx *fc, unsigned n_done, int final)
{
    const VgMotionOptions *o = fc->opts;
    const unsigned min_idx = vg_motion_min_idx(o);
    const unsigned stride = o->motion_five_frame_window ? 2 : 1;
    MotionPost *st = fc->priv;
    int ret;

    if (!st->have_stamp) {
        if (n_done > min_idx) {
            double s;
            if ((ret = vg_feature_read(fc, VG_MOTION_OUT_SAD, min_idx, &s)) < 0)
                return ret;
            st->stamp = clip_max(vg_motion_blend(s, o->motion_blend_factor,
                                                 o->motion_blend_offset),
                                 o->motion_max_val);
            st->have_stamp = 1;
        } else if (final) {
            st->stamp = 0.0;
            st->have_stamp = 1;
        } else {
            return 0;
        }
        st->prev_processed = 0.0;
    }

    while (st->next < n_done) {
        const unsigned i = st->next;
        double m2, m3, s_i, hi;

        if (i + 1 >= n_done && !final)
            break;
        if ((ret = vg_feature_read(fc, VG_MOTION_OUT_SAD, i, &s_i)) < 0)
            return ret;
        if (i < min_idx) {
            m2 = 0.0;
        } else if (i + 1 >= n_done) {
            m2 = s_i;
        } else {
            const int lo_idx = (int)i - (int)(stride - 1);
            if ((ret = vg_feature_read(fc, VG_MOTION_OUT_SAD, i + 1, &hi)) < 0)
                return ret;
            if (lo_idx >= (int)min_idx) {
                double lo;
                if ((ret = vg_feature_read(fc, VG_MOTION_OUT_SAD, lo_idx,
                                           &lo)) < 0)
                    return ret;
                m2 = lo < hi ? lo : hi;
            } else {
                m2 = hi;
            }
        }
        if (i < min_idx) {
            m3 = st->stamp;
            st->prev_processed = st->stamp;
        } else {
            const double p =
                clip_max(vg_motion_blend(m2, o->motion_blend_factor,
                                         o->motion_blend_offset),
                         o->motion_max_val);
            m3 = o->motion_moving_average ? (p + st->prev_processed) / 2.0 : p;
            st->prev_processed = p;
        }
        if ((ret = vg_feature_emit(fc, VG_MOTION_OUT_MOTION2, i, m2)) < 0 ||
            (ret = vg_feature_emit(fc, VG_MOTION_OUT_MOTION3, i, m3)) < 0)
            return ret;
        st->next++;
    }
    return 0;
}

const VgFeatureDesc vg_feature_motion = {
    VG_FEATURE_DESC(motion),
    VG_FEATURE_OPTIONS(motion, VgMotionOptions),
    .flags = VG_FEATURE_PREV_REF | VG_FEATURE_EVERY_FRAME | VG_FEATURE_REF_ONLY,
    .min_width = 3,
    .min_height = 3,
    .post = motion_post,
    .lead_in = motion_lead_in,
    .post_priv_size = sizeof(MotionPost),
};
