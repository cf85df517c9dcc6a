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
 *
 * In a ladder (VG_FEATURE_REF_STAGE), each map's stage is the reference's
 * Gaussian mean and Gaussian of the square of every map pixel, as the
 * floats the per-pixel terms use: rendition 0's vertical pass stores them,
 * the other renditions' kernels (the _rd ones) leave out the reference's
 * two convolutions and read them. float_ssim's stage also holds the
 * decimated reference, which the readers do not decimate again.
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
        (ret = vg_cuda_device_function(d, "vg_ssim_vmap", &m->vmap)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_ssim_hconv_rd", &m->hconv_rd)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_ssim_vmap_rd", &m->vmap_rd)) < 0)
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
                            unsigned which, CUdeviceptr sums, CUdeviceptr hbuf,
                            unsigned stage, CUdeviceptr rterm)
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
        .rterm = (uint64_t)rterm,
        .stage = stage,
    };
    const int rd = stage == VG_SSIM_STAGE_READ;
    int plane = 0, ret;

    if (!which || which & ~VG_SSIM_SUMS_ALL || stage > VG_SSIM_STAGE_READ ||
        (stage && !rterm) ||
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
    if ((ret = vg_cuda_device_launch(
             d, rd ? m->hconv_rd : m->hconv, blocks(dw, VG_SSIM_BX),
             blocks(h, VG_SSIM_BY), 1, VG_SSIM_BX, VG_SSIM_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(
             d, rd ? m->vmap_rd : m->vmap, blocks(dw, VG_SSIM_BX),
             blocks(dh, VG_SSIM_BY), 1, VG_SSIM_BX, VG_SSIM_BY, &p)) < 0)
        return ret;
    m->map_used += vg_cuda_ssim_map_terms(w, h, which);
    return 0;
}

int vg_cuda_ssim_map_finish(VgFeatureCtx *fc, VgCudaSsimMap *m)
{
    return vg_cuda_seqsum_submit(vg_cuda_fc_device(fc), &m->sums);
}

unsigned vg_cuda_ssim_stage(const VgCudaFrame *f)
{
    return f->stage_role == VG_STAGE_READ    ? VG_SSIM_STAGE_READ
           : f->stage_role == VG_STAGE_WRITE ? VG_SSIM_STAGE_WRITE
                                             : VG_SSIM_STAGE_NONE;
}

typedef struct FloatSsimCuda {
    VgFloatSsimParams p;
    CUfunction decimate;
    CUdeviceptr img
        [2]; ///< decimated ref and dis (scale > 1), rows of VG_SSIM_IMG_PITCH
    VgCudaSsimMap map;
    /* a stage entry: the decimated reference (scale > 1), then the map's
     * reference terms at rterm_off */
    size_t rterm_off, stage_bytes;
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
        s->rterm_off = vg_cuda_align(bytes);
    }
    s->stage_bytes = s->rterm_off + vg_cuda_ssim_rterm_bytes(s->p.dw, s->p.dh);
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

static size_t float_ssim_cuda_ref_stage_size(const VgFeatureCtx *fc)
{
    const FloatSsimCuda *s = fc->priv;

    return s->stage_bytes;
}

static int float_ssim_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FloatSsimCuda *s = fc->priv;
    const unsigned stage = vg_cuda_ssim_stage(f);
    CUdeviceptr ref = f->ref_f, dis = f->dis_f;
    size_t pitch = f->f_pitch;
    int ret;

    if (s->p.scale > 1) {
        const int f_ = s->p.scale;
        /* in a ladder the decimated reference is the stage's */
        const CUdeviceptr ref_img = stage ? f->stage : s->img[0];
        VgSsimDecimateParams p = {
            .src = { (uint64_t)f->ref_f, (uint64_t)f->dis_f },
            .dst = { (uint64_t)ref_img, (uint64_t)s->img[1] },
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
        /* a reader decimates the distorted picture alone */
        if (stage == VG_SSIM_STAGE_READ) {
            p.src[0] = p.src[1];
            p.dst[0] = p.dst[1];
        }
        if ((ret = vg_cuda_device_launch(vg_cuda_fc_device(fc), s->decimate,
                                         blocks(s->p.dw, VG_SSIM_BX),
                                         blocks(s->p.dh, VG_SSIM_BY),
                                         stage == VG_SSIM_STAGE_READ ? 1 : 2,
                                         VG_SSIM_BX, VG_SSIM_BY, &p)) < 0)
            return ret;
        ref = ref_img;
        dis = s->img[1];
        pitch = vg_cuda_ssim_img_pitch(s->p.dw);
    }
    vg_cuda_ssim_map_begin(&s->map);
    if ((ret = vg_cuda_ssim_map_submit(
             fc, &s->map, ref, dis, pitch, s->p.dw, s->p.dh, s->p.sums, f->res,
             0, stage, stage ? f->stage + s->rterm_off : 0)) < 0)
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
    .ref_stage_size = float_ssim_cuda_ref_stage_size,
};
