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
 * squares' products (ref^2, cmp^2) are added through gpu/core/f2d.h, which
 * gives the same sums with integer operations in place of the conversion
 * instruction, whose pipe bounds these kernels. The
 * per-pixel terms are the same float and double operations as the CPU's
 * (IEEE division and square root, no fast-math). The sums of the map
 * planes are libvmaf's sequential double sums in row-major order: a tree
 * reduction would round differently, so they are gpu/core/seqsum.cu's, which
 * give the sequential sum's bits (gpu/core/seqsum_step.h).
 *
 * In a ladder, rendition 0's vg_ssim_vmap stores each map pixel's
 * reference terms (its mean and mean of squares as floats) in the stage
 * (p.rterm); the _rd kernels of the other renditions make only the three
 * planes with the distorted picture and read those terms: the same floats.
 *
 * Decimation in place (ssim.c decimates its buffers in place): on the
 * CPU no sample is overwritten before its last read (checked for every
 * size and factor the feature accepts up to 10x the minimum), so the
 * out-of-place decimation here reads the same inputs.
 */

#include "common/features/float_ssim_params.h"
#include "gpu/core/f2d.h"
#include "gpu/core/seqsum_step.h"

__constant__ float vg_ssim_gauss[VG_SSIM_WIN] = VG_SSIM_GAUSS_TAPS;

/* the squares' products keep their sign bit clear (gpu/core/f2d.h) only with
 * positive taps */
namespace
{
constexpr float vg_ssim_gauss_host[VG_SSIM_WIN] = VG_SSIM_GAUSS_TAPS;

constexpr bool vg_ssim_gauss_positive()
{
    for (int u = 0; u < VG_SSIM_WIN; u++)
        if (!(vg_ssim_gauss_host[u] > 0.0f))
            return false;
    return true;
}
static_assert(vg_ssim_gauss_positive(), "a Gaussian tap is not positive");
} // namespace

/*
 * Horizontal pass of the five convolutions (ref, cmp, ref^2, cmp^2,
 * ref cmp; the products rounded to float first, as the CPU's maps).
 * Thread mapping: one thread per output (x, y), x < w - 10, y < h; a
 * 32 x 8 block covers 32 x 8 outputs. No shared memory. The scratch's
 * layout (VG_SSIM_HBUF_AT): a warp's stores here and loads in
 * vg_ssim_vmap are whole lines.
 */
template <bool RD>
__device__ __forceinline__ void vg_ssim_hconv_run(const VgSsimMapParams &p)
{
    const int dw = p.w - (VG_SSIM_WIN - 1);
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= dw || y >= p.h)
        return;
    const float *r =
        (const float *)((const char *)p.ref + (int64_t)y * p.pitch) + x;
    const float *c =
        (const float *)((const char *)p.cmp + (int64_t)y * p.pitch) + x;
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;

#pragma unroll
    for (int u = 0; u < VG_SSIM_WIN; u++) {
        const float g = vg_ssim_gauss[u];
        const float rv = r[u], cv = c[u];
        const float rr = rv * rv, cc = cv * cv, rc = rv * cv;

        if (!RD) {
            a0 += (double)(rv * g);
            /* the squares' products have their sign bit clear:
             * gpu/core/f2d.h */
            a2 = vg_f2d_add_pos(a2, rr * g);
        }
        a1 += (double)(cv * g);
        a3 = vg_f2d_add_pos(a3, cc * g);
        a4 += (double)(rc * g);
    }
    float *o = (float *)p.hbuf + VG_SSIM_HBUF_AT(VG_SSIM_HBUF_PITCH(p.w), x, y);

    if (!RD) {
        o[0] = (float)a0;
        o[2 * VG_SSIM_HBUF_PLANE] = (float)a2;
    }
    o[VG_SSIM_HBUF_PLANE] = (float)a1;
    o[3 * VG_SSIM_HBUF_PLANE] = (float)a3;
    o[4 * VG_SSIM_HBUF_PLANE] = (float)a4;
}

extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY)
    vg_ssim_hconv(const VgSsimMapParams p)
{
    vg_ssim_hconv_run<false>(p);
}

/* a ladder's renditions > 0: the reference's planes are not made */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY)
    vg_ssim_hconv_rd(const VgSsimMapParams p)
{
    vg_ssim_hconv_run<true>(p);
}

