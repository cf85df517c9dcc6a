/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * CAMBI's kernels (libvmaf v3.2.0 src/feature/cambi.c, as cpu/cambi.c
 * computes it): one thread per output sample, each running the thread
 * code of gpu/cambi_block.h, which describes the steps and their
 * exactness. The tiled kernels (the picture steps, the c-values) fill
 * their shared tile, a barrier after each step, then compute.
 *
 * What runs where: every picture step and every c-value on the device,
 * and the top-k pooling where the home's exact shortcut holds (below);
 * the pooling of a scale where it does not (quick_select() and the double
 * sum in the order it leaves the values, which no parallel order
 * reproduces) and the scale weighting on the host (gpu/cambi.c).
 */

#include <stddef.h>

#include "gpu/cambi_block.h"

#define CAMBI_PIXEL_KERNEL(name)                                               \
    extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX *VG_CAMBI_BY)     \
        vg_cambi_##name(const VgCambiKernelParams p)                           \
    {                                                                          \
        const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;                  \
        const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;                  \
                                                                               \
        if (i < p.h && j < p.w)                                                \
            vg_cambi_##name##_px(&p, i, j);                                    \
    }

CAMBI_PIXEL_KERNEL(decmode)

extern "C" __global__ void __launch_bounds__(VG_CAMBI_PREP_NTHR)
    vg_cambi_prep(const VgCambiKernelParams p)
{
    __shared__ VgCambiPrepTile t;
    const int tid = threadIdx.y * VG_CAMBI_BX + threadIdx.x;

    for (int step = 0; step < 4; step++) {
        vg_cambi_prep_step(&t, &p, step, tid, blockIdx.x, blockIdx.y);
        __syncthreads();
    }
    vg_cambi_prep_out(&t, &p, threadIdx.x, threadIdx.y, blockIdx.x, blockIdx.y);
}

/* every scale of a pass in one launch, the smallest scales' blocks first:
 * their windows hold the most pixels in the band per tile */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_NTHR)
    vg_cambi_cvalues(const VgCambiKernelParams p)
{
    __shared__ VgCambiTile t;
    VgCambiScale sc;
    int bx, by;

    vg_cambi_cval_block(&p, blockIdx.x, &sc, &bx, &by);
    vg_cambi_cval_load(&t, &p, &sc, threadIdx.y * VG_CAMBI_TILE + threadIdx.x,
                       bx, by);
    __syncthreads();
    vg_cambi_cval_pixel(&t, &p, &sc, threadIdx.x, threadIdx.y, bx, by);
}

/*
 * The top-k pooling where the home's exact shortcut holds
 * (common/features/cambi_params.h): three histogram passes over the frame's c-values,
 * blockIdx.y the segment, each followed by a one-thread selection per
 * segment; then the c-values of the segments it does not settle go to the
 * host (spill), for cambi.c's order there. A pass skips the segments that
 * do not need it. The histograms add in shared memory, then into the
 * segment's device scratch: integer sums, exact in any order.
 */

/* the segment's values handled by this block: VG_CAMBI_POOL_PER_THREAD per
 * thread, strided by the block's width */
#define POOL_FOR_VALUES(p, z, bits)                                            \
    const float *v_ = (const float *)(p).cval + (p).off[z];                    \
    const uint32_t n_ = (p).n[z];                                              \
    const uint32_t i0_ =                                                       \
        blockIdx.x * VG_CAMBI_POOL_THREADS * VG_CAMBI_POOL_PER_THREAD +        \
        threadIdx.x;                                                           \
    for (uint32_t j_ = 0, i_ = i0_; j_ < VG_CAMBI_POOL_PER_THREAD && i_ < n_;  \
         j_++, i_ += VG_CAMBI_POOL_THREADS)                                    \
        if (const uint32_t bits = __float_as_uint(v_[i_]))

extern "C" __global__ void __launch_bounds__(VG_CAMBI_POOL_THREADS)
    vg_cambi_pool_hist1(const VgCambiPoolParams p)
{
    __shared__ uint32_t cnt[VG_CAMBI_POOL_NB1];
    __shared__ unsigned long long sig[VG_CAMBI_POOL_NB1];
    __shared__ uint32_t bad;
    const unsigned z = blockIdx.y;
    VgCambiPoolSeg *seg = (VgCambiPoolSeg *)p.seg + z;

    for (unsigned b = threadIdx.x; b < VG_CAMBI_POOL_NB1;
         b += VG_CAMBI_POOL_THREADS) {
        cnt[b] = 0;
        sig[b] = 0;
    }
    if (!threadIdx.x)
        bad = 0;
    __syncthreads();
    {
        POOL_FOR_VALUES(p, z, bits)
        {
            if (vg_cambi_pool_class(bits) < 0) {
                atomicOr(&bad, 1u);
                continue;
            }
            atomicAdd(&cnt[(bits >> 20) - VG_CAMBI_POOL_BIN0], 1u);
            atomicAdd(&sig[(bits >> 20) - VG_CAMBI_POOL_BIN0],
                      (unsigned long long)vg_cambi_pool_sig(bits));
        }
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < VG_CAMBI_POOL_NB1;
         b += VG_CAMBI_POOL_THREADS) {
        if (cnt[b]) {
            atomicAdd(&seg->cnt1[b], cnt[b]);
            atomicAdd((unsigned long long *)&seg->sig1[b], sig[b]);
        }
    }
    if (!threadIdx.x && bad)
        atomicOr(&seg->bad, 1u);
}

