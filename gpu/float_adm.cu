/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * Float ADM (libvmaf v3.2.0 adm.c compute_adm(), adm_tools.c), one scale
 * per call of each kernel, all on the engine stream in this order: DWT,
 * decouple and CSF, terms, row sums and totals. The per-sample arithmetic is
 * common/features/float_adm_params.h, the same functions cpu/float_adm.c
 * calls, built with -fmad=false: every value is the CPU's bit for bit.
 *
 * Exactness of the sums: libvmaf adds each row of a region into a float,
 * columns left to right, then the rows top to bottom into a float per
 * band. vg_fadm_terms computes every term in parallel (each is one
 * sample's own arithmetic); vg_fadm_rows adds each (row, band, kind)
 * in that order, and its last block the rows of each (band, kind), both
 * through gpu/core/rowsum.cuh, which keeps every addition chain whole. No
 * parallel or atomic reduction (one atomic counter finds the last block),
 * so the totals are the CPU's floats; the powf of the
 * totals and what follows run on the host (common/features/float_adm.c).
 * The p-norm's per-sample powf (adm_p_norm != 3) is not reproduced here:
 * the host implementation runs then (gpu/float_adm.c float_adm_usable()).
 *
 * The decoupling's division is libvmaf's SSE2 one: the host's RCPSS,
 * as a table checked against it (vg_fadm_rcp_model()), refined by one
 * Newton step; or an IEEE division where the host has no RCPSS.
 */

#include "common/features/float_adm_params.h"
#include "gpu/core/rowsum.cuh"

#define FADM_AT(base, pitch, i, j)                                             \
    (((const float *)((const char *)(base) + (int64_t)(i) * (pitch)))[j])
#define FADM_PTR(base, pitch, i, j)                                            \
    (&((float *)((char *)(base) + (int64_t)(i) * (pitch)))[j])

/*
 * adm_dwt2_s / adm_dwt2_lo_s. Thread mapping: one output sample (i, j) of
 * the band per thread, 32 x 8 blocks, blockIdx.z = 0 reference, 1
 * distorted. The vertical pass of the four source columns is recomputed
 * by each thread: the same four-tap sums as the CPU's tmplo/tmphi.
 * No shared memory.
 */
extern "C" __global__ void __launch_bounds__(VG_FADM_BX *VG_FADM_BY)
    vg_fadm_dwt(const VgFadmKernelParams p)
{
    const int j = blockIdx.x * VG_FADM_BX + threadIdx.x;
    const int i = blockIdx.y * VG_FADM_BY + threadIdx.y;
    const int z = blockIdx.z;

    if (i >= p.h || j >= p.w)
        return;
    const uint64_t src = z ? p.src[1] : p.src[0];
    int rr[4], cc[4];
    for (int k = 0; k < 4; k++) {
        rr[k] = vg_fadm_src_index(i, k, p.in_h);
        cc[k] = vg_fadm_src_index(j, k, p.in_w);
    }
    float tl[4], th[4];
    for (int k = 0; k < 4; k++) {
        float s[4];
        for (int q = 0; q < 4; q++) {
            s[q] = FADM_AT(src, p.src_pitch, rr[q], cc[k]);
            if (p.add_offset)
                s[q] = s[q] + p.src_offset;
        }
        tl[k] = vg_fadm_lo(s[0], s[1], s[2], s[3]);
        th[k] = vg_fadm_hi(s[0], s[1], s[2], s[3]);
    }
    *FADM_PTR(z ? p.lo[1] : p.lo[0], p.pitch, i, j) =
        vg_fadm_lo(tl[0], tl[1], tl[2], tl[3]);
    if (p.lo_only)
        return;
    const uint64_t *d = z ? p.dis : p.ref;
    *FADM_PTR(d[1], p.pitch, i, j) = vg_fadm_hi(tl[0], tl[1], tl[2], tl[3]);
    *FADM_PTR(d[0], p.pitch, i, j) = vg_fadm_lo(th[0], th[1], th[2], th[3]);
    *FADM_PTR(d[2], p.pitch, i, j) = vg_fadm_hi(th[0], th[1], th[2], th[3]);
}

__device__ __forceinline__ float fadm_quotient(const VgFadmKernelParams &p,
                                               float n, float d)
{
    if (p.rcp)
        return vg_fadm_div_rcp(n, d,
                               vg_fadm_rcp_model(d, (const float *)p.rcp));
    return __fdiv_rn(n, d);
}

/*
 * adm_decouple_s over the CSF region [dl, dr) x [dt, db), and adm_csf_s
 * of both its outputs, r and a = t - r: the CSF values (cvr, cva) and
 * their |csf| / 30 (cfr, cfa). Thread mapping:
 * one band sample per thread, 32 x 8 blocks over the region. No shared
 * memory; the reciprocal table is read through the global cache.
 */
extern "C" __global__ void __launch_bounds__(VG_FADM_BX *VG_FADM_BY)
    vg_fadm_decouple(const VgFadmKernelParams p)
{
    const int j = p.dl + blockIdx.x * VG_FADM_BX + threadIdx.x;
    const int i = p.dt + blockIdx.y * VG_FADM_BY + threadIdx.y;

    if (i >= p.db || j >= p.dr)
        return;
    float o[3], t[3], rst[3];
    for (int b = 0; b < 3; b++) {
        o[b] = FADM_AT(p.ref[b], p.pitch, i, j);
        t[b] = FADM_AT(p.dis[b], p.pitch, i, j);
    }
    for (int b = 0; b < 3; b++) {
        const float kb =
            vg_fadm_clamp01(fadm_quotient(p, t[b], o[b] + VG_FADM_EPS));
        rst[b] = kb * o[b];
    }
    const int flag = vg_fadm_angle_flag(o[0], o[1], t[0], t[1], p.cos1_sq);
    for (int b = 0; b < 3; b++) {
        rst[b] = vg_fadm_restore(rst[b], t[b], flag, p.egl);
        /* adm_csf_s of r (masks the AIM numerator) and of a (masks the
         * DLM numerator) */
        const float vr = p.rf[b] * rst[b];
        const float va = p.rf[b] * (t[b] - rst[b]);
        *FADM_PTR(p.cvr[b], p.pitch, i, j) = vr;
        *FADM_PTR(p.cfr[b], p.pitch, i, j) = vg_fadm_flt(vr);
        *FADM_PTR(p.cva[b], p.pitch, i, j) = va;
        *FADM_PTR(p.cfa[b], p.pitch, i, j) = vg_fadm_flt(va);
    }
}

__device__ __forceinline__ float fadm_energy(const VgFadmKernelParams &p,
                                             float x)
{
    /* only p = 3 reaches the kernels (see the file comment) */
    return vg_fadm_cube(x);
}

/*
 * The terms of the sums. Thread mapping: one sample (i, j) of the CM
 * region per thread, 32 x 8 blocks. The nine terms of (i, j) go to row
 * (kind * 3 + band) * n_rows + (i - ct), column j - cl, of p.terms: kind 0
 * the reference energy (adm_csf_den_scale_s), 1 r masked by the CSF of a
 * (adm_cm_s, DLM), 2 a masked by the CSF of r (AIM). The masking
 * threshold sums the masker's three bands in the CPU's order, neighbours
 * mirrored -1 -> 1 and n -> n - 1 (0 with adm_bypass_cm).
 */
extern "C" __global__ void __launch_bounds__(VG_FADM_BX *VG_FADM_BY)
    vg_fadm_terms(const VgFadmKernelParams p)
{
    const int j = p.cl + blockIdx.x * VG_FADM_BX + threadIdx.x;
    const int i = p.ct + blockIdx.y * VG_FADM_BY + threadIdx.y;

    if (i >= p.cb || j >= p.cr)
        return;
    const int im1 = i == 0 ? 1 : i - 1;
    const int ip1 = i == p.h - 1 ? p.h - 1 : i + 1;
    const int jm1 = j == 0 ? 1 : j - 1;
    const int jp1 = j == p.w - 1 ? p.w - 1 : j + 1;
    const int r = i - p.ct, col = j - p.cl;
    float thr[2] = { 0.0f, 0.0f };

    for (int z = 0; z < 2 && !p.bypass; z++) {
        const uint64_t *cv = z == 0 ? p.cva : p.cvr;
        const uint64_t *cf = z == 0 ? p.cfa : p.cfr;

        for (int m = 0; m < 3; m++) {
            const uint64_t f = cf[m];
            thr[z] += vg_fadm_thr_band(
                FADM_AT(f, p.pitch, im1, jm1), FADM_AT(f, p.pitch, im1, j),
                FADM_AT(f, p.pitch, im1, jp1), FADM_AT(f, p.pitch, i, jm1),
                FADM_AT(cv[m], p.pitch, i, j), FADM_AT(f, p.pitch, i, jp1),
                FADM_AT(f, p.pitch, ip1, jm1), FADM_AT(f, p.pitch, ip1, j),
                FADM_AT(f, p.pitch, ip1, jp1));
        }
    }
    for (int b = 0; b < 3; b++) {
        const float rf = p.rf[b];
        /* r * rf and a * rf, the CSF values (a product is the same
         * either way round) */
        const float x1 = FADM_AT(p.cvr[b], p.pitch, i, j);
        const float x2 = FADM_AT(p.cva[b], p.pitch, i, j);

        *FADM_PTR(p.terms, p.pitch, b * p.n_rows + r, col) =
            fadm_energy(p, fabsf(rf * FADM_AT(p.ref[b], p.pitch, i, j)));
        *FADM_PTR(p.terms, p.pitch, (3 + b) * p.n_rows + r, col) =
            fadm_energy(p, vg_fadm_masked(x1, thr[0]));
        *FADM_PTR(p.terms, p.pitch, (6 + b) * p.n_rows + r, col) =
            fadm_energy(p, vg_fadm_masked(x2, thr[1]));
    }
}

/*
 * Row sums of the 9 * n_rows rows of p.terms, each left to right into one
 * float from 0, as the CPU (gpu/core/rowsum.cuh: a strip of
 * VG_FADM_ROWS_STRIP rows per block).
 */
static_assert(VG_FADM_ROWS_THREADS == VG_ROWSUM_THREADS, "vg_fadm_rows");

extern "C" __global__ void __launch_bounds__(VG_ROWSUM_THREADS)
    vg_fadm_rows(const VgFadmKernelParams p)
{
    __shared__ VgRowsumStrip<1, VG_FADM_ROWS_STRIP> sm;
    const int row0 = blockIdx.x * VG_FADM_ROWS_STRIP;
    const int rows = 9 * p.n_rows;
    float acc[1] = { 0.0f };

    vg_rowsum_strip<1, 1, VG_FADM_ROWS_STRIP>(
        &sm, row0, rows, p.cr - p.cl,
        [&](int q, int col, float *v) {
            v[0] = FADM_AT(p.terms, p.pitch, q, col);
        },
        [](float *s, const float *v) { s[0] += v[0]; }, acc);
    if (threadIdx.x < VG_FADM_ROWS_STRIP && row0 + (int)threadIdx.x < rows)
        ((float *)p.rows)[row0 + threadIdx.x] = acc[0];
    if (!vg_rowsum_last((unsigned *)p.counter))
        return;

    /* the totals: sequence t = kind * 3 + band of the row sums, its
     * n_rows values added top to bottom into one float from 0, the CPU's
     * order, into the frame's result area */
    __shared__ VgRowsumSeq<9> sm_tot;
    const float *rs = (const float *)p.rows;
    float tot = 0.0f;

    vg_rowsum_block<9>(
        &sm_tot, [&](int) { return p.n_rows; },
        [&](int q, int r) { return __ldcg(&rs[q * p.n_rows + r]); },
        [](float a, float x) { return a + x; }, &tot);
    if (threadIdx.x < 9)
        ((float *)p.tot)[threadIdx.x] = tot;
}
