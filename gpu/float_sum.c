/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_moment's and float_psnr's launches (gpu/float_sum.h).
 */

#include <math.h>

#include "common/features/float_moment_params.h"
#include "gpu/float_sum.h"

int vg_cuda_float_sum_init(VgCudaFloatSum *s, VgFeatureCtx *fc,
                           const char *units, const char *seq,
                           unsigned seq_threads)
{
    s->exact = vg_fsum_exact(fc->bpc, fc->width, fc->height);
    s->s = fc->bpc > 8 ? fc->bpc - 8 : 0;
    s->seq_threads = seq_threads;
    if (!s->exact)
        vg_log(fc->log, VG_LOG_INFO,
               "%s: %u-bit %ux%u is summed in order "
               "on the device (slow)",
               fc->desc->name, fc->bpc, fc->width, fc->height);
    return vg_cuda_device_function(vg_cuda_fc_device(fc),
                                   s->exact ? units : seq, &s->fn);
}

int vg_cuda_float_sum_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgCudaFloatSum *s = fc->priv;
    VgFloatSumKernelParams p = {
        .ref = (uint64_t)f->ref_f,
        .dis = (uint64_t)f->dis_f,
        .pitch = (int64_t)f->f_pitch,
        .w = fc->width,
        .h = fc->height,
        .unit1 = (float)(1u << s->s),
        .unit2 = (float)(1u << 2 * s->s),
        .out = (uint64_t)f->res,
    };

    if (!s->exact)
        return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn, 1, 1, 1,
                                     s->seq_threads, 1, &p);
    return vg_cuda_device_launch(
        vg_cuda_fc_device(fc), s->fn,
        (fc->width + VG_FSUM_TILE_W - 1) / VG_FSUM_TILE_W,
        (fc->height + VG_FSUM_BLOCK_Y - 1) / VG_FSUM_BLOCK_Y, 1,
        VG_FSUM_BLOCK_X, VG_FSUM_BLOCK_Y, &p);
}

double vg_cuda_float_sum_value(const VgCudaFloatSum *s, uint64_t units,
                               unsigned order, double seq)
{
    return s->exact ? ldexp((double)units, -(int)(order * s->s)) : seq;
}
