/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Block code of the integer VIF kernels (gpu/vif.cu): what one thread
 * does in each phase of a block, on a shared-memory tile. It is plain C
 * that nvcc compiles as device code and a host compiler as host code, so
 * that tests/gpu/test_vif_block.c runs the very same phases block by
 * block on the host against cpu/vif.c without a GPU.
 *
 * Arithmetic (libvmaf v3.2.0 src/feature/integer_vif.c vif_statistic_8,
 * vif_statistic_16, subsample_rd_8, subsample_rd_16, decimate_and_pad,
 * pad_top_and_bottom; integer_vif.h vif_filter1d_table, log2_32, log2_64,
 * PADDING_SQ_DATA), as cpu/vif.c computes it:
 *  - statistic of scale s: a vertical pass with the scale's taps over
 *    reflect-101 rows gives mu (uint16) and the filtered squares (uint32):
 *    scale 0 at 8 bits mu = (m + 128) >> 8, squares unshifted; scale 0 at
 *    b > 8 bits mu = (m + 2^(b-1)) >> b, squares (q + 2^(2(b-8)-1)) >>
 *    2(b-8); scales 1..3 both (v + 2^15) >> 16. A horizontal pass over
 *    reflect-101 columns gives M1, M2 (uint32) and XX, YY, XY (uint64,
 *    then (v + 2^15) >> 16 to uint32). Mirroring the input columns is the
 *    same as mirroring the rows of the vertical result, because the
 *    vertical pass works per column.
 *  - per pixel (vg_vif_pixel()) sigma1^2, sigma2^2, sigma12 and the
 *    log-domain terms, into four int64 sums. Integer sums are exact, so
 *    the kernel may add them in any order.
 *  - down-sampling s -> s + 1: the taps of scale s + 1, vertical rounding
 *    (v + 2^(b-1)) >> b from scale 0 and (v + 2^15) >> 16 after, to
 *    uint16; horizontal (v + 2^15) >> 16 to uint16; only even rows and
 *    columns are computed (decimate_and_pad keeps those).
 * The double operations of the gain go through VG_VIF_DMUL and friends,
 * which are the round-to-nearest intrinsics on the device, so that no
 * multiply-add is contracted whatever the compiler flags.
 */

#ifndef VG_GPU_VIF_BLOCK_H
#define VG_GPU_VIF_BLOCK_H

#include <stdint.h>
#include <string.h>

#include "common/features/vif_params.h"
#include "common/features/vif_tools.h"

#ifdef __CUDACC__
#define VG_VIF_FN static __device__ __forceinline__
#define VG_VIF_TABLE static __constant__ const
#define VG_VIF_UNROLL _Pragma("unroll")
#define VG_VIF_CLZ32(x) __clz((int)(x))
#define VG_VIF_CLZ64(x) __clzll((long long)(x))
#define VG_VIF_LDG(p) __ldg(p)
#define VG_VIF_DMUL(a, b) __dmul_rn(a, b)
#define VG_VIF_DADD(a, b) __dadd_rn(a, b)
#define VG_VIF_DSUB(a, b) __dsub_rn(a, b)
#define VG_VIF_DDIV(a, b) __ddiv_rn(a, b)
#else
#define VG_VIF_FN static inline __attribute__((always_inline))
#define VG_VIF_TABLE static const
#define VG_VIF_UNROLL
#define VG_VIF_CLZ32(x) __builtin_clz(x)
#define VG_VIF_CLZ64(x) __builtin_clzll(x)
#define VG_VIF_LDG(p) (*(p))
#define VG_VIF_DMUL(a, b) ((a) * (b))
#define VG_VIF_DADD(a, b) ((a) + (b))
#define VG_VIF_DSUB(a, b) ((a) - (b))
#define VG_VIF_DDIV(a, b) ((a) / (b))
#endif

/* the feature's taps (common/features/vif_params.h) in constant memory,
 * and the same as doubles for the horizontal sums of the squares */
VG_VIF_TABLE uint16_t vg_vif_ktaps[4][17] = VG_VIF_TAPS_INIT;
VG_VIF_TABLE double vg_vif_dtaps[4][17] = VG_VIF_TAPS_INIT;

#if VG_VIF_DW != VG_VIF_BX || VG_VIF_DH != VG_VIF_BY
#error "vg_vif_ds_horiz() maps one output per thread"
#endif
#if VG_VIF_TW / VG_VIF_HC * VG_VIF_TH != VG_VIF_NT || VG_VIF_HC != 4 ||        \
    VG_VIF_TH % VG_VIF_VR
#error "vg_vif_stat_horiz() maps four output columns of one row per thread"
#endif

/* vif_statistic_8/16 sigma_nsq */
#define VG_VIF_K_NSQ 131072

/** Input columns/rows of a statistic tile (largest filter). */
#define VG_VIF_SIW (VG_VIF_TW + 2 * VG_VIF_HMAX)
#define VG_VIF_SIH (VG_VIF_TH + 2 * VG_VIF_HMAX)
/** Input columns/rows of a down-sampling tile (largest filter). */
#define VG_VIF_DIW (2 * VG_VIF_DW - 1 + 2 * VG_VIF_DHMAX)
#define VG_VIF_DIH (2 * VG_VIF_DH - 1 + 2 * VG_VIF_DHMAX)

