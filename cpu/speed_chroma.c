/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_chroma on the CPU (libvmaf v3.2.0 src/feature/speed.c
 * init_chroma(), extract_chroma()): SpEED (common/features/speed.c) of the U and of
 * the V plane.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/fplane.h"
#include "common/features/speed_chroma.h"
#include "common/features/speed.h"

typedef struct SpeedChromaCpu {
    VgSpeed speed;
    float *ref, *dis;
    VgFplaneDSP fplane; ///< the planes' conversion to float
} SpeedChromaCpu;

static int speed_chroma_init(VgFeatureCtx *fc)
{
    SpeedChromaCpu *s = fc->priv;
    int ret;

    vg_fplane_dsp_init(&s->fplane, vg_cpu_flags());

    if ((ret = vg_speed_chroma_setup(fc, &s->speed, 0)) < 0)
        return ret;
    if (!(s->ref = vg_speed_alloc_frame(&s->speed)) ||
        !(s->dis = vg_speed_alloc_frame(&s->speed))) {
        vg_log(fc->log, VG_LOG_ERROR, "speed_chroma: out of memory");
        return -ENOMEM;
    }
    return 0;
}

static void speed_chroma_close(VgFeatureCtx *fc)
{
    SpeedChromaCpu *s = fc->priv;

    vg_speed_free(&s->speed);
    free(s->ref);
    free(s->dis);
    s->ref = s->dis = NULL;
}

/* extract_channel(): 1 if the channel's covariance was singular */
static int channel(VgFeatureCtx *fc, const VgFrame *f, unsigned plane,
                   float *score)
{
    SpeedChromaCpu *s = fc->priv;

    s->fplane.to_float(s->ref, s->speed.stride, f->ref, plane, -128);
    s->fplane.to_float(s->dis, s->speed.stride, f->dis, plane, -128);
    return vg_speed_score(&s->speed, s->ref, s->dis, score, fc->log);
}

static int speed_chroma_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    float u, v;
    const int err_u = channel(fc, f, 1, &u);
    const int err_v = channel(fc, f, 2, &v);

    return vg_speed_chroma_emit(fc, f->index, u, v, err_u, err_v);
}

const VgFeatureImpl vg_cpu_speed_chroma = {
    .priv_size = sizeof(SpeedChromaCpu),
    .init = speed_chroma_init,
    .extract = speed_chroma_extract,
    .close = speed_chroma_close,
};
