/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The one CPU-flags mask every SIMD dispatch of the CPU path reads: the
 * instruction sets this processor has, less those the environment turns
 * off (VG_CPU_NO_AVX512: AVX-512; VG_CPU_NO_AVX2: AVX2 and AVX-512; any
 * value), less those a test masks with vg_cpu_set_mask(). Every SIMD
 * version gives the same bits as the C.
 */

#ifndef VG_COMMON_CPU_H
#define VG_COMMON_CPU_H

enum {
    VG_CPU_FLAG_AVX2 = 1 << 0,
    /* AVX-512 F, BW, DQ and VL (x86-64-v4); set only with AVX2 */
    VG_CPU_FLAG_AVX512 = 1 << 1,
};

/*
 * SIMD builds of the same C: a hot function written once as an
 * always-inline body (VG_CPU_INLINE) and instantiated plainly, with
 * VG_CPU_TARGET_AVX2 and with VG_CPU_TARGET_AVX512, all with VG_CPU_O3.
 * autoconf's default CFLAGS (-g -O2) come after AM_CFLAGS' -O3 on the
 * compile line, and GCC's -O2 cost model leaves most of these loops
 * scalar. Integer code gives the same results in every build by
 * construction; float code too, as nothing is contracted
 * (-ffp-contract=off) and the loops never reassociate.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define VG_CPU_HAVE_AVX2 1
#define VG_CPU_TARGET_AVX2 __attribute__((target("avx2")))
#define VG_CPU_HAVE_AVX512 1
#define VG_CPU_TARGET_AVX512                                                   \
    __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))
#else
#define VG_CPU_HAVE_AVX2 0
#define VG_CPU_TARGET_AVX2
#define VG_CPU_HAVE_AVX512 0
#define VG_CPU_TARGET_AVX512
#endif
/* -O3, and no contraction whatever CFLAGS say: the AVX-512 target has FMA,
 * and a fused multiply-add would round differently from the C build */
#if defined(__GNUC__) && !defined(__clang__)
#define VG_CPU_O3 __attribute__((optimize("O3", "fp-contract=off")))
#else
#define VG_CPU_O3
#endif
#ifdef __FAST_MATH__
#error                                                                         \
    "the CPU backend needs IEEE arithmetic in the written order: build without -ffast-math"
#endif
#define VG_CPU_INLINE static inline __attribute__((always_inline))

/*
 * VG_CPU_BUILDS(name, (params), (args)) defines name_c, name_avx2 and
 * name_avx512, void functions of `params` that run the always-inline body
 * name_any(args). A feature's dsp_init function stores the one for the
 * flags (vg_cpu_flags()) in its table of function pointers when the
 * feature opens a state; frames call through that table.
 */
#if VG_CPU_HAVE_AVX2
#define VG_CPU_BUILDS(name, params, args)                                      \
    VG_CPU_O3 static void name##_c params                                      \
    {                                                                          \
        name##_any args;                                                       \
    }                                                                          \
    VG_CPU_TARGET_AVX2 VG_CPU_O3 static void name##_avx2 params                \
    {                                                                          \
        name##_any args;                                                       \
    }                                                                          \
    VG_CPU_TARGET_AVX512 VG_CPU_O3 static void name##_avx512 params            \
    {                                                                          \
        name##_any args;                                                       \
    }
#else
#define VG_CPU_BUILDS(name, params, args)                                      \
    VG_CPU_O3 static void name##_c params                                      \
    {                                                                          \
        name##_any args;                                                       \
    }
#endif

/*
 * VG_CPU_DSP_SET(dsp->field, name, flags), in a feature's dsp_init only:
 * store the build of `name` for `flags` (vg_cpu_flags() when the state
 * opens): name_avx512 with AVX-512, else name_avx2 with AVX2, else name_c.
 */
#if VG_CPU_HAVE_AVX2
#define VG_CPU_DSP_SET(field, name, flags)                                     \
    ((field) = (flags)&VG_CPU_FLAG_AVX512 ? name##_avx512                      \
               : (flags)&VG_CPU_FLAG_AVX2 ? name##_avx2                        \
                                          : name##_c)
#else
#define VG_CPU_DSP_SET(field, name, flags) ((void)(flags), (field) = name##_c)
#endif

/** The flags dispatches may use (features read them once, when they open
 * a state, and fill their dsp tables from them). */
unsigned vg_cpu_flags(void);

/** Turn off `mask`'s flags for the states opened from now on (tests,
 * benchmarks). */
void vg_cpu_set_mask(unsigned mask);

#endif /* VG_COMMON_CPU_H */
