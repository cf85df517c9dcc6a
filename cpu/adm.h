/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM on the CPU: the state shared by cpu/adm.c (set-up, frame
 * loop) and the per-scale passes of cpu/adm_tmpl.c, compiled once per band
 * type: cpu/adm_s0.c (int16 bands, scale 0) and cpu/adm_s123.c (int32
 * bands, scales 1..3).
 */

#ifndef VG_CPU_ADM_H
#define VG_CPU_ADM_H

#include <stddef.h>
#include <stdint.h>

#include "common/features/adm.h"

enum {
    BA = 0,
    BH = 1,
    BV = 2,
    BD = 3
};

/** The bands of one band type; elements of that type, `stride` apart. */
typedef struct AdmBands {
    void *ref[4], *dis[4]; ///< DWT output; at scales 1..3 [BA] is lo_ref/lo_dis
    void *r[4], *a[4];     ///< decoupled: restored, additive (BH..BD)
    void *ca[4], *cf[4];   ///< CSF values and |.|/30 (BH..BD)
    ptrdiff_t stride;      ///< row stride in elements
} AdmBands;

typedef struct AdmPriv AdmPriv;

/**
 * One scale (cpu/adm_tmpl.c): DWT of both pictures (scale 0: of `ref` and
 * `dis`; after: of the previous scale's low-pass bands), then the float
 * values of vg_adm_finish(); *aim is left alone when AIM is skipped.
 */
typedef void AdmScaleFn(AdmPriv *p, int s, const VgAdmOpts *o,
                        const VgImage *ref, const VgImage *dis, float *num,
                        float *den, float *aim);

typedef struct VgAdmDSP {
    AdmScaleFn *scale_s0;   ///< scale 0, C, AVX2 or AVX-512 build
    AdmScaleFn *scale_s123; ///< scales 1..3, C, AVX2 or AVX-512 build
} VgAdmDSP;

struct AdmPriv {
    VgAdmDSP dsp;
    VgAdmScale sc[VG_ADM_NB_SCALES];
    VgAdmFactors fac;
    const int32_t *div;
    float cos1;
    /* dwt2_src_indices_filt(): 4 source indices per output row/column */
    int *iy[VG_ADM_NB_SCALES], *ix[VG_ADM_NB_SCALES];
    AdmBands b16; ///< scale 0, int16
    AdmBands b32; ///< scales 1..3, int32
    void *lo_ref[2],
        *lo_dis[2]; ///< int32 low-pass bands of scales 1..3, ping-pong
    /* row scratch */
    void *tmp;
    int32_t *cs, *thr;
    void *mem;
    /* a ladder's reference stage (VgFrame.stage): the reference's four
     * bands of each scale, at the strides of b16 and b32; the DWT writes
     * them there (VG_STAGE_WRITE) or is skipped for the reference
     * (VG_STAGE_READ). stage_role 0: none. */
    size_t b16_bytes, b32_bytes; ///< one band, a multiple of 64
    void *sref[VG_ADM_NB_SCALES][4];
    int stage_role;
};

/**
 * Fill one band type's entry of `dsp` (scale_s0, scale_s123) with the C
 * build of its scale pass, or with its AVX2 build when `flags`
 * (vg_cpu_flags()) has VG_CPU_FLAG_AVX2, or its AVX-512 build when it has
 * VG_CPU_FLAG_AVX512.
 */
void vg_adm_dsp_init_s0(VgAdmDSP *dsp, unsigned flags);
void vg_adm_dsp_init_s123(VgAdmDSP *dsp, unsigned flags);

#endif /* VG_CPU_ADM_H */
