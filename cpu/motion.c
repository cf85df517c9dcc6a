/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion, bit-exact with libvmaf v3.2.0 (src/feature/integer_motion.c
 * motion_score_pipeline_8/16, extract, flush): the SAD of the 5-tap filtered
 * difference between the previous and the current reference luma, then
 * motion2 (min of neighbouring scores) and motion3 (blended, optionally
 * averaged). Mirrors are reflect-101 on both axes, so W and H must be >= 3.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/feature.h"
#include "cpu/motion.h"

/* integer_motion.h: filter[5], Q16 */
const int32_t vg_motion_taps[5] = { 3571, 16004, 26386, 16004, 3571 };

static const VgFeatureOption motion_options[] = {
    { "motion_force_zero", "force_0", VG_OPT_BOOL,
      VG_OPT_OFFSET(VgMotionOptions, motion_force_zero), 0, 0, 1, 1,
      "force the motion score to zero" },
    { "motion_blend_factor", "mbf", VG_OPT_DOUBLE,
      VG_OPT_OFFSET(VgMotionOptions, motion_blend_factor), 1.0, 0.0, 1.0, 1,
      "blend the motion score given an offset" },
    { "motion_blend_offset", "mbo", VG_OPT_DOUBLE,
      VG_OPT_OFFSET(VgMotionOptions, motion_blend_offset), 40.0, 0.0, 1000.0, 1,
      "blend the motion score starting from this offset" },
    { "motion_fps_weight", "mfw", VG_OPT_DOUBLE,
      VG_OPT_OFFSET(VgMotionOptions, motion_fps_weight), 1.0, 0.0, 5.0, 1,
      "frame-rate weight of the score" },
    { "motion_max_val", "mmxv", VG_OPT_DOUBLE,
      VG_OPT_OFFSET(VgMotionOptions, motion_max_val), 10000.0, 0.0, 10000.0, 1,
      "clip scores to this value" },
    { "motion_five_frame_window", "mffw", VG_OPT_BOOL,
      VG_OPT_OFFSET(VgMotionOptions, motion_five_frame_window), 0, 0, 1, 1,
      "use a five-frame window (compare with frame n-2)" },
    { "motion_moving_average", "mma", VG_OPT_BOOL,
      VG_OPT_OFFSET(VgMotionOptions, motion_moving_average), 0, 0, 1, 1,
      "average motion3 with the previous frame's" },
    { "debug", NULL, VG_OPT_BOOL, VG_OPT_OFFSET(VgMotionOptions, debug),
      0, 0, 1, 0, "also output integer_motion" },
    { NULL }
};

static const VgFeatureOutput motion_outputs[] = {
    [VG_MOTION_OUT_SAD]     = { "VMAF_integer_feature_motion_sad_score", NULL, 0 },
    [VG_MOTION_OUT_MOTION]  = { "VMAF_integer_feature_motion_score", "integer_motion", 1 },
    [VG_MOTION_OUT_MOTION2] = { "VMAF_integer_feature_motion2_score", "integer_motion2", 0 },
    [VG_MOTION_OUT_MOTION3] = { "VMAF_integer_feature_motion3_score", "integer_motion3", 0 },
    { NULL }
};

typedef struct MotionCpu {
    int32_t *y_row;
} MotionCpu;

/* integer_motion.c mirror(): reflect-101 */
static inline int mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 2;
    return i;
}

/*
 * Vertical pass on the difference prev - cur, rounded by R_8 (8-bit, int32)
 * or R_bpc (int64); horizontal pass R_16 in int64; |v| summed per row in
 * uint32 (wrapping as libvmaf's), rows in uint64.
 */
