/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED on CUDA, shared by speed_chroma and speed_temporal: buffers,
 * prescaler tables and launches of gpu/speed.cuh.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/fplane.h"
#include "gpu/speed.h"

static unsigned blocks(unsigned n, unsigned b)
{
    return (n + b - 1) / b;
}

void vg_cuda_speed_close(VgFeatureCtx *fc, VgCudaSpeed *s)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);

    if (s->mem)
        VG_DCU(d, cuMemFree, s->mem);
    s->mem = 0;
    free(s->tab_i);
    free(s->tab_w);
    s->tab_i = NULL;
    s->tab_w = NULL;
    for (unsigned i = 0; i < s->n_spare; i++) {
        vg_speed_free(s->spare[i]);
        free(s->spare[i]);
    }
    free(s->spare);
    s->spare = NULL;
    s->n_spare = s->n_made = 0;
    if (s->lock_init)
        pthread_mutex_destroy(&s->lock);
    s->lock_init = 0;
    vg_speed_free(&s->speed);
}

VgSpeed *vg_cuda_speed_take(VgFeatureCtx *fc, VgCudaSpeed *s)
{
    VgSpeed *sp = NULL, **spare;

    pthread_mutex_lock(&s->lock);
    if (s->n_spare) {
        sp = s->spare[--s->n_spare];
    } else if ((spare = realloc(s->spare, (s->n_made + 1) * sizeof(*spare)))) {
        /* room to give every state made back */
        s->spare = spare;
        s->n_made++;
    } else {
        pthread_mutex_unlock(&s->lock);
        vg_log(fc->log, VG_LOG_ERROR, "%s: out of memory", fc->desc->name);
        return NULL;
    }
    pthread_mutex_unlock(&s->lock);
    if (sp)
        return sp;
    if (!(sp = malloc(sizeof(*sp))) ||
        vg_speed_init(sp, &s->speed.p, s->speed.w, s->speed.h, fc->desc->name,
                      fc->log) < 0) {
        if (!sp)
            vg_log(fc->log, VG_LOG_ERROR, "%s: out of memory", fc->desc->name);
        free(sp);
        pthread_mutex_lock(&s->lock);
        s->n_made--;
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    return sp;
}

void vg_cuda_speed_give(VgCudaSpeed *s, VgSpeed *sp)
{
    pthread_mutex_lock(&s->lock);
    s->spare[s->n_spare++] = sp;
    pthread_mutex_unlock(&s->lock);
}

size_t vg_cuda_speed_res_size(const VgCudaSpeed *s)
{
    return (size_t)s->npics *
           ((size_t)s->speed.dw * s->speed.dh + VG_SPEED_COV) * sizeof(float);
}

/* the host tables of one axis, every index checked against the plane */
static int axis_tables(VgFeatureCtx *fc, const VgSpeed *sp, int vertical,
                       int *idx, float *wt)
{
    const unsigned n_out = vertical ? sp->sh : sp->sw;
    const int n_in = (int)(vertical ? sp->h : sp->w);

    vg_speed_prescale_axis(sp, vertical, idx, wt);
    for (size_t k = 0; k < (size_t)n_out * VG_VIF_PRESCALE_TAPS; k++)
        if (idx[k] < 0 || idx[k] >= n_in) {
            vg_log(fc->log, VG_LOG_ERROR,
                   "%s: the prescaler reads sample "
                   "%d of %d; not supported on CUDA",
                   fc->desc->name, idx[k], n_in);
            return -ENOTSUP;
        }
    return 0;
}

int vg_cuda_speed_init(VgFeatureCtx *fc, VgCudaSpeed *s, unsigned npics,
                       unsigned bpc)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const VgSpeed *sp = &s->speed;
    const int hbd = bpc > 8;
    const size_t n_dec = (size_t)npics * sp->dw * sp->dh;
    size_t n_pre = 0, n_tab_x = 0, n_tab_y = 0, off = 0;
    int ret;

    pthread_mutex_init(&s->lock, NULL);
    s->lock_init = 1;
    s->npics = npics;
    if (npics > VG_SPEED_MAX_PICS || sp->taps_aa > VG_SPEED_MAX_TAPS ||
        sp->taps4 > VG_SPEED_MAX_TAPS) {
        vg_log(fc->log, VG_LOG_ERROR, "%s: %d filter taps; CUDA supports %d",
               fc->desc->name, sp->taps_aa, VG_SPEED_MAX_TAPS);
        return -ENOTSUP;
    }
    /* prescale(): a picture of the same size is copied as it is */
    s->resample = sp->prescale && (sp->sw != sp->w || sp->sh != sp->h);
    if (s->resample) {
        n_pre = (size_t)npics * sp->sw * sp->sh;
        n_tab_x = (size_t)sp->sw * VG_VIF_PRESCALE_TAPS;
        n_tab_y = (size_t)sp->sh * VG_VIF_PRESCALE_TAPS;
        if (!(s->tab_i = malloc((n_tab_x + n_tab_y) * sizeof(*s->tab_i))) ||
            !(s->tab_w = malloc((n_tab_x + n_tab_y) * sizeof(*s->tab_w)))) {
            vg_log(fc->log, VG_LOG_ERROR, "%s: out of memory", fc->desc->name);
            return -ENOMEM;
        }
        if ((ret = axis_tables(fc, sp, 0, s->tab_i, s->tab_w)) < 0 ||
            (ret = axis_tables(fc, sp, 1, s->tab_i + n_tab_x,
                               s->tab_w + n_tab_x)) < 0)
            return ret;
    }
    if ((ret = vg_cuda_device_function(
             d, hbd ? "vg_speed_prescale_16" : "vg_speed_prescale_8",
             &s->prescale)) < 0 ||
        (ret = vg_cuda_device_function(
             d, hbd ? "vg_speed_aa_v_16" : "vg_speed_aa_v_8", &s->aa_v)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_speed_aa_h", &s->aa_h)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_speed_lm_v", &s->lm_v)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_speed_lm_h", &s->lm_h)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_speed_means", &s->means_fn)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_speed_cov", &s->cov_fn)) < 0)
        return ret;
    /* every buffer holds 4-byte elements: one allocation, float offsets */
    if ((ret = VG_DCU(d, cuMemAlloc, &s->mem,
                      (n_pre + (size_t)npics * sp->dh * sp->sw + 2 * n_dec +
                       (size_t)npics * VG_SPEED_EB + 2 * (n_tab_x + n_tab_y)) *
                          sizeof(float))) < 0)
        return ret;
#define TAKE(ptr, count) (ptr = s->mem + off * sizeof(float), off += (count))
    TAKE(s->pre, n_pre);
    TAKE(s->col, (size_t)npics * sp->dh * sp->sw);
    TAKE(s->dec, n_dec);
    TAKE(s->tmp, n_dec);
    TAKE(s->means, (size_t)npics * VG_SPEED_EB);
    TAKE(s->xi, n_tab_x);
    TAKE(s->yi, n_tab_y);
    TAKE(s->xw, n_tab_x);
    TAKE(s->yw, n_tab_y);
#undef TAKE
    /* the tables stay in s for the life of the feature, so the
     * asynchronous copies may read them */
    if (s->resample && ((ret = VG_DCU(d, cuMemcpyHtoDAsync, s->xi, s->tab_i,
                                      (n_tab_x + n_tab_y) * sizeof(*s->tab_i),
                                      d->stream)) < 0 ||
                        (ret = VG_DCU(d, cuMemcpyHtoDAsync, s->xw, s->tab_w,
                                      (n_tab_x + n_tab_y) * sizeof(*s->tab_w),
                                      d->stream)) < 0))
        return ret;
    return 0;
}

