/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * What one thread of each CAMBI kernel (gpu/cambi.cu) does: plain C that
 * nvcc compiles as device code and a host compiler as host code, so that
 * tests/gpu/test_cambi_block.c replays the kernels thread by thread on
 * the host against cpu/cambi.c without a GPU.
 *
 * Each step writes a new plane (the CPU's in-place steps only ever read
 * samples they have not yet written, so out of place gives the same
 * planes); work planes share one pitch in samples (p->pitch):
 *  - prep: the luma to 10 bits, shifts as cambi_preprocessing() (a resize
 *    takes the nearest sample from tables the host builds with the CPU's
 *    float steps, ix, iy), the 2x2 anti-dithering mean below 10 encoding
 *    bits, the zero-derivative flags and their 7x7 box count (clipped to
 *    the picture) against mask_index: one tiled launch that writes the
 *    picture and the mask at scale 0's samples (every other one with
 *    high_res: the CPU's first decimation);
 *  - decmode: a scale's picture, every other sample of the previous
 *    scale's (dec) then the 3x3 separable mode filter (the vertical mode
 *    of the horizontal ones; mode3() is symmetric in its three arguments).
 *    A scale's mask is never written: the CPU's decimations keep the
 *    mask's samples at (i, j) << scale of scale 0's;
 *  - cval_load, cval_pixel: the c-values of every scale in one launch
 *    (cval_block() finds a block's scale and tile). A block's threads load
 *    its 16 x 16 tile plus the half window into the shared tile as values,
 *    with 0xffff where the pixel is masked off, outside the histogram band
 *    or outside the picture (the CPU's histograms count none of them);
 *    after the barrier each thread counts, in its own column of shared
 *    counters, the pixels of its window equal to its value + k, k in
 *    [-num_diffs, num_diffs]: the very counts the CPU's sliding histograms
 *    hold for it (integers, so in any order), then takes the CPU's float
 *    steps per contrast step in its order (the int product made float,
 *    times the float reciprocal, the running maximum).
 * Everything is integer but that last product (-fmad=false on the device
 * keeps it a plain multiply, and nothing else could be contracted).
 */

#ifndef VG_GPU_CAMBI_BLOCK_H
#define VG_GPU_CAMBI_BLOCK_H

#include <stdint.h>

#include "common/features/cambi_params.h"

#ifdef __CUDACC__
#define VG_CAMBI_FN static __device__ __forceinline__
#else
#define VG_CAMBI_FN static inline
#endif

#define VG_CAMBI_SENT 0xffffu
#define VG_CAMBI_NCOUNT (2 * VG_CAMBI_K_MAX_DIFFS + 1)
#define VG_CAMBI_NTHR (VG_CAMBI_TILE * VG_CAMBI_TILE)

/** The c-value kernel's shared memory (46080 bytes). */
typedef struct VgCambiTile {
    uint16_t v[VG_CAMBI_TILE_SIDE * VG_CAMBI_TILE_SIDE];
    uint16_t count[VG_CAMBI_NCOUNT * VG_CAMBI_NTHR]; ///< [k][thread]
} VgCambiTile;

#define VG_CAMBI_PTR(type, a) ((type *)(uintptr_t)(a))

/* the input luma at (i, j) of the working size, to 10 bits */
VG_CAMBI_FN unsigned vg_cambi_to10_at(const VgCambiKernelParams *p, int i,
                                      int j)
{
    const unsigned sy =
        p->iy ? VG_CAMBI_PTR(const uint32_t, p->iy)[i] : (unsigned)i;
    const unsigned sx =
        p->ix ? VG_CAMBI_PTR(const uint32_t, p->ix)[j] : (unsigned)j;
    const uint8_t *row =
        VG_CAMBI_PTR(const uint8_t, p->src) + (int64_t)sy * p->src_pitch;
    const unsigned v = p->in_bpc > 8 ? ((const uint16_t *)row)[sx] : row[sx];

    return (uint16_t)(((v << p->up) + (unsigned)p->rnd) >> p->down);
}

/*
 * The picture steps of a pass in one tiled launch: the work picture (10
 * bits, anti-dithered when asked: the mean of the 2x2 samples below and
 * to the right, those inside), its zero-derivative flags (equal to the
 * right and below; edges count as equal) and the spatial mask (the flags'
 * 7x7 box count, clipped to the picture, against mask_index). The outputs
 * are written at every (1 << dec)-th sample of the work size, the samples
 * scale 0 keeps (dec with high_res): a block of VG_CAMBI_BX x VG_CAMBI_BY
 * threads has that many outputs, and computes into shared memory, a
 * barrier after each step, the samples its outputs read: to 10 bits, the
 * mean, the flags, the flags' sums along rows (the outputs' columns).
 */
#define VG_CAMBI_PREP_FH (((VG_CAMBI_BY - 1) << 1) + 2 * VG_CAMBI_MASK_PAD + 1)
#define VG_CAMBI_PREP_FW (((VG_CAMBI_BX - 1) << 1) + 2 * VG_CAMBI_MASK_PAD + 1)

typedef struct VgCambiPrepTile {
    uint16_t t[(VG_CAMBI_PREP_FH + 2) * (VG_CAMBI_PREP_FW + 2)]; ///< 10 bits
    uint16_t d[(VG_CAMBI_PREP_FH + 1) * (VG_CAMBI_PREP_FW + 1)]; ///< the mean
    uint8_t f[VG_CAMBI_PREP_FH * VG_CAMBI_PREP_FW];              ///< flags
    uint8_t row[VG_CAMBI_PREP_FH * VG_CAMBI_BX];                 ///< row sums
} VgCambiPrepTile;

#define VG_CAMBI_PREP_NTHR (VG_CAMBI_BX * VG_CAMBI_BY)

/* the block's flag rows and columns, and its first work sample (the box's
 * corner) */
VG_CAMBI_FN void vg_cambi_prep_geom(const VgCambiKernelParams *p, int bx,
                                    int by, int *fh, int *fw, int *y0, int *x0)
{
    *fh = ((VG_CAMBI_BY - 1) << p->dec) + 2 * VG_CAMBI_MASK_PAD + 1;
    *fw = ((VG_CAMBI_BX - 1) << p->dec) + 2 * VG_CAMBI_MASK_PAD + 1;
    *y0 = ((by * VG_CAMBI_BY) << p->dec) - VG_CAMBI_MASK_PAD;
    *x0 = ((bx * VG_CAMBI_BX) << p->dec) - VG_CAMBI_MASK_PAD;
}

/* step `step` (0 to 3) of thread tid of block (bx, by); a barrier after
 * each */
VG_CAMBI_FN void vg_cambi_prep_step(VgCambiPrepTile *t,
                                    const VgCambiKernelParams *p, int step,
                                    int tid, int bx, int by)
{
    const int tw = VG_CAMBI_PREP_FW + 2, dw = VG_CAMBI_PREP_FW + 1;
    int fh, fw, y0, x0;

    vg_cambi_prep_geom(p, bx, by, &fh, &fw, &y0, &x0);
    if (step == 0) {
        for (int k = tid; k < (fh + 2) * (fw + 2); k += VG_CAMBI_PREP_NTHR) {
            const int r = k / (fw + 2), c = k % (fw + 2);
            const int y = y0 + r, x = x0 + c;

            t->t[r * tw + c] =
                (uint16_t)(y >= 0 && y < p->h && x >= 0 && x < p->w
                               ? vg_cambi_to10_at(p, y, x)
                               : 0);
        }
    } else if (step == 1) {
        for (int k = tid; k < (fh + 1) * (fw + 1); k += VG_CAMBI_PREP_NTHR) {
            const int r = k / (fw + 1), c = k % (fw + 1);
            const int y = y0 + r, x = x0 + c;
            const uint16_t *q = t->t + r * tw + c;
            unsigned v = 0;

            if (y >= 0 && y < p->h && x >= 0 && x < p->w) {
                const int ry = y + 1 < p->h, cx = x + 1 < p->w;

                v = q[0];
                if (p->dither) {
                    if (cx)
                        v += q[1];
                    if (ry)
                        v += q[tw];
                    if (ry && cx)
                        v += q[tw + 1];
                    v >>= ry + cx;
                }
            }
            t->d[r * dw + c] = (uint16_t)v;
        }
    } else if (step == 2) {
        for (int k = tid; k < fh * fw; k += VG_CAMBI_PREP_NTHR) {
            const int r = k / fw, c = k % fw;
            const int y = y0 + r, x = x0 + c;
            const uint16_t *q = t->d + r * dw + c;

            t->f[r * VG_CAMBI_PREP_FW + c] = y >= 0 && y < p->h && x >= 0 &&
                                             x < p->w &&
                                             (x == p->w - 1 || q[0] == q[1]) &&
                                             (y == p->h - 1 || q[0] == q[dw]);
        }
    } else {
        for (int k = tid; k < fh * VG_CAMBI_BX; k += VG_CAMBI_PREP_NTHR) {
            const int r = k / VG_CAMBI_BX, c = (k % VG_CAMBI_BX) << p->dec;
            const uint8_t *q = t->f + r * VG_CAMBI_PREP_FW + c;
            unsigned n = 0;

            for (int x = 0; x <= 2 * VG_CAMBI_MASK_PAD; x++)
                n += q[x];
            t->row[k] = (uint8_t)n;
        }
    }
}

/* thread (tx, ty) after the last step: its work sample and mask, at the
 * output size ((w, h) + (1 << dec) - 1) >> dec */
VG_CAMBI_FN void vg_cambi_prep_out(const VgCambiPrepTile *t,
                                   const VgCambiKernelParams *p, int tx, int ty,
                                   int bx, int by)
{
    const int i = by * VG_CAMBI_BY + ty, j = bx * VG_CAMBI_BX + tx;
    const int ry = ty << p->dec, cx = tx << p->dec;
    int n = 0;

    if (i >= (p->h + (1 << p->dec) - 1) >> p->dec ||
        j >= (p->w + (1 << p->dec) - 1) >> p->dec)
        return;
    for (int y = 0; y <= 2 * VG_CAMBI_MASK_PAD; y++)
        n += t->row[(ry + y) * VG_CAMBI_BX + tx];
    VG_CAMBI_PTR(uint16_t, p->dst)
    [i * p->pitch + j] =
        t->d[(ry + VG_CAMBI_MASK_PAD) * (VG_CAMBI_PREP_FW + 1) + cx +
             VG_CAMBI_MASK_PAD];
    VG_CAMBI_PTR(uint8_t, p->mdst)[i * p->pitch + j] = n > p->mask_index;
}

VG_CAMBI_FN unsigned vg_cambi_mode3(unsigned a, unsigned b, unsigned c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* the scale's picture before the mode filter: src, or with dec every
 * other sample of it */
VG_CAMBI_FN unsigned vg_cambi_dec_at(const VgCambiKernelParams *p, int i, int j)
{
    return VG_CAMBI_PTR(
        const uint16_t,
        p->src)[(int64_t)(i << p->dec) * p->pitch + (j << p->dec)];
}

/* the horizontal mode of row i at column j, edge columns kept */
VG_CAMBI_FN unsigned vg_cambi_hmode(const VgCambiKernelParams *p, int i, int j)
{
    if (j == 0 || j == p->w - 1)
        return vg_cambi_dec_at(p, i, j);
    return vg_cambi_mode3(vg_cambi_dec_at(p, i, j - 1),
                          vg_cambi_dec_at(p, i, j),
                          vg_cambi_dec_at(p, i, j + 1));
}

/* (i, j) inside the scale's size (w, h): the decimation (with dec) and
 * the 3x3 mode filter, the vertical mode of the horizontal ones */
VG_CAMBI_FN void vg_cambi_decmode_px(const VgCambiKernelParams *p, int i, int j)
{
    unsigned v;

    if (i == 0 || i == p->h - 1)
        v = vg_cambi_dec_at(p, i, j);
    else
        v = vg_cambi_mode3(vg_cambi_hmode(p, i - 1, j), vg_cambi_hmode(p, i, j),
                           vg_cambi_hmode(p, i + 1, j));
    VG_CAMBI_PTR(uint16_t, p->dst)[i * p->pitch + j] = (uint16_t)v;
}

/* block b of the c-value launch: its scale and tile */
VG_CAMBI_FN void vg_cambi_cval_block(const VgCambiKernelParams *p, int b,
                                     VgCambiScale *sc, int *bx, int *by)
{
    *sc = p->scale[0];
    for (int k = 1; k < VG_CAMBI_K_SCALES; k++)
        if (k < p->n_scales && b >= p->scale[k].b0)
            *sc = p->scale[k];
    b -= sc->b0;
    *bx = b % sc->gx;
    *by = b / sc->gx;
}

/* thread tid of block (bx, by): its share of the tile (all threads, then
 * a barrier) */
VG_CAMBI_FN void vg_cambi_cval_load(VgCambiTile *t,
                                    const VgCambiKernelParams *p,
                                    const VgCambiScale *sc, int tid, int bx,
                                    int by)
{
    const uint16_t *img = VG_CAMBI_PTR(const uint16_t, sc->src);
    const uint8_t *msk = VG_CAMBI_PTR(const uint8_t, p->msrc);
    const int pad = p->pad, side = VG_CAMBI_TILE + 2 * pad;
    const int x0 = bx * VG_CAMBI_TILE - pad, y0 = by * VG_CAMBI_TILE - pad;

    for (int k = tid; k < side * side; k += VG_CAMBI_NTHR) {
        const int y = y0 + k / side, x = x0 + k % side;
        unsigned v = VG_CAMBI_SENT;

        if (y >= 0 && y < sc->h && x >= 0 && x < sc->w) {
            const unsigned u = img[(int64_t)y * p->pitch + x];

            /* in_band(): uint16 wrap as the CPU */
            if (msk[((int64_t)y << sc->mshift) * p->pitch +
                    (x << sc->mshift)] &&
                (uint16_t)(u - (unsigned)p->band_base) < (unsigned)p->band_size)
                v = u;
        }
        t->v[(k / side) * VG_CAMBI_TILE_SIDE + k % side] = (uint16_t)v;
    }
}

/* thread (tx, ty) of block (bx, by), after the barrier: its c-value, if
 * inside the picture */
VG_CAMBI_FN void vg_cambi_cval_pixel(VgCambiTile *t,
                                     const VgCambiKernelParams *p,
                                     const VgCambiScale *sc, int tx, int ty,
                                     int bx, int by)
{
    const float *rlut = VG_CAMBI_PTR(const float, p->rlut);
    const int i = by * VG_CAMBI_TILE + ty, j = bx * VG_CAMBI_TILE + tx;
    const int pad = p->pad, nd = p->num_diffs;
    uint16_t *cnt = t->count + ty * VG_CAMBI_TILE + tx;
    unsigned s;
    float c = 0.0f;

    if (i >= sc->h || j >= sc->w)
        return;
    s = t->v[(ty + pad) * VG_CAMBI_TILE_SIDE + tx + pad];
    if (s != VG_CAMBI_SENT) {
        const int value = (int)s + nd;
        const int v = (int)s - p->band_base;
        const unsigned lo = s - (unsigned)nd, span = 2u * (unsigned)nd;
        unsigned p0;

        for (int k = 0; k <= 2 * nd; k++)
            cnt[k * VG_CAMBI_NTHR] = 0;
        for (int dy = 0; dy <= 2 * pad; dy++) {
            const uint16_t *r = t->v + (ty + dy) * VG_CAMBI_TILE_SIDE + tx;

            for (int dx = 0; dx <= 2 * pad; dx++) {
                /* u - lo wraps past span for the sentinel and for values
                 * more than nd away on either side */
                const unsigned k = (unsigned)r[dx] - lo;

                if (k <= span)
                    cnt[k * VG_CAMBI_NTHR]++;
            }
        }
        p0 = cnt[nd * VG_CAMBI_NTHR];
        for (int d = 0; d < nd; d++) {
            unsigned p1, p2, pm;
            float val;

            if (value > p->tvi_for_diff[d] || value + d + 1 <= p->vlt_luma)
                continue;
            p1 = cnt[(nd + d + 1) * VG_CAMBI_NTHR];
            /* below the band: no pixel of the histograms */
            p2 = v - d - 1 >= 0 ? cnt[(nd - d - 1) * VG_CAMBI_NTHR] : 0;
            pm = p1 > p2 ? p1 : p2;
            val =
                (float)(p->diff_weights[d] * (int)p0 * (int)pm) * rlut[pm + p0];
            if (val > c)
                c = val;
        }
    }
    VG_CAMBI_PTR(float, sc->cval)[(int64_t)i * sc->w + j] = c;
}

#endif /* VG_GPU_CAMBI_BLOCK_H */