/*
 * Vertical pass and the per-pixel terms of _iqa_ssim()'s default branch.
 * Thread mapping: one thread per valid pixel (x, y) of the
 * (w - 10) x (h - 10) map; 32 x 8 blocks, a warp a row of 32. Writes a
 * map plane for each sum of p.sums, in the order of VG_SSIM_SUM_* (l c s,
 * l, c, s), and adds each plane's terms into its sum's chunk records
 * (p.chunks, gpu/core/seqsum_step.h: their sum and abs, in any order), so that
 * the sums need no pass of their own for them. A warp's 32 terms of a
 * row lie in one chunk or two; the block adds them up through shared
 * memory, one thread per row, plane and sum, which takes fewer
 * instructions than a shuffle tree per warp. On the chips with 2048
 * threads per multiprocessor, eight blocks on each (32 registers, every
 * warp slot used): measured faster on an sm_90 than the 39 registers the
 * compiler picks otherwise, and given to sm_80 and sm_100 (the same
 * limits) unmeasured; elsewhere the compiler's choice.
 */
#if defined(__CUDA_ARCH__) &&                                                  \
    (__CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || __CUDA_ARCH__ == 1000)
#define VG_SSIM_VMAP_MIN_BLOCKS 8
#else
#define VG_SSIM_VMAP_MIN_BLOCKS 1
#endif
template <bool RD>
__device__ __forceinline__ void vg_ssim_vmap_run(const VgSsimMapParams &p)
{
    /* [row][plane][sum, abs][lane], rows of 33: conflict-free both ways */
    __shared__ double red[VG_SSIM_BY][VG_SSIM_NB_SUMS][2][VG_SSIM_BX + 1];
    const int dw = p.w - (VG_SSIM_WIN - 1), dh = p.h - (VG_SSIM_WIN - 1);
    const int hp = VG_SSIM_HBUF_PITCH(p.w);
    const int x0 = blockIdx.x * VG_SSIM_BX;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;
    /* lanes past the row's end, and rows past the map's, stay for the
     * block's sums and add 0 */
    const int in = x0 + (int)threadIdx.x < dw && y < dh;
    const int x = x0 + (int)threadIdx.x < dw ? x0 + threadIdx.x : dw - 1;
    const int yy = y < dh ? y : dh - 1;
    const unsigned take = p.sums;
    const int planes = __popc(take);
    const size_t n = (size_t)dw * dh;
    const float *hb = (const float *)p.hbuf + VG_SSIM_HBUF_AT(hp, x, yy);
    float2 *rterm = (float2 *)p.rterm + (size_t)yy * dw + x;
    /* the reference's two terms, rounded to float as the CPU keeps them */
    float2 rt = RD ? *rterm : make_float2(0.0f, 0.0f);
    double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0, a4 = 0.0;

#pragma unroll
    for (int v = 0; v < VG_SSIM_WIN; v++) {
        const float g = vg_ssim_gauss[v];

        if (!RD) {
            a0 += (double)(hb[0] * g);
            /* the squares' sums have their sign bit clear: gpu/core/f2d.h */
            a2 = vg_f2d_add_pos(a2, hb[2 * VG_SSIM_HBUF_PLANE] * g);
        }
        a1 += (double)(hb[VG_SSIM_HBUF_PLANE] * g);
        a3 = vg_f2d_add_pos(a3, hb[3 * VG_SSIM_HBUF_PLANE] * g);
        a4 += (double)(hb[4 * VG_SSIM_HBUF_PLANE] * g);
        hb += 5 * (size_t)hp;
    }

    const float c1 = (VG_SSIM_K1 * VG_SSIM_L) * (VG_SSIM_K1 * VG_SSIM_L);
    const float c2 = (VG_SSIM_K2 * VG_SSIM_L) * (VG_SSIM_K2 * VG_SSIM_L);
    const float c3 = c2 / 2.0f;
    if (!RD) {
        rt = make_float2((float)a0, (float)a2);
        if (p.stage == VG_SSIM_STAGE_WRITE && in)
            *rterm = rt;
    }
    const float mr = rt.x, mc = (float)a1;
    float vr = rt.y - mr * mr;
    float vc = (float)a3 - mc * mc;
    vr = 0.0 > vr ? 0.0f : vr;
    vc = 0.0 > vc ? 0.0f : vc;
    const float cov = (float)a4 - mr * mc;
    const float sr = (float)sqrt((double)(vr * vc));
    const double l = (2.0 * mr * mc + c1) / (mr * mr + mc * mc + c1);
    const double c = (2.0 * sr + c2) / (vr + vc + c2);
    const float cov_c = (cov < 0.0f && sr <= 0.0f) ? 0.0f : cov;
    const double s = (cov_c + c3) / (sr + c3);
    double(*r)[2][VG_SSIM_BX + 1] = red[threadIdx.y];
    double *m = (double *)p.map + (size_t)yy * dw + x;

    /* k is a constant once unrolled; r may move at run time (shared memory) */
#pragma unroll
    for (int k = 0; k < VG_SSIM_NB_SUMS; k++) {
        if (!(take & VG_SSIM_SUM_BIT(k)))
            continue;
        const double v = k == VG_SSIM_SUM_SSIM ? l * c * s
                         : k == VG_SSIM_SUM_L  ? l
                         : k == VG_SSIM_SUM_C  ? c
                                               : s;
        const double t = in ? v : 0.0;

        if (in)
            m[0] = v;
        m += n;
        r[0][0][threadIdx.x] = t;
        r[0][1][threadIdx.x] = fabs(t);
        r++;
    }
    __syncthreads();

    /* thread t: row t / (2 planes), plane (t / 2) % planes, sum t % 2 */
    const int t = threadIdx.y * VG_SSIM_BX + threadIdx.x;
    const int row = t / (2 * planes), q = t / 2 % planes, which = t & 1;
    const int ry = blockIdx.y * VG_SSIM_BY + row;

    if (row >= VG_SSIM_BY || ry >= dh)
        return;
    const size_t i0 = (size_t)ry * dw + x0;
    const int nx = dw - x0 < VG_SSIM_BX ? dw - x0 : VG_SSIM_BX;
    /* lanes from split on are the next chunk's */
    const size_t k0 = i0 / VG_SEQSUM_CHUNK;
    const int split = (int)((k0 + 1) * VG_SEQSUM_CHUNK - i0) < nx
                          ? (int)((k0 + 1) * VG_SEQSUM_CHUNK - i0)
                          : nx;
    const double *src = red[row][q][which];
    double first = 0.0, second = 0.0;

    for (int j = 0; j < split; j++)
        first += src[j];
    for (int j = split; j < nx; j++)
        second += src[j];

    /* p.chunks[q] without a run-time index: a parameter indexed at run
     * time goes to the stack */
    VgSeqsumChunk *rec = (VgSeqsumChunk *)(q == 0   ? p.chunks[0]
                                           : q == 1 ? p.chunks[1]
                                           : q == 2 ? p.chunks[2]
                                                    : p.chunks[3]) +
                         k0;

    atomicAdd(which ? &rec[0].abs : &rec[0].sum, first);
    if (split < nx)
        atomicAdd(which ? &rec[1].abs : &rec[1].sum, second);
}

extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY,
                                             VG_SSIM_VMAP_MIN_BLOCKS)
    vg_ssim_vmap(const VgSsimMapParams p)
{
    vg_ssim_vmap_run<false>(p);
}

/* a ladder's renditions > 0: the reference's terms from p.rterm */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY,
                                             VG_SSIM_VMAP_MIN_BLOCKS)
    vg_ssim_vmap_rd(const VgSsimMapParams p)
{
    vg_ssim_vmap_run<true>(p);
}

/*
 * float_ssim's decimation (iqa/decimate.c with ssim.c's box kernel):
 * output (x, y) of image z (0 ref, 1 dis) centred on (x f, y f), taps
 * v outer, u inner over -f/2 .. f/2 - (f even), each coordinate mirrored
 * once (KBND_SYMMETRIC; in range for the sizes the feature accepts), every
 * tap 1.0f / f^2. Thread mapping: one thread per output, 32 x 8 blocks,
 * blockIdx.z the image.
 */
extern "C" __global__ void __launch_bounds__(VG_SSIM_BX *VG_SSIM_BY)
    vg_ssim_decimate_box(const VgSsimDecimateParams p)
{
    const int x = blockIdx.x * VG_SSIM_BX + threadIdx.x;
    const int y = blockIdx.y * VG_SSIM_BY + threadIdx.y;

    if (x >= p.sw || y >= p.sh)
        return;
    const char *src = (const char *)(blockIdx.z ? p.src[1] : p.src[0]);
    float *dst = (float *)((char *)(blockIdx.z ? p.dst[1] : p.dst[0]) +
                           (int64_t)y * p.dst_pitch);
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
    dst[x] = (float)sum;
}
