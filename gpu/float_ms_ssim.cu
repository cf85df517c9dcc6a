/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * float_ms_ssim's pyramid step (libvmaf v3.2.0 ms_ssim.c, iqa/decimate.c
 * with the 9x9 table g_lpf, factor 2), as cpu/float_ssim.c
 * decimate_any(); the SSIM map of each scale is gpu/float_ssim.cu's.
 *
 * Thread mapping: one thread per output (x, y) of image blockIdx.z (0 ref,
 * 1 dis), 32 x 8 blocks, no shared memory; an output whose window and the
 * column after it are inside the image reads each row of the window as
 * five aligned pairs (its first column, 2x - 4, is even), the others
 * mirror each coordinate. Exactness: every
 * output is its own double sum of the 81 float products, v outer, u inner,
 * coordinates mirrored once (KBND_SYMMETRIC; every scale is at least 11
 * wide and high, so once is enough), rounded to float: the CPU's
 * operations in the CPU's order. A share of the products is added through
 * gpu/core/f2d.h instead of the conversion instruction (the same sum, bit for
 * bit): the even columns of the table when no sample of the source has
 * its sign bit set (the engine's float luma: the first step), each
 * product's sign then known from the table's; the odd columns otherwise.
 */

#include "common/features/float_ssim_params.h"
#include "gpu/core/f2d.h"

__constant__ float vg_ms_ssim_lpf[VG_MS_SSIM_LPF][VG_MS_SSIM_LPF] =
    VG_MS_SSIM_LPF_TAPS;

namespace
{
constexpr float vg_ms_ssim_lpf_host[VG_MS_SSIM_LPF][VG_MS_SSIM_LPF] =
    VG_MS_SSIM_LPF_TAPS;

constexpr bool vg_ms_ssim_lpf_signs_hold()
{
    for (int v = 0; v < VG_MS_SSIM_LPF; v++)
        for (int u = 0; u < VG_MS_SSIM_LPF; u++)
            if ((vg_ms_ssim_lpf_host[v][u] < 0.0f) !=
                    (bool)VG_MS_SSIM_LPF_NEG(v, u) ||
                vg_ms_ssim_lpf_host[v][u] == 0.0f)
                return false;
    return true;
}
static_assert(vg_ms_ssim_lpf_signs_hold(),
              "VG_MS_SSIM_LPF_NEG disagrees with the table");

struct VgMsSsimLpfAbs {
    float g[VG_MS_SSIM_LPF][VG_MS_SSIM_LPF];
};

constexpr VgMsSsimLpfAbs vg_ms_ssim_lpf_abs_table()
{
    VgMsSsimLpfAbs a = {};

    for (int v = 0; v < VG_MS_SSIM_LPF; v++)
        for (int u = 0; u < VG_MS_SSIM_LPF; u++)
            a.g[v][u] = vg_ms_ssim_lpf_host[v][u] < 0.0f
                            ? -vg_ms_ssim_lpf_host[v][u]
                            : vg_ms_ssim_lpf_host[v][u];
    return a;
}
} // namespace

/* the table's magnitudes: x |g| is |x g| (round to nearest is symmetric) */
__constant__ VgMsSsimLpfAbs vg_ms_ssim_lpf_abs = vg_ms_ssim_lpf_abs_table();

/* acc + (double)(x * g(v, u)); SRC_POS: x has its sign bit clear */
template <bool SRC_POS>
__device__ __forceinline__ double vg_ms_ssim_tap(double acc, float x, int v,
                                                 int u)
{
    if (SRC_POS && !(u & 1)) {
        const float m = x * vg_ms_ssim_lpf_abs.g[v][u];

        return VG_MS_SSIM_LPF_NEG(v, u) ? vg_f2d_sub_pos(acc, m)
                                        : vg_f2d_add_pos(acc, m);
    }
    if (!SRC_POS && (u & 1))
        return vg_f2d_add(acc, x * vg_ms_ssim_lpf[v][u]);
    return acc + (double)(x * vg_ms_ssim_lpf[v][u]);
}

/* one output with mirrored coordinates */
__device__ __forceinline__ float vg_ms_ssim_decimate_edge(
    const VgSsimDecimateParams &p, const char *src, int x, int y)
{
    const int half = VG_MS_SSIM_LPF / 2;
    double sum = 0.0;

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
    return (float)sum;
}

/* the output at (x, y), its window inside the image: each row's nine
 * samples from 2x - 4 (even) in five aligned pairs */
template <bool SRC_POS>
__device__ __forceinline__ double vg_ms_ssim_decimate_inside(
    const VgSsimDecimateParams &p, const char *src, int x, int y)
{
    const int half = VG_MS_SSIM_LPF / 2;
    const float2 *row =
        (const float2 *)(src + (int64_t)(2 * y - half) * p.src_pitch) + x -
        half / 2;
    double sum = 0.0;

#pragma unroll
    for (int v = 0; v < VG_MS_SSIM_LPF; v++) {
        float in[10];

#pragma unroll
        for (int k = 0; k < 5; k++) {
            const float2 t = row[k];
            in[2 * k] = t.x;
            in[2 * k + 1] = t.y;
        }
#pragma unroll
        for (int u = 0; u < VG_MS_SSIM_LPF; u++)
            sum = vg_ms_ssim_tap<SRC_POS>(sum, in[u], v, u);
        row = (const float2 *)((const char *)row + p.src_pitch);
    }
    return sum;
}

extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY)
    vg_ms_ssim_decimate(const VgSsimDecimateParams p)
{
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= p.sw || y >= p.sh)
        return;
    const char *src = (const char *)(blockIdx.z ? p.src[1] : p.src[0]);
    float *dst = (float *)((char *)(blockIdx.z ? p.dst[1] : p.dst[0]) +
                           (int64_t)y * p.dst_pitch);
    const int half = VG_MS_SSIM_LPF / 2;

    /* the ten columns read from 2x - 4 and the nine rows from 2y - 4 */
    if (2 * x >= half && 2 * x + half + 1 < p.w && 2 * y >= half &&
        2 * y + half < p.h)
        dst[x] = (float)(p.src_pos
                             ? vg_ms_ssim_decimate_inside<true>(p, src, x, y)
                             : vg_ms_ssim_decimate_inside<false>(p, src, x, y));
    else
        dst[x] = vg_ms_ssim_decimate_edge(p, src, x, y);
}
