/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * speed_chroma on CUDA: the U and V planes of both pictures converted,
 * prescaled, filtered and decimated on the device in one set of launches,
 * with their covariance matrices (gpu/speed.cuh); the decimated pictures
 * and the matrices come back in the frame's results and are scored in the
 * frame's host step by the CPU's code (common/features/speed.c
 * vg_speed_score_decimated(), speed_chroma.c vg_speed_chroma_emit()),
 * so both backends print the same bits.
 */

#include <errno.h>

#include "common/features/speed_chroma.h"
#include "gpu/speed.h"

enum {
    U_REF,
    U_DIS,
    V_REF,
    V_DIS,
    NB_PICS
};

static void speed_chroma_cuda_close(VgFeatureCtx *fc)
{
    vg_cuda_speed_close(fc, fc->priv);
}

static int speed_chroma_cuda_init(VgFeatureCtx *fc)
{
    VgCudaSpeed *s = fc->priv;
    int ret;

    if ((ret = vg_speed_chroma_setup(fc, &s->speed, 1)) < 0 ||
        (ret = vg_cuda_speed_init(fc, s, NB_PICS, fc->bpc)) < 0)
        speed_chroma_cuda_close(fc);
    return ret;
}

static size_t speed_chroma_cuda_res_size(const VgFeatureCtx *fc)
{
    return vg_cuda_speed_res_size(fc->priv);
}

static int speed_chroma_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const VgCudaSpeed *s = fc->priv;
    const uint64_t a[NB_PICS] = {
        [U_REF] = (uint64_t)(uintptr_t)f->ref->data[1],
        [U_DIS] = (uint64_t)(uintptr_t)f->dis->data[1],
        [V_REF] = (uint64_t)(uintptr_t)f->ref->data[2],
        [V_DIS] = (uint64_t)(uintptr_t)f->dis->data[2],
    };
    const uint64_t b[NB_PICS] = { 0 };

    /* both chroma planes of both images: one geometry, one pitch */
    return vg_cuda_speed_submit(fc, s, a, b, f->ref->stride[1], f->res);
}

/* the host step, on a scratch state of its own */
static int speed_chroma_cuda_finish(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    VgCudaSpeed *s = fc->priv;
    VgSpeed *sp = vg_cuda_speed_take(fc, s);
    const void *r = f->host_res;
    int err_u, err_v;
    float u, v;

    if (!sp)
        return -ENOMEM;
    err_u = vg_speed_score_decimated(
        sp, vg_cuda_speed_result(s, r, U_REF),
        vg_cuda_speed_result(s, r, U_DIS), vg_cuda_speed_cov(s, r, U_REF),
        vg_cuda_speed_cov(s, r, U_DIS), &u, fc->log);
    err_v = vg_speed_score_decimated(
        sp, vg_cuda_speed_result(s, r, V_REF),
        vg_cuda_speed_result(s, r, V_DIS), vg_cuda_speed_cov(s, r, V_REF),
        vg_cuda_speed_cov(s, r, V_DIS), &v, fc->log);
    vg_cuda_speed_give(s, sp);
    return vg_speed_chroma_emit(fc, f->index, u, v, err_u, err_v);
}

const VgCudaFeatureImpl vg_cuda_speed_chroma = {
    .priv_size = sizeof(VgCudaSpeed),
    .res_size_of = speed_chroma_cuda_res_size,
    .init = speed_chroma_cuda_init,
    .submit = speed_chroma_cuda_submit,
    .finish = speed_chroma_cuda_finish,
    .close = speed_chroma_cuda_close,
};
