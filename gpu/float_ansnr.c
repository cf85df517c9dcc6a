/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ansnr on CUDA: the filters, the row sums and their total on the
 * device (gpu/float_ansnr.cu), every float operation the CPU's in its
 * order; the scores are the home's finish (common/features/float_ansnr.c).
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_ansnr.h"
#include "common/features/float_ansnr_params.h"
#include "gpu/core/feature.h"

typedef struct AnsnrCuda {
    CUfunction filter, rows;
    CUdeviceptr mem; ///< ref_filt, dis_filt (w * h floats each), rows
                     ///< (2 h), the rows kernel's block counter
} AnsnrCuda;

static void ansnr_cuda_close(VgFeatureCtx *fc)
{
    AnsnrCuda *s = fc->priv;

    if (s->mem)
        VG_CU(vg_cuda_fc_device(fc)->cu, fc->log, cuMemFree, s->mem);
    s->mem = 0;
}

static int ansnr_cuda_init(VgFeatureCtx *fc)
{
    AnsnrCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const size_t plane = (size_t)fc->width * fc->height * sizeof(float);
    int ret;

    if ((ret = vg_cuda_device_function(d, "vg_float_ansnr_filter",
                                       &s->filter)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_float_ansnr_rows", &s->rows)) < 0)
        return ret;
    if ((ret = VG_CU(d->cu, fc->log, cuMemAlloc, &s->mem,
                     2 * plane +
                         (2 * (size_t)fc->height + 1) * sizeof(float))) < 0)
        return ret;
    return VG_CU(d->cu, fc->log, cuMemsetD8Async,
                 s->mem + 2 * plane + 2 * (size_t)fc->height * sizeof(float), 0,
                 sizeof(float), d->stream);
}

static int ansnr_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const AnsnrCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const size_t plane = (size_t)fc->width * fc->height * sizeof(float);
    VgAnsnrKernelParams p = {
        .ref = (uint64_t)f->ref_f,
        .dis = (uint64_t)f->dis_f,
        .pitch = (int64_t)f->f_pitch,
        .ref_filt = (uint64_t)s->mem,
        .dis_filt = (uint64_t)s->mem + plane,
        .rows = (uint64_t)s->mem + 2 * plane,
        .out = (uint64_t)f->res,
        .counter = (uint64_t)s->mem + 2 * plane +
                   2 * (size_t)fc->height * sizeof(float),
        .w = (int32_t)fc->width,
        .h = (int32_t)fc->height,
    };
    int ret;

    /* kernels of one stream run in order: the scratch is reused safely */
    if ((ret = vg_cuda_device_launch(
             d, s->filter,
             (fc->width + VG_ANSNR_BLOCK_X - 1) / VG_ANSNR_BLOCK_X,
             (fc->height + VG_ANSNR_BLOCK_Y - 1) / VG_ANSNR_BLOCK_Y, 1,
             VG_ANSNR_BLOCK_X, VG_ANSNR_BLOCK_Y, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->rows,
                                     (fc->height + VG_ANSNR_ROWS_STRIP - 1) /
                                         VG_ANSNR_ROWS_STRIP,
                                     1, 1, VG_ANSNR_ROWS_THREADS, 1, &p)) < 0)
        return ret;
    return 0;
}

static int ansnr_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const float *r = f->host_res;

    return vg_float_ansnr_emit(fc, f->index, r[0], r[1]);
}

const VgCudaFeatureImpl vg_cuda_float_ansnr = {
    .priv_size = sizeof(AnsnrCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = 2 * sizeof(float),
    .init = ansnr_cuda_init,
    .submit = ansnr_cuda_submit,
    .collect = ansnr_cuda_collect,
    .close = ansnr_cuda_close,
};
