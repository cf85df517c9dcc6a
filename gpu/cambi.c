/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI on CUDA. On the device (gpu/cambi.cu), per pass (the distorted
 * luma, and with full_ref the reference): the conversion to 10 bits at the
 * working size, the anti-dithering, the spatial mask, and per scale the
 * decimation, the mode filter and the c-values, into one device area that
 * holds every pass's and scale's c-values of the frame. Each scale's
 * top-k pooling runs on the device where the home's exact shortcut holds
 * (common/features/cambi_params.h: the k largest add up exactly in any order, as their
 * integer sum); the c-values of a scale where it does not hold are
 * written to mapped host memory, and the frame's host step (finish(), on
 * a thread of the engine's host pool, several frames at once) pools that
 * scale with the home's vg_cambi_pool() (cambi.c's quick_select() and the
 * double sum in the order it leaves the values, which no parallel order
 * reproduces). The host step weights the scales, so both backends print
 * the same bits. The set-up, the refusals and the tables are the home's
 * (vg_cambi_setup()), and so are the nearest-sample tables of a resize
 * (vg_cambi_resize_tables(), the CPU's float steps).
 *
 * Frames in flight each need a host buffer for their c-values until
 * finished: the pinned buffers are a pool, under a lock, that grows to the
 * number of frames in flight. With heatmaps_path, every c-value is copied
 * back, and the heatmaps are written from them in collect(), in frame
 * order.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/features/cambi.h"
#include "common/features/cambi_params.h"
#include "gpu/core/feature.h"

_Static_assert(VG_CAMBI_K_MAX_DIFFS == VG_CAMBI_MAX_DIFFS,
               "kernel and home disagree on the contrast steps");
_Static_assert(VG_CAMBI_K_SCALES == VG_CAMBI_SCALES,
               "kernel and home disagree on the scales");
_Static_assert(VG_CAMBI_POOL_SEGS == 2 * VG_CAMBI_SCALES,
               "a pooling segment per pass and scale");

/** One frame's c-values on the host (mapped into the device's space). */
typedef struct CambiHostBuf {
    float *c;
    CUdeviceptr dev; ///< c in the device's space
    unsigned index;
    int busy;
} CambiHostBuf;

typedef struct CambiCuda {
    VgCambiParams p;
    CUfunction f_prep, f_decmode, f_cval;
    CUfunction f_hist1, f_hist2, f_hist3, f_select, f_spill;
    CUdeviceptr mem;
    CUdeviceptr img, msk, rlut, ix[2], iy[2], cval, pool_seg;
    CUdeviceptr simg[VG_CAMBI_SCALES]; ///< each scale's picture (work pitch)
    VgCambiPoolParams pp; ///< the pooling kernels' parameters but res
    unsigned pool_gx;     ///< blocks per segment of the pooling passes
    size_t off[2][VG_CAMBI_SCALES]; ///< c-value offsets (floats) per scale
    unsigned sw[2][VG_CAMBI_SCALES], sh[2][VG_CAMBI_SCALES];
    size_t n_cval;        ///< floats of c-values per frame
    int resize[2];        ///< pass p changes the size
    uint32_t *tab;        ///< host tables (kept for the copies)
    pthread_mutex_t lock; ///< of bufs[].busy
    int lock_init;
    CambiHostBuf **bufs;
    unsigned n_bufs;
    uint64_t n_pooled, n_ordered; ///< scales pooled; of them in cambi.c's order
    VgCambiHeatmaps hm;
} CambiCuda;

static void cambi_cuda_close(VgFeatureCtx *fc)
{
    CambiCuda *s = fc->priv;
    const VgCuda *cu = vg_cuda_fc_device(fc)->cu;

    if (s->n_pooled)
        vg_log(fc->log, VG_LOG_INFO,
               "cambi: %" PRIu64 " of %" PRIu64 " scales "
               "pooled on the host in cambi.c's order, the others by the "
               "exact integer sum on the device",
               s->n_ordered, s->n_pooled);
    if (s->mem)
        VG_CU(cu, fc->log, cuMemFree, s->mem);
    for (unsigned i = 0; i < s->n_bufs; i++) {
        if (s->bufs[i]->c)
            VG_CUX(cu, fc->log, cuMemFreeHost, s->bufs[i]->c);
        free(s->bufs[i]);
    }
    free(s->bufs);
    free(s->tab);
    vg_cambi_heatmaps_close(&s->hm);
    if (s->lock_init)
        pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof(*s));
}

