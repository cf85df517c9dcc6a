/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float VIF on CUDA: the filters, the statistic, the row sums and their
 * per-scale totals run on the device (gpu/float_vif.cu) in the CPU path's
 * order and return eight floats per frame; the tables, the filters and
 * the scores are the feature's home's (common/features/float_vif.c), so
 * both backends print the same bits.
 */

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/features/float_vif.h"
#include "common/features/float_vif_params.h"
#include "gpu/core/feature.h"

typedef struct FvifCuda {
    VgFvifSetup s;
    CUfunction f_load, f_pre, f_dec[4], f_map[4], f_rows;
    CUdeviceptr mem;
    CUdeviceptr counter; ///< vg_fvif_rows' block counter
    CUdeviceptr in[2], pre[2], lvl[2][2], num, den, rows_num, rows_den, xi, xw,
        yi, yw;
    int32_t sc_nd[4], strip_off[5];
} FvifCuda;

static void fvif_cuda_close(VgFeatureCtx *fc)
{
    FvifCuda *c = fc->priv;

    if (c->mem)
        VG_CU(vg_cuda_fc_device(fc)->cu, fc->log, cuMemFree, c->mem);
    c->mem = 0;
    vg_float_vif_free(&c->s);
}

/* filter lengths with kernels of their own (libvmaf's default filters) */
static const int dec_taps[] = { 9, 5, 3, 0 };
static const int map_taps[] = { 17, 9, 5, 3, 0 };

/* base's kernel for a filter of taps: "<base><taps>" where there is one,
 * else base, which reads the length from its parameters */
static int kernel_for(VgCudaDevice *e, const char *base, int taps,
                      const int *lens, CUfunction *fn)
{
    char name[32];

    for (; *lens; lens++)
        if (*lens == taps) {
            snprintf(name, sizeof(name), "%s%d", base, taps);
            return vg_cuda_device_function(e, name, fn);
        }
    return vg_cuda_device_function(e, base, fn);
}

static int fvif_cuda_init(VgFeatureCtx *fc)
{
    FvifCuda *c = fc->priv;
    VgFvifSetup *s = &c->s;
    VgCudaDevice *e = fc->backend;
    const VgCuda *cu = e->cu;
    size_t n_in, n_nd = 0, n_pre, n_lvl, n_tab_x, n_tab_y, off = 0;
    int ret;

    if ((ret = vg_float_vif_setup(s, fc->opts, fc->width, fc->height,
                                  fc->log)) < 0)
        return ret;
    if ((ret = vg_cuda_device_function(e, "vg_fvif_load", &c->f_load)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_fvif_prescale", &c->f_pre)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_fvif_rows", &c->f_rows)) < 0)
        goto fail;
    for (int sc = 0; sc < 4; sc++)
        if ((sc > 0 && (ret = kernel_for(e, "vg_fvif_dec", s->taps[sc],
                                         dec_taps, &c->f_dec[sc])) < 0) ||
            (ret = kernel_for(e, "vg_fvif_map", s->taps[sc], map_taps,
                              &c->f_map[sc])) < 0)
            goto fail;
    for (int sc = (int)s->first, strips = 0; sc < 4; sc++) {
        c->sc_nd[sc] = (int32_t)n_nd;
        c->strip_off[sc] = strips;
        n_nd += (size_t)s->sc_w[sc] * s->sc_h[sc];
        strips += (s->sc_h[sc] + VG_FVIF_ROWS_STRIP - 1) / VG_FVIF_ROWS_STRIP;
        c->strip_off[4] = strips;
    }

    /* one allocation, in floats (int32 tables share the size): the rows
     * kernel's block counter, the inputs with offset and the prescaled pictures (prescale only),
     * scales 1..3 (ping-pong), the per-sample num and den of every
     * computed scale, row sums, prescale tables */
    n_in = s->prescale ? (size_t)fc->width * fc->height : 0;
    n_pre = s->prescale ? (size_t)s->sw * s->sh : 0;
    n_lvl = (size_t)s->sc_w[1] * s->sc_h[1];
    n_tab_x = s->prescale ? (size_t)s->sw * VG_VIF_PRESCALE_TAPS : 0;
    n_tab_y = s->prescale ? (size_t)s->sh * VG_VIF_PRESCALE_TAPS : 0;
    {
        const size_t n = 1 + 2 * n_in + 2 * n_pre + 4 * n_lvl + 2 * n_nd +
                         2 * (size_t)s->rows + 2 * n_tab_x + 2 * n_tab_y;
        if ((ret = VG_CU(cu, fc->log, cuMemAlloc, &c->mem, n * sizeof(float))) <
            0)
            goto fail;
    }
