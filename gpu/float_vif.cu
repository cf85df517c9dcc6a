/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Float VIF kernels (libvmaf v3.2.0 src/feature/vif.c compute_vif(),
 * vif_tools.c), equal bit for bit to cpu/float_vif.c.
 *
 * Per frame: vg_fvif_load (float luma + -128, as picture_copy()), then
 * vg_fvif_prescale when vif_prescale changes the size; per scale s >= 1
 * vg_fvif_vdec + vg_fvif_hdec (scale s's filter, every second row and
 * column kept); per computed scale vg_fvif_vstat + vg_fvif_hstat (the five
 * filtered quantities and the per-sample statistic) and vg_fvif_rows; at
 * the end vg_fvif_total.
 *
 * Thread mapping: the 2-D kernels take one output sample per thread,
 * 32 x 8 blocks, blockIdx.z the picture (ref, dis) where there are two;
 * vg_fvif_rows one row per lane, vg_fvif_total one warp (gpu/rowsum.cuh,
 * which reads through shared memory and keeps each addition chain whole).
 * No atomics.
 *
 * Order and exactness (built with -fmad=false; IEEE division, no flush to
 * zero), the same as the CPU code:
 *  - every filter output is a float accumulator starting at 0 that adds
 *    f[k] * x (or f[k] * (x * x), f[k] * (x * y)) for taps k ascending
 *    over mirrored indices (vg_fvif_mirror), vertical pass first, its
 *    result stored as float, then the horizontal pass over those;
 *  - the prescale sample and the statistic are the shared functions of
 *    common/features/float_vif_params.h, with tables and constants built on
 *    the host (vg_float_vif_setup());
 *  - vg_fvif_rows adds a row's num (and den) left to right into a float
 *    from 0, vg_fvif_total adds the rows of each scale top to bottom into a
 *    float from 0: vif_statistic_s()'s order, the additions of
 *    vg_float_vif_sum_rows(). No reduction is reordered.
 */

#include "common/features/float_vif_params.h"
#include "gpu/rowsum.cuh"

#define VG_FVIF_KERNEL extern "C" __global__ void \
    __launch_bounds__(VG_FVIF_BX * VG_FVIF_BY)

/* input luma as float (offset 0) plus libvmaf's offset, packed w floats */
VG_FVIF_KERNEL vg_fvif_load(const VgFvifKernelParams p)
{
    const int x = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int y = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;

    if (x >= p.w || y >= p.h)
        return;
    const float *src = (const float *)((const char *)(z ? p.src[1] : p.src[0]) +
                                       (int64_t)y * p.src_pitch);
    float *dst = (float *)(z ? p.dst[1] : p.dst[0]);
    dst[(int64_t)y * p.w + x] = src[x] + -128.0f;
}

VG_FVIF_KERNEL vg_fvif_prescale(const VgFvifKernelParams p)
{
    const int x = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int y = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;

    if (x >= p.w || y >= p.h)
        return;
    const float *src = (const float *)(z ? p.src[1] : p.src[0]);
    float *dst = (float *)(z ? p.dst[1] : p.dst[0]);
    const int64_t tx = (int64_t)x * VG_FVIF_PRESCALE_TAPS;
    const int64_t ty = (int64_t)y * VG_FVIF_PRESCALE_TAPS;
    dst[(int64_t)y * p.w + x] = vg_fvif_prescale_px(
        p.method, src, p.src_w, (const int32_t *)p.xi + tx,
        (const float *)p.xw + tx, (const int32_t *)p.yi + ty,
        (const float *)p.yw + ty);
}

/* decimation, vertical: tmp[z][i][j] over rows 2i of the src_w x src_h
 * picture, i < h, j < src_w */
VG_FVIF_KERNEL vg_fvif_vdec(const VgFvifKernelParams p)
{
    const int j = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int i = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;
    const int r = p.taps / 2;
    float acc = 0;

    if (j >= p.src_w || i >= p.h)
        return;
    const float *src = (const float *)(z ? p.src[1] : p.src[0]);
    float *tmp = (float *)p.tmp + (int64_t)z * p.h * p.src_w;
    for (int k = 0; k < p.taps; k++) {
        const int ii = vg_fvif_mirror(2 * i - r + k, p.src_h);
        acc += p.filter[k] * src[(int64_t)ii * p.src_w + j];
    }
    tmp[(int64_t)i * p.src_w + j] = acc;
}