/* rows of scale sc's picture: the larger of the passes' */
static unsigned scale_rows(const CambiCuda *s, int sc)
{
    return s->sh[0][sc] > s->sh[1][sc] ? s->sh[0][sc] : s->sh[1][sc];
}

static int cambi_cuda_init(VgFeatureCtx *fc)
{
    CambiCuda *s = fc->priv;
    VgCambiParams *p = &s->p;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    size_t n, off = 0, tab_n = 0, tab_off[2][2], total;
    const char *env;
    int ret;

    pthread_mutex_init(&s->lock, NULL);
    s->lock_init = 1;
    if ((ret = vg_cambi_open(fc, p, &s->hm)) < 0 || p->all_zero)
        return ret;
    for (int k = 0; k < 1 + p->full_ref; k++) {
        const VgCambiPass *ps = &p->pass[k];
        unsigned w = ps->width, h = ps->height;

        if ((ps->window >> 1) > VG_CAMBI_PAD_MAX) {
            vg_log(fc->log, VG_LOG_ERROR,
                   "cambi: window %u too large for "
                   "the CUDA path",
                   ps->window);
            return -ENOTSUP;
        }
        for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
            if (sc > 0 || p->high_res) {
                w = (w + 1) >> 1;
                h = (h + 1) >> 1;
            }
            s->sw[k][sc] = w;
            s->sh[k][sc] = h;
            s->off[k][sc] = s->n_cval;
            s->n_cval += (size_t)w * h;
        }
        s->resize[k] = ps->width != fc->width || ps->height != fc->height;
        if (s->resize[k]) {
            tab_off[k][0] = tab_n;
            tab_n += ps->width;
            tab_off[k][1] = tab_n;
            tab_n += ps->height;
        }
    }

    if ((ret = vg_cuda_device_function(d, "vg_cambi_prep", &s->f_prep)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_decmode", &s->f_decmode)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_cvalues", &s->f_cval)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_pool_hist1", &s->f_hist1)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_pool_hist2", &s->f_hist2)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_pool_hist3", &s->f_hist3)) <
            0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_pool_select",
                                       &s->f_select)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_cambi_pool_spill", &s->f_spill)) <
            0)
        return ret;
    if (!d->cu->cuMemHostGetDevicePointer) {
        vg_log(fc->log, VG_LOG_ERROR,
               "cambi: the CUDA driver lacks "
               "cuMemHostGetDevicePointer");
        return -ENOSYS;
    }

    /* the 10-bit picture and the mask of the work size, each
     * scale's picture (the largest pass's rows), the reciprocal table, the
     * resize tables, the c-values */
    n = (size_t)p->alloc_w * p->alloc_h;
    total = vg_cuda_align(n * sizeof(uint16_t)) + vg_cuda_align(n) +
            vg_cuda_align(sizeof(p->rlut)) +
            vg_cuda_align(tab_n * sizeof(uint32_t)) +
            vg_cuda_align(s->n_cval * sizeof(float)) +
            vg_cuda_align(VG_CAMBI_POOL_SEGS * sizeof(VgCambiPoolSeg));
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++)
        total += vg_cuda_align((size_t)p->alloc_w * scale_rows(s, sc) *
                               sizeof(uint16_t));
    if ((ret = VG_CU(d->cu, fc->log, cuMemAlloc, &s->mem, total)) < 0)
        goto fail;
