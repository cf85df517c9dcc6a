/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * PSNR-HVS (libvmaf v3.2.0 src/feature/third_party/xiph/psnr_hvs.c
 * calc_psnrhvs()): the blocks' terms; gpu/psnr_hvs.c adds them up with the
 * sequential float sums (gpu/core/f32sum.cu).
 *
 * vg_psnr_hvs_blocks_8/16: blockIdx.z is the plane; each thread of a
 * 32 x 4 block computes one 8x8 block of the plane (block (bx, by) at
 * samples (7 bx, 7 by)) with the home's block code
 * (common/features/psnr_hvs_params.h), the very source cpu/psnr_hvs.c
 * runs: the same float operations in the same order, -fmad=false so no
 * product is fused into a sum, IEEE division and double sqrt. The integer
 * DCT is exact. The 64 terms go to device memory, block (bx, by) at
 * float offset (by * nbx + bx) * 64 of its plane, in row-major order. No
 * shared memory; samples are read from the device pictures (each block
 * reads 8 x 8 samples, which are in bounds as 7 bx + 7 < w for every
 * bx < nbx = (w - 1) / 7).
 */

#define VG_PSNR_HVS_FN static __device__ __forceinline__
#include "common/features/psnr_hvs_params.h"

template <typename T>
__device__ __forceinline__ void vg_psnr_hvs_blocks(
    const VgPsnrHvsKernelParams &p)
{
    const unsigned z = blockIdx.z;
    const uint64_t ref = z == 0 ? p.ref[0] : z == 1 ? p.ref[1] : p.ref[2];
    const uint64_t dis = z == 0 ? p.dis[0] : z == 1 ? p.dis[1] : p.dis[2];
    const int64_t rp = z == 0   ? p.ref_pitch[0]
                       : z == 1 ? p.ref_pitch[1]
                                : p.ref_pitch[2];
    const int64_t dp = z == 0   ? p.dis_pitch[0]
                       : z == 1 ? p.dis_pitch[1]
                                : p.dis_pitch[2];
    const unsigned nbx = z == 0 ? p.nbx[0] : z == 1 ? p.nbx[1] : p.nbx[2];
    const unsigned nby = z == 0 ? p.nby[0] : z == 1 ? p.nby[1] : p.nby[2];
    const uint64_t terms = z == 0   ? p.terms[0]
                           : z == 1 ? p.terms[1]
                                    : p.terms[2];
    const unsigned bx = blockIdx.x * VG_PSNR_HVS_BX + threadIdx.x;
    const unsigned by = blockIdx.y * VG_PSNR_HVS_BY + threadIdx.y;
    const float *tab = (const float *)p.tables + z * 128;
    int32_t s[64], d[64];
    float term[64];

    if (bx >= nbx || by >= nby)
        return;
    for (int i = 0; i < 8; i++) {
        const int64_t y = (int64_t)by * VG_PSNR_HVS_STEP + i;
        const T *r =
            (const T *)((const char *)ref + y * rp) + bx * VG_PSNR_HVS_STEP;
        const T *q =
            (const T *)((const char *)dis + y * dp) + bx * VG_PSNR_HVS_STEP;
#pragma unroll
        for (int j = 0; j < 8; j++) {
            s[i * 8 + j] = r[j];
            d[i * 8 + j] = q[j];
        }
    }
    vg_psnr_hvs_block(s, d, tab, tab + 64, term);

    float4 *out = (float4 *)((float *)terms + ((size_t)by * nbx + bx) * 64);
#pragma unroll
    for (int k = 0; k < 16; k++)
        out[k] = make_float4(term[4 * k], term[4 * k + 1], term[4 * k + 2],
                             term[4 * k + 3]);
}

extern "C" __global__ void __launch_bounds__(VG_PSNR_HVS_BX *VG_PSNR_HVS_BY)
    vg_psnr_hvs_blocks_8(const VgPsnrHvsKernelParams p)
{
    vg_psnr_hvs_blocks<uint8_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_PSNR_HVS_BX *VG_PSNR_HVS_BY)
    vg_psnr_hvs_blocks_16(const VgPsnrHvsKernelParams p)
{
    vg_psnr_hvs_blocks<uint16_t>(p);
}
