/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The steps of gpu/core/seqsum.cu that decide and check its arithmetic: plain C
 * that nvcc compiles as device code and a host compiler as host code, so
 * that tests/gpu/test_seqsum.c replays the scheme on the host.
 *
 * The problem: a CPU sum s_0 = 0, s_{i+1} = RN(s_i + x_i) over doubles in
 * a fixed order rounds at every step, and its bits depend on the order; a
 * tree reduction gives other bits. The scheme reproduces those bits with
 * parallel passes:
 *
 * 1. While |s_i| and |s_{i+1}| lie in one binade [2^e, 2^(e+1)), with
 *    u = 2^(e-52) the spacing of the doubles there, s_i is a multiple of u
 *    and RN(s_i + x_i) = s_i + u * rint(x_i / u): the rounding of the term
 *    to the grid of u does not depend on s_i, except at an exact tie
 *    (x_i / u an odd multiple of 1/2), where ties-to-even looks at s_i.
 *    The step then adds an integer multiple of u, exactly representable as
 *    a 128-bit fixed-point number in units of 2^-90 when e >= -37.
 * 2. The binade of each s_i is guessed from an approximate prefix sum (any
 *    parallel order) with a margin (vg_seqsum_plan()); a step is "flagged"
 *    when the guess is not safe (near a power of two, near zero, a tie, a
 *    term that is not finite) and is then done as the CPU does it, in
 *    order, from the exact running sum before it.
 * 3. The integer contributions of the other steps are summed exactly (any
 *    order). The exact running sum at every step follows; each unflagged
 *    step is checked against it (vg_seqsum_run_ok()): if any guess was
 *    wrong, the sum is recomputed sequentially. By induction over the
 *    steps, a sum that passes the check is the CPU's sum bit for bit.
 *
 * The margin only decides how many steps are flagged; exactness never
 * depends on it. For the SSIM maps (2M terms at 1080p), a few dozen steps
 * are flagged: about one per power of two the running sum crosses.
 */

#ifndef VG_GPU_SEQSUM_STEP_H
#define VG_GPU_SEQSUM_STEP_H

#include <stdint.h>

#ifndef VG_SEQSUM_FN
#define VG_SEQSUM_FN static inline
#endif

#ifdef __CUDA_ARCH__
#define VG_SEQSUM_CLZ64(v) __clzll((long long)(v))
#define VG_SEQSUM_UNROLL _Pragma("unroll")
#else
#define VG_SEQSUM_UNROLL
#include <math.h>
#include <string.h>
#define VG_SEQSUM_CLZ64(v) __builtin_clzll(v)
#endif

/**
 * Exact fixed-point running sums, in units of 2^-VG_SEQSUM_FRAC, two's
 * complement: unsigned, so that additions wrap instead of overflowing (a
 * chunk's partial totals may pass 2^127 on the way while every running sum
 * stays far below it; modulo 2^128 the results are the same). Signs and
 * magnitudes are read through vg_seqsum_neg().
 */
typedef unsigned __int128 VgSeqsumFix;

#define VG_SEQSUM_FRAC 90
/**
 * Smallest binade exponent a fast step may use: its ulp, 2^(EMIN - 52), is
 * a multiple of the unit 2^-FRAC.
 */
#define VG_SEQSUM_EMIN -36
/** Running sums and results stay below 2^EMAX (the fixed point's range, with room). */
#define VG_SEQSUM_EMAX 34
/** A chunk whose steps are planned one by one (vg_seqsum_chunk_binade()). */
#define VG_SEQSUM_NO_BINADE (-1000)

/** Terms per thread and threads per block of the chunk kernels. */
#define VG_SEQSUM_PER_THREAD 16
#define VG_SEQSUM_THREADS 256
#define VG_SEQSUM_CHUNK (VG_SEQSUM_PER_THREAD * VG_SEQSUM_THREADS)
/**
 * Flagged steps one submission may hold, in all: a pool shared out among
 * its sums (vg_seqsum_pool_share()). A sum with more flagged steps than
 * its share takes the sequential path.
 */
#define VG_SEQSUM_POOL (1 << 16)
/** The least share of the pool of any sum (16 of them fill a quarter). */
#define VG_SEQSUM_POOL_FLOOR 1024
/** Sums one submission takes. */
#define VG_SEQSUM_MAX_ARRAYS 16

/**
 * Margin of the binade guess, relative to the running sum of |x|: the
 * CPU's sum drifts from the exact one by at most n 2^-53 of it, below
 * 2^-28 for n up to 2^25; the approximate prefix is much closer.
 */
