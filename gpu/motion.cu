/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Integer motion SAD (libvmaf v3.2.0 src/feature/integer_motion.c,
 * motion_score_pipeline_8 / motion_score_pipeline_16).
 *
 * Thread mapping: a warp takes VG_MOTION_ROWS output rows of 60 columns.
 * Lane l holds the two columns x0 - 2 + 2 l and x0 - 1 + 2 l: it reads the
 * difference prev - cur of those columns (one word per picture and row
 * where the pair is aligned), mirrored reflect-101 at the frame's edges
 * like integer_motion.c mirror(), and applies the vertical 5-tap pass to
 * them: y = (sum + 2^(bpc-1)) >> bpc, libvmaf's y_round and shift (bpc = 8
 * gives its 8-bit constants 1 << 7 and >> 8). The horizontal taps of an
 * output read the two columns each side from lanes l - 1 and l + 1
 * (shuffles), in int64: v = (sum + 2^15) >> 16 (x_round). Lanes 0 and 31
 * only lend their columns. Mirroring the columns of the difference equals
 * mirroring the columns of the vertical result, since the vertical pass
 * works per column.
 *
 * Widths of the sums: |prev - cur| < 2^bpc (samples above the bit depth
 * are refused or fail the frame, include/vmafgpu.h) and the taps add up to
 * 2^16, so the vertical sums fit an int32 up to 15 bits (int64 above), and
 * every vertical result is below 2^16 in magnitude.
 *
 * Reduction: |v| summed per thread, then per block (gpu/core/reduce.cuh), one
 * 64-bit atomic per block. libvmaf sums |v| per row in uint32 and the rows
 * in uint64; for widths below 65537 a row sum cannot wrap (|v| <= 65535),
 * so the exact integer total is the same number in any order. The host
 * side refuses wider frames.
 */

#include "common/features/motion_params.h"
#include "gpu/core/pair.cuh"
#include "gpu/core/reduce.cuh"

static_assert(VG_MOTION_BLOCK_X == 32, "a block row is one warp");

/* integer_motion.c mirror(): -i below 0, 2n - i - 2 past the end; valid
 * for i in [-2, n + 1] when n >= 3 (the feature's minimum size), and the
 * kernel asks for nothing below -2. Indices past n + 1 belong to outputs
 * past the frame's end (read, never used); the result is clamped into the
 * frame whatever it asks. */
__device__ __forceinline__ int vg_motion_mirror(int i, int n)
{
    i = i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* the vertical pass of one column: diff rows d[0..4] */
template <bool WIDE>
__device__ __forceinline__ int32_t vg_motion_v(const int32_t *d, int bpc)
{
    const int g0 = VG_MOTION_TAP0, g1 = VG_MOTION_TAP1, g2 = VG_MOTION_TAP2;

    if (!WIDE) {
        const int32_t acc =
            g0 * d[0] + g1 * d[1] + g2 * d[2] + g1 * d[3] + g0 * d[4];
        return (acc + (1 << (bpc - 1))) >> bpc;
    }
    const int64_t acc = (int64_t)g0 * d[0] + (int64_t)g1 * d[1] +
                        (int64_t)g2 * d[2] + (int64_t)g1 * d[3] +
                        (int64_t)g0 * d[4];
    return (int32_t)((acc + ((int64_t)1 << (bpc - 1))) >> bpc);
}

/* the horizontal pass at one output: vertical results y[0..4] */
__device__ __forceinline__ unsigned vg_motion_h(int32_t ym2, int32_t ym1,
                                                int32_t y0, int32_t yp1,
                                                int32_t yp2)
{
    const int g0 = VG_MOTION_TAP0, g1 = VG_MOTION_TAP1, g2 = VG_MOTION_TAP2;
    const int64_t acc = (int64_t)g0 * ym2 + (int64_t)g1 * ym1 +
                        (int64_t)g2 * y0 + (int64_t)g1 * yp1 +
                        (int64_t)g0 * yp2;
    const int32_t v = (int32_t)((acc + (1 << 15)) >> 16);

    return (unsigned)(v < 0 ? -v : v);
}

template <typename T, bool WIDE>
__device__ __forceinline__ void vg_motion_sad(const VgMotionParams &p)
{
    const int lane = threadIdx.x;
    const int w = p.w, h = p.h;
    const int x0 = blockIdx.x * VG_MOTION_TILE_W;
    const int y0 =
        (blockIdx.y * VG_MOTION_BLOCK_Y + threadIdx.y) * VG_MOTION_ROWS;
    const int xe = x0 - 2 + 2 * lane;
    const int ce = vg_motion_mirror(xe, w), co = vg_motion_mirror(xe + 1, w);
    const bool pair = co == ce + 1 && !(ce & 1) &&
                      vg_pair_aligned<T>(p.prev_pitch | p.cur_pitch |
                                         (int64_t)p.prev | (int64_t)p.cur);
    const bool out = lane >= 1 && lane <= VG_MOTION_TILE_W / 2;
    int32_t de[VG_MOTION_ROWS + 4], dd[VG_MOTION_ROWS + 4];
    unsigned sum = 0;

    if (y0 < h) {
        /* every read issued before the first use */
#pragma unroll
        for (int t = 0; t < VG_MOTION_ROWS + 4; t++) {
            const int r = vg_motion_mirror(y0 - 2 + t, h);
            const T *pr =
                (const T *)((const char *)p.prev + (int64_t)r * p.prev_pitch);
            const T *cu =
                (const T *)((const char *)p.cur + (int64_t)r * p.cur_pitch);
            if (pair) {
                T pe, po, ue, uo;
                vg_load_pair(pr + ce, &pe, &po);
                vg_load_pair(cu + ce, &ue, &uo);
                de[t] = (int32_t)pe - (int32_t)ue;
                dd[t] = (int32_t)po - (int32_t)uo;
            } else {
                de[t] = (int32_t)pr[ce] - (int32_t)cu[ce];
                dd[t] = (int32_t)pr[co] - (int32_t)cu[co];
            }
        }
#pragma unroll
        for (int k = 0; k < VG_MOTION_ROWS; k++) {
            const int32_t ye = vg_motion_v<WIDE>(&de[k], p.bpc);
            const int32_t yo = vg_motion_v<WIDE>(&dd[k], p.bpc);
            const int32_t le = __shfl_up_sync(0xffffffffu, ye, 1);
            const int32_t lo = __shfl_up_sync(0xffffffffu, yo, 1);
            const int32_t re = __shfl_down_sync(0xffffffffu, ye, 1);
            const int32_t ro = __shfl_down_sync(0xffffffffu, yo, 1);
            if (out && y0 + k < h) {
                if (xe < w)
                    sum += vg_motion_h(le, lo, ye, yo, re);
                if (xe + 1 < w)
                    sum += vg_motion_h(lo, ye, yo, re, ro);
            }
        }
    }
    vg_block_sum_atomic(sum, (unsigned long long *)p.sad);
}

extern "C" __global__ void __launch_bounds__(
    VG_MOTION_BLOCK_X *VG_MOTION_BLOCK_Y)
    vg_motion_sad_8(const VgMotionParams p)
{
    vg_motion_sad<uint8_t, false>(p);
}

/* 16-bit samples: int32 vertical sums up to 15 bits per sample */
extern "C" __global__ void __launch_bounds__(
    VG_MOTION_BLOCK_X *VG_MOTION_BLOCK_Y)
    vg_motion_sad_16(const VgMotionParams p)
{
    if (p.bpc <= 15)
        vg_motion_sad<uint16_t, false>(p);
    else
        vg_motion_sad<uint16_t, true>(p);
}
