/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * The parameter struct of SpEED's kernels (gpu/speed.cuh), shared by
 * speed_chroma and speed_temporal (gpu/speed.c).
 */

#ifndef VG_FEATURES_SPEED_CHROMA_PARAMS_H
#define VG_FEATURES_SPEED_CHROMA_PARAMS_H

#include <stdint.h>

#include "common/features/vif_tools.h"

/** Pictures of one launch: speed_chroma's U ref, U dis, V ref, V dis. */
#define VG_SPEED_MAX_PICS 4
/** Longest filter: filter_size(1, 360/97) is 35 taps. */
#define VG_SPEED_MAX_TAPS 40
/** Elements of the 5x5 neighbourhood, and of its covariance matrix. */
#define VG_SPEED_EB 25
#define VG_SPEED_COV (VG_SPEED_EB * VG_SPEED_EB)
/** Thread block of every SpEED kernel. */
#define VG_SPEED_BX 32
#define VG_SPEED_BY 8

typedef struct VgSpeedKernelParams {
    /**
     * Per picture (blockIdx.z): the device plane of the samples, and a
     * plane subtracted from it (speed_temporal: frame n), or 0.
     */
    uint64_t a[VG_SPEED_MAX_PICS], b[VG_SPEED_MAX_PICS];
    int64_t pitch;    ///< bytes per row of every a and b plane
    float scaler;     ///< common/fplane.h: 2^(bpc - 8)
    int32_t w, h;     ///< the input plane
    int32_t sw, sh;   ///< prescaled
    int32_t dw, dh;   ///< decimated by 16
    int32_t method;   ///< enum VgVifPrescale
    int32_t resample; ///< 1: the prescale kernel wrote `pre`
    /** prescaler tables (common/features/speed.h vg_speed_prescale_axis()) */
    uint64_t xi, xw, yi, yw;
    uint64_t pre;       ///< per picture sw x sh floats, packed
    uint64_t col;       ///< per picture sw x dh floats: the vertical pass
    uint64_t dec;       ///< per picture dw x dh: decimated
    uint64_t tmp;       ///< per picture dw x dh: the local mean's vertical pass
    uint64_t out;       ///< per picture dw x dh: decimated less its local mean
    int32_t subw, subh; ///< the 25 shifted sub-pictures of the covariance
    uint64_t means;     ///< per picture 25 floats: their means
    uint64_t cov;       ///< per picture 25 x 25 floats: the covariance matrix
    int32_t taps_aa, taps4;
    float f_aa[VG_SPEED_MAX_TAPS], f4[VG_SPEED_MAX_TAPS];
} VgSpeedKernelParams;

#endif /* VG_FEATURES_SPEED_CHROMA_PARAMS_H */
