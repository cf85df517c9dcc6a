/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_temporal on the CPU (libvmaf v3.2.0 src/feature/speed.c init(),
 * extract(), subtract_image()): SpEED (common/features/speed.c) of the luma
 * differences of frames n-1 and n; 0 at frame 0.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/fplane.h"
#include "common/features/speed_temporal.h"
#include "common/features/speed.h"

typedef struct SpeedTemporalCpu {
    VgSpeed speed;
    float *ref, *dis, *cur;
    VgFplaneDSP fplane; ///< the planes' conversion to float
} SpeedTemporalCpu;

static int speed_temporal_init(VgFeatureCtx *fc)
{
    SpeedTemporalCpu *s = fc->priv;
    int ret;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());

    if ((ret = vg_speed_temporal_setup(fc, &s->speed, 0)) < 0)
        return ret;
    if (!(s->ref = vg_speed_alloc_frame(&s->speed)) ||
        !(s->dis = vg_speed_alloc_frame(&s->speed)) ||
        !(s->cur = vg_speed_alloc_frame(&s->speed))) {
        vg_log(fc->log, VG_LOG_ERROR, "speed_temporal: out of memory");
        return -ENOMEM;
    }
    return 0;
}

static void speed_temporal_close(VgFeatureCtx *fc)
{
    SpeedTemporalCpu *s = fc->priv;

    vg_speed_free(&s->speed);
    free(s->ref);
    free(s->dis);
    free(s->cur);
    s->ref = s->dis = s->cur = NULL;
}

/* dst = float(prev) - float(cur) over the w x h plane (subtract_image()) */
static void difference(SpeedTemporalCpu *s, float *dst, const VgImage *prev,
                       const VgImage *cur)
{
    const size_t st = s->speed.stride;

    s->fplane.to_float(dst, st, prev, 0, -128);
    s->fplane.to_float(s->cur, st, cur, 0, -128);
    for (unsigned i = 0; i < s->speed.h; i++)
        for (unsigned j = 0; j < s->speed.w; j++)
            dst[i * st + j] -= s->cur[i * st + j];
}

static int speed_temporal_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const VgSpeedTemporalOptions *o = fc->opts;
    SpeedTemporalCpu *s = fc->priv;
    float score;

    if (!f->index)
        return vg_feature_emit(fc, VG_SPEED_TEMPORAL_OUT_SCORE, 0, 0.0);
    if (!f->prev_ref || !f->prev_dis) {
        vg_log(fc->log, VG_LOG_ERROR,
               "speed_temporal: frame %u has no "
               "previous frame",
               f->index);
        return -EINVAL;
    }
    difference(s, s->ref, f->prev_ref, f->ref);
    difference(s, s->dis, f->prev_dis, o->speed_use_ref_diff ? f->ref : f->dis);
    /* extract() ignores speed_extract_score()'s singular flag: the score
     * is emitted as it is */
    vg_speed_score(&s->speed, s->ref, s->dis, &score, fc->log);
    return vg_feature_emit(fc, VG_SPEED_TEMPORAL_OUT_SCORE, f->index, score);
}

const VgFeatureImpl vg_cpu_speed_temporal = {
    .priv_size = sizeof(SpeedTemporalCpu),
    .init = speed_temporal_init,
    .extract = speed_temporal_extract,
    .close = speed_temporal_close,
};