/* rows of 16-byte multiples (vector reads of vg_vif_stat_horiz()) */
#if VG_VIF_SIW % 8
#error "VG_VIF_SIW must be a multiple of 8"
#endif

typedef struct VgVifStatTile {
    uint16_t x[VG_VIF_SIH][VG_VIF_SIW], y[VG_VIF_SIH][VG_VIF_SIW];
    /* vertical pass of TH rows: mu and filtered squares */
    uint16_t mu1[VG_VIF_TH][VG_VIF_SIW], mu2[VG_VIF_TH][VG_VIF_SIW];
    uint32_t xx[VG_VIF_TH][VG_VIF_SIW], yy[VG_VIF_TH][VG_VIF_SIW];
    uint32_t xy[VG_VIF_TH][VG_VIF_SIW];
} VgVifStatTile;

/** Row length of a down-sampling tile: DIW rounded up to 8 samples, so
 *  that whole words land on aligned entries. */
#define VG_VIF_DIWP ((VG_VIF_DIW + 7) & ~7)

typedef struct VgVifDsTile {
    uint16_t x[VG_VIF_DIH][VG_VIF_DIWP], y[VG_VIF_DIH][VG_VIF_DIWP];
    /* vertical pass at the DH even rows */
    uint16_t v1[VG_VIF_DH][VG_VIF_DIWP], v2[VG_VIF_DH][VG_VIF_DIWP];
} VgVifDsTile;

typedef union VgVifTile {
    VgVifStatTile st;
    VgVifDsTile ds;
} VgVifTile;

/** One thread's share of the four accumulators (VgVifAccum's order). */
typedef struct VgVifSums {
    int64_t num_log, den_log, num_non_log, den_non_log;
} VgVifSums;

/* the double whose bits are hi:lo, and the bits of a double: the
 * device's intrinsics, and the same through memcpy on the host, so that
 * the host build of this file runs the device's bit arithmetic below */
#ifdef __CUDACC__
#define VG_VIF_HILO(hi, lo) __hiloint2double((int)(hi), (int)(lo))
#else
VG_VIF_FN double vg_vif_hilo(uint32_t hi, uint32_t lo)
{
    const uint64_t b = (uint64_t)hi << 32 | lo;
    double d;

    memcpy(&d, &b, sizeof(d));
    return d;
}
#define VG_VIF_HILO(hi, lo) vg_vif_hilo(hi, lo)
#endif

/* bits sh .. sh + 31 of the double t, 0 <= sh < 32 */
VG_VIF_FN uint32_t vg_vif_dbits(double t, unsigned sh)
{
#ifdef __CUDACC__
    return __funnelshift_r((unsigned)__double2loint(t),
                           (unsigned)__double2hiint(t), sh);
#else
    uint64_t b;

    memcpy(&b, &t, sizeof(b));
    return (uint32_t)(b >> sh);
#endif
}

/*
 * An integer below 2^32 as a double, from the bits of 2^52 + v, which a
 * double holds exactly, less 2^52 (the conversion instruction is a slow
 * one on the device).
 */
VG_VIF_FN double vg_vif_u2d(uint32_t v)
{
    return VG_VIF_DSUB(VG_VIF_HILO(0x43300000, v), 4503599627370496.0);
}

/*
 * (uint32_t)((s + 2^(sh-1)) >> sh), 0 <= sh <= 16 (no rounding term for
 * 0), for a double s holding an integer 0 <= s < 2^48: s + 2^52 +
 * 2^(sh-1) is exact (an integer below 2^53) and its low 52 bits are
 * s + 2^(sh-1), so the result is bits sh .. sh + 31 of that double, below
 * its exponent.
 */
VG_VIF_FN uint32_t vg_vif_d_rnd(double s, unsigned sh)
{
    const double add = VG_VIF_HILO(0x43300000, sh ? 1u << (sh - 1) : 0);

    return vg_vif_dbits(VG_VIF_DADD(s, add), sh);
}

/* acc + c * v in double, one multiply-add on the device (exact here) */
#ifdef __CUDACC__
#define VG_VIF_DMAC(acc, c, v) __fma_rn(c, v, acc)
#else
#define VG_VIF_DMAC(acc, c, v) ((acc) + (c) * (v))
#endif

/* integer_vif.h log2_32 / log2_64 */
VG_VIF_FN int32_t vg_vif_l32(const uint16_t *tab, uint32_t t)
{
    const int k = 16 - VG_VIF_CLZ32(t);
    return VG_VIF_LDG(tab + (t >> k)) + 2048 * k;
}

VG_VIF_FN int32_t vg_vif_l64(const uint16_t *tab, uint64_t t)
{
    const int k = 48 - VG_VIF_CLZ64(t);
    return VG_VIF_LDG(tab + (t >> k)) + 2048 * k;
}

/* double -> int32 as the x86-64 build of cpu/vif.c converts (cvttsd2si:
 * toward zero, 0x80000000 when out of range); CUDA's conversion would
 * saturate instead */
