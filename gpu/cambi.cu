/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * CAMBI's picture work (libvmaf v3.2.0 src/feature/cambi.c, as
 * cpu/cambi.c computes it), one kernel per step, each writing a new plane
 * (the CPU's in-place steps only ever read samples they have not yet
 * written, so out of place gives the same planes):
 *  - vg_cambi_to10: the luma to 10 bits, shifts as cambi_preprocessing();
 *    a resize takes the nearest sample from tables the host builds with
 *    the CPU's float steps (ix, iy);
 *  - vg_cambi_dither: the 2x2 anti-dithering mean below 10 encoding bits;
 *  - vg_cambi_flat, vg_cambi_mask: the zero-derivative flags, then their
 *    7x7 box count (clipped to the picture) against mask_index;
 *  - vg_cambi_decimate: every other sample of the picture and the mask;
 *  - vg_cambi_mode: the 3x3 separable mode filter (the vertical mode of
 *    the horizontal ones; mode3() is symmetric in its three arguments);
 *  - vg_cambi_cvalues: the c-values. Each block loads a 16 x 16 tile plus
 *    the half window into shared memory as values, with 0xffff where the
 *    pixel is masked off, outside the histogram band or outside the
 *    picture (the CPU's histograms count neither). Each thread counts, in
 *    its own column of shared counters, the pixels of its window equal to
 *    its value + k, k in [-num_diffs, num_diffs]: the very counts the
 *    CPU's sliding histograms hold for it (integers, so any order), then
 *    takes the CPU's float steps per contrast step in its order (int
 *    product made float, times the float reciprocal, the running max).
 * Everything here is integer except that last product (-fmad=false keeps
 * it a plain multiply). The top-k pooling (quick_select() and the double
 * sum in the order it leaves) and the scale weighting run on the host,
 * from the c-values copied back (common/features/cambi.c).
 */

#include "common/features/cambi_params.h"

#define CAMBI_SENT 0xffffu
#define CAMBI_NCOUNT (2 * VG_CAMBI_K_MAX_DIFFS + 1)
#define CAMBI_NTHR (VG_CAMBI_TILE * VG_CAMBI_TILE)

extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_to10(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    unsigned sy, sx, v;
    const uint8_t *row;

    if (i >= p.h || j >= p.w)
        return;
    sy = p.iy ? ((const uint32_t *)p.iy)[i] : (unsigned)i;
    sx = p.ix ? ((const uint32_t *)p.ix)[j] : (unsigned)j;
    row = (const uint8_t *)p.src + (int64_t)sy * p.src_pitch;
    v = p.in_bpc > 8 ? ((const uint16_t *)row)[sx] : row[sx];
    ((uint16_t *)p.dst)[i * p.pitch + j] =
        (uint16_t)(((v << p.up) + (unsigned)p.rnd) >> p.down);
}

extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_dither(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    const uint16_t *r, *b;
    unsigned v;

    if (i >= p.h || j >= p.w)
        return;
    r = (const uint16_t *)p.src + i * p.src_pitch;
    b = r + p.src_pitch;
    if (i + 1 < p.h)
        v = j + 1 < p.w ? (r[j] + r[j + 1] + b[j] + b[j + 1]) >> 2 :
                          (r[j] + b[j]) >> 1;
    else
        v = j + 1 < p.w ? (r[j] + r[j + 1]) >> 1 : r[j];
    ((uint16_t *)p.dst)[i * p.pitch + j] = (uint16_t)v;
}

/* zero derivative to the right and below (edges count as equal) */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_flat(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    const uint16_t *r;

    if (i >= p.h || j >= p.w)
        return;
    r = (const uint16_t *)p.src + i * p.src_pitch;
    ((uint8_t *)p.mdst)[i * p.pitch + j] =
        (j == p.w - 1 || r[j] == r[j + 1]) &&
        (i == p.h - 1 || r[j] == r[j + p.src_pitch]);
}

/* flags (msrc) counted over the 7x7 box clipped to the picture */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_mask(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    const uint8_t *z = (const uint8_t *)p.msrc;
    int n = 0;

    if (i >= p.h || j >= p.w)
        return;
    for (int y = i - 3; y <= i + 3; y++) {
        if (y < 0 || y >= p.h)
            continue;
        for (int x = j - 3; x <= j + 3; x++)
            if (x >= 0 && x < p.w)
                n += z[y * p.pitch + x];
    }
    ((uint8_t *)p.mdst)[i * p.pitch + j] = n > p.mask_index;
}

/* (w, h) is the decimated size */
extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_decimate(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    const int64_t s = 2 * i * p.pitch + 2 * j, d = i * p.pitch + j;

    if (i >= p.h || j >= p.w)
        return;
    ((uint16_t *)p.dst)[d] = ((const uint16_t *)p.src)[s];
    ((uint8_t *)p.mdst)[d] = ((const uint8_t *)p.msrc)[s];
}

