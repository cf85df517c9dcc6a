/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR on the CPU: the per-plane SSE, bit-exact with libvmaf
 * v3.2.0 src/feature/integer_psnr.c psnr() and psnr_hbd(); the dB values
 * are the feature's home's (common/features/psnr.c). C, AVX2 and AVX-512
 * builds of the same loops.
 */

#include <stdint.h>
#include <stdlib.h>

#include "common/cpu.h"
#include "common/features/psnr.h"

VG_CPU_INLINE uint64_t sse_8(const uint8_t *ref, ptrdiff_t rs,
                             const uint8_t *dis, ptrdiff_t ds, unsigned w,
                             unsigned h)
{
    uint64_t sse = 0;

    /* per-row uint32 sums of int16 squared errors, as psnr() (modulo 2^32:
     * any order of the additions gives the same row sum) */
    for (unsigned i = 0; i < h; i++) {
        uint32_t row = 0;
        for (unsigned j = 0; j < w; j++) {
            const int e = ref[j] - dis[j];
            row += (uint32_t)(e * e);
        }
        sse += row;
        ref += rs;
        dis += ds;
    }
    return sse;
}

VG_CPU_INLINE uint64_t sse_16(const uint16_t *ref, ptrdiff_t rs,
                              const uint16_t *dis, ptrdiff_t ds, unsigned w,
                              unsigned h)
{
    uint64_t sse = 0;

    /* psnr_hbd(): |e| as uint32, squares summed straight into uint64 */
    for (unsigned i = 0; i < h; i++) {
        for (unsigned j = 0; j < w; j++) {
            const uint32_t e = (uint32_t)abs((int)ref[j] - (int)dis[j]);
            sse += (uint64_t)(uint32_t)(e * e);
        }
        ref = (const uint16_t *)((const uint8_t *)ref + rs);
        dis = (const uint16_t *)((const uint8_t *)dis + ds);
    }
    return sse;
}

/* The SSE of one plane, compiled once per instruction set (integer sums:
 * the same value from every build). */
VG_CPU_INLINE uint64_t sse_any(const VgImage *ref, const VgImage *dis,
                               unsigned pl, unsigned bpc)
{
    const unsigned w = ref->w[pl], h = ref->h[pl];

    if (bpc == 8)
        return sse_8(ref->data[pl], ref->stride[pl], dis->data[pl],
                     dis->stride[pl], w, h);
    return sse_16(ref->data[pl], ref->stride[pl], dis->data[pl],
                  dis->stride[pl], w, h);
}

VG_CPU_O3 static uint64_t sse_c(const VgImage *ref, const VgImage *dis,
                                unsigned pl, unsigned bpc)
{
    return sse_any(ref, dis, pl, bpc);
}

#if VG_CPU_HAVE_AVX2
VG_CPU_TARGET_AVX2 VG_CPU_O3 static uint64_t sse_avx2(const VgImage *ref,
                                                      const VgImage *dis,
                                                      unsigned pl, unsigned bpc)
{
    return sse_any(ref, dis, pl, bpc);
}

VG_CPU_TARGET_AVX512 VG_CPU_O3 static uint64_t sse_avx512(const VgImage *ref,
                                                          const VgImage *dis,
                                                          unsigned pl,
                                                          unsigned bpc)
{
    return sse_any(ref, dis, pl, bpc);
}
#endif

typedef uint64_t PsnrSseFn(const VgImage *ref, const VgImage *dis, unsigned pl,
                           unsigned bpc);

typedef struct VgPsnrDSP {
    PsnrSseFn *sse; ///< the C, AVX2 or AVX-512 build of sse_any()
} VgPsnrDSP;

typedef struct PsnrCpu {
    VgPsnrParams p;
    VgPsnrDSP dsp;
} PsnrCpu;

static void vg_psnr_dsp_init(VgPsnrDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->sse, sse, flags);
}

static int psnr_init(VgFeatureCtx *fc)
{
    PsnrCpu *s = fc->priv;

    vg_psnr_setup(&s->p, fc->opts, fc->bpc, fc->layout, fc->width, fc->height);
    vg_psnr_dsp_init(&s->dsp, vg_cpu_flags());
    return 0;
}

static int psnr_extract(VgFeatureCtx *fc, const VgFrame *f)
{
    const PsnrCpu *s = fc->priv;
    const VgPsnrParams *p = &s->p;
    uint64_t sse[3] = { 0 };

    for (unsigned pl = 0; pl < p->n_planes; pl++)
        sse[pl] = s->dsp.sse(f->ref, f->dis, pl, fc->bpc);
    return vg_psnr_emit(fc, p, f->index, f->ref, sse);
}

const VgFeatureImpl vg_cpu_psnr = {
    .priv_size = sizeof(PsnrCpu),
    .init = psnr_init,
    .extract = psnr_extract,
};