VG_VIF_FN int32_t vg_vif_d2i32(double d)
{
    return d > -2147483649.0 && d < 2147483648.0 ? (int32_t)d : INT32_MIN;
}

/*
 * One pixel of vif_statistic_8/16 from the horizontal sums: mu products in
 * uint64 rounded >> 32, differences in uint32 read as int32, sigma2^2
 * clamped at 0; g in double, sv^2 truncated to int32, (g * g) * sigma1^2
 * truncated to int64 (the order of operations of cpu/vif.c).
 */
VG_VIF_FN void vg_vif_pixel(VgVifSums *a, uint32_t m1, uint32_t m2, uint32_t xx,
                            uint32_t yy, uint32_t xy, const uint16_t *tab,
                            double egl)
{
    const int32_t nsq = VG_VIF_K_NSQ;
    const double eps = 65536 * 1.0e-10;
    const uint32_t mu1_sq = (uint32_t)(((uint64_t)m1 * m1 + 2147483648u) >> 32);
    const uint32_t mu2_sq = (uint32_t)(((uint64_t)m2 * m2 + 2147483648u) >> 32);
    const uint32_t mu12 = (uint32_t)(((uint64_t)m1 * m2 + 2147483648u) >> 32);
    const int32_t s1 = (int32_t)(xx - mu1_sq);
    const int32_t s12 = (int32_t)(xy - mu12);
    int32_t s2 = (int32_t)(yy - mu2_sq);

    s2 = s2 < 0 ? 0 : s2;
    if (s1 >= nsq) {
        a->den_log += vg_vif_l32(tab, (uint32_t)nsq + (uint32_t)s1) - 2048 * 17;
        if (s12 > 0 && s2 > 0) {
            double g = VG_VIF_DDIV((double)s12, VG_VIF_DADD((double)s1, eps));
            int32_t sv_sq = vg_vif_d2i32(
                VG_VIF_DSUB((double)s2, VG_VIF_DMUL(g, (double)s12)));
            uint32_t n1;
            int64_t n2;

            sv_sq = sv_sq < 0 ? 0 : sv_sq;
            g = g < egl ? g : egl;
            n1 = (uint32_t)sv_sq + (uint32_t)nsq;
            n2 = (int64_t)VG_VIF_DMUL(VG_VIF_DMUL(g, g), (double)s1) + n1;
            a->num_log += vg_vif_l64(tab, (uint64_t)n2) - vg_vif_l64(tab, n1);
        }
    } else {
        a->num_non_log += s2;
        a->den_non_log++;
    }
}

/* sample (x, y) of a picture: uint8 when bps == 1, else uint16 */
VG_VIF_FN uint16_t vg_vif_sample(uint64_t base, int64_t pitch, unsigned bps,
                                 int x, int y)
{
    const uint8_t *row = (const uint8_t *)(uintptr_t)base + (int64_t)y * pitch;

    return bps == 1 ? row[x] : ((const uint16_t *)row)[x];
}

/* ---- statistic of one scale: tile of TW x TH outputs at (bx0, by0) ---- */

/* input (TH + 2 half) x (TW + 2 half), mirrored; 0 past the mirror range
 * (only read for outputs outside the picture) */
VG_VIF_FN void vg_vif_stat_load(VgVifStatTile *t, unsigned tid,
                                const VgVifParams *p, unsigned half,
                                unsigned bps, unsigned bx0, unsigned by0)
{
    const unsigned iw = VG_VIF_TW + 2 * half, ih = VG_VIF_TH + 2 * half;
    const int w = (int)p->w, h = (int)p->h;

    /* a fixed trip count, so that the reads of every pass can be in
     * flight at once */
    VG_VIF_UNROLL
    for (unsigned n = 0; n < (iw * ih + VG_VIF_NT - 1) / VG_VIF_NT; n++) {
        const unsigned i = tid + n * VG_VIF_NT;
        if (i >= iw * ih)
            break;
        const unsigned r = i / iw, c = i % iw;
        const int gy = (int)(by0 + r) - (int)half;
        const int gx = (int)(bx0 + c) - (int)half;
        uint16_t a = 0, b = 0;

        if (gy < h + (int)half && gx < w + (int)half) {
            const int my = vg_vif_mirror(gy, h), mx = vg_vif_mirror(gx, w);
            a = vg_vif_sample(p->ref, p->ref_pitch, bps, mx, my);
            b = vg_vif_sample(p->dis, p->dis_pitch, bps, mx, my);
        }
        t->x[r][c] = a;
        t->y[r][c] = b;
    }
}

/* the samples of one 4-byte word (4 of 8 bits, 2 of 16) into a tile row
 * from entry c: one 8- or 4-byte shared-memory store on the device */
VG_VIF_FN void vg_vif_put4(uint16_t *row, unsigned c, uint32_t v, unsigned bps)
{
#ifdef __CUDACC__
    if (bps == 1)
        *(uint2 *)(row + c) =
            make_uint2(__byte_perm(v, 0, 0x4140), __byte_perm(v, 0, 0x4342));
    else
        *(uint32_t *)(row + c) = v;
#else
    for (unsigned k = 0; k < 4 / bps; k++)
        row[c + k] = (uint16_t)(bps == 1 ? v >> 8 * k & 0xff : v >> 16 * k);
#endif
}

