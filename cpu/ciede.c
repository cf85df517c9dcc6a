/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CIEDE2000 on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/ciede.c: every frame's ΔE00 sum through the home's host
 * arithmetic (common/features/ciede.c), with one row's chroma positions
 * and a cache of Lab colours kept for the context.
 */

#include <errno.h>

#include "common/features/ciede.h"
#include "common/features/ciede_params.h"

typedef struct CiedeCpu {
    VgCiedeSum *sum; ///< chroma positions and Lab cache (the home's)
} CiedeCpu;

static int ciede_init(VgFeatureCtx *fc)
{
    CiedeCpu *s = fc->priv;
    int ret;

    if ((ret = vg_ciede_check(fc->log, fc->layout, fc->bpc, fc->width,
                              fc->height)) < 0)
        return ret;
    if (!(s->sum = vg_ciede_sum_alloc(fc->width))) {
        vg_log(fc->log, VG_LOG_ERROR, "ciede: out of memory");
        return -ENOMEM;
    }
    return 0;
}

static void ciede_close(VgFeatureCtx *fc)
{
    CiedeCpu *s = fc->priv;

    vg_ciede_sum_free(&s->sum);
}

static int ciede_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    CiedeCpu *s = fc->priv;

    return vg_feature_emit(
        fc, VG_CIEDE_OUT_CIEDE2000, f->index,
        vg_ciede_score(vg_ciede_sum_frame(s->sum, fc, f->ref, f->dis),
                       fc->width, fc->height));
}

const VgFeatureImpl vg_cpu_ciede = {
    .priv_size = sizeof(CiedeCpu),
    .init = ciede_init,
    .extract = ciede_extract,
    .close = ciede_close,
};
