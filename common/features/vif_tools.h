/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The pieces of libvmaf v3.2.0's src/feature/vif_tools.c that float_vif
 * and SpEED (speed_chroma, speed_temporal) both use: the filters' mirrored
 * indices, their sizes and Gaussian taps, the prescalers' mirror and
 * kernels, and one output coordinate's prescale taps. Written once, in
 * vif_tools.c's C types (a float named there is a float here; a float
 * mixed with a double constant or a double libm call is evaluated in
 * double), with -ffp-contract=off.
 *
 * vg_vif_mirror() is also the kernels' (gpu/float_vif.cu, gpu/speed.cuh,
 * and integer VIF's reflect-101 padding in gpu/vif_block.h);
 * the rest calls the host's libm and is host code only.
 */

#ifndef VG_FEATURES_VIF_TOOLS_H
#define VG_FEATURES_VIF_TOOLS_H

#include <stdint.h>

#ifdef __CUDACC__
#define VG_VIF_TOOLS_FN static __host__ __device__ __forceinline__
#else
#define VG_VIF_TOOLS_FN static inline
#endif

/** The prescale methods, in the order of the options' names. */
enum VgVifPrescale {
    VG_VIF_NEAREST,
    VG_VIF_BILINEAR,
    VG_VIF_BICUBIC,
    VG_VIF_LANCZOS4,
};

/** The methods' option values, by enum VgVifPrescale, NULL-terminated. */
extern const char *const vg_vif_prescale_names[];

/** Taps per output sample and axis of a prescale method (lanczos4: 9). */
#define VG_VIF_PRESCALE_TAPS 9

/**
 * The filters' mirror: -i below 0, 2n - i - 2 from n on (the edge sample
 * is not repeated). Callers keep |i - [0, n)| < n.
 */
VG_VIF_TOOLS_FN int vg_vif_mirror(int i, int n)
{
    return i < 0 ? -i : (i >= n ? 2 * n - i - 2 : i);
}

#ifndef __CUDACC__
#include <math.h>

/**
 * vif_get_filter_size(): 2^(4 - scale) + 1 taps times the kernel scale
 * (a float product), up to the next odd integer, at least 3.
 */
int vg_vif_filter_size(int scale, float ks);

/**
 * vif_validate_kernelscale(): 1 if the kernel scale, as a float, is
 * within 1e-3 of one of vif_tools.h's valid_kernelscales (VG_VIF_KERNELSCALES
 * spells them for messages), else 0.
 */
int vg_vif_kernelscale_valid(float ks);
#define VG_VIF_KERNELSCALES                                                    \
    "1, 1/2, 3/2, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 3.75/3, 4.25/3, 5/3, 3, "   \
    "1/2.25, 1.4746, 1.54, 1.6, 1.06667, 0.711111, 0.74074, 1.111111"

/**
 * get_1d_gaussian_kernel() of get_gaussian_pdf(): n taps of standard
 * deviation stdev, each exp in double of the float operands over the
 * double normalisation, both rounded to float, divided by their float
 * running sum.
 */
void vg_vif_gaussian(float *out, int n, float stdev);

/** The prescalers' mirror(), in float. */
static inline float vg_vif_mirror_f(float i, float left, float right)
{
    return i < left ? -i : i > right ? 2 * right - i : i;
}

/** bicubic_kernel(), a = -0.75. */
static inline float vg_vif_bicubic_kernel(float t)
{
    const float a = -0.75;

    if (t < 0)
        t = -t;
    if (t < 1)
        return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2)
        return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

/** lanczos4_kernel(): double sines of the float argument. */
static inline float vg_vif_lanczos4_kernel(float x, float a)
{
    const double pi = 3.14159265358979323846;

    if (x == 0.0)
        return 1.0;
    if (x > -a && x < a)
        return a * sin(pi * x) * sin(pi * x / a) / (pi * pi * x * x);
    return 0.0;
}

/**
 * One output coordinate x of one axis of vif_scale_frame_*_s(), n_in
 * samples to n_out: ratio = n_in / n_out in float; x reads
 * (x + 0.5) * ratio - 0.5 (double, kept as float); nearest reads
 * (int)(x * ratio). Writes the source indices, mirrored as libvmaf does
 * (a tiny side can still leave [0, n_in): callers check), and weights:
 *  - nearest: idx[0];
 *  - bilinear: idx[0] = floor, idx[1] = ceil, w[0] = the fraction;
 *  - bicubic: idx[0..3], w[0..3] for offsets -1..2;
 *  - lanczos4: idx[0..8], w[0..8] for offsets -4..4.
 * Entries past those are left as they are.
 * @return the number of indices written (1, 2, 4 or 9)
 */
int vg_vif_prescale_taps(enum VgVifPrescale method, int n_in, int n_out, int x,
                         int32_t *idx, float *w);
#endif

#endif /* VG_FEATURES_VIF_TOOLS_H */