/* the same for an 8-byte word (v0 its first four bytes): 16 or 8 bytes */
VG_VIF_FN void vg_vif_put8(uint16_t *row, unsigned c, uint32_t v0, uint32_t v1,
                           unsigned bps)
{
#ifdef __CUDACC__
    if (bps == 1)
        *(uint4 *)(row + c) =
            make_uint4(__byte_perm(v0, 0, 0x4140), __byte_perm(v0, 0, 0x4342),
                       __byte_perm(v1, 0, 0x4140), __byte_perm(v1, 0, 0x4342));
    else
        *(uint2 *)(row + c) = make_uint2(v0, v1);
#else
    vg_vif_put4(row, c, v0, bps);
    vg_vif_put4(row, c + 4 / bps, v1, bps);
#endif
}

/* the word of wb (4 or 8) bytes at a: w[0] its first four bytes */
VG_VIF_FN void vg_vif_word(const uint8_t *a, unsigned wb, uint32_t w[2])
{
#ifdef __CUDACC__
    if (wb == 8) {
        const uint2 q = __ldg((const uint2 *)a);
        w[0] = q.x;
        w[1] = q.y;
    } else {
        w[0] = __ldg((const uint32_t *)a);
    }
#else
    w[0] = w[1] = 0;
    for (unsigned k = 0; k < wb; k++)
        w[k / 4] |= (uint32_t)a[k] << 8 * (k % 4);
#endif
}

/*
 * The input of a tile that needs no mirroring (its rows and columns with
 * the halo inside the picture), in whole words of 8 bytes when the
 * filter's half-width keeps them aligned, else of 4, one word of each
 * picture per thread and pass. Returns 0, having loaded nothing, for other
 * tiles and for pictures whose rows are not aligned to the word;
 * vg_vif_stat_load() then loads the tile. Uniform per block.
 */
VG_VIF_FN int vg_vif_stat_load_inside(VgVifStatTile *t, unsigned tid,
                                      const VgVifParams *p, unsigned half,
                                      unsigned bps, unsigned bx0, unsigned by0)
{
    const unsigned iw = VG_VIF_TW + 2 * half, ih = VG_VIF_TH + 2 * half;
    const unsigned wb = (half * bps) % 8 ? 4 : 8; /* bytes per word */
    const unsigned wpr = iw * bps / wb;           /* words per row */
    const unsigned spw = wb / bps;                /* samples per word */
    const uint64_t bits =
        p->ref | p->dis | (uint64_t)p->ref_pitch | (uint64_t)p->dis_pitch;

    /* bx0 is a multiple of TW, so the first word is aligned when the
     * half-width is */
    if ((half * bps) % 4 || (iw * bps) % wb || bits % wb || bx0 < half ||
        by0 < half || bx0 + VG_VIF_TW + half > p->w ||
        by0 + VG_VIF_TH + half > p->h)
        return 0;

    const uint8_t *ra = (const uint8_t *)(uintptr_t)p->ref +
                        (int64_t)(by0 - half) * p->ref_pitch +
                        (int64_t)(bx0 - half) * bps;
    const uint8_t *da = (const uint8_t *)(uintptr_t)p->dis +
                        (int64_t)(by0 - half) * p->dis_pitch +
                        (int64_t)(bx0 - half) * bps;

    VG_VIF_UNROLL
    for (unsigned n = 0; n < (wpr * ih + VG_VIF_NT - 1) / VG_VIF_NT; n++) {
        const unsigned i = tid + n * VG_VIF_NT;
        if (i >= wpr * ih)
            break;
        const unsigned r = i / wpr, k = i % wpr;
        uint32_t a[2], b[2];

        vg_vif_word(ra + (int64_t)r * p->ref_pitch + k * wb, wb, a);
        vg_vif_word(da + (int64_t)r * p->dis_pitch + k * wb, wb, b);
        if (wb == 8) {
            vg_vif_put8(t->x[r], k * spw, a[0], a[1], bps);
            vg_vif_put8(t->y[r], k * spw, b[0], b[1], bps);
        } else {
            vg_vif_put4(t->x[r], k * spw, a[0], bps);
            vg_vif_put4(t->y[r], k * spw, b[0], bps);
        }
    }
    return 1;
}

/*
 * vertical pass for the TH output rows and all TW + fw - 1 columns: a
 * thread takes VR consecutive output rows of one column, reading each of
 * their VR + fw - 1 input rows once (integer sums: the order of the
 * additions does not matter)
 */