static uint64_t motion_sad(const VgImage *prev, const VgImage *cur,
                           int32_t *y_row, unsigned bpc)
{
    const int w = (int)cur->w[0], h = (int)cur->h[0];
    const int shift = bpc == 8 ? 8 : (int)bpc;
    const int64_t y_round = (int64_t)1 << (shift - 1);
    const int32_t *g = vg_motion_taps;
    uint64_t sad = 0;

    for (int i = 0; i < h; i++) {
        const ptrdiff_t r[5] = {
            mirror(i - 2, h), mirror(i - 1, h), i, mirror(i + 1, h),
            mirror(i + 2, h),
        };
        uint32_t row_sad = 0;

        if (bpc == 8) {
            const uint8_t *p[5], *c[5];
            for (int k = 0; k < 5; k++) {
                p[k] = (const uint8_t *)prev->data[0] + r[k] * prev->stride[0];
                c[k] = (const uint8_t *)cur->data[0] + r[k] * cur->stride[0];
            }
            for (int j = 0; j < w; j++) {
                int32_t acc = 0;
                for (int k = 0; k < 5; k++)
                    acc += g[k] * (p[k][j] - c[k][j]);
                y_row[j] = (acc + (int32_t)y_round) >> shift;
            }
        } else {
            const uint16_t *p[5], *c[5];
            for (int k = 0; k < 5; k++) {
                p[k] = (const uint16_t *)((const uint8_t *)prev->data[0] +
                                          r[k] * prev->stride[0]);
                c[k] = (const uint16_t *)((const uint8_t *)cur->data[0] +
                                          r[k] * cur->stride[0]);
            }
            for (int j = 0; j < w; j++) {
                int64_t acc = 0;
                for (int k = 0; k < 5; k++)
                    acc += (int64_t)g[k] * (p[k][j] - c[k][j]);
                y_row[j] = (int32_t)((acc + y_round) >> shift);
            }
        }

        for (int j = 0; j < w; j++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += (int64_t)g[k] * y_row[mirror(j - 2 + k, w)];
            const int32_t v = (int32_t)((acc + 32768) >> 16);
            row_sad += (uint32_t)(v < 0 ? -v : v);
        }
        sad += row_sad;
    }
    return sad;
}

static int motion_init(VgFeatureCtx *fc)
{
    MotionCpu *s = fc->priv;

    s->y_row = malloc(sizeof(*s->y_row) * fc->width);
    return s->y_row ? 0 : -ENOMEM;
}

static void motion_close(VgFeatureCtx *fc)
{
    MotionCpu *s = fc->priv;

    free(s->y_row);
    s->y_row = NULL;
}

int vg_motion_emit_sad_score(VgFeatureCtx *fc, unsigned index, double score)
{
    const VgMotionOptions *o = fc->opts;
    int ret = vg_feature_emit(fc, VG_MOTION_OUT_SAD, index, score);

    if (ret >= 0 && o->debug)
        ret = vg_feature_emit(fc, VG_MOTION_OUT_MOTION, index, score);
    return ret;
}

static int motion_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const VgMotionOptions *o = fc->opts;
    MotionCpu *s = fc->priv;
    double score = 0.0;

    if (!o->motion_force_zero && f->index >= vg_motion_min_idx(o)) {
        const VgImage *prev = o->motion_five_frame_window ? f->prev_prev_ref
                                                          : f->prev_ref;
        if (!prev) {
            vg_log(fc->log, VG_LOG_ERROR, "motion: frame %u has no previous "
                   "reference", f->index);
            return -EINVAL;
        }
        score = vg_motion_score(o, motion_sad(prev, f->ref, s->y_row, fc->bpc),
                                fc->width, fc->height);
    }
    return vg_motion_emit_sad_score(fc, f->index, score);
}

/* motion_blend_tools.h motion_blend() */
static inline double blend(double s, double f, double off)
{
    return s * f + (1 - f) * (off < s ? off : s);
}

static inline double clip_max(double v, double max)
{
    return v < max ? v : max;
}

typedef struct MotionPost {
    unsigned next;          ///< next frame whose motion2/3 is to be written
    int have_stamp;
    double stamp;
    double prev_processed;
} MotionPost;

/*
 * integer_motion.c flush(), run incrementally: motion2[i] needs the SAD
 * score of i + 1 (or the end of stream), motion3 of the first min_idx frames
 * needs the "stamp" from the score at min_idx.
 */
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
            st->stamp = clip_max(blend(s, o->motion_blend_factor,
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
                if ((ret = vg_feature_read(fc, VG_MOTION_OUT_SAD, lo_idx, &lo)) < 0)
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
            const double p = clip_max(blend(m2, o->motion_blend_factor,
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

static const VgFeatureImpl motion_cpu = {
    .priv_size = sizeof(MotionCpu),
    .init = motion_init,
    .extract = motion_extract,
    .close = motion_close,
};

const VgFeatureDesc vg_feature_motion = {
    .name = "motion",
    .options = motion_options,
    .opts_size = sizeof(VgMotionOptions),
    .outputs = motion_outputs,
    .flags = VG_FEATURE_PREV_REF | VG_FEATURE_EVERY_FRAME,
    .min_width = 3,
    .min_height = 3,
    .cpu = &motion_cpu,
#if HAVE_CUDA
    .cuda = &vg_motion_cuda,
#endif
    .post = motion_post,
    .post_priv_size = sizeof(MotionPost),
};
