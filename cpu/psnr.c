/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR on the CPU: the per-plane SSE, bit-exact with libvmaf
 * v3.2.0 src/feature/integer_psnr.c psnr() and psnr_hbd(); the dB values
 * are the feature's home's (common/features/psnr.c).
 */

#include <stdint.h>
#include <stdlib.h>

#include "common/features/psnr.h"

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
    uint64_t sse[3] = { 0 };

    for (unsigned pl = 0; pl < p->n_planes; pl++) {
        const unsigned w = f->ref->w[pl], h = f->ref->h[pl];

        if (fc->bpc == 8)
            sse[pl] = sse_8(f->ref->data[pl], f->ref->stride[pl],
                            f->dis->data[pl], f->dis->stride[pl], w, h);
        else
            sse[pl] = sse_16(f->ref->data[pl], f->ref->stride[pl],
                             f->dis->data[pl], f->dis->stride[pl], w, h);
    }
    return vg_psnr_emit(fc, p, f->index, f->ref, sse);
}

const VgFeatureImpl vg_cpu_psnr = {
    .priv_size = sizeof(VgPsnrParams),
    .init = psnr_init,
    .extract = psnr_extract,
};
