/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Sequential float sums of non-negative terms with the CPU's bits
 * (gpu/core/f32sum_step.h has the scheme), in two kernels per submission:
 *
 * vg_f32sum_chunks: one block of VG_F32SUM_THREADS per chunk of
 * VG_F32SUM_CHUNK terms. Each thread takes VG_F32SUM_PER_THREAD consecutive
 * terms. The block finds the largest term's exponent (or a term the
 * binade steps cannot take), then summarises the chunk for each binade of
 * its window: each thread's stretch, joined in order within each warp
 * (offsets 1, 2, 4, 8, 16, so that lane 0 holds the warp's stretch in
 * order), then the warps' in order.
 *
 * vg_f32sum_walk: one warp per sum, the walk of 3. in order. At a chunk
 * boundary the lanes read the records of the next 32 chunks and lane 0
 * adds those that stay in the binade; a chunk that may not is loaded into
 * shared memory and walked 32 terms at a time: the lanes' units, an
 * inclusive scan (32 units of at most VG_F32SUM_CAP fit an int), the first lane whose step is a tie, a crossing or a
 * term the binade steps cannot take; the steps before it are added as
 * integers, that one as a float addition.
 */

#define VG_F32SUM_FN static __device__ __forceinline__
#include "gpu/core/f32sum_step.h"

__device__ __forceinline__ VgF32sumSeg vg_f32sum_seg_shfl_down(VgF32sumSeg s,
                                                               int off)
{
    VgF32sumSeg r;

    r.sum = __shfl_down_sync(0xffffffffu, s.sum, off);
    r.ties = __shfl_down_sync(0xffffffffu, s.ties, off);
    r.up = __shfl_down_sync(0xffffffffu, s.up, off);
    r.pf = __shfl_down_sync(0xffffffffu, s.pf | (s.pl << 1), off);
    r.pl = r.pf >> 1;
    r.pf &= 1;
    return r;
}

extern "C" __global__ void __launch_bounds__(VG_F32SUM_THREADS)
    vg_f32sum_chunks(const VgF32sumParams p)
{
    __shared__ int emax;
    __shared__ VgF32sumSeg warp_seg[VG_F32SUM_SUBS][VG_F32SUM_WINDOW];
    const int chunk = blockIdx.x;
    const int k = vg_f32sum_array_of(&p, chunk);
    const int c = chunk - p.a[k].chunk0;
    const int64_t start = (int64_t)c * VG_F32SUM_CHUNK;
    const int64_t left = p.a[k].n - start;
    const int len = left < VG_F32SUM_CHUNK ? (int)left : VG_F32SUM_CHUNK;
    const float *x = (const float *)p.a[k].x + start;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    VgF32sumChunk *rec =
        (VgF32sumChunk *)p.chunks + (size_t)chunk * VG_F32SUM_RECS;
    uint32_t b[VG_F32SUM_PER_THREAD], mant[VG_F32SUM_PER_THREAD];
    int fe[VG_F32SUM_PER_THREAD];
    int mine = VG_F32SUM_ZEROS;

    if (t == 0)
        emax = VG_F32SUM_ZEROS;
    if ((t + 1) * VG_F32SUM_PER_THREAD <= len) {
        const uint4 *v = (const uint4 *)(x + t * VG_F32SUM_PER_THREAD);
#pragma unroll
        for (int i = 0; i < VG_F32SUM_PER_THREAD / 4; i++) {
            const uint4 q = v[i];
            b[4 * i] = q.x;
            b[4 * i + 1] = q.y;
            b[4 * i + 2] = q.z;
            b[4 * i + 3] = q.w;
        }
    } else {
#pragma unroll
        for (int i = 0; i < VG_F32SUM_PER_THREAD; i++) {
            const int j = t * VG_F32SUM_PER_THREAD + i;
            b[i] = j < len ? __float_as_uint(x[j]) : 0u;
        }
    }
#pragma unroll
    for (int i = 0; i < VG_F32SUM_PER_THREAD; i++) {
        const int plain = vg_f32sum_plain(b[i]);

        vg_f32sum_decode(b[i], &mant[i], &fe[i]);
        mine = max(mine, plain ? (fe[i] < -126 ? VG_F32SUM_ZEROS : fe[i])
                               : VG_F32SUM_WALK);
    }
    __syncthreads();
    if (mine != VG_F32SUM_ZEROS)
        atomicMax(&emax, mine);
    __syncthreads();
    const int e0 = emax;
    if (e0 == VG_F32SUM_ZEROS || e0 == VG_F32SUM_WALK) {
        if (t < VG_F32SUM_RECS)
            rec[t].emax = e0;
        return;
    }

    for (int w = 0; w < VG_F32SUM_WINDOW; w++) {
        VgF32sumSeg s = vg_f32sum_seg_empty();

#pragma unroll
        for (int i = 0; i < VG_F32SUM_PER_THREAD; i++) {
            int tie;
            const int64_t q = vg_f32sum_units_of(mant[i], fe[i], e0 + w, &tie);
            vg_f32sum_seg_add(&s, q, tie);
        }
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const VgF32sumSeg o = vg_f32sum_seg_shfl_down(s, off);
            if (lane + off < 32)
                s = vg_f32sum_seg_join(s, o);
        }
        if (lane == 0) {
            warp_seg[warp][w] = s;
            vg_f32sum_record(rec + 1 + warp, w, s);
        }
    }
    if (lane == 0)
        rec[1 + warp].emax = e0;
    __syncthreads();
    if (t < VG_F32SUM_WINDOW) {
        VgF32sumSeg s = warp_seg[0][t];

        for (int i = 1; i < VG_F32SUM_SUBS; i++)
            s = vg_f32sum_seg_join(s, warp_seg[i][t]);
        vg_f32sum_record(rec, t, s);
    }
    if (t == 0)
        rec->emax = e0;
}

