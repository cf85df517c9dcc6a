/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * PSNR-HVS on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/third_party/xiph/psnr_hvs.c calc_psnrhvs(): blocks in
 * raster order at steps of 7, each one's terms added to the plane's float
 * sum as they come (the block code is the home's,
 * common/features/psnr_hvs_params.h).
 */

#include <stdint.h>

#include "common/features/psnr_hvs.h"
#include "common/features/psnr_hvs_params.h"

typedef struct PsnrHvsState {
    VgPsnrHvsTables tab;
} PsnrHvsState;

static int psnr_hvs_init(VgFeatureCtx *fc)
{
    PsnrHvsState *s = fc->priv;
    int ret;

    if ((ret = vg_psnr_hvs_check(fc)) < 0)
        return ret;
    vg_psnr_hvs_tables(&s->tab);
    return 0;
}

/* The 8x8 samples at (x, y) of a plane, as int32. */
static void load_block(int32_t b[64], const void *data, ptrdiff_t stride,
                       unsigned bpc, unsigned x, unsigned y)
{
    for (unsigned i = 0; i < 8; i++) {
        const uint8_t *row =
            (const uint8_t *)data + (ptrdiff_t)(y + i) * stride;

        if (bpc > 8) {
            const uint16_t *r = (const uint16_t *)row + x;
            for (unsigned j = 0; j < 8; j++)
                b[i * 8 + j] = r[j];
        } else {
            for (unsigned j = 0; j < 8; j++)
                b[i * 8 + j] = row[x + j];
        }
    }
}

static double plane_score(const PsnrHvsState *s, const VgFrame *f, unsigned pl,
                          unsigned bpc)
{
    const unsigned nbx = vg_psnr_hvs_nblocks(f->ref->w[pl]);
    const unsigned nby = vg_psnr_hvs_nblocks(f->ref->h[pl]);
    float ret = 0;

    for (unsigned by = 0; by < nby; by++) {
        for (unsigned bx = 0; bx < nbx; bx++) {
            int32_t bs[64], bd[64];
            float term[64];

            load_block(bs, f->ref->data[pl], f->ref->stride[pl], bpc,
                       bx * VG_PSNR_HVS_STEP, by * VG_PSNR_HVS_STEP);
            load_block(bd, f->dis->data[pl], f->dis->stride[pl], bpc,
                       bx * VG_PSNR_HVS_STEP, by * VG_PSNR_HVS_STEP);
            vg_psnr_hvs_block(bs, bd, s->tab.t[pl][0], s->tab.t[pl][1], term);
            for (unsigned k = 0; k < 64; k++)
                ret += term[k];
        }
    }
    return vg_psnr_hvs_plane_score(ret, (uint64_t)nbx * nby, bpc);
}

static int psnr_hvs_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const PsnrHvsState *s = fc->priv;
    double score[3];

    for (unsigned pl = 0; pl < 3; pl++)
        score[pl] = plane_score(s, f, pl, fc->bpc);
    return vg_psnr_hvs_emit(fc, f->index, score);
}

const VgFeatureImpl vg_cpu_psnr_hvs = {
    .priv_size = sizeof(PsnrHvsState),
    .init = psnr_hvs_init,
    .extract = psnr_hvs_extract,
};