int vg_cuda_speed_submit(VgFeatureCtx *fc, const VgCudaSpeed *s,
                         const uint64_t *a, const uint64_t *b, size_t pitch,
                         CUdeviceptr out)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const VgSpeed *sp = &s->speed;
    const unsigned n = s->npics;
    VgSpeedKernelParams p;
    int ret;

    memset(&p, 0, sizeof(p));
    for (unsigned z = 0; z < n; z++) {
        p.a[z] = a[z];
        p.b[z] = b[z];
    }
    p.pitch = (int64_t)pitch;
    p.scaler = vg_fplane_scaler(fc->bpc);
    p.w = (int32_t)sp->w;
    p.h = (int32_t)sp->h;
    p.sw = (int32_t)sp->sw;
    p.sh = (int32_t)sp->sh;
    p.dw = (int32_t)sp->dw;
    p.dh = (int32_t)sp->dh;
    p.method = sp->p.method;
    p.resample = s->resample;
    p.xi = (uint64_t)s->xi;
    p.xw = (uint64_t)s->xw;
    p.yi = (uint64_t)s->yi;
    p.yw = (uint64_t)s->yw;
    p.pre = (uint64_t)s->pre;
    p.col = (uint64_t)s->col;
    p.dec = (uint64_t)s->dec;
    p.tmp = (uint64_t)s->tmp;
    p.out = (uint64_t)out;
    p.subw = (int32_t)sp->subw;
    p.subh = (int32_t)sp->subh;
    p.means = (uint64_t)s->means;
    /* the covariance matrices follow the decimated pictures */
    p.cov = (uint64_t)(out + (size_t)n * sp->dw * sp->dh * sizeof(float));
    p.taps_aa = sp->taps_aa;
    p.taps4 = sp->taps4;
    memcpy(p.f_aa, sp->filter_aa, (size_t)sp->taps_aa * sizeof(float));
    memcpy(p.f4, sp->filter4, (size_t)sp->taps4 * sizeof(float));

    if ((s->resample && (ret = vg_cuda_device_launch(
                             d, s->prescale, blocks(sp->sw, VG_SPEED_BX),
                             blocks(sp->sh, VG_SPEED_BY), n, VG_SPEED_BX,
                             VG_SPEED_BY, &p)) < 0) ||
        (ret = vg_cuda_device_launch(d, s->aa_v, blocks(sp->sw, VG_SPEED_BX),
                                     blocks(sp->dh, VG_SPEED_BY), n,
                                     VG_SPEED_BX, VG_SPEED_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->aa_h, blocks(sp->dw, VG_SPEED_BX),
                                     blocks(sp->dh, VG_SPEED_BY), n,
                                     VG_SPEED_BX, VG_SPEED_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->lm_v, blocks(sp->dw, VG_SPEED_BX),
                                     blocks(sp->dh, VG_SPEED_BY), n,
                                     VG_SPEED_BX, VG_SPEED_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->lm_h, blocks(sp->dw, VG_SPEED_BX),
                                     blocks(sp->dh, VG_SPEED_BY), n,
                                     VG_SPEED_BX, VG_SPEED_BY, &p)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->means_fn, 1, 1, n, VG_SPEED_BX, 1,
                                     &p)) < 0)
        return ret;
    return vg_cuda_device_launch(
        d, s->cov_fn,
        blocks(VG_SPEED_EB * (VG_SPEED_EB + 1) / 2, VG_SPEED_BX * VG_SPEED_BY),
        1, n, VG_SPEED_BX, VG_SPEED_BY, &p);
}
