/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The steps of gpu/core/f32sum.cu that decide its arithmetic: plain C that nvcc
 * compiles as device code and a host compiler as host code, so that
 * tests/gpu/test_f32sum.c replays the scheme on the host.
 *
 * The problem: a float sum s_0 = +0, s_{i+1} = RN(s_i + x_i) (single
 * precision, the CPU's `float ret; ret += x[i]`) of terms x_i >= 0, in
 * order, with the CPU's bits, in parallel. The terms being non-negative,
 * the running sum never decreases, which the scheme builds on:
 *
 * 1. Binades. Write s = m u_e with u_e = 2^(e-23) the spacing of the
 *    floats in the binade of s, e = max(floor(log2 s), -126) (the
 *    subnormals and zero share the spacing of the lowest binade), so that
 *    m is an integer below 2^24. While s and s + x stay below 2^(e+1),
 *    RN(s + x) = (m + q) u_e where q is x / u_e rounded to the nearest
 *    integer (vg_f32sum_units()), except at an exact tie (x / u_e an odd
 *    multiple of 1/2), where the even one of m + floor(x / u_e) and the
 *    integer above it is taken.
 * 2. Ties. After a tie the running m is even, so whether the next tie
 *    rounds up depends only on the parity of the floors added since, that
 *    tie's own floor included; only the first tie of a stretch depends on
 *    the m it starts from, and only on its parity. A stretch of terms is
 *    summarised by VgF32sumSeg (its floors' total, its ties, the parities of
 *    its floors' running totals at its first and last tie, and how many of
 *    its later ties rounded up), and summaries join associatively
 *    (vg_f32sum_seg_join()): any parallel reduction in order gives the
 *    stretch's exact increase of m, as a function of the parity of the m
 *    it starts from.
 * 3. Chunks. Each chunk of VG_F32SUM_CHUNK terms, and each of its
 *    sub-chunks of VG_F32SUM_SUB, is summarised, in parallel, for the
 *    VG_F32SUM_WINDOW binades from the exponent of the chunk's largest
 *    term up: below that binade its largest term crosses into a higher
 *    one anyway, above it every term rounds to 0 with no tie. A walk over
 *    the chunks, in order, then adds a chunk's increase to m in one step
 *    where the chunk cannot leave the binade (m plus the increase stays
 *    below 2^24; m only grows, so no step of the chunk crossed), likewise
 *    the sub-chunks of any other chunk, and walks any other sub-chunk
 *    term by term: runs of ordinary steps added as
 *    integers, each tie, each crossing into a higher binade and each term
 *    that is negative or not finite done as the CPU does it, one float
 *    addition from the exact running sum. Once the sum is negative or not
 *    finite, the rest is added one term after the other.
 *
 * Every step the walk takes is, by 1. and 2., the CPU's step, bit for bit,
 * whatever the terms; how fast it goes depends on how often the sum
 * crosses a power of two (once per binade, about log2 of the sum over its
 * first term) and on the chunks whose ties cannot be summarised (none).
 */

#ifndef VG_GPU_F32SUM_STEP_H
#define VG_GPU_F32SUM_STEP_H

#include <stdint.h>

#ifndef VG_F32SUM_FN
#define VG_F32SUM_FN static inline
#endif

#ifndef __CUDA_ARCH__
#include <string.h>
#endif

/** Terms per thread and threads per block of the chunk kernel. */
#define VG_F32SUM_PER_THREAD 16
#define VG_F32SUM_THREADS 256
#define VG_F32SUM_CHUNK (VG_F32SUM_PER_THREAD * VG_F32SUM_THREADS)
/** Terms of a sub-chunk, one warp's of the chunk kernel. */
#define VG_F32SUM_SUB (VG_F32SUM_PER_THREAD * 32)
/** Sub-chunks of a chunk. */
#define VG_F32SUM_SUBS (VG_F32SUM_THREADS / 32)
/** Records per chunk: the chunk's, then its sub-chunks'. */
#define VG_F32SUM_RECS (1 + VG_F32SUM_SUBS)
/** Binades a chunk is summarised for, from its largest term's up. */
#define VG_F32SUM_WINDOW 25
/** Sums one submission takes. */
#define VG_F32SUM_MAX_ARRAYS 4
/** m at which the running sum leaves its binade. */
#define VG_F32SUM_TOP (1 << 24)
/** vg_f32sum_units() of a term two binades or more above the sum's: past VG_F32SUM_TOP. */
#define VG_F32SUM_CAP (1 << 25)
/** Exponent of a chunk of zeros: every binade of the walk is above the window. */
#define VG_F32SUM_ZEROS (-(1 << 30))
/** Exponent of a chunk with a term negative or not finite: every binade is below it. */
#define VG_F32SUM_WALK (1 << 30)

/** A stretch of terms in one binade (2. above). */
typedef struct VgF32sumSeg {
    int64_t sum; ///< the floors x / u_e, ties rounded down
    int32_t ties;
    int32_t up; ///< ties after the first that round up
    int32_t pf,
        pl; ///< parity of the floors' total through the first, the last tie
} VgF32sumSeg;

/** Per chunk and sub-chunk (device scratch), written by the chunk kernel. */
typedef struct VgF32sumChunk {
    int32_t
        emax; ///< exponent of the largest term, VG_F32SUM_ZEROS or VG_F32SUM_WALK
    int32_t pad;
    int64_t k
        [VG_F32SUM_WINDOW]; ///< binade emax + w: floors plus later ties rounded up
    uint8_t tie
        [VG_F32SUM_WINDOW]; ///< bit 0: any tie; bit 1: parity through the first
    uint8_t pad2[7];
} VgF32sumChunk;

/** One sum: n floats at x (16-byte aligned), its result to out. */
typedef struct VgF32sumArray {
    uint64_t x;   ///< device const float[n]
    uint64_t out; ///< device float
    int64_t n;
    int32_t chunk0; ///< its first chunk in the scratch
    int32_t nchunks;
} VgF32sumArray;

/** Kernel parameters (gpu/core/f32sum.cu). */
typedef struct VgF32sumParams {
    VgF32sumArray a[VG_F32SUM_MAX_ARRAYS];
    uint64_t chunks; ///< device VgF32sumChunk[total chunks][VG_F32SUM_RECS]
    int32_t count;   ///< arrays
    int32_t pad;
} VgF32sumParams;

/** The array a chunk belongs to. */
VG_F32SUM_FN int vg_f32sum_array_of(const VgF32sumParams *p, int chunk)
{
    int k = 0;

    while (k + 1 < p->count && chunk >= p->a[k + 1].chunk0)
        k++;
    return k;
}

VG_F32SUM_FN uint32_t vg_f32sum_bits(float f)
{
#ifdef __CUDA_ARCH__
    return (uint32_t)__float_as_uint(f);
#else
    uint32_t b;
    memcpy(&b, &f, sizeof(b));
    return b;
#endif
}

VG_F32SUM_FN float vg_f32sum_float(uint32_t b)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(b);
#else
    float f;
    memcpy(&f, &b, sizeof(f));
    return f;
#endif
}

