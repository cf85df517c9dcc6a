/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Integer VIF (libvmaf v3.2.0 src/feature/integer_vif.c), one kernel per
 * scale and input type. The arithmetic is in gpu/vif_block.h; this file
 * only sequences its phases with barriers and reduces the sums.
 *
 * A 32 x 8 block either (blockIdx.z == 0) computes the statistic of a
 * 64 x 16 output tile of scale s: input tile with the filter's halo into
 * shared memory (in whole words when it needs no mirroring), vertical
 * pass for the 16 rows and all halo columns, then the horizontal pass and
 * the per-pixel terms, four pixels per thread; or (blockIdx.z == 1) a
 * 32 x 8 tile of the picture of scale
 * s + 1 from the same input. The four int64 sums of a block go to the
 * scale's accumulators with one atomic each (integer sums: any order
 * gives libvmaf's totals).
 *
 * In a ladder, rendition 0's launches also store the reference's terms
 * of each pixel and its picture of scale s + 1 in the frame's stage
 * (p.stage, gpu/vif.c); the _rd kernels of the other renditions read the
 * terms there and filter only the distorted picture and the cross term.
 */

#include "common/features/vif_params.h"
#include "gpu/vif_block.h"

/* add each thread's four sums to acc[0..3], one atomic per sum and block */
__device__ __forceinline__ void vg_vif_block_sums(const VgVifSums *s,
                                                  unsigned long long *acc)
{
    __shared__ unsigned long long part[4][VG_VIF_NT / 32];
    const unsigned tid = threadIdx.y * VG_VIF_BX + threadIdx.x;
    const unsigned lane = tid & 31, warp = tid >> 5;
    unsigned long long v[4] = {
        (unsigned long long)s->num_log,
        (unsigned long long)s->den_log,
        (unsigned long long)s->num_non_log,
        (unsigned long long)s->den_non_log,
    };

#pragma unroll
    for (int q = 0; q < 4; q++) {
        for (int o = 16; o > 0; o >>= 1)
            v[q] += __shfl_down_sync(0xffffffffu, v[q], o);
        if (lane == 0)
            part[q][warp] = v[q];
    }
    __syncthreads();
    if (warp == 0) {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            unsigned long long x = lane < VG_VIF_NT / 32 ? part[q][lane] : 0;
            for (int o = 16; o > 0; o >>= 1)
                x += __shfl_down_sync(0xffffffffu, x, o);
            if (lane == 0 && x)
                atomicAdd(acc + q, x);
        }
    }
}

/* RD: a ladder's rendition > 0, which reads the reference's terms from
 * the stage (VG_VIF_STAGE_READ) */
template <unsigned SCALE, unsigned BPS, unsigned RD>
__device__ __forceinline__ void vg_vif_run(const VgVifParams &p)
{
    __shared__ __align__(16) VgVifTile t;
    const unsigned tid = threadIdx.y * VG_VIF_BX + threadIdx.x;
    const unsigned fw = SCALE == 0 ? 17 : SCALE == 1 ? 9 : SCALE == 2 ? 5 : 3;

    if (blockIdx.z == 0) {
        const unsigned bx0 = blockIdx.x * VG_VIF_TW,
                       by0 = blockIdx.y * VG_VIF_TH;
        VgVifSums s = { 0, 0, 0, 0 };

        /* uniform per block */
        if (!p.stat || bx0 >= p.w || by0 >= p.h)
            return;
        if (!vg_vif_stat_load_inside(&t.st, tid, &p, fw / 2, BPS, bx0, by0))
            vg_vif_stat_load(&t.st, tid, &p, fw / 2, BPS, bx0, by0);
        __syncthreads();
        vg_vif_stat_vert(&t.st, tid, fw, SCALE, BPS == 1, p.bpc, RD);
        __syncthreads();
        vg_vif_stat_horiz(&t.st, tid, &p, fw, SCALE, bx0, by0, RD, &s);
        vg_vif_block_sums(&s, (unsigned long long *)p.acc);
    } else if (SCALE < 3) {
        const unsigned ts = SCALE < 3 ? SCALE + 1 : 3;
        const unsigned dfw = ts == 1 ? 9 : ts == 2 ? 5 : 3;
        const unsigned bx0 = blockIdx.x * VG_VIF_DW,
                       by0 = blockIdx.y * VG_VIF_DH;

        if (!p.ddis || bx0 >= p.dw || by0 >= p.dh)
            return;
        if (!vg_vif_ds_load_inside(&t.ds, tid, &p, dfw / 2, BPS, bx0, by0))
            vg_vif_ds_load(&t.ds, tid, &p, dfw / 2, BPS, bx0, by0);
        __syncthreads();
        vg_vif_ds_vert(&t.ds, tid, dfw, ts, SCALE ? 16 : p.bpc, RD);
        __syncthreads();
        vg_vif_ds_horiz(&t.ds, tid, &p, dfw, ts, bx0, by0, RD);
    }
}

/*
 * minb: blocks per multiprocessor that the register allocation must allow.
 * The 8-bit scale-0 kernel fits 48 registers without spilling on sm_80 to
 * sm_90, so five blocks (5 x 31 KB of shared memory) run at once there
 * instead of four; sm_75 holds four blocks of 256 threads at most, the
 * kernel would spill on sm_100 and sm_120, and the other kernels need more
 * registers than that.
 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && __CUDA_ARCH__ < 1000
#define VG_VIF_S0_8_MINB 5
#else
#define VG_VIF_S0_8_MINB 4
#endif

#define VG_VIF_KERNEL(name, scale, bps, rd, minb)                              \
    extern "C" __global__ void __launch_bounds__(VG_VIF_NT, minb)              \
        name(const VgVifParams p)                                              \
    {                                                                          \
        vg_vif_run<scale, bps, rd>(p);                                         \
    }

VG_VIF_KERNEL(vg_vif_s0_8, 0, 1, 0, VG_VIF_S0_8_MINB)
VG_VIF_KERNEL(vg_vif_s0_16, 0, 2, 0, 4)
VG_VIF_KERNEL(vg_vif_s1, 1, 2, 0, 4)
VG_VIF_KERNEL(vg_vif_s2, 2, 2, 0, 4)
VG_VIF_KERNEL(vg_vif_s3, 3, 2, 0, 4)
/* a ladder's renditions > 0 */
VG_VIF_KERNEL(vg_vif_s0_8_rd, 0, 1, 1, VG_VIF_S0_8_MINB)
VG_VIF_KERNEL(vg_vif_s0_16_rd, 0, 2, 1, 4)
VG_VIF_KERNEL(vg_vif_s1_rd, 1, 2, 1, 4)
VG_VIF_KERNEL(vg_vif_s2_rd, 2, 2, 1, 4)
VG_VIF_KERNEL(vg_vif_s3_rd, 3, 2, 1, 4)
