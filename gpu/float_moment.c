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

#include <math.h>
#include <stdint.h>

#include "common/features/float_moment.h"
#include "common/features/float_moment_params.h"
#include "gpu/feature.h"

typedef struct MomentCuda {
    CUfunction fn;
    int exact;      ///< integer path (vg_fsum_exact())
    unsigned s;     ///< bpc - 8: the units are 2^-s and 2^-2s
} MomentCuda;

static int moment_cuda_init(VgFeatureCtx *fc)
{
    MomentCuda *s = fc->priv;

    s->exact = vg_fsum_exact(fc->bpc, fc->width, fc->height);
    s->s = fc->bpc > 8 ? fc->bpc - 8 : 0;
    if (!s->exact)
        vg_log(fc->log, VG_LOG_INFO, "float_moment: %u-bit %ux%u is summed "
               "in order on the device (slow)", fc->bpc, fc->width, fc->height);
    return vg_cuda_device_function(vg_cuda_fc_device(fc), s->exact ?
                                   "vg_float_moment_units" :
                                   "vg_float_moment_seq", &s->fn);
}

static int moment_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const MomentCuda *s = fc->priv;
    VgFloatSumKernelParams p = {
        .ref = (uint64_t)f->ref_f, .dis = (uint64_t)f->dis_f,
        .pitch = (int64_t)f->f_pitch, .w = fc->width, .h = fc->height,
        .unit1 = (float)(1u << s->s), .unit2 = (float)(1u << 2 * s->s),
        .out = (uint64_t)f->res,
    };

    if (!s->exact)
        return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn, 1, 1, 1,
                                     4, 1, &p);
    return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn,
                                 (fc->width + VG_FSUM_TILE_W - 1) / VG_FSUM_TILE_W,
                                 (fc->height + VG_FSUM_BLOCK_Y - 1) / VG_FSUM_BLOCK_Y,
                                 1, VG_FSUM_BLOCK_X, VG_FSUM_BLOCK_Y, &p);
}

static int moment_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const MomentCuda *s = fc->priv;
    const VgFloatMomentRes *r = f->host_res;
    double sum[4];

    for (unsigned k = 0; k < 4; k++)
        sum[k] = s->exact ? ldexp((double)r->units[k],
                                  -(int)(k < 2 ? s->s : 2 * s->s)) : r->seq[k];
    return vg_float_moment_emit(fc, f->index, sum);
}

const VgCudaFeatureImpl vg_cuda_float_moment = {
    .priv_size = sizeof(MomentCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = sizeof(VgFloatMomentRes),
    .init = moment_cuda_init,
    .submit = moment_cuda_submit,
    .collect = moment_cuda_collect,
};
