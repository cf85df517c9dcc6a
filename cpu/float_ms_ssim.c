/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/float_ms_ssim.c and ms_ssim.c: a 5-scale pyramid (the 9x9
 * low-pass g_lpf, factor 2, iqa/decimate.c) and the SSIM map of
 * cpu/float_ssim.c at each scale; the finish is the home's
 * (common/features/float_ms_ssim.c).
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_ms_ssim.h"
#include "common/fplane.h"
#include "cpu/float_ssim.h"

static const float lpf[VG_MS_SSIM_LPF][VG_MS_SSIM_LPF] = VG_MS_SSIM_LPF_TAPS;

typedef struct FloatMsSsimState {
    VgFloatMsSsimParams p;
    float *ref[VG_MS_SSIM_SCALES],
        *dis[VG_MS_SSIM_SCALES]; ///< the pyramids, packed
    VgSsimWork wk;
    VgSsimDSP dsp;
    VgFplaneDSP fplane; ///< the planes' conversion to float
} FloatMsSsimState;

static int float_ms_ssim_init(VgFeatureCtx *fc)
{
    FloatMsSsimState *s = fc->priv;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());
    vg_ssim_dsp_init(&s->dsp, vg_cpu_flags());

    vg_float_ms_ssim_setup(&s->p, fc->opts, fc->bpc, fc->width, fc->height);
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        const size_t n = (size_t)s->p.w[i] * s->p.h[i];
        if (!(s->ref[i] = malloc(n * sizeof(float))) ||
            !(s->dis[i] = malloc(n * sizeof(float))))
            return -ENOMEM;
    }
    return vg_ssim_work_alloc(&s->wk, s->p.w[0], s->p.h[0]);
}

/*
 * A ladder's reference stage: for each scale, the reference's picture of
 * the pyramid, then its SSIM terms (vg_ssim_ref_terms()), packed floats.
 */
static size_t float_ms_ssim_stage_size(const VgFeatureCtx *fc)
{
    const FloatMsSsimState *s = fc->priv;
    size_t n = 0;

    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++)
        n += (size_t)s->p.w[i] * s->p.h[i] +
             2 * vg_ssim_map_size(s->p.w[i], s->p.h[i]);
    return n * sizeof(float);
}

static int float_ms_ssim_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    FloatMsSsimState *s = fc->priv;
    double sums[VG_MS_SSIM_SCALES][VG_SSIM_NB_SUMS];
    float *ref[VG_MS_SSIM_SCALES], *mu[VG_MS_SSIM_SCALES] = { NULL },
                                   *rr[VG_MS_SSIM_SCALES] = { NULL };
    float *top = f->stage;

    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        ref[i] = s->ref[i];
        if (top) {
            ref[i] = top;
            mu[i] = top + (size_t)s->p.w[i] * s->p.h[i];
            rr[i] = mu[i] + vg_ssim_map_size(s->p.w[i], s->p.h[i]);
            top = rr[i] + vg_ssim_map_size(s->p.w[i], s->p.h[i]);
        }
    }
    if (f->stage_role != VG_STAGE_READ) {
        s->fplane.to_float(ref[0], s->p.w[0], f->ref, 0, 0.0f);
        for (unsigned i = 1; i < VG_MS_SSIM_SCALES; i++)
            s->dsp.decimate(ref[i - 1], s->p.w[i - 1], s->p.h[i - 1], 2,
                            &lpf[0][0], VG_MS_SSIM_LPF, ref[i], s->wk.acc);
        for (unsigned i = 0; f->stage && i < VG_MS_SSIM_SCALES; i++)
            vg_ssim_ref_terms(&s->dsp, ref[i], s->p.w[i], s->p.h[i], &s->wk,
                              mu[i], rr[i]);
    }
    s->fplane.to_float(s->dis[0], s->p.w[0], f->dis, 0, 0.0f);
    for (unsigned i = 1; i < VG_MS_SSIM_SCALES; i++)
        s->dsp.decimate(s->dis[i - 1], s->p.w[i - 1], s->p.h[i - 1], 2,
                        &lpf[0][0], VG_MS_SSIM_LPF, s->dis[i], s->wk.acc);
    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++)
        vg_ssim_sums(&s->dsp, ref[i], s->dis[i], s->p.w[i], s->p.h[i], &s->wk,
                     mu[i], rr[i], sums[i]);
    return vg_float_ms_ssim_emit(fc, &s->p, f->index, sums);
}

static void float_ms_ssim_close(VgFeatureCtx *fc)
{
    FloatMsSsimState *s = fc->priv;

    for (unsigned i = 0; i < VG_MS_SSIM_SCALES; i++) {
        free(s->ref[i]);
        free(s->dis[i]);
    }
    vg_ssim_work_free(&s->wk);
}

const VgFeatureImpl vg_cpu_float_ms_ssim = {
    .priv_size = sizeof(FloatMsSsimState),
    .init = float_ms_ssim_init,
    .extract = float_ms_ssim_extract,
    .close = float_ms_ssim_close,
    .ref_stage_size = float_ms_ssim_stage_size,
};
