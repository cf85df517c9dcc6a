/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Picture conversion into the internal planar, LSB-aligned layout
 * (common/image.h). 32 x 8 blocks, one or four destination samples per
 * thread; no shared memory, no reduction. Exact: a byte copy (8-bit) or a
 * 16-bit word shifted right by `shift` (P010 / P016 / P216 / planar MSB keep their significant bits
 * in the high bits; the low bits are dropped, as a shift to LSB alignment
 * does on the CPU).
 */

#include "gpu/core/picture_params.h"

extern "C" __global__ void vg_convert_16(const VgConvParams p)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const uint16_t *src =
        (const uint16_t *)((const char *)p.src + (int64_t)y * p.src_pitch);
    uint16_t *dst = (uint16_t *)((char *)p.dst + (int64_t)y * p.dst_pitch);
    dst[x] = (uint16_t)(src[x] >> p.shift);
}

/* Both chroma planes of a semi-planar picture in one pass: each thread
 * four pairs, read sample by sample (the source may have any alignment a
 * crop leaves), written as one 4-sample vector per plane. */
template <typename T, typename V>
__device__ __forceinline__ void vg_split(const VgSplitParams &p)
{
    const unsigned x = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const T *src =
        (const T *)((const char *)p.src + (int64_t)y * p.src_pitch) + 2 * x;
    T *du = (T *)((char *)p.dst[0] + (int64_t)y * p.dst_pitch[0]) + x;
    T *dv = (T *)((char *)p.dst[1] + (int64_t)y * p.dst_pitch[1]) + x;
    T u[4], v[4];

#pragma unroll
    for (unsigned k = 0; k < 4; k++) {
        u[k] = x + k < p.w ? (T)(src[2 * k] >> p.shift) : 0;
        v[k] = x + k < p.w ? (T)(src[2 * k + 1] >> p.shift) : 0;
    }
    if (x + 4 <= p.w) {
        *(V *)du = V{ u[0], u[1], u[2], u[3] };
        *(V *)dv = V{ v[0], v[1], v[2], v[3] };
    } else {
#pragma unroll
        for (unsigned k = 0; k < 4; k++) {
            if (x + k < p.w) {
                du[k] = u[k];
                dv[k] = v[k];
            }
        }
    }
}

extern "C" __global__ void vg_split_8(const VgSplitParams p)
{
    vg_split<uint8_t, uchar4>(p);
}

extern "C" __global__ void vg_split_16(const VgSplitParams p)
{
    vg_split<uint16_t, ushort4>(p);
}

/* Samples above the bit depth: no cost but one compare in range; an
 * atomic only for a bad sample (see VgRangeParams). */
extern "C" __global__ void vg_check_range_16(const VgRangeParams p)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= p.w || y >= p.h)
        return;
    const uint16_t v =
        ((const uint16_t *)((const char *)p.src + (int64_t)y * p.pitch))[x];
    if (v > p.maxval)
        atomicMax((unsigned long long *)p.out,
                  (unsigned long long)v << 32 | (0xffffffffu - (y * p.w + x)));
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
    const T *src =
        (const T *)((const char *)p.src + (int64_t)y * p.src_pitch) + x;
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
