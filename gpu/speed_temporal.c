/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_temporal on CUDA: the luma differences of frames n-1 and n,
 * formed on the device from the engine's resident device images of frame
 * n-1 (VgCudaFrame.prev_ref, prev_dis: no host copy of any picture), then
 * prescaled, filtered and decimated there, with their covariance
 * matrices (gpu/speed.cuh); the decimated differences and the matrices
 * come back in the frame's results and are scored on the host by the
 * CPU's code (common/features/speed.c vg_speed_score_decimated()), so both
 * backends print the same bits. Frame 0 scores 0 and launches nothing.
 */

#include <errno.h>

#include "common/features/speed_temporal.h"
#include "gpu/speed.h"

enum {
    REF,
    DIS,
    NB_PICS
};

static void speed_temporal_cuda_close(VgFeatureCtx *fc)
{
    vg_cuda_speed_close(fc, fc->priv);
}

static int speed_temporal_cuda_init(VgFeatureCtx *fc)
{
    VgCudaSpeed *s = fc->priv;
    int ret;

    if ((ret = vg_speed_temporal_setup(fc, &s->speed, 1)) < 0 ||
        (ret = vg_cuda_speed_init(fc, s, NB_PICS, fc->bpc)) < 0)
        speed_temporal_cuda_close(fc);
    return ret;
}

static size_t speed_temporal_cuda_res_size(const VgFeatureCtx *fc)
{
    return vg_cuda_speed_res_size(fc->priv);
}

static int speed_temporal_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgSpeedTemporalOptions *o = fc->opts;
    const VgCudaSpeed *s = fc->priv;

    if (!f->index)
        return 0;
    if (!f->prev_ref || !f->prev_dis) {
        vg_log(fc->log, VG_LOG_ERROR,
               "speed_temporal: frame %u has no "
               "previous frame",
               f->index);
        return -EINVAL;
    }
    /* cpu/speed_temporal.c: ref(n-1) - ref(n), and dis(n-1) less dis(n)
     * or, with speed_use_ref_diff, less ref(n) */
    const uint64_t a[NB_PICS] = {
        [REF] = (uint64_t)(uintptr_t)f->prev_ref->data[0],
        [DIS] = (uint64_t)(uintptr_t)f->prev_dis->data[0],
    };
    const uint64_t b[NB_PICS] = {
        [REF] = (uint64_t)(uintptr_t)f->ref->data[0],
        [DIS] = (uint64_t)(uintptr_t)(o->speed_use_ref_diff ? f->ref->data[0]
                                                            : f->dis->data[0]),
    };

    /* every luma plane of the engine's images has one geometry */
    return vg_cuda_speed_submit(fc, s, a, b, f->ref->stride[0], f->res);
}

/* the host step, on a scratch state of its own */
static int speed_temporal_cuda_finish(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    VgCudaSpeed *s = fc->priv;
    VgSpeed *sp;
    float score;

    if (!f->index)
        return vg_feature_emit(fc, VG_SPEED_TEMPORAL_OUT_SCORE, 0, 0.0);
    if (!(sp = vg_cuda_speed_take(fc, s)))
        return -ENOMEM;
    /* as on the CPU, the singular flag is ignored */
    vg_speed_score_decimated(sp, vg_cuda_speed_result(s, f->host_res, REF),
                             vg_cuda_speed_result(s, f->host_res, DIS),
                             vg_cuda_speed_cov(s, f->host_res, REF),
                             vg_cuda_speed_cov(s, f->host_res, DIS), &score,
                             fc->log);
    vg_cuda_speed_give(s, sp);
    return vg_feature_emit(fc, VG_SPEED_TEMPORAL_OUT_SCORE, f->index, score);
}

const VgCudaFeatureImpl vg_cuda_speed_temporal = {
    .priv_size = sizeof(VgCudaSpeed),
    .res_size_of = speed_temporal_cuda_res_size,
    .init = speed_temporal_cuda_init,
    .submit = speed_temporal_cuda_submit,
    .finish = speed_temporal_cuda_finish,
    .close = speed_temporal_cuda_close,
};
