/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The SSIM map of float_ssim and float_ms_ssim (libvmaf v3.2.0
 * iqa/ssim_tools.c _iqa_ssim(), iqa/convolve.c _iqa_convolve() in its
 * IQA_CONVOLVE_1D form), and float_ssim's box decimation
 * (iqa/decimate.c, ssim.c), as cpu/float_ssim.c computes them.
 *
 * Exactness. Every output sample of a convolution or a decimation is one
 * thread's own sum, taps in ascending order, each tap a float product
 * added to a double accumulator and the sum rounded to float, exactly the
 * CPU's per-output operations (-fmad=false: nothing is contracted). The
 * per-pixel terms are the same float and double operations as the CPU's
 * (IEEE division and square root, no fast-math). The sums of the map
 * planes are libvmaf's sequential double sums in row-major order: a tree
 * reduction would round differently, so they are gpu/seqsum.cu's, which
 * give the sequential sum's bits (gpu/seqsum_step.h).
 *
 * Decimation in place (ssim.c decimates its buffers in place): on the
 * CPU no sample is overwritten before its last read (checked for every
 * size and factor the feature accepts up to 10x the minimum), so the
 * out-of-place decimation here reads the same inputs.
 */

#include "common/features/float_ssim_params.h"
#include "gpu/seqsum_step.h"

__constant__ float vg_ssim_gauss[VG_SSIM_WIN] = VG_SSIM_GAUSS_TAPS;

/*
 * Horizontal pass of the five convolutions (ref, cmp, ref^2, cmp^2,
 * ref cmp; the products rounded to float first, as the CPU's maps).
 * Thread mapping: one thread per output (x, y), x < w - 10, y < h; a
 * 32 x 8 block covers 32 x 8 outputs. No shared memory.
 */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX * VG_SSIM_BY)
vg_ssim_hconv(const VgSsimMapParams p)
{
    const int dw = p.w - (VG_SSIM_WIN - 1);
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= dw || y >= p.h)
        return;
    const float *r = (const float *)((const char *)p.ref + (int64_t)y * p.pitch) + x;
    const float *c = (const float *)((const char *)p.cmp + (int64_t)y * p.pitch) + x;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;

#pragma unroll
    for (int u = 0; u < VG_SSIM_WIN; u++) {
        const float g = vg_ssim_gauss[u];
        const float rv = r[u], cv = c[u];
        const float rr = rv * rv, cc = cv * cv, rc = rv * cv;

        a0 += (double)(rv * g);
        a1 += (double)(cv * g);
        a2 += (double)(rr * g);
        a3 += (double)(cc * g);
        a4 += (double)(rc * g);
    }
    const size_t plane = (size_t)dw * p.h;
    float *o = (float *)p.hbuf + (size_t)y * dw + x;
    o[0] = (float)a0;
    o[plane] = (float)a1;
    o[2 * plane] = (float)a2;
    o[3 * plane] = (float)a3;
    o[4 * plane] = (float)a4;
}

/*
 * A warp's terms of one map plane into the sum and abs of the chunk
 * records of its sum (gpu/seqsum_step.h): the warp's 32 consecutive
 * terms of a row, from index i0, lie in one chunk or two.
 */
__device__ __forceinline__ void vg_ssim_chunk_add(uint64_t chunks, size_t i0,
                                                  size_t i, int in, double v)
{
    const size_t k0 = i0 / VG_SEQSUM_CHUNK;
    const int second = in && i / VG_SEQSUM_CHUNK != k0;
    double a0 = in && !second ? v : 0.0, a1 = second ? v : 0.0;
    double b0 = fabs(a0), b1 = fabs(a1);
    const int two = __any_sync(0xffffffffu, second);

    for (int d = 16; d; d >>= 1) {
        a0 += __shfl_xor_sync(0xffffffffu, a0, d);
        b0 += __shfl_xor_sync(0xffffffffu, b0, d);
        if (two) {
            a1 += __shfl_xor_sync(0xffffffffu, a1, d);
            b1 += __shfl_xor_sync(0xffffffffu, b1, d);
        }
    }
    if (threadIdx.x == 0) {
        VgSeqsumChunk *c = (VgSeqsumChunk *)chunks + k0;

        atomicAdd(&c->sum, a0);
        atomicAdd(&c->abs, b0);
        if (two) {
            atomicAdd(&c[1].sum, a1);
            atomicAdd(&c[1].abs, b1);
        }
    }
}

/*
 * Vertical pass and the per-pixel terms of _iqa_ssim()'s default branch.
 * Thread mapping: one thread per valid pixel (x, y) of the
 * (w - 10) x (h - 10) map; 32 x 8 blocks, a warp a row of 32. Writes the
 * map planes in the order of the sums (VG_SSIM_SUM_*): l c s (with_lcs),
 * l, c, s, and adds each plane's terms into its sum's chunk records
 * (p.chunks), so that the sums need no pass of their own for them.
 */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX * VG_SSIM_BY)
