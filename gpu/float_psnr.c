/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_psnr on CUDA: the noise sum on the device (gpu/float_psnr.cu),
 * an exact integer where it is libvmaf's double sum, else added in
 * libvmaf's order; the score is the home's finish
 * (common/features/float_psnr.c), so both backends print the same bits.
 */

#include "common/features/float_psnr.h"
#include "gpu/float_sum.h"

static int float_psnr_cuda_init(VgFeatureCtx *fc)
{
    return vg_cuda_float_sum_init(fc->priv, fc, "vg_float_psnr_units",
                                  "vg_float_psnr_seq", 1);
}

static int float_psnr_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgFloatPsnrRes *r = f->host_res;

    /* a sum of squared differences */
    return vg_float_psnr_emit(
        fc, f->index, vg_cuda_float_sum_value(fc->priv, r->units, 2, r->seq));
}

const VgCudaFeatureImpl vg_cuda_float_psnr = {
    .priv_size = sizeof(VgCudaFloatSum),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = sizeof(VgFloatPsnrRes),
    .init = float_psnr_cuda_init,
    .submit = vg_cuda_float_sum_submit,
    .collect = float_psnr_cuda_collect,
};
