/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/core/scale.h"

static size_t filter_bytes(const VgScaleFilter *f)
{
    return vg_cuda_align((size_t)f->n_out * sizeof(*f->pos)) +
           vg_cuda_align((size_t)f->n_out * f->size * sizeof(*f->coef));
}

int vg_cuda_scaler_open(VgCudaScaler *c, VgCudaDevice *d, enum VgScale alg,
                        enum VgImageLayout layout, unsigned bpc, unsigned src_w,
                        unsigned src_h, unsigned dst_w, unsigned dst_h)
{
    const VgScaleFilter *f[4];
    VgScaleTaps *t[4] = { &c->h[0], &c->v[0], &c->h[1], &c->v[1] };
    const unsigned nf = layout == VG_LAYOUT_400 ? 2 : 4;
    size_t total = 0, off = 0, bytes;
    uint8_t *host = NULL;
    VgImage dst_geom;
    int ret;

    memset(c, 0, sizeof(*c));
    if ((ret = vg_scaler_init(&c->s, alg, layout, bpc, src_w, src_h, dst_w,
                              dst_h, d->log)) < 0)
        return ret;
    if ((ret = vg_cuda_device_function(d, "vg_scale_h_8", &c->h8)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_scale_h_16", &c->h16)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_scale_v_8", &c->v8)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_scale_v_16", &c->v16)) < 0)
        goto fail;

    /* the filters, in one upload */
    f[0] = &c->s.h[0];
    f[1] = &c->s.v[0];
    f[2] = &c->s.h[1];
    f[3] = &c->s.v[1];
    for (unsigned i = 0; i < nf; i++)
        total += filter_bytes(f[i]);
    if (!(host = calloc(1, total))) {
        ret = -ENOMEM;
        goto fail;
    }
    if ((ret = VG_DCU(d, cuMemAlloc, &c->taps_buf, total)) < 0)
        goto fail;
    for (unsigned i = 0; i < nf; i++) {
        const size_t pb = (size_t)f[i]->n_out * sizeof(*f[i]->pos);
        const size_t cb =
            (size_t)f[i]->n_out * f[i]->size * sizeof(*f[i]->coef);

        memcpy(host + off, f[i]->pos, pb);
        t[i]->pos = c->taps_buf + off;
        off += vg_cuda_align(pb);
        memcpy(host + off, f[i]->coef, cb);
        t[i]->coef = c->taps_buf + off;
        off += vg_cuda_align(cb);
        t[i]->size = f[i]->size;
        t[i]->n_in = f[i]->n_in;
    }
    if ((ret = VG_DCU(d, cuMemcpyHtoD, c->taps_buf, host, total)) < 0)
        goto fail;

    /* intermediates: per plane, the source's rows at the output's width */
    vg_image_geometry(&dst_geom, layout, bpc, dst_w, dst_h);
    bytes = vg_scaler_src_geometry(&c->s, &c->src);
    c->tmp = c->src;
    total = 0;
    for (unsigned p = 0; p < c->tmp.nb_planes; p++) {
        c->tmp.w[p] = dst_geom.w[p];
        c->tmp.stride[p] =
            (ptrdiff_t)vg_cuda_align((size_t)dst_geom.w[p] * sizeof(int16_t));
        total += (size_t)c->tmp.stride[p] * c->tmp.h[p];
    }
    if ((ret = VG_DCU(d, cuMemAlloc, &c->tmp_buf, total)) < 0 ||
        (ret = VG_DCU(d, cuMemAlloc, &c->src_buf, bytes)) < 0)
        goto fail;
    vg_image_place(&c->tmp, (uintptr_t)c->tmp_buf);
    vg_image_place(&c->src, (uintptr_t)c->src_buf);
    free(host);
    return 0;
fail:
    free(host);
    vg_cuda_scaler_close(c, d);
    return ret;
}

void vg_cuda_scaler_close(VgCudaScaler *c, VgCudaDevice *d)
{
    CUdeviceptr *bufs[] = { &c->taps_buf, &c->tmp_buf, &c->src_buf };

    for (unsigned i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
        if (*bufs[i]) {
            VG_DCU(d, cuMemFree, *bufs[i]);
            *bufs[i] = 0;
        }
    vg_scaler_uninit(&c->s);
}

int vg_cuda_scaler_run(VgCudaScaler *c, VgCudaDevice *d, const VgImage *dst)
{
    VgScaleParams hp = { .bpc = c->s.bpc }, vp = { .bpc = c->s.bpc };
    const unsigned n = c->s.luma_only ? 1 : dst->nb_planes;
    const int wide = c->s.bpc > 8;
    unsigned hw = 0, hh = 0, vw = 0, vh = 0;
    int ret;

    for (unsigned p = 0; p < n; p++) {
        const unsigned k = p ? 1 : 0;

        hp.plane[p] = (VgScalePlane){
            .src = (uint64_t)(uintptr_t)c->src.data[p],
            .dst = (uint64_t)(uintptr_t)c->tmp.data[p],
            .src_pitch = c->src.stride[p],
            .dst_pitch = c->tmp.stride[p],
            .w = dst->w[p],
            .h = c->tmp.h[p],
            .taps = c->h[k],
        };
        vp.plane[p] = (VgScalePlane){
            .src = (uint64_t)(uintptr_t)c->tmp.data[p],
            .dst = (uint64_t)(uintptr_t)dst->data[p],
            .src_pitch = c->tmp.stride[p],
            .dst_pitch = dst->stride[p],
            .w = dst->w[p],
            .h = dst->h[p],
            .taps = c->v[k],
        };
        hw = hp.plane[p].w > hw ? hp.plane[p].w : hw;
        hh = hp.plane[p].h > hh ? hp.plane[p].h : hh;
        vw = vp.plane[p].w > vw ? vp.plane[p].w : vw;
        vh = vp.plane[p].h > vh ? vp.plane[p].h : vh;
    }
    if ((ret = vg_cuda_device_launch(
             d, wide ? c->h16 : c->h8,
             (hw + VG_SCALE_BLOCK_X - 1) / VG_SCALE_BLOCK_X,
             (hh + VG_SCALE_BLOCK_Y - 1) / VG_SCALE_BLOCK_Y, n,
             VG_SCALE_BLOCK_X, VG_SCALE_BLOCK_Y, &hp)) < 0)
        return ret;
    return vg_cuda_device_launch(d, wide ? c->v16 : c->v8,
                                 (vw + VG_SCALE_BLOCK_X - 1) / VG_SCALE_BLOCK_X,
                                 (vh + VG_SCALE_BLOCK_Y - 1) / VG_SCALE_BLOCK_Y,
                                 n, VG_SCALE_BLOCK_X, VG_SCALE_BLOCK_Y, &vp);
}