vg_ssim_vmap(const VgSsimMapParams p)
{
    const int dw = p.w - (VG_SSIM_WIN - 1), dh = p.h - (VG_SSIM_WIN - 1);
    const int x0 = blockIdx.x * VG_SSIM_BX;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;
    /* lanes past the row's end stay for the warp's sums */
    const int in = x0 + (int)threadIdx.x < dw;
    const int x = in ? x0 + threadIdx.x : dw - 1;

    if (y >= dh)
        return;     /* the whole warp: one row */
    const size_t plane = (size_t)dw * p.h;
    const float *hb = (const float *)p.hbuf + (size_t)y * dw + x;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;

#pragma unroll
    for (int v = 0; v < VG_SSIM_WIN; v++) {
        const float g = vg_ssim_gauss[v];
        const float *t = hb + (size_t)v * dw;

        a0 += (double)(t[0] * g);
        a1 += (double)(t[plane] * g);
        a2 += (double)(t[2 * plane] * g);
        a3 += (double)(t[3 * plane] * g);
        a4 += (double)(t[4 * plane] * g);
    }

    const float c1 = (VG_SSIM_K1 * VG_SSIM_L) * (VG_SSIM_K1 * VG_SSIM_L);
    const float c2 = (VG_SSIM_K2 * VG_SSIM_L) * (VG_SSIM_K2 * VG_SSIM_L);
    const float c3 = c2 / 2.0f;
    const float mr = (float)a0, mc = (float)a1;
    float vr = (float)a2 - mr * mr;
    float vc = (float)a3 - mc * mc;
    vr = 0.0 > vr ? 0.0f : vr;
    vc = 0.0 > vc ? 0.0f : vc;
    const float cov = (float)a4 - mr * mc;
    const float sr = (float)sqrt((double)(vr * vc));
    const double l = (2.0 * mr * mc + c1) / (mr * mr + mc * mc + c1);
    const double c = (2.0 * sr + c2) / (vr + vc + c2);
    const float cov_c = (cov < 0.0f && sr <= 0.0f) ? 0.0f : cov;
    const double s = (cov_c + c3) / (sr + c3);

    const size_t n = (size_t)dw * dh, i = (size_t)y * dw + x;
    const size_t i0 = (size_t)y * dw + x0;
    double *m = (double *)p.map + i;
    /* constant indices: a parameter indexed at run time goes to the stack */
    const int lcs = p.with_lcs;

    if (lcs) {
        const double v = l * c * s;

        if (in)
            m[0] = v;
        vg_ssim_chunk_add(p.chunks[0], i0, i, in, v);
        m += n;
    }
    if (in) {
        m[0] = l;
        m[n] = c;
        m[2 * n] = s;
    }
    vg_ssim_chunk_add(lcs ? p.chunks[1] : p.chunks[0], i0, i, in, l);
    vg_ssim_chunk_add(lcs ? p.chunks[2] : p.chunks[1], i0, i, in, c);
    vg_ssim_chunk_add(lcs ? p.chunks[3] : p.chunks[2], i0, i, in, s);
}

/*
 * float_ssim's decimation (iqa/decimate.c with ssim.c's box kernel):
 * output (x, y) of image z (0 ref, 1 dis) centred on (x f, y f), taps
 * v outer, u inner over -f/2 .. f/2 - (f even), each coordinate mirrored
 * once (KBND_SYMMETRIC; in range for the sizes the feature accepts), every
 * tap 1.0f / f^2. Thread mapping: one thread per output, 32 x 8 blocks,
 * blockIdx.z the image.
 */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX * VG_SSIM_BY)
vg_ssim_decimate_box(const VgSsimDecimateParams p)
{
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= p.sw || y >= p.sh)
        return;
    const char *src = (const char *)(blockIdx.z ? p.src[1] : p.src[0]);
    float *dst = (float *)(blockIdx.z ? p.dst[1] : p.dst[0]);
    const int f = p.factor, half = f / 2, even = !(f & 1);
    double sum = 0.0;

    for (int v = -half; v <= half - even; v++) {
        const int yy = VG_SSIM_MIRROR(y * f + v, p.h);
        const float *row = (const float *)(src + (int64_t)yy * p.src_pitch);
        for (int u = -half; u <= half - even; u++) {
            const int xx = VG_SSIM_MIRROR(x * f + u, p.w);
            sum += (double)(row[xx] * p.tap);
        }
    }
    dst[(size_t)y * p.sw + x] = (float)sum;
}