#define TAKE(ptr, bytes) (ptr = s->mem + off, off += vg_cuda_align(bytes))
    TAKE(s->img, n * sizeof(uint16_t));
    TAKE(s->msk, n);
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++)
        TAKE(s->simg[sc],
             (size_t)p->alloc_w * scale_rows(s, sc) * sizeof(uint16_t));
    TAKE(s->rlut, sizeof(p->rlut));
    {
        CUdeviceptr tabs;

        TAKE(tabs, tab_n * sizeof(uint32_t));
        for (int k = 0; k < 2; k++) {
            s->ix[k] =
                s->resize[k] ? tabs + tab_off[k][0] * sizeof(uint32_t) : 0;
            s->iy[k] =
                s->resize[k] ? tabs + tab_off[k][1] * sizeof(uint32_t) : 0;
        }
        if (tab_n) {
            if (!(s->tab = malloc(tab_n * sizeof(*s->tab)))) {
                vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
                ret = -ENOMEM;
                goto fail;
            }
            for (int k = 0; k < 2; k++)
                if (s->resize[k])
                    vg_cambi_resize_tables(s->tab + tab_off[k][0],
                                           s->tab + tab_off[k][1], fc->width,
                                           fc->height, p->pass[k].width,
                                           p->pass[k].height);
            if ((ret = VG_CU(d->cu, fc->log, cuMemcpyHtoDAsync, tabs, s->tab,
                             tab_n * sizeof(*s->tab), d->stream)) < 0)
                goto fail;
        }
    }
    TAKE(s->cval, s->n_cval * sizeof(float));
    TAKE(s->pool_seg, VG_CAMBI_POOL_SEGS * sizeof(VgCambiPoolSeg));
#undef TAKE
    /* each pass's scales, in order: the pooling's segments, and the k of
     * spatial_pooling() (max(1, trunc(topk * n)), at most n) */
    s->pp.cval = s->cval;
    s->pp.seg = s->pool_seg;
    /* tests: VG_CAMBI_DEVICE_POOL=0 leaves every scale to the host */
    s->pp.all_to_host =
        (env = getenv("VG_CAMBI_DEVICE_POOL")) && !strcmp(env, "0");
    for (int k = 0; k < 1 + p->full_ref; k++) {
        for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
            const unsigned z = s->pp.nseg++;
            const int n_sc = (int)(s->sw[k][sc] * s->sh[k][sc]);
            const int t = (int)(p->topk * n_sc);
            const unsigned blocks =
                (unsigned)((n_sc +
                            VG_CAMBI_POOL_THREADS * VG_CAMBI_POOL_PER_THREAD -
                            1) /
                           (VG_CAMBI_POOL_THREADS * VG_CAMBI_POOL_PER_THREAD));

            s->pp.off[z] = (int64_t)s->off[k][sc];
            s->pp.n[z] = (uint32_t)n_sc;
            s->pp.k[z] = (uint32_t)(t < 1 ? 1 : t > n_sc ? n_sc : t);
            if (blocks > s->pool_gx)
                s->pool_gx = blocks;
        }
    }
    /* p (and its table) lives as long as the feature */
    if ((ret = VG_CU(d->cu, fc->log, cuMemcpyHtoDAsync, s->rlut, p->rlut,
                     sizeof(p->rlut), d->stream)) < 0)
        goto fail;
    return 0;
fail:
    cambi_cuda_close(fc);
    return ret;
}

static int launch(VgFeatureCtx *fc, CUfunction fn, VgCambiKernelParams *kp)
{
    return vg_cuda_device_launch(
        vg_cuda_fc_device(fc), fn,
        ((unsigned)kp->w + VG_CAMBI_BX - 1) / VG_CAMBI_BX,
        ((unsigned)kp->h + VG_CAMBI_BY - 1) / VG_CAMBI_BY, 1, VG_CAMBI_BX,
        VG_CAMBI_BY, kp);
}

