/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM on CUDA: the kernel parameters of a configuration and the
 * buffer layout, shared by gpu/adm.c (device buffers) and
 * tests/gpu/adm_host.cu (the same layout in host memory).
 */

#ifndef VG_GPU_ADM_LAYOUT_H
#define VG_GPU_ADM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/features/adm.h"
#include "common/features/adm_params.h"

static inline size_t vg_adm_align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/** Launch grid of DWT scale k (gpu/adm.cu vg_adm_dwt_rows()): blocks of
 *  VG_ADM_BX x VG_ADM_BY threads, a warp VG_ADM_DWT_OW columns and
 *  VG_ADM_DWT_R0 (scale 0) or VG_ADM_DWT_R rows of outputs. */
static inline unsigned vg_adm_dwt_grid_x(const VgAdmDwtParams *d)
{
    return (unsigned)((d->w + VG_ADM_DWT_OW - 1) / VG_ADM_DWT_OW);
}

static inline unsigned vg_adm_dwt_grid_y(const VgAdmDwtParams *d, int k)
{
    const int rows = VG_ADM_BY * (k ? VG_ADM_DWT_R : VG_ADM_DWT_R0);

    return (unsigned)((d->h + rows - 1) / rows);
}

/**
 * Fill the parameters of the kernels for a configuration: the CM regions,
 * shifts and weights of each scale (from vg_adm_scales() and
 * vg_adm_factors()), and the layout of the buffers (the eight DWT bands of
 * each scale, then the CM row sums and tile counters) from address `base`,
 * device or host.
 * @return bytes of buffer memory the layout needs from base
 */
static inline size_t vg_adm_cuda_layout(VgAdmParams *p,
                                        VgAdmDwtParams dwt[VG_ADM_NB_SCALES],
                                        const VgAdmScale scl[VG_ADM_NB_SCALES],
                                        const VgAdmFactors *fac,
                                        const VgAdmOpts *o, uint64_t base)
{
    size_t off = 0;
    int rows = 0, cm_tiles = 0, cm_trows = 0;

    memset(p, 0, sizeof(*p));
    p->egl = o->enhn_gain_limit;
    p->cos1 = vg_adm_cos1_sq();
    p->aim = !o->skip_aim;
    p->s_first = o->skip_scale0 ? 1 : 0;
    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        const VgAdmScale *sc = &scl[k];
        VgAdmBands *b = &p->b[k];
        VgAdmGeo *g = &p->g[k];
        const size_t bps = k ? 4 : 2;
        const int64_t pitch =
            (int64_t)vg_adm_align_up((size_t)sc->w * bps, 256);
        const size_t band = vg_adm_align_up((size_t)pitch * sc->h, 256);

        for (int i = 0; i < 4; i++) {
            b->ref[i] = base + off;
            b->dis[i] = base + off + band;
            off += 2 * band;
        }
        b->pitch = pitch;

        g->w = sc->w;
        g->h = sc->h;
        g->cl = sc->cm.left;
        g->ct = sc->cm.top;
        g->cr = sc->cm.right;
        g->cb = sc->cm.bottom;
        for (int i = 0; i < 3; i++) {
            g->fac[i] = k ? fac->s123[k][i] : fac->s0[i];
            g->cm_cub[i] = sc->cm_cub_shift[i];
        }
        g->cm_rho = sc->cm_row_shift;
        g->den_cub = sc->den_cub_shift;
        g->den_rho = sc->den_row_shift;
        g->cm_tiles_x = (g->cr - g->cl + VG_ADM_CM_TW - 1) / VG_ADM_CM_TW;
        if (k >= p->s_first) {
            const int cm_th = (g->cb - g->ct + VG_ADM_CM_TH - 1) / VG_ADM_CM_TH;

            g->row0 = rows;
            g->cm_tile0 = cm_tiles;
            g->cm_trow0 = cm_trows;
            rows += g->cb - g->ct;
            cm_trows += cm_th;
            cm_tiles += g->cm_tiles_x * cm_th;
        }
    }
    p->n_rows = rows;
    p->n_cm_tiles = cm_tiles;
    p->n_cm_trows = cm_trows;
    /* the CM row sums and the tile counters, last */
    p->rows = base + off;
    off += vg_adm_align_up((size_t)rows * 9 * sizeof(int64_t), 256);
    p->ticket = base + off;
    off += vg_adm_align_up((size_t)cm_trows * sizeof(uint32_t), 256);

    /* DWT inputs: scale 0 reads the pictures (set per frame), each later
     * scale the LL band of the one before; integer_adm.c
     * adm_dwt2_s123_combined roundings (vertical, horizontal) */
    static const int32_t vo[4] = { 0, 0, 32768, 32768 },
                         vs[4] = { 0, 0, 16, 16 };
    static const int32_t ho[4] = { 0, 16384, 32768, 16384 },
                         hs[4] = { 0, 15, 16, 15 };
    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        VgAdmDwtParams *d = &dwt[k];
        memset(d, 0, sizeof(*d));
        if (k) {
            d->src[0] = p->b[k - 1].ref[VG_ADM_BA];
            d->src[1] = p->b[k - 1].dis[VG_ADM_BA];
            d->src_pitch = p->b[k - 1].pitch;
        }
        for (int i = 0; i < 4; i++) {
            d->dst[0][i] = p->b[k].ref[i];
            d->dst[1][i] = p->b[k].dis[i];
        }
        d->dst_pitch = p->b[k].pitch;
        d->in_w = scl[k].in_w;
        d->in_h = scl[k].in_h;
        d->w = scl[k].w;
        d->h = scl[k].h;
        d->vrnd = vo[k];
        d->vsh = vs[k];
        d->hrnd = ho[k];
        d->hsh = hs[k];
    }
    return off;
}

/**
 * Move the reference's bands of every scale (a ladder's reference stage:
 * the DWT of the reference) to `base`, device or host, one after another
 * at the layout's pitches, and point the DWT's outputs and inputs of the
 * reference at them.
 * @return bytes of memory the reference's bands need from base
 */
static inline size_t vg_adm_cuda_ref_stage(VgAdmParams *p,
                                           VgAdmDwtParams dwt[VG_ADM_NB_SCALES],
                                           uint64_t base)
{
    size_t off = 0;

    for (int k = 0; k < VG_ADM_NB_SCALES; k++) {
        const size_t band =
            vg_adm_align_up((size_t)p->b[k].pitch * (size_t)p->g[k].h, 256);

        for (int i = 0; i < 4; i++) {
            p->b[k].ref[i] = base + off;
            dwt[k].dst[0][i] = base + off;
            off += band;
        }
        if (k)
            dwt[k].src[0] = p->b[k - 1].ref[VG_ADM_BA];
    }
    return off;
}

#endif /* VG_GPU_ADM_LAYOUT_H */