#define TAKE(ptr, count) (ptr = c->mem + off * sizeof(float), off += (count))
    TAKE(c->counter, 1);
    TAKE(c->in[0], n_in);
    TAKE(c->in[1], n_in);
    TAKE(c->pre[0], n_pre);
    TAKE(c->pre[1], n_pre);
    for (int k = 0; k < 4; k++)
        TAKE(c->lvl[k / 2][k % 2], n_lvl);
    TAKE(c->num, n_nd);
    TAKE(c->den, n_nd);
    TAKE(c->rows_num, s->rows);
    TAKE(c->rows_den, s->rows);
    TAKE(c->xi, n_tab_x);
    TAKE(c->xw, n_tab_x);
    TAKE(c->yi, n_tab_y);
    TAKE(c->yw, n_tab_y);
#undef TAKE
    if ((ret = VG_CU(cu, fc->log, cuMemsetD8Async, c->counter, 0,
                     sizeof(unsigned), e->stream)) < 0)
        goto fail;
    /* the tables stay in s for the life of the feature, so the
     * asynchronous copies may read them */
    if (s->prescale &&
        ((ret = VG_CU(cu, fc->log, cuMemcpyHtoDAsync, c->xi, s->ax.idx,
                      n_tab_x * sizeof(int32_t), e->stream)) < 0 ||
         (ret = VG_CU(cu, fc->log, cuMemcpyHtoDAsync, c->xw, s->ax.w,
                      n_tab_x * sizeof(float), e->stream)) < 0 ||
         (ret = VG_CU(cu, fc->log, cuMemcpyHtoDAsync, c->yi, s->ay.idx,
                      n_tab_y * sizeof(int32_t), e->stream)) < 0 ||
         (ret = VG_CU(cu, fc->log, cuMemcpyHtoDAsync, c->yw, s->ay.w,
                      n_tab_y * sizeof(float), e->stream)) < 0))
        goto fail;
    return 0;
fail:
    fvif_cuda_close(fc);
    return ret;
}

static int launch2d(VgFeatureCtx *fc, CUfunction fn, unsigned w, unsigned h,
                    unsigned planes, VgFvifKernelParams *p)
{
    return vg_cuda_device_launch(
        vg_cuda_fc_device(fc), fn, (w + VG_FVIF_BX - 1) / VG_FVIF_BX,
        (h + VG_FVIF_BY - 1) / VG_FVIF_BY, planes, VG_FVIF_BX, VG_FVIF_BY, p);
}

