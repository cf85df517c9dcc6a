/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * float_psnr's noise sum (libvmaf v3.2.0 src/feature/psnr.c
 * compute_psnr()) over the float luma of the frame (offset 0): the
 * difference and its square in float (-fmad=false), added into a double.
 *
 * vg_float_psnr_units: the integer path, exact when
 * common/features/float_moment_params.h says so (the difference of two
 * samples k / 2^s is exact in float, its float square an integer number of
 * units 2^-2s). Mapping as gpu/float_moment.cu: 32 x 8 threads over 256 x
 * 8 samples, coalesced, one 64-bit atomic per block.
 *
 * vg_float_psnr_seq: one thread adds the squares in row-major order into a
 * double, as compute_psnr(); only where the integer path could differ.
 */

#include "common/features/float_moment_params.h"
#include "gpu/core/reduce.cuh"

extern "C" __global__ void __launch_bounds__(VG_FSUM_BLOCK_X *VG_FSUM_BLOCK_Y)
    vg_float_psnr_units(const VgFloatSumKernelParams p)
{
    const unsigned x0 = blockIdx.x * VG_FSUM_TILE_W;
    const unsigned y = blockIdx.y * VG_FSUM_BLOCK_Y + threadIdx.y;
    unsigned long long s = 0;

    if (y < p.h) {
        const float *r =
            (const float *)((const char *)p.ref + (int64_t)y * p.pitch);
        const float *d =
            (const float *)((const char *)p.dis + (int64_t)y * p.pitch);
#pragma unroll
        for (int k = 0; k < VG_FSUM_PER_THREAD; k++) {
            const unsigned x = x0 + threadIdx.x + k * VG_FSUM_BLOCK_X;
            if (x < p.w) {
                const float e = r[x] - d[x];
                const float q = e * e;
                s += (unsigned long long)(q * p.unit2);
            }
        }
    }
    vg_block_sum_atomic(s, (unsigned long long *)p.out);
}

extern "C" __global__ void __launch_bounds__(1)
    vg_float_psnr_seq(const VgFloatSumKernelParams p)
{
    double acc = 0;

    if (threadIdx.x)
        return;
    for (unsigned i = 0; i < p.h; i++) {
        const float *r =
            (const float *)((const char *)p.ref + (int64_t)i * p.pitch);
        const float *d =
            (const float *)((const char *)p.dis + (int64_t)i * p.pitch);
        for (unsigned j = 0; j < p.w; j++) {
            const float e = r[j] - d[j];
            const float q = e * e;
            acc += q;
        }
    }
    ((double *)(p.out + sizeof(uint64_t)))[0] = acc;
}
