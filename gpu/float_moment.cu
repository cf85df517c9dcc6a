/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * float_moment's four sums (libvmaf v3.2.0 src/feature/moment.c) over the
 * float luma of the frame (offset 0).
 *
 * vg_float_moment_units: the integer path (common/features/
 * float_moment_params.h says when it is exact). Thread mapping as
 * gpu/psnr.cu: a 32 x 8 block covers 256 x 8 samples, each thread a row
 * segment of 8 samples 32 apart (coalesced loads). Each term times its
 * unit (a power of two: exact) is an integer, converted exactly to uint64;
 * the squares are float products as in moment.c (no FMA: -fmad=false).
 * One 64-bit atomic per block and sum (gpu/core/reduce.cuh); integer addition
 * makes the order irrelevant.
 *
 * vg_float_moment_seq: the sequential path, one block of 4 threads, thread
 * t the sum t (ref 1st, dis 1st, ref 2nd, dis 2nd), each term added into a
 * double in row-major order exactly as moment.c does. Slow, and only used
 * where the integer path could differ (16-bit above 2^21 samples).
 */

#include "common/features/float_moment_params.h"
#include "gpu/core/reduce.cuh"

extern "C" __global__ void __launch_bounds__(VG_FSUM_BLOCK_X *VG_FSUM_BLOCK_Y)
    vg_float_moment_units(const VgFloatSumKernelParams p)
{
    const unsigned x0 = blockIdx.x * VG_FSUM_TILE_W;
    const unsigned y = blockIdx.y * VG_FSUM_BLOCK_Y + threadIdx.y;
    unsigned long long s[4] = { 0, 0, 0, 0 };
    unsigned long long *out = (unsigned long long *)p.out;

    if (y < p.h) {
        const float *r =
            (const float *)((const char *)p.ref + (int64_t)y * p.pitch);
        const float *d =
            (const float *)((const char *)p.dis + (int64_t)y * p.pitch);
#pragma unroll
        for (int k = 0; k < VG_FSUM_PER_THREAD; k++) {
            const unsigned x = x0 + threadIdx.x + k * VG_FSUM_BLOCK_X;
            if (x < p.w) {
                const float a = r[x], b = d[x];
                const float a2 = a * a, b2 = b * b;
                s[0] += (unsigned long long)(a * p.unit1);
                s[1] += (unsigned long long)(b * p.unit1);
                s[2] += (unsigned long long)(a2 * p.unit2);
                s[3] += (unsigned long long)(b2 * p.unit2);
            }
        }
    }
    /* the shared partials of vg_block_sum_atomic() are reused: a barrier
     * between the sums */
    for (int k = 0; k < 4; k++) {
        vg_block_sum_atomic(s[k], out + k);
        __syncthreads();
    }
}

extern "C" __global__ void __launch_bounds__(4)
    vg_float_moment_seq(const VgFloatSumKernelParams p)
{
    const unsigned t = threadIdx.x;
    const char *base = (const char *)(t & 1 ? p.dis : p.ref);
    double acc = 0;

    if (t >= 4)
        return;
    for (unsigned i = 0; i < p.h; i++) {
        const float *row = (const float *)(base + (int64_t)i * p.pitch);
        if (t < 2) {
            for (unsigned j = 0; j < p.w; j++)
                acc += row[j];
        } else {
            for (unsigned j = 0; j < p.w; j++) {
                const float q = row[j] * row[j];
                acc += q;
            }
        }
    }
    ((double *)(p.out + 4 * sizeof(uint64_t)))[t] = acc;
}
