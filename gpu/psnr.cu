/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Integer PSNR sum of squared errors per plane (libvmaf v3.2.0
 * src/feature/integer_psnr.c psnr() / psnr_hbd()).
 *
 * Thread mapping: blockIdx.z is the plane; a 32 x 8 block covers 256 x 8
 * samples, each thread one row segment of 8 samples 32 apart, so each
 * load of a warp is one contiguous run. The plane is selected with
 * constant indices (no runtime indexing of the parameter struct, which
 * would copy it to the stack). No shared memory besides the reduction.
 *
 * Exactness: e = ref - dis, e^2 <= 65535^2 fits uint32 as in libvmaf; the
 * squares are summed in uint64. libvmaf sums an 8-bit row in uint32,
 * which cannot wrap below 66051 columns (65025 per sample), and sums
 * high-bit-depth squares straight into uint64; so the exact integer total
 * is libvmaf's, in any order. One 64-bit atomic per block
 * (gpu/core/reduce.cuh).
 */

#include "common/features/psnr_params.h"
#include "gpu/core/reduce.cuh"

template <typename T>
__device__ __forceinline__ void vg_psnr_sse(const VgPsnrKernelParams &p)
{
    const unsigned z = blockIdx.z;
    const uint64_t ref = z == 0 ? p.ref[0] : z == 1 ? p.ref[1] : p.ref[2];
    const uint64_t dis = z == 0 ? p.dis[0] : z == 1 ? p.dis[1] : p.dis[2];
    const int64_t pitch = z == 0   ? p.pitch[0]
                          : z == 1 ? p.pitch[1]
                                   : p.pitch[2];
    const unsigned w = z == 0 ? p.w[0] : z == 1 ? p.w[1] : p.w[2];
    const unsigned h = z == 0 ? p.h[0] : z == 1 ? p.h[1] : p.h[2];
    const unsigned x0 = blockIdx.x * VG_PSNR_TILE_W;
    const unsigned y = blockIdx.y * VG_PSNR_BLOCK_Y + threadIdx.y;
    unsigned long long sum = 0;

    /* uniform per block: the whole block is outside this plane */
    if (x0 >= w || blockIdx.y * VG_PSNR_BLOCK_Y >= h)
        return;
    if (y < h) {
        const T *r = (const T *)((const char *)ref + (int64_t)y * pitch);
        const T *d = (const T *)((const char *)dis + (int64_t)y * pitch);
#pragma unroll
        for (int k = 0; k < VG_PSNR_PER_THREAD; k++) {
            const unsigned x = x0 + threadIdx.x + k * VG_PSNR_BLOCK_X;
            if (x < w) {
                const int e = (int)r[x] - (int)d[x];
                const uint32_t a = (uint32_t)(e < 0 ? -e : e);
                sum += a * a;
            }
        }
    }
    vg_block_sum_atomic(sum, (unsigned long long *)p.sse + z);
}

extern "C" __global__ void __launch_bounds__(VG_PSNR_BLOCK_X *VG_PSNR_BLOCK_Y)
    vg_psnr_sse_8(const VgPsnrKernelParams p)
{
    vg_psnr_sse<uint8_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_PSNR_BLOCK_X *VG_PSNR_BLOCK_Y)
    vg_psnr_sse_16(const VgPsnrKernelParams p)
{
    vg_psnr_sse<uint16_t>(p);
}
