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
 * blockIdx.z), then one launch over the CM regions of every scale
 * (flattened tiles) that decouples, applies the CSFs, masks and sums the
 * denominator, the decoupled values staying in shared memory.
 *
 * Exactness of the per-row rounding (adm_cm, i4_adm_cm, adm_csf_den_*):
 * libvmaf rounds each row sum before adding it to the total, so a row
 * must be complete before its rounding. The kernel adds the nine sums of
 * each row (num, AIM, den for h, v, d) in device memory from the warps
 * that own pieces of the row (integers: any order is exact), and the last
 * block of each tile row rounds its rows.
 */

#include "gpu/adm_ops.cuh"
#include "gpu/core/pair.cuh"

/*
 * DWT: a warp takes R output rows of VG_ADM_DWT_OW = 32 - 2 output
 * columns (R = VG_ADM_DWT_R0 at scale 0, VG_ADM_DWT_R on the smaller bands
 * of scales 1..3, which give fewer warps).
 * Lane l filters input columns 2 j and 2 j + 1 (j = first column - 1 + l)
 * vertically, once for all the warp's outputs; an output's other two
 * columns, 2 j - 1 and 2 j + 2, are its neighbours' (shuffles), so lanes 0
 * and 31 only lend theirs. Aligned pairs of columns are read as one word.
 */
static_assert(VG_ADM_BX == 32, "a DWT block row is one warp");

template <int S0, typename T, int R>
__device__ __forceinline__ void vg_adm_dwt_rows(const VgAdmDwtParams &p)
{
    const int lane = threadIdx.x, z = blockIdx.z;
    const int j = blockIdx.x * VG_ADM_DWT_OW + lane - 1;
    const int i0 = (blockIdx.y * VG_ADM_BY + threadIdx.y) * R;
    const uint8_t *src = (const uint8_t *)(uintptr_t)p.src[z];
    const int c0 = vg_adm_dwt_mirror(2 * j, p.in_w);
    const int c1 = vg_adm_dwt_mirror(2 * j + 1, p.in_w);
    const bool pair = c1 == c0 + 1 && !(c0 & 1) &&
                      vg_pair_aligned<T>(p.src_pitch | (int64_t)p.src[z]);
    const bool out = lane >= 1 && lane <= VG_ADM_DWT_OW && j < p.w;
    T x0[2 * R + 2], x1[2 * R + 2];

    if (i0 >= p.h)
        return;
#pragma unroll
    for (int t = 0; t < 2 * R + 2; t++) {
        const T *row = (const T *)(src + (int64_t)vg_adm_dwt_mirror(
                                             2 * i0 - 1 + t, p.in_h) *
                                             p.src_pitch);
        if (pair) {
            vg_load_pair(row + c0, &x0[t], &x1[t]);
        } else {
            x0[t] = row[c0];
            x1[t] = row[c1];
        }
    }
#pragma unroll
    for (int k = 0; k < R; k++) {
        int32_t lo[4], hi[4];

        if constexpr (S0) {
            vg_adm_dwt_s0_v(p.bpc, x0[2 * k], x0[2 * k + 1], x0[2 * k + 2],
                            x0[2 * k + 3], &lo[1], &hi[1]);
            vg_adm_dwt_s0_v(p.bpc, x1[2 * k], x1[2 * k + 1], x1[2 * k + 2],
                            x1[2 * k + 3], &lo[2], &hi[2]);
        } else {
            /* the int64 sums of scales 1..3 are of int32 values */
            int64_t l0, h0, l1, h1;
            vg_adm_dwt_s123_v(&p, x0[2 * k], x0[2 * k + 1], x0[2 * k + 2],
                              x0[2 * k + 3], &l0, &h0);
            vg_adm_dwt_s123_v(&p, x1[2 * k], x1[2 * k + 1], x1[2 * k + 2],
                              x1[2 * k + 3], &l1, &h1);
            lo[1] = (int32_t)l0;
            hi[1] = (int32_t)h0;
            lo[2] = (int32_t)l1;
            hi[2] = (int32_t)h1;
        }
        lo[0] = __shfl_up_sync(0xffffffffu, lo[2], 1);
        hi[0] = __shfl_up_sync(0xffffffffu, hi[2], 1);
        lo[3] = __shfl_down_sync(0xffffffffu, lo[1], 1);
        hi[3] = __shfl_down_sync(0xffffffffu, hi[1], 1);
        if (out && i0 + k < p.h)
            vg_adm_dwt_store<S0>(&p, z, i0 + k, j, lo, hi);
    }
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX *VG_ADM_BY)
    vg_adm_dwt_s0_8(const VgAdmDwtParams p)
{
    vg_adm_dwt_rows<1, uint8_t, VG_ADM_DWT_R0>(p);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX *VG_ADM_BY)
    vg_adm_dwt_s0_16(const VgAdmDwtParams p)
{
    vg_adm_dwt_rows<1, uint16_t, VG_ADM_DWT_R0>(p);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX *VG_ADM_BY)
    vg_adm_dwt_s1(const VgAdmDwtParams p)
{
    vg_adm_dwt_rows<0, int16_t, VG_ADM_DWT_R>(p);
}

