/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Sequential row sums at memory speed. The float features add each row of
 * a map left to right into one accumulator, so a row's additions are a
 * chain that cannot be split; what can be made fast is feeding the chain.
 *
 * vg_rowsum_strip(): a block of VG_ROWSUM_THREADS threads owns a strip of
 * RR rows of equal length len. Each chunk of that many columns is read by
 * all threads at once (thread t the column j0 + t of every row of the
 * strip, N values each: coalesced reads) into one of two shared-memory
 * buffers, and lane q < RR of warp 0 then steps row row0 + q's chains
 * through the chunk in column order while the next chunk's reads are in
 * flight. Many strips are in flight on every multiprocessor, so the reads
 * run at memory speed; the additions, and so the sums, are exactly those
 * of a loop over the row.
 *
 * load_one(row, col, v) reads the N values of (row, col) into v[0..N-1]
 * (loads only: whatever is computed from them belongs in step, so that a
 * chunk's loads are all in flight together); it is only called for
 * row < rows and col < len. step(acc, v) makes one step of the M chains
 * acc[0..M-1] of a lane from the values of one column, in column order;
 * the chains start from the values the caller put into acc[]. Must be
 * reached by every thread of the block; acc is meaningful in threads
 * q < RR with row0 + q < rows.
 */

#ifndef VG_GPU_ROWSUM_CUH
#define VG_GPU_ROWSUM_CUH

/*
 * vg_rowsum_last(): whether this block is the last of its grid to get
 * here, so that it may add up what every block wrote (the totals of the
 * row sums, in their order, without a launch of their own). Every thread's
 * earlier writes are made visible to the device first; the last block
 * reads them past the L1 cache (__ldcg). counter is 0 before the launch
 * and is 0 again after it. Must be reached by every thread of the block.
 */
__device__ __forceinline__ bool vg_rowsum_last(unsigned *counter)
{
    __shared__ bool last;

    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned n = gridDim.x * gridDim.y * gridDim.z;

        last = atomicAdd(counter, 1u) == n - 1;
        if (last)
            *counter = 0;
    }
    __syncthreads();
    return last;
}

/*
 * vg_rowsum_block(): a few long sequences (the totals of row sums): K <= 32
 * sequences, lane k of warp 0 the k-th, walked in chunks of
 * VG_ROWSUM_THREADS values that the whole block reads into one of two
 * shared-memory buffers (sm), the next chunk's reads in flight while the
 * lanes add the current one. Must be reached by every thread of a block of
 * VG_ROWSUM_THREADS; acc is meaningful in lanes k < K of warp 0.
 */
#define VG_ROWSUM_THREADS 256

template <int K> struct __align__(16) VgRowsumSeq
{
    float v[2][K][VG_ROWSUM_THREADS + 4];
};

template <int K, typename Len, typename Term, typename Add>
__device__ __forceinline__ void vg_rowsum_block(VgRowsumSeq<K> *sm, Len len,
                                                Term term, Add add, float *acc)
{
    const int t = threadIdx.x;
    float next[K];
    int max_len = 0;

    for (int k = 0; k < K; k++)
        max_len = max(max_len, len(k));
    auto load = [&](int i0) {
#pragma unroll
        for (int k = 0; k < K; k++)
            next[k] = i0 + t < len(k) ? term(k, i0 + t) : 0.0f;
    };

    if (max_len > 0)
        load(0);
    for (int i0 = 0, b = 0; i0 < max_len; i0 += VG_ROWSUM_THREADS, b ^= 1) {
        /* buffer b was last read two chunks ago (see vg_rowsum_strip()) */
#pragma unroll
        for (int k = 0; k < K; k++)
            sm->v[b][k][t] = next[k];
        __syncthreads();
        if (i0 + VG_ROWSUM_THREADS < max_len)
            load(i0 + VG_ROWSUM_THREADS);
        if (t < K) {
            const int n = min(VG_ROWSUM_THREADS, len(t) - i0);
            const float *row = sm->v[b][t];
            int i = 0;

            for (; i + 16 <= n; i += 16) {
                float v[16];
#pragma unroll
                for (int u = 0; u < 16; u += 4) {
                    const float4 q = *(const float4 *)&row[i + u];
                    v[u] = q.x;
                    v[u + 1] = q.y;
                    v[u + 2] = q.z;
                    v[u + 3] = q.w;
                }
#pragma unroll
                for (int u = 0; u < 16; u++)
                    *acc = add(*acc, v[u]);
            }
            for (; i < n; i++)
                *acc = add(*acc, row[i]);
        }
    }
}

template <int N, int RR> struct __align__(16) VgRowsumStrip
{
    float v[2][RR][N][VG_ROWSUM_THREADS + 1];
};

template <int N, int M, int RR, typename Load, typename Step>
__device__ __forceinline__ void vg_rowsum_strip(VgRowsumStrip<N, RR> *sm,
                                                int row0, int rows, int len,
                                                Load load_one, Step step,
                                                float acc[M])
{
    const int t = threadIdx.x;
    const bool mine = t < RR && row0 + t < rows;
    float next[RR][N];

    auto load = [&](int j0) {
        const int col = j0 + t;
#pragma unroll
        for (int r = 0; r < RR; r++) {
#pragma unroll
            for (int c = 0; c < N; c++)
                next[r][c] = 0.0f;
            if (row0 + r < rows && col < len)
                load_one(row0 + r, col, next[r]);
        }
    };

    if (len > 0)
        load(0);
    for (int j0 = 0, b = 0; j0 < len; j0 += VG_ROWSUM_THREADS, b ^= 1) {
        /* buffer b was last read two chunks ago, before the lanes that
         * read it reached the barrier of the chunk in between */
#pragma unroll
        for (int r = 0; r < RR; r++)
#pragma unroll
            for (int c = 0; c < N; c++)
                sm->v[b][r][c][t] = next[r][c];
        __syncthreads();
        if (j0 + VG_ROWSUM_THREADS < len)
            load(j0 + VG_ROWSUM_THREADS);
        if (mine) {
            const int n = min(VG_ROWSUM_THREADS, len - j0);
            int k = 0;

            for (; k + 8 <= n; k += 8) {
                float u[8][N];
#pragma unroll
                for (int m = 0; m < 8; m++)
#pragma unroll
                    for (int c = 0; c < N; c++)
                        u[m][c] = sm->v[b][t][c][k + m];
#pragma unroll
                for (int m = 0; m < 8; m++)
                    step(acc, u[m]);
            }
            for (; k < n; k++) {
                float u[N];
#pragma unroll
                for (int c = 0; c < N; c++)
                    u[c] = sm->v[b][t][c][k];
                step(acc, u);
            }
        }
    }
}

#endif /* VG_GPU_ROWSUM_CUH */
