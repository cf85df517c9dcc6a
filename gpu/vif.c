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
 *
 * In a ladder, the reference stage (VG_FEATURE_REF_STAGE) of each scale
 * is the reference's terms of every pixel after the horizontal pass (M1
 * and XX) and the reference's picture of the next scale: rendition 0's
 * kernels store them in the frame's stage entry while computing its
 * statistic, the other renditions' kernels (the _rd ones) read them and
 * filter only the distorted picture and the cross term.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/features/vif.h"
#include "gpu/core/feature.h"

#define LOG2_BYTES (65537 * sizeof(uint16_t))

typedef struct VifCuda {
    CUfunction fn[4];    ///< kernel of each scale
    CUfunction fn_rd[4]; ///< the same, reading the reference's stage
    unsigned w[4], h[4];
    /* a stage entry: the reference's terms of scales 0..3, then its
     * pictures of scales 1..3 at pitch[] */
    size_t rterm_pitch[4], rterm_off[4], img_off[4], stage_bytes;
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
    static const char *const names[2][2][4] = {
        {
            { "vg_vif_s0_8", "vg_vif_s1", "vg_vif_s2", "vg_vif_s3" },
            { "vg_vif_s0_16", "vg_vif_s1", "vg_vif_s2", "vg_vif_s3" },
        },
        {
            { "vg_vif_s0_8_rd", "vg_vif_s1_rd", "vg_vif_s2_rd",
              "vg_vif_s3_rd" },
            { "vg_vif_s0_16_rd", "vg_vif_s1_rd", "vg_vif_s2_rd",
              "vg_vif_s3_rd" },
        },
    };
    VifCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;
    size_t size = 0, off = 0;
    int ret;

    for (unsigned sc = 0; sc < 4; sc++) {
        if ((ret = vg_cuda_device_function(vg_cuda_fc_device(fc),
                                           names[0][fc->bpc > 8][sc],
                                           &s->fn[sc])) < 0 ||
            (ret = vg_cuda_device_function(vg_cuda_fc_device(fc),
                                           names[1][fc->bpc > 8][sc],
                                           &s->fn_rd[sc])) < 0)
            return ret;
        s->w[sc] = fc->width >> sc;
        s->h[sc] = fc->height >> sc;
        if (sc) {
            s->pitch[sc] = vg_cuda_align((size_t)s->w[sc] * 2);
            size += 2 * s->pitch[sc] * s->h[sc];
        }
        s->rterm_pitch[sc] = vg_cuda_align((size_t)s->w[sc] * 8);
        s->rterm_off[sc] = s->stage_bytes;
        s->stage_bytes += s->rterm_pitch[sc] * s->h[sc];
    }
    for (unsigned sc = 1; sc < 4; sc++) {
        s->img_off[sc] = s->stage_bytes;
        s->stage_bytes += vg_cuda_align(s->pitch[sc] * s->h[sc]);
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

static size_t vif_cuda_ref_stage_size(const VgFeatureCtx *fc)
{
    const VifCuda *s = fc->priv;

    return s->stage_bytes;
}

static int vif_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgVifOptions *o = fc->opts;
    VifCuda *s = fc->priv;
    const int rd = f->stage_role == VG_STAGE_READ;
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

        if (f->stage_role) {
            p.stage = rd ? VG_VIF_STAGE_READ : VG_VIF_STAGE_WRITE;
            p.rterm = (uint64_t)(f->stage + s->rterm_off[sc]);
            p.rterm_pitch = (int64_t)s->rterm_pitch[sc];
        }
        if (sc) {
            /* in a ladder the reference's pyramid is the stage's */
            p.ref = f->stage_role ? (uint64_t)(f->stage + s->img_off[sc])
                                  : (uint64_t)s->img[sc][0];
            p.dis = (uint64_t)s->img[sc][1];
            p.ref_pitch = p.dis_pitch = (int64_t)s->pitch[sc];
        } else {
            p.ref = (uint64_t)(uintptr_t)f->ref->data[0];
            p.dis = (uint64_t)(uintptr_t)f->dis->data[0];
            p.ref_pitch = f->ref->stride[0];
            p.dis_pitch = f->dis->stride[0];
        }
        if (sc < 3) {
            p.dref = f->stage_role ? (uint64_t)(f->stage + s->img_off[sc + 1])
                                   : (uint64_t)s->img[sc + 1][0];
            p.ddis = (uint64_t)s->img[sc + 1][1];
            p.dpitch = (int64_t)s->pitch[sc + 1];
            p.dw = s->w[sc + 1];
            p.dh = s->h[sc + 1];
        }
        vg_vif_grid(&p, &gx, &gy, &gz);
        if ((ret = vg_cuda_device_launch(vg_cuda_fc_device(fc),
                                         rd ? s->fn_rd[sc] : s->fn[sc], gx, gy,
                                         gz, VG_VIF_BX, VG_VIF_BY, &p)) < 0)
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
    .ref_stage_size = vif_cuda_ref_stage_size,
};
