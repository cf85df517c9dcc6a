/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR on CUDA: per-plane SSE on the device (gpu/psnr.cu), one
 * launch for all planes; the dB values come from the feature's home's
 * finish (common/features/psnr.c), so both backends print the same bits.
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/psnr.h"
#include "common/features/psnr_params.h"
#include "gpu/core/feature.h"

typedef struct PsnrCuda {
    VgPsnrParams par;
    CUfunction fn;
} PsnrCuda;

static int psnr_cuda_init(VgFeatureCtx *fc)
{
    PsnrCuda *s = fc->priv;

    vg_psnr_setup(&s->par, fc->opts, fc->bpc, fc->layout, fc->width,
                  fc->height);
    /* 8-bit rows are summed in uint32 by integer_psnr.c psnr(); they
     * cannot wrap below this width, the kernel sums in uint64 */
    if (fc->width > 66050) {
        vg_log(fc->log, VG_LOG_ERROR,
               "psnr: CUDA path supports widths up "
               "to 66050, not %u",
               fc->width);
        return -ENOTSUP;
    }
    return vg_cuda_device_function(
        vg_cuda_fc_device(fc),
        fc->bpc == 8 ? "vg_psnr_sse_8" : "vg_psnr_sse_16", &s->fn);
}

static int psnr_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    PsnrCuda *s = fc->priv;
    VgPsnrKernelParams p = { .sse = (uint64_t)f->res };
    unsigned gx = 0, gy = 0;

    for (unsigned pl = 0; pl < s->par.n_planes; pl++) {
        p.ref[pl] = (uint64_t)(uintptr_t)f->ref->data[pl];
        p.dis[pl] = (uint64_t)(uintptr_t)f->dis->data[pl];
        p.pitch[pl] = f->ref->stride[pl];
        p.w[pl] = f->ref->w[pl];
        p.h[pl] = f->ref->h[pl];
        if ((p.w[pl] + VG_PSNR_TILE_W - 1) / VG_PSNR_TILE_W > gx)
            gx = (p.w[pl] + VG_PSNR_TILE_W - 1) / VG_PSNR_TILE_W;
        if ((p.h[pl] + VG_PSNR_BLOCK_Y - 1) / VG_PSNR_BLOCK_Y > gy)
            gy = (p.h[pl] + VG_PSNR_BLOCK_Y - 1) / VG_PSNR_BLOCK_Y;
    }
    return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn, gx, gy,
                                 s->par.n_planes, VG_PSNR_BLOCK_X,
                                 VG_PSNR_BLOCK_Y, &p);
}

static int psnr_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const PsnrCuda *s = fc->priv;

    return vg_psnr_emit(fc, &s->par, f->index, f->ref, f->host_res);
}

const VgCudaFeatureImpl vg_cuda_psnr = {
    .priv_size = sizeof(PsnrCuda),
    .res_size = 3 * sizeof(uint64_t),
    .init = psnr_cuda_init,
    .submit = psnr_cuda_submit,
    .collect = psnr_cuda_collect,
};
