/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/fplane.h"
#include "common/picture.h"
#include "gpu/core/picture.h"
#include "gpu/core/picture_params.h"

int vg_cuda_converter_init(VgCudaConverter *c, VgCudaDevice *e)
{
    int ret;

    if ((ret = vg_cuda_device_function(e, "vg_convert_16", &c->conv16)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_split_8", &c->split8)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_split_16", &c->split16)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_to_float_8", &c->tofloat8)) < 0 ||
        (ret = vg_cuda_device_function(e, "vg_to_float_16", &c->tofloat16)) < 0)
        return ret;
    return vg_cuda_device_function(e, "vg_check_range_16", &c->range16);
}

static int copy_plane(VgCudaDevice *e, const VgImage *dst, unsigned p,
                      const void *src, ptrdiff_t src_pitch)
{
    const VgCuda *cu = e->cu;
    CUDA_MEMCPY2D cp = {
        .srcMemoryType = CU_MEMORYTYPE_DEVICE,
        .srcDevice = (CUdeviceptr)(uintptr_t)src,
        .srcPitch = (size_t)src_pitch,
        .dstMemoryType = CU_MEMORYTYPE_DEVICE,
        .dstDevice = (CUdeviceptr)(uintptr_t)dst->data[p],
        .dstPitch = (size_t)dst->stride[p],
        .WidthInBytes = (size_t)dst->w[p] * vg_image_bps(dst),
        .Height = dst->h[p],
    };

    if (!cp.WidthInBytes || !cp.Height)
        return 0;
    return vg_cuda_error(cu, e->log, cu->f->cuMemcpy2DAsync(&cp, e->stream),
                         "cuMemcpy2DAsync", __FILE__, __LINE__);
}

static int convert_plane(VgCudaDevice *e, CUfunction fn, const VgImage *dst,
                         unsigned p, const void *src, ptrdiff_t src_pitch,
                         unsigned shift)
{
    VgConvParams par = {
        .src = (uint64_t)(uintptr_t)src,
        .dst = (uint64_t)(uintptr_t)dst->data[p],
        .src_pitch = src_pitch,
        .dst_pitch = dst->stride[p],
        .w = dst->w[p],
        .h = dst->h[p],
        .shift = shift,
    };

    return vg_cuda_device_launch(
        e, fn, (par.w + VG_CONV_BLOCK_X - 1) / VG_CONV_BLOCK_X,
        (par.h + VG_CONV_BLOCK_Y - 1) / VG_CONV_BLOCK_Y, 1, VG_CONV_BLOCK_X,
        VG_CONV_BLOCK_Y, &par);
}

/* the interleaved chroma at src into planes 1 and 2 of dst */
static int split_chroma(VgCudaDevice *e, CUfunction fn, const VgImage *dst,
                        const void *src, ptrdiff_t src_pitch, unsigned shift)
{
    VgSplitParams par = {
        .src = (uint64_t)(uintptr_t)src,
        .dst = { (uint64_t)(uintptr_t)dst->data[1],
                 (uint64_t)(uintptr_t)dst->data[2] },
        .src_pitch = src_pitch,
        .dst_pitch = { dst->stride[1], dst->stride[2] },
        .w = dst->w[1],
        .h = dst->h[1],
        .shift = shift,
    };
    const unsigned tx = 4 * VG_CONV_BLOCK_X;

    /* the vector stores (common/image.c aligns the planes far beyond) */
    if ((par.dst[0] | par.dst[1] | (uint64_t)par.dst_pitch[0] |
         (uint64_t)par.dst_pitch[1]) %
        8)
        return -EINVAL;
    return vg_cuda_device_launch(e, fn, (par.w + tx - 1) / tx,
                                 (par.h + VG_CONV_BLOCK_Y - 1) /
                                     VG_CONV_BLOCK_Y,
                                 1, VG_CONV_BLOCK_X, VG_CONV_BLOCK_Y, &par);
}

int vg_cuda_picture_convert(VgCudaDevice *e, const VgCudaConverter *c,
                            VgImage *dst, const VgPicture *pic)
{
    const uint8_t *uv = pic->data[1];
    const unsigned planes = c->luma_only ? 1 : dst->nb_planes;
    const unsigned shift = 16 - dst->bpc;
    int ret;

    switch (pic->fmt) {
    case VG_PIX_FMT_YUV420P:
    case VG_PIX_FMT_YUV422P:
    case VG_PIX_FMT_YUV444P:
    case VG_PIX_FMT_YUV400P:
        for (unsigned p = 0; p < planes; p++)
            if ((ret = copy_plane(e, dst, p, pic->data[p], pic->stride[p])) < 0)
                return ret;
        return 0;
    case VG_PIX_FMT_YUV444P_MSB:
        for (unsigned p = 0; p < planes; p++)
            if ((ret = convert_plane(e, c->conv16, dst, p, pic->data[p],
                                     pic->stride[p], shift)) < 0)
                return ret;
        return 0;
    case VG_PIX_FMT_NV12:
    case VG_PIX_FMT_NV16:
        if ((ret = copy_plane(e, dst, 0, pic->data[0], pic->stride[0])) < 0 ||
            planes == 1)
            return ret;
        return split_chroma(e, c->split8, dst, uv, pic->stride[1], 0);
    case VG_PIX_FMT_P010:
    case VG_PIX_FMT_P016:
    case VG_PIX_FMT_P216:
        /* samples in the high bits of each word: shift down to the
         * internal LSB-aligned layout, as common/picture.c does */
        if ((ret = convert_plane(e, c->conv16, dst, 0, pic->data[0],
                                 pic->stride[0], shift)) < 0 ||
            planes == 1)
            return ret;
        return split_chroma(e, c->split16, dst, uv, pic->stride[1], shift);
    }
    return -EINVAL;
}