VG_VIF_FN void vg_vif_stat_vert(VgVifStatTile *t, unsigned tid, unsigned fw,
                                unsigned scale, unsigned u8, unsigned bpc,
                                unsigned rd)
{
    const unsigned iw = VG_VIF_TW + fw - 1;
    const uint16_t *taps = vg_vif_ktaps[scale];

    for (unsigned i = tid; i < VG_VIF_TH / VG_VIF_VR * iw; i += VG_VIF_NT) {
        const unsigned r0 = i / iw * VG_VIF_VR, c = i % iw;
        uint32_t s1[VG_VIF_VR], s2[VG_VIF_VR];

        VG_VIF_UNROLL
        for (unsigned q = 0; q < VG_VIF_VR; q++)
            s1[q] = s2[q] = 0;
        if (u8) {
            /* vif_statistic_8: squares fit 16 bits, their sums 32 */
            uint32_t sxx[VG_VIF_VR], syy[VG_VIF_VR], sxy[VG_VIF_VR];

            VG_VIF_UNROLL
            for (unsigned q = 0; q < VG_VIF_VR; q++)
                sxx[q] = syy[q] = sxy[q] = 0;
            VG_VIF_UNROLL
            for (unsigned m = 0; m < fw + VG_VIF_VR - 1; m++) {
                const uint32_t x = t->x[r0 + m][c], y = t->y[r0 + m][c];
                const uint32_t xx = x * x, yy = y * y, xy = x * y;

                VG_VIF_UNROLL
                for (unsigned q = 0; q < VG_VIF_VR; q++) {
                    if (m < q || m - q >= fw)
                        continue;
                    const uint32_t c0 = taps[m - q];
                    if (!rd) {
                        s1[q] += c0 * x;
                        sxx[q] += c0 * xx;
                    }
                    s2[q] += c0 * y;
                    syy[q] += c0 * yy;
                    sxy[q] += c0 * xy;
                }
            }
            VG_VIF_UNROLL
            for (unsigned q = 0; q < VG_VIF_VR; q++) {
                if (!rd) {
                    t->mu1[r0 + q][c] = (uint16_t)((s1[q] + 128) >> 8);
                    t->xx[r0 + q][c] = sxx[q];
                }
                t->mu2[r0 + q][c] = (uint16_t)((s2[q] + 128) >> 8);
                t->yy[r0 + q][c] = syy[q];
                t->xy[r0 + q][c] = sxy[q];
            }
        } else {
            const unsigned sh_mu = scale ? 16 : bpc;
            const unsigned sh_sq = scale ? 16 : 2 * (bpc - 8);
            const double *dtaps = vg_vif_dtaps[scale];
            /* the squares' sums in double: below 65536 * 2^32 = 2^48,
             * exact, on the FP64 unit instead of 64-bit multiply-adds */
            double sxx[VG_VIF_VR], syy[VG_VIF_VR], sxy[VG_VIF_VR];

            VG_VIF_UNROLL
            for (unsigned q = 0; q < VG_VIF_VR; q++)
                sxx[q] = syy[q] = sxy[q] = 0;
            VG_VIF_UNROLL
            for (unsigned m = 0; m < fw + VG_VIF_VR - 1; m++) {
                const uint32_t x = t->x[r0 + m][c], y = t->y[r0 + m][c];
                const double xx = vg_vif_u2d(x * x), yy = vg_vif_u2d(y * y);
                const double xy = vg_vif_u2d(x * y);

                VG_VIF_UNROLL
                for (unsigned q = 0; q < VG_VIF_VR; q++) {
                    if (m < q || m - q >= fw)
                        continue;
                    const uint32_t c0 = taps[m - q];
                    const double d0 = dtaps[m - q];
                    if (!rd) {
                        s1[q] += c0 * x;
                        sxx[q] = VG_VIF_DMAC(sxx[q], d0, xx);
                    }
                    s2[q] += c0 * y;
                    syy[q] = VG_VIF_DMAC(syy[q], d0, yy);
                    sxy[q] = VG_VIF_DMAC(sxy[q], d0, xy);
                }
            }
            VG_VIF_UNROLL
            for (unsigned q = 0; q < VG_VIF_VR; q++) {
                if (!rd) {
                    t->mu1[r0 + q][c] =
                        (uint16_t)((s1[q] + (1u << (sh_mu - 1))) >> sh_mu);
                    t->xx[r0 + q][c] = vg_vif_d_rnd(sxx[q], sh_sq);
                }
                t->mu2[r0 + q][c] =
                    (uint16_t)((s2[q] + (1u << (sh_mu - 1))) >> sh_mu);
                t->yy[r0 + q][c] = vg_vif_d_rnd(syy[q], sh_sq);
                t->xy[r0 + q][c] = vg_vif_d_rnd(sxy[q], sh_sq);
            }
        }
    }
}

/* four consecutive entries of a tile row from entry 4k (16-byte aligned
 * rows: one vector read on the device), as doubles */
VG_VIF_FN void vg_vif_row4_f64(const uint32_t *row, unsigned k, double v[4])
{
#ifdef __CUDACC__
    const uint4 q = ((const uint4 *)row)[k];
    v[0] = vg_vif_u2d(q.x);
    v[1] = vg_vif_u2d(q.y);
    v[2] = vg_vif_u2d(q.z);
    v[3] = vg_vif_u2d(q.w);
#else
    for (unsigned i = 0; i < 4; i++)
        v[i] = (double)row[4 * k + i];
#endif
}

VG_VIF_FN void vg_vif_row4_u16(const uint16_t *row, unsigned k, uint32_t v[4])
{
#ifdef __CUDACC__
    const uint2 q = ((const uint2 *)row)[k];
    v[0] = q.x & 0xffff;
    v[1] = q.x >> 16;
    v[2] = q.y & 0xffff;
    v[3] = q.y >> 16;
#else
    for (unsigned i = 0; i < 4; i++)
        v[i] = row[4 * k + i];
#endif
}

