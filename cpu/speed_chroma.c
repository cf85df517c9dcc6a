/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_chroma on the CPU (libvmaf v3.2.0 src/feature/speed.c
 * init_chroma(), extract_chroma()): SpEED (cpu/speed.c) of the U and of
 * the V plane.
 */

#include <errno.h>
#include <stdlib.h>

#include "common/fplane.h"
#include "common/features/speed_chroma.h"
#include "cpu/speed.h"

typedef struct SpeedChromaCpu {
    VgSpeed speed;
    float *ref, *dis;
} SpeedChromaCpu;

int vg_speed_chroma_setup(VgFeatureCtx *fc, VgSpeed *speed, int no_frames)
{
    const VgSpeedChromaOptions *o = fc->opts;
    const VgSpeedParams p = {
        .kernelscale = o->speed_kernelscale,
        .prescale = o->speed_prescale,
        .method = o->speed_prescale_method,
        .sigma_nn = o->speed_sigma_nn,
        .nn_floor = o->speed_nn_floor,
        .weight_var_mode = o->speed_weight_var_mode,
        .no_frames = no_frames,
    };
    unsigned ssx, ssy;

    if (fc->layout == VG_LAYOUT_400) {
        vg_log(fc->log, VG_LOG_ERROR, "speed_chroma: needs chroma planes; "
               "4:0:0 (gray) input has none");
        return -EINVAL;
    }
    /* init_chroma(): the chroma plane's size, w / 2 and h / 2 as
     * subsampled */
    vg_layout_shifts(fc->layout, &ssx, &ssy);
    return vg_speed_init(speed, &p, fc->width >> ssx, fc->height >> ssy,
                         "speed_chroma", fc->log);
}

static int speed_chroma_init(VgFeatureCtx *fc)
{
    SpeedChromaCpu *s = fc->priv;
    int ret;

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

    vg_plane_to_float(s->ref, s->speed.stride, f->ref, plane, -128);
    vg_plane_to_float(s->dis, s->speed.stride, f->dis, plane, -128);
    return vg_speed_score(&s->speed, s->ref, s->dis, score, fc->log);
}

int vg_speed_chroma_emit(VgFeatureCtx *fc, unsigned index, float u,
                         float v, int err_u, int err_v)
{
    const VgSpeedChromaOptions *o = fc->opts;
    const double mx = o->speed_max_val;
    float uv;
    int ret;

    /* extract_chroma(): a singular channel takes the other's score */
    if (err_u && !err_v)
        uv = v;
    else if (err_v && !err_u)
        uv = u;
    else
        uv = (u + v) / 2.0;
    /* MIN(x, max_val) with a double max_val */
    if ((ret = vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_U, index,
                               u < mx ? u : mx)) < 0 ||
        (ret = vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_V, index,
                               v < mx ? v : mx)) < 0)
        return ret;
    return vg_feature_emit(fc, VG_SPEED_CHROMA_OUT_UV, index,
                           uv < mx ? uv : mx);
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
