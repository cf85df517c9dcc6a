/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Float motion (libvmaf v3.2.0 src/feature/float_motion.c, motion.c,
 * common/convolution.c), the same operations in the same order as
 * cpu/float_motion.c.
 *
 * vg_fmotion_blur_v / vg_fmotion_blur_h: one thread per output column of
 * VG_FMOTION_ROWS rows (128-thread blocks along x), no shared memory. The vertical pass reads the frame's float luma (offset 0) and
 * adds -128 on load, as picture_copy() after its division; each output is
 * 0 + tap[0] * s[0] + tap[1] * s[1] + ... in float, every product and sum
 * rounded on its own (__fmul_rn / __fadd_rn, no contraction), mirrors
 * reflect-101: bit for bit convolution_y_c_s() then convolution_x_c_s().
 *
 * vg_fmotion_row_sad: one lane per row (gpu/core/rowsum.cuh), no reduction
 * between threads: the lane adds |a - b| left to right, as
 * vmaf_image_sad_c(): the float difference, widened to double, added in
 * double to the float sum and rounded back to float. That is one float
 * addition: a double sum of two floats rounded to float equals their float
 * sum, because double rounding is innocuous for a sum when the wider
 * format has at least 2p + 2 bits (53 >= 2 * 24 + 2). The rows are added
 * on the host (vg_float_motion_sad()), top to bottom in float, the code
 * the CPU path calls.
 */

#include "common/features/float_motion_params.h"
#include "gpu/core/rowsum.cuh"

__device__ __forceinline__ int vg_fmotion_mirror(int i, int n)
{
    if (i < 0)
        return -i;
    if (i >= n)
        return n - (i - n + 2);
    return i;
}

extern "C" __global__ void __launch_bounds__(VG_FMOTION_BLOCK)
    vg_fmotion_blur_v(const VgFloatMotionBlurParams p)
{
    const int x = blockIdx.x * VG_FMOTION_BLOCK + threadIdx.x;
    const int w = (int)p.w, h = (int)p.h, r = (int)p.n_taps / 2;
    const int y1 = min(h, (int)(blockIdx.y + 1) * VG_FMOTION_ROWS);
    const float *src = (const float *)p.src;
    float tap[5];

    if (x >= w)
        return;
#pragma unroll
    for (int k = 0; k < 5; k++)
        tap[k] = p.tap[k];
    for (int y = blockIdx.y * VG_FMOTION_ROWS; y < y1; y++) {
        float acc = 0.0f;

#pragma unroll
        for (int k = 0; k < 5; k++) {
            if (k >= (int)p.n_taps)
                break;
            const int yy = vg_fmotion_mirror(y - r + k, h);
            const float v =
                __fadd_rn(src[(int64_t)yy * p.src_pitch + x], -128.0f);
            acc = __fadd_rn(acc, __fmul_rn(tap[k], v));
        }
        ((float *)p.dst)[(int64_t)y * p.dst_pitch + x] = acc;
    }
}

extern "C" __global__ void __launch_bounds__(VG_FMOTION_BLOCK)
    vg_fmotion_blur_h(const VgFloatMotionBlurParams p)
{
    const int x = blockIdx.x * VG_FMOTION_BLOCK + threadIdx.x;
    const int w = (int)p.w, h = (int)p.h, r = (int)p.n_taps / 2;
    const int y1 = min(h, (int)(blockIdx.y + 1) * VG_FMOTION_ROWS);
    float tap[5];

    if (x >= w)
        return;
#pragma unroll
    for (int k = 0; k < 5; k++)
        tap[k] = p.tap[k];
    for (int y = blockIdx.y * VG_FMOTION_ROWS; y < y1; y++) {
        const float *src = (const float *)p.src + (int64_t)y * p.src_pitch;
        float acc = 0.0f;

#pragma unroll
        for (int k = 0; k < 5; k++) {
            if (k >= (int)p.n_taps)
                break;
            acc = __fadd_rn(
                acc, __fmul_rn(tap[k], src[vg_fmotion_mirror(x - r + k, w)]));
        }
        ((float *)p.dst)[(int64_t)y * p.dst_pitch + x] = acc;
    }
}

static_assert(VG_FMOTION_SAD_THREADS == VG_ROWSUM_THREADS, "row_sad");

extern "C" __global__ void __launch_bounds__(VG_ROWSUM_THREADS)
    vg_fmotion_row_sad(const VgFloatMotionSadParams p)
{
    __shared__ VgRowsumStrip<2, VG_FMOTION_SAD_STRIP> sm;
    const int row0 = blockIdx.x * VG_FMOTION_SAD_STRIP;
    const float *a = (const float *)p.a, *b = (const float *)p.b;
    float acc[1] = { 0.0f };

    vg_rowsum_strip<2, 1, VG_FMOTION_SAD_STRIP>(
        &sm, row0, (int)p.h, (int)p.w,
        [&](int i, int j, float *v) {
            const int64_t o = (int64_t)i * p.pitch + j;
            v[0] = a[o];
            v[1] = b[o];
        },
        [](float *s, const float *v) {
            s[0] = __fadd_rn(s[0], fabsf(__fsub_rn(v[0], v[1])));
        },
        acc);
    if (threadIdx.x < VG_FMOTION_SAD_STRIP &&
        row0 + (int)threadIdx.x < (int)p.h)
        ((float *)p.row_sad)[row0 + threadIdx.x] = acc[0];
}
