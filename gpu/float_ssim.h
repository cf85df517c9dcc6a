/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The SSIM map on CUDA, shared by gpu/float_ssim.c and
 * gpu/float_ms_ssim.c: its kernels (gpu/float_ssim.cu) and their launch.
 */

#ifndef VG_GPU_FLOAT_SSIM_H
#define VG_GPU_FLOAT_SSIM_H

#include <stddef.h>

#include "common/features/float_ssim_params.h"
#include "gpu/feature.h"

/** The SSIM map's kernels and scratch for images up to w x h. */
typedef struct VgCudaSsimMap {
    CUfunction hconv, vmap, sum;
    CUdeviceptr hbuf, map;
} VgCudaSsimMap;

/** Look the kernels up and allocate the scratch. @return 0 or negative errno. */
int vg_cuda_ssim_map_init(VgFeatureCtx *fc, VgCudaSsimMap *m, int w, int h);
void vg_cuda_ssim_map_close(VgFeatureCtx *fc, VgCudaSsimMap *m);

/**
 * Queue the SSIM map of two w x h device float images (row pitch `pitch`
 * bytes) and its VG_SSIM_NB_SUMS sums into the device doubles at `sums`;
 * with_lcs: the l c s sum too (float_ssim), else only l, c and s.
 */
int vg_cuda_ssim_map_submit(VgFeatureCtx *fc, const VgCudaSsimMap *m,
                            CUdeviceptr ref, CUdeviceptr cmp, size_t pitch,
                            int w, int h, int with_lcs, CUdeviceptr sums);

#endif /* VG_GPU_FLOAT_SSIM_H */
