/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * float_ansnr (libvmaf v3.2.0 src/feature/ansnr_tools.c) on the float
 * luma of the frame, offset -128 added on load as picture_copy() adds it
 * after the division.
 *
 * vg_float_ansnr_filter: one thread per sample (32 x 8 blocks), both
 * filtered planes: per filter row a float sum of float products, left to
 * right, the rows added top to bottom into a float, as ansnr_filter2d_s()
 * (-fmad=false keeps products and sums separate). Reads through the
 * mirrored border of common/features/float_ansnr_params.h; no shared
 * memory.
 *
 * vg_float_ansnr_rows: one lane per row (gpu/core/rowsum.cuh), the signal and
 * noise sums of ansnr_mse_s() in float, left to right (the CPU's order).
 *
 * The last block of vg_float_ansnr_rows adds the row sums top to bottom
 * into two floats, as ansnr_mse_s() and vg_float_ansnr_add_rows(). No
 * atomics but the counter that finds that block, no tree reduction: every
 * float operation is the CPU's, in its order.
 */

#include "common/features/float_ansnr_params.h"
#include "gpu/core/rowsum.cuh"

__constant__ float vg_ansnr_ref_taps[9] = VG_ANSNR_REF_TAPS;
__constant__ float vg_ansnr_dis_taps[25] = VG_ANSNR_DIS_TAPS;

template <int FW>
__device__ __forceinline__ float vg_ansnr_filter_at(const float *taps,
                                                    const char *src,
                                                    int64_t pitch, int i, int j,
                                                    int w, int h)
{
    float acc = 0;

#pragma unroll
    for (int fi = 0; fi < FW; fi++) {
        const int ii = vg_ansnr_mirror(i - FW / 2 + fi, h);
        const float *row = (const float *)(src + (int64_t)ii * pitch);
        float inner = 0;
#pragma unroll
        for (int fj = 0; fj < FW; fj++) {
            const int jj = vg_ansnr_mirror(j - FW / 2 + fj, w);
            const float v = row[jj] + VG_ANSNR_OFFSET;
            inner += taps[fi * FW + fj] * v;
        }
        acc += inner;
    }
    return acc;
}

extern "C" __global__ void __launch_bounds__(VG_ANSNR_BLOCK_X *VG_ANSNR_BLOCK_Y)
    vg_float_ansnr_filter(const VgAnsnrKernelParams p)
{
    const int j = blockIdx.x * VG_ANSNR_BLOCK_X + threadIdx.x;
    const int i = blockIdx.y * VG_ANSNR_BLOCK_Y + threadIdx.y;

    if (i >= p.h || j >= p.w)
        return;
    ((float *)p.ref_filt)[(int64_t)i * p.w + j] =
        vg_ansnr_filter_at<VG_ANSNR_REF_WIDTH>(
            vg_ansnr_ref_taps, (const char *)p.ref, p.pitch, i, j, p.w, p.h);
    ((float *)p.dis_filt)[(int64_t)i * p.w + j] =
        vg_ansnr_filter_at<VG_ANSNR_DIS_WIDTH>(
            vg_ansnr_dis_taps, (const char *)p.dis, p.pitch, i, j, p.w, p.h);
}

static_assert(VG_ANSNR_ROWS_THREADS == VG_ROWSUM_THREADS, "ansnr rows");

extern "C" __global__ void __launch_bounds__(VG_ROWSUM_THREADS)
    vg_float_ansnr_rows(const VgAnsnrKernelParams p)
{
    __shared__ VgRowsumStrip<2, VG_ANSNR_ROWS_STRIP> sm;
    const int lane = threadIdx.x;
    const int row0 = blockIdx.x * VG_ANSNR_ROWS_STRIP;
    const float *r = (const float *)p.ref_filt, *d = (const float *)p.dis_filt;
    float acc[2] = { 0.0f, 0.0f };

    vg_rowsum_strip<2, 2, VG_ANSNR_ROWS_STRIP>(
        &sm, row0, p.h, p.w,
        [&](int i, int j, float *v) {
            const int64_t o = (int64_t)i * p.w + j;
            v[0] = r[o];
            v[1] = d[o];
        },
        [](float *s, const float *v) {
            const float e = v[0] - v[1];
            s[0] += v[0] * v[0];
            s[1] += e * e;
        },
        acc);
    if (lane < VG_ANSNR_ROWS_STRIP && row0 + lane < p.h) {
        ((float *)p.rows)[2 * (row0 + lane)] = acc[0];
        ((float *)p.rows)[2 * (row0 + lane) + 1] = acc[1];
    }
    if (!vg_rowsum_last((unsigned *)p.counter))
        return;

    /* the last block: sequence 0 the signal, 1 the noise, the row sums
     * top to bottom */
    __shared__ VgRowsumSeq<2> sm_tot;
    const float *rows = (const float *)p.rows;
    float tot = 0.0f;

    vg_rowsum_block<2>(
        &sm_tot, [&](int) { return p.h; },
        [&](int q, int i) { return __ldcg(&rows[2 * i + q]); },
        [](float s, float x) { return s + x; }, &tot);
    if (lane < 2)
        ((float *)p.out)[lane] = tot;
}