#define VG_SEQSUM_TOL 0x1p-28

/** One sum: n doubles at x, its result to out. */
typedef struct VgSeqsumArray {
    uint64_t x;   ///< device const double[n]
    uint64_t out; ///< device double: the sum
    int64_t n;
    int32_t chunk0; ///< its first chunk in the scratch
    int32_t nchunks;
    int32_t pool0;  ///< its share of the pool: the first flagged step
    int32_t pool_n; ///< and how many (vg_seqsum_pool_share())
} VgSeqsumArray;

/**
 * Per chunk of VG_SEQSUM_CHUNK terms (device scratch). Its sum and abs may
 * be added by the kernel that writes the terms (any order, atomically:
 * only guesses read them).
 */
typedef struct VgSeqsumChunk {
    VgSeqsumFix fix;      ///< plan: total contribution of the unflagged steps
    VgSeqsumFix base;     ///< resolve: exact running sum before the chunk
    VgSeqsumFix corr_end; ///< resolve: the changes of all its flagged steps
    double sum, abs;      ///< the chunk's sum and sum of |x|, any order
    double pre, abspre;   ///< approximate prefixes of those before the chunk
    int64_t kmin,
        kmax;      ///< plan, one-binade chunk: extremes of its running k totals
    int32_t nflag; ///< plan: flagged steps
    int32_t flag0; ///< plan: the first of them in the pool
    int32_t binade; ///< plan: the chunk's one binade, or VG_SEQSUM_NO_BINADE
    int32_t pad;
} VgSeqsumChunk;

/** Per flagged step (device scratch: the pool, a chunk's steps in order). */
typedef struct VgSeqsumFlag {
    VgSeqsumFix lp; ///< unflagged contributions of the chunk before it
    VgSeqsumFix
        corr; ///< resolve: the changes of the chunk's flagged steps before it
    double x; ///< its term
    int32_t idx; ///< index in the chunk
    int32_t pad;
} VgSeqsumFlag;

/** Kernel parameters (gpu/core/seqsum.cu). */
typedef struct VgSeqsumParams {
    VgSeqsumArray a[VG_SEQSUM_MAX_ARRAYS];
    uint64_t chunks; ///< device VgSeqsumChunk[total chunks]
    uint64_t flags;  ///< device VgSeqsumFlag[VG_SEQSUM_POOL]
    uint64_t fail;   ///< device int32_t[MAX_ARRAYS]: 1 = sequential path
    uint64_t
        used; ///< device int32_t[MAX_ARRAYS]: flagged steps taken from each share
    int32_t count;  ///< arrays
    int32_t verify; ///< vg_seqsum_local: 0 plan, 1 check
    /** the chunks' sum and abs were added by the terms' producer, from 0
     * (vg_seqsum_chunks skipped); the verify pass sets them to 0 again */
    int32_t presummed;
    int32_t pad;
} VgSeqsumParams;

/** The array a chunk belongs to. */
VG_SEQSUM_FN int vg_seqsum_array_of(const VgSeqsumParams *p, int chunk)
{
    int k = 0;

    while (k + 1 < p->count && chunk >= p->a[k + 1].chunk0)
        k++;
    return k;
}

/**
 * The share of the pool of a sum of n terms, in a submission of `count`
 * sums of `total` terms in all: VG_SEQSUM_POOL_FLOOR, and the rest of the
 * pool in proportion to n. The shares never add up past the pool, and
 * whether a sum fits in its own does not depend on the other sums nor on
 * the order its chunks run in.
 */
VG_SEQSUM_FN int32_t vg_seqsum_pool_share(int64_t n, int64_t total, int count)
{
    const int64_t rest = VG_SEQSUM_POOL - (int64_t)count * VG_SEQSUM_POOL_FLOOR;

    return (int32_t)(VG_SEQSUM_POOL_FLOOR + (total > 0 ? rest * n / total : 0));
}

VG_SEQSUM_FN uint64_t vg_seqsum_bits(double d)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__double_as_longlong(d);
#else
    uint64_t b;
    memcpy(&b, &d, sizeof(b));
    return b;
#endif
}

/** 2^e for a normal e (-1022..1023): a scale that is exact. */
VG_SEQSUM_FN double vg_seqsum_pow2(int e)
{
    const uint64_t b = (uint64_t)(e + 1023) << 52;
#ifdef __CUDA_ARCH__
    return __longlong_as_double((long long)b);
#else
    double d;
    memcpy(&d, &b, sizeof(d));
    return d;
#endif
}

/** The binade of a positive normal double: floor(log2(d)). */
VG_SEQSUM_FN int vg_seqsum_binade(double d)
{
    return (int)(vg_seqsum_bits(d) >> 52) - 1023;
}