/** The rest of a sum, from term i on, one float addition after the other. */
__device__ static uint32_t vg_f32sum_serial(const float *x, int64_t i,
                                            int64_t n, uint32_t sb)
{
    float s = __uint_as_float(sb);

    for (; i < n; i++)
        s = __fadd_rn(s, x[i]);
    return __float_as_uint(s);
}

/**
 * The records r[0], r[stride], ... (count of them, at most 32) from (e, *m)
 * in order, while they stay in the binade: how many were added to *m, the
 * same in every lane. rk and rok are the warp's shared scratch.
 */
__device__ static int vg_f32sum_chain(const VgF32sumChunk *r, int stride,
                                      int count, int e, int64_t *m,
                                      int64_t (*rk)[32], int *rok)
{
    const int lane = threadIdx.x;
    int64_t k0 = 0, k1 = 0;
    int ok = 0, done = 0;

    if (lane < count) {
        ok = vg_f32sum_chunk_units(r + (size_t)lane * stride, e, 0, &k0);
        if (ok)
            vg_f32sum_chunk_units(r + (size_t)lane * stride, e, 1, &k1);
    }
    rk[0][lane] = k0;
    rk[1][lane] = k1;
    rok[lane] = ok;
    __syncwarp();
    if (lane == 0) {
        int64_t mm = *m;

        while (done < count && rok[done]) {
            const int64_t add = rk[mm & 1][done];
            if (mm + add >= VG_F32SUM_TOP)
                break;
            mm += add;
            done++;
        }
        *m = mm;
    }
    done = __shfl_sync(0xffffffffu, done, 0);
    *m = __shfl_sync(0xffffffffu, *m, 0);
    __syncwarp();
    return done;
}

