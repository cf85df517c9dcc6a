/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CIEDE2000 on the device (gpu/ciede.cu, gpu/ciede.c): the kernel's
 * parameters, the record of a pixel the host finishes, where a luma pixel
 * finds its chroma, and the rule that gives glibc's powf(x, 7) from exact
 * arithmetic, shared by the kernel and its exhaustive test
 * (tests/unit/test_ciede_powf.c).
 *
 * powf(x, 7) is the one float libm call of ΔE00 (common/features/ciede.c rotation():
 * its powf(d, 2) is a float product as compilers build libvmaf's). glibc's
 * powf works in double and rounds once to float, and is not correctly
 * rounded: for about 0.07% of the floats x it gives the float next to the
 * correctly rounded x^7, always where x^7 lies within a few thousandths of
 * an ulp of the midpoint between two floats. The rule computes x^7 in
 * double (relative error below 2^-50), takes the float nearest to it and,
 * when x^7 is further than VG_CIEDE_POWF_MARGIN ulps from the midpoint on
 * its side, says that float is glibc's. Nearer, it gives both floats
 * around the midpoint as candidates. The test checks, for every float of
 * [VG_CIEDE_POWF7_MIN, VG_CIEDE_POWF7_MAX), that glibc's powf gives the
 * settled float, or one of the two candidates.
 */

#ifndef VG_FEATURES_CIEDE_PARAMS_H
#define VG_FEATURES_CIEDE_PARAMS_H

#include <stdint.h>
#include <string.h>

#include "common/image.h"

#ifdef __CUDACC__
#define VG_CIEDE_HD static __host__ __device__ __forceinline__
#else
#define VG_CIEDE_HD static inline
#endif

/** Threads of the ΔE00 kernel's blocks (one pixel each). */
#define VG_CIEDE_BX 64
#define VG_CIEDE_BY 4
/** Threads of the settling kernel's blocks (one record each). */
#define VG_CIEDE_SETTLE_THREADS 128

/**
 * Half-width of powf's ambiguous window around a midpoint, in ulps of the
 * floats' spacing there: 1/256. glibc 2.36's largest miss, over every
 * float tested, is 0.0028 ulp.
 */
#define VG_CIEDE_POWF_MARGIN (1.0 / 256)

/** Where the rule holds (tested): x^7 for x in [2^-18, 2^12) and +0;
 *  elsewhere the pixel goes to the host. */
#define VG_CIEDE_POWF7_MIN 0x1p-18
#define VG_CIEDE_POWF7_MAX 0x1p12

/** powf(25., 7): 25^7 = 6103515625 lies 23 below this float, far from a
 *  midpoint (256 away), so compilers' folding and glibc agree (tested). */
#define VG_CIEDE_POWF_25_7 6103515648.0f

/** VgCiedeRecord.idx: the pixel needs only glibc's powf(cbp, 7). */
#define VG_CIEDE_REC_POWF 0x80000000u

/**
 * A pixel the kernel could not settle. With VG_CIEDE_REC_POWF, everything
 * but powf(cbp, 7) is settled: the host computes that float and the
 * device finishes the pixel with it. Otherwise the host computes its ΔE00
 * (common/features/ciede.c) from its samples and writes it over them.
 */
typedef struct VgCiedeRecord {
    uint32_t idx; ///< y * w + x, | VG_CIEDE_REC_POWF
    union {
        uint16_t s[6]; ///< reference Y, U, V, distorted Y, U, V
        float de;      ///< the host's ΔE00
        struct {
            float cbp; ///< the argument
            float c7;  ///< the host's powf(cbp, 7)
        } pw;
    } u;
} VgCiedeRecord;

typedef struct VgCiedeKernelParams {
    uint64_t ref[3], dis[3]; ///< device planes
    int64_t ref_pitch[3], dis_pitch[3];
    uint32_t w, h;   ///< luma
    uint32_t cw, ch; ///< chroma plane (floor-sized)
    uint32_t layout; ///< enum VgImageLayout
    uint32_t wide;   ///< samples are 16-bit
    double scale;    ///< 2^(bpc - 8)
    uint64_t de;     ///< double[w * h], row-major
    uint64_t rec;    ///< VgCiedeRecord[cap] (mapped host memory)
    uint64_t count;  ///< uint32: pixels to record
    uint32_t cap;    ///< records rec holds
    uint32_t pad;
    uint64_t res; ///< VgCiedeRes (the frame's results)
} VgCiedeKernelParams;

/** Per-frame device results. */
typedef struct VgCiedeRes {
    double sum;      ///< the sequential sum of the frame's ΔE00
    uint32_t count;  ///< 0, or above the records' cap: the whole
                     ///< frame is the host's
    uint32_t failed; ///< 1: a recorded pixel did not settle with the
                     ///< host's powf (never seen): the same
} VgCiedeRes;

/**
 * The chroma sample of luma pixel (x, y) for both backends
 * (common/features/ciede.c says why): plane row *row, column *col, or
 * *col = -1 for a zero sample. 4:2:2 follows libvmaf's walk: row y >> 1,
 * 4:4:4-wide, through rows of s samples (vmaf_picture_alloc's 32-sample
 * alignment).
 */
VG_CIEDE_HD void vg_ciede_chroma_pos(enum VgImageLayout layout, unsigned cw,
                                     unsigned ch, unsigned x, unsigned y,
                                     unsigned *row, int *col)
{
    if (layout == VG_LAYOUT_420) {
        *row = (y >> 1) < ch ? y >> 1 : ch - 1;
        *col = (x >> 1) < cw ? (int)(x >> 1) : (int)cw - 1;
    } else if (layout == VG_LAYOUT_422) {
        const unsigned s = (cw + 31) & ~31u;
        const unsigned r = (y >> 1) + x / s, c = x % s;

        *row = r < ch ? r : ch - 1;
        *col = c < cw ? (int)c : -1;
    } else {
        *row = y;
        *col = (int)x;
    }
}

VG_CIEDE_HD uint32_t vg_ciede_fbits(float f)
{
    uint32_t u;

    memcpy(&u, &f, sizeof(u));
    return u;
}

VG_CIEDE_HD float vg_ciede_bitsf(uint32_t u)
{
    float f;

    memcpy(&f, &u, sizeof(f));
    return f;
}

/**
 * glibc's powf(x, 7) (see the file's comment).
 * @return 1: *a is glibc's result (*b = *a);
 *         2: glibc's result is *a or *b, adjacent floats;
 *         0: x is outside the tested range.
 */
VG_CIEDE_HD int vg_ciede_powf7(float x, float *a, float *b)
{
    double x2, x4, p, lo, hi, mid, gap;
    float r, n;

    if (x == 0 && !vg_ciede_fbits(x)) {
        *a = *b = 0.0f; /* powf(+0, 7) = +0 */
        return 1;
    }
    if (!(x >= VG_CIEDE_POWF7_MIN && x < VG_CIEDE_POWF7_MAX))
        return 0;
    x2 = (double)x * x; /* exact */
    x4 = x2 * x2;
    p = x4 * x2 * x; /* three roundings */
    r = (float)p;
    /* the float on p's other side of r, and the midpoint between them
     * (exact in double); gap is their distance */
    n = vg_ciede_bitsf(vg_ciede_fbits(r) + ((double)r <= p ? 1 : -1));
    mid = ((double)r + (double)n) * 0.5;
    gap = (double)n - (double)r;
    if (gap < 0)
        gap = -gap;
    /* p's own error is below 2^-50 of it */
    lo = p - p * 0x1p-50;
    hi = p + p * 0x1p-50;
    if (lo - mid > gap * VG_CIEDE_POWF_MARGIN ||
        mid - hi > gap * VG_CIEDE_POWF_MARGIN) {
        *a = *b = r;
        return 1;
    }
    *a = r;
    *b = n;
    return 2;
}

#endif /* VG_FEATURES_CIEDE_PARAMS_H */
