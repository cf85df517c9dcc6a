/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ADM on CUDA: per scale the DWT, decoupling and CSF, terms and
 * row-sum kernels of gpu/float_adm.cu, the last block of the row sums
 * adding the rows in the CPU's order into 9 floats per scale in the
 * frame's result area; the
 * powf of those totals and the frame's finish are the home's
 * (common/features/float_adm.c), so both backends print the same bits.
 *
 * Options the kernels do not reproduce exactly (adm_p_norm != 3, whose
 * per-sample powf is the C library's), and an x86 host whose RCPSS does
 * not follow the table model, run the CPU implementation instead
 * (float_adm_usable()).
 */

#include <errno.h>
#include <stdint.h>

#include "common/features/float_adm.h"
#include "common/features/float_adm_params.h"
#include "gpu/core/feature.h"

#define NB_BANDS 31 ///< lo[2][2], ref/dis/cva/cfa/cvr/cfr x 3, terms (9)

typedef struct FloatAdmCuda {
    VgFloatAdmParams par;
    CUfunction fn_dwt, fn_dec, fn_terms, fn_rows;
    CUdeviceptr mem; ///< the bands, then the row sums
    CUdeviceptr rcp; ///< the reciprocal table, 0: divide
    CUdeviceptr band[NB_BANDS];
    CUdeviceptr rows;
    size_t pitch;
} FloatAdmCuda;

static int float_adm_usable(const void *opts)
{
    const VgFloatAdmOpts *o = opts;

    if (o->p_norm != 3.0)
        return 0;
#if VG_FADM_HAVE_RCP
    if (!vg_float_adm_rcp_table())
        return 0;
#endif
    return 1;
}

static void float_adm_cuda_close(VgFeatureCtx *fc)
{
    FloatAdmCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;

    if (s->mem)
        VG_CU(cu, fc->log, cuMemFree, s->mem);
    if (s->rcp)
        VG_CU(cu, fc->log, cuMemFree, s->rcp);
    s->mem = s->rcp = 0;
}

static int float_adm_cuda_init(VgFeatureCtx *fc)
{
    FloatAdmCuda *s = fc->priv;
    VgCudaDevice *dev = vg_cuda_fc_device(fc);
    const VgCuda *cu = dev->cu;
    int ret;

    vg_float_adm_setup(&s->par, fc->opts, fc->width, fc->height);
    if ((ret = vg_cuda_device_function(dev, "vg_fadm_dwt", &s->fn_dwt)) < 0 ||
        (ret = vg_cuda_device_function(dev, "vg_fadm_decouple", &s->fn_dec)) <
            0 ||
        (ret = vg_cuda_device_function(dev, "vg_fadm_terms", &s->fn_terms)) <
            0 ||
        (ret = vg_cuda_device_function(dev, "vg_fadm_rows", &s->fn_rows)) < 0)
        return ret;

    const size_t h0 = (size_t)s->par.sc[0].h;
    s->pitch = vg_cuda_align((size_t)s->par.sc[0].w * sizeof(float));
    const size_t band = s->pitch * h0;
    /* the row sums, then the rows kernel's block counter */
    const size_t rows = 9 * h0 * sizeof(float) + sizeof(float);
    if ((ret = VG_CU(cu, fc->log, cuMemAlloc, &s->mem,
                     NB_BANDS * band + rows)) < 0)
        goto fail;
    /* every band zeroed once: the kernels only write the regions they
     * compute, and read nothing outside them */
    if ((ret = VG_CU(cu, fc->log, cuMemsetD8Async, s->mem, 0,
                     NB_BANDS * band + rows, dev->stream)) < 0)
        goto fail;
    for (int k = 0; k < NB_BANDS; k++)
        s->band[k] = s->mem + (size_t)k * band;
    s->rows = s->mem + NB_BANDS * band;
#if VG_FADM_HAVE_RCP
    {
        const float *tab = vg_float_adm_rcp_table();
        if (!tab) {
            vg_log(fc->log, VG_LOG_ERROR,
                   "float_adm: this CPU's reciprocal "
                   "approximation does not follow the table model");
            ret = -ENOTSUP;
            goto fail;
        }
        if ((ret = VG_CU(cu, fc->log, cuMemAlloc, &s->rcp,
                         VG_FADM_RCP_SIZE * sizeof(float))) < 0)
            goto fail;
        /* the table is static, so the copy may complete after this
         * returns; it is ordered before every kernel on the stream */
        if ((ret = VG_CU(cu, fc->log, cuMemcpyHtoDAsync, s->rcp, tab,
                         VG_FADM_RCP_SIZE * sizeof(float), dev->stream)) < 0)
            goto fail;
    }
#endif
    return 0;
fail:
    float_adm_cuda_close(fc);
    return ret;
}

static int float_adm_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FloatAdmCuda *s = fc->priv;
    const VgFloatAdmOpts *o = fc->opts;
    const VgFloatAdmParams *par = &s->par;
    VgCudaDevice *dev = vg_cuda_fc_device(fc);
    int ret;

    for (int sc = 0; sc < VG_FADM_NB_SCALES; sc++) {
        const VgAdmScale *g = &par->sc[sc];
        const CUdeviceptr *b = s->band;
        VgFadmKernelParams p = {
            .pitch = (int64_t)s->pitch,
            .rcp = (uint64_t)s->rcp,
            .rows = (uint64_t)s->rows,
            .tot = (uint64_t)(f->res + (size_t)sc * 9 * sizeof(float)),
            .egl = o->enhn_gain_limit,
            .rf = { par->rf[sc][0], par->rf[sc][1], par->rf[sc][2] },
            .cos1_sq = par->cos1_sq,
            .src_offset = -128.0f,
            .p_f = par->p_f,
            .add_offset = sc == 0,
            .lo_only = sc < par->first_scale,
            .bypass = o->bypass_cm,
            .p_is_3 = par->p_is_3,
            .in_w = g->in_w,
            .in_h = g->in_h,
            .w = g->w,
            .h = g->h,
            .dl = g->dec.left,
            .dt = g->dec.top,
            .dr = g->dec.right,
            .db = g->dec.bottom,
            .cl = g->cm.left,
            .ct = g->cm.top,
            .cr = g->cm.right,
            .cb = g->cm.bottom,
            .n_rows = g->cm.bottom - g->cm.top,
        };
        /* band a ping-pongs between scales: [sc & 1] is written, the
         * other one is this scale's input */
        p.lo[0] = b[2 * (sc & 1)];
        p.lo[1] = b[2 * (sc & 1) + 1];
        if (sc == 0) {
            p.src[0] = (uint64_t)f->ref_f;
            p.src[1] = (uint64_t)f->dis_f;
            p.src_pitch = (int64_t)f->f_pitch;
        } else {
            p.src[0] = b[2 * ((sc - 1) & 1)];
            p.src[1] = b[2 * ((sc - 1) & 1) + 1];
            p.src_pitch = (int64_t)s->pitch;
        }
        for (int k = 0; k < 3; k++) {
            p.ref[k] = b[4 + k];
            p.dis[k] = b[7 + k];
            p.cva[k] = b[10 + k];
            p.cfa[k] = b[13 + k];
            p.cvr[k] = b[16 + k];
            p.cfr[k] = b[19 + k];
        }
        /* the 9 bands from 22 on, one [9 * n_rows][pitch] matrix */
        p.terms = b[22];
        p.counter =
            (uint64_t)(s->rows + 9 * (size_t)par->sc[0].h * sizeof(float));
        const unsigned dw = (unsigned)(g->dec.right - g->dec.left);
        const unsigned dh = (unsigned)(g->dec.bottom - g->dec.top);
        const unsigned cw = (unsigned)(g->cm.right - g->cm.left);
        const unsigned ch = (unsigned)(g->cm.bottom - g->cm.top);
        if ((ret = vg_cuda_device_launch(dev, s->fn_dwt,
                                         (g->w + VG_FADM_BX - 1) / VG_FADM_BX,
                                         (g->h + VG_FADM_BY - 1) / VG_FADM_BY,
                                         2, VG_FADM_BX, VG_FADM_BY, &p)) < 0)
            return ret;
        if (p.lo_only)
            continue;
        if ((ret = vg_cuda_device_launch(dev, s->fn_dec,
                                         (dw + VG_FADM_BX - 1) / VG_FADM_BX,
                                         (dh + VG_FADM_BY - 1) / VG_FADM_BY, 1,
                                         VG_FADM_BX, VG_FADM_BY, &p)) < 0 ||
            (ret = vg_cuda_device_launch(dev, s->fn_terms,
                                         (cw + VG_FADM_BX - 1) / VG_FADM_BX,
                                         (ch + VG_FADM_BY - 1) / VG_FADM_BY, 1,
                                         VG_FADM_BX, VG_FADM_BY, &p)) < 0 ||
            (ret = vg_cuda_device_launch(
                 dev, s->fn_rows,
                 (9 * p.n_rows + VG_FADM_ROWS_STRIP - 1) / VG_FADM_ROWS_STRIP,
                 1, 1, VG_FADM_ROWS_THREADS, 1, &p)) < 0)
            return ret;
    }
    return 0;
}

static int float_adm_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FloatAdmCuda *s = fc->priv;
    const float(*tot)[3][3] = f->host_res;
    float val[VG_FADM_NB_SCALES][3] = { { 0 } };

    for (int sc = s->par.first_scale; sc < VG_FADM_NB_SCALES; sc++)
        for (int k = 0; k < 3; k++)
            val[sc][k] = vg_float_adm_scale_value_tot(&s->par, fc->opts, sc, k,
                                                      tot[sc][k]);
    return vg_float_adm_finish(fc, f->index, val);
}

const VgCudaFeatureImpl vg_cuda_float_adm = {
    .priv_size = sizeof(FloatAdmCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = VG_FADM_NB_SCALES * 9 * sizeof(float),
    .init = float_adm_cuda_init,
    .submit = float_adm_cuda_submit,
    .collect = float_adm_cuda_collect,
    .close = float_adm_cuda_close,
    .usable = float_adm_usable,
};