/*
 * The filter of one tile row for HC = 4 outputs from column c0 (a
 * multiple of 4): out[q] = sum over k of taps[k] * row[c0 + q + k], with
 * the taps' symmetry (taps[k] == taps[fw - 1 - k], tested by
 * tests/gpu/test_vif_block.c) used to add the two entries of a tap
 * first: an addition in place of a multiply-add, which is the scarcer
 * unit on the device. Exact in uint32 for sums whose true value fits.
 */
#define VG_VIF_HROW(load, row, c0, fw, taps, out)                              \
    do {                                                                       \
        uint32_t v_[VG_VIF_HMAX * 2 + VG_VIF_HC + 3];                          \
        VG_VIF_UNROLL                                                          \
        for (unsigned k_ = 0; k_ < ((fw) + VG_VIF_HC + 2) / 4; k_++)           \
            load(row, (c0) / 4 + k_, v_ + 4 * k_);                             \
        VG_VIF_UNROLL                                                          \
        for (unsigned q_ = 0; q_ < VG_VIF_HC; q_++) {                          \
            out[q_] = (uint32_t)(taps)[(fw) / 2] * v_[q_ + (fw) / 2];          \
            VG_VIF_UNROLL                                                      \
            for (unsigned k_ = 0; k_ < (fw) / 2; k_++)                         \
                out[q_] += (uint32_t)(taps)[k_] *                              \
                           (v_[q_ + k_] + v_[q_ + (fw)-1 - k_]);               \
        }                                                                      \
    } while (0)

/*
 * The same in double for integer entries below 2^32 (the filtered
 * squares), whose every partial sum is then an integer below 2^48 and
 * exact: the multiply-adds go to the FP64 unit, idle otherwise, instead
 * of 64-bit integer multiply-adds. Each entry is added to the outputs as
 * it is read: folding would save no instruction here (the pair's
 * addition is one too), and four sums need fewer registers than a row.
 * out[q] gets the sum rounded, (s + 2^15) >> 16, as uint32.
 */
#define VG_VIF_HROW_F64(load, row, c0, fw, taps, out)                          \
    do {                                                                       \
        double s_[VG_VIF_HC];                                                  \
        VG_VIF_UNROLL                                                          \
        for (unsigned q_ = 0; q_ < VG_VIF_HC; q_++)                            \
            s_[q_] = 0;                                                        \
        VG_VIF_UNROLL                                                          \
        for (unsigned k_ = 0; k_ < ((fw) + VG_VIF_HC + 2) / 4; k_++) {         \
            double v_[4];                                                      \
            load(row, (c0) / 4 + k_, v_);                                      \
            VG_VIF_UNROLL                                                      \
            for (unsigned i_ = 0; i_ < 4; i_++) {                              \
                VG_VIF_UNROLL                                                  \
                for (unsigned q_ = 0; q_ < VG_VIF_HC; q_++) {                  \
                    const unsigned j_ = 4 * k_ + i_;                           \
                    if (j_ >= q_ && j_ - q_ < (fw))                            \
                        s_[q_] = VG_VIF_DMAC(s_[q_], (taps)[j_ - q_], v_[i_]); \
                }                                                              \
            }                                                                  \
        }                                                                      \
        VG_VIF_UNROLL                                                          \
        for (unsigned q_ = 0; q_ < VG_VIF_HC; q_++)                            \
            out[q_] = vg_vif_d_rnd(s_[q_], 16);                                \
    } while (0)

/* the reference's terms (M1, XX) of the HC = 4 pixels from (x, y) in a
 * ladder's stage, x a multiple of 4: 32 bytes, two vector accesses on the
 * device. The pixels past the width up to the next multiple of 4 are
 * within the row's pitch, and never read. */
VG_VIF_FN uint32_t *vg_vif_rterm_at(const VgVifParams *p, unsigned x,
                                    unsigned y)
{
    return (uint32_t *)((uint8_t *)(uintptr_t)p->rterm +
                        (int64_t)y * p->rterm_pitch) +
           2 * x;
}

VG_VIF_FN void vg_vif_rterm_store(const VgVifParams *p, unsigned x, unsigned y,
                                  const uint32_t m1[VG_VIF_HC],
                                  const uint32_t xx[VG_VIF_HC])
{
    uint32_t *d = vg_vif_rterm_at(p, x, y);
#ifdef __CUDACC__
    ((uint4 *)d)[0] = make_uint4(m1[0], xx[0], m1[1], xx[1]);
    ((uint4 *)d)[1] = make_uint4(m1[2], xx[2], m1[3], xx[3]);
#else
    for (unsigned q = 0; q < VG_VIF_HC; q++) {
        d[2 * q] = m1[q];
        d[2 * q + 1] = xx[q];
    }
#endif
}

