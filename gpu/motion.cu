/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Integer motion SAD (libvmaf v3.2.0 src/feature/integer_motion.c,
 * motion_score_pipeline_8 / motion_score_pipeline_16).
 *
 * Thread mapping: a 32 x 8 block produces a 32 x 16 tile of outputs, two
 * rows per thread. Shared memory: the difference prev - cur of the tile
 * plus a 2-sample border (20 x 36 int32, mirrored reflect-101 at the frame
 * edges like integer_motion.c mirror()), then the vertical 5-tap pass for
 * the 16 output rows and all 36 columns (16 x 36 int32), computed once
 * per column: y = (sum + 2^(bpc-1)) >> bpc, libvmaf's y_round and shift
 * (bpc = 8 gives its 8-bit constants 1 << 7 and >> 8). Each output then
 * applies the horizontal taps in int64: v = (sum + 2^15) >> 16 (x_round).
 * Mirroring the columns of the difference equals mirroring the columns of
 * the vertical result, since the vertical pass works per column.
 *
 * Reduction: |v| summed per thread, then per block (gpu/reduce.cuh), one
 * 64-bit atomic per block. libvmaf sums |v| per row in uint32 and the rows
 * in uint64; for widths below 65537 a row sum cannot wrap (|v| <= 65535),
 * so the exact integer total is the same number in any order. The host
 * side refuses wider frames.
 */

#include "common/features/motion_params.h"
#include "gpu/reduce.cuh"

#define MW (VG_MOTION_TILE_W + 4)
#define MH (VG_MOTION_TILE_H + 4)

/* integer_motion.c mirror(): -i below 0, 2n - i - 2 past the end; valid
 * for i in [-2, n + 1] when n >= 3 (the feature's minimum size) */
__device__ __forceinline__ int vg_motion_mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return 2 * n - i - 2;
    return i;
}

template <typename T>
__device__ __forceinline__ void vg_motion_sad(const VgMotionParams &p)
{
    const int g0 = VG_MOTION_TAP0, g1 = VG_MOTION_TAP1, g2 = VG_MOTION_TAP2;
    __shared__ int32_t diff[MH][MW];
    __shared__ int32_t ycol[VG_MOTION_TILE_H][MW];
    const int w = p.w, h = p.h;
    const int x0 = blockIdx.x * VG_MOTION_TILE_W;
    const int y0 = blockIdx.y * VG_MOTION_TILE_H;
    const int tid = threadIdx.y * VG_MOTION_BLOCK_X + threadIdx.x;
    const int nthr = VG_MOTION_BLOCK_X * VG_MOTION_BLOCK_Y;
    const int shift = p.bpc;
    const int64_t y_round = (int64_t)1 << (p.bpc - 1);
    unsigned long long sum = 0;

    /* fixed trip counts, unrolled, every read before the first store: a
     * thread's reads are all in flight at once */
    int32_t d[(MH * MW + nthr - 1) / nthr];
#pragma unroll
    for (int n = 0; n < (MH * MW + nthr - 1) / nthr; n++) {
        const int i = tid + n * nthr;
        const int r = i / MW, c = i % MW;
        int gy = y0 - 2 + r, gx = x0 - 2 + c;

        d[n] = 0;
        if (i < MH * MW && gy < h + 2 && gx < w + 2) {
            gy = vg_motion_mirror(gy, h);
            gx = vg_motion_mirror(gx, w);
            const T *pr = (const T *)((const char *)p.prev + (int64_t)gy * p.prev_pitch);
            const T *cu = (const T *)((const char *)p.cur + (int64_t)gy * p.cur_pitch);
            d[n] = (int32_t)pr[gx] - (int32_t)cu[gx];
        }
    }
#pragma unroll
    for (int n = 0; n < (MH * MW + nthr - 1) / nthr; n++) {
        const int i = tid + n * nthr;
        if (i < MH * MW)
            diff[i / MW][i % MW] = d[n];
    }
    __syncthreads();

#pragma unroll
    for (int n = 0; n < (VG_MOTION_TILE_H * MW + nthr - 1) / nthr; n++) {
        const int i = tid + n * nthr;
        if (i >= VG_MOTION_TILE_H * MW)
            break;
        const int r = i / MW, c = i % MW;

        if (sizeof(T) == 1) {
            /* 8 bits: |diff| <= 255 and the taps add up to 2^16, so the
             * vertical sums fit an int32 */
            const int32_t acc = g0 * diff[r][c] + g1 * diff[r + 1][c] +
                                g2 * diff[r + 2][c] + g1 * diff[r + 3][c] +
                                g0 * diff[r + 4][c];
            ycol[r][c] = (acc + (int32_t)y_round) >> shift;
        } else {
            const int64_t acc = (int64_t)g0 * diff[r][c] + (int64_t)g1 * diff[r + 1][c] +
                                (int64_t)g2 * diff[r + 2][c] + (int64_t)g1 * diff[r + 3][c] +
                                (int64_t)g0 * diff[r + 4][c];
            ycol[r][c] = (int32_t)((acc + y_round) >> shift);
        }
    }
    __syncthreads();

    const int c = threadIdx.x;
    if (x0 + c < w) {
        for (int k = 0; k < VG_MOTION_TILE_H / VG_MOTION_BLOCK_Y; k++) {
            const int r = threadIdx.y + k * VG_MOTION_BLOCK_Y;
            if (y0 + r >= h)
                break;
            const int64_t acc = (int64_t)g0 * ycol[r][c] + (int64_t)g1 * ycol[r][c + 1] +
                                (int64_t)g2 * ycol[r][c + 2] + (int64_t)g1 * ycol[r][c + 3] +
                                (int64_t)g0 * ycol[r][c + 4];
            const int32_t v = (int32_t)((acc + (1 << 15)) >> 16);
            sum += (unsigned)(v < 0 ? -v : v);
        }
    }
    vg_block_sum_atomic(sum, (unsigned long long *)p.sad);
}

extern "C" __global__ void __launch_bounds__(VG_MOTION_BLOCK_X * VG_MOTION_BLOCK_Y)
vg_motion_sad_8(const VgMotionParams p)
{
    vg_motion_sad<uint8_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_MOTION_BLOCK_X * VG_MOTION_BLOCK_Y)
vg_motion_sad_16(const VgMotionParams p)
{
    vg_motion_sad<uint16_t>(p);
}
