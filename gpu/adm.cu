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
 * must be complete before its rounding. The CM kernel adds the nine sums
 * of each row (num, AIM, den for h, v, d) in device memory from the warps
 * that own pieces of the row (integers: any order is exact), and the last
 * block of each tile row rounds its rows.
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
vg_adm_decouple(const __grid_constant__ VgAdmLaunch l)
{
    const VgAdmParams *p = &l.par;
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

/*
 * Contrast masking and denominator. A block takes a tile of CM_TH rows and
 * CM_TW columns of one scale, a warp one row of it, four columns per
 * lane; each warp adds its nine sums to the row's sums in p->rows (int64
 * atomics: any order gives the same integers). The block that completes
 * the last tile of a tile row rounds the row sums of its rows and adds
 * them to the results, leaving p->rows and the tile row's counter zeroed
 * for the next frame.
 */
#ifndef VG_ADM_CM_MINB
#define VG_ADM_CM_MINB 3
#endif
extern "C" __global__ void __launch_bounds__(VG_ADM_CM_THREADS, VG_ADM_CM_MINB)
vg_adm_cm(const __grid_constant__ VgAdmLaunch l)
{
    const VgAdmParams *p = &l.par;
    unsigned long long *rows = (unsigned long long *)(uintptr_t)p->rows;
    __shared__ long long part[VG_ADM_CM_WARPS][9];
    __shared__ int last;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int t = blockIdx.x;
    int s = VG_ADM_CUDA_SCALES - 1;

    while (s > p->s_first && t < p->g[s].cm_tile0)
        s--;
    const VgAdmGeo *g = &p->g[s];
    const int u = t - g->cm_tile0;
    const int ri = (u / g->cm_tiles_x) * VG_ADM_CM_TH + warp;
    const int j0 = g->cl + (u % g->cm_tiles_x) * VG_ADM_CM_TW + lane;
    unsigned long long *row = rows + (size_t)(g->row0 + ri) * 9;
    unsigned *ticket = (unsigned *)(uintptr_t)p->ticket + g->cm_trow0 +
                       u / g->cm_tiles_x;
    const int valid = g->ct + ri < g->cb;

    if (valid) {
        int64_t acc[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
#pragma unroll
        for (int q = 0; q < VG_ADM_CM_TW / 32; q++)
            if (j0 + 32 * q < g->cr)
                vg_adm_cm_elem(p, s, g->ct + ri, j0 + 32 * q, acc);
#pragma unroll
        for (int k = 0; k < 9; k++) {
            unsigned long long v = (unsigned long long)acc[k];
            for (int o = 16; o > 0; o >>= 1)
                v += __shfl_down_sync(0xffffffffu, v, o);
            if (lane == 0 && v)
                atomicAdd(row + k, v);
        }
        if (lane == 0)
            __threadfence();
    }
    __syncthreads();
    if (tid == 0)
        last = atomicAdd(ticket, 1u) == (unsigned)g->cm_tiles_x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();

    /* the last tile of the tile row: warp w rounds row w */
    if (lane == 0) {
        int64_t sum[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
        if (valid) {
            int64_t v[9];
#pragma unroll
            for (int k = 0; k < 9; k++)
                v[k] = (int64_t)__ldcg(row + k);
#pragma unroll
            for (int k = 0; k < 9; k++)
                row[k] = 0;
            vg_adm_round_row(p, s, v, sum);
        }
#pragma unroll
        for (int k = 0; k < 9; k++)
            part[warp][k] = sum[k];
    }
    __syncthreads();
    if (tid < 9) {
        long long v = 0;
        for (int w = 0; w < VG_ADM_CM_WARPS; w++)
            v += part[w][tid];
        /* VgAdmResults: num[4][3], aim[4][3], den[4][3] */
        const int at = (tid / 3) * VG_ADM_CUDA_SCALES * 3 + s * 3 + tid % 3;
        if (v)
            atomicAdd((unsigned long long *)(uintptr_t)l.res + at,
                      (unsigned long long)v);
    }
    if (tid == 0)
        *ticket = 0;
}
