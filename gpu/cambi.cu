/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * CAMBI's kernels (libvmaf v3.2.0 src/feature/cambi.c, as cpu/cambi.c
 * computes it): one thread per output sample, each running the thread
 * code of gpu/cambi_block.h, which describes the steps and their
 * exactness. The c-value kernel's block of 16 x 16 threads loads its
 * shared tile, waits at the barrier, then counts and computes.
 *
 * What runs where: every picture step and every c-value on the device;
 * the top-k pooling (quick_select() and the double sum in the order it
 * leaves the values, which no parallel order reproduces) and the scale
 * weighting on the host, from the c-values copied back (gpu/cambi.c with
 * common/features/cambi.c's vg_cambi_pool()).
 */

#include "gpu/cambi_block.h"

#define CAMBI_PIXEL_KERNEL(name)                                        \
extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY) \
vg_cambi_##name(const VgCambiKernelParams p)                            \
{                                                                       \
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;               \
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;               \
                                                                        \
    if (i < p.h && j < p.w)                                             \
        vg_cambi_##name##_px(&p, i, j);                                 \
}

CAMBI_PIXEL_KERNEL(to10)
CAMBI_PIXEL_KERNEL(dither)
CAMBI_PIXEL_KERNEL(flat)
CAMBI_PIXEL_KERNEL(mask)
CAMBI_PIXEL_KERNEL(decimate)
CAMBI_PIXEL_KERNEL(mode)

extern "C" __global__ void __launch_bounds__(VG_CAMBI_NTHR)
vg_cambi_cvalues(const VgCambiKernelParams p)
{
    __shared__ VgCambiTile t;

    vg_cambi_cval_load(&t, &p, threadIdx.y * VG_CAMBI_TILE + threadIdx.x,
                       blockIdx.x, blockIdx.y);
    __syncthreads();
    vg_cambi_cval_pixel(&t, &p, threadIdx.x, threadIdx.y, blockIdx.x,
                        blockIdx.y);
}
