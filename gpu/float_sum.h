/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The host side both float_moment and float_psnr launch their sums with
 * (common/features/float_moment_params.h): the integer kernel where it
 * gives libvmaf's double sums, else the sequential one, and the units
 * the integer sums come back in.
 */

#ifndef VG_GPU_FLOAT_SUM_H
#define VG_GPU_FLOAT_SUM_H

#include <stdint.h>

#include "common/features/float_moment_params.h"
#include "gpu/core/feature.h"

typedef struct VgCudaFloatSum {
    CUfunction fn;
    int exact;            ///< integer path (vg_fsum_exact())
    unsigned s;           ///< bpc - 8: the units are 2^-s and 2^-2s
    unsigned seq_threads; ///< threads of the sequential kernel
} VgCudaFloatSum;

/**
 * Pick fc's path and look up its kernel: `units` or `seq` (run with
 * seq_threads threads, one per sum). Logs at info level when the sums
 * run in order (slow).
 */
int vg_cuda_float_sum_init(VgCudaFloatSum *s, VgFeatureCtx *fc,
                           const char *units, const char *seq,
                           unsigned seq_threads);

/**
 * Launch the sums of frame f into its results: the feature's submit, its
 * state (fc->priv) a VgCudaFloatSum.
 */
int vg_cuda_float_sum_submit(VgFeatureCtx *fc, const VgCudaFrame *f);

/**
 * A sum as libvmaf's double: an integer sum of `units` terms times
 * 2^-(order * s) (order 1 for samples, 2 for squares) on the integer path,
 * else the sequential double `seq`.
 */
double vg_cuda_float_sum_value(const VgCudaFloatSum *s, uint64_t units,
                               unsigned order, double seq);

#endif /* VG_GPU_FLOAT_SUM_H */
