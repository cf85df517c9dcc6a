/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ssim on CUDA: the box decimation when the scale is above 1 and
 * the SSIM map with its sums on the device (gpu/float_ssim.cu,
 * gpu/core/seqsum.cu: the score's, and l, c and s for enable_lcs), from
 * the engine's float copy of the luma; the means and the dB value are the
 * feature's home's (common/features/float_ssim.c), on the host, so both
 * backends print the same bits. Also the SSIM map's launch, shared with
 * gpu/float_ms_ssim.c (gpu/float_ssim.h).
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_ssim.h"
#include "gpu/float_ssim.h"

static unsigned blocks(int n, int b)
{
    return (unsigned)((n + b - 1) / b);
}

int vg_cuda_ssim_map_init(VgFeatureCtx *fc, VgCudaSsimMap *m, int w, int h,
                          size_t terms, int max_sums)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    int ret;

    if ((ret = vg_cuda_device_function(d, "vg_ssim_hconv", &m->hconv)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_ssim_vmap", &m->vmap)) < 0)
        return ret;
    if ((ret = VG_DCU(d, cuMemAlloc, &m->hbuf, vg_cuda_ssim_hbuf_bytes(w, h))) <
            0 ||
        (ret = VG_DCU(d, cuMemAlloc, &m->map, terms * sizeof(double))) < 0)
        return ret;
    m->map_cap = terms;
    return vg_cuda_seqsum_init(d, &m->sums, max_sums, terms);
}

void vg_cuda_ssim_map_close(VgFeatureCtx *fc, VgCudaSsimMap *m)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);

    if (m->hbuf)
        VG_DCU(d, cuMemFree, m->hbuf);
    if (m->map)
        VG_DCU(d, cuMemFree, m->map);
    m->hbuf = m->map = 0;
    vg_cuda_seqsum_close(d, &m->sums);
}

void vg_cuda_ssim_map_begin(VgCudaSsimMap *m)
{
    m->map_used = 0;
    vg_cuda_seqsum_reset(&m->sums);
    vg_cuda_seqsum_presummed(&m->sums); /* vg_ssim_vmap adds the chunks */
}

int vg_cuda_ssim_map_submit(VgFeatureCtx *fc, VgCudaSsimMap *m, CUdeviceptr ref,
                            CUdeviceptr cmp, size_t pitch, int w, int h,
                            unsigned which, CUdeviceptr sums, CUdeviceptr hbuf)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const int dw = w - (VG_SSIM_WIN - 1), dh = h - (VG_SSIM_WIN - 1);
    const size_t n = (size_t)dw * dh;
    const CUdeviceptr map = m->map + m->map_used * sizeof(double);
    VgSsimMapParams p = {
        .ref = (uint64_t)ref,
        .cmp = (uint64_t)cmp,
        .pitch = (int64_t)pitch,
        .w = w,
        .h = h,
        .hbuf = (uint64_t)(hbuf ? hbuf : m->hbuf),
        .map = (uint64_t)map,
        .sums = which,
    };
    int plane = 0, ret;

    if (!which || which & ~VG_SSIM_SUMS_ALL ||
        m->map_used + vg_cuda_ssim_map_terms(w, h, which) > m->map_cap)
        return -EINVAL;
    /* the sums first: vg_ssim_vmap adds into their chunk records */
    for (int k = 0; k < VG_SSIM_NB_SUMS; k++) {
        if (!(which & VG_SSIM_SUM_BIT(k)))
            continue;
        if ((ret =
                 vg_cuda_seqsum_add(&m->sums, map + plane * n * sizeof(double),
                                    n, sums + k * sizeof(double))) < 0)
            return ret;
        p.chunks[plane++] = (uint64_t)vg_cuda_seqsum_last_chunks(&m->sums);
    }
    if ((ret = vg_cuda_device_launch(d, m->hconv, blocks(dw, VG_SSIM_BX),
                                     blocks(h, VG_SSIM_BY), 1, VG_SSIM_BX,
                                     VG_SSIM_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, m->vmap, blocks(dw, VG_SSIM_BX),
                                     blocks(dh, VG_SSIM_BY), 1, VG_SSIM_BX,
                                     VG_SSIM_BY, &p)) < 0)
        return ret;
    m->map_used += vg_cuda_ssim_map_terms(w, h, which);
    return 0;
}