/** Whether a float is one the binade steps take: +-0 or positive and finite. */
VG_F32SUM_FN int vg_f32sum_plain(uint32_t b)
{
    return b < 0x7f800000u || b == 0x80000000u;
}

/** Exponent of a plain term's binade (-126 for subnormals), VG_F32SUM_ZEROS for zero. */
VG_F32SUM_FN int vg_f32sum_exponent(uint32_t b)
{
    const uint32_t mag = b & 0x7fffffffu;

    if (!mag)
        return VG_F32SUM_ZEROS;
    return mag >> 23 ? (int)(mag >> 23) - 127 : -126;
}

/** A running sum s >= +0, finite, as (e, m): s = m 2^(e-23). */
VG_F32SUM_FN void vg_f32sum_split(uint32_t sb, int *e, int64_t *m)
{
    const uint32_t be = sb >> 23, frac = sb & 0x7fffffu;

    *e = be ? (int)be - 127 : -126;
    *m = be ? (int64_t)(frac | 0x800000u) : (int64_t)frac;
}

/** The float m 2^(e-23), m < 2^24 (and m >= 2^23 unless e = -126). */
VG_F32SUM_FN uint32_t vg_f32sum_join(int e, int64_t m)
{
    if (m < 0x800000)
        return (uint32_t)m;
    return ((uint32_t)(e + 127) << 23) | ((uint32_t)m & 0x7fffffu);
}

/**
 * A plain term's significand and exponent: x = mant 2^(fe-23); a zero's
 * exponent is far below every binade, so that its units are 0.
 */
VG_F32SUM_FN void vg_f32sum_decode(uint32_t b, uint32_t *mant, int *fe)
{
    const uint32_t mag = b & 0x7fffffffu;

    *mant = mag >> 23 ? (mag & 0x7fffffu) | 0x800000u : mag;
    *fe = !mag ? -1000 : mag >> 23 ? (int)(mag >> 23) - 127 : -126;
}

