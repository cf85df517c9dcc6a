/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion on CUDA: the SAD of the filtered reference difference
 * (gpu/motion.cu) per frame; the score and the motion2/motion3
 * post-processing are the CPU path's (cpu/motion.h, cpu/motion.c).
 */

#include <errno.h>
#include <stdint.h>

#include "cpu/motion.h"
#include "gpu/engine.h"
#include "gpu/motion_params.h"

typedef struct MotionCuda {
    CUfunction fn;
    int active;    ///< this frame's SAD was queued
} MotionCuda;

static int motion_cuda_init(VgFeatureCtx *fc)
{
    MotionCuda *s = fc->priv;

    /* per-row uint32 sums (integer_motion.c) cannot wrap below this width;
     * the kernel sums in uint64 (gpu/motion.cu) */
    if (fc->width > 65536) {
        vg_log(fc->log, VG_LOG_ERROR, "motion: CUDA path supports widths up "
               "to 65536, not %u", fc->width);
        return -ENOTSUP;
    }
    return vg_cuda_engine_function(fc->backend, fc->bpc == 8 ?
                                   "vg_motion_sad_8" : "vg_motion_sad_16",
                                   &s->fn);
}

static int motion_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgMotionOptions *o = fc->opts;
    MotionCuda *s = fc->priv;
    const VgImage *prev;
    VgMotionParams p;

    s->active = 0;
    if (o->motion_force_zero || f->index < vg_motion_min_idx(o))
        return 0;
    prev = o->motion_five_frame_window ? f->prev_prev_ref : f->prev_ref;
    if (!prev) {
        vg_log(fc->log, VG_LOG_ERROR, "motion: frame %u has no previous "
               "reference", f->index);
        return -EINVAL;
    }
    p = (VgMotionParams) {
        .prev = (uint64_t)(uintptr_t)prev->data[0],
        .cur = (uint64_t)(uintptr_t)f->ref->data[0],
        .prev_pitch = prev->stride[0],
        .cur_pitch = f->ref->stride[0],
        .sad = (uint64_t)f->res,
        .w = fc->width,
        .h = fc->height,
        .bpc = fc->bpc,
    };
    s->active = 1;
    return vg_cuda_engine_launch(fc->backend, s->fn,
                                 (fc->width + VG_MOTION_TILE_W - 1) / VG_MOTION_TILE_W,
                                 (fc->height + VG_MOTION_TILE_H - 1) / VG_MOTION_TILE_H,
                                 1, VG_MOTION_BLOCK_X, VG_MOTION_BLOCK_Y, &p);
}

static int motion_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgMotionOptions *o = fc->opts;
    double score = 0.0;

    /* frames before min_idx and motion_force_zero score 0, as
     * integer_motion.c extract() */
    if (!o->motion_force_zero && f->index >= vg_motion_min_idx(o))
        score = vg_motion_score(o, *(const uint64_t *)f->host_res,
                                fc->width, fc->height);
    return vg_motion_emit_sad_score(fc, f->index, score);
}

const VgCudaFeatureImpl vg_motion_cuda = {
    .priv_size = sizeof(MotionCuda),
    .res_size = sizeof(uint64_t),
    .init = motion_cuda_init,
    .submit = motion_cuda_submit,
    .collect = motion_cuda_collect,
};
