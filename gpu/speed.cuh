/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * SpEED's picture-sized steps on the device, shared by speed_chroma and
 * speed_temporal (gpu/speed.c): common/features/speed.c filter_and_downscale(), i.e.
 * the conversion to float, the prescaler, the anti-alias filter with the
 * decimation by 16 and the removal of the local mean. Everything after
 * that (the covariance, the eigenvalues, the linear system, the entropies
 * and the score) works on the decimated pictures, 1/256 of the samples.
 * Of it, the covariance matrix (the means of the 25 shifted sub-pictures
 * and the 325 entries) is computed here too, each mean and each entry one
 * thread's sequential sum in the CPU's order; the rest runs on the host
 * with the CPU's code (vg_speed_score_decimated()): the eigenvalues and
 * the solver are short serial chains, and the entropies and weights take
 * libm's log2, which CUDA's log2 does not reproduce.
 *
 * Exactness. Every output sample is one thread's own computation, the
 * same float operations in the same order as the CPU's for that sample
 * (-fmad=false: nothing is contracted; IEEE division):
 *  - a source sample is (float)x + -128 (8 bits) or (float)x / scaler +
 *    -128 (common/fplane.c), and for speed_temporal frame n-1's value
 *    less frame n's, in float (cpu/speed_temporal.c difference());
 *  - the prescaler's indices and weights are the host's (common/features/speed.c
 *    vg_speed_prescale_axis(): libm's floor, ceil and sin there), combined
 *    per sample as common/features/speed.c bilinear_at(), bicubic_at(), lanczos4_at()
 *    do, in their loop order;
 *  - each filter output is a float sum from 0 of f[k] * x in tap order,
 *    with common/features/speed.c's mirrored indices; the CPU computes the anti-alias
 *    filter's vertical pass at rows 16 i only and the horizontal pass at
 *    columns 16 j only, and so does this.
 * Thread mapping: 32 x 8 blocks over the outputs of each step,
 * blockIdx.z the picture (VgSpeedKernelParams a[z], b[z]). No shared
 * memory, no reductions. Memory bounds: the mirrored indices stay inside
 * the plane for every size vg_speed_init() accepts (>= 80 prescaled
 * samples per side before the decimation, >= 5 after it, at most 35 and 9
 * taps); the prescaler's table indices are checked on the host.
 */

#ifndef VG_GPU_SPEED_CUH
#define VG_GPU_SPEED_CUH

#include "common/features/speed_chroma_params.h"
#include "common/features/vif_tools.h"

__device__ __forceinline__ uint64_t vg_speed_sel(const uint64_t *v, unsigned z)
{
    return z == 0 ? v[0] : z == 1 ? v[1] : z == 2 ? v[2] : v[3];
}

/* common/fplane.c: one sample as float, offset -128 */
template <typename T>
__device__ __forceinline__ float vg_speed_load(uint64_t plane, int64_t pitch,
                                               float scaler, int y, int x)
{
    const T *row = (const T *)((const char *)plane + (int64_t)y * pitch);

    if (sizeof(T) == 1)
        return (float)row[x] + -128.0f;
    const float v = (float)row[x] / scaler;
    return v + -128.0f;
}

/* a source sample of the unscaled plane */
template <typename T>
__device__ __forceinline__ float vg_speed_src(const VgSpeedKernelParams &p,
                                              uint64_t a, uint64_t b, int y,
                                              int x)
{
    float v = vg_speed_load<T>(a, p.pitch, p.scaler, y, x);

    if (b)
        v -= vg_speed_load<T>(b, p.pitch, p.scaler, y, x);
    return v;
}

/* prescale(): one output sample (x, y) of sw x sh */
template <typename T>
__device__ __forceinline__ void vg_speed_prescale(const VgSpeedKernelParams &p)
{
    const int x = blockIdx.x * VG_SPEED_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SPEED_BY + threadIdx.y;
    const unsigned z = blockIdx.z;
    const uint64_t a = vg_speed_sel(p.a, z), b = vg_speed_sel(p.b, z);

    if (x >= p.sw || y >= p.sh)
        return;
    const int *xi = (const int *)p.xi + (size_t)x * VG_VIF_PRESCALE_TAPS;
    const int *yi = (const int *)p.yi + (size_t)y * VG_VIF_PRESCALE_TAPS;
    const float *wx = (const float *)p.xw + (size_t)x * VG_VIF_PRESCALE_TAPS;
    const float *wy = (const float *)p.yw + (size_t)y * VG_VIF_PRESCALE_TAPS;
    float v;

    if (p.method == 0) {
        v = vg_speed_src<T>(p, a, b, yi[0], xi[0]);
    } else if (p.method == 1) {
        const float dx = wx[0], dy = wy[0];
        const float s11 = vg_speed_src<T>(p, a, b, yi[0], xi[0]);
        const float s12 = vg_speed_src<T>(p, a, b, yi[0], xi[1]);
        const float s21 = vg_speed_src<T>(p, a, b, yi[1], xi[0]);
        const float s22 = vg_speed_src<T>(p, a, b, yi[1], xi[1]);
        v = (1 - dy) * (1 - dx) * s11 + (1 - dy) * dx * s12 +
            dy * (1 - dx) * s21 + dy * dx * s22;
    } else if (p.method == 2) {
        v = 0.0f;
        for (int j = 0; j < 4; j++)
            for (int i = 0; i < 4; i++) {
                const float wt = wx[i] * wy[j];
                v += vg_speed_src<T>(p, a, b, yi[j], xi[i]) * wt;
            }
    } else {
        float wsum = 0.0f;
        v = 0.0f;
        for (int j = 0; j < 9; j++)
            for (int i = 0; i < 9; i++) {
                const float wt = wx[i] * wy[j];
                wsum += wt;
                v += vg_speed_src<T>(p, a, b, yi[j], xi[i]) * wt;
            }
        v = v / wsum;
    }
    ((float *)p.pre)[((size_t)z * p.sh + y) * p.sw + x] = v;
}

/* antialias_dec16()'s vertical pass: row 16 i, column j of sw */
template <typename T>
__device__ __forceinline__ void vg_speed_aa_v(const VgSpeedKernelParams &p)
{
    const int j = blockIdx.x * VG_SPEED_BX + threadIdx.x;
    const int i = blockIdx.y * VG_SPEED_BY + threadIdx.y;
    const unsigned z = blockIdx.z;
    const uint64_t a = vg_speed_sel(p.a, z), b = vg_speed_sel(p.b, z);
    const int taps = p.taps_aa, r = i * 16;
    float acc = 0;

    if (j >= p.sw || i >= p.dh)
        return;
    if (p.resample) {
        const float *pre = (const float *)p.pre + (size_t)z * p.sh * p.sw;
        for (int k = 0; k < taps; k++) {
            const int ii = vg_vif_mirror(r - taps / 2 + k, p.sh);
            acc += p.f_aa[k] * pre[(size_t)ii * p.sw + j];
        }
    } else {
        /* no prescale: sw x sh is the plane itself */
        for (int k = 0; k < taps; k++) {
            const int ii = vg_vif_mirror(r - taps / 2 + k, p.sh);
            acc += p.f_aa[k] * vg_speed_src<T>(p, a, b, ii, j);
        }
    }
    ((float *)p.col)[((size_t)z * p.dh + i) * p.sw + j] = acc;
}

/* antialias_dec16()'s horizontal pass at column 16 j */
extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_aa_h(const VgSpeedKernelParams p)
{
    const int j = blockIdx.x * VG_SPEED_BX + threadIdx.x;
    const int i = blockIdx.y * VG_SPEED_BY + threadIdx.y;
    const unsigned z = blockIdx.z;
    const int taps = p.taps_aa, c = j * 16;
    float acc = 0;

    if (j >= p.dw || i >= p.dh)
        return;
    const float *col = (const float *)p.col + ((size_t)z * p.dh + i) * p.sw;
    for (int k = 0; k < taps; k++)
        acc += p.f_aa[k] * col[vg_vif_mirror(c - taps / 2 + k, p.sw)];
    ((float *)p.dec)[((size_t)z * p.dh + i) * p.dw + j] = acc;
}

/* remove_local_mean()'s vertical pass */
extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_lm_v(const VgSpeedKernelParams p)
{
    const int j = blockIdx.x * VG_SPEED_BX + threadIdx.x;
    const int i = blockIdx.y * VG_SPEED_BY + threadIdx.y;
    const unsigned z = blockIdx.z;
    const int taps = p.taps4;
    float acc = 0;

    if (j >= p.dw || i >= p.dh)
        return;
    const float *dec = (const float *)p.dec + (size_t)z * p.dh * p.dw;
    for (int k = 0; k < taps; k++)
        acc += p.f4[k] *
               dec[(size_t)vg_vif_mirror(i - taps / 2 + k, p.dh) * p.dw + j];
    ((float *)p.tmp)[((size_t)z * p.dh + i) * p.dw + j] = acc;
}

/* remove_local_mean()'s horizontal pass, then dec - blur */
extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_lm_h(const VgSpeedKernelParams p)
{
    const int j = blockIdx.x * VG_SPEED_BX + threadIdx.x;
    const int i = blockIdx.y * VG_SPEED_BY + threadIdx.y;
    const unsigned z = blockIdx.z;
    const int taps = p.taps4;
    float acc = 0;

    if (j >= p.dw || i >= p.dh)
        return;
    const size_t o = ((size_t)z * p.dh + i) * p.dw;
    const float *tmp = (const float *)p.tmp + o;
    for (int k = 0; k < taps; k++)
        acc += p.f4[k] * tmp[vg_vif_mirror(j - taps / 2 + k, p.dw)];
    ((float *)p.out)[o + j] = ((const float *)p.dec)[o + j] - acc;
}

/*
 * compute_covariance_matrix()'s means of the 25 shifted sub-pictures of
 * picture z: thread t < 25, sub-picture (t / 5, t % 5), a sequential float
 * sum in the CPU's row-major order, divided by the count as a float (C's
 * float / size_t). One block of 32 threads per picture.
 */
extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_means(const VgSpeedKernelParams p)
{
    const int t = threadIdx.y * VG_SPEED_BX + threadIdx.x;
    const unsigned z = blockIdx.z;

    if (t >= VG_SPEED_EB)
        return;
    const float *data =
        (const float *)p.out + (size_t)z * p.dh * p.dw + (t / 5) * p.dw + t % 5;
    const size_t n = (size_t)p.subw * p.subh;
    float m = 0;

    for (int i = 0; i < p.subh; i++)
        for (int j = 0; j < p.subw; j++)
            m += data[(size_t)i * p.dw + j];
    ((float *)p.means)[z * VG_SPEED_EB + t] = m / (float)n;
}

/*
 * compute_covariance_matrix()'s entries: thread t < 325 of picture z is
 * the pair xi >= yi with t = xi (xi + 1) / 2 + yi, a sequential double sum
 * of (x - mean_x)(y - mean_y) in the CPU's row-major order, divided by the
 * count in double and stored as a float at (xi, yi) and (yi, xi). Two
 * blocks of 256 threads per picture.
 */
extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_cov(const VgSpeedKernelParams p)
{
    const int t =
        (blockIdx.x * VG_SPEED_BY + threadIdx.y) * VG_SPEED_BX + threadIdx.x;
    const unsigned z = blockIdx.z;
    int xi = 0;

    if (t >= VG_SPEED_EB * (VG_SPEED_EB + 1) / 2)
        return;
    while ((xi + 1) * (xi + 2) / 2 <= t)
        xi++;
    const int yi = t - xi * (xi + 1) / 2;
    const float *data = (const float *)p.out + (size_t)z * p.dh * p.dw;
    const float *mean = (const float *)p.means + z * VG_SPEED_EB;
    const double mx = mean[xi], my = mean[yi];
    const float *px = data + (xi / 5) * p.dw + xi % 5;
    const float *py = data + (yi / 5) * p.dw + yi % 5;
    const size_t n = (size_t)p.subw * p.subh;
    double sum = 0;

    for (int i = 0; i < p.subh; i++)
        for (int j = 0; j < p.subw; j++) {
            const double vx = px[(size_t)i * p.dw + j];
            const double vy = py[(size_t)i * p.dw + j];
            sum += (vx - mx) * (vy - my);
        }
    const float cov = sum / (double)n;
    float *k = (float *)p.cov + (size_t)z * VG_SPEED_COV;
    k[xi * VG_SPEED_EB + yi] = cov;
    k[yi * VG_SPEED_EB + xi] = cov;
}

extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_prescale_8(const VgSpeedKernelParams p)
{
    vg_speed_prescale<uint8_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_prescale_16(const VgSpeedKernelParams p)
{
    vg_speed_prescale<uint16_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_aa_v_8(const VgSpeedKernelParams p)
{
    vg_speed_aa_v<uint8_t>(p);
}

extern "C" __global__ void __launch_bounds__(VG_SPEED_BX *VG_SPEED_BY)
    vg_speed_aa_v_16(const VgSpeedKernelParams p)
{
    vg_speed_aa_v<uint16_t>(p);
}

#endif /* VG_GPU_SPEED_CUH */