/**
 * A plain term mant 2^(fe-23) in units of the binade e's spacing, rounded
 * to the nearest integer, ties down, *tie set at a tie; VG_F32SUM_CAP for
 * a term two or more binades above e.
 */
VG_F32SUM_FN int64_t vg_f32sum_units_of(uint32_t mant, int fe, int e, int *tie)
{
    const int d = e - fe;
    uint32_t rem, half;

    *tie = 0;
    if (d <= 0)
        return d < -1 ? VG_F32SUM_CAP : (int64_t)mant << -d;
    if (d >= 25)
        return 0;
    rem = mant & ((1u << d) - 1);
    half = 1u << (d - 1);
    *tie = rem == half;
    return (int64_t)(mant >> d) + (rem > half);
}

/** vg_f32sum_units_of() of a plain term's bits. */
VG_F32SUM_FN int64_t vg_f32sum_units(uint32_t b, int e, int *tie)
{
    uint32_t mant;
    int fe;

    vg_f32sum_decode(b, &mant, &fe);
    return vg_f32sum_units_of(mant, fe, e, tie);
}

VG_F32SUM_FN VgF32sumSeg vg_f32sum_seg_empty(void)
{
    VgF32sumSeg s = { 0, 0, 0, 0, 0 };

    return s;
}

/** One term's stretch: its floor q, a tie or not. */
VG_F32SUM_FN VgF32sumSeg vg_f32sum_seg_term(int64_t q, int tie)
{
    VgF32sumSeg s = { q, tie, 0, (int32_t)(q & 1), (int32_t)(q & 1) };

    return s;
}

/** Stretch a, then stretch b. */
VG_F32SUM_FN VgF32sumSeg vg_f32sum_seg_join(VgF32sumSeg a, VgF32sumSeg b)
{
    VgF32sumSeg r;
    const int32_t shift = (int32_t)(a.sum & 1);

    r.sum = a.sum + b.sum;
    r.ties = a.ties + b.ties;
    if (!a.ties) {
        r.up = b.up;
        r.pf = b.pf ^ shift;
        r.pl = b.pl ^ shift;
    } else if (!b.ties) {
        r.up = a.up;
        r.pf = a.pf;
        r.pl = a.pl;
    } else {
        /* b's first tie rounds up when the floors since a's last tie are odd */
        r.up = a.up + b.up + (a.pl != (b.pf ^ shift));
        r.pf = a.pf;
        r.pl = b.pl ^ shift;
    }
    return r;
}

/**
 * s, then one term (its units q, a tie or not): vg_f32sum_seg_join() of
 * s and vg_f32sum_seg_term(q, tie), in fewer steps.
 */
VG_F32SUM_FN void vg_f32sum_seg_add(VgF32sumSeg *s, int64_t q, int tie)
{
    if (tie) {
        const int32_t p = (int32_t)((s->sum + q) & 1);

        if (s->ties)
            s->up += s->pl != p;
        else
            s->pf = p;
        s->pl = p;
        s->ties++;
    }
    s->sum += q;
}

/** The chunk record's entry of a stretch summarised for one binade. */
VG_F32SUM_FN void vg_f32sum_record(VgF32sumChunk *c, int w, VgF32sumSeg s)
{
    c->k[w] = s.sum + s.up;
    c->tie[w] = (uint8_t)(s.ties ? 1 | (s.pf << 1) : 0);
}

/**
 * What a chunk adds to m from (e, m) where it cannot leave the binade by
 * its record: 1 and *k, or 0 where it must be walked term by term (the
 * binade is below its window, or a term is negative or not finite). The
 * caller checks that m + *k stays below VG_F32SUM_TOP.
 */
VG_F32SUM_FN int vg_f32sum_chunk_units(const VgF32sumChunk *c, int e, int64_t m,
                                       int64_t *k)
{
    const int64_t w = (int64_t)e - c->emax;
    int t;

    if (w < 0)
        return 0;
    if (w >= VG_F32SUM_WINDOW) {
        *k = 0;
        return 1;
    }
    t = c->tie[w];
    /* the first tie rounds up when m plus the floors through it is odd */
    *k = c->k[w] + ((t & 1) ? ((m + (t >> 1)) & 1) : 0);
    return 1;
}

#endif /* VG_GPU_F32SUM_STEP_H */
