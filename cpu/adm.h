/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM (libvmaf v3.2.0 src/feature/integer_adm.c): the float and
 * double steps that turn the integer totals of a scale into its score, and
 * the frame finish. Both backends compute the integer totals (the CPU in
 * cpu/adm.c, CUDA in gpu/adm.cu) and call these on the host, so they print
 * the same bits.
 */

#ifndef VG_CPU_ADM_H
#define VG_CPU_ADM_H

#include <stdint.h>

#include "config.h"
#include "common/adm_tables.h"

struct VgFeatureCtx;

/**
 * Contrast-masking value of one scale (adm_cm for s = 0, i4_adm_cm for
 * s = 1..3): total[b] is the sum over the CM region rows of the per-row
 * rounded int64 row sums of band b (h, v, d).
 * @param nw noise weight (adm_noise_weight; 0 for the AIM numerator)
 * @return the scale value num_h + num_v + num_d (float)
 */
float vg_adm_cm_score(const VgAdmScale *sc, int s, const int64_t total[3],
                      double nw);

/**
 * Denominator value of one scale (adm_csf_den_scale for s = 0,
 * adm_csf_den_s123 for s = 1..3) from the per-row rounded totals of the
 * reference bands h, v, d.
 */
float vg_adm_den_score(const VgAdmScale *sc, const VgAdmFactors *fac, int s,
                       const uint64_t total[3], double nw);

/**
 * integer_compute_adm() and extract(): sums over the scales, limits,
 * adm2/aim/adm3 and the per-scale ratios; emits every output of frame
 * `index`. aim_s[s] is 0 where the AIM numerator was skipped.
 * @return 0 or a negative errno from vg_feature_emit()
 */
int vg_adm_finish(struct VgFeatureCtx *fc, unsigned index,
                  const float num_s[VG_ADM_NB_SCALES],
                  const float den_s[VG_ADM_NB_SCALES],
                  const float aim_s[VG_ADM_NB_SCALES]);

#if HAVE_CUDA
/** Integer ADM on the CUDA engine (gpu/adm.c, kernels in gpu/adm.cu). */
extern const struct VgCudaFeatureImpl vg_adm_cuda;
#endif

#endif /* VG_CPU_ADM_H */
