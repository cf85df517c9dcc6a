/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM (detail loss / additive impairment), CPU reference.
 *
 * Bit-exact with the portable C path of libvmaf v3.2.0
 * src/feature/integer_adm.c (not with its AVX2/AVX-512 twins, which differ
 * on some inputs). Per scale: db2 DWT of reference and distorted luma,
 * decoupling of the distorted detail bands into restored (r) and additive
 * (a) parts, CSF weighting, contrast masking of r by a (DLM numerator) and
 * of a by r (AIM numerator), and the reference energy (denominator).
 * Scale 0 works on int16 bands, scales 1..3 on int32 bands.
 *
 * Every step keeps libvmaf's integer widths, shifts and roundings,
 * including its wrap-arounds (int16 CSF values, the -2^31 offsets of the
 * scale 1..3 divisions, the full-divisor rounding of the denominator).
 * Where libvmaf's C has undefined behaviour that x86-64 GCC compiles to a
 * wrap, we write the wrap explicitly with unsigned arithmetic.
 *
 * The passes live in cpu/adm_tmpl.c, compiled once per band type
 * (cpu/adm_s0.c, cpu/adm_s123.c), each with a C and an AVX2 build picked
 * at init from the one CPU-flags mask (common/cpu.h); this file sets up
 * the buffers and runs the scales.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "cpu/adm.h"

/* dwt2_src_indices_filt(): top/left reflect (-1 -> 1), bottom/right
 * reflect with edge repeat (n -> n - 1). Requires n >= 5. */
static void build_indices(int *idx, int n)
{
    const int half = (n + 1) / 2;
    for (int i = 0; i < half; i++) {
        for (int k = 0; k < 4; k++) {
            int v = 2 * i - 1 + k;
            if (i == 0)
                v = k == 0 ? 1 : k - 1;
            else if (v >= n)
                v = 2 * n - v - 1;
            idx[4 * i + k] = v;
        }
    }
}

static void adm_close(VgFeatureCtx *fc)
{
    AdmPriv *p = fc->priv;
    free(p->mem);
    p->mem = NULL;
}

static void *carve(char **top, size_t bytes)
{
    void *r = *top;
    *top += (bytes + 63) & ~(size_t)63;
    return r;
}

/* One band type's detail bands (h, v, d: DWT of ref and dis, r, a, ca,
 * cf), and its low-pass bands a of ref and dis `nlo` times. */
static void carve_bands(char **top, AdmBands *bd, void **lo_ref, void **lo_dis,
                        int nlo, size_t bytes)
{
    for (int k = 0; k < nlo; k++) {
        lo_ref[k] = carve(top, bytes);
        lo_dis[k] = carve(top, bytes);
    }
    for (int b = BH; b <= BD; b++) {
        bd->ref[b] = carve(top, bytes);
        bd->dis[b] = carve(top, bytes);
        bd->r[b] = carve(top, bytes);
        bd->a[b] = carve(top, bytes);
        bd->ca[b] = carve(top, bytes);
        bd->cf[b] = carve(top, bytes);
    }
}

