/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float motion on CUDA: each frame's float luma blurred into one of two
 * device planes (frames are submitted in order on one stream, so frame
 * n - 1's plane is ready and frame n + 1 overwrites it only after frame
 * n's kernels), and the row sums of |blur(n - 1) - blur(n)| read back;
 * the rows are added by the home (vg_float_motion_sad()), as on the CPU,
 * and motion2/motion3 are the home's post-processing.
 *
 * motion_add_uv and motion_add_scale1 are computed by the CPU backend
 * only; the CUDA backend refuses them.
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_motion.h"
#include "gpu/core/feature.h"

/** Rows of the per-frame readback (res_size is fixed per feature). */
#define FM_MAX_ROWS 8192

typedef struct FloatMotionCuda {
    CUfunction f_v, f_h, f_sad;
    CUdeviceptr mem; ///< tmp, then the two blurred planes
    int64_t pitch;   ///< floats per row of those planes
    float tap[5];
    unsigned n_taps;
} FloatMotionCuda;

static void float_motion_cuda_close(VgFeatureCtx *fc)
{
    FloatMotionCuda *s = fc->priv;

    if (s->mem)
        VG_CU(vg_cuda_fc_device(fc)->cu, fc->log, cuMemFree, s->mem);
    s->mem = 0;
}

static int float_motion_cuda_init(VgFeatureCtx *fc)
{
    const VgFloatMotionOptions *o = fc->opts;
    FloatMotionCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    int ret;

    if ((ret = vg_float_motion_check(fc)) < 0)
        return ret;
    if (o->motion_add_uv || o->motion_add_scale1) {
        vg_log(fc->log, VG_LOG_ERROR,
               "float_motion: motion_add_uv and "
               "motion_add_scale1 are computed by the CPU backend only");
        return -ENOTSUP;
    }
    if (fc->height > FM_MAX_ROWS) {
        vg_log(fc->log, VG_LOG_ERROR,
               "float_motion: CUDA path supports "
               "heights up to %d, not %u",
               FM_MAX_ROWS, fc->height);
        return -ENOTSUP;
    }
    s->n_taps = vg_fmotion_taps(o->motion_filter_size, s->tap);
    s->pitch = vg_fmotion_align32(fc->width * 4) / 4;
    if ((ret = vg_cuda_device_function(d, "vg_fmotion_blur_v", &s->f_v)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_fmotion_blur_h", &s->f_h)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_fmotion_row_sad", &s->f_sad)) < 0)
        return ret;
    return VG_CU(d->cu, fc->log, cuMemAlloc, &s->mem,
                 (size_t)3 * (size_t)s->pitch * fc->height * sizeof(float));
}

static CUdeviceptr plane(const FloatMotionCuda *s, const VgFeatureCtx *fc,
                         unsigned k)
{
    return s->mem +
           (CUdeviceptr)k * (CUdeviceptr)s->pitch * fc->height * sizeof(float);
}

static int float_motion_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgFloatMotionOptions *o = fc->opts;
    FloatMotionCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const unsigned gx = (fc->width + VG_FMOTION_BLOCK - 1) / VG_FMOTION_BLOCK;
    const unsigned gy = (fc->height + VG_FMOTION_ROWS - 1) / VG_FMOTION_ROWS;
    VgFloatMotionBlurParams bp;
    VgFloatMotionSadParams sp;
    int ret;

    if (o->motion_force_zero)
        return 0;
    bp = (VgFloatMotionBlurParams){
        .src = (uint64_t)f->ref_f,
        .dst = (uint64_t)plane(s, fc, 0),
        .src_pitch = (int64_t)(f->f_pitch / sizeof(float)),
        .dst_pitch = s->pitch,
        .w = fc->width,
        .h = fc->height,
        .n_taps = s->n_taps,
    };
    for (unsigned k = 0; k < 5; k++)
        bp.tap[k] = s->tap[k];
    if ((ret = vg_cuda_device_launch(d, s->f_v, gx, gy, 1, VG_FMOTION_BLOCK, 1,
                                     &bp)) < 0)
        return ret;
    bp.src = bp.dst;
    bp.src_pitch = s->pitch;
    bp.dst = (uint64_t)plane(s, fc, 1 + (f->index & 1));
    if ((ret = vg_cuda_device_launch(d, s->f_h, gx, gy, 1, VG_FMOTION_BLOCK, 1,
                                     &bp)) < 0)
        return ret;
    if (!f->index)
        return 0;
    sp = (VgFloatMotionSadParams){
        .a = (uint64_t)plane(s, fc, 1 + ((f->index - 1) & 1)),
        .b = (uint64_t)plane(s, fc, 1 + (f->index & 1)),
        .pitch = s->pitch,
        .row_sad = (uint64_t)f->res,
        .w = fc->width,
        .h = fc->height,
    };
    return vg_cuda_device_launch(d, s->f_sad,
                                 (fc->height + VG_FMOTION_SAD_STRIP - 1) /
                                     VG_FMOTION_SAD_STRIP,
                                 1, 1, VG_FMOTION_SAD_THREADS, 1, &sp);
}

static int float_motion_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgFloatMotionOptions *o = fc->opts;

    if (o->motion_force_zero || !f->index)
        return vg_float_motion_emit(fc, f->index, 0.);
    return vg_float_motion_emit(
        fc, f->index, vg_float_motion_sad(f->host_res, fc->width, fc->height));
}

const VgCudaFeatureImpl vg_cuda_float_motion = {
    .priv_size = sizeof(FloatMotionCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = FM_MAX_ROWS * sizeof(float),
    .init = float_motion_cuda_init,
    .submit = float_motion_cuda_submit,
    .collect = float_motion_cuda_collect,
    .close = float_motion_cuda_close,
};
