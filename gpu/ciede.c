/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * ciede on CUDA. Per frame, on the feature's stream:
 *  1. vg_ciede_de00 (gpu/ciede.cu) writes every pixel's ΔE00 as a double,
 *     or records the pixel where it cannot settle the CPU's bits: most of
 *     those (about 0.01% of the pixels of random pictures) need only
 *     glibc's powf(cbp, 7), the others (about one in 16 million)
 *     everything;
 *  2. the record count comes back to pinned memory and a stream callback
 *     computes, on the host, powf(cbp, 7) or the pixel's ΔE00
 *     (common/features/ciede.c), over the record (mapped host memory, no copy);
 *  3. vg_ciede_settle finishes the pixels with the host's powf and puts
 *     every recorded pixel in place, and the sequential sum
 *     (gpu/core/seqsum.c) adds the doubles in the CPU's order into the result.
 * The score is the home's (common/features/ciede.c), so both backends
 * print the same bits.
 *
 * The records hold up to max(2^16, w * h / 32) pixels (the environment
 * variable VG_CIEDE_RECORDS sets another number, for tests). A frame with more
 * (a picture made of few colours whose ΔE00 the device cannot settle)
 * is scored on the host instead: collect() copies the frame's pictures
 * back on the engine stream, waits for it and runs common/features/ciede.c on them.
 * So is every frame when this process's powf is not glibc's
 * (vg_ciede_host_powf_agrees()): the device reproduces glibc's powf(x, 7) only.
 *
 * Every frame's work runs on the feature's one stream in order, so the
 * frames in flight share the ΔE00 buffer, the records and the pinned
 * count.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/features/ciede.h"
#include "common/features/ciede_params.h"
#include "gpu/core/feature.h"
#include "gpu/core/seqsum.h"

/* blocks of vg_ciede_settle: its records are a few thousand */
#define SETTLE_BLOCKS 264

typedef struct CiedeCuda {
    CUfunction de00, settle;
    VgCudaSeqsum sums;
    CUdeviceptr de;       ///< double[w * h]
    CUdeviceptr count;    ///< uint32, device
    uint32_t *count_host; ///< pinned copy for the callback
    VgCiedeRecord *rec;   ///< mapped host memory, cap records
    CUdeviceptr rec_dev;  ///< its device address
    uint32_t cap;
    int host_only; ///< the host's powf is not the one the device assumes
    double scale;
    const VgCuda *cu;
    VgLog *log;
    /* statistics, written by the callback (one at a time, in order) */
    uint64_t n_powf, n_host, n_pixels, n_frames_host;
} CiedeCuda;

static void ciede_cuda_close(VgFeatureCtx *fc)
{
    CiedeCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);

    if (s->n_pixels)
        vg_log(fc->log, VG_LOG_INFO,
               "ciede: of %llu pixels, %llu (%.3f%%) "
               "took powf from the host, %llu (%.4f%%) were computed there; "
               "%llu frame(s) wholly on the host",
               (unsigned long long)s->n_pixels, (unsigned long long)s->n_powf,
               100.0 * s->n_powf / s->n_pixels, (unsigned long long)s->n_host,
               100.0 * s->n_host / s->n_pixels,
               (unsigned long long)s->n_frames_host);
    vg_cuda_seqsum_close(d, &s->sums);
    if (s->de)
        VG_DCU(d, cuMemFree, s->de);
    if (s->count)
        VG_DCU(d, cuMemFree, s->count);
    if (s->count_host)
        VG_DCUX(d, cuMemFreeHost, s->count_host);
    if (s->rec)
        VG_DCUX(d, cuMemFreeHost, s->rec);
    s->de = s->count = s->rec_dev = 0;
    s->count_host = NULL;
    s->rec = NULL;
}

