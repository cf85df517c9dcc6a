/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI's kernel parameters and launch geometry, shared by gpu/cambi.c,
 * gpu/cambi_block.h (gpu/cambi.cu) and tests/gpu/test_cambi_block.c; and
 * the exact top-k pooling both backends run (below).
 */

#ifndef VG_FEATURES_CAMBI_PARAMS_H
#define VG_FEATURES_CAMBI_PARAMS_H

#include <stdint.h>

/** Most contrast steps (VG_CAMBI_MAX_DIFFS of the home, which the kernels
 * do not include). */
#define VG_CAMBI_K_MAX_DIFFS 32

#define VG_CAMBI_BX 32   ///< threads per block along x (pixel kernels)
#define VG_CAMBI_BY 8    ///< threads per block along y
#define VG_CAMBI_TILE 16 ///< c-value kernel: 16 x 16 outputs per block
/** Largest half window: the window is odd and ws * ws < 4226 (the size of
 * the reciprocal table), so ws <= 65. */
#define VG_CAMBI_PAD_MAX 32
/** Shared tile side of the c-value kernel. */
#define VG_CAMBI_TILE_SIDE (VG_CAMBI_TILE + 2 * VG_CAMBI_PAD_MAX)
/** Scales (VG_CAMBI_SCALES of the home). */
#define VG_CAMBI_K_SCALES 5
/** Half side of the spatial mask's box (7 x 7). */
#define VG_CAMBI_MASK_PAD 3

/** One scale of the c-value launch, which covers every scale of a pass:
 * blocks b0 .. b0 + gx * gy - 1 are this scale's tiles, row by row. */
typedef struct VgCambiScale {
    uint64_t src;  ///< the scale's picture (work pitch)
    uint64_t cval; ///< its c-values (float, w x h packed)
    int32_t w, h;
    int32_t mshift; ///< mask sample of (i, j): (i, j) << mshift
    int32_t gx;     ///< tiles per row
    int32_t b0;     ///< first block
    int32_t reserved;
} VgCambiScale;

typedef struct VgCambiKernelParams {
    uint64_t src;          ///< prep: input luma; else the input work plane
    int64_t src_pitch;     ///< prep: the input's pitch in bytes
    uint64_t dst;          ///< output work plane (same pitch as src's planes)
    uint64_t msrc, mdst;   ///< masks (uint8, work pitch)
    uint64_t ix, iy;       ///< prep: nearest-sample tables (uint32), or 0
    uint64_t rlut;         ///< the reciprocal table (floats)
    int64_t pitch;         ///< work planes' pitch in samples
    int32_t w, h;          ///< output size
    int32_t in_bpc;        ///< prep: input depth (8..16)
    int32_t up, down, rnd; ///< prep: shifts and rounding
    int32_t mask_index;
    int32_t pad;
    int32_t band_base, band_size;
    int32_t num_diffs;
    int32_t vlt_luma;
    int32_t tvi_for_diff[VG_CAMBI_K_MAX_DIFFS];
    int32_t diff_weights[VG_CAMBI_K_MAX_DIFFS];
    int32_t dither;   ///< prep: the anti-dithering mean
    int32_t dec;      ///< decmode: every other sample of src
    int32_t n_scales; ///< c-values: entries of scale[], b0 increasing
    int32_t n_blocks; ///< c-values: blocks of the launch
    VgCambiScale scale[VG_CAMBI_K_SCALES];
} VgCambiKernelParams;

/** The c-value launch's blocks, from each scale entry's w and h: its tiles
 * per row (gx) and first block (b0), and n_blocks. */
static inline void vg_cambi_cval_blocks(VgCambiKernelParams *p)
{
    p->n_blocks = 0;
    for (int z = 0; z < p->n_scales; z++) {
        VgCambiScale *e = &p->scale[z];

        e->gx = (e->w + VG_CAMBI_TILE - 1) / VG_CAMBI_TILE;
        e->b0 = p->n_blocks;
        p->n_blocks += e->gx * ((e->h + VG_CAMBI_TILE - 1) / VG_CAMBI_TILE);
    }
}

/*
 * The top-k pooling, where the home's exact shortcut
 * holds (common/features/cambi.h vg_cambi_pool_exact(): every c-value 0 or
 * in [1/8, 2^14), and the k largest adding up below 2^(30 + e), where
 * every partial double sum is exact and cambi.c's order cannot matter).
 * Plain C that nvcc compiles as device code (gpu/cambi.cu) and a host
 * compiler as host code: the home's vg_cambi_pool_exact() runs the same
 * selection on the host (the CPU backend's pooling), and
 * tests/gpu/test_cambi_pool.c replays the device's passes.
 *
 * Per segment (one pass's scale, w x h c-values), a radix selection on the
 * float bits, which order non-negative floats:
 *  1. histogram of the non-zero values by bits >> 20 (exponent and three
 *     bits of significand), counts and significand sums; only the 136 bins
 *     of [1/8, 2^14) exist: a value outside them marks the segment bad;
 *  2. from the top bin down, whole bins while they hold fewer values than
 *     still needed (select1): the bin b1 that holds the k-th largest;
 *  3. within b1, histogram by the next 10 bits (select2: bin b2), then
 *     count by the last 10 bits (select3), which are single values;
 *  4. the integer sum in units of 2^-26, and the exactness condition.
 * A segment that fails the condition (or is bad) is pooled in cambi.c's
 * order (vg_cambi_pool()), from its c-values.
 */