/**
 * Plan one step from the approximate running sum before it (p), the
 * margin (tol) and the term x. @return 1 when the step can be taken in
 * fixed point, with its binade in *e and its contribution k u (u =
 * 2^(e - 52)) in *k; 0 when it must be flagged. |k| < 2^56: 16 of them
 * add up in an int64.
 */
VG_SEQSUM_FN int vg_seqsum_plan(double p, double tol, double x, int *e,
                                int64_t *k)
{
    const double q = p + x;
    const double ap = fabs(p), aq = fabs(q);
    const double lo = (ap < aq ? ap : aq) - tol;
    const double hi = (ap < aq ? aq : ap) + tol;
    double y;
    int b;

    /* one sign, away from zero and from the fixed point's ends (also
     * false for a NaN) */
    if ((p < 0.0) != (q < 0.0) || !(lo >= vg_seqsum_pow2(VG_SEQSUM_EMIN)) ||
        !(hi < vg_seqsum_pow2(VG_SEQSUM_EMAX)))
        return 0;
    b = vg_seqsum_binade(lo);
    if (vg_seqsum_binade(hi) != b)
        return 0;
    y = x * vg_seqsum_pow2(52 - b); /* x / u, exact */
    if (!(fabs(y) < 0x1p+56))       /* out of the binade, or not finite */
        return 0;
#ifdef __CUDA_ARCH__
    *k = __double2ll_rn(y);
#else
    *k = llrint(y);
#endif
    if (fabs(y - (double)*k) == 0.5) /* a tie: the parity of s decides */
        return 0;
    *e = b;
    return 1;
}

/** k u in fixed point, u = 2^(e - 52). */
VG_SEQSUM_FN VgSeqsumFix vg_seqsum_units(int64_t k, int e)
{
    return (VgSeqsumFix)k << (e + VG_SEQSUM_FRAC - 52);
}

/** Whether a fixed-point value is negative (its top bit). */
VG_SEQSUM_FN int vg_seqsum_neg(VgSeqsumFix v)
{
    return (int)(v >> 127);
}

/*
 * What one thread does with its n (<= VG_SEQSUM_PER_THREAD) consecutive
 * terms v, given the approximate running sum (run) and running sum of |x|
 * (runa) before them. The three passes repeat the same plan (the same
 * operations on the same values: the same guesses). Consecutive unflagged
 * steps of one binade form a run: their k add up in an int64, shifted
 * into fixed point once per run.
 */

/** Pass 1: the unflagged contributions in all; the flagged steps' bits. */
VG_SEQSUM_FN VgSeqsumFix vg_seqsum_thread_plan(const double *v, int n,
                                               double run, double runa,
                                               unsigned *flagged, int *nflag)
{
    VgSeqsumFix total = 0;
    int64_t ksum = 0;
    int cur = -1000;

    *flagged = 0;
    *nflag = 0;
    VG_SEQSUM_UNROLL
    for (int j = 0; j < VG_SEQSUM_PER_THREAD; j++) {
        int64_t k = 0;
        int e = 0;

        if (j >= n)
            break;
        runa += fabs(v[j]);
        if (vg_seqsum_plan(run, runa * VG_SEQSUM_TOL, v[j], &e, &k)) {
            if (e != cur) {
                if (ksum)
                    total += vg_seqsum_units(ksum, cur);
                cur = e;
                ksum = 0;
            }
            ksum += k;
        } else {
            *flagged |= 1u << j;
            (*nflag)++;
        }
        run += v[j];
    }
    if (ksum)
        total += vg_seqsum_units(ksum, cur);
    return total;
}

/**
 * Pass 2, threads with flagged steps: each one's term, index (li0 + j)
 * and the chunk's unflagged contributions before it (from lp, those
 * before the thread), to fl[0], fl[1]...
 */
VG_SEQSUM_FN void vg_seqsum_thread_flags(const double *v, int n, double run,
                                         double runa, unsigned flagged,
                                         VgSeqsumFix lp, int li0,
                                         VgSeqsumFlag *fl)
{
    int f = 0;

    VG_SEQSUM_UNROLL
    for (int j = 0; j < VG_SEQSUM_PER_THREAD; j++) {
        int64_t k = 0;
        int e = 0;

        if (j >= n)
            break;
        runa += fabs(v[j]);
        if (flagged & (1u << j)) {
            fl[f].lp = lp;
            fl[f].x = v[j];
            fl[f].idx = li0 + j;
            f++;
        } else {
            vg_seqsum_plan(run, runa * VG_SEQSUM_TOL, v[j], &e, &k);
            lp += vg_seqsum_units(k, e);
        }
        run += v[j];
    }
}