static int adm_init(VgFeatureCtx *fc)
{
    AdmPriv *p = fc->priv;
    const VgAdmOpts *o = fc->opts;
    int ret;

    vg_adm_dsp_init_s0(&p->dsp, vg_cpu_flags());
    vg_adm_dsp_init_s123(&p->dsp, vg_cpu_flags());
    ret = vg_adm_factors(o, &p->fac, fc->log);
    if (ret < 0)
        return ret;
    p->div = vg_adm_div_lookup();
    p->cos1 = vg_adm_cos1_sq();
    vg_adm_scales(fc->width, fc->height, p->sc);

    const int w0 = p->sc[0].w, h0 = p->sc[0].h;
    const int w1 = p->sc[1].w, h1 = p->sc[1].h;
    p->b16.stride = (w0 + 31) & ~31;
    p->b32.stride = (w1 + 15) & ~15;
    const size_t b16 = (size_t)p->b16.stride * h0 * sizeof(int16_t);
    const size_t b32 = (size_t)p->b32.stride * h1 * sizeof(int32_t);

    p->b16_bytes = (b16 + 63) & ~(size_t)63;
    p->b32_bytes = (b32 + 63) & ~(size_t)63;
    size_t total = 0;
    total += 20 * ((b16 + 63) & ~(size_t)63);
    total += 28 * ((b32 + 63) & ~(size_t)63);
    for (int s = 0; s < VG_ADM_NB_SCALES; s++)
        total += ((4 * sizeof(int) * p->sc[s].h + 63) & ~(size_t)63) +
                 ((4 * sizeof(int) * p->sc[s].w + 63) & ~(size_t)63);
    total += ((4 * sizeof(int32_t) * (size_t)fc->width + 63) & ~(size_t)63);
    total += 2 * ((sizeof(int32_t) * (size_t)(w0 + 2) + 63) & ~(size_t)63);
    total += 64;

    p->mem = calloc(1, total);
    if (!p->mem) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: out of memory (%zu bytes)", total);
        return -ENOMEM;
    }
    char *top = (char *)(((uintptr_t)p->mem + 63) & ~(uintptr_t)63);
    carve_bands(&top, &p->b16, &p->b16.ref[BA], &p->b16.dis[BA], 1, b16);
    carve_bands(&top, &p->b32, p->lo_ref, p->lo_dis, 2, b32);
    for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
        p->iy[s] = carve(&top, 4 * sizeof(int) * p->sc[s].h);
        p->ix[s] = carve(&top, 4 * sizeof(int) * p->sc[s].w);
        build_indices(p->iy[s], p->sc[s].in_h);
        build_indices(p->ix[s], p->sc[s].in_w);
    }
    p->tmp = carve(&top, 4 * sizeof(int32_t) * (size_t)fc->width);
    p->cs = carve(&top, sizeof(int32_t) * (size_t)(w0 + 2));
    p->thr = carve(&top, sizeof(int32_t) * (size_t)(w0 + 2));
    return 0;
}

/* a ladder's reference stage: the reference's bands of every scale */
static size_t adm_ref_stage_size(const VgFeatureCtx *fc)
{
    const AdmPriv *p = fc->priv;

    return 4 * p->b16_bytes + 4 * (VG_ADM_NB_SCALES - 1) * p->b32_bytes;
}

static int adm_extract(VgFeatureCtx *fc, const VgFrame *frame)
{
    AdmPriv *p = fc->priv;
    const VgAdmOpts *o = fc->opts;
    const VgImage *ref = frame->ref, *dis = frame->dis;
    float num_s[VG_ADM_NB_SCALES], den_s[VG_ADM_NB_SCALES];
    float aim_s[VG_ADM_NB_SCALES] = { 0.0f, 0.0f, 0.0f, 0.0f };
    const AdmBands b16 = p->b16, b32 = p->b32;
    void *const lo_ref[2] = { p->lo_ref[0], p->lo_ref[1] };

    if (ref->w[0] != fc->width || ref->h[0] != fc->height ||
        dis->w[0] != fc->width || dis->h[0] != fc->height ||
        ref->bpc != fc->bpc || dis->bpc != fc->bpc) {
        vg_log(fc->log, VG_LOG_ERROR, "adm: picture geometry changed");
        return -EINVAL;
    }

    p->stage_role = frame->stage ? frame->stage_role : 0;
    if (p->stage_role) {
        char *top = frame->stage;

        for (int s = 0; s < VG_ADM_NB_SCALES; s++) {
            for (int b = BA; b <= BD; b++) {
                p->sref[s][b] = top;
                top += s ? p->b32_bytes : p->b16_bytes;
            }
        }
    }
    p->dsp.scale_s0(p, 0, o, ref, dis, &num_s[0], &den_s[0], &aim_s[0]);
    for (int s = 1; s < VG_ADM_NB_SCALES; s++)
        p->dsp.scale_s123(p, s, o, ref, dis, &num_s[s], &den_s[s], &aim_s[s]);
    /* the scale passes pointed the reference's bands at the stage */
    p->b16 = b16;
    p->b32 = b32;
    p->lo_ref[0] = lo_ref[0];
    p->lo_ref[1] = lo_ref[1];
    return vg_adm_finish(fc, frame->index, num_s, den_s, aim_s);
}

const VgFeatureImpl vg_cpu_adm = {
    .priv_size = sizeof(AdmPriv),
    .init = adm_init,
    .extract = adm_extract,
    .close = adm_close,
    .ref_stage_size = adm_ref_stage_size,
};
