/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Picture conversion into the internal planar, LSB-aligned layout
 * (common/image.h). One thread per destination sample, 32 x 8 blocks;
 * no shared memory, no reduction. Exact: a byte copy (8-bit) or a 16-bit
 * word shifted right by `shift` (P010 / P016 / P216 / planar MSB keep their significant bits
 * in the high bits; the low bits are dropped, as a shift to LSB alignment
 * does on the CPU).
 */

#include "gpu/picture_params.h"

template <typename T>
__device__ __forceinline__ void vg_convert(const VgConvParams &p)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const T *src = (const T *)((const char *)p.src + (int64_t)y * p.src_pitch);
    T *dst = (T *)((char *)p.dst + (int64_t)y * p.dst_pitch);
    dst[x] = (T)(src[(size_t)x * p.step] >> p.shift);
}

extern "C" __global__ void vg_convert_8(const VgConvParams p)
{
    vg_convert<uint8_t>(p);
}

extern "C" __global__ void vg_convert_16(const VgConvParams p)
{
    vg_convert<uint16_t>(p);
}

/* Samples above the bit depth: no cost but one compare in range; an
 * atomic only for a bad sample (see VgRangeParams). */
extern "C" __global__ void vg_check_range_16(const VgRangeParams p)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const uint16_t v = ((const uint16_t *)((const char *)p.src +
                                           (int64_t)y * p.pitch))[x];
    if (v > p.maxval)
        atomicMax((unsigned long long *)p.out,
                  (unsigned long long)v << 32 |
                  (0xffffffffu - (y * p.w + x)));
}

/* The float features' input. Each thread four consecutive samples, written
 * as one float4 (dst and dst_pitch 16-byte aligned: the engine's float
 * planes are). The scaler is a power of two (2^(bpc - 8)), so dividing by
 * it is multiplying by its exact inverse: the same float as the CPU's IEEE
 * division, for every sample (the quotients are normal). */
template <typename T>
__device__ __forceinline__ void vg_to_float(const VgFloatParams &p)
{
    const unsigned x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const T *src = (const T *)((const char *)p.src + (int64_t)y * p.src_pitch) + x;
    float *dst = (float *)((char *)p.dst + (int64_t)y * p.dst_pitch) + x;

    if (x + 4 <= p.w) {
        const float4 v = make_float4(__fmul_rn((float)src[0], p.inv_scaler),
                                     __fmul_rn((float)src[1], p.inv_scaler),
                                     __fmul_rn((float)src[2], p.inv_scaler),
                                     __fmul_rn((float)src[3], p.inv_scaler));
        *(float4 *)dst = v;
    } else {
        for (unsigned k = 0; x + k < p.w; k++)
            dst[k] = __fmul_rn((float)src[k], p.inv_scaler);
    }
}

extern "C" __global__ void vg_to_float_8(const VgFloatParams p)
{
    vg_to_float<uint8_t>(p);
}

extern "C" __global__ void vg_to_float_16(const VgFloatParams p)
{
    vg_to_float<uint16_t>(p);
}
