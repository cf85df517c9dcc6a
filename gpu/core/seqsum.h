/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Sequential double sums on the device with the CPU's bits, in parallel
 * (gpu/core/seqsum.cu, gpu/core/seqsum_step.h): s = 0; for i in 0..n-1: s += x[i].
 */

#ifndef VG_GPU_SEQSUM_H
#define VG_GPU_SEQSUM_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/core/device.h"
#include "gpu/core/seqsum_step.h"

typedef struct VgCudaSeqsum {
    CUfunction chunks, scan, local, resolve, fallback;
    CUdeviceptr scratch; ///< chunks, flags, fail flags
    size_t max_chunks;
    VgSeqsumParams p; ///< the submission being built
} VgCudaSeqsum;

/**
 * Look the kernels up and allocate scratch for up to max_arrays sums per
 * submission of max_terms terms in all. @return 0 or negative errno.
 */
int vg_cuda_seqsum_init(VgCudaDevice *d, VgCudaSeqsum *s, int max_arrays,
                        size_t max_terms);
void vg_cuda_seqsum_close(VgCudaDevice *d, VgCudaSeqsum *s);

/** Start a submission. */
void vg_cuda_seqsum_reset(VgCudaSeqsum *s);

/**
 * Add a sum to the submission: the n device doubles at x, in order, into
 * the device double at out. @return 0 or -EINVAL past the capacity.
 */
int vg_cuda_seqsum_add(VgCudaSeqsum *s, CUdeviceptr x, size_t n,
                       CUdeviceptr out);

/**
 * The chunk records of the sum added last, for a producer of its terms
 * that adds them into the records' sum and abs itself (atomically, in any
 * order, from 0): VgSeqsumChunk[] on the device. A submission whose sums
 * are all added so is marked with vg_cuda_seqsum_presummed().
 */
CUdeviceptr vg_cuda_seqsum_last_chunks(const VgCudaSeqsum *s);

/** Mark the submission's chunk sums as added by the terms' producers. */
void vg_cuda_seqsum_presummed(VgCudaSeqsum *s);

/** Queue the submission's sums on d's stream. @return 0 or negative errno. */
int vg_cuda_seqsum_submit(VgCudaDevice *d, VgCudaSeqsum *s);

#endif /* VG_GPU_SEQSUM_H */