__device__ __forceinline__ unsigned vg_cambi_mode3(unsigned a, unsigned b,
                                                   unsigned c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/* the horizontal mode of row r at column j, edge columns kept */
__device__ __forceinline__ unsigned vg_cambi_hmode(const uint16_t *r, int j,
                                                   int w)
{
    if (j == 0 || j == w - 1)
        return r[j];
    return vg_cambi_mode3(r[j - 1], r[j], r[j + 1]);
}

extern "C" __global__ void __launch_bounds__(VG_CAMBI_BX * VG_CAMBI_BY)
vg_cambi_mode(const VgCambiKernelParams p)
{
    const int j = blockIdx.x * VG_CAMBI_BX + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_BY + threadIdx.y;
    const uint16_t *r;
    unsigned v;

    if (i >= p.h || j >= p.w)
        return;
    r = (const uint16_t *)p.src + i * p.src_pitch;
    if (i == 0 || i == p.h - 1)
        v = r[j];
    else
        v = vg_cambi_mode3(vg_cambi_hmode(r - p.src_pitch, j, p.w),
                           vg_cambi_hmode(r, j, p.w),
                           vg_cambi_hmode(r + p.src_pitch, j, p.w));
    ((uint16_t *)p.dst)[i * p.pitch + j] = (uint16_t)v;
}

extern "C" __global__ void __launch_bounds__(CAMBI_NTHR)
vg_cambi_cvalues(const VgCambiKernelParams p)
{
    __shared__ uint16_t tile[VG_CAMBI_TILE_SIDE * VG_CAMBI_TILE_SIDE];
    __shared__ uint16_t count[CAMBI_NCOUNT * CAMBI_NTHR];
    const uint16_t *img = (const uint16_t *)p.src;
    const uint8_t *msk = (const uint8_t *)p.msrc;
    const float *rlut = (const float *)p.rlut;
    const int pad = p.pad, side = VG_CAMBI_TILE + 2 * pad;
    const int x0 = blockIdx.x * VG_CAMBI_TILE - pad;
    const int y0 = blockIdx.y * VG_CAMBI_TILE - pad;
    const int tid = threadIdx.y * VG_CAMBI_TILE + threadIdx.x;
    const int i = blockIdx.y * VG_CAMBI_TILE + threadIdx.y;
    const int j = blockIdx.x * VG_CAMBI_TILE + threadIdx.x;
    const int nd = p.num_diffs;
    uint16_t *cnt = count + tid;
    unsigned s;
    float c = 0.0f;

    for (int k = tid; k < side * side; k += CAMBI_NTHR) {
        const int y = y0 + k / side, x = x0 + k % side;
        unsigned v = CAMBI_SENT;

        if (y >= 0 && y < p.h && x >= 0 && x < p.w) {
            const int64_t o = y * p.pitch + x;
            const unsigned u = img[o];

            /* in_band(): uint16 wrap as the CPU */
            if (msk[o] && (uint16_t)(u - (unsigned)p.band_base) <
                          (unsigned)p.band_size)
                v = u;
        }
        tile[(k / side) * VG_CAMBI_TILE_SIDE + k % side] = (uint16_t)v;
    }
    __syncthreads();

    if (i >= p.h || j >= p.w)
        return;
    s = tile[(threadIdx.y + pad) * VG_CAMBI_TILE_SIDE + threadIdx.x + pad];
    if (s != CAMBI_SENT) {
        const int value = (int)s + nd;
        const int v = (int)s - p.band_base;
        const unsigned lo = s - (unsigned)nd, span = 2u * (unsigned)nd;
        unsigned p0;

        for (int k = 0; k <= 2 * nd; k++)
            cnt[k * CAMBI_NTHR] = 0;
        for (int dy = 0; dy <= 2 * pad; dy++) {
            const uint16_t *t = tile + (threadIdx.y + dy) * VG_CAMBI_TILE_SIDE +
                                threadIdx.x;

            for (int dx = 0; dx <= 2 * pad; dx++) {
                /* u - lo wraps past span for the sentinel and for values
                 * more than nd away on either side */
                const unsigned k = (unsigned)t[dx] - lo;

                if (k <= span)
                    cnt[k * CAMBI_NTHR]++;
            }
        }
        p0 = cnt[nd * CAMBI_NTHR];
        for (int d = 0; d < nd; d++) {
            unsigned p1, p2, pm;
            float val;

            if (value > p.tvi_for_diff[d] || value + d + 1 <= p.vlt_luma)
                continue;
            p1 = cnt[(nd + d + 1) * CAMBI_NTHR];
            /* below the band: no pixel of the histograms */
            p2 = v - d - 1 >= 0 ? cnt[(nd - d - 1) * CAMBI_NTHR] : 0;
            pm = p1 > p2 ? p1 : p2;
            val = (float)(p.diff_weights[d] * (int)p0 * (int)pm) *
                  rlut[pm + p0];
            if (val > c)
                c = val;
        }
    }
    ((float *)p.cval)[(int64_t)i * p.w + j] = c;
}