static int ciede_cuda_init(VgFeatureCtx *fc)
{
    CiedeCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    const size_t n = (size_t)fc->width * fc->height;
    const char *env;
    void *p;
    int ret;

    if ((ret = vg_ciede_check(fc->log, fc->layout, fc->bpc, fc->width,
                              fc->height)) < 0)
        return ret;
    if (n > UINT32_MAX / 2) {
        vg_log(fc->log, VG_LOG_ERROR,
               "ciede: %ux%u is too large for the "
               "device",
               fc->width, fc->height);
        return -EINVAL;
    }
    if (!d->cu->cuMemHostGetDevicePointer) {
        vg_log(fc->log, VG_LOG_ERROR,
               "ciede: the CUDA driver lacks "
               "cuMemHostGetDevicePointer");
        return -ENOSYS;
    }
    s->cu = d->cu;
    s->log = fc->log;
    if (!vg_ciede_host_powf_agrees()) {
        vg_log(fc->log, VG_LOG_WARNING,
               "ciede: this C library's powf is not "
               "the one the device reproduces; every frame is scored on the "
               "host");
        s->host_only = 1;
        return 0;
    }
    s->scale = 1 << (fc->bpc - 8);
    s->cap = n / 32 > 1 << 16 ? (uint32_t)(n / 32) : 1 << 16;
    /* tests shrink the records to reach the whole-frame path */
    if ((env = getenv("VG_CIEDE_RECORDS")) && *env)
        s->cap = (uint32_t)strtoul(env, NULL, 10);
    if (s->cap > n)
        s->cap = (uint32_t)n; /* a pixel is recorded once at most */
    if ((ret = vg_cuda_device_function(d, "vg_ciede_de00", &s->de00)) < 0 ||
        (ret = vg_cuda_device_function(d, "vg_ciede_settle", &s->settle)) < 0 ||
        (ret = VG_DCU(d, cuMemAlloc, &s->de, n * sizeof(double))) < 0 ||
        (ret = VG_DCU(d, cuMemAlloc, &s->count, sizeof(uint32_t))) < 0 ||
        (ret = VG_DCUX(d, cuMemHostAlloc, &p, sizeof(uint32_t),
                       VG_CU_MEMHOSTALLOC_PORTABLE)) < 0)
        goto fail;
    s->count_host = p;
    if ((ret = VG_DCUX(d, cuMemHostAlloc, &p,
                       (s->cap ? s->cap : 1) * sizeof(VgCiedeRecord),
                       VG_CU_MEMHOSTALLOC_PORTABLE |
                           VG_CU_MEMHOSTALLOC_DEVICEMAP)) < 0)
        goto fail;
    s->rec = p;
    if ((ret = VG_DCUX(d, cuMemHostGetDevicePointer, &s->rec_dev, p, 0)) < 0 ||
        (ret = vg_cuda_seqsum_init(d, &s->sums, 1, n)) < 0)
        goto fail;
    return 0;
fail:
    ciede_cuda_close(fc);
    return ret;
}

/* stream callback: what the recorded pixels need from the host, over
 * their records */
static void CUDAAPI ciede_host_pixels(CUstream stream, CUresult status,
                                      void *opaque)
{
    CiedeCuda *s = opaque;
    const uint32_t n = *s->count_host;
    /* volatile: powf as common/features/ciede.c calls it, not a folded form */
    volatile float seven = 7;

    (void)stream;
    /* past the cap the whole frame is the host's (collect()) */
    if (status != CUDA_SUCCESS || n > s->cap)
        return;
    for (uint32_t i = 0; i < n; i++) {
        VgCiedeRecord *r = &s->rec[i];

        if (r->idx & VG_CIEDE_REC_POWF) {
            r->u.pw.c7 = powf(r->u.pw.cbp, seven);
            s->n_powf++;
        } else {
            const unsigned ref[3] = { r->u.s[0], r->u.s[1], r->u.s[2] };
            const unsigned dis[3] = { r->u.s[3], r->u.s[4], r->u.s[5] };

            r->u.de = vg_ciede_de00_samples(ref, dis, s->scale);
            s->n_host++;
        }
    }
}