/* decimation, horizontal: dst[z][i][j] from columns 2j of tmp */
VG_FVIF_KERNEL vg_fvif_hdec(const VgFvifKernelParams p)
{
    const int j = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int i = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;
    const int r = p.taps / 2;
    float acc = 0;

    if (j >= p.w || i >= p.h)
        return;
    const float *row = (const float *)p.tmp + (int64_t)z * p.h * p.src_w +
                       (int64_t)i * p.src_w;
    float *dst = (float *)(z ? p.dst[1] : p.dst[0]);
    for (int k = 0; k < p.taps; k++)
        acc += p.filter[k] * row[vg_fvif_mirror(2 * j - r + k, p.src_w)];
    dst[(int64_t)i * p.w + j] = acc;
}

/* statistic, vertical: the five quantities of a w x h scale into tmp */
VG_FVIF_KERNEL vg_fvif_vstat(const VgFvifKernelParams p)
{
    const int j = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int i = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int r = p.taps / 2;
    float m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;

    if (j >= p.w || i >= p.h)
        return;
    const float *a = (const float *)p.src[0], *b = (const float *)p.src[1];
    const int64_t n = (int64_t)p.w * p.h, o = (int64_t)i * p.w + j;
    float *tmp = (float *)p.tmp;
    for (int k = 0; k < p.taps; k++) {
        const int64_t ii = (int64_t)vg_fvif_mirror(i - r + k, p.h) * p.w + j;
        const float fk = p.filter[k], x = a[ii], y = b[ii];
        m1 += fk * x;
        m2 += fk * y;
        xx += fk * (x * x);
        yy += fk * (y * y);
        xy += fk * (x * y);
    }
    tmp[o] = m1;
    tmp[n + o] = m2;
    tmp[2 * n + o] = xx;
    tmp[3 * n + o] = yy;
    tmp[4 * n + o] = xy;
}

/* statistic, horizontal: the five filtered values, then num and den */
VG_FVIF_KERNEL vg_fvif_hstat(const VgFvifKernelParams p)
{
    const int j = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int i = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int r = p.taps / 2;
    float q[5] = { 0, 0, 0, 0, 0 };

    if (j >= p.w || i >= p.h)
        return;
    const int64_t n = (int64_t)p.w * p.h, row = (int64_t)i * p.w;
    const float *tmp = (const float *)p.tmp;
    for (int k = 0; k < p.taps; k++) {
        const int64_t jj = row + vg_fvif_mirror(j - r + k, p.w);
        const float fk = p.filter[k];
#pragma unroll
        for (int c = 0; c < 5; c++)
            q[c] += fk * tmp[c * n + jj];
    }
    vg_fvif_statistic(q[0], q[1], q[2], q[3], q[4], p.egl, p.sigma_nsq,
                      p.sigma_max_inv, (float *)p.num + row + j,
                      (float *)p.den + row + j);
}

/* the rows' num and den, left to right, two chains per lane
 * (gpu/rowsum.cuh: one warp of 32 rows per block) */
extern "C" __global__ void __launch_bounds__(32)
vg_fvif_rows(const VgFvifKernelParams p)
{
    __shared__ VgRowsumTile<2> sm;
    const int lane = threadIdx.x;
    const int row0 = blockIdx.x * 32;
    const float *n = (const float *)p.num, *d = (const float *)p.den;
    float acc[2] = { 0.0f, 0.0f };

    vg_rowsum_warp<2, 2>(&sm, row0, p.h,
        [&](int) { return p.w; },
        [&](int i, int j, float *v) {
            const int64_t o = (int64_t)i * p.w + j;
            v[0] = n[o];
            v[1] = d[o];
        },
        [](float *s, const float *v) {
            s[0] += v[0];
            s[1] += v[1];
        }, acc);
    if (row0 + lane < p.h) {
        ((float *)p.rows_num)[p.row_off + row0 + lane] = acc[0];
        ((float *)p.rows_den)[p.row_off + row0 + lane] = acc[1];
    }
}

/* each scale's rows top to bottom (vg_float_vif_sum_rows()): sequence
 * 2 * scale + k the num (k = 0) or den (k = 1) of that scale */
extern "C" __global__ void __launch_bounds__(VG_FVIF_TOTAL_THREADS)
vg_fvif_total(const VgFvifKernelParams p)
{
    __shared__ __align__(16) float sm[8 * (VG_FVIF_TOTAL_THREADS + 4)];
    const float *rn = (const float *)p.rows_num, *rd = (const float *)p.rows_den;
    float acc = 0.0f;

    vg_rowsum_block(sm, 8,
        [&](int q) { return q / 2 >= p.first ? p.sc_h[q / 2] : 0; },
        [&](int q, int i) { return (q & 1 ? rd : rn)[p.sc_off[q / 2] + i]; },
        [](float a, float x) { return a + x; }, &acc);
    if (threadIdx.x < 8)
        ((float *)p.res)[threadIdx.x] = acc;
}
