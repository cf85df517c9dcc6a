/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR (psnr_y, psnr_cb, psnr_cr), bit-exact with libvmaf v3.2.0
 * src/feature/integer_psnr.c. libvmaf's extractor accepts 8, 10, 12 and
 * 16 bits; the high-bit-depth arithmetic is the same for 9..16, so every
 * depth in between is accepted too.
 */

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/feature.h"
#include "cpu/psnr.h"

static const VgFeatureOption psnr_options[] = {
    { "enable_chroma", NULL, VG_OPT_BOOL, VG_OPT_OFFSET(VgPsnrOptions, enable_chroma),
      1, 0, 1, 0, "compute psnr_cb and psnr_cr too" },
    { "enable_mse", NULL, VG_OPT_BOOL, VG_OPT_OFFSET(VgPsnrOptions, enable_mse),
      0, 0, 1, 0, "also output mse_y, mse_cb, mse_cr" },
    { "reduced_hbd_peak", NULL, VG_OPT_BOOL, VG_OPT_OFFSET(VgPsnrOptions, reduced_hbd_peak),
      0, 0, 1, 0, "peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1 (not for 8-bit)" },
    { "min_sse", NULL, VG_OPT_DOUBLE, VG_OPT_OFFSET(VgPsnrOptions, min_sse),
      0.0, 0.0, 1.7976931348623157e308, 0, "smallest SSE; sets the PSNR cap" },
    { NULL }
};

static const VgFeatureOutput psnr_outputs[] = {
    [VG_PSNR_OUT_Y]      = { "psnr_y",  NULL, 0 },
    [VG_PSNR_OUT_CB]     = { "psnr_cb", NULL, 0 },
    [VG_PSNR_OUT_CR]     = { "psnr_cr", NULL, 0 },
    [VG_PSNR_OUT_MSE_Y]  = { "mse_y",   NULL, 0 },
    [VG_PSNR_OUT_MSE_CB] = { "mse_cb",  NULL, 0 },
    [VG_PSNR_OUT_MSE_CR] = { "mse_cr",  NULL, 0 },
    { NULL }
};

void vg_psnr_setup(VgPsnrParams *p, const VgPsnrOptions *o, unsigned bpc,
                   enum VgImageLayout layout, unsigned w, unsigned h)
{
    unsigned ssx, ssy;

    vg_layout_shifts(layout, &ssx, &ssy);
    /* integer_psnr.c init(): the peak, and 6 * bpc + 12 dB as the cap
     * unless min_sse sets it; chroma sizes there are w / 2, h / 2 */
    p->peak = o->reduced_hbd_peak ? 255u << (bpc - 8) : (1u << bpc) - 1;
    p->n_planes = o->enable_chroma && layout != VG_LAYOUT_400 ? 3 : 1;
    for (unsigned i = 0; i < 3; i++) {
        if (o->min_sse != 0.0) {
            const double n = (double)(((i && ssx) ? w / 2 : w) *
                                      ((i && ssy) ? h / 2 : h));
            const double mse = o->min_sse / n;
            p->psnr_max[i] = ceil(10. * log10((uint32_t)(p->peak * p->peak) / mse));
        } else {
            p->psnr_max[i] = (double)(6 * bpc + 12);
        }
    }
}

double vg_psnr_from_sse(const VgPsnrParams *p, unsigned bpc, unsigned plane,
                        uint64_t sse, unsigned w, unsigned h, double *mse_out)
{
    /* integer_psnr.c psnr(): the 8-bit path always uses peak 255 */
    const uint32_t peak = bpc == 8 ? 255 : p->peak;
    const double mse = (double)sse / (double)(w * h);
    const double db = 10. * log10((uint32_t)(peak * peak) / fmax(mse, 1e-16));

    *mse_out = mse;
    return db < p->psnr_max[plane] ? db : p->psnr_max[plane];
}

static uint64_t sse_8(const uint8_t *ref, ptrdiff_t rs, const uint8_t *dis,
                      ptrdiff_t ds, unsigned w, unsigned h)
{
    uint64_t sse = 0;

    /* per-row uint32 sums of int16 squared errors, as psnr() */
    for (unsigned i = 0; i < h; i++) {
        uint32_t row = 0;
        for (unsigned j = 0; j < w; j++) {
            const int e = ref[j] - dis[j];
            row += (uint32_t)(e * e);
        }
        sse += row;
        ref += rs;
        dis += ds;
    }
    return sse;
}

static uint64_t sse_16(const uint16_t *ref, ptrdiff_t rs, const uint16_t *dis,
                       ptrdiff_t ds, unsigned w, unsigned h)
{
    uint64_t sse = 0;

    /* psnr_hbd(): |e| as uint32, squares summed straight into uint64 */
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < w; j++) {
            const uint32_t e = (uint32_t)abs((int)ref[j] - (int)dis[j]);
            sse += (uint64_t)(uint32_t)(e * e);
        }
        ref = (const uint16_t *)((const uint8_t *)ref + rs);
        dis = (const uint16_t *)((const uint8_t *)dis + ds);
    }
    return sse;
}

static int psnr_init(VgFeatureCtx *fc)
{
    vg_psnr_setup(fc->priv, fc->opts, fc->bpc, fc->layout, fc->width,
                  fc->height);
    return 0;
}

static int psnr_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const VgPsnrParams *p = fc->priv;
    const VgPsnrOptions *o = fc->opts;
    int ret;

    for (unsigned pl = 0; pl < p->n_planes; pl++) {
        const unsigned w = f->ref->w[pl], h = f->ref->h[pl];
        uint64_t sse;
        double mse, db;

        if (fc->bpc == 8)
            sse = sse_8(f->ref->data[pl], f->ref->stride[pl], f->dis->data[pl],
                        f->dis->stride[pl], w, h);
        else
            sse = sse_16(f->ref->data[pl], f->ref->stride[pl],
                         f->dis->data[pl], f->dis->stride[pl], w, h);
        db = vg_psnr_from_sse(p, fc->bpc, pl, sse, w, h, &mse);
        if ((ret = vg_feature_emit(fc, VG_PSNR_OUT_Y + pl, f->index, db)) < 0)
            return ret;
        if (o->enable_mse &&
            (ret = vg_feature_emit(fc, VG_PSNR_OUT_MSE_Y + pl, f->index, mse)) < 0)
            return ret;
    }
    return 0;
}

static const VgFeatureImpl psnr_cpu = {
    .priv_size = sizeof(VgPsnrParams),
    .init = psnr_init,
    .extract = psnr_extract,
};

static int psnr_outputs_used(const void *opts, unsigned out)
{
    const VgPsnrOptions *o = opts;

    const unsigned plane = (out - VG_PSNR_OUT_Y) % 3;

    if (plane && !o->enable_chroma)
        return 0;
    if (out >= VG_PSNR_OUT_MSE_Y)
        return o->enable_mse;
    return 1;
}

const VgFeatureDesc vg_feature_psnr = {
    .name = "psnr",
    .options = psnr_options,
    .opts_size = sizeof(VgPsnrOptions),
    .outputs = psnr_outputs,
    .outputs_used = psnr_outputs_used,
    .flags = VG_FEATURE_EVERY_FRAME | VG_FEATURE_CHROMA,
    .cpu = &psnr_cpu,
#if HAVE_CUDA
    .cuda = &vg_psnr_cuda,
#endif
};