#ifndef VG_CAMBI_POOL_FN
#ifdef __CUDACC__
#define VG_CAMBI_POOL_FN static __device__ __forceinline__
#else
#define VG_CAMBI_POOL_FN static inline
#endif
#endif

/** c-values as integers: times 2^26, the spacing of floats at 1/8. */
#define VG_CAMBI_POOL_SHIFT 26
/** bits >> 20 of 0.125f and of 16384.0f: the first level's bins. */
#define VG_CAMBI_POOL_BIN0 0x3e0u
#define VG_CAMBI_POOL_BIN_END 0x468u
#define VG_CAMBI_POOL_NB1 (VG_CAMBI_POOL_BIN_END - VG_CAMBI_POOL_BIN0)
/** Segments of a frame: each pass's scales. */
#define VG_CAMBI_POOL_SEGS 10
/** Threads of the histogram kernels, and values per thread. */
#define VG_CAMBI_POOL_THREADS 256
#define VG_CAMBI_POOL_PER_THREAD 16

/** What a segment needs next, or its outcome. */
enum {
    VG_CAMBI_POOL_LEVEL1 = 0, ///< (zeroed) select1 runs
    VG_CAMBI_POOL_LEVEL2,     ///< b1 splits: the second histogram
    VG_CAMBI_POOL_LEVEL3,     ///< b2 splits: the third histogram
    VG_CAMBI_POOL_SUMMED,     ///< sum complete: select3 checks it
};

/** A segment's device scratch, zeroed for every frame. */
typedef struct VgCambiPoolSeg {
    uint32_t cnt1[VG_CAMBI_POOL_NB1];
    uint64_t sig1[VG_CAMBI_POOL_NB1];
    uint32_t cnt2[1024];
    uint64_t sig2[1024];
    uint32_t cnt3[1024];
    uint32_t bad;   ///< a value outside 0 and [1/8, 2^14)
    uint32_t level; ///< VG_CAMBI_POOL_*
    uint32_t b1;    ///< the level-1 bin (bits >> 20) of the k-th largest
    uint32_t b2;    ///< its bits >> 10
    uint32_t nz;    ///< non-zero values
    uint32_t need;  ///< values still to take from the current bin
    uint64_t sum;   ///< the sum so far, in units of 2^-26
} VgCambiPoolSeg;

/** A segment's result in the frame's result area. */
typedef struct VgCambiPoolResult {
    uint64_t sum; ///< the k largest, in units of 2^-26
    uint32_t k;
    int32_t
        exact; ///< 1: sum / 2^26 / k is the pooled score; 0: pool on the host
} VgCambiPoolResult;

/** The pooling kernels' parameters. */
typedef struct VgCambiPoolParams {
    uint64_t cval;  ///< the frame's c-values (device floats)
    uint64_t seg;   ///< VgCambiPoolSeg[nseg] (device)
    uint64_t res;   ///< VgCambiPoolResult[nseg] (device)
    uint64_t spill; ///< the c-values' host copy (mapped), or 0
    int32_t nseg;
    int32_t level;       ///< vg_cambi_pool_select: after which histogram
    int32_t all_to_host; ///< leave every segment to the host (tests)
    int32_t pad;
    int64_t off[VG_CAMBI_POOL_SEGS]; ///< first c-value of each segment
    uint32_t n[VG_CAMBI_POOL_SEGS];  ///< its c-values
    uint32_t k[VG_CAMBI_POOL_SEGS];  ///< how many it pools
} VgCambiPoolParams;

/** Significand and implicit bit of a value of level-1 bin b, shifted to units of 2^-26. */
VG_CAMBI_POOL_FN unsigned vg_cambi_pool_shift(uint32_t b1)
{
    /* exponent less 23 plus 26, from 0 up over the bins' range */
    return (b1 >> 3) - 127 - 23 + VG_CAMBI_POOL_SHIFT;
}

/** A c-value's bits: 0 (not pooled), 1 (a first-level bin), -1 (bad). */
VG_CAMBI_POOL_FN int vg_cambi_pool_class(uint32_t bits)
{
    if (!bits)
        return 0;
    return bits >> 20 >= VG_CAMBI_POOL_BIN0 &&
                   bits >> 20 < VG_CAMBI_POOL_BIN_END
               ? 1
               : -1;
}

