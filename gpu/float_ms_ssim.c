/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim on CUDA: the pyramid (gpu/float_ms_ssim.cu) from the
 * engine's float copy of the luma, and at each of the 5 scales the SSIM
 * map of gpu/float_ssim.c with the sums the outputs read on the device
 * (c and s; l at the last scale, or everywhere for enable_lcs), all in one
 * submission (gpu/core/seqsum.c); the
 * means, the products of powers and the dB value are the feature's
 * home's (common/features/float_ms_ssim.c), on the host.
 *
 * Two streams: the feature's does scale 0's map, then scale 1's once it
 * is decimated, then the sums; a side stream forked from it decimates the
 * four scales one after the other and does the small maps of scales 2 to
 * 4 (with scratch of its own), so that the pyramid's short, dependent
 * launches overlap the large map instead of following it. The side
 * stream starts each frame after all of the previous frame's work on the
 * feature's stream, the last reader of the scales' images.
 *
 * In a ladder (VG_FEATURE_REF_STAGE), rendition 0 writes the reference's
 * images of scales 1..4 and each map's reference terms into the frame's
 * stage entry; the other renditions decimate the distorted picture alone
 * and their maps read the reference's terms there (gpu/float_ssim.c).
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_ms_ssim.h"
#include "gpu/float_ssim.h"

typedef struct FloatMsSsimCuda {
    VgFloatMsSsimParams p;
    CUfunction decimate;
    CUdeviceptr img[VG_MS_SSIM_SCALES]
                   [2]; ///< scales 1..4, ref/dis, rows of VG_SSIM_IMG_PITCH
    VgCudaSsimMap map;
    CUstream side;         ///< the pyramid and the maps of scales 2..4
    CUdeviceptr side_hbuf; ///< their horizontal pass's scratch
    CUevent fork, scale1, joined;
    /* a stage entry: the reference's images of scales 1..4, then the
     * maps' reference terms of each scale */
    size_t img_off[VG_MS_SSIM_SCALES], rterm_off[VG_MS_SSIM_SCALES];
    size_t stage_bytes;
} FloatMsSsimCuda;

/* the side stream's maps: scales SIDE_MAP0 and above */
#define SIDE_MAP0 2

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
    if (s->side_hbuf)
        VG_DCU(d, cuMemFree, s->side_hbuf);
    if (s->side)
        VG_DCU(d, cuStreamDestroy, s->side);
    if (s->fork)
        VG_DCU(d, cuEventDestroy, s->fork);
    if (s->scale1)
        VG_DCU(d, cuEventDestroy, s->scale1);
    if (s->joined)
        VG_DCU(d, cuEventDestroy, s->joined);
    s->side_hbuf = 0;
    s->side = NULL;
    s->fork = s->scale1 = s->joined = NULL;
}

static int float_ms_ssim_cuda_init(VgFeatureCtx *fc)
{
    FloatMsSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    size_t terms = 0;
    int nsums = 0, ret;

    vg_float_ms_ssim_setup(&s->p, fc->opts, fc->bpc, fc->width, fc->height);
    if ((ret = vg_cuda_device_function(d, "vg_ms_ssim_decimate",
                                       &s->decimate)) < 0)
        return ret;
    s->stage_bytes = 0;
    for (unsigned i = 1; i < VG_MS_SSIM_SCALES; i++) {
        const size_t bytes = vg_cuda_ssim_img_pitch(s->p.w[i]) * s->p.h[i];
        for (unsigned k = 0; k < 2; k++)
            if ((ret = VG_DCU(d, cuMemAlloc, &s->img[i][k], bytes)) < 0)
                goto fail;
        s->img_off[i] = s->stage_bytes;
        s->stage_bytes += vg_cuda_align(bytes);
    }
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        s->rterm_off[i] = s->stage_bytes;
        s->stage_bytes +=
            vg_cuda_align(vg_cuda_ssim_rterm_bytes(s->p.w[i], s->p.h[i]));
    }
    if ((ret = VG_DCU(d, cuStreamCreate, &s->side, CU_STREAM_NON_BLOCKING)) <
            0 ||
        (ret = VG_DCU(d, cuEventCreate, &s->fork, CU_EVENT_DISABLE_TIMING)) <
            0 ||
        (ret = VG_DCU(d, cuEventCreate, &s->scale1, CU_EVENT_DISABLE_TIMING)) <
            0 ||
        (ret = VG_DCU(d, cuEventCreate, &s->joined, CU_EVENT_DISABLE_TIMING)) <
            0 ||
        (ret = VG_DCU(d, cuMemAlloc, &s->side_hbuf,
                      vg_cuda_ssim_hbuf_bytes(s->p.w[SIDE_MAP0],
                                              s->p.h[SIDE_MAP0]))) < 0)
        goto fail;
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        terms += vg_cuda_ssim_map_terms(s->p.w[i], s->p.h[i], s->p.sums[i]);
        nsums += vg_cuda_ssim_nb_sums(s->p.sums[i]);
    }
    if ((ret = vg_cuda_ssim_map_init(fc, &s->map, s->p.w[0], s->p.h[0], terms,
                                     nsums)) < 0)
        goto fail;
    return 0;
