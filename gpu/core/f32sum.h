/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Sequential float sums of non-negative terms on the device with the
 * CPU's bits, in parallel (gpu/core/f32sum.cu, gpu/core/f32sum_step.h):
 * float s = 0; for i in 0..n-1: s += x[i].
 */

#ifndef VG_GPU_F32SUM_H
#define VG_GPU_F32SUM_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/core/device.h"
#include "gpu/core/f32sum_step.h"

typedef struct VgCudaF32sum {
    CUfunction chunks, walk;
    CUdeviceptr scratch; ///< the chunk records
    size_t max_chunks;
    VgF32sumParams p; ///< the submission being built
} VgCudaF32sum;

/**
 * Look the kernels up and allocate the records for up to max_arrays sums
 * per submission of max_terms terms in all. @return 0 or negative errno.
 */
int vg_cuda_f32sum_init(VgCudaDevice *d, VgCudaF32sum *s, int max_arrays,
                        size_t max_terms);
void vg_cuda_f32sum_close(VgCudaDevice *d, VgCudaF32sum *s);

/** Start a submission. */
void vg_cuda_f32sum_reset(VgCudaF32sum *s);

/**
 * Add a sum to the submission: the n device floats at x (16-byte
 * aligned), in order, into the device float at out. Terms may be of any
 * sign; negative ones and those not finite are added one at a time.
 * @return 0, or -EINVAL past the capacity or for a misaligned x.
 */
int vg_cuda_f32sum_add(VgCudaF32sum *s, CUdeviceptr x, size_t n,
                       CUdeviceptr out);

/** Queue the submission's sums on d's stream. @return 0 or negative errno. */
int vg_cuda_f32sum_submit(VgCudaDevice *d, VgCudaF32sum *s);

#endif /* VG_GPU_F32SUM_H */
