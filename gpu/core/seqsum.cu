/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Sequential double sums, computed in parallel with the CPU's bits
 * (gpu/core/seqsum_step.h says how and why it is exact). Up to
 * VG_SEQSUM_MAX_ARRAYS sums per submission (gpu/core/seqsum.c), in six
 * launches whatever their number and sizes:
 *
 *  vg_seqsum_chunks   one block per chunk of VG_SEQSUM_CHUNK terms: its
 *                     sum and sum of |x| (any order: only guesses use them;
 *                     skipped when the terms' producer added them, which
 *                     the verify pass sets to 0 again for the next one)
 *  vg_seqsum_scan     one block per array: their prefixes over the chunks
 *  vg_seqsum_local    verify = 0: one block per chunk, each thread 16
 *                     consecutive terms: the approximate prefix of every
 *                     term (a block scan plus the chunk's prefix), the plan
 *                     of every step (vg_seqsum_plan()), the exact total of
 *                     the unflagged contributions and, for each flagged
 *                     step, the contributions before it in the chunk
 *  vg_seqsum_resolve  one block per array: the exact running sum before
 *                     every chunk (an int128 scan over the chunks), and on
 *                     one thread, in order, each flagged step as the CPU
 *                     adds it (a double addition from the exact sum before
 *                     it); the result
 *  vg_seqsum_local    verify = 1: the same plan again (the same operations,
 *                     so the same guesses), every unflagged step checked
 *                     against the exact running sum (vg_seqsum_run_ok())
 *  vg_seqsum_fallback one thread per array whose sum failed a check (or
 *                     more flagged steps than its share of the pool): the
 *                     sequential sum, as the CPU does it
 *
 * Every double operation whose result matters is the CPU's own addition;
 * everything else is integer. A failed check costs time, never bits.
 */

#define VG_SEQSUM_FN static __device__ __forceinline__
#include "gpu/core/seqsum_step.h"

__device__ __forceinline__ double vg_seqsum_shfl_up(double v, int d)
{
    return __shfl_up_sync(0xffffffffu, v, d);
}

__device__ __forceinline__ int vg_seqsum_shfl_up(int v, int d)
{
    return __shfl_up_sync(0xffffffffu, v, d);
}

__device__ __forceinline__ int64_t vg_seqsum_shfl_up(int64_t v, int d)
{
    return __shfl_up_sync(0xffffffffu, (long long)v, d);
}

/* the block's minimum of mn and maximum of mx, to thread 0 (buf: 64
 * values of shared scratch); reached by all threads */
__device__ __forceinline__ void vg_seqsum_block_minmax(int64_t *mn, int64_t *mx,
                                                       int64_t *buf)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    for (int d = 16; d; d >>= 1) {
        const int64_t a = __shfl_xor_sync(0xffffffffu, (long long)*mn, d);
        const int64_t b = __shfl_xor_sync(0xffffffffu, (long long)*mx, d);
        *mn = a < *mn ? a : *mn;
        *mx = b > *mx ? b : *mx;
    }
    if (lane == 0) {
        buf[warp] = *mn;
        buf[32 + warp] = *mx;
    }
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < VG_SEQSUM_THREADS / 32; w++) {
            *mn = buf[w] < *mn ? buf[w] : *mn;
            *mx = buf[32 + w] > *mx ? buf[32 + w] : *mx;
        }
}

__device__ __forceinline__ VgSeqsumFix vg_seqsum_shfl_up(VgSeqsumFix v, int d)
{
    const unsigned long long l =
        __shfl_up_sync(0xffffffffu, (unsigned long long)v, d);
    const unsigned long long h =
        __shfl_up_sync(0xffffffffu, (unsigned long long)(v >> 64), d);

    return ((VgSeqsumFix)h << 64) | l;
}

/*
 * Exclusive scan of v over a block of VG_SEQSUM_THREADS threads (1-D), in
 * a fixed order (so the same inputs give the same doubles); *total gets
 * the sum of all. buf: shared scratch of 32 values. Reached by all
 * threads; leaves buf free for the next call.
 */
template <typename T>
__device__ __forceinline__ T vg_seqsum_block_scan(T v, T *total, T *buf)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = VG_SEQSUM_THREADS / 32;
    T inc = v, ex, w;

    for (int d = 1; d < 32; d <<= 1) {
        const T t = vg_seqsum_shfl_up(inc, d);
        if (lane >= d)
            inc += t;
    }
    ex = vg_seqsum_shfl_up(inc, 1);
    if (lane == 0)
        ex = T(0);
    if (lane == 31)
        buf[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        w = lane < nwarps ? buf[lane] : T(0);
        for (int d = 1; d < 32; d <<= 1) {
            const T t = vg_seqsum_shfl_up(w, d);
            if (lane >= d)
                w += t;
        }
        if (lane < nwarps)
            buf[lane] = w;
    }
    __syncthreads();
    if (warp)
        ex = buf[warp - 1] + ex;
    *total = buf[nwarps - 1];
    __syncthreads();
    return ex;
}

