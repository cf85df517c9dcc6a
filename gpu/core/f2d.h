/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * A float added exactly to a double sum without the conversion
 * instruction: plain C that nvcc compiles as device code and a host
 * compiler as host code (tests/gpu/test_f2d.c checks it on every exponent
 * of both signs).
 *
 * Why. The SSIM maps and MS-SSIM's pyramid add float products to double
 * sums, one conversion per product; on sm_90 the conversion (F2F.F64.F32)
 * issues on the XU pipe at 16 lanes per clock and multiprocessor, an eighth
 * of the float rate, and that pipe bounds those kernels (Nsight Compute:
 * 76-89% busy while the others idle). The form here takes two or four
 * integer operations, which issue on other pipes, and turns the sum's
 * addition into a multiply-add of the same cost; kernels send a share of
 * their conversions this way, so that both pipes carry part of the load.
 *
 * How. With b the bits of a float f, the double whose high word is
 * (b & 0x7fffffff) >> 3 and whose low word is b << 29 holds the float's
 * exponent field and mantissa bits in a double's places: its value is
 * exactly |f| * 2^-896 (the exponent biases differ by 1023 - 127), for
 * subnormal floats and zero too. fma(that, +-2^896, acc) then has an exact
 * product, +-|f| = f, and rounds once: RN(acc + f), which is
 * acc + (double)f, signed zeros included (a zero f gives the product f's
 * signed zero). f must be finite.
 */

#ifndef VG_GPU_F2D_H
#define VG_GPU_F2D_H

#include <stdint.h>

#ifdef __CUDACC__
#define VG_F2D_FN static __device__ __forceinline__
#else
#include <math.h>
#include <string.h>
#define VG_F2D_FN static inline
#endif

/** The high word of 2^896, the scale that undoes the exponent shift. */
#define VG_F2D_SCALE_HI 0x77f00000u

VG_F2D_FN double vg_f2d_words(uint32_t hi, uint32_t lo)
{
#ifdef __CUDACC__
    return __hiloint2double((int)hi, (int)lo);
#else
    const uint64_t u = (uint64_t)hi << 32 | lo;
    double d;

    memcpy(&d, &u, sizeof(d));
    return d;
#endif
}

VG_F2D_FN uint32_t vg_f2d_bits(float f)
{
#ifdef __CUDACC__
    return __float_as_uint(f);
#else
    uint32_t b;

    memcpy(&b, &f, sizeof(b));
    return b;
#endif
}

/** |f| * 2^-896 from f's bits, any sign. */
VG_F2D_FN double vg_f2d_mag(uint32_t b)
{
    return vg_f2d_words((b >> 3) & 0x0fffffffu, b << 29);
}

/** f * 2^-896 from the bits of an f whose sign bit is clear (+0 included). */
VG_F2D_FN double vg_f2d_mag_pos(uint32_t b)
{
    return vg_f2d_words(b >> 3, b << 29);
}

/** acc + (double)f, exactly as that addition rounds; f finite, any sign. */
VG_F2D_FN double vg_f2d_add(double acc, float f)
{
    const uint32_t b = vg_f2d_bits(f);

    return fma(vg_f2d_mag(b),
               vg_f2d_words(VG_F2D_SCALE_HI | (b & 0x80000000u), 0), acc);
}

/**
 * acc + (double)f for an f whose sign bit is clear (+0 included, -0 not):
 * a product of two factors whose sign bits are clear, or a square.
 */
VG_F2D_FN double vg_f2d_add_pos(double acc, float f)
{
    return fma(vg_f2d_mag_pos(vg_f2d_bits(f)), vg_f2d_words(VG_F2D_SCALE_HI, 0),
               acc);
}

/**
 * acc - (double)f for an f whose sign bit is clear: acc + (double)(-f),
 * for a product whose negated factor made it non-negative.
 */
VG_F2D_FN double vg_f2d_sub_pos(double acc, float f)
{
    return fma(vg_f2d_mag_pos(vg_f2d_bits(f)),
               vg_f2d_words(VG_F2D_SCALE_HI | 0x80000000u, 0), acc);
}

#endif /* VG_GPU_F2D_H */
