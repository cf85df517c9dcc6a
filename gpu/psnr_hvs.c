/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * PSNR-HVS on CUDA: per frame, one launch computes every 8x8 block's 64
 * terms (the home's block code, common/features/psnr_hvs_params.h, one
 * thread per block) into device memory (gpu/psnr_hvs.cu); the sequential
 * float sums (gpu/core/f32sum.h) add each plane's terms with the bits of the
 * CPU's one float accumulator, in parallel. The three float sums come
 * back; the plane scores and dB values are the home's finish
 * (common/features/psnr_hvs.c), so both backends print the same bits.
 *
 * Device memory: the tables (float[3][2][64], from the home, uploaded
 * once), then each plane's terms, 256 bytes per block. Every frame's
 * kernels run on the engine's one stream, so the frames in flight share
 * it, and the sums' records: a frame's block kernel starts after the
 * previous frame's sums.
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/psnr_hvs.h"
#include "common/features/psnr_hvs_params.h"
#include "gpu/core/f32sum.h"
#include "gpu/core/feature.h"

#define TABLE_BYTES sizeof(VgPsnrHvsTables)

typedef struct PsnrHvsCuda {
    VgPsnrHvsTables tab; ///< host copy of the tables (source of the upload)
    CUfunction blocks;
    VgCudaF32sum sum;        ///< the planes' sums of terms
    unsigned nbx[3], nby[3]; ///< blocks per row and column of each plane
    CUdeviceptr mem;         ///< tables, then the terms of each plane
    CUdeviceptr terms[3];
} PsnrHvsCuda;

static void psnr_hvs_cuda_close(VgFeatureCtx *fc)
{
    PsnrHvsCuda *s = fc->priv;

    vg_cuda_f32sum_close(vg_cuda_fc_device(fc), &s->sum);
    if (s->mem)
        VG_CU(vg_cuda_fc_device(fc)->cu, fc->log, cuMemFree, s->mem);
    s->mem = 0;
}

static int psnr_hvs_cuda_init(VgFeatureCtx *fc)
{
    PsnrHvsCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    size_t size = TABLE_BYTES, off;
    unsigned ssx, ssy;
    int ret;

    if ((ret = vg_psnr_hvs_check(fc)) < 0)
        return ret;
    vg_psnr_hvs_tables(&s->tab);
    vg_layout_shifts(fc->layout, &ssx, &ssy);
    for (unsigned pl = 0; pl < 3; pl++) {
        s->nbx[pl] = vg_psnr_hvs_nblocks(pl ? fc->width >> ssx : fc->width);
        s->nby[pl] = vg_psnr_hvs_nblocks(pl ? fc->height >> ssy : fc->height);
        size += (size_t)s->nbx[pl] * s->nby[pl] * 64 * sizeof(float);
    }
    if ((ret = vg_cuda_device_function(
             d, fc->bpc == 8 ? "vg_psnr_hvs_blocks_8" : "vg_psnr_hvs_blocks_16",
             &s->blocks)) < 0 ||
        (ret = vg_cuda_f32sum_init(d, &s->sum, 3,
                                   (size - TABLE_BYTES) / sizeof(float))) < 0)
        goto fail;
    if ((ret = VG_CU(d->cu, fc->log, cuMemAlloc, &s->mem, size)) < 0)
        goto fail;
    /* 1536 bytes of tables keep every plane's terms 256-byte aligned */
    off = TABLE_BYTES;
    for (unsigned pl = 0; pl < 3; pl++) {
        s->terms[pl] = s->mem + off;
        off += (size_t)s->nbx[pl] * s->nby[pl] * 64 * sizeof(float);
    }
    /* ordered before every kernel on the engine stream; the source lives
     * in priv until close */
    if ((ret = VG_CU(d->cu, fc->log, cuMemcpyHtoDAsync, s->mem, &s->tab,
                     TABLE_BYTES, d->stream)) < 0)
        goto fail;
    return 0;
fail:
    psnr_hvs_cuda_close(fc);
    return ret;
}

static int psnr_hvs_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    PsnrHvsCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    VgPsnrHvsKernelParams p = {
        .tables = (uint64_t)s->mem,
    };
    unsigned gx = 0, gy = 0;
    int ret;

    for (unsigned pl = 0; pl < 3; pl++) {
        /* the pictures' geometry is the one init sized the terms for */
        if (vg_psnr_hvs_nblocks(f->ref->w[pl]) != s->nbx[pl] ||
            vg_psnr_hvs_nblocks(f->ref->h[pl]) != s->nby[pl] ||
            f->dis->w[pl] != f->ref->w[pl] || f->dis->h[pl] != f->ref->h[pl]) {
            vg_log(fc->log, VG_LOG_ERROR,
                   "psnr_hvs: plane %u is %ux%u, not "
                   "the size of the stream",
                   pl, f->ref->w[pl], f->ref->h[pl]);
            return -EINVAL;
        }
        p.ref[pl] = (uint64_t)(uintptr_t)f->ref->data[pl];
        p.dis[pl] = (uint64_t)(uintptr_t)f->dis->data[pl];
        p.ref_pitch[pl] = f->ref->stride[pl];
        p.dis_pitch[pl] = f->dis->stride[pl];
        p.nbx[pl] = s->nbx[pl];
        p.nby[pl] = s->nby[pl];
        p.terms[pl] = (uint64_t)s->terms[pl];
        if ((s->nbx[pl] + VG_PSNR_HVS_BX - 1) / VG_PSNR_HVS_BX > gx)
            gx = (s->nbx[pl] + VG_PSNR_HVS_BX - 1) / VG_PSNR_HVS_BX;
        if ((s->nby[pl] + VG_PSNR_HVS_BY - 1) / VG_PSNR_HVS_BY > gy)
            gy = (s->nby[pl] + VG_PSNR_HVS_BY - 1) / VG_PSNR_HVS_BY;
    }
    if ((ret = vg_cuda_device_launch(d, s->blocks, gx, gy, 3, VG_PSNR_HVS_BX,
                                     VG_PSNR_HVS_BY, &p)) < 0)
        return ret;
    vg_cuda_f32sum_reset(&s->sum);
    for (unsigned pl = 0; pl < 3; pl++)
        if ((ret = vg_cuda_f32sum_add(&s->sum, s->terms[pl],
                                      (size_t)s->nbx[pl] * s->nby[pl] * 64,
                                      f->res + pl * sizeof(float))) < 0)
            return ret;
    return vg_cuda_f32sum_submit(d, &s->sum);
}

static int psnr_hvs_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const PsnrHvsCuda *s = fc->priv;
    const float *ret = f->host_res;
    double score[3];

    for (unsigned pl = 0; pl < 3; pl++)
        score[pl] = vg_psnr_hvs_plane_score(
            ret[pl], (uint64_t)s->nbx[pl] * s->nby[pl], fc->bpc);
    return vg_psnr_hvs_emit(fc, f->index, score);
}

const VgCudaFeatureImpl vg_cuda_psnr_hvs = {
    .priv_size = sizeof(PsnrHvsCuda),
    .res_size = 3 * sizeof(float),
    .init = psnr_hvs_cuda_init,
    .submit = psnr_hvs_cuda_submit,
    .collect = psnr_hvs_cuda_collect,
    .close = psnr_hvs_cuda_close,
};
