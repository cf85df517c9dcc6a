/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_moment on CUDA: the four sums on the device (gpu/float_moment.cu),
 * exact integers where they are libvmaf's double sums, else added in
 * libvmaf's order; the division is the home's finish
 * (common/features/float_moment.c), so both backends print the same bits.
 */

#include "common/features/float_moment.h"
#include "gpu/float_sum.h"

static int moment_cuda_init(VgFeatureCtx *fc)
{
    return vg_cuda_float_sum_init(fc->priv, fc, "vg_float_moment_units",
                                  "vg_float_moment_seq", 4);
}

static int moment_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgFloatMomentRes *r = f->host_res;
    double sum[4];

    /* the first moments are sums of samples, the second of squares */
    for (unsigned k = 0; k < 4; k++)
        sum[k] = vg_cuda_float_sum_value(fc->priv, r->units[k], k < 2 ? 1 : 2,
                                         r->seq[k]);
    return vg_float_moment_emit(fc, f->index, sum);
}

const VgCudaFeatureImpl vg_cuda_float_moment = {
    .priv_size = sizeof(VgCudaFloatSum),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = sizeof(VgFloatMomentRes),
    .init = moment_cuda_init,
    .submit = vg_cuda_float_sum_submit,
    .collect = moment_cuda_collect,
};
