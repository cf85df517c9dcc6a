/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF on the CPU: the state shared by cpu/vif.c (set-up, frame
 * loop) and the passes of cpu/vif_tmpl.c, compiled once per sample type:
 * cpu/vif_8.c (uint8, scale 0 of 8-bit pictures) and cpu/vif_16.c
 * (uint16, scale 0 of deeper pictures and scales 1..3 of every depth).
 */

#ifndef VG_CPU_VIF_H
#define VG_CPU_VIF_H

#include <stddef.h>
#include <stdint.h>

#include "common/features/vif.h"

/* Largest filter half-width (scale 0): margin of the row buffers. */
#define VIF_PAD 8

/*
 * Column counts. Loops run over whole blocks of VIF_BLOCK columns, so that
 * GCC vectorises them even at -O2 (its "very cheap" cost model there only
 * takes loops that need no scalar remainder). Our own row buffers and
 * pictures have room for the extra columns, whose values are never used;
 * the caller's picture (scale 0) is read up to column w only, the last
 * partial block in a separate call.
 */
#define VIF_BLOCK 16

static inline size_t vif_ceil_block(size_t w)
{
    return (w + VIF_BLOCK - 1) & ~(size_t)(VIF_BLOCK - 1);
}

typedef struct VifCpu VifCpu;

/** The passes of one sample type (cpu/vif_tmpl.c); strides in bytes. */
typedef struct VgVifDSP {
    /** Statistic of scale `scale` of ref/dis into *acc (zeroed first). */
    void (*scale)(VifCpu *s, unsigned scale, const void *ref,
                  ptrdiff_t ref_stride, const void *dis, ptrdiff_t dis_stride,
                  unsigned bpc, double egl, VgVifAccum *acc);
    /** Picture of scale `scale + 1` from ref/dis into s->img[scale + 1]. */
    void (*downsample)(VifCpu *s, unsigned scale, const void *ref,
                       ptrdiff_t ref_stride, const void *dis,
                       ptrdiff_t dis_stride, unsigned bpc);
} VgVifDSP;

struct VifCpu {
    VgVifDSP dsp8;  ///< uint8 samples: scale 0 of 8-bit pictures
    VgVifDSP dsp16; ///< uint16 samples: every other scale
    const uint16_t *log2;
    unsigned w[4], h[4];
    size_t stride[4];    ///< row stride of img[s] in samples (whole blocks)
    uint16_t *img[4][2]; ///< scales 1..3, ref/dis
    /* One vertically filtered row, VIF_PAD samples of margin on each side:
     * mu of ref/dis, then the filtered squares xx, yy, xy (uint32) split
     * into high and low 16 bits. */
    uint16_t *mu[2];
    uint16_t *sq_hi[3], *sq_lo[3];
    /** horizontal sums of one row: M1, M2, then high and low halves of
     *  XX, YY, XY */
    uint32_t *hsum[8];
    int32_t *sig[3];      ///< sigma1^2, sigma2^2, sigma12 of one row
    uint16_t *even, *odd; ///< de-interleaved row for the down-sampling
    void *mem;
    /*
     * A ladder's reference stage, set per frame (cpu/vif.c): with
     * stage_role (common/feature.h), the reference's M1 and sigma1^2 of
     * each row of scale s are written to (VG_STAGE_WRITE) or read from
     * (VG_STAGE_READ) st_m1[s] and st_s1[s], stride[s] entries a row, and
     * the reference's picture of scale s (1..3) is rimg[s], in the stage;
     * a reader filters only the distorted picture and the cross term.
     * Outside a ladder stage_role is 0 and rimg[s] is img[s][0].
     */
    int stage_role;
    uint32_t *st_m1[4];
    int32_t *st_s1[4];
    uint16_t *rimg[4];
};

/**
 * Fill `d` with the C build of one sample type's passes, or with their
 * AVX2 build when `flags` (vg_cpu_flags()) has VG_CPU_FLAG_AVX2, or their
 * AVX-512 build when it has VG_CPU_FLAG_AVX512.
 */
void vg_vif_dsp_init_8bpc(VgVifDSP *d, unsigned flags);
void vg_vif_dsp_init_16bpc(VgVifDSP *d, unsigned flags);

#endif /* VG_CPU_VIF_H */
