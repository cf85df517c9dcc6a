/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Float VIF kernels (libvmaf v3.2.0 src/feature/vif.c compute_vif(),
 * vif_tools.c), equal bit for bit to cpu/float_vif.c.
 *
 * Per frame: per scale s >= 1 vg_fvif_dec* (scale s's filter, every
 * second row and column kept); per computed scale vg_fvif_map* (the five
 * filtered quantities and the per-sample statistic); then vg_fvif_rows
 * (every row's sums, all scales in one launch, its last block the
 * totals). Scale 0
 * and scale 1's decimation read the float luma as it is and add libvmaf's
 * offset -128 (picture_copy()) on reading; with vif_prescale the offset
 * is added by vg_fvif_load, and vg_fvif_prescale resizes.
 *
 * Thread mapping: vg_fvif_load and vg_fvif_prescale one output sample per
 * thread, 32 x 8 blocks, blockIdx.z the picture (ref, dis); the filters
 * tiles of VG_FVIF_TILE_ROWS rows (below); vg_fvif_rows a strip of rows
 * per block, its last block the totals (gpu/core/rowsum.cuh, which keeps each
 * addition chain whole). No atomics but the counter that finds the last
 * block.
 *
 * Order and exactness (built with -fmad=false; IEEE division, no flush to
 * zero), the same as the CPU code:
 *  - every filter output is a float accumulator starting at 0 that adds
 *    f[k] * x (or f[k] * (x * x), f[k] * (x * y)) for taps k ascending
 *    over mirrored indices (vg_vif_mirror), vertical pass first, its
 *    result stored as float, then the horizontal pass over those;
 *  - the prescale sample and the statistic are the shared functions of
 *    common/features/float_vif_params.h, with tables and constants built on
 *    the host (vg_float_vif_setup());
 *  - vg_fvif_rows adds a row's num (and den) left to right into a float
 *    from 0, its last block the rows of each scale top to bottom into a
 *    float from 0: vif_statistic_s()'s order, the additions of
 *    vg_float_vif_sum_rows(). No reduction is reordered.
 */

#include "common/features/float_vif_params.h"
#include "gpu/core/rowsum.cuh"

static_assert(VG_FVIF_ROWS_THREADS == VG_ROWSUM_THREADS, "vg_fvif_rows");
static_assert(VG_FVIF_TILE_THREADS == 256 && VG_FVIF_TILE_ROWS == 4,
              "the horizontal pass of vg_fvif_map's pairs of rows and columns");

#define VG_FVIF_KERNEL                                                         \
    extern "C" __global__ void __launch_bounds__(VG_FVIF_BX *VG_FVIF_BY)

/* input luma as float (offset 0) plus libvmaf's offset, packed w floats */
VG_FVIF_KERNEL vg_fvif_load(const VgFvifKernelParams p)
{
    const int x = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int y = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;

    if (x >= p.w || y >= p.h)
        return;
    const float *src = (const float *)((const char *)(z ? p.src[1] : p.src[0]) +
                                       (int64_t)y * p.src_pitch);
    float *dst = (float *)(z ? p.dst[1] : p.dst[0]);
    dst[(int64_t)y * p.w + x] = src[x] + -128.0f;
}

VG_FVIF_KERNEL vg_fvif_prescale(const VgFvifKernelParams p)
{
    const int x = blockIdx.x * VG_FVIF_BX + threadIdx.x;
    const int y = blockIdx.y * VG_FVIF_BY + threadIdx.y;
    const int z = blockIdx.z;

    if (x >= p.w || y >= p.h)
        return;
    const float *src = (const float *)(z ? p.src[1] : p.src[0]);
    float *dst = (float *)(z ? p.dst[1] : p.dst[0]);
    const int64_t tx = (int64_t)x * VG_VIF_PRESCALE_TAPS;
    const int64_t ty = (int64_t)y * VG_VIF_PRESCALE_TAPS;
    dst[(int64_t)y * p.w + x] = vg_fvif_prescale_px(
        p.method, src, p.src_w, (const int32_t *)p.xi + tx,
        (const float *)p.xw + tx, (const int32_t *)p.yi + ty,
        (const float *)p.yw + ty);
}

