/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF on CUDA: per frame, one launch per scale (gpu/vif.cu) sums
 * the four int64 accumulators of the scale on the device and writes the
 * next scale's pictures; the float/double finish and the emission are the
 * feature's home's (common/features/vif.c vg_vif_emit()), on the host, so
 * both backends print the same bits. The log2 table is the one the home builds with
 * the host's libm (integer_vif.c log_generate() uses glibc log2f),
 * uploaded once.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/features/vif.h"
#include "gpu/core/feature.h"

#define LOG2_BYTES (65537 * sizeof(uint16_t))

typedef struct VifCuda {
    CUfunction fn[4]; ///< kernel of each scale
    unsigned w[4], h[4];
    size_t pitch[4];       ///< bytes, scales 1..3
    CUdeviceptr img[4][2]; ///< scales 1..3, ref/dis (uint16)
    CUdeviceptr mem;       ///< all of img[][]
    CUdeviceptr log2;
} VifCuda;

static void vif_cuda_close(VgFeatureCtx *fc)
{
    VifCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;

    if (s->mem)
        VG_CU(cu, fc->log, cuMemFree, s->mem);
    if (s->log2)
        VG_CU(cu, fc->log, cuMemFree, s->log2);
    s->mem = s->log2 = 0;
}

static int vif_cuda_init(VgFeatureCtx *fc)
{
    static const char *const names[2][4] = {
        { "vg_vif_s0_8", "vg_vif_s1", "vg_vif_s2", "vg_vif_s3" },
        { "vg_vif_s0_16", "vg_vif_s1", "vg_vif_s2", "vg_vif_s3" },
    };
    VifCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;
    size_t size = 0, off = 0;
    int ret;

    for (unsigned sc = 0; sc < 4; sc++) {
        if ((ret = vg_cuda_device_function(vg_cuda_fc_device(fc),
                                           names[fc->bpc > 8][sc],
                                           &s->fn[sc])) < 0)
            return ret;
        s->w[sc] = fc->width >> sc;
        s->h[sc] = fc->height >> sc;
        if (sc) {
            s->pitch[sc] = ((size_t)s->w[sc] * 2 + 255) & ~(size_t)255;
            size += 2 * s->pitch[sc] * s->h[sc];
        }
    }
    if ((ret = VG_CU(cu, fc->log, cuMemAlloc, &s->mem, size)) < 0 ||
        (ret = VG_CU(cu, fc->log, cuMemAlloc, &s->log2, LOG2_BYTES)) < 0)
        goto fail;
    for (unsigned sc = 1; sc < 4; sc++) {
        for (unsigned q = 0; q < 2; q++) {
            s->img[sc][q] = s->mem + off;
            off += s->pitch[sc] * s->h[sc];
        }
    }
    /* ordered before every kernel on the engine stream; the table is
     * static, so the copy may complete after this returns */
    if ((ret =
             VG_CU(cu, fc->log, cuMemcpyHtoDAsync, s->log2, vg_vif_log2_table(),
                   LOG2_BYTES, vg_cuda_fc_device(fc)->stream)) < 0)
        goto fail;
    return 0;
fail:
    vif_cuda_close(fc);
    return ret;
}

static int vif_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgVifOptions *o = fc->opts;
    VifCuda *s = fc->priv;
    int ret;

    for (unsigned sc = 0; sc < 4; sc++) {
        VgVifParams p = {
            .w = s->w[sc],
            .h = s->h[sc],
            .bpc = fc->bpc,
            /* scale 0 is still down-sampled when its statistic is skipped */
            .stat = sc || !o->vif_skip_scale0,
            .acc = (uint64_t)f->res + sc * 4 * sizeof(int64_t),
            .log2 = (uint64_t)s->log2,
            .egl = o->vif_enhn_gain_limit,
        };
        unsigned gx, gy, gz;

        if (sc) {
            p.ref = (uint64_t)s->img[sc][0];
            p.dis = (uint64_t)s->img[sc][1];
            p.ref_pitch = p.dis_pitch = (int64_t)s->pitch[sc];
        } else {
            p.ref = (uint64_t)(uintptr_t)f->ref->data[0];
            p.dis = (uint64_t)(uintptr_t)f->dis->data[0];
            p.ref_pitch = f->ref->stride[0];
            p.dis_pitch = f->dis->stride[0];
        }
        if (sc < 3) {
            p.dref = (uint64_t)s->img[sc + 1][0];
            p.ddis = (uint64_t)s->img[sc + 1][1];
            p.dpitch = (int64_t)s->pitch[sc + 1];
            p.dw = s->w[sc + 1];
            p.dh = s->h[sc + 1];
        }
        vg_vif_grid(&p, &gx, &gy, &gz);
        if ((ret = vg_cuda_device_launch(vg_cuda_fc_device(fc), s->fn[sc], gx,
                                         gy, gz, VG_VIF_BX, VG_VIF_BY, &p)) < 0)
            return ret;
    }
    return 0;
}

static int vif_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const int64_t *r = f->host_res;
    VgVifAccum acc[4];

    for (unsigned sc = 0; sc < 4; sc++) {
        acc[sc].num_log = r[4 * sc];
        acc[sc].den_log = r[4 * sc + 1];
        acc[sc].num_non_log = r[4 * sc + 2];
        acc[sc].den_non_log = r[4 * sc + 3];
    }
    return vg_vif_emit(fc, f->index, acc);
}

const VgCudaFeatureImpl vg_cuda_vif = {
    .priv_size = sizeof(VifCuda),
    .res_size = 16 * sizeof(int64_t),
    .init = vif_cuda_init,
    .submit = vif_cuda_submit,
    .collect = vif_cuda_collect,
    .close = vif_cuda_close,
};
