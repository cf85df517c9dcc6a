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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * A ladder's reference stage: for each chroma channel, whether the
 * reference's covariance was singular (an int32 in 16 bytes), then its
 * blocks' entropies and variances (vg_speed_ref_side()).
 */
static size_t channel_stage_bytes(const SpeedChromaCpu *s)
{
    return 16 + 2 * (size_t)s->speed.nb * sizeof(float);
}

static size_t speed_chroma_stage_size(const VgFeatureCtx *fc)
{
    return 2 * channel_stage_bytes(fc->priv);
}

/* extract_channel(): 1 if the channel's covariance was singular */
static int channel(VgFeatureCtx *fc, const VgFrame *f, unsigned plane,
                   float *score)
{
    SpeedChromaCpu *s = fc->priv;
    const size_t bytes = s->speed.nb * sizeof(float);
    char *st = f->stage
                   ? (char *)f->stage + (plane - 1) * channel_stage_bytes(s)
                   : NULL;
    /* the stage's fields: the error flag, the entropies, the variances */
    char *ent = st ? st + 16 : NULL, *var = st ? ent + bytes : NULL;
    int32_t err_ref;

    if (f->stage_role == VG_STAGE_READ) {
        memcpy(&err_ref, st, sizeof(err_ref));
        memcpy(s->speed.ent[0], ent, bytes);
        memcpy(s->speed.var[0], var, bytes);
    } else {
        s->fplane.to_float(s->ref, s->speed.stride, f->ref, plane, -128);
        err_ref = vg_speed_ref_side(&s->speed, s->ref, fc->log);
        if (st) {
            memcpy(st, &err_ref, sizeof(err_ref));
            memcpy(ent, s->speed.ent[0], bytes);
            memcpy(var, s->speed.var[0], bytes);
        }
    }
    s->fplane.to_float(s->dis, s->speed.stride, f->dis, plane, -128);
    return vg_speed_score_dis(&s->speed, s->dis, err_ref, score, fc->log);
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
    .ref_stage_size = speed_chroma_stage_size,
};