int vg_cuda_ssim_map_finish(VgFeatureCtx *fc, VgCudaSsimMap *m)
{
    return vg_cuda_seqsum_submit(vg_cuda_fc_device(fc), &m->sums);
}

typedef struct FloatSsimCuda {
    VgFloatSsimParams p;
    CUfunction decimate;
    CUdeviceptr img
        [2]; ///< decimated ref and dis (scale > 1), rows of VG_SSIM_IMG_PITCH
    VgCudaSsimMap map;
} FloatSsimCuda;

static void float_ssim_cuda_close(VgFeatureCtx *fc)
{
    FloatSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);

    for (unsigned i = 0; i < 2; i++) {
        if (s->img[i])
            VG_DCU(d, cuMemFree, s->img[i]);
        s->img[i] = 0;
    }
    vg_cuda_ssim_map_close(fc, &s->map);
}

static int float_ssim_cuda_init(VgFeatureCtx *fc)
{
    FloatSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    int ret;

    if ((ret = vg_float_ssim_setup(&s->p, fc->opts, fc->bpc, fc->width,
                                   fc->height, fc->log)) < 0)
        return ret;
    if (s->p.scale > 1) {
        const size_t bytes = vg_cuda_ssim_img_pitch(s->p.dw) * s->p.dh;
        if ((ret = vg_cuda_device_function(d, "vg_ssim_decimate_box",
                                           &s->decimate)) < 0 ||
            (ret = VG_DCU(d, cuMemAlloc, &s->img[0], bytes)) < 0 ||
            (ret = VG_DCU(d, cuMemAlloc, &s->img[1], bytes)) < 0)
            goto fail;
    }
    if ((ret = vg_cuda_ssim_map_init(
             fc, &s->map, s->p.dw, s->p.dh,
             vg_cuda_ssim_map_terms(s->p.dw, s->p.dh, s->p.sums),
             vg_cuda_ssim_nb_sums(s->p.sums))) < 0)
        goto fail;
    return 0;
fail:
    float_ssim_cuda_close(fc);
    return ret;
}

static int float_ssim_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FloatSsimCuda *s = fc->priv;
    CUdeviceptr ref = f->ref_f, dis = f->dis_f;
    size_t pitch = f->f_pitch;
    int ret;

    if (s->p.scale > 1) {
        const int f_ = s->p.scale;
        VgSsimDecimateParams p = {
            .src = { (uint64_t)f->ref_f, (uint64_t)f->dis_f },
            .dst = { (uint64_t)s->img[0], (uint64_t)s->img[1] },
            .src_pitch = (int64_t)f->f_pitch,
            .dst_pitch = (int64_t)vg_cuda_ssim_img_pitch(s->p.dw),
            .w = (int32_t)fc->width,
            .h = (int32_t)fc->height,
            .sw = s->p.dw,
            .sh = s->p.dh,
            .factor = f_,
            /* ssim.c: 1.0f / (scale * scale), in float */
            .tap = 1.0f / (f_ * f_),
        };
        if ((ret = vg_cuda_device_launch(vg_cuda_fc_device(fc), s->decimate,
                                         blocks(s->p.dw, VG_SSIM_BX),
                                         blocks(s->p.dh, VG_SSIM_BY), 2,
                                         VG_SSIM_BX, VG_SSIM_BY, &p)) < 0)
            return ret;
        ref = s->img[0];
        dis = s->img[1];
        pitch = vg_cuda_ssim_img_pitch(s->p.dw);
    }
    vg_cuda_ssim_map_begin(&s->map);
    if ((ret = vg_cuda_ssim_map_submit(fc, &s->map, ref, dis, pitch, s->p.dw,
                                       s->p.dh, s->p.sums, f->res, 0)) < 0)
        return ret;
    return vg_cuda_ssim_map_finish(fc, &s->map);
}

static int float_ssim_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FloatSsimCuda *s = fc->priv;

    return vg_float_ssim_emit(fc, &s->p, f->index, f->host_res);
}

const VgCudaFeatureImpl vg_cuda_float_ssim = {
    .priv_size = sizeof(FloatSsimCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = VG_SSIM_NB_SUMS * sizeof(double),
    .init = float_ssim_cuda_init,
    .submit = float_ssim_cuda_submit,
    .collect = float_ssim_cuda_collect,
    .close = float_ssim_cuda_close,
};
