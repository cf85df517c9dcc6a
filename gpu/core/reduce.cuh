/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Block-wide integer sum with one atomic per block. Integer addition is
 * associative, so any reduction order gives the CPU's exact total.
 */

#ifndef VG_GPU_REDUCE_CUH
#define VG_GPU_REDUCE_CUH

#include <stdint.h>

/**
 * Add v of every thread of a (32 x ny) block to *acc with one atomicAdd.
 * Must be reached by all threads of the block; blockDim.x == 32,
 * blockDim.x * blockDim.y <= 1024.
 */
__device__ __forceinline__ void vg_block_sum_atomic(unsigned long long v,
                                                    unsigned long long *acc)
{
    __shared__ unsigned long long warp_sum[32];
    const unsigned lane = threadIdx.x;
    const unsigned warp = threadIdx.y;

    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
        warp_sum[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.y ? warp_sum[lane] : 0;
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (lane == 0 && v)
            atomicAdd(acc, v);
    }
}

#endif /* VG_GPU_REDUCE_CUH */