/**
 * A run of steps in binade e that starts from the exact sum s0 and whose
 * k add up to K_1..K_m (kmin, kmax: their extremes) is the CPU's when s0
 * is in the binade and every s0 + K_i u at least one u inside it.
 */
VG_SEQSUM_FN int vg_seqsum_run_ok(VgSeqsumFix s0, int e, int64_t kmin,
                                  int64_t kmax)
{
    const int sh = e + VG_SEQSUM_FRAC - 52;
    const int64_t lo = (int64_t)1 << 52, hi = (int64_t)1 << 53;

    const int neg = vg_seqsum_neg(s0);
    const VgSeqsumFix mag = neg ? -s0 : s0;
    int64_t mu;

    if (s0 & (((VgSeqsumFix)1 << sh) - 1))
        return 0;
    if (mag < ((VgSeqsumFix)lo << sh) || mag >= ((VgSeqsumFix)hi << sh))
        return 0;
    mu = (int64_t)(mag >> sh); /* |s0| / u, in [2^52, 2^53) */
    if (!neg)
        return mu + kmin >= lo + 1 && mu + kmax <= hi - 1;
    return -mu + kmax <= -lo - 1 && -mu + kmin >= -hi + 1;
}

/**
 * Pass 3 (verify): each run of unflagged steps against the exact running
 * sum. base: the exact sum before the chunk; lp: the chunk's unflagged
 * contributions before the thread; fl, f, nflag, corr_end: the chunk's
 * flagged steps, the thread's first, their number and their changes in
 * all. @return 1 when every step is the CPU's.
 */
VG_SEQSUM_FN int vg_seqsum_thread_check(const double *v, int n, double run,
                                        double runa, unsigned flagged,
                                        VgSeqsumFix base, VgSeqsumFix lp,
                                        const VgSeqsumFlag *fl, int f,
                                        int nflag, VgSeqsumFix corr_end)
{
    VgSeqsumFix s0 = 0;
    int64_t ksum = 0, kmin = 0, kmax = 0;
    int cur = -1000, ok = 1;

    VG_SEQSUM_UNROLL
    for (int j = 0; j < VG_SEQSUM_PER_THREAD; j++) {
        int64_t k = 0;
        int e = 0;

        if (j >= n)
            break;
        runa += fabs(v[j]);
        if (flagged & (1u << j)) {
            if (cur != -1000) {
                ok &= vg_seqsum_run_ok(s0, cur, kmin, kmax);
                lp += vg_seqsum_units(ksum, cur);
                cur = -1000;
            }
            f++;
        } else {
            ok &= vg_seqsum_plan(run, runa * VG_SEQSUM_TOL, v[j], &e, &k);
            if (e != cur) {
                if (cur != -1000) {
                    ok &= vg_seqsum_run_ok(s0, cur, kmin, kmax);
                    lp += vg_seqsum_units(ksum, cur);
                }
                s0 = base + lp + (f < nflag ? fl[f].corr : corr_end);
                cur = e;
                ksum = 0;
                kmin = INT64_MAX;
                kmax = INT64_MIN;
            }
            ksum += k;
            kmin = ksum < kmin ? ksum : kmin;
            kmax = ksum > kmax ? ksum : kmax;
        }
        run += v[j];
    }
    if (cur != -1000)
        ok &= vg_seqsum_run_ok(s0, cur, kmin, kmax);
    return ok;
}

/*
 * One-binade chunks. Most chunks of a long sum lie between two powers of
 * two: every running sum in the chunk, within the guess's margin, is in
 * one binade e. Their steps need no guess each: each term's k is rint(x /
 * u) in that binade, and the chunk is one run, checked once against the
 * exact sum before it (vg_seqsum_run_ok() with the extremes of the
 * chunk's running k totals). The other chunks (a power of two crossed,
 * near zero, a tie) are planned step by step.
 */

/**
 * The binade of a chunk from the approximate sum (pre) and sum of |x|
 * (abspre) before it and its own sum of |x| (abs), when all its running
 * sums lie in that one binade with the margin and each term is below half
 * the binade's start (|x| <= abs); else VG_SEQSUM_NO_BINADE.
 */