/* the chunk's sums in any order: coalesced loads, thread t terms t + 256 r */
extern "C" __global__ void __launch_bounds__(VG_SEQSUM_THREADS)
    vg_seqsum_chunks(const VgSeqsumParams p)
{
    __shared__ double buf[32];
    const int chunk = blockIdx.x;
    const int k = vg_seqsum_array_of(&p, chunk);
    const VgSeqsumArray *a = &p.a[k];
    const int64_t c0 = (int64_t)(chunk - a->chunk0) * VG_SEQSUM_CHUNK;
    const double *x = (const double *)a->x + c0;
    const int64_t len = a->n - c0;
    double s = 0.0, sa = 0.0, ts, ta;

#pragma unroll
    for (int r = 0; r < VG_SEQSUM_PER_THREAD; r++) {
        const int li = r * VG_SEQSUM_THREADS + threadIdx.x;
        if (li < len) {
            const double v = x[li];
            s += v;
            sa += fabs(v);
        }
    }
    vg_seqsum_block_scan(s, &ts, buf);
    vg_seqsum_block_scan(sa, &ta, buf);
    if (threadIdx.x == 0) {
        VgSeqsumChunk *c = (VgSeqsumChunk *)p.chunks + chunk;
        c->sum = ts;
        c->abs = ta;
    }
}

extern "C" __global__ void __launch_bounds__(VG_SEQSUM_THREADS)
    vg_seqsum_scan(const VgSeqsumParams p)
{
    __shared__ double buf[32];
    const VgSeqsumArray *a = &p.a[blockIdx.x];
    VgSeqsumChunk *c = (VgSeqsumChunk *)p.chunks + a->chunk0;
    double run = 0.0, runa = 0.0;

    if (threadIdx.x == 0) {
        ((int32_t *)p.fail)[blockIdx.x] = 0;
        ((int32_t *)p.used)[blockIdx.x] = 0;
    }
    for (int t0 = 0; t0 < a->nchunks; t0 += VG_SEQSUM_THREADS) {
        const int t = t0 + threadIdx.x;
        const double s = t < a->nchunks ? c[t].sum : 0.0;
        const double sa = t < a->nchunks ? c[t].abs : 0.0;
        double ts, ta;
        const double ps = vg_seqsum_block_scan(s, &ts, buf);
        const double pa = vg_seqsum_block_scan(sa, &ta, buf);

        if (t < a->nchunks) {
            c[t].pre = run + ps;
            c[t].abspre = runa + pa;
        }
        run += ts;
        runa += ta;
    }
}

/* flagged steps of a tile of chunks that vg_seqsum_resolve keeps in shared memory */
#define VG_SEQSUM_WALK 512

/* a thread's 16 terms sit at t * 17 in the shared tile: no bank conflicts */
#define VG_SEQSUM_TILE(li) ((li) + (li) / VG_SEQSUM_PER_THREAD)