/* queue pass k on picture `in` (device luma) */
static int submit_pass(VgFeatureCtx *fc, int k, const VgImage *in)
{
    CambiCuda *s = fc->priv;
    const VgCambiParams *p = &s->p;
    const VgCambiPass *ps = &p->pass[k];
    const unsigned bpc = in->bpc;
    const unsigned down = bpc > 10 ? bpc - 10 : 0;
    VgCambiKernelParams kp;
    int ret;

    memset(&kp, 0, sizeof(kp));
    kp.pitch = p->alloc_w;
    kp.rlut = s->rlut;
    kp.pad = (int32_t)(ps->window >> 1);
    kp.mask_index = ps->mask_index;
    kp.band_base = p->band_base;
    kp.band_size = p->band_size;
    kp.num_diffs = (int32_t)p->num_diffs;
    kp.vlt_luma = p->vlt_luma;
    for (unsigned d = 0; d < VG_CAMBI_MAX_DIFFS; d++) {
        kp.tvi_for_diff[d] = p->tvi_for_diff[d];
        kp.diff_weights[d] = p->diff_weights[d];
    }

    /* the work picture (10 bits at the working size, anti-dithered below
     * 10 encoding bits) and its spatial mask, at scale 0's samples */
    kp.src = (uint64_t)(uintptr_t)in->data[0];
    kp.src_pitch = in->stride[0];
    kp.dst = s->img;
    kp.mdst = s->msk;
    kp.ix = s->ix[k];
    kp.iy = s->iy[k];
    kp.w = (int32_t)ps->width;
    kp.h = (int32_t)ps->height;
    kp.in_bpc = (int32_t)bpc;
    kp.up = bpc < 10 ? 10 - (int32_t)bpc : 0;
    kp.down = (int32_t)down;
    kp.rnd = down ? 1 << (down - 1) : 0;
    kp.dither = p->enc_bitdepth < 10;
    kp.dec = p->high_res ? 1 : 0;
    if ((ret = vg_cuda_device_launch(
             vg_cuda_fc_device(fc), s->f_prep,
             (s->sw[k][0] + VG_CAMBI_BX - 1) / VG_CAMBI_BX,
             (s->sh[k][0] + VG_CAMBI_BY - 1) / VG_CAMBI_BY, 1, VG_CAMBI_BX,
             VG_CAMBI_BY, &kp)) < 0)
        return ret;

    /* each scale's picture: decimated (but scale 0) and mode-filtered from
     * the previous one; its mask is scale 0's every (1 << sc)-th sample.
     * Then the c-values of every scale in one launch, the smallest scale's
     * tiles first. */
    kp.msrc = s->msk;
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
        VgCambiScale *e = &kp.scale[VG_CAMBI_SCALES - 1 - sc];

        kp.w = (int32_t)s->sw[k][sc];
        kp.h = (int32_t)s->sh[k][sc];
        kp.src = sc ? s->simg[sc - 1] : s->img;
        kp.dst = s->simg[sc];
        kp.dec = sc > 0;
        if ((ret = launch(fc, s->f_decmode, &kp)) < 0)
            return ret;
        e->src = s->simg[sc];
        e->cval = s->cval + s->off[k][sc] * sizeof(float);
        e->w = kp.w;
        e->h = kp.h;
        e->mshift = sc;
    }
    kp.n_scales = VG_CAMBI_SCALES;
    vg_cambi_cval_blocks(&kp);
    return vg_cuda_device_launch(vg_cuda_fc_device(fc), s->f_cval,
                                 (unsigned)kp.n_blocks, 1, 1, VG_CAMBI_TILE,
                                 VG_CAMBI_TILE, &kp);
}

/* a free pinned buffer, marked busy for frame `index` (the pool grows
 * with the frames in flight; finish() gives buffers back from other
 * threads) */
