/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * SpEED on CUDA, what speed_chroma and speed_temporal share (gpu/speed.c):
 * the picture-sized steps on the device (gpu/speed.cuh), from the device
 * images to the decimated pictures and their covariance matrices, which
 * land in the frame's result area; the rest on the host with the CPU's
 * code (common/features/speed.h vg_speed_score_decimated()) in the frame's
 * host step, which runs for several frames at once, each on a scratch
 * state of its own (vg_cuda_speed_take()).
 */

#ifndef VG_GPU_SPEED_H
#define VG_GPU_SPEED_H

#include <pthread.h>

#include "common/features/speed_chroma_params.h"
#include "common/features/speed.h"
#include "gpu/core/feature.h"

typedef struct VgCudaSpeed {
    VgSpeed speed;  ///< set up with no_frames = 1 by the caller
    unsigned npics; ///< pictures per frame (2 or 4)
    int resample;   ///< the prescale kernel runs
    CUfunction prescale, aa_v, aa_h, lm_v, lm_h, means_fn, cov_fn;
    CUdeviceptr mem; ///< every buffer below, one allocation
    CUdeviceptr pre, col, dec, tmp, means, xi, xw, yi, yw;
    int *tab_i;           ///< host tables: x then y indices
    float *tab_w;         ///< and weights
    pthread_mutex_t lock; ///< of the scratch states
    int lock_init;
    VgSpeed **spare; ///< scratch states not in use
    unsigned n_spare, n_made;
} VgCudaSpeed;

/**
 * Device buffers and kernels for npics pictures of s->speed's plane, of
 * bit depth bpc. @return 0 or negative errno (logged); on failure
 * vg_cuda_speed_close() releases what was taken.
 */
int vg_cuda_speed_init(VgFeatureCtx *fc, VgCudaSpeed *s, unsigned npics,
                       unsigned bpc);
void vg_cuda_speed_close(VgFeatureCtx *fc, VgCudaSpeed *s);

/**
 * Result bytes of one frame: npics decimated pictures, then their npics
 * covariance matrices.
 */
size_t vg_cuda_speed_res_size(const VgCudaSpeed *s);

/**
 * Queue the steps for picture z < npics, whose samples are plane a[z]
 * less plane b[z] (b[z] = 0: none), every plane `pitch` bytes per row;
 * picture z lands at out + z * dw * dh floats, its covariance matrix at
 * out + (npics * dw * dh + z * 625) floats.
 */
int vg_cuda_speed_submit(VgFeatureCtx *fc, const VgCudaSpeed *s,
                         const uint64_t *a, const uint64_t *b, size_t pitch,
                         CUdeviceptr out);

/**
 * A scratch state of speed's geometry for one host step (made on first
 * need, kept for the next), or NULL (logged). Thread-safe.
 */
VgSpeed *vg_cuda_speed_take(VgFeatureCtx *fc, VgCudaSpeed *s);
/** Give a state of vg_cuda_speed_take() back. Thread-safe. */
void vg_cuda_speed_give(VgCudaSpeed *s, VgSpeed *sp);

/** Decimated picture z of a collected frame's host results. */
static inline const float *vg_cuda_speed_result(const VgCudaSpeed *s,
                                                const void *host_res,
                                                unsigned z)
{
    return (const float *)host_res + (size_t)z * s->speed.dw * s->speed.dh;
}

/** Covariance matrix of picture z of a collected frame's host results. */
static inline const float *vg_cuda_speed_cov(const VgCudaSpeed *s,
                                             const void *host_res, unsigned z)
{
    return vg_cuda_speed_result(s, host_res, s->npics) +
           (size_t)z * VG_SPEED_COV;
}

#endif /* VG_GPU_SPEED_H */
