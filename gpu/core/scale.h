/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Scaling of distorted pictures on the device (common/scale.h's
 * arithmetic, gpu/core/scale.cu's kernels): the filters are built on the host
 * and uploaded once; each frame is converted at its own size into `src`,
 * then scaled into the frame's image of the reference's size, two
 * launches queued on the device stream.
 */

#ifndef VG_GPU_SCALE_H
#define VG_GPU_SCALE_H

#include "common/scale.h"
#include "gpu/core/device.h"
#include "gpu/core/scale_params.h"

typedef struct VgCudaScaler {
    VgScaler s; ///< the host tables
    CUfunction h8, h16, v8, v16;
    CUdeviceptr taps_buf;   ///< every filter's positions and taps
    VgScaleTaps h[2], v[2]; ///< [0] luma, [1] chroma
    CUdeviceptr tmp_buf;    ///< intermediates of every plane
    VgImage tmp;            ///< their geometry (int16 samples, bpc unused)
    VgImage src;            ///< the distorted picture at its own size
    CUdeviceptr src_buf;
} VgCudaScaler;

/**
 * Build and upload the filters of alg for distorted pictures of
 * src_w x src_h scaled to dst_w x dst_h, and allocate the device images.
 * On failure c is closed. @return 0 or negative errno (logged).
 */
int vg_cuda_scaler_open(VgCudaScaler *c, VgCudaDevice *d, enum VgScale alg,
                        enum VgImageLayout layout, unsigned bpc, unsigned src_w,
                        unsigned src_h, unsigned dst_w, unsigned dst_h);

/** Free what open took; c may be zeroed. The stream must be past its use. */
void vg_cuda_scaler_close(VgCudaScaler *c, VgCudaDevice *d);

/**
 * Queue the scaling of c->src (filled by the caller on the stream) into
 * dst, a device image of the reference's geometry. @return 0 or negative
 * errno (logged).
 */
int vg_cuda_scaler_run(VgCudaScaler *c, VgCudaDevice *d, const VgImage *dst);

#endif /* VG_GPU_SCALE_H */
