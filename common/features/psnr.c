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

#include "common/collector.h"
#include "common/features/psnr.h"
#include "common/framestore.h"

#define OPT(field) .offset = VG_OPT_OFFSET(VgPsnrOptions, field)

/* clang-format off */
static const VgFeatureOption psnr_options[] = {
    { .name = "enable_chroma", .type = VG_OPT_BOOL, OPT(enable_chroma),
      .def = 1, .min = 0, .max = 1, .help = "compute psnr_cb and psnr_cr too" },
    { .name = "enable_mse", .type = VG_OPT_BOOL, OPT(enable_mse),
      .def = 0, .min = 0, .max = 1, .help = "also output mse_y, mse_cb, mse_cr" },
    { .name = "enable_apsnr", .type = VG_OPT_BOOL, OPT(enable_apsnr),
      .def = 0, .min = 0, .max = 1,
      .help = "also output apsnr_y, apsnr_cb, apsnr_cr over the whole stream" },
    { .name = "reduced_hbd_peak", .type = VG_OPT_BOOL, OPT(reduced_hbd_peak),
      .def = 0, .min = 0, .max = 1,
      .help = "peak 255 << (bitdepth - 8) instead of 2^bitdepth - 1 (not for 8-bit)" },
    { .name = "min_sse", .type = VG_OPT_DOUBLE, OPT(min_sse),
      .def = 0.0, .min = 0.0, .max = 1.7976931348623157e308,
      .help = "smallest SSE; sets the PSNR cap" },
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput psnr_outputs[] = {
    [VG_PSNR_OUT_Y]      = { "psnr_y",  NULL, 0 },
    [VG_PSNR_OUT_CB]     = { "psnr_cb", NULL, 0 },
    [VG_PSNR_OUT_CR]     = { "psnr_cr", NULL, 0 },
    [VG_PSNR_OUT_MSE_Y]  = { "mse_y",   NULL, 0 },
    [VG_PSNR_OUT_MSE_CB] = { "mse_cb",  NULL, 0 },
    [VG_PSNR_OUT_MSE_CR] = { "mse_cr",  NULL, 0 },
    { NULL }
};
/* clang-format on */

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
            const double n =
                (double)(((i && ssx) ? w / 2 : w) * ((i && ssy) ? h / 2 : h));
            const double mse = o->min_sse / n;
            p->psnr_max[i] =
                ceil(10. * log10((uint32_t)(p->peak * p->peak) / mse));
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
    VgPsnrRecord rec = { { 0 }, { 0 } };
    int ret;

    for (unsigned pl = 0; pl < p->n_planes; pl++) {
        rec.sse[pl] = sse[pl];
        rec.n_pixels[pl] = (uint64_t)ref->w[pl] * ref->h[pl];
        double mse;
        const double db = vg_psnr_from_sse(p, fc->bpc, pl, sse[pl], ref->w[pl],
                                           ref->h[pl], &mse);

        if ((ret = vg_feature_emit(fc, VG_PSNR_OUT_Y + pl, index, db)) < 0)
            return ret;
        if (o->enable_mse &&
            (ret = vg_feature_emit(fc, VG_PSNR_OUT_MSE_Y + pl, index, mse)) < 0)
            return ret;
    }
    return o->enable_apsnr ? vg_framestore_put(fc->store, index, &rec) : 0;
}

/*
 * integer_psnr.c flush(): per plane, 10 (log10(peak^2) + log10(pixels) -
 * log10(SSE)) over the frames of the stream, capped at
 * ceil(10 log10(peak^2 pixels 2)); the cap's product is libvmaf's, in
 * uint32 then uint64. All three planes, also the ones not computed (no
 * pixels: -inf, as libvmaf). Written once the stream has ended, as an
 * aggregate (libvmaf's aggregate_metrics).
 */
static int psnr_post(VgFeatureCtx *fc, unsigned n_done, int final)
{
    static const char *const names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    const VgPsnrOptions *o = fc->opts;
    uint64_t sse[3] = { 0 }, n_pixels[3] = { 0 };
    VgPsnrParams p;
    uint32_t peak2;
    int ret;

    if (!o->enable_apsnr || !final)
        return 0;
    for (unsigned i = 0; i < n_done; i++) {
        VgPsnrRecord rec;
        if ((ret = vg_framestore_get(fc->store, i, &rec)) < 0)
            return ret;
        for (unsigned pl = 0; pl < 3; pl++) {
            sse[pl] += rec.sse[pl];
            n_pixels[pl] += rec.n_pixels[pl];
        }
    }
    vg_psnr_setup(&p, o, fc->bpc, fc->layout, fc->width, fc->height);
    peak2 = p.peak * p.peak;
    for (unsigned pl = 0; pl < 3; pl++) {
        const double apsnr = 10 * (log10(peak2) + log10((double)n_pixels[pl]) -
                                   log10((double)sse[pl]));
        const double cap = ceil(10 * log10((double)(peak2 * n_pixels[pl] * 2)));

        if ((ret = vg_collector_set_aggregate(fc->collector, names[pl],
                                              apsnr < cap ? apsnr : cap)) < 0)
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
    VG_FEATURE_DESC(psnr),
    VG_FEATURE_OPTIONS(psnr, VgPsnrOptions),
    .outputs_used = psnr_outputs_used,
    .flags = VG_FEATURE_EVERY_FRAME | VG_FEATURE_CHROMA,
    .post = psnr_post,
    .frame_record_size = sizeof(VgPsnrRecord),
};