VG_SEQSUM_FN int vg_seqsum_chunk_binade(double pre, double abspre, double abs)
{
    const double tol = (abspre + abs) * VG_SEQSUM_TOL;
    const double lo = fabs(pre) - abs - tol, hi = fabs(pre) + abs + tol;
    int b;

    /* also false for a NaN or an infinity */
    if (!(lo >= vg_seqsum_pow2(VG_SEQSUM_EMIN)) ||
        !(hi < vg_seqsum_pow2(VG_SEQSUM_EMAX)))
        return VG_SEQSUM_NO_BINADE;
    b = vg_seqsum_binade(lo);
    if (vg_seqsum_binade(hi) != b || !(abs < vg_seqsum_pow2(b - 1)))
        return VG_SEQSUM_NO_BINADE;
    return b;
}

/**
 * Pass 1 of a one-binade chunk (binade e), a thread's n terms v: the total
 * of their k in *ksum and the extremes of its running value after each
 * term in *kmin, *kmax (INT64_MAX and INT64_MIN for no term). k = rint(x /
 * u) by adding 1.5 * 2^52, exact for |x / u| < 2^51 (each k then below
 * 2^51, a chunk's total below 2^63). @return 1 when a term is a tie or
 * too large (the chunk is planned step by step instead), else 0.
 */
VG_SEQSUM_FN int vg_seqsum_thread_uniform(const double *v, int n, int e,
                                          int64_t *ksum, int64_t *kmin,
                                          int64_t *kmax)
{
    const double scale = vg_seqsum_pow2(52 - e), magic = 0x1.8p+52;
    /* unsigned: a bad term's garbage wraps instead of overflowing */
    uint64_t t = 0;
    int64_t mn = INT64_MAX, mx = INT64_MIN;
    int bad = 0;

    VG_SEQSUM_UNROLL
    for (int j = 0; j < VG_SEQSUM_PER_THREAD; j++) {
        if (j >= n)
            break;
        const double y = v[j] * scale; /* exact */
        const double r = y + magic;    /* 1.5 2^52 + rint(y) */

        bad |= !(fabs(y) < 0x1p+51) || fabs(y - (r - magic)) == 0.5;
        t += vg_seqsum_bits(r) - vg_seqsum_bits(magic);
        mn = (int64_t)t < mn ? (int64_t)t : mn;
        mx = (int64_t)t > mx ? (int64_t)t : mx;
    }
    *ksum = (int64_t)t;
    *kmin = mn;
    *kmax = mx;
    return bad;
}

/** The double a fixed-point value is. @return 0, or -1 if it is not one. */
VG_SEQSUM_FN int vg_seqsum_to_double(VgSeqsumFix v, double *d)
{
    const int neg = vg_seqsum_neg(v);
    VgSeqsumFix m = neg ? -v : v;
    const uint64_t hi = (uint64_t)(m >> 64), lo = (uint64_t)m;
    const int bits = hi   ? 128 - VG_SEQSUM_CLZ64(hi)
                     : lo ? 64 - VG_SEQSUM_CLZ64(lo)
                          : 0;
    int sh = 0;
    double r;

    if (bits > 53) {
        sh = bits - 53;
        if (m & (((VgSeqsumFix)1 << sh) - 1))
            return -1;
        m >>= sh;
    }
    /* m < 2^53 converts exactly; sh - FRAC is at least -FRAC: normal */
    r = (double)(uint64_t)m * vg_seqsum_pow2(sh - VG_SEQSUM_FRAC);
    *d = neg ? -r : r;
    return 0;
}

/**
 * The fixed-point value of a double. @return 0, or -1 when d is not a
 * multiple of 2^-FRAC or is out of range (or not finite).
 */
VG_SEQSUM_FN int vg_seqsum_to_fix(double d, VgSeqsumFix *v)
{
    const uint64_t b = vg_seqsum_bits(d);
    const int ex = (int)((b >> 52) & 0x7ff);
    /* d = +-m 2^(ex - 1075) = +-m 2^sh units */
    const int sh = ex - 1075 + VG_SEQSUM_FRAC;
    uint64_t m = (b & (((uint64_t)1 << 52) - 1)) | ((uint64_t)1 << 52);
    VgSeqsumFix r;

    if (!(b << 1)) {
        *v = 0;
        return 0;
    }
    /* subnormals are below the unit; |d| >= 2^34, infinities, NaNs too large */
    if (ex == 0 || ex - 1023 >= VG_SEQSUM_EMAX)
        return -1;
    if (sh < 0) {
        if (sh < -52 || (m & (((uint64_t)1 << -sh) - 1)))
            return -1;
        r = m >> -sh;
    } else {
        r = (VgSeqsumFix)m << sh;
    }
    *v = (b >> 63) ? -r : r;
    return 0;
}

#endif /* VG_GPU_SEQSUM_STEP_H */
