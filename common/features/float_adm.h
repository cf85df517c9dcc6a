/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float ADM (libvmaf v3.2.0 src/feature/float_adm.c, adm.c compute_adm(),
 * adm_tools.c): options, outputs, per-scale geometry and CSF weights, and
 * the host-side finish both backends call. The backends (cpu/float_adm.c,
 * gpu/float_adm.c) produce, per scale, band and kind (denominator, DLM
 * numerator, AIM numerator), the float sum of each row of the region in
 * libvmaf's order; everything after the row sums is computed here, on
 * the host, so both backends print the same bits.
 */

#ifndef VG_FEATURES_FLOAT_ADM_H
#define VG_FEATURES_FLOAT_ADM_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/features/adm.h"
#include "common/log.h"

#define VG_FADM_NB_SCALES 4

/**
 * Smallest luma width/height accepted. Every scale's DWT reads a mirrored
 * neighbour, which needs 2 input samples, and the contrast masking of the
 * last scale reads one neighbour each side, which needs a band of at least
 * 2 samples: ceil(W / 16) >= 2. Below 17 libvmaf reads outside its bands.
 */
#define VG_FADM_MIN_SIZE 17

/**
 * 1 where libvmaf divides by reciprocal (adm_tools.c DIVS() with
 * ADM_OPT_RECIP_DIVISION on an SSE2 build), 0 where it divides.
 */
#if defined(__SSE2__)
#define VG_FADM_HAVE_RCP 1
#include <xmmintrin.h>
/**
 * The hardware's approximate reciprocal (RCPSS) of x, the value libvmaf's
 * rcp_s() refines. Its bits are the CPU's, not IEEE's: they may differ
 * between CPU vendors, as libvmaf's scores then do.
 */
static inline float vg_float_adm_rcp_hw(float x)
{
    return _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
}

/**
 * This CPU's RCPSS as the table of vg_fadm_rcp_model()
 * (common/features/float_adm_params.h), built and checked once; NULL if
 * its RCPSS does not follow the model (then only the CPU reproduces it).
 */
const float *vg_float_adm_rcp_table(void);
#else
#define VG_FADM_HAVE_RCP 0
#endif

/** Options (float_adm.c `options`, in that order). */
typedef struct VgFloatAdmOpts {
    bool debug;
    double enhn_gain_limit; ///< adm_enhn_gain_limit (egl)
    double norm_view_dist;  ///< adm_norm_view_dist (nvd)
    double noise_weight;    ///< adm_noise_weight (nw)
    double csf_scale;       ///< adm_csf_scale (scf), Barten only
    double csf_diag_scale;  ///< adm_csf_diag_scale (scfd), Barten only
    int ref_display_height; ///< adm_ref_display_height (rdf)
    int csf_mode;       ///< adm_csf_mode (csf): 1 Barten, 2 ADM, else Watson
    int bypass_cm;      ///< adm_bypass_cm (bcm)
    bool adm3_apply_hm; ///< adm_adm3_apply_hm (aah)
    double p_norm;      ///< adm_p_norm (apn)
    double dlm_weight;  ///< adm_dlm_weight (dlmw)
    double min_val;     ///< adm_min_val (min)
    double f1[VG_FADM_NB_SCALES]; ///< adm_f1s0..3: h/v weight override if >= 0
    double f2[VG_FADM_NB_SCALES]; ///< adm_f2s0..3: d weight override if >= 0
    int skip_aim_scale;           ///< adm_skip_aim_scale (sasc), -1 = none
    bool skip_scale0;             ///< adm_skip_scale0 (ssz)
} VgFloatAdmOpts;

/** Output indices (float_adm.c extract(), in emission order). */
enum {
    VG_FADM_OUT_ADM2 = 0,
    VG_FADM_OUT_AIM,
    VG_FADM_OUT_ADM3,
    VG_FADM_OUT_SCALE0,
    VG_FADM_OUT_SCALE1,
    VG_FADM_OUT_SCALE2,
    VG_FADM_OUT_SCALE3,
    VG_FADM_OUT_ADM,
    VG_FADM_OUT_NUM,
    VG_FADM_OUT_DEN,
    VG_FADM_OUT_NUM_SCALE0,
    VG_FADM_OUT_DEN_SCALE0,
};

/** Row-sum kinds of one scale. */
enum {
    VG_FADM_DEN = 0,
    VG_FADM_NUM = 1,
    VG_FADM_AIM = 2
};

/** Everything a backend needs, from the options and the frame size. */
typedef struct VgFloatAdmParams {
    /** Sizes and regions; only in_w/in_h, w/h, cm and dec are used. */
    VgAdmScale sc[VG_FADM_NB_SCALES];
    float rf[VG_FADM_NB_SCALES][3]; ///< CSF weights h, v, d (adm_csf_s)
    float cos1_sq;                  ///< cos(1 deg)^2 (adm_decouple_s)
    int p_is_3;                     ///< adm_p_norm == 3.0: x * x * x, else powf
    float p_f;                      ///< (float)adm_p_norm, powf's exponent
    float inv_p_f;                  ///< (float)(1.0 / adm_p_norm)
    int first_scale;                ///< 1 with adm_skip_scale0, else 0
} VgFloatAdmParams;

/**
 * Fill the parameters. Needs width, height >= VG_FADM_MIN_SIZE.
 */
void vg_float_adm_setup(VgFloatAdmParams *p, const VgFloatAdmOpts *o,
                        unsigned width, unsigned height);

/** Rows of the CM / denominator region of scale s. */
static inline int vg_float_adm_rows(const VgFloatAdmParams *p, int s)
{
    return p->sc[s].cm.bottom - p->sc[s].cm.top;
}

/**
 * The float value of one kind of scale s from its row sums
 * (rows[band][row], bands h, v, d, rows of the region top to bottom):
 * the rows added in order into a float per band (adm_csf_den_scale_s,
 * adm_cm_s), then powf(sum, 1/p) plus the noise term, bands added
 * h + v + d. The AIM numerator has no noise term (noise weight 0).
 */
float vg_float_adm_scale_value(const VgFloatAdmParams *p,
                               const VgFloatAdmOpts *o, int s, int kind,
                               const float *const rows[3]);

/**
 * The same from the band totals, the row sums already added top to bottom
 * into one float per band, starting at 0 (the CUDA backend adds them on the
 * device in that order).
 */
float vg_float_adm_scale_value_tot(const VgFloatAdmParams *p,
                                   const VgFloatAdmOpts *o, int s, int kind,
                                   const float tot[3]);

/**
 * The frame's finish (compute_adm() after the scale loop and
 * float_adm.c extract()): `val[s][kind]` for the computed scales.
 */
int vg_float_adm_finish(VgFeatureCtx *fc, unsigned index,
                        const float val[VG_FADM_NB_SCALES][3]);

#endif /* VG_FEATURES_FLOAT_ADM_H */
