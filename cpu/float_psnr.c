/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float PSNR on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/psnr.c compute_psnr(): the difference and its square in
 * float, added in row-major order into one double.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_psnr.h"
#include "common/fplane.h"

typedef struct FloatPsnrState {
    float *ref, *dis;   ///< luma as float, width floats per row
    VgFplaneDSP fplane; ///< the planes' conversion to float
} FloatPsnrState;

static int float_psnr_init(VgFeatureCtx *fc)
{
    FloatPsnrState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());

    s->ref = malloc(n * sizeof(*s->ref));
    s->dis = malloc(n * sizeof(*s->dis));
    return s->ref && s->dis ? 0 : -ENOMEM;
}

static void float_psnr_close(VgFeatureCtx *fc)
{
    FloatPsnrState *s = fc->priv;

    free(s->ref);
    free(s->dis);
}

static int float_psnr_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    FloatPsnrState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;
    double noise = 0;

    s->fplane.to_float(s->ref, fc->width, f->ref, 0, 0.0f);
    s->fplane.to_float(s->dis, fc->width, f->dis, 0, 0.0f);
    for (size_t i = 0; i < n; i++) {
        const float d = s->ref[i] - s->dis[i];
        noise += d * d;
    }
    return vg_float_psnr_emit(fc, f->index, noise);
}

const VgFeatureImpl vg_cpu_float_psnr = {
    .priv_size = sizeof(FloatPsnrState),
    .init = float_psnr_init,
    .extract = float_psnr_extract,
    .close = float_psnr_close,
};