fail:
    float_ms_ssim_cuda_close(fc);
    return ret;
}

static size_t float_ms_ssim_cuda_ref_stage_size(const VgFeatureCtx *fc)
{
    const FloatMsSsimCuda *s = fc->priv;

    return s->stage_bytes;
}

/* scale i's ref and dis images and their row pitch: the engine's float
 * luma at scale 0, the pyramid's images above (in a ladder, the
 * reference's are the stage's) */
static void scale_images(const FloatMsSsimCuda *s, const VgCudaFrame *f,
                         unsigned i, CUdeviceptr *ref, CUdeviceptr *dis,
                         size_t *pitch)
{
    *ref = !i              ? f->ref_f
           : f->stage_role ? f->stage + s->img_off[i]
                           : s->img[i][0];
    *dis = i ? s->img[i][1] : f->dis_f;
    *pitch = i ? vg_cuda_ssim_img_pitch(s->p.w[i]) : f->f_pitch;
}

/* the map of scale i and its sums, on d's current stream */
static int map_scale(VgFeatureCtx *fc, FloatMsSsimCuda *s, const VgCudaFrame *f,
                     unsigned i, CUdeviceptr hbuf)
{
    const unsigned stage = vg_cuda_ssim_stage(f);
    CUdeviceptr ref, dis;
    size_t pitch;

    scale_images(s, f, i, &ref, &dis, &pitch);
    return vg_cuda_ssim_map_submit(
        fc, &s->map, ref, dis, pitch, s->p.w[i], s->p.h[i], s->p.sums[i],
        f->res + i * VG_SSIM_NB_SUMS * sizeof(double), hbuf, stage,
        stage ? f->stage + s->rterm_off[i] : 0);
}

/* scale i's images from scale i - 1's, on d's current stream */
static int decimate(VgFeatureCtx *fc, FloatMsSsimCuda *s, const VgCudaFrame *f,
                    unsigned i)
{
    const int rd = f->stage_role == VG_STAGE_READ;
    CUdeviceptr ref, dis, ref_dst, dis_dst;
    size_t pitch;

    scale_images(s, f, i - 1, &ref, &dis, &pitch);
    scale_images(s, f, i, &ref_dst, &dis_dst, &(size_t){ 0 });
    VgSsimDecimateParams p = {
        /* a reader decimates the distorted picture alone */
        .src = { (uint64_t)(rd ? dis : ref), (uint64_t)dis },
        .dst = { (uint64_t)(rd ? dis_dst : ref_dst), (uint64_t)dis_dst },
        .src_pitch = (int64_t)pitch,
        .dst_pitch = (int64_t)vg_cuda_ssim_img_pitch(s->p.w[i]),
        .w = s->p.w[i - 1],
        .h = s->p.h[i - 1],
        .sw = s->p.w[i],
        .sh = s->p.h[i],
        .factor = 2,
        /* the engine's float luma: unsigned samples times a positive scale */
        .src_pos = i == 1,
    };

    return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->decimate,
                                 (s->p.w[i] + VG_SSIM_BX - 1) / VG_SSIM_BX,
                                 (s->p.h[i] + VG_SSIM_BY - 1) / VG_SSIM_BY,
                                 rd ? 1 : 2, VG_SSIM_BX, VG_SSIM_BY, &p);
}

static int float_ms_ssim_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FloatMsSsimCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const CUstream main = d->stream;
    int ret;

    vg_cuda_ssim_map_begin(&s->map);
    /* the side stream: the pyramid, then the small maps */
    if ((ret = VG_DCU(d, cuEventRecord, s->fork, main)) < 0 ||
        (ret = VG_DCU(d, cuStreamWaitEvent, s->side, s->fork, 0)) < 0)
        return ret;
    d->stream = s->side;
    for (unsigned i = 1; i < VG_MS_SSIM_SCALES && ret >= 0; i++) {
        ret = decimate(fc, s, f, i);
        if (ret >= 0 && i == 1)
            ret = VG_DCU(d, cuEventRecord, s->scale1, s->side);
    }
    for (unsigned i = SIDE_MAP0; i < VG_MS_SSIM_SCALES && ret >= 0; i++)
        ret = map_scale(fc, s, f, i, s->side_hbuf);
    if (ret >= 0)
        ret = VG_DCU(d, cuEventRecord, s->joined, s->side);
    d->stream = main;
    if (ret < 0)
        return ret;
    /* the feature's stream: scales 0 and 1, then every sum */
    if ((ret = map_scale(fc, s, f, 0, 0)) < 0 ||
        (ret = VG_DCU(d, cuStreamWaitEvent, main, s->scale1, 0)) < 0 ||
        (ret = map_scale(fc, s, f, 1, 0)) < 0 ||
        (ret = VG_DCU(d, cuStreamWaitEvent, main, s->joined, 0)) < 0)
        return ret;
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
    .ref_stage_size = float_ms_ssim_cuda_ref_stage_size,
};
