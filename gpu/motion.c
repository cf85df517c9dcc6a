/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer motion on CUDA: the SAD of the filtered reference difference
 * (gpu/motion.cu) per frame; the score and motion2/motion3 are the
 * feature's home's (common/features/motion.c), as on the CPU.
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/motion.h"
#include "gpu/core/feature.h"

typedef struct MotionCuda {
    CUfunction fn;
} MotionCuda;

static int motion_cuda_init(VgFeatureCtx *fc)
{
    MotionCuda *s = fc->priv;

    /* per-row uint32 sums (integer_motion.c) cannot wrap below this width;
     * the kernel sums in uint64 (gpu/motion.cu) */
    if (fc->width > 65536) {
        vg_log(fc->log, VG_LOG_ERROR,
               "motion: CUDA path supports widths up "
               "to 65536, not %u",
               fc->width);
        return -ENOTSUP;
    }
    return vg_cuda_device_function(
        vg_cuda_fc_device(fc),
        fc->bpc == 8 ? "vg_motion_sad_8" : "vg_motion_sad_16", &s->fn);
}

static int motion_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    MotionCuda *s = fc->priv;
    const VgImage *prev;
    VgMotionParams p;
    int ret;

    if ((ret = vg_motion_prev(fc, f->index, f->prev_ref, f->prev_prev_ref,
                              &prev)) < 0 ||
        !prev)
        return ret;
    p = (VgMotionParams){
        .prev = (uint64_t)(uintptr_t)prev->data[0],
        .cur = (uint64_t)(uintptr_t)f->ref->data[0],
        .prev_pitch = prev->stride[0],
        .cur_pitch = f->ref->stride[0],
        .sad = (uint64_t)f->res,
        .w = fc->width,
        .h = fc->height,
        .bpc = fc->bpc,
    };
    return vg_cuda_device_launch(
        vg_cuda_fc_device(fc), s->fn,
        (fc->width + VG_MOTION_TILE_W - 1) / VG_MOTION_TILE_W,
        (fc->height + VG_MOTION_TILE_H - 1) / VG_MOTION_TILE_H, 1,
        VG_MOTION_BLOCK_X, VG_MOTION_BLOCK_Y, &p);
}

static int motion_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const int has = vg_motion_has_sad(fc->opts, f->index);

    return vg_motion_emit_sad(fc, f->index, has,
                              has ? *(const uint64_t *)f->host_res : 0);
}

const VgCudaFeatureImpl vg_cuda_motion = {
    .priv_size = sizeof(MotionCuda),
    .res_size = sizeof(uint64_t),
    .init = motion_cuda_init,
    .submit = motion_cuda_submit,
    .collect = motion_cuda_collect,
};
