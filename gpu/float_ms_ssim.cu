/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * float_ms_ssim's pyramid step (libvmaf v3.2.0 ms_ssim.c, iqa/decimate.c
 * with the 9x9 table g_lpf, factor 2), as cpu/float_ssim.c
 * vg_ssim_decimate(); the SSIM map of each scale is gpu/float_ssim.cu's.
 *
 * Thread mapping: one thread per output (x, y) of image blockIdx.z (0 ref,
 * 1 dis), 32 x 8 blocks, no shared memory; outputs whose window is inside
 * the image skip the mirroring (the same samples, fewer instructions). Exactness: the output is the
 * thread's own double sum of the 81 float products, v outer, u inner,
 * coordinates mirrored once (KBND_SYMMETRIC; every scale is at least 11
 * wide and high, so once is enough), rounded to float: the CPU's
 * operations in the CPU's order.
 */

#include "common/features/float_ssim_params.h"

__constant__ float vg_ms_ssim_lpf[VG_MS_SSIM_LPF][VG_MS_SSIM_LPF] =
    VG_MS_SSIM_LPF_TAPS;

extern "C" __global__ void __launch_bounds__(VG_SSIM_BX * VG_SSIM_BY)
vg_ms_ssim_decimate(const VgSsimDecimateParams p)
{
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= p.sw || y >= p.sh)
        return;
    const char *src = (const char *)(blockIdx.z ? p.src[1] : p.src[0]);
    float *dst = (float *)((char *)(blockIdx.z ? p.dst[1] : p.dst[0]) + (int64_t)y * p.dst_pitch);
    const int half = VG_MS_SSIM_LPF / 2;
    double sum = 0.0;

    if (2 * x >= half && 2 * x + half < p.w && 2 * y >= half && 2 * y + half < p.h) {
        /* inside: no mirrored coordinate, the same products in the same order */
        const float *row = (const float *)(src + (int64_t)(2 * y - half) * p.src_pitch) +
                           2 * x - half;
#pragma unroll
        for (int v = 0; v < VG_MS_SSIM_LPF; v++) {
#pragma unroll
            for (int u = 0; u < VG_MS_SSIM_LPF; u++)
                sum += (double)(row[u] * vg_ms_ssim_lpf[v][u]);
            row = (const float *)((const char *)row + p.src_pitch);
        }
    } else {
#pragma unroll
        for (int v = -half; v <= half; v++) {
            const int yy = VG_SSIM_MIRROR(2 * y + v, p.h);
            const float *row = (const float *)(src + (int64_t)yy * p.src_pitch);
#pragma unroll
            for (int u = -half; u <= half; u++) {
                const int xx = VG_SSIM_MIRROR(2 * x + u, p.w);
                sum += (double)(row[xx] * vg_ms_ssim_lpf[v + half][u + half]);
            }
        }
    }
    dst[x] = (float)sum;
}