static int ciede_cuda_submit(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    CiedeCuda *s = fc->priv;
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    VgCiedeKernelParams p = {
        .w = fc->width,
        .h = fc->height,
        .cw = f->ref->w[1],
        .ch = f->ref->h[1],
        .layout = fc->layout,
        .wide = fc->bpc > 8,
        .scale = s->scale,
        .de = (uint64_t)s->de,
        .rec = (uint64_t)s->rec_dev,
        .count = (uint64_t)s->count,
        .cap = s->cap,
        .res = (uint64_t)f->res,
    };
    int ret;

    if (s->host_only)
        return 0; /* collect() scores the frame */
    if (f->ref->w[0] != fc->width || f->ref->h[0] != fc->height ||
        f->dis->w[0] != fc->width || f->dis->h[0] != fc->height ||
        f->dis->w[1] != f->ref->w[1] || f->dis->h[1] != f->ref->h[1]) {
        vg_log(fc->log, VG_LOG_ERROR, "ciede: frame %u is not %ux%u", f->index,
               fc->width, fc->height);
        return -EINVAL;
    }
    for (unsigned pl = 0; pl < 3; pl++) {
        p.ref[pl] = (uint64_t)(uintptr_t)f->ref->data[pl];
        p.dis[pl] = (uint64_t)(uintptr_t)f->dis->data[pl];
        p.ref_pitch[pl] = f->ref->stride[pl];
        p.dis_pitch[pl] = f->dis->stride[pl];
    }
    s->n_pixels += (uint64_t)fc->width * fc->height;
    vg_cuda_seqsum_reset(&s->sums);
    if ((ret = VG_DCU(d, cuMemsetD8Async, s->count, 0, sizeof(uint32_t),
                      d->stream)) < 0 ||
        (ret = vg_cuda_device_launch(
             d, s->de00, (fc->width + VG_CIEDE_BX - 1) / VG_CIEDE_BX,
             (fc->height + VG_CIEDE_BY - 1) / VG_CIEDE_BY, 1, VG_CIEDE_BX,
             VG_CIEDE_BY, &p)) < 0 ||
        (ret = VG_DCU(d, cuMemcpyDtoHAsync, s->count_host, s->count,
                      sizeof(uint32_t), d->stream)) < 0 ||
        (ret = VG_DCU(d, cuStreamAddCallback, d->stream, ciede_host_pixels, s,
                      0)) < 0 ||
        (ret = vg_cuda_device_launch(d, s->settle, SETTLE_BLOCKS, 1, 1,
                                     VG_CIEDE_SETTLE_THREADS, 1, &p)) < 0 ||
        (ret =
             vg_cuda_seqsum_add(&s->sums, s->de, (size_t)fc->width * fc->height,
                                f->res + offsetof(VgCiedeRes, sum))) < 0)
        return ret;
    return vg_cuda_seqsum_submit(d, &s->sums);
}

/* copy a device image to a host one of the same geometry (synchronous) */
static int image_to_host(VgCudaDevice *d, const VgImage *src, VgImage *dst)
{
    int ret;

    for (unsigned pl = 0; pl < src->nb_planes; pl++) {
        const CUDA_MEMCPY2D m = {
            .srcMemoryType = CU_MEMORYTYPE_DEVICE,
            .srcDevice = (CUdeviceptr)(uintptr_t)src->data[pl],
            .srcPitch = (size_t)src->stride[pl],
            .dstMemoryType = CU_MEMORYTYPE_HOST,
            .dstHost = dst->data[pl],
            .dstPitch = (size_t)dst->stride[pl],
            .WidthInBytes = (size_t)src->w[pl] * vg_image_bps(src),
            .Height = src->h[pl],
        };
        if ((ret = VG_DCU(d, cuMemcpy2DAsync, &m, d->stream)) < 0)
            return ret;
    }
    return VG_DCU(d, cuStreamSynchronize, d->stream);
}

/* a frame with more pixels for the host than the records hold: the whole
 * frame on the host */
static int ciede_cuda_frame_on_host(VgFeatureCtx *fc, const VgCudaFrame *f,
                                    double *sum)
{
    VgCudaDevice *d = vg_cuda_fc_device(fc);
    VgImage img[2] = { { 0 } };
    int ret;

    if ((ret = vg_image_alloc(&img[0], fc->layout, fc->bpc, fc->width,
                              fc->height)) < 0 ||
        (ret = vg_image_alloc(&img[1], fc->layout, fc->bpc, fc->width,
                              fc->height)) < 0 ||
        (ret = image_to_host(d, f->ref, &img[0])) < 0 ||
        (ret = image_to_host(d, f->dis, &img[1])) < 0 ||
        (ret = vg_ciede_frame_sum(fc, &img[0], &img[1], sum)) < 0)
        vg_log(fc->log, VG_LOG_ERROR,
               "ciede: frame %u could not be scored "
               "on the host (%d)",
               f->index, ret);
    vg_image_free(&img[0]);
    vg_image_free(&img[1]);
    return ret;
}

static int ciede_cuda_collect(VgFeatureCtx *fc, const VgCudaFrame *f)
{
    CiedeCuda *s = fc->priv;
    const VgCiedeRes *r = f->host_res;
    double sum = r->sum;
    int ret;

    if (s->host_only || r->count > s->cap || r->failed) {
        if ((ret = ciede_cuda_frame_on_host(fc, f, &sum)) < 0)
            return ret;
        s->n_frames_host++;
    }
    return vg_feature_emit(fc, VG_CIEDE_OUT_CIEDE2000, f->index,
                           vg_ciede_score(sum, fc->width, fc->height));
}

const VgCudaFeatureImpl vg_cuda_ciede = {
    .priv_size = sizeof(CiedeCuda),
    .res_size = sizeof(VgCiedeRes),
    .init = ciede_cuda_init,
    .submit = ciede_cuda_submit,
    .collect = ciede_cuda_collect,
    .close = ciede_cuda_close,
};
