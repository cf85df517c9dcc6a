/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR's descriptor and finish (psnr_y, psnr_cb, psnr_cr, and the
 * MSE with enable_mse), as libvmaf v3.2.0 src/feature/integer_psnr.c.
 * libvmaf's extractor accepts 8, 10, 12 and 16 bits; the high-bit-depth
 * arithmetic is the same for 9..16, so every depth in between is accepted
 * too.
 */

#include <math.h>
#include <stdint.h>

#include "common/features/psnr.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgPsnrOptions, field)

static const VgFeatureOption psnr_options[] = {
    { .name = "enable_chroma", .type = VG_OPT_BOOL, OPT(enable_chroma),
      .def = 1, .min = 0, .max = 1, .help = "compute psnr_cb and psnr_cr too" },
    { .name = "enable_mse", .type = VG_OPT_BOOL, OPT(enable_mse),
      .def = 0, .min = 0, .max = 1, .help = "also output mse_y, mse_cb, mse_cr" },
    { .name = "reduced_hbd_peak", .type = VG_OPT_BOOL, OPT(reduced_hbd_peak),
      .def = 0, .min = 0, .max = 1,
      .help = "peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1 (not for 8-bit)" },
    { .name = "min_sse", .type = VG_OPT_DOUBLE, OPT(min_sse),
      .def = 0.0, .min = 0.0, .max = 1.7976931348623157e308,
      .help = "smallest SSE; sets the PSNR cap" },
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

int vg_psnr_emit(VgFeatureCtx *fc, const VgPsnrParams *p, unsigned index,
                 const VgImage *ref, const uint64_t sse[3])
{
    const VgPsnrOptions *o = fc->opts;
    int ret;

    for (unsigned pl = 0; pl < p->n_planes; pl++) {
        double mse;
        const double db = vg_psnr_from_sse(p, fc->bpc, pl, sse[pl],
                                           ref->w[pl], ref->h[pl], &mse);

        if ((ret = vg_feature_emit(fc, VG_PSNR_OUT_Y + pl, index, db)) < 0)
            return ret;
        if (o->enable_mse &&
            (ret = vg_feature_emit(fc, VG_PSNR_OUT_MSE_Y + pl, index, mse)) < 0)
            return ret;
    }
    return 0;
}

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
    .id = VG_FEATURE_ID_psnr,
    .name = "psnr",
    .options = psnr_options,
    .opts_size = sizeof(VgPsnrOptions),
    .outputs = psnr_outputs,
    .outputs_used = psnr_outputs_used,
    .flags = VG_FEATURE_EVERY_FRAME | VG_FEATURE_CHROMA,
};
