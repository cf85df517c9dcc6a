/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The one CPU-flags mask every SIMD dispatch of the CPU path reads: the
 * instruction sets this processor has, less those the environment
 * variable VG_CPU_NO_AVX2 (any value) turns off, less those a test masks
 * with vg_cpu_set_mask(). Every SIMD version gives the same bits as the C.
 */

#ifndef VG_COMMON_CPU_H
#define VG_COMMON_CPU_H

enum {
    VG_CPU_FLAG_AVX2 = 1 << 0,
};

/** The flags dispatches may use (read at each feature state's init). */
unsigned vg_cpu_flags(void);

/** Turn off `mask`'s flags for the states opened from now on (tests). */
void vg_cpu_set_mask(unsigned mask);

#endif /* VG_COMMON_CPU_H */
