/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float moments on the CPU, bit-exact with libvmaf v3.2.0
 * src/feature/moment.c: each sum is one double accumulator over the
 * samples in row-major order, the squares rounded to float first.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/float_moment.h"
#include "common/fplane.h"

typedef struct MomentState {
    float *ref, *dis;   ///< luma as float, width floats per row
    VgFplaneDSP fplane; ///< the planes' conversion to float
} MomentState;

static int moment_init(VgFeatureCtx *fc)
{
    MomentState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());

    s->ref = malloc(n * sizeof(*s->ref));
    s->dis = malloc(n * sizeof(*s->dis));
    return s->ref && s->dis ? 0 : -ENOMEM;
}

static void moment_close(VgFeatureCtx *fc)
{
    MomentState *s = fc->priv;

    free(s->ref);
    free(s->dis);
}

/* compute_1st_moment() and compute_2nd_moment() before their division */
static void sums(const float *p, size_t n, double *first, double *second)
{
    double c1 = 0, c2 = 0;

    for (size_t i = 0; i < n; i++)
        c1 += p[i];
    for (size_t i = 0; i < n; i++)
        c2 += p[i] * p[i];
    *first = c1;
    *second = c2;
}

static int moment_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    MomentState *s = fc->priv;
    const size_t n = (size_t)fc->width * fc->height;
    double sum[4];

    s->fplane.to_float(s->ref, fc->width, f->ref, 0, 0.0f);
    s->fplane.to_float(s->dis, fc->width, f->dis, 0, 0.0f);
    sums(s->ref, n, &sum[VG_FLOAT_MOMENT_OUT_REF1ST],
         &sum[VG_FLOAT_MOMENT_OUT_REF2ND]);
    sums(s->dis, n, &sum[VG_FLOAT_MOMENT_OUT_DIS1ST],
         &sum[VG_FLOAT_MOMENT_OUT_DIS2ND]);
    return vg_float_moment_emit(fc, f->index, sum);
}

const VgFeatureImpl vg_cpu_float_moment = {
    .priv_size = sizeof(MomentState),
    .init = moment_init,
    .extract = moment_extract,
    .close = moment_close,
};
