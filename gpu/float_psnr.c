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

#include <math.h>
#include <stdint.h>

#include "common/features/float_psnr.h"
#include "common/features/float_moment_params.h"
#include "gpu/feature.h"

typedef struct FloatPsnrCuda {
    CUfunction fn;
    int exact;      ///< integer path (vg_fsum_exact())
    unsigned s;     ///< bpc - 8: the unit is 2^-2s
} FloatPsnrCuda;

static int float_psnr_cuda_init(VgFeatureCtx *fc)
{
    FloatPsnrCuda *s = fc->priv;

    s->exact = vg_fsum_exact(fc->bpc, fc->width, fc->height);
    s->s = fc->bpc > 8 ? fc->bpc - 8 : 0;
    if (!s->exact)
        vg_log(fc->log, VG_LOG_INFO, "float_psnr: %u-bit %ux%u is summed "
               "in order on the device (slow)", fc->bpc, fc->width, fc->height);
    return vg_cuda_device_function(vg_cuda_fc_device(fc), s->exact ?
                                   "vg_float_psnr_units" : "vg_float_psnr_seq",
                                   &s->fn);
}

static int float_psnr_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FloatPsnrCuda *s = fc->priv;
    VgFloatSumKernelParams p = {
        .ref = (uint64_t)f->ref_f, .dis = (uint64_t)f->dis_f,
        .pitch = (int64_t)f->f_pitch, .w = fc->width, .h = fc->height,
        .unit1 = (float)(1u << s->s), .unit2 = (float)(1u << 2 * s->s),
        .out = (uint64_t)f->res,
    };

    if (!s->exact)
        return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn, 1, 1, 1,
                                     1, 1, &p);
    return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn,
                                 (fc->width + VG_FSUM_TILE_W - 1) / VG_FSUM_TILE_W,
                                 (fc->height + VG_FSUM_BLOCK_Y - 1) / VG_FSUM_BLOCK_Y,
                                 1, VG_FSUM_BLOCK_X, VG_FSUM_BLOCK_Y, &p);
}

static int float_psnr_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FloatPsnrCuda *s = fc->priv;
    const VgFloatPsnrRes *r = f->host_res;

    return vg_float_psnr_emit(fc, f->index, s->exact ?
                              ldexp((double)r->units, -(int)(2 * s->s)) : r->seq);
}

const VgCudaFeatureImpl vg_cuda_float_psnr = {
    .priv_size = sizeof(FloatPsnrCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = sizeof(VgFloatPsnrRes),
    .init = float_psnr_cuda_init,
    .submit = float_psnr_cuda_submit,
    .collect = float_psnr_cuda_collect,
};