VG_CAMBI_POOL_FN uint64_t vg_cambi_pool_sig(uint32_t bits)
{
    return (bits & 0x7fffff) | 0x800000;
}

/*
 * The home's boundary walk over n bins from the top: whole bins while they
 * hold fewer than `need` values (their sums shifted by `shift`, or with
 * shift < 0 by their own level-1 exponent); returns the bin that holds the
 * need-th value, or bin 0.
 */
VG_CAMBI_POOL_FN unsigned vg_cambi_pool_walk(const uint32_t *cnt,
                                             const uint64_t *sig, unsigned n,
                                             unsigned first_bin, int shift,
                                             uint32_t *need, uint64_t *sum)
{
    unsigned b = n - 1;

    for (; b > 0 && cnt[b] < *need; b--) {
        if (!cnt[b])
            continue;
        *need -= cnt[b];
        *sum += sig[b] << (shift < 0 ? vg_cambi_pool_shift(first_bin + b)
                                     : (unsigned)shift);
    }
    return b;
}

/**
 * After the first histogram: the bin of the k-th largest, the sums of the
 * bins above it, and what the segment needs next. nz: the first
 * histogram's counts added up (the segment's non-zero values).
 */
VG_CAMBI_POOL_FN void vg_cambi_pool_select1(VgCambiPoolSeg *s, uint32_t k)
{
    uint32_t nz = 0;
    unsigned b;

    for (unsigned i = 0; i < VG_CAMBI_POOL_NB1; i++)
        nz += s->cnt1[i];
    s->nz = nz;
    s->sum = 0;
    if (s->bad)
        return;
    if (nz <= k) {
        /* every non-zero value, and zeros */
        s->need = nz;
        b = vg_cambi_pool_walk(s->cnt1, s->sig1, VG_CAMBI_POOL_NB1,
                               VG_CAMBI_POOL_BIN0, -1, &s->need, &s->sum);
        if (nz)
            s->sum += s->sig1[b] << vg_cambi_pool_shift(VG_CAMBI_POOL_BIN0 + b);
        s->b1 = VG_CAMBI_POOL_BIN0 + b;
        s->level = VG_CAMBI_POOL_SUMMED;
        return;
    }
    s->need = k;
    b = vg_cambi_pool_walk(s->cnt1, s->sig1, VG_CAMBI_POOL_NB1,
                           VG_CAMBI_POOL_BIN0, -1, &s->need, &s->sum);
    s->b1 = VG_CAMBI_POOL_BIN0 + b;
    if (s->need == s->cnt1[b]) {
        s->sum += s->sig1[b] << vg_cambi_pool_shift(s->b1);
        s->level = VG_CAMBI_POOL_SUMMED;
    } else {
        s->level = VG_CAMBI_POOL_LEVEL2;
    }
}

/** After the second histogram (of the values of bin b1): bin b2. */
VG_CAMBI_POOL_FN void vg_cambi_pool_select2(VgCambiPoolSeg *s)
{
    const unsigned b =
        vg_cambi_pool_walk(s->cnt2, s->sig2, 1024, 0,
                           (int)vg_cambi_pool_shift(s->b1), &s->need, &s->sum);

    s->b2 = s->b1 << 10 | b;
    s->level = VG_CAMBI_POOL_LEVEL3;
}

/**
 * After the third count (of the values of bin b2), or straight after an
 * earlier level that summed: the last values, the exactness condition,
 * the result.
 */
VG_CAMBI_POOL_FN void vg_cambi_pool_select3(VgCambiPoolSeg *s, uint32_t n,
                                            uint32_t k, VgCambiPoolResult *r)
{
    int exp;

    r->k = k;
    r->sum = 0;
    r->exact = 0;
    /* n < 2^24 values below 2^40 each: no uint64 overflow */
    if (s->bad || n >= 1u << 24)
        return;
    if (s->level == VG_CAMBI_POOL_LEVEL3) {
        for (unsigned b = 1023; s->need; b--) {
            const uint32_t t = s->cnt3[b] < s->need ? s->cnt3[b] : s->need;
            const uint32_t bits = s->b2 << 10 | b;

            s->sum += (uint64_t)t * (vg_cambi_pool_sig(bits)
                                     << vg_cambi_pool_shift(bits >> 20));
            s->need -= t;
        }
    }
    /* below 2^(30 + e) is below 2^(56 + e) in units of 2^-26 */
    exp = (int)(s->b1 >> 3) - 127;
    if (s->nz && exp < 8 && s->sum >= (uint64_t)1 << (56 + exp))
        return;
    r->sum = s->sum;
    r->exact = 1;
}

#endif /* VG_FEATURES_CAMBI_PARAMS_H */
