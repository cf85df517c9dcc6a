/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim on CUDA: the pyramid (gpu/float_ms_ssim.cu) from the
 * engine's float copy of the luma, and at each of the 5 scales the SSIM
 * map of gpu/float_ssim.c with its l, c and s sums on the device, the
 * 15 sums in one submission (gpu/seqsum.c); the
 * means, the products of powers and the dB value are the feature's
 * home's (common/features/float_ms_ssim.c), on the host.
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_ms_ssim.h"
#include "gpu/float_ssim.h"

typedef struct FloatMsSsimCuda {
    VgFloatMsSsimParams p;
    CUfunction decimate;
    CUdeviceptr img[VG_MS_SSIM_SCALES][2]; ///< scales 1..4, ref/dis, packed
    VgCudaSsimMap map;
} FloatMsSsimCuda;

static void float_ms_ssim_cuda_close(VgFeatureCtx *fc)
{
    FloatMsSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);

    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        for (unsigned k = 0; k < 2; k++) {
            if (s->img[i][k])
                VG_DCU(d, cuMemFree, s->img[i][k]);
            s->img[i][k] = 0;
        }
    }
    vg_cuda_ssim_map_close(fc, &s->map);
}

static int float_ms_ssim_cuda_init(VgFeatureCtx *fc)
{
    FloatMsSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    size_t terms = 0;
    int ret;

    vg_float_ms_ssim_setup(&s->p, fc->opts, fc->bpc, fc->width, fc->height);
    /* the descriptor's minimum: the window fits every scale */
    if (fc->width < VG_MS_SSIM_MIN_SIZE || fc->height < VG_MS_SSIM_MIN_SIZE) {
        vg_log(fc->log, VG_LOG_ERROR, "float_ms_ssim: %ux%u is below the "
               "minimum %ux%u", fc->width, fc->height, VG_MS_SSIM_MIN_SIZE,
               VG_MS_SSIM_MIN_SIZE);
        return -EINVAL;
    }
    if ((ret = vg_cuda_device_function(d, "vg_ms_ssim_decimate",
                                       &s->decimate)) < 0)
        return ret;
    for (unsigned i = 1; i < VG_MS_SSIM_SCALES; i++) {
        const size_t bytes = (size_t)s->p.w[i] * s->p.h[i] * sizeof(float);
        for (unsigned k = 0; k < 2; k++)
            if ((ret = VG_DCU(d, cuMemAlloc, &s->img[i][k], bytes)) < 0)
                goto fail;
    }
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++)
        terms += vg_cuda_ssim_map_terms(s->p.w[i], s->p.h[i], 0);
    if ((ret = vg_cuda_ssim_map_init(fc, &s->map, s->p.w[0], s->p.h[0], terms,
                                     VG_MS_SSIM_SCALES * (VG_SSIM_NB_SUMS - 1))) < 0)
        goto fail;
    return 0;
fail:
    float_ms_ssim_cuda_close(fc);
    return ret;
}

static int float_ms_ssim_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FloatMsSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    CUdeviceptr ref = f->ref_f, dis = f->dis_f;
    size_t pitch = f->f_pitch;
    int ret;

    vg_cuda_ssim_map_begin(&s->map);
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        if (i) {
            VgSsimDecimateParams p = {
                .src = { (uint64_t)ref, (uint64_t)dis },
                .dst = { (uint64_t)s->img[i][0], (uint64_t)s->img[i][1] },
                .src_pitch = (int64_t)pitch,
                .w = s->p.w[i - 1],
                .h = s->p.h[i - 1],
                .sw = s->p.w[i],
                .sh = s->p.h[i],
                .factor = 2,
            };
            if ((ret = vg_cuda_device_launch(d, s->decimate,
                                             (s->p.w[i] + VG_SSIM_BX - 1) / VG_SSIM_BX,
                                             (s->p.h[i] + VG_SSIM_BY - 1) / VG_SSIM_BY,
                                             2, VG_SSIM_BX, VG_SSIM_BY, &p)) < 0)
                return ret;
            ref = s->img[i][0];
            dis = s->img[i][1];
            pitch = (size_t)s->p.w[i] * sizeof(float);
        }
        if ((ret = vg_cuda_ssim_map_submit(fc, &s->map, ref, dis, pitch,
                                           s->p.w[i], s->p.h[i], 0,
                                           f->res + i * VG_SSIM_NB_SUMS *
                                                    sizeof(double))) < 0)
            return ret;
    }
    return vg_cuda_ssim_map_finish(fc, &s->map);
}

static int float_ms_ssim_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FloatMsSsimCuda *s = fc->priv;

    return vg_float_ms_ssim_emit(fc, &s->p, f->index, f->host_res);
}

const VgCudaFeatureImpl vg_cuda_float_ms_ssim = {
    .priv_size = sizeof(FloatMsSsimCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = VG_MS_SSIM_SCALES * VG_SSIM_NB_SUMS * sizeof(double),
    .init = float_ms_ssim_cuda_init,
    .submit = float_ms_ssim_cuda_submit,
    .collect = float_ms_ssim_cuda_collect,
    .close = float_ms_ssim_cuda_close,
};