/*
 * Tiles of the 2-D kernels below: a block of VG_FVIF_TILE_THREADS threads
 * takes VG_FVIF_TILE_ROWS output rows and as many columns as its threads
 * can filter: first the vertical pass, thread t one input column, the
 * input rows read once and each added to the accumulators of every
 * output row it is a tap of (so that each accumulator still takes its
 * taps in ascending order), into shared memory; then the horizontal pass
 * over those. TAPS is the filter length when it is one of libvmaf's
 * default filters (17, 9, 5, 3), so that the loops unroll and the filter
 * taps are operands; 0 reads it from the parameters. Row indices past the
 * picture (rows of the last strip that are not output) are clamped: they
 * only feed accumulators that are thrown away.
 */
#define FT_T VG_FVIF_TILE_THREADS
#define FT_R VG_FVIF_TILE_ROWS

__device__ __forceinline__ int fvif_row(int i, int n)
{
    return min(max(vg_vif_mirror(i, n), 0), n - 1);
}

/*
 * Decimation of scale s: dst[z][i][j] = (F * src[z])[2i][2j] for the
 * reference (z = 0) and the distorted picture, the CPU's vertical pass
 * over rows 2i, then the horizontal pass at the even columns. Grid:
 * (ceil(w / tile), ceil(h / FT_R)), tile = (FT_T - taps) / 2 + 1 output
 * columns.
 */
template <int TAPS>
__device__ __forceinline__ void fvif_dec(const VgFvifKernelParams &p)
{
    __shared__ float vs[2][FT_R][FT_T];
    const int taps = TAPS ? TAPS : p.taps, r = taps / 2;
    const int tw = (FT_T - taps) / 2 + 1;
    const int t = threadIdx.x;
    const int x0 = blockIdx.x * tw, i0 = blockIdx.y * FT_R;
    const int n = min(tw, p.w - x0);
    const int64_t pitch = p.src_pitch / (int64_t)sizeof(float);

    if (t < 2 * (n - 1) + taps) {
        const int64_t col = vg_vif_mirror(2 * x0 - r + t, p.src_w);
        float acc[2][FT_R];

#pragma unroll
        for (int q = 0; q < FT_R; q++)
            acc[0][q] = acc[1][q] = 0.0f;
#pragma unroll
        for (int u = 0; u < 2 * (FT_R - 1) + taps; u++) {
            const int64_t o = fvif_row(2 * i0 - r + u, p.src_h) * pitch + col;
            float x = ((const float *)p.src[0])[o];
            float y = ((const float *)p.src[1])[o];

            if (p.load_off) {
                x = x + -128.0f;
                y = y + -128.0f;
            }
#pragma unroll
            for (int q = 0; q < FT_R; q++) {
                const int k = u - 2 * q;
                if (k >= 0 && k < taps) {
                    acc[0][q] += p.filter[k] * x;
                    acc[1][q] += p.filter[k] * y;
                }
            }
        }
#pragma unroll
        for (int q = 0; q < FT_R; q++) {
            vs[0][q][t] = acc[0][q];
            vs[1][q][t] = acc[1][q];
        }
    }
    __syncthreads();
    for (int e = t; e < FT_R * tw; e += FT_T) {
        const int q = e / tw, j = e % tw;

        if (j >= n || i0 + q >= p.h)
            continue;
#pragma unroll
        for (int z = 0; z < 2; z++) {
            float acc = 0.0f;

#pragma unroll
            for (int k = 0; k < taps; k++)
                acc += p.filter[k] * vs[z][q][2 * j + k];
            ((float *)p.dst[z])[(int64_t)(i0 + q) * p.w + x0 + j] = acc;
        }
    }
}

