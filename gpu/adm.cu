/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Integer ADM kernels (libvmaf v3.2.0 src/feature/integer_adm.c; the
 * per-element arithmetic is in gpu/adm_ops.cuh).
 *
 * Per frame: four DWT launches (scale 0 from the luma planes, then each
 * scale from the previous LL band; reference and distorted picture as
 * blockIdx.z), one decouple + CSF launch over the decouple regions of
 * every scale (flattened 32 x 8 tiles), and one contrast-masking launch
 * over the CM rows of every scale that also sums the denominator.
 *
 * Exactness of the per-row rounding (adm_cm, i4_adm_cm, adm_csf_den_*):
 * libvmaf rounds each row sum before adding it to the total, so a row
 * must be complete before its rounding. The CM kernel gives a whole band
 * row to one block: each thread sums its columns, the block adds the
 * partial sums (integers: any order is exact), then one thread rounds the
 * nine row sums (num, AIM, den for h, v, d) and adds them to block totals
 * in shared memory; each block adds its totals to the frame's results with
 * one atomic each at the end. The grid is sized by the SM count on the
 * host (rows are taken grid-stride), not by rows per thread: the row
 * count of a frame is small next to the thread count of the device.
 */

#include "gpu/adm_ops.cuh"

extern "C" __global__ void __launch_bounds__(VG_ADM_BX * VG_ADM_BY)
vg_adm_dwt_s0_8(const VgAdmDwtParams p)
{
    const int j = blockIdx.x * VG_ADM_BX + threadIdx.x;
    const int i = blockIdx.y * VG_ADM_BY + threadIdx.y;
    if (i < p.h && j < p.w)
        vg_adm_dwt_s0_elem<uint8_t>(&p, blockIdx.z, i, j);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX * VG_ADM_BY)
vg_adm_dwt_s0_16(const VgAdmDwtParams p)
{
    const int j = blockIdx.x * VG_ADM_BX + threadIdx.x;
    const int i = blockIdx.y * VG_ADM_BY + threadIdx.y;
    if (i < p.h && j < p.w)
        vg_adm_dwt_s0_elem<uint16_t>(&p, blockIdx.z, i, j);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX * VG_ADM_BY)
vg_adm_dwt_s1(const VgAdmDwtParams p)
{
    const int j = blockIdx.x * VG_ADM_BX + threadIdx.x;
    const int i = blockIdx.y * VG_ADM_BY + threadIdx.y;
    if (i < p.h && j < p.w)
        vg_adm_dwt_s123_elem<int16_t>(&p, blockIdx.z, i, j);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX * VG_ADM_BY)
vg_adm_dwt_s23(const VgAdmDwtParams p)
{
    const int j = blockIdx.x * VG_ADM_BX + threadIdx.x;
    const int i = blockIdx.y * VG_ADM_BY + threadIdx.y;
    if (i < p.h && j < p.w)
        vg_adm_dwt_s123_elem<int32_t>(&p, blockIdx.z, i, j);
}

/* one 32 x 8 tile of a decouple region per block, scales flattened */
extern "C" __global__ void __launch_bounds__(VG_ADM_BX * VG_ADM_BY)
vg_adm_decouple(const VgAdmLaunch l)
{
    const VgAdmParams *p = (const VgAdmParams *)(uintptr_t)l.par;
    const int t = blockIdx.x;
    int s = VG_ADM_CUDA_SCALES - 1;

    while (s > p->s_first && t < p->g[s].tile0)
        s--;
    const VgAdmGeo *g = &p->g[s];
    const int u = t - g->tile0;
    const int i = g->dt + (u / g->tiles_x) * VG_ADM_BY + threadIdx.y;
    const int j = g->dl + (u % g->tiles_x) * VG_ADM_BX + threadIdx.x;
    if (i < g->db && j < g->dr)
        vg_adm_dec_elem(p, s, i, j);
}

/* contrast masking and denominator: one CM row per block iteration */
extern "C" __global__ void __launch_bounds__(VG_ADM_CM_THREADS)
vg_adm_cm(const VgAdmLaunch l)
{
    const VgAdmParams *p = (const VgAdmParams *)(uintptr_t)l.par;
    __shared__ long long part[VG_ADM_CM_WARPS][9];
    __shared__ long long tot[VG_ADM_CUDA_SCALES][9];
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;

    if (tid < VG_ADM_CUDA_SCALES * 9)
        (&tot[0][0])[tid] = 0;
    __syncthreads();

    for (int r = blockIdx.x; r < p->n_rows; r += gridDim.x) {
        int s = VG_ADM_CUDA_SCALES - 1;
        while (s > p->s_first && r < p->g[s].row0)
            s--;
        const VgAdmGeo *g = &p->g[s];
        const int i = g->ct + (r - g->row0);
        int64_t acc[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };

        for (int j = g->cl + tid; j < g->cr; j += VG_ADM_CM_THREADS)
            vg_adm_cm_elem(p, s, i, j, acc);
#pragma unroll
        for (int k = 0; k < 9; k++) {
            long long v = acc[k];
            for (int o = 16; o > 0; o >>= 1)
                v += __shfl_down_sync(0xffffffffu, v, o);
            if (lane == 0)
                part[warp][k] = v;
        }
        __syncthreads();
        if (tid == 0) {
            int64_t row[9];
#pragma unroll
            for (int k = 0; k < 9; k++) {
                long long v = 0;
                for (int w = 0; w < VG_ADM_CM_WARPS; w++)
                    v += part[w][k];
                row[k] = v;
            }
            vg_adm_round_row(p, s, row, (int64_t *)tot[s]);
        }
        __syncthreads();
    }

    if (tid < VG_ADM_CUDA_SCALES * 9) {
        const int s = tid / 9, k = tid % 9;
        const long long v = tot[s][k];
        /* VgAdmResults: num[4][3], aim[4][3], den[4][3] */
        const int at = (k / 3) * VG_ADM_CUDA_SCALES * 3 + s * 3 + k % 3;
        if (v)
            atomicAdd((unsigned long long *)(uintptr_t)l.res + at,
                      (unsigned long long)v);
    }
}
