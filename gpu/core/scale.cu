/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Scaling of a distorted picture (common/scale.h), in two passes over up
 * to three planes (grid z = plane), one thread per output sample, 64 x 4
 * blocks, no shared memory:
 *
 * - vg_scale_h_{8,16}: each source row into 15-bit signed intermediates,
 *   min(sum of sample * tap >> (bpc - 1), 32767), libswscale's
 *   hScale8To15 / hScale16To15;
 * - vg_scale_v_{8,16}: each output sample,
 *   clip((2^(26 - bpc) + sum of intermediate * tap) >> (27 - bpc)), its
 *   yuv2planeX / yuv2nv12cX / yuv2p01x family.
 *
 * Exact: integer arithmetic only, each sum over the taps of one output as
 * the host pass (vg_scaler_run()) does it, in 32-bit words (the vertical
 * sum wraps as libswscale's unsigned one does; neither can overflow on
 * samples within the bit depth). Taps at or past the source's end carry no
 * weight and are not read.
 */

#include "gpu/core/scale_params.h"

template <typename T>
__device__ __forceinline__ void vg_scale_h(const VgScaleParams &p)
{
    const VgScalePlane &pl = p.plane[blockIdx.z];
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= pl.w || y >= pl.h)
        return;
    const T *src =
        (const T *)((const char *)pl.src + (int64_t)y * pl.src_pitch);
    const int pos = ((const int32_t *)pl.taps.pos)[x];
    const int16_t *c = (const int16_t *)pl.taps.coef + (size_t)x * pl.taps.size;
    const unsigned taps = min(pl.taps.size, pl.taps.n_in - (unsigned)pos);
    int v = 0;

    for (unsigned j = 0; j < taps; j++)
        v += (int)src[pos + j] * c[j];
    v >>= p.bpc - 1;
    ((int16_t *)((char *)pl.dst + (int64_t)y * pl.dst_pitch))[x] =
        (int16_t)min(v, 32767);
}

template <typename T>
__device__ __forceinline__ void vg_scale_v(const VgScaleParams &p)
{
    const VgScalePlane &pl = p.plane[blockIdx.z];
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;

    if (x >= pl.w || y >= pl.h)
        return;
    const int pos = ((const int32_t *)pl.taps.pos)[y];
    const int16_t *c = (const int16_t *)pl.taps.coef + (size_t)y * pl.taps.size;
    const unsigned taps = min(pl.taps.size, pl.taps.n_in - (unsigned)pos);
    const char *col = (const char *)pl.src + (int64_t)pos * pl.src_pitch +
                      x * sizeof(int16_t);
    const int maxv = (1 << p.bpc) - 1;
    unsigned v = 1u << (26 - p.bpc);

    for (unsigned j = 0; j < taps; j++)
        v += (unsigned)(*(const int16_t *)(col + (int64_t)j * pl.src_pitch) *
                        c[j]);
    const int o = (int)v >> (27 - p.bpc);
    ((T *)((char *)pl.dst + (int64_t)y * pl.dst_pitch))[x] =
        (T)(o < 0      ? 0
            : o > maxv ? maxv
                       : o);
}

extern "C" __global__ void vg_scale_h_8(const VgScaleParams p)
{
    vg_scale_h<uint8_t>(p);
}

extern "C" __global__ void vg_scale_h_16(const VgScaleParams p)
{
    vg_scale_h<uint16_t>(p);
}

extern "C" __global__ void vg_scale_v_8(const VgScaleParams p)
{
    vg_scale_v<uint8_t>(p);
}

extern "C" __global__ void vg_scale_v_16(const VgScaleParams p)
{
    vg_scale_v<uint16_t>(p);
}
