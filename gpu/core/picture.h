/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Device pictures: a caller's VgPicture (device or host memory, planar or
 * semi-planar) into a device VgImage of the internal layout, queued on the
 * engine stream.
 */

#ifndef VG_GPU_PICTURE_H
#define VG_GPU_PICTURE_H

#include "vmafgpu.h"
#include "common/image.h"
#include "gpu/core/device.h"

/** Conversion kernels on one device. */
typedef struct VgCudaConverter {
    CUfunction conv16, split8, split16, range16, tofloat8, tofloat16;
    /** Only the luma plane is converted (no feature reads chroma). */
    int luma_only;
} VgCudaConverter;

/** Look up the conversion kernels. @return 0 or negative errno. */
int vg_cuda_converter_init(VgCudaConverter *c, VgCudaDevice *e);

/**
 * Queue the conversion of a VG_MEMORY_CUDA picture into the device image
 * dst (geometry from vg_image_geometry()) on the device stream: planar
 * planes are 2-D device copies, NV12/NV16 chroma is de-interleaved into
 * both planes in one launch, P010/P016/P216 samples are shifted down to
 * LSB alignment (16 - bitdepth) as well. With c->luma_only, the chroma
 * planes of dst are left as they are. dst's chroma planes and strides
 * must be 8-byte aligned (vg_image_place() aligns them further), else
 * -EINVAL.
 */
int vg_cuda_picture_convert(VgCudaDevice *e, const VgCudaConverter *c,
                            VgImage *dst, const VgPicture *pic);

/**
 * @return bytes of staging (and of the device copy) that a host picture of
 * format fmt needs for an image of geometry geom.
 */
size_t vg_cuda_picture_raw_size(const VgImage *geom, enum VgPixFmt fmt);

/**
 * Queue the upload of a VG_MEMORY_HOST picture: its rows are copied as
 * they are (no conversion on the host) into `stage` (pinned, raw_size
 * bytes), sent with one asynchronous copy to `raw` on the device, then
 * converted there into dst like a device picture. The caller must not
 * touch `stage` or `raw` again until the device stream has passed this
 * work.
 */
int vg_cuda_picture_upload(VgCudaDevice *e, const VgCudaConverter *c,
                           VgImage *dst, uint8_t *stage, CUdeviceptr raw,
                           const VgPicture *pic);

/**
 * Queue the conversion of img's luma into the float plane dst (pitch
 * bytes per row, >= 4 * width): common/fplane.h's formula, offset 0. dst
 * and pitch must be 16-byte aligned (float4 stores), else -EINVAL.
 */
int vg_cuda_picture_luma_float(VgCudaDevice *e, const VgCudaConverter *c,
                               const VgImage *img, CUdeviceptr dst,
                               size_t pitch);

/** Bytes of device results vg_cuda_picture_check_range() writes. */
#define VG_CUDA_RANGE_BYTES (3 * sizeof(uint64_t))

/**
 * Queue the check of the converted image img against its bit depth (planar
 * 9..15-bit pictures only; others cannot exceed it): out (VG_CUDA_RANGE_BYTES,
 * zeroed on the stream before) gets one word per plane, read back with the
 * frame's results and decoded by vg_cuda_picture_range_result().
 */
int vg_cuda_picture_check_range(VgCudaDevice *e, const VgCudaConverter *c,
                                const VgImage *img, enum VgPixFmt fmt,
                                CUdeviceptr out);

/**
 * Decode the words of vg_cuda_picture_check_range() read back into `res`:
 * 0, or the refusal (logged) naming the picture `which`, the frame, plane,
 * value and position.
 */
int vg_cuda_picture_range_result(VgLog *log, const VgImage *img,
                                 const char *which, unsigned index,
                                 const uint64_t res[3]);

#endif /* VG_GPU_PICTURE_H */