VG_VIF_FN void vg_vif_rterm_load(const VgVifParams *p, unsigned x, unsigned y,
                                 uint32_t m1[VG_VIF_HC], uint32_t xx[VG_VIF_HC])
{
    const uint32_t *d = vg_vif_rterm_at(p, x, y);
#ifdef __CUDACC__
    const uint4 a = __ldg((const uint4 *)d), b = __ldg((const uint4 *)d + 1);
    m1[0] = a.x;
    xx[0] = a.y;
    m1[1] = a.z;
    xx[1] = a.w;
    m1[2] = b.x;
    xx[2] = b.y;
    m1[3] = b.z;
    xx[3] = b.w;
#else
    for (unsigned q = 0; q < VG_VIF_HC; q++) {
        m1[q] = d[2 * q];
        xx[q] = d[2 * q + 1];
    }
#endif
}

/* horizontal pass and per-pixel terms: thread tid takes the HC = 4
 * output columns from (tid % (TW / 4)) * 4 of row tid / (TW / 4); with rd
 * the reference's terms come from the ladder's stage (p->rterm), and the
 * tile's mu1 and xx are not read */
VG_VIF_FN void vg_vif_stat_horiz(const VgVifStatTile *t, unsigned tid,
                                 const VgVifParams *p, unsigned fw,
                                 unsigned scale, unsigned bx0, unsigned by0,
                                 unsigned rd, VgVifSums *a)
{
    const uint16_t *taps = vg_vif_ktaps[scale];
    const double *dtaps = vg_vif_dtaps[scale];
    const uint16_t *tab = (const uint16_t *)(uintptr_t)p->log2;
    const unsigned r = tid / (VG_VIF_TW / VG_VIF_HC);
    const unsigned c0 = tid % (VG_VIF_TW / VG_VIF_HC) * VG_VIF_HC;
    uint32_t m1[VG_VIF_HC], m2[VG_VIF_HC];
    uint32_t xx[VG_VIF_HC], yy[VG_VIF_HC], xy[VG_VIF_HC];

    if (by0 + r >= p->h || bx0 + c0 >= p->w)
        return;
    /* mu: uint16 entries, sums below 2^32; squares: uint32 entries, sums
     * below 2^48, rounded to uint32 as soon as each is complete */
    if (rd) {
        vg_vif_rterm_load(p, bx0 + c0, by0 + r, m1, xx);
    } else {
        VG_VIF_HROW(vg_vif_row4_u16, t->mu1[r], c0, fw, taps, m1);
        VG_VIF_HROW_F64(vg_vif_row4_f64, t->xx[r], c0, fw, dtaps, xx);
        if (p->stage == VG_VIF_STAGE_WRITE)
            vg_vif_rterm_store(p, bx0 + c0, by0 + r, m1, xx);
    }
    VG_VIF_HROW(vg_vif_row4_u16, t->mu2[r], c0, fw, taps, m2);
    VG_VIF_HROW_F64(vg_vif_row4_f64, t->yy[r], c0, fw, dtaps, yy);
    VG_VIF_HROW_F64(vg_vif_row4_f64, t->xy[r], c0, fw, dtaps, xy);
    VG_VIF_UNROLL
    for (unsigned q = 0; q < VG_VIF_HC; q++)
        if (bx0 + c0 + q < p->w)
            vg_vif_pixel(a, m1[q], m2[q], xx[q], yy[q], xy[q], tab, p->egl);
}

/* ---- down-sampling s -> s + 1: tile of DW x DH outputs at (bx0, by0) ---- */

/* input rows 2 by0 - half .. 2 (by0 + DH - 1) + half, columns likewise */
VG_VIF_FN void vg_vif_ds_load(VgVifDsTile *t, unsigned tid,
                              const VgVifParams *p, unsigned half, unsigned bps,
                              unsigned bx0, unsigned by0)
{
    const unsigned iw = 2 * VG_VIF_DW - 1 + 2 * half;
    const unsigned ih = 2 * VG_VIF_DH - 1 + 2 * half;
    const int w = (int)p->w, h = (int)p->h;

    VG_VIF_UNROLL
    for (unsigned n = 0; n < (iw * ih + VG_VIF_NT - 1) / VG_VIF_NT; n++) {
        const unsigned i = tid + n * VG_VIF_NT;
        if (i >= iw * ih)
            break;
        const unsigned r = i / iw, c = i % iw;
        const int gy = (int)(2 * by0 + r) - (int)half;
        const int gx = (int)(2 * bx0 + c) - (int)half;
        uint16_t a = 0, b = 0;

        if (gy < h + (int)half && gx < w + (int)half) {
            const int my = vg_vif_mirror(gy, h), mx = vg_vif_mirror(gx, w);
            a = vg_vif_sample(p->ref, p->ref_pitch, bps, mx, my);
            b = vg_vif_sample(p->dis, p->dis_pitch, bps, mx, my);
        }
        t->x[r][c] = a;
        t->y[r][c] = b;
    }
}

/*
 * vg_vif_ds_load() for a tile whose input needs no mirroring, in whole
 * words as vg_vif_stat_load_inside() loads (the last word of a row may
 * reach past the tile's columns, never past the picture's). Returns 0,
 * having loaded nothing, for other tiles and alignments.
 */