/* the second (level 2: sums too) or third (level 3: counts) histogram of
 * the values in the bin the previous selection left */
template <int level>
__device__ __forceinline__ void vg_cambi_pool_hist(const VgCambiPoolParams &p)
{
    __shared__ uint32_t cnt[1024];
    __shared__ unsigned long long sig[level == VG_CAMBI_POOL_LEVEL2 ? 1024 : 1];
    const unsigned z = blockIdx.y;
    VgCambiPoolSeg *seg = (VgCambiPoolSeg *)p.seg + z;
    const uint32_t want = level == VG_CAMBI_POOL_LEVEL2 ? seg->b1 : seg->b2;
    const int shift = level == VG_CAMBI_POOL_LEVEL2 ? 20 : 10;

    if (seg->level != level || seg->bad)
        return;
    for (unsigned b = threadIdx.x; b < 1024; b += VG_CAMBI_POOL_THREADS) {
        cnt[b] = 0;
        if (level == VG_CAMBI_POOL_LEVEL2)
            sig[b] = 0;
    }
    __syncthreads();
    {
        POOL_FOR_VALUES(p, z, bits)
        {
            if (bits >> shift != want)
                continue;
            atomicAdd(&cnt[bits >> (shift - 10) & 1023], 1u);
            if (level == VG_CAMBI_POOL_LEVEL2)
                atomicAdd(&sig[bits >> 10 & 1023],
                          (unsigned long long)vg_cambi_pool_sig(bits));
        }
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < 1024; b += VG_CAMBI_POOL_THREADS) {
        if (!cnt[b])
            continue;
        if (level == VG_CAMBI_POOL_LEVEL2) {
            atomicAdd(&seg->cnt2[b], cnt[b]);
            atomicAdd((unsigned long long *)&seg->sig2[b], sig[b]);
        } else {
            atomicAdd(&seg->cnt3[b], cnt[b]);
        }
    }
}

extern "C" __global__ void __launch_bounds__(VG_CAMBI_POOL_THREADS)
    vg_cambi_pool_hist2(const VgCambiPoolParams p)
{
    vg_cambi_pool_hist<VG_CAMBI_POOL_LEVEL2>(p);
}

extern "C" __global__ void __launch_bounds__(VG_CAMBI_POOL_THREADS)
    vg_cambi_pool_hist3(const VgCambiPoolParams p)
{
    vg_cambi_pool_hist<VG_CAMBI_POOL_LEVEL3>(p);
}

/* the selection after histogram `level`, a block per segment: the block
 * stages the segment's scratch in shared memory (the walks read up to
 * 1024 bins one after the other), one thread selects, the block writes
 * back what the selection changed (the fields after the histograms) */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_POOL_THREADS)
    vg_cambi_pool_select(const VgCambiPoolParams p)
{
    __shared__ VgCambiPoolSeg t;
    const int level = p.level;
    const unsigned z = blockIdx.x;
    uint32_t *seg = (uint32_t *)((VgCambiPoolSeg *)p.seg + z);
    uint32_t *w = (uint32_t *)&t;
    const unsigned n = sizeof(t) / 4, tail = offsetof(VgCambiPoolSeg, bad) / 4;

    for (unsigned i = threadIdx.x; i < n; i += VG_CAMBI_POOL_THREADS)
        w[i] = seg[i];
    __syncthreads();
    if (!threadIdx.x) {
        if (level == VG_CAMBI_POOL_LEVEL1)
            vg_cambi_pool_select1(&t, p.k[z]);
        else if (level == VG_CAMBI_POOL_LEVEL2 && t.level == level && !t.bad)
            vg_cambi_pool_select2(&t);
        else if (level == VG_CAMBI_POOL_LEVEL3) {
            VgCambiPoolResult *r = (VgCambiPoolResult *)p.res + z;

            vg_cambi_pool_select3(&t, p.n[z], p.k[z], r);
            if (p.all_to_host)
                r->exact = 0;
        }
    }
    __syncthreads();
    for (unsigned i = tail + threadIdx.x; i < n; i += VG_CAMBI_POOL_THREADS)
        seg[i] = w[i];
}

/* the c-values of the segments left to the host, into its mapped copy */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_POOL_THREADS)
    vg_cambi_pool_spill(const VgCambiPoolParams p)
{
    const unsigned z = blockIdx.y;
    const float *v = (const float *)p.cval + p.off[z];
    float *out = (float *)p.spill + p.off[z];
    const uint32_t i0 =
        blockIdx.x * VG_CAMBI_POOL_THREADS * VG_CAMBI_POOL_PER_THREAD +
        threadIdx.x;

    if (((const VgCambiPoolResult *)p.res)[z].exact)
        return;
    for (uint32_t j = 0, i = i0; j < VG_CAMBI_POOL_PER_THREAD && i < p.n[z];
         j++, i += VG_CAMBI_POOL_THREADS)
        out[i] = v[i];
}