/*
 * One scale's statistic map: the five filtered quantities of every
 * sample (vertical pass, then horizontal), vg_fvif_statistic(), and its
 * num and den into the scale's planes at p.num, p.den (w * h each) for
 * vg_fvif_rows. Grid: (ceil(w / tile), ceil(h / FT_R)), tile = FT_T - 2r
 * columns. In the horizontal pass thread t takes rows 2 (t / 128) and
 * the next, columns 2 (t % 128) and the next: the two columns share their
 * reads (pairs of floats) of the vertical results.
 */
template <int TAPS>
__device__ __forceinline__ void fvif_map(const VgFvifKernelParams &p)
{
    __shared__ __align__(16) float vs[5][FT_R][FT_T];
    const int taps = TAPS ? TAPS : p.taps, r = taps / 2;
    const int tw = FT_T - 2 * r;
    const int t = threadIdx.x;
    const int x0 = blockIdx.x * tw, i0 = blockIdx.y * FT_R;
    const int n = min(tw, p.w - x0);
    const int64_t pitch = p.src_pitch / (int64_t)sizeof(float);

    if (t < n + 2 * r) {
        const int64_t col = vg_vif_mirror(x0 - r + t, p.w);
        float acc[FT_R][5];

#pragma unroll
        for (int q = 0; q < FT_R; q++)
#pragma unroll
            for (int c = 0; c < 5; c++)
                acc[q][c] = 0.0f;
#pragma unroll
        for (int u = 0; u < FT_R - 1 + taps; u++) {
            const int64_t o = fvif_row(i0 - r + u, p.h) * pitch + col;
            float x = ((const float *)p.src[0])[o];
            float y = ((const float *)p.src[1])[o];

            if (p.load_off) {
                x = x + -128.0f;
                y = y + -128.0f;
            }
            const float xx = x * x, yy = y * y, xy = x * y;
#pragma unroll
            for (int q = 0; q < FT_R; q++) {
                const int k = u - q;
                if (k >= 0 && k < taps) {
                    const float fk = p.filter[k];
                    acc[q][0] += fk * x;
                    acc[q][1] += fk * y;
                    acc[q][2] += fk * xx;
                    acc[q][3] += fk * yy;
                    acc[q][4] += fk * xy;
                }
            }
        }
#pragma unroll
        for (int q = 0; q < FT_R; q++)
#pragma unroll
            for (int c = 0; c < 5; c++)
                vs[c][q][t] = acc[q][c];
    }
    __syncthreads();

    const int j = 2 * (t % (FT_T / 2));
    const int q0 = (t / (FT_T / 2)) * (FT_R / 2);
    if (j >= n)
        return;
    for (int q = q0; q < q0 + FT_R / 2 && i0 + q < p.h; q++) {
        const int64_t o = p.nd_off + (int64_t)(i0 + q) * p.w + x0 + j;
        float m[2][5];

#pragma unroll
        for (int c = 0; c < 5; c++) {
            const float *row = &vs[c][q][j];
            float a0 = 0.0f, a1 = 0.0f;

            if constexpr (TAPS > 0) {
                float v[TAPS + 1];
#pragma unroll
                for (int k = 0; k < TAPS + 1; k += 2) {
                    const float2 w = *(const float2 *)&row[k];
                    v[k] = w.x;
                    v[k + 1] = w.y;
                }
#pragma unroll
                for (int k = 0; k < TAPS; k++) {
                    a0 += p.filter[k] * v[k];
                    a1 += p.filter[k] * v[k + 1];
                }
            } else {
                for (int k = 0; k < taps; k++) {
                    a0 += p.filter[k] * row[k];
                    a1 += p.filter[k] * row[k + 1];
                }
            }
            m[0][c] = a0;
            m[1][c] = a1;
        }
        for (int e = 0; e < 2 && j + e < n; e++)
            vg_fvif_statistic(m[e][0], m[e][1], m[e][2], m[e][3], m[e][4],
                              p.egl, p.sigma_nsq, p.sigma_max_inv,
                              (float *)p.num + o + e, (float *)p.den + o + e);
    }
}

