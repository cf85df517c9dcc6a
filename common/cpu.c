/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "common/cpu.h"

static unsigned detected;
static pthread_once_t detect_once = PTHREAD_ONCE_INIT;
static atomic_uint test_mask;

static void detect(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        detected |= VG_CPU_FLAG_AVX2;
        if (__builtin_cpu_supports("avx512f") &&
            __builtin_cpu_supports("avx512bw") &&
            __builtin_cpu_supports("avx512dq") &&
            __builtin_cpu_supports("avx512vl"))
            detected |= VG_CPU_FLAG_AVX512;
    }
#endif
    if (getenv("VG_CPU_NO_AVX2"))
        detected &= ~(unsigned)(VG_CPU_FLAG_AVX2 | VG_CPU_FLAG_AVX512);
    if (getenv("VG_CPU_NO_AVX512"))
        detected &= ~(unsigned)VG_CPU_FLAG_AVX512;
}

unsigned vg_cpu_flags(void)
{
    pthread_once(&detect_once, detect);
    unsigned f = detected & ~atomic_load(&test_mask);
    /* the AVX-512 builds use AVX2 too: masking AVX2 masks both */
    if (!(f & VG_CPU_FLAG_AVX2))
        f &= ~(unsigned)VG_CPU_FLAG_AVX512;
    return f;
}

void vg_cpu_set_mask(unsigned mask)
{
    atomic_store(&test_mask, mask);
}
