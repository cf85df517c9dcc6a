/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The CUDA sums of float_moment (and float_psnr, which sums the same kind
 * of terms): kernel parameters and the test for when an integer sum gives
 * libvmaf's double sum.
 *
 * libvmaf adds the terms (a sample, its square rounded to float, or a
 * squared difference rounded to float) in row-major order into one
 * double, which a parallel sum reproduces only when no addition rounds.
 * A sample is k / 2^s (s = bpc - 8, common/fplane.h), so a term is an
 * integer number of units 2^-s (a sample) or 2^-2s (a float square: the
 * float rounding of k^2 is an integer). When w * h times the largest term
 * is at most 2^53 units, every partial sum is an integer of at most 53
 * bits times the unit, a double: every addition is exact and the CPU's
 * result is the exact total, which the device adds in uint64 in any
 * order. Otherwise (16-bit pictures above 2^21 samples) the device adds
 * the terms in libvmaf's order, one thread per sum.
 */

#ifndef VG_FEATURES_FLOAT_MOMENT_PARAMS_H
#define VG_FEATURES_FLOAT_MOMENT_PARAMS_H

#include <stdint.h>

#define VG_FSUM_BLOCK_X 32   ///< threads per block along x
#define VG_FSUM_BLOCK_Y 8    ///< threads per block along y (one row each)
#define VG_FSUM_PER_THREAD 8 ///< samples per thread, VG_FSUM_BLOCK_X apart
#define VG_FSUM_TILE_W (VG_FSUM_BLOCK_X * VG_FSUM_PER_THREAD)

typedef struct VgFloatSumKernelParams {
    uint64_t ref, dis; ///< device float luma (VgCudaFrame.ref_f / dis_f)
    int64_t pitch;     ///< bytes
    uint32_t w, h;
    float unit1, unit2; ///< 2^s and 2^2s: terms times these are integers
    uint64_t out;       ///< device results (the feature's res area)
} VgFloatSumKernelParams;

/** Per-frame device results of float_moment. */
typedef struct VgFloatMomentRes {
    uint64_t units[4]; ///< exact sums in units (integer path)
    double seq[4];     ///< sums in libvmaf's order (sequential path)
} VgFloatMomentRes;

/** Per-frame device results of float_psnr. */
typedef struct VgFloatPsnrRes {
    uint64_t units;
    double seq;
} VgFloatPsnrRes;

/** 1 if the integer sum is libvmaf's (see above) at this size and depth. */
static inline int vg_fsum_exact(unsigned bpc, unsigned w, unsigned h)
{
    const unsigned s = bpc > 8 ? bpc - 8 : 0;

    /* largest term: (2^bpc)^2 / 2^2s units of 2^-2s, i.e. 2^(2 bpc) */
    return (uint64_t)w * h <= (UINT64_C(1) << 53) >> (2 * (s + 8));
}

#endif /* VG_FEATURES_FLOAT_MOMENT_PARAMS_H */
