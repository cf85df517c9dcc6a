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
 * One warp owns 32 rows, lane l the row row0 + l. The rows are walked in
 * tiles of 32 columns: the warp reads a tile row by row with the lane as
 * the column (each read is 32 consecutive terms of one row, one or two
 * memory transactions), stores it into its shared-memory tile, and each
 * lane then adds the 32 terms of its own row in column order. The next
 * tile's reads are issued before the current tile is added, so the memory
 * latency hides behind the addition chain. The additions, and so the
 * sums, are exactly those of a loop over the row.
 *
 * load_one(row, col, v) reads the N values of (row, col) into v[0..N-1]
 * (loads only: whatever is computed from them belongs in step, so that a
 * tile's loads are all in flight together); it is only called for
 * row < rows and col < len(row). step(acc, v) makes one step of the M
 * chains acc[0..M-1] of a lane from the values of one column, in column
 * order; the chains start from the values the caller put into acc[].
 * Launch one warp per block: a multiprocessor then serves the misses of
 * one warp's tile, and the rows spread over as many of them as possible.
 */

#ifndef VG_GPU_ROWSUM_CUH
#define VG_GPU_ROWSUM_CUH

#define VG_ROWSUM_TILE 32

/* row pitch of a tile: 16-byte aligned rows for the lanes' vector reads,
 * and a bank offset of 4 between rows, so that neither the column-wise
 * stores nor the row-wise 16-byte reads of a warp conflict */
#define VG_ROWSUM_PITCH (VG_ROWSUM_TILE + 4)

/** shared memory of one warp for N values per term */
template <int N>
struct __align__(16) VgRowsumTile {
    float v[N][VG_ROWSUM_TILE][VG_ROWSUM_PITCH];
};

template <int N, int M, typename Len, typename Load, typename Step>
__device__ __forceinline__ void vg_rowsum_warp(VgRowsumTile<N> *sm, int row0,
                                               int rows, Len len, Load load_one,
                                               Step step, float acc[M])
{
    const int lane = threadIdx.x & 31;
    const int row = row0 + lane;
    const int my_len = row < rows ? len(row) : 0;
    float next[VG_ROWSUM_TILE][N];
    int max_len = my_len;

    for (int o = 16; o > 0; o >>= 1)
        max_len = max(max_len, __shfl_xor_sync(0xffffffffu, max_len, o));

    /* the tile of columns [j0, j0 + 32) of the warp's rows into next[]:
     * plain loads, nothing computed on them, so that all of them are in
     * flight at once */
    auto load = [&](int j0) {
        const int col = j0 + lane;
#pragma unroll
        for (int r = 0; r < VG_ROWSUM_TILE; r++) {
            const int rr = row0 + r;
#pragma unroll
            for (int c = 0; c < N; c++)
                next[r][c] = 0.0f;
            if (rr < rows && col < len(rr))
                load_one(rr, col, next[r]);
        }
    };

    if (max_len > 0)
        load(0);
    for (int j0 = 0; j0 < max_len; j0 += VG_ROWSUM_TILE) {
#pragma unroll
        for (int r = 0; r < VG_ROWSUM_TILE; r++)
#pragma unroll
            for (int c = 0; c < N; c++)
                sm->v[c][r][lane] = next[r][c];
        __syncwarp();
        if (j0 + VG_ROWSUM_TILE < max_len)
            load(j0 + VG_ROWSUM_TILE);
        if (j0 + VG_ROWSUM_TILE <= my_len) {
            /* the lane's row of the tile into registers first (16-byte
             * reads, all issued before the first step waits) */
            float t[VG_ROWSUM_TILE][N];
#pragma unroll
            for (int c = 0; c < N; c++)
#pragma unroll
                for (int k = 0; k < VG_ROWSUM_TILE; k += 4) {
                    const float4 q = *(const float4 *)&sm->v[c][lane][k];
                    t[k][c] = q.x;
                    t[k + 1][c] = q.y;
                    t[k + 2][c] = q.z;
                    t[k + 3][c] = q.w;
                }
#pragma unroll
            for (int k = 0; k < VG_ROWSUM_TILE; k++)
                step(acc, t[k]);
        } else {
            for (int k = 0; k < my_len - j0; k++) {
                float t[N];
#pragma unroll
                for (int c = 0; c < N; c++)
                    t[c] = sm->v[c][lane][k];
                step(acc, t);
            }
        }
        __syncwarp();
    }
}

/*
 * The same for a few long sequences (the totals of row sums): K <= 32
 * sequences, lane k of warp 0 the k-th, walked in chunks of blockDim.x
 * values that the whole block reads into shared memory (sm: K *
 * (blockDim.x + 4) floats, blockDim.x a multiple of 4). Must be reached by
 * every thread of the block; acc is meaningful in lanes k < K of warp 0.
 */
template <typename Len, typename Term, typename Add>
__device__ __forceinline__ void vg_rowsum_block(float *sm, int K, Len len,
                                                Term term, Add add,
                                                float *acc)
{
    const int n_thr = blockDim.x, t = threadIdx.x;
    const int pitch = n_thr + 4;
    int max_len = 0;

    for (int k = 0; k < K; k++)
        max_len = max(max_len, len(k));
    for (int i0 = 0; i0 < max_len; i0 += n_thr) {
        for (int k = 0; k < K; k++)
            if (i0 + t < len(k))
                sm[k * pitch + t] = term(k, i0 + t);
        __syncthreads();
        if (t < K) {
            const int n = min(n_thr, len(t) - i0);
            const float *row = sm + t * pitch;
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
        __syncthreads();
    }
}

#endif /* VG_GPU_ROWSUM_CUH */
