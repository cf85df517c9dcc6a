/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM: options, constants and per-configuration tables shared by
 * every backend (cpu/adm.c, gpu/adm.c). The arithmetic reproduces libvmaf
 * v3.2.0 src/feature/integer_adm.c (portable C path); each constant names
 * the libvmaf function it comes from.
 */

#ifndef VG_FEATURES_ADM_H
#define VG_FEATURES_ADM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/log.h"

/** Number of DWT scales (integer_adm.c integer_compute_adm). */
#define VG_ADM_NB_SCALES 4

/**
 * Smallest luma width/height we accept. libvmaf's dwt2_src_indices_filt()
 * needs at least 5 samples at the input of scale 3 (ceil(W / 8) >= 5):
 * below 33 it reads outside its buffers (17..32) or crashes (<= 16), so
 * its results there are undefined and we refuse those sizes.
 */
#define VG_ADM_MIN_SIZE 33

/** Options of the integer ADM feature (integer_adm.c `options`). */
typedef struct VgAdmOpts {
    bool debug;
    double csf_scale;       ///< adm_csf_scale (scf), Barten only
    double csf_diag_scale;  ///< adm_csf_diag_scale (scfd), Barten only
    double dlm_weight;      ///< adm_dlm_weight (dlmw)
    double enhn_gain_limit; ///< adm_enhn_gain_limit (egl)
    double norm_view_dist;  ///< adm_norm_view_dist (nvd)
    int ref_display_height; ///< adm_ref_display_height (rdh)
    int csf_mode; ///< adm_csf_mode (csf): 0 Watson, 1 Barten, 2, 3 blends
    double noise_weight; ///< adm_noise_weight (nw)
    bool skip_aim;       ///< adm_skip_aim
    bool skip_scale0;    ///< adm_skip_scale0 (ssz)
    double min_val;      ///< adm_min_val (min)
} VgAdmOpts;

/** CSF modes (integer_adm.h enum ADM_CSF_MODE). */
enum VgAdmCsfMode {
    VG_ADM_CSF_WATSON = 0,
    VG_ADM_CSF_BARTEN = 1,
    VG_ADM_CSF_BLEND = 2,
    VG_ADM_CSF_BLEND_MAE = 3,
};

/** db2 analysis taps, Q15 (integer_adm.h dwt2_db2_coeffs_lo/hi). */
static const int32_t vg_adm_dwt_lo[4] = { 15826, 27411, 7345, -4240 };
static const int32_t vg_adm_dwt_hi[4] = { -4240, -7345, 27411, -15826 };
/** Sum of the low-pass taps (integer_adm.h dwt2_db2_coeffs_lo_sum). */
#define VG_ADM_DWT_LO_SUM 46342

/** 2^17 / 30 (integer_adm.c adm_csf FIX_ONE_BY_30). */
#define VG_ADM_ONE_BY_30_S0 4369
/** 2^17 / 15 (integer_adm.h ONE_BY_15). */
#define VG_ADM_ONE_BY_15_S0 8738
/** 2^32 / 30 (integer_adm.c i4_adm_csf FIX_ONE_BY_30). */
#define VG_ADM_ONE_BY_30_S123 143165577
/** 2^32 / 15 (integer_adm.h I4_ONE_BY_15). */
#define VG_ADM_ONE_BY_15_S123 286331153

/** Area of interest of one band (integer_adm.c, ADM_BORDER_FACTOR 0.1). */
typedef struct VgAdmRegion {
    int left, top, right, bottom; ///< [left, right) x [top, bottom)
} VgAdmRegion;

/** Sizes, regions and rounding shifts of one scale. */
typedef struct VgAdmScale {
    int in_w, in_h;  ///< DWT input size
    int w, h;        ///< band size: ceil(in / 2)
    VgAdmRegion cm;  ///< contrast masking and denominator region
    VgAdmRegion dec; ///< decouple and CSF region (one extra tap per side)
    /** adm_cm (scale 0): cube shifts ceil(log2(w) - 4) (h, v) and
     *  ceil(log2(w) - 3) (d); i4_adm_cm: ceil(log2(w)) for all bands. */
    uint32_t cm_cub_shift[3];
    /** ceil(log2(h)): per-row rounding of the CM accumulation. */
    uint32_t cm_row_shift;
    /** adm_csf_den_scale: max(0, ceil(log2(area) - 20)).
     *  adm_csf_den_s123: ceil(log2(right - left)) (cube) */
    uint32_t den_cub_shift;
    /** adm_csf_den_s123: ceil(log2(bottom - top)) (per row). */
    uint32_t den_row_shift;
} VgAdmScale;