/* rows and row bytes of source plane p of a host picture */
static void raw_plane(const VgImage *geom, enum VgPixFmt fmt, unsigned p,
                      size_t *row_bytes, unsigned *rows, size_t *pitch)
{
    const int sp = vg_pix_fmt_is_semiplanar(fmt);
    const unsigned bps = fmt == VG_PIX_FMT_NV12 || fmt == VG_PIX_FMT_NV16 ? 1
                         : sp                                             ? 2
                              : vg_image_bps(geom);
    const unsigned q = p ? 1 : 0;

    *row_bytes = (size_t)geom->w[q] * (sp && p ? 2 : 1) * bps;
    *rows = geom->h[q];
    *pitch = (*row_bytes + 63) & ~(size_t)63;
    if (!*pitch)
        *pitch = 64;
}

static unsigned raw_planes(const VgImage *geom, enum VgPixFmt fmt)
{
    return vg_pix_fmt_is_semiplanar(fmt) ? 2 : geom->nb_planes;
}

size_t vg_cuda_picture_raw_size(const VgImage *geom, enum VgPixFmt fmt)
{
    size_t total = 0;

    for (unsigned p = 0; p < raw_planes(geom, fmt); p++) {
        size_t rb, pitch;
        unsigned rows;
        raw_plane(geom, fmt, p, &rb, &rows, &pitch);
        total += pitch * (rows ? rows : 1);
    }
    return total;
}

int vg_cuda_picture_upload(VgCudaDevice *e, const VgCudaConverter *c,
                           VgImage *dst, uint8_t *stage, CUdeviceptr raw,
                           const VgPicture *pic)
{
    const VgCuda *cu = e->cu;
    VgPicture dp = *pic;
    size_t off = 0;
    int ret;

    dp.memory = VG_MEMORY_CUDA;
    dp.cuda_stream = NULL;
    for (unsigned p = 0; p < raw_planes(dst, pic->fmt); p++) {
        const uint8_t *src = pic->data[p];
        size_t rb, pitch;
        unsigned rows;

        raw_plane(dst, pic->fmt, p, &rb, &rows, &pitch);
        for (unsigned y = 0; y < rows; y++)
            memcpy(stage + off + y * pitch, src + y * pic->stride[p], rb);
        dp.data[p] = (const void *)(uintptr_t)(raw + off);
        dp.stride[p] = (ptrdiff_t)pitch;
        off += pitch * (rows ? rows : 1);
    }
    if ((ret = vg_cuda_error(
             cu, e->log, cu->f->cuMemcpyHtoDAsync(raw, stage, off, e->stream),
             "cuMemcpyHtoDAsync", __FILE__, __LINE__)) < 0)
        return ret;
    return vg_cuda_picture_convert(e, c, dst, &dp);
}

int vg_cuda_picture_luma_float(VgCudaDevice *e, const VgCudaConverter *c,
                               const VgImage *img, CUdeviceptr dst,
                               size_t pitch)
{
    VgFloatParams par = {
        .src = (uint64_t)(uintptr_t)img->data[0],
        .dst = (uint64_t)dst,
        .src_pitch = img->stride[0],
        .dst_pitch = (int64_t)pitch,
        .w = img->w[0],
        .h = img->h[0],
        .inv_scaler = 1.0f / vg_fplane_scaler(img->bpc),
    };

    if ((dst | pitch) & 15)
        return -EINVAL; /* the kernel writes float4 */
    return vg_cuda_device_launch(
        e, img->bpc > 8 ? c->tofloat16 : c->tofloat8,
        (par.w + 4 * VG_CONV_BLOCK_X - 1) / (4 * VG_CONV_BLOCK_X),
        (par.h + VG_CONV_BLOCK_Y - 1) / VG_CONV_BLOCK_Y, 1, VG_CONV_BLOCK_X,
        VG_CONV_BLOCK_Y, &par);
}

int vg_cuda_picture_check_range(VgCudaDevice *e, const VgCudaConverter *c,
                                const VgImage *img, enum VgPixFmt fmt,
                                CUdeviceptr out)
{
    int ret;

    if (!vg_picture_can_overflow(fmt, img->bpc))
        return 0;
    for (unsigned p = 0; p < img->nb_planes; p++) {
        VgRangeParams par = {
            .src = (uint64_t)(uintptr_t)img->data[p],
            .pitch = img->stride[p],
            .w = img->w[p],
            .h = img->h[p],
            .maxval = (1u << img->bpc) - 1,
            .out = (uint64_t)out + p * sizeof(uint64_t),
        };
        if ((ret = vg_cuda_device_launch(
                 e, c->range16, (par.w + VG_CONV_BLOCK_X - 1) / VG_CONV_BLOCK_X,
                 (par.h + VG_CONV_BLOCK_Y - 1) / VG_CONV_BLOCK_Y, 1,
                 VG_CONV_BLOCK_X, VG_CONV_BLOCK_Y, &par)) < 0)
            return ret;
    }
    return 0;
}

int vg_cuda_picture_range_result(VgLog *log, const VgImage *img,
                                 const char *which, unsigned index,
                                 const uint64_t res[3])
{
    for (unsigned p = 0; p < img->nb_planes && p < 3; p++) {
        if (!res[p])
            continue;
        const uint32_t pos = 0xffffffffu - (uint32_t)res[p];
        return vg_picture_range_error(
            log, which, index, p, (unsigned)(res[p] >> 32), img->bpc,
            (int)(pos % img->w[p]), (int)(pos / img->w[p]));
    }
    return 0;
}