extern "C" __global__ void __launch_bounds__(VG_SEQSUM_THREADS)
    vg_seqsum_local(const VgSeqsumParams p)
{
    __shared__ double tile[VG_SEQSUM_TILE(VG_SEQSUM_CHUNK)];
    __shared__ double dbuf[32];
    __shared__ VgSeqsumFix fbuf[32];
    __shared__ int ibuf[32];
    __shared__ int64_t lbuf[64];
    const int chunk = blockIdx.x;
    const int k = vg_seqsum_array_of(&p, chunk);
    const VgSeqsumArray *a = &p.a[k];
    VgSeqsumChunk *ch = (VgSeqsumChunk *)p.chunks + chunk;
    int32_t *fail = (int32_t *)p.fail + k;
    const int li0 = threadIdx.x * VG_SEQSUM_PER_THREAD;
    const int64_t c0 = (int64_t)(chunk - a->chunk0) * VG_SEQSUM_CHUNK;
    const int len =
        a->n - c0 < VG_SEQSUM_CHUNK ? (int)(a->n - c0) : VG_SEQSUM_CHUNK;
    const double *x = (const double *)a->x + c0;
    const double *v = tile + VG_SEQSUM_TILE(li0);
    const int n = len - li0 < 0 ? 0
                  : len - li0 < VG_SEQSUM_PER_THREAD
                      ? len - li0
                      : VG_SEQSUM_PER_THREAD; /* the thread's terms */
    double s = 0.0, sa = 0.0, ts, run0, runa0;
    VgSeqsumFix cs, ctot, lp;
    int nf, ftot, f;
    unsigned flagged;

    /* the producer's chunk sums were last read by the plan: from 0 for the
     * next submission's producer (here, whatever happened to this one) */
    if (p.verify && p.presummed && threadIdx.x == 0)
        ch->sum = ch->abs = 0.0;
    /* verify, one-binade chunk: one run, checked from the chunk's record */
    if (p.verify && ch->binade != VG_SEQSUM_NO_BINADE) {
        if (threadIdx.x == 0 && !*(volatile int32_t *)fail &&
            !vg_seqsum_run_ok(ch->base, ch->binade, ch->kmin, ch->kmax))
            *fail = 1;
        return;
    }
    if (threadIdx.x == 0)
        ibuf[0] = *(volatile int32_t *)fail;
        /* the chunk through shared memory: coalesced loads */
#pragma unroll
    for (int r = 0; r < VG_SEQSUM_PER_THREAD; r++) {
        const int li = r * VG_SEQSUM_THREADS + threadIdx.x;
        tile[VG_SEQSUM_TILE(li)] = li < len ? x[li] : 0.0;
    }
    __syncthreads();
    if (ibuf[0])
        return; /* already sequential (one read for the whole block) */
    if (!p.verify) {
        /* plan, one-binade chunk: k by k, no guess per step */
        const int e = vg_seqsum_chunk_binade(ch->pre, ch->abspre, ch->abs);

        if (e != VG_SEQSUM_NO_BINADE) {
            int64_t ks, kmn, kmx, ktot, ex;

            if (!__syncthreads_or(
                    vg_seqsum_thread_uniform(v, n, e, &ks, &kmn, &kmx))) {
                ex = vg_seqsum_block_scan(ks, &ktot, lbuf);
                kmn = n ? ex + kmn : INT64_MAX;
                kmx = n ? ex + kmx : INT64_MIN;
                vg_seqsum_block_minmax(&kmn, &kmx, lbuf);
                if (threadIdx.x == 0) {
                    ch->fix = vg_seqsum_units(ktot, e);
                    ch->kmin = kmn;
                    ch->kmax = kmx;
                    ch->nflag = 0;
                    ch->flag0 = 0;
                    ch->binade = e;
                }
                return;
            }
        }
        if (threadIdx.x == 0)
            ch->binade = VG_SEQSUM_NO_BINADE; /* planned step by step */
    }
#pragma unroll
    for (int j = 0; j < VG_SEQSUM_PER_THREAD; j++) {
        s += v[j];
        sa += fabs(v[j]);
    }
    run0 = ch->pre + vg_seqsum_block_scan(s, &ts, dbuf);
    runa0 = ch->abspre + vg_seqsum_block_scan(sa, &ts, dbuf);

    cs = vg_seqsum_thread_plan(v, n, run0, runa0, &flagged, &nf);
    lp = vg_seqsum_block_scan(cs, &ctot, fbuf);
    f = vg_seqsum_block_scan(nf, &ftot, ibuf);

    if (!p.verify) {
        /* the chunk's flagged steps go to the sum's share of the pool,
         * in order */
        if (threadIdx.x == 0) {
            const int f0 = ftot ? atomicAdd((int *)p.used + k, ftot) : 0;
            ibuf[0] = f0 + ftot <= a->pool_n ? a->pool0 + f0 : -1;
            ch->fix = ctot;
            ch->nflag = ftot;
            ch->flag0 = a->pool0 + f0;
        }
        __syncthreads();
        if (ibuf[0] < 0) {
            if (threadIdx.x == 0)
                *fail = 1;
            return;
        }
        if (flagged)
            vg_seqsum_thread_flags(v, n, run0, runa0, flagged, lp, li0,
                                   (VgSeqsumFlag *)p.flags + ibuf[0] + f);
        return;
    }
    /* verify: each run of unflagged steps from the exact running sum */
    if (!vg_seqsum_thread_check(v, n, run0, runa0, flagged, ch->base, lp,
                                (const VgSeqsumFlag *)p.flags + ch->flag0, f,
                                ftot, ch->corr_end))
        *fail = 1;
}