static int fvif_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    FvifCuda *c = fc->priv;
    const VgFvifSetup *s = &c->s;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    VgFvifKernelParams p;
    CUdeviceptr cur[2];
    int64_t cur_pitch;
    int cur_off, ret;

    memset(&p, 0, sizeof(p));
    p.num = c->num;
    p.den = c->den;
    p.counter = c->counter;
    p.rows_num = c->rows_num;
    p.rows_den = c->rows_den;
    p.xi = c->xi;
    p.xw = c->xw;
    p.yi = c->yi;
    p.yw = c->yw;
    p.res = f->res;
    p.method = s->method;
    p.first = (int32_t)s->first;
    p.egl = s->egl;
    p.sigma_max_inv = s->sigma_max_inv;
    p.sigma_nsq = s->sigma_nsq;
    for (int sc = 0; sc < 4; sc++) {
        p.sc_w[sc] = (int32_t)s->sc_w[sc];
        p.sc_h[sc] = (int32_t)s->sc_h[sc];
        p.sc_off[sc] = (int32_t)s->row_off[sc];
        p.sc_nd[sc] = c->sc_nd[sc];
        p.strip_off[sc] = c->strip_off[sc];
    }
    p.strip_off[4] = c->strip_off[4];

    /* scale 0: the float luma, offset added where it is read */
    cur[0] = f->ref_f;
    cur[1] = f->dis_f;
    cur_pitch = (int64_t)f->f_pitch;
    cur_off = 1;
    if (s->prescale) {
        /* picture_copy() first, then the resize */
        p.src[0] = f->ref_f;
        p.src[1] = f->dis_f;
        p.src_pitch = (int64_t)f->f_pitch;
        p.dst[0] = c->in[0];
        p.dst[1] = c->in[1];
        p.w = (int32_t)s->w;
        p.h = (int32_t)s->h;
        if ((ret = launch2d(fc, c->f_load, s->w, s->h, 2, &p)) < 0)
            return ret;
        p.src[0] = c->in[0];
        p.src[1] = c->in[1];
        p.src_w = (int32_t)s->w;
        p.src_h = (int32_t)s->h;
        p.dst[0] = c->pre[0];
        p.dst[1] = c->pre[1];
        p.w = (int32_t)s->sw;
        p.h = (int32_t)s->sh;
        if ((ret = launch2d(fc, c->f_pre, s->sw, s->sh, 2, &p)) < 0)
            return ret;
        cur[0] = c->pre[0];
        cur[1] = c->pre[1];
        cur_pitch = (int64_t)s->sw * sizeof(float);
        cur_off = 0;
    }
    for (unsigned sc = 0; sc < 4; sc++) {
        p.taps = s->taps[sc];
        memcpy(p.filter, s->filter[sc], sizeof(p.filter));
        p.src[0] = cur[0];
        p.src[1] = cur[1];
        p.src_pitch = cur_pitch;
        p.load_off = cur_off;
        if (sc > 0) {
            /* scale sc's filter, then every second row and column */
            const unsigned tw = (VG_FVIF_TILE_THREADS - s->taps[sc]) / 2 + 1;

            p.src_w = (int32_t)s->sc_w[sc - 1];
            p.src_h = (int32_t)s->sc_h[sc - 1];
            p.dst[0] = c->lvl[sc & 1][0];
            p.dst[1] = c->lvl[sc & 1][1];
            p.w = (int32_t)s->sc_w[sc];
            p.h = (int32_t)s->sc_h[sc];
            if ((ret = vg_cuda_device_launch(
                     d, c->f_dec[sc], (s->sc_w[sc] + tw - 1) / tw,
                     (s->sc_h[sc] + VG_FVIF_TILE_ROWS - 1) / VG_FVIF_TILE_ROWS,
                     1, VG_FVIF_TILE_THREADS, 1, &p)) < 0)
                return ret;
            cur[0] = p.src[0] = c->lvl[sc & 1][0];
            cur[1] = p.src[1] = c->lvl[sc & 1][1];
            cur_pitch = p.src_pitch = (int64_t)s->sc_w[sc] * sizeof(float);
            cur_off = p.load_off = 0;
        }
        if (sc < s->first)
            continue;
        {
            const unsigned tw = VG_FVIF_TILE_THREADS - 2 * (s->taps[sc] / 2);

            p.w = (int32_t)s->sc_w[sc];
            p.h = (int32_t)s->sc_h[sc];
            p.nd_off = c->sc_nd[sc];
            if ((ret = vg_cuda_device_launch(
                     d, c->f_map[sc], (s->sc_w[sc] + tw - 1) / tw,
                     (s->sc_h[sc] + VG_FVIF_TILE_ROWS - 1) / VG_FVIF_TILE_ROWS,
                     1, VG_FVIF_TILE_THREADS, 1, &p)) < 0)
                return ret;
        }
    }
    return vg_cuda_device_launch(d, c->f_rows, (unsigned)c->strip_off[4], 1, 1,
                                 VG_FVIF_ROWS_THREADS, 1, &p);
}

static int fvif_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    const FvifCuda *c = fc->priv;
    const float *r = f->host_res;
    float num[4], den[4];

    for (int sc = 0; sc < 4; sc++) {
        num[sc] = r[2 * sc];
        den[sc] = r[2 * sc + 1];
    }
    return vg_float_vif_emit(fc, &c->s, f->index, num, den);
}

const VgCudaFeatureImpl vg_cuda_float_vif = {
    .priv_size = sizeof(FvifCuda),
    .needs = VG_CUDA_NEED_FLOAT_LUMA,
    .res_size = 8 * sizeof(float),
    .init = fvif_cuda_init,
    .submit = fvif_cuda_submit,
    .collect = fvif_cuda_collect,
    .close = fvif_cuda_close,
};