static CambiHostBuf *take_buf(VgFeatureCtx *fc, unsigned index)
{
    CambiCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    CambiHostBuf *b = NULL, **bufs;
    void *c;

    pthread_mutex_lock(&s->lock);
    for (unsigned i = 0; !b && i < s->n_bufs; i++)
        if (!s->bufs[i]->busy)
            b = s->bufs[i];
    if (b) {
        b->index = index;
        b->busy = 1;
    }
    pthread_mutex_unlock(&s->lock);
    if (b)
        return b;
    /* only this thread adds buffers: the array may grow outside the lock,
     * but others read it under the lock */
    if (!(b = calloc(1, sizeof(*b)))) {
        vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
        return NULL;
    }
    if (VG_DCUX(d, cuMemHostAlloc, &c, s->n_cval * sizeof(float),
                VG_CU_MEMHOSTALLOC_PORTABLE | VG_CU_MEMHOSTALLOC_DEVICEMAP) <
        0) {
        free(b);
        return NULL;
    }
    if (VG_DCUX(d, cuMemHostGetDevicePointer, &b->dev, c, 0) < 0) {
        VG_DCUX(d, cuMemFreeHost, c);
        free(b);
        return NULL;
    }
    b->c = c;
    b->index = index;
    b->busy = 1;
    pthread_mutex_lock(&s->lock);
    if (!(bufs = realloc(s->bufs, (s->n_bufs + 1) * sizeof(*bufs)))) {
        pthread_mutex_unlock(&s->lock);
        VG_DCUX(d, cuMemFreeHost, c);
        free(b);
        vg_log(fc->log, VG_LOG_ERROR, "cambi: out of memory");
        return NULL;
    }
    s->bufs = bufs;
    s->bufs[s->n_bufs++] = b;
    pthread_mutex_unlock(&s->lock);
    return b;
}

/* the busy buffer of frame `index`, or NULL (logged) */
static CambiHostBuf *frame_buf(VgFeatureCtx *fc, unsigned index)
{
    CambiCuda *s = fc->priv;
    CambiHostBuf *b = NULL;

    pthread_mutex_lock(&s->lock);
    for (unsigned i = 0; !b && i < s->n_bufs; i++)
        if (s->bufs[i]->busy && s->bufs[i]->index == index)
            b = s->bufs[i];
    pthread_mutex_unlock(&s->lock);
    if (!b)
        vg_log(fc->log, VG_LOG_ERROR, "cambi: no c-values for frame %u", index);
    return b;
}

static void give_buf(CambiCuda *s, CambiHostBuf *b)
{
    pthread_mutex_lock(&s->lock);
    b->busy = 0;
    pthread_mutex_unlock(&s->lock);
}

/* the pooling passes (common/features/cambi_params.h) into the frame's results res, and
 * the c-values the host needs into b: those of the segments left to it,
 * or with heatmaps every one */