extern "C" __global__ void __launch_bounds__(VG_SEQSUM_THREADS)
    vg_seqsum_resolve(const VgSeqsumParams p)
{
    __shared__ VgSeqsumFix fbuf[32];
    __shared__ int ibuf[32];
    __shared__ VgSeqsumFix pre_s[VG_SEQSUM_THREADS], delta_s[VG_SEQSUM_THREADS];
    __shared__ int list[VG_SEQSUM_THREADS], nf_s[VG_SEQSUM_THREADS],
        f0_s[VG_SEQSUM_THREADS], off_s[VG_SEQSUM_THREADS];
    /* the tile's flagged steps, loaded by all threads so that the walk
     * below only waits on its own arithmetic (past WALK: from the pool) */
    __shared__ VgSeqsumFix lp_s[VG_SEQSUM_WALK];
    __shared__ double x_s[VG_SEQSUM_WALK];
    __shared__ int bad_s;
    const VgSeqsumArray *a = &p.a[blockIdx.x];
    int32_t *fail = (int32_t *)p.fail + blockIdx.x;
    VgSeqsumChunk *c = (VgSeqsumChunk *)p.chunks + a->chunk0;
    VgSeqsumFlag *flags = (VgSeqsumFlag *)p.flags;
    const int tid = threadIdx.x;
    VgSeqsumFix run = 0;

    if (*fail) /* written by earlier launches only */
        return;
    if (tid == 0)
        bad_s = 0;
    for (int t0 = 0; t0 < a->nchunks; t0 += VG_SEQSUM_THREADS) {
        const int t = t0 + tid, in = t < a->nchunks;
        const int nf = in ? c[t].nflag : 0;
        VgSeqsumFix tot, dtot, pre, dpre;
        int ntot, ord, off, nftot;

        pre = vg_seqsum_block_scan(in ? c[t].fix : (VgSeqsumFix)0, &tot, fbuf);
        ord = vg_seqsum_block_scan(nf > 0 ? 1 : 0, &ntot, ibuf);
        off = vg_seqsum_block_scan(nf, &nftot, ibuf);
        pre_s[tid] = pre;
        delta_s[tid] = 0;
        if (nf > 0) {
            const int f0 = c[t].flag0;

            list[ord] = tid;
            nf_s[ord] = nf;
            f0_s[ord] = f0;
            off_s[ord] = off;
            for (int j = 0; j < nf && off + j < VG_SEQSUM_WALK; j++) {
                lp_s[off + j] = flags[f0 + j].lp;
                x_s[off + j] = flags[f0 + j].x;
            }
        }
        __syncthreads();
        /* the flagged steps in order, each as the CPU adds it */
        if (tid == 0) {
            VgSeqsumFix acc = 0;
            int bad = 0;

            for (int q = 0; q < ntot && !bad; q++) {
                const int tt = list[q], nflag = nf_s[q], o = off_s[q];
                VgSeqsumFlag *fl = flags + f0_s[q];
                const VgSeqsumFix base = run + pre_s[tt] + acc;
                VgSeqsumFix corr = 0;

                for (int j = 0; j < nflag; j++) {
                    const int near = o + j < VG_SEQSUM_WALK;
                    const VgSeqsumFix sf =
                        base + (near ? lp_s[o + j] : fl[j].lp) + corr;
                    VgSeqsumFix rf;
                    double d;

                    fl[j].corr = corr;
                    if (vg_seqsum_to_double(sf, &d) < 0 ||
                        vg_seqsum_to_fix(d + (near ? x_s[o + j] : fl[j].x),
                                         &rf) < 0) {
                        bad = 1;
                        break;
                    }
                    corr += rf - sf;
                }
                c[t0 + tt].corr_end = corr;
                delta_s[tt] = corr;
                acc += corr;
            }
            bad_s = bad;
        }
        __syncthreads();
        dpre = vg_seqsum_block_scan(delta_s[tid], &dtot, fbuf);
        if (in) {
            c[t].base = run + pre + dpre;
            if (!nf)
                c[t].corr_end = 0;
        }
        run += tot + dtot;
        if (bad_s)
            break; /* the same value for the whole block (barriers above) */
    }
    if (tid == 0) {
        double d;

        if (bad_s || vg_seqsum_to_double(run, &d) < 0)
            *fail = 1;
        else
            *(double *)a->out = d;
    }
}

/* the CPU's loop, for the sums whose fast path failed */
extern "C" __global__ void __launch_bounds__(32)
    vg_seqsum_fallback(const VgSeqsumParams p)
{
    const int k = threadIdx.x;

    if (k >= p.count || !((const int32_t *)p.fail)[k])
        return;
    const double *x = (const double *)p.a[k].x;
    double acc = 0.0;

#pragma unroll 16
    for (int64_t i = 0; i < p.a[k].n; i++)
        acc += x[i];
    *(double *)p.a[k].out = acc;
}
