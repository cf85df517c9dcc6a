/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Float motion (libvmaf v3.2.0 src/feature/float_motion.c, motion.c,
 * common/convolution.c), the same operations in the same order as
 * cpu/float_motion.c.
 *
 * vg_fmotion_blur_v / vg_fmotion_blur_h: one thread per output sample
 * (128-thread blocks along x, one grid row per image row), no shared
 * memory. The vertical pass reads the frame's float luma (offset 0) and
 * adds -128 on load, as picture_copy() after its division; each output is
 * 0 + tap[0] * s[0] + tap[1] * s[1] + ... in float, every product and sum
 * rounded on its own (__fmul_rn / __fadd_rn, no contraction), mirrors
 * reflect-101: bit for bit convolution_y_c_s() then convolution_x_c_s().
 *
 * vg_fmotion_row_sad: one thread per row, no reduction between threads
 * (ADR-1409 of the design notes): the thread adds |a - b| left to right,
 * as vmaf_image_sad_c(): the float difference, widened to double, added in
 * double to the float sum and rounded back to float. The rows are added
 * on the host (vg_float_motion_sad()), top to bottom in float, the code
 * the CPU path calls.
 */

#include "common/features/float_motion_params.h"

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
    const int y = blockIdx.y;
    const int w = (int)p.w, h = (int)p.h, r = (int)p.n_taps / 2;
    const float *src = (const float *)p.src;
    float acc = 0.0f;

    if (x >= w || y >= h)
        return;
    for (int k = 0; k < (int)p.n_taps; k++) {
        const int yy = vg_fmotion_mirror(y - r + k, h);
        const float v = __fadd_rn(src[(int64_t)yy * p.src_pitch + x], -128.0f);
        acc = __fadd_rn(acc, __fmul_rn(p.tap[k], v));
    }
    ((float *)p.dst)[(int64_t)y * p.dst_pitch + x] = acc;
}

extern "C" __global__ void __launch_bounds__(VG_FMOTION_BLOCK)
vg_fmotion_blur_h(const VgFloatMotionBlurParams p)
{
    const int x = blockIdx.x * VG_FMOTION_BLOCK + threadIdx.x;
    const int y = blockIdx.y;
    const int w = (int)p.w, h = (int)p.h, r = (int)p.n_taps / 2;
    const float *src = (const float *)p.src + (int64_t)y * p.src_pitch;
    float acc = 0.0f;

    if (x >= w || y >= h)
        return;
    for (int k = 0; k < (int)p.n_taps; k++)
        acc = __fadd_rn(acc, __fmul_rn(p.tap[k],
                                       src[vg_fmotion_mirror(x - r + k, w)]));
    ((float *)p.dst)[(int64_t)y * p.dst_pitch + x] = acc;
}

extern "C" __global__ void __launch_bounds__(VG_FMOTION_BLOCK)
vg_fmotion_row_sad(const VgFloatMotionSadParams p)
{
    const int y = blockIdx.x * VG_FMOTION_BLOCK + threadIdx.x;
    const float *a, *b;
    float acc = 0.0f;

    if (y >= (int)p.h)
        return;
    a = (const float *)p.a + (int64_t)y * p.pitch;
    b = (const float *)p.b + (int64_t)y * p.pitch;
    for (int j = 0; j < (int)p.w; j++) {
        const double d = fabs((double)__fsub_rn(a[j], b[j]));
        acc = __double2float_rn(__dadd_rn((double)acc, d));
    }
    ((float *)p.row_sad)[y] = acc;
}