/** CSF weights of one configuration (integer_adm.c adm_csf, i4_adm_csf). */
typedef struct VgAdmFactors {
    float f[VG_ADM_NB_SCALES][2]; ///< float factors: [scale][0] h and v, [1] d
    uint16_t s0[3];               ///< scale 0, Q21 (h, v), Q23 (d)
    uint32_t s123[VG_ADM_NB_SCALES]
                 [3]; ///< scales 1..3, Q32 (h, v, d); [0] unused
} VgAdmFactors;

/**
 * Compute the CSF factors for a configuration exactly as libvmaf does
 * (dwt_quant_step() for Watson, barten_csf_tools.h for the others).
 * @return 0, or -EINVAL (logged) when the blended CSF tables have no entry
 *         for this viewing distance and display height (libvmaf then
 *         continues with a factor of -22, i.e. undefined conversions).
 */
int vg_adm_factors(const VgAdmOpts *o, VgAdmFactors *f, VgLog *log);

/**
 * Watson's quantisation step Q(lambda, theta) of the luma DWT for a
 * viewing condition (integer_adm.c and adm_tools.h dwt_quant_step()).
 */
float vg_adm_watson_q(int lambda, int theta, double nvd, int rdh);

/**
 * Barten's CSF of DWT level lambda at 100 cd/m2 times `scale`
 * (barten_csf_tools.h barten_csf(), DEFAULT_ADM_CSF_LUMINANCE_LEVEL).
 */
float vg_adm_barten_csf(int lambda, double nvd, int rdh, double scale);

/** Fill the geometry of the four scales for a luma size (>= VG_ADM_MIN_SIZE). */
void vg_adm_scales(unsigned width, unsigned height,
                   VgAdmScale sc[VG_ADM_NB_SCALES]);

/**
 * Reciprocal table, 65537 entries: [32768 + i] = 2^30 / i, [32768 - i] =
 * its negative, i = 1..32768 (integer_adm.h div_lookup_generator). Built
 * once, thread-safe; read-only afterwards.
 */
const int32_t *vg_adm_div_lookup(void);

/** cos(1 degree)^2 as libvmaf stores it (float; adm_decouple). */
float vg_adm_cos1_sq(void);

/** Output indices, in integer_adm.c provided_features order. */
enum {
    VG_ADM_OUT_ADM2 = 0,
    VG_ADM_OUT_AIM,
    VG_ADM_OUT_ADM3,
    VG_ADM_OUT_SCALE0,
    VG_ADM_OUT_SCALE1,
    VG_ADM_OUT_SCALE2,
    VG_ADM_OUT_SCALE3,
    VG_ADM_OUT_ADM,
    VG_ADM_OUT_NUM,
    VG_ADM_OUT_DEN,
    VG_ADM_OUT_NUM_SCALE0,
    VG_ADM_OUT_DEN_SCALE0,
};

/**
 * Float final of the denominator of scale s from its three per-band
 * integer totals (adm_csf_den_scale, adm_csf_den_s123).
 */
float vg_adm_den_score(const VgAdmScale *sc, const VgAdmFactors *fac, int s,
                       const uint64_t total[3], double nw);

/** Float final of a contrast-masking sum of scale s (adm_cm, i4_adm_cm). */
float vg_adm_cm_score(const VgAdmScale *sc, int s, const int64_t total[3],
                      double nw);

/**
 * The frame's finish from the per-scale float values (integer_compute_adm):
 * emits adm2, aim, adm3, the scale scores and, with debug, the rest.
 */
int vg_adm_finish(VgFeatureCtx *fc, unsigned index,
                  const float num_s[VG_ADM_NB_SCALES],
                  const float den_s[VG_ADM_NB_SCALES],
                  const float aim_s[VG_ADM_NB_SCALES]);

#endif /* VG_FEATURES_ADM_H */
