/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Two adjacent samples read as one word, for kernels in which a lane
 * holds two columns (gpu/adm.cu's DWT, gpu/motion.cu).
 */

#ifndef VG_GPU_PAIR_CUH
#define VG_GPU_PAIR_CUH

#include <stdint.h>

/** Whether pairs of T starting at an even column are word-aligned in every
 *  row, given the OR of the rows' base addresses and pitches. */
template <typename T>
__device__ __forceinline__ bool vg_pair_aligned(int64_t bases_and_pitches)
{
    return !(bases_and_pitches & (int64_t)(2 * sizeof(T) - 1));
}

/** Samples p[0] and p[1] in one load (p word-aligned for two T). */
template <typename T>
__device__ __forceinline__ void vg_load_pair(const T *p, T *a, T *b)
{
    if constexpr (sizeof(T) == 1) {
        const uchar2 v = *(const uchar2 *)p;
        *a = (T)v.x;
        *b = (T)v.y;
    } else if constexpr (sizeof(T) == 2) {
        const ushort2 v = *(const ushort2 *)p;
        *a = (T)v.x;
        *b = (T)v.y;
    } else {
        static_assert(sizeof(T) == 4, "samples of 1, 2 or 4 bytes");
        const int2 v = *(const int2 *)p;
        *a = (T)v.x;
        *b = (T)v.y;
    }
}

#endif /* VG_GPU_PAIR_CUH */