extern "C" __global__ void __launch_bounds__(VG_ADM_BX *VG_ADM_BY)
    vg_adm_dwt_s23(const VgAdmDwtParams p)
{
    vg_adm_dwt_rows<0, int32_t, VG_ADM_DWT_R>(p);
}

/*
 * Decouple, CSF, contrast masking and denominator of a tile per block
 * (gpu/adm_ops.cuh, "the decouple + CM kernel's tiles"); each warp adds its
 * nine sums to the row's sums in p->rows (int64 atomics: any order gives
 * the same integers). The block that completes the last tile of a tile
 * row rounds the row sums of its rows and adds them to the results,
 * leaving p->rows and the tile row's counter zeroed for the next frame.
 */
/* four blocks of 256 threads per multiprocessor, 64 registers: 48 (five
 * blocks, spilling) and 80 (three blocks) gave vmaf_v0.6.1 at 1080p about
 * 8% and 10% fewer frames/s on an H200 */
#ifndef VG_ADM_DCM_MINB
#define VG_ADM_DCM_MINB 4
#endif
extern "C" __global__ void __launch_bounds__(VG_ADM_CM_THREADS, VG_ADM_DCM_MINB)
    vg_adm_dcm(const __grid_constant__ VgAdmLaunch l)
{
    const VgAdmParams *p = &l.par;
    unsigned long long *rows = (unsigned long long *)(uintptr_t)p->rows;
    __shared__ VgAdmTileMem m;
    __shared__ long long part[VG_ADM_CM_WARPS][9];
    __shared__ int last;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const VgAdmTile tl = vg_adm_tile(p, blockIdx.x);
    const VgAdmGeo *g = &p->g[tl.s];
    const int ri = tl.i0 - g->ct + warp;
    unsigned long long *row = rows + (size_t)(g->row0 + ri) * 9;
    unsigned *ticket = (unsigned *)(uintptr_t)p->ticket + g->cm_trow0 + tl.trow;
    const int valid = warp < tl.nr;
    int64_t acc[9] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };

    vg_adm_tile_centre(p, &tl, warp, lane, &m, acc);
    for (int k = tid; k < vg_adm_tile_ring_n(&tl); k += VG_ADM_CM_THREADS)
        vg_adm_tile_ring(p, &tl, k, &m);
    __syncthreads();
    vg_adm_tile_cm(p, &tl, warp, lane, &m, acc);
    if (valid) {
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
            vg_adm_round_row(p, tl.s, v, sum);
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
        const int at = (tid / 3) * VG_ADM_CUDA_SCALES * 3 + tl.s * 3 + tid % 3;
        if (v)
            atomicAdd((unsigned long long *)(uintptr_t)l.res + at,
                      (unsigned long long)v);
    }
    if (tid == 0)
        *ticket = 0;
}