static int submit_pooling(VgFeatureCtx *fc, CambiHostBuf *b, CUdeviceptr res)
{
    CambiCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    VgCambiPoolParams pp = s->pp;
    const unsigned nseg = (unsigned)pp.nseg;
    int ret;

    pp.res = res;
    pp.spill = b->dev;
    if ((ret = VG_DCU(d, cuMemsetD8Async, s->pool_seg, 0,
                      nseg * sizeof(VgCambiPoolSeg), d->stream)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->f_hist1, s->pool_gx, nseg, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0)
        return ret;
    pp.level = VG_CAMBI_POOL_LEVEL1;
    if ((ret = vg_cuda_device_launch(d, s->f_select, nseg, 1, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->f_hist2, s->pool_gx, nseg, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0)
        return ret;
    pp.level = VG_CAMBI_POOL_LEVEL2;
    if ((ret = vg_cuda_device_launch(d, s->f_select, nseg, 1, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->f_hist3, s->pool_gx, nseg, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0)
        return ret;
    pp.level = VG_CAMBI_POOL_LEVEL3;
    if ((ret = vg_cuda_device_launch(d, s->f_select, nseg, 1, 1,
                                     VG_CAMBI_POOL_THREADS, 1, &pp)) < 0)
        return ret;
    if (s->hm.on)
        return VG_DCU(d, cuMemcpyDtoHAsync, b->c, s->cval,
                      s->n_cval * sizeof(float), d->stream);
    return vg_cuda_device_launch(d, s->f_spill, s->pool_gx, nseg, 1,
                                 VG_CAMBI_POOL_THREADS, 1, &pp);
}

static int cambi_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    CambiCuda *s = fc->priv;
    CambiHostBuf *b;
    int ret;

    if (s->p.all_zero)
        return 0;
    if ((ret = submit_pass(fc, 0, f->dis)) < 0 ||
        (s->p.full_ref && (ret = submit_pass(fc, 1, f->ref)) < 0))
        return ret;
    if (!(b = take_buf(fc, f->index)))
        return -ENOMEM;
    if ((ret = submit_pooling(fc, b, f->res)) < 0) {
        give_buf(s, b);
        return ret;
    }
    return 0;
}

/* in frame order: the heatmaps, from the c-values before the pooling
 * reorders them; a picture of zeros is scored here */
static int cambi_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    CambiCuda *s = fc->priv;
    const VgCambiParams *p = &s->p;
    CambiHostBuf *b;
    int ret;

    if (p->all_zero) {
        if (s->hm.on &&
            (ret = vg_cambi_heatmaps_zero(&s->hm, p, f->index, fc->log)) < 0)
            return ret;
        return vg_cambi_emit(fc, p, f->index, 0.0, 0.0);
    }
    if (!s->hm.on)
        return 0;
    if (!(b = frame_buf(fc, f->index)))
        return -EINVAL;
    for (int sc = 0; sc < VG_CAMBI_SCALES; sc++)
        if ((ret = vg_cambi_heatmaps_write(&s->hm, sc, f->index,
                                           b->c + s->off[0][sc], s->sw[0][sc],
                                           s->sh[0][sc], fc->log)) < 0)
            return ret;
    return 0;
}

/* the host step: each scale's pooled score, from the device's exact sum
 * where it settled the scale (with the home's division), else from its
 * c-values in cambi.c's order; the scales weighted */
static int cambi_cuda_finish(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    CambiCuda *s = fc->priv;
    const VgCambiParams *p = &s->p;
    const VgCambiPoolResult *res = f->host_res;
    double score[2] = { 0.0, 0.0 };
    unsigned spilled = 0;
    CambiHostBuf *b;

    if (p->all_zero)
        return 0;
    if (!(b = frame_buf(fc, f->index)))
        return -EINVAL;
    for (int k = 0; k < 1 + p->full_ref; k++) {
        double scores[VG_CAMBI_SCALES];

        for (int sc = 0; sc < VG_CAMBI_SCALES; sc++) {
            const VgCambiPoolResult *r = res + k * VG_CAMBI_SCALES + sc;

            if (r->exact) {
                scores[sc] = vg_cambi_pool_mean(r);
            } else {
                scores[sc] = vg_cambi_pool(b->c + s->off[k][sc], p->topk,
                                           s->sw[k][sc], s->sh[k][sc]);
                spilled++;
            }
        }
        score[k] = vg_cambi_score(scores, p->pass[k].window);
    }
    give_buf(s, b);
    pthread_mutex_lock(&s->lock);
    s->n_pooled += (1 + p->full_ref) * VG_CAMBI_SCALES;
    s->n_ordered += spilled;
    pthread_mutex_unlock(&s->lock);
    return vg_cambi_emit(fc, p, f->index, score[0], score[1]);
}

const VgCudaFeatureImpl vg_cuda_cambi = {
    .priv_size = sizeof(CambiCuda),
    .res_size = VG_CAMBI_POOL_SEGS * sizeof(VgCambiPoolResult),
    .init = cambi_cuda_init,
    .submit = cambi_cuda_submit,
    .collect = cambi_cuda_collect,
    .finish = cambi_cuda_finish,
    .close = cambi_cuda_close,
};