extern "C" __global__ void __launch_bounds__(32)
    vg_f32sum_walk(const VgF32sumParams p)
{
    __shared__ uint32_t terms[VG_F32SUM_SUB];
    __shared__ int64_t rk[2][32];
    __shared__ int rok[32];
    const int k = blockIdx.x, lane = threadIdx.x;
    const VgF32sumChunk *rec;
    const float *x;
    int64_t n, m = 0;
    int nchunks, e = -126, c = 0;
    uint32_t sb = 0;

    if (k >= p.count)
        return;
    rec = (const VgF32sumChunk *)p.chunks +
          (size_t)p.a[k].chunk0 * VG_F32SUM_RECS;
    x = (const float *)p.a[k].x;
    n = p.a[k].n;
    nchunks = p.a[k].nchunks;

    while (c < nchunks) {
        /* the next chunks by their records, while they stay in the binade */
        const int cnt = nchunks - c < 32 ? nchunks - c : 32;
        const int done = vg_f32sum_chain(rec + (size_t)c * VG_F32SUM_RECS,
                                         VG_F32SUM_RECS, cnt, e, &m, rk, rok);

        c += done;
        if (done == cnt)
            continue;

        /* chunk c by its sub-chunks' records, the others term by term */
        const int64_t start = (int64_t)c * VG_F32SUM_CHUNK;
        const int len =
            n - start < VG_F32SUM_CHUNK ? (int)(n - start) : VG_F32SUM_CHUNK;
        const int nsub = (len + VG_F32SUM_SUB - 1) / VG_F32SUM_SUB;
        const VgF32sumChunk *srec = rec + (size_t)c * VG_F32SUM_RECS + 1;

        for (int sub = 0;;) {
            sub += vg_f32sum_chain(srec + sub, 1, nsub - sub, e, &m, rk, rok);
            if (sub >= nsub)
                break;

            const int64_t s0 = start + (int64_t)sub * VG_F32SUM_SUB;
            const int slen =
                n - s0 < VG_F32SUM_SUB ? (int)(n - s0) : VG_F32SUM_SUB;
            const float *xs = x + s0;
            int j;

            for (j = lane * 4; j + 3 < slen; j += 128) {
                const uint4 q = *(const uint4 *)(xs + j);
                terms[j] = q.x;
                terms[j + 1] = q.y;
                terms[j + 2] = q.z;
                terms[j + 3] = q.w;
            }
            for (j = (slen & ~3) + lane; j < slen; j += 32)
                terms[j] = __float_as_uint(xs[j]);
            __syncwarp();

            for (int li = 0; li < slen;) {
                const int jj = li + lane;
                const uint32_t b = jj < slen ? terms[jj] : 0u;
                int ev = 0, tie = 0, q = 0, incl;

                if (jj < slen) {
                    if (vg_f32sum_plain(b))
                        q = (int)vg_f32sum_units(b, e, &tie);
                    else
                        ev = 1;
                }
                incl = q;
#pragma unroll
                for (int off = 1; off < 32; off <<= 1) {
                    const int o = __shfl_up_sync(0xffffffffu, incl, off);
                    if (lane >= off)
                        incl += o;
                }
                ev |= tie | (m + incl >= VG_F32SUM_TOP);
                const unsigned ball =
                    __ballot_sync(0xffffffffu, ev && jj < slen);
                if (!ball) {
                    m += __shfl_sync(0xffffffffu, incl, 31);
                    li += 32;
                    continue;
                }
                const int f = __ffs(ball) - 1;
                const int before = __shfl_sync(0xffffffffu, incl - q, f);
                const uint32_t xb = __shfl_sync(0xffffffffu, b, f);

                sb = __float_as_uint(
                    __fadd_rn(__uint_as_float(vg_f32sum_join(e, m + before)),
                              __uint_as_float(xb)));
                li += f + 1;
                if (!vg_f32sum_plain(sb) || sb == 0x80000000u) {
                    /* negative or not finite: the rest one term after the other */
                    if (lane == 0)
                        ((uint32_t *)p.a[k].out)[0] =
                            vg_f32sum_serial(x, s0 + li, n, sb);
                    return;
                }
                vg_f32sum_split(sb, &e, &m);
            }
            __syncwarp();
            sub++;
        }
        c++;
    }
    if (lane == 0)
        ((uint32_t *)p.a[k].out)[0] = vg_f32sum_join(e, m);
}