VG_VIF_FN int vg_vif_ds_load_inside(VgVifDsTile *t, unsigned tid,
                                    const VgVifParams *p, unsigned half,
                                    unsigned bps, unsigned bx0, unsigned by0)
{
    const unsigned iw = 2 * VG_VIF_DW - 1 + 2 * half;
    const unsigned ih = 2 * VG_VIF_DH - 1 + 2 * half;
    const unsigned wb = (half * bps) % 8 ? 4 : 8;  /* bytes per word */
    const unsigned wpr = (iw * bps + wb - 1) / wb; /* words per row */
    const unsigned spw = wb / bps;                 /* samples per word */
    const uint64_t bits =
        p->ref | p->dis | (uint64_t)p->ref_pitch | (uint64_t)p->dis_pitch;

    /* 2 bx0 is a multiple of 2 DW: the first word is aligned when the
     * half-width is */
    if ((half * bps) % 4 || wpr * spw > VG_VIF_DIWP || bits % wb ||
        2 * bx0 < half || 2 * by0 < half || 2 * bx0 - half + wpr * spw > p->w ||
        2 * by0 - half + ih > p->h)
        return 0;

    const uint8_t *ra = (const uint8_t *)(uintptr_t)p->ref +
                        (int64_t)(2 * by0 - half) * p->ref_pitch +
                        (int64_t)(2 * bx0 - half) * bps;
    const uint8_t *da = (const uint8_t *)(uintptr_t)p->dis +
                        (int64_t)(2 * by0 - half) * p->dis_pitch +
                        (int64_t)(2 * bx0 - half) * bps;

    VG_VIF_UNROLL
    for (unsigned n = 0; n < (wpr * ih + VG_VIF_NT - 1) / VG_VIF_NT; n++) {
        const unsigned i = tid + n * VG_VIF_NT;
        if (i >= wpr * ih)
            break;
        const unsigned r = i / wpr, k = i % wpr;
        uint32_t a[2], b[2];

        vg_vif_word(ra + (int64_t)r * p->ref_pitch + k * wb, wb, a);
        vg_vif_word(da + (int64_t)r * p->dis_pitch + k * wb, wb, b);
        if (wb == 8) {
            vg_vif_put8(t->x[r], k * spw, a[0], a[1], bps);
            vg_vif_put8(t->y[r], k * spw, b[0], b[1], bps);
        } else {
            vg_vif_put4(t->x[r], k * spw, a[0], bps);
            vg_vif_put4(t->y[r], k * spw, b[0], bps);
        }
    }
    return 1;
}

/* vertical pass at the even rows 2r, taps of scale ts = s + 1, shift sh;
 * with rd the distorted picture's alone */
VG_VIF_FN void vg_vif_ds_vert(VgVifDsTile *t, unsigned tid, unsigned fw,
                              unsigned ts, unsigned sh, unsigned rd)
{
    const unsigned iw = 2 * VG_VIF_DW - 2 + fw;
    const uint16_t *taps = vg_vif_ktaps[ts];
    const uint32_t rnd = 1u << (sh - 1);

    for (unsigned i = tid; i < VG_VIF_DH * iw; i += VG_VIF_NT) {
        const unsigned r = i / iw, c = i % iw;
        uint32_t s1 = 0, s2 = 0;

        VG_VIF_UNROLL
        for (unsigned k = 0; k < fw; k++) {
            if (!rd)
                s1 += (uint32_t)taps[k] * t->x[2 * r + k][c];
            s2 += (uint32_t)taps[k] * t->y[2 * r + k][c];
        }
        if (!rd)
            t->v1[r][c] = (uint16_t)((s1 + rnd) >> sh);
        t->v2[r][c] = (uint16_t)((s2 + rnd) >> sh);
    }
}

/* horizontal pass at the even columns; thread (tid % BX, tid / BX) writes
 * output (bx0 + tid % BX, by0 + tid / BX); with rd the distorted
 * picture's alone */
VG_VIF_FN void vg_vif_ds_horiz(const VgVifDsTile *t, unsigned tid,
                               const VgVifParams *p, unsigned fw, unsigned ts,
                               unsigned bx0, unsigned by0, unsigned rd)
{
    const uint16_t *taps = vg_vif_ktaps[ts];
    const unsigned c = tid % VG_VIF_BX, r = tid / VG_VIF_BX;
    uint32_t s1 = 0, s2 = 0;

    if (bx0 + c >= p->dw || by0 + r >= p->dh)
        return;
    VG_VIF_UNROLL
    for (unsigned k = 0; k < fw; k++) {
        if (!rd)
            s1 += (uint32_t)taps[k] * t->v1[r][2 * c + k];
        s2 += (uint32_t)taps[k] * t->v2[r][2 * c + k];
    }
    if (!rd)
        ((uint16_t *)((uint8_t *)(uintptr_t)p->dref +
                      (int64_t)(by0 + r) * p->dpitch))[bx0 + c] =
            (uint16_t)((s1 + 32768) >> 16);
    ((uint16_t *)((uint8_t *)(uintptr_t)p->ddis +
                  (int64_t)(by0 + r) * p->dpitch))[bx0 + c] =
        (uint16_t)((s2 + 32768) >> 16);
}

#endif /* VG_GPU_VIF_BLOCK_H */