#define FVIF_TILE_ENTRY(name, fn, taps)                                        \
    extern "C" __global__ void __launch_bounds__(FT_T)                         \
        name(const VgFvifKernelParams p)                                       \
    {                                                                          \
        fn<taps>(p);                                                           \
    }

FVIF_TILE_ENTRY(vg_fvif_dec, fvif_dec, 0)
FVIF_TILE_ENTRY(vg_fvif_dec9, fvif_dec, 9)
FVIF_TILE_ENTRY(vg_fvif_dec5, fvif_dec, 5)
FVIF_TILE_ENTRY(vg_fvif_dec3, fvif_dec, 3)
FVIF_TILE_ENTRY(vg_fvif_map, fvif_map, 0)
FVIF_TILE_ENTRY(vg_fvif_map17, fvif_map, 17)
FVIF_TILE_ENTRY(vg_fvif_map9, fvif_map, 9)
FVIF_TILE_ENTRY(vg_fvif_map5, fvif_map, 5)
FVIF_TILE_ENTRY(vg_fvif_map3, fvif_map, 3)

/*
 * The row sums of every computed scale's num and den planes, each row
 * left to right into a float from 0 (gpu/core/rowsum.cuh, a strip of
 * VG_FVIF_ROWS_STRIP rows per block; scale sc has the blocks
 * [strip_off[sc], strip_off[sc + 1])).
 */
extern "C" __global__ void __launch_bounds__(VG_ROWSUM_THREADS)
    vg_fvif_rows(const VgFvifKernelParams p)
{
    __shared__ VgRowsumStrip<2, VG_FVIF_ROWS_STRIP> sm;
    const int b = blockIdx.x;
    int sc = p.first;

    while (sc < 3 && b >= p.strip_off[sc + 1])
        sc++;
    const int row0 = (b - p.strip_off[sc]) * VG_FVIF_ROWS_STRIP;
    const int w = p.sc_w[sc], h = p.sc_h[sc], t = threadIdx.x;
    const float *num = (const float *)p.num + p.sc_nd[sc];
    const float *den = (const float *)p.den + p.sc_nd[sc];
    float acc[2] = { 0.0f, 0.0f };

    vg_rowsum_strip<2, 2, VG_FVIF_ROWS_STRIP>(
        &sm, row0, h, w,
        [&](int i, int j, float *v) {
            const int64_t o = (int64_t)i * w + j;
            v[0] = num[o];
            v[1] = den[o];
        },
        [](float *s, const float *v) {
            s[0] += v[0];
            s[1] += v[1];
        },
        acc);
    if (t < VG_FVIF_ROWS_STRIP && row0 + t < h) {
        ((float *)p.rows_num)[p.sc_off[sc] + row0 + t] = acc[0];
        ((float *)p.rows_den)[p.sc_off[sc] + row0 + t] = acc[1];
    }
    if (!vg_rowsum_last((unsigned *)p.counter))
        return;

    /* the last block: each scale's rows top to bottom
     * (vg_float_vif_sum_rows()), sequence 2 * scale + k the num (k = 0)
     * or den (k = 1) of that scale */
    __shared__ VgRowsumSeq<8> sm_tot;
    const float *rn = (const float *)p.rows_num,
                *rd = (const float *)p.rows_den;
    float tot = 0.0f;

    vg_rowsum_block<8>(
        &sm_tot, [&](int q) { return q / 2 >= p.first ? p.sc_h[q / 2] : 0; },
        [&](int q, int i) {
            return __ldcg(&(q & 1 ? rd : rn)[p.sc_off[q / 2] + i]);
        },
        [](float a, float x) { return a + x; }, &tot);
    if (t < 8)
        ((float *)p.res)[t] = tot;
}
