/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM on CUDA: kernel parameters, buffer layout and launch
 * geometry (gpu/adm.cu), shared with the host side in gpu/adm.c. Plain C
 * (C and CUDA C++); pointers are stored as uint64_t so that the same
 * layout also describes host memory (tests/gpu/adm_host.cu runs the
 * per-element code of the kernels on the host).
 */

#ifndef VG_FEATURES_ADM_PARAMS_H
#define VG_FEATURES_ADM_PARAMS_H

#include <stdint.h>

#define VG_ADM_CUDA_SCALES 4
#define VG_ADM_BX 32 ///< DWT block: threads along x, a warp
#define VG_ADM_BY 8  ///< DWT block: warps
/** DWT: output columns of a warp; lanes 0 and 31 only lend their columns */
#define VG_ADM_DWT_OW (VG_ADM_BX - 2)
/** DWT: output rows of a warp at scale 0, and at scales 1..3, whose
 *  smaller bands give fewer warps (two rows there and four a warp in
 *  motion gave vmaf_v0.6.1 at 1080p 7% more frames/s than four and
 *  eight, at 2160p the same) */
#define VG_ADM_DWT_R0 4
#define VG_ADM_DWT_R 2
#define VG_ADM_CM_THREADS 256 ///< decouple + CM block: a warp per band row
#define VG_ADM_CM_WARPS (VG_ADM_CM_THREADS / 32)
#define VG_ADM_CM_TW 128 ///< decouple + CM tile: columns (four per lane)
#define VG_ADM_CM_TH                                                           \
    VG_ADM_CM_WARPS ///< decouple + CM tile: rows (one per warp)

/** Band indices (cpu/adm.c): a = L.lo, h = L.hi, v = H.lo, d = H.hi. */
enum {
    VG_ADM_BA = 0,
    VG_ADM_BH = 1,
    VG_ADM_BV = 2,
    VG_ADM_BD = 3
};

/** Device result area: per scale, per band h, v, d; all int64. */
typedef struct VgAdmResults {
    int64_t num[VG_ADM_CUDA_SCALES]
               [3]; ///< sum of R_rho(CM row sum), r masked by a
    int64_t aim[VG_ADM_CUDA_SCALES][3]; ///< same, a masked by r
    int64_t den[VG_ADM_CUDA_SCALES]
               [3]; ///< sum of per-row rounded reference energy
} VgAdmResults;

/** Buffers of one scale: the DWT bands, all with one pitch. */
typedef struct VgAdmBands {
    uint64_t ref[4], dis[4]; ///< DWT bands (VG_ADM_BA..BD)
    int64_t pitch;           ///< bytes
} VgAdmBands;

/** Geometry and fixed-point weights of one scale. */
typedef struct VgAdmGeo {
    int32_t w, h;           ///< band size
    int32_t cl, ct, cr, cb; ///< CM / denominator region [cl, cr) x [ct, cb)
    uint32_t fac[3];        ///< CSF weight h, v, d: Q21/Q23 (scale 0), Q32
    uint32_t cm_cub[3];     ///< CM cube shifts h, v, d
    uint32_t cm_rho;        ///< CM per-row shift
    uint32_t den_cub;       ///< den: sigma (scale 0) / cube shift (1..3)
    uint32_t den_rho;       ///< den: per-row shift (1..3)
    int32_t row0;           ///< first flattened CM row of the scale
    int32_t cm_tiles_x;     ///< CM tiles per tile row
    int32_t cm_tile0;       ///< first flattened CM tile of the scale
    int32_t cm_trow0;       ///< first flattened CM tile row of the scale
} VgAdmGeo;

/** Per-frame-invariant parameters; the decouple + CM kernel gets them by
 *  value (VgAdmLaunch). */
typedef struct VgAdmParams {
    VgAdmBands b[VG_ADM_CUDA_SCALES];
    VgAdmGeo g[VG_ADM_CUDA_SCALES];
    double egl;         ///< adm_enhn_gain_limit
    float cos1;         ///< cos(1 deg)^2 as libvmaf stores it
    int32_t aim;        ///< compute the AIM numerator
    int32_t s_first;    ///< first scale decoupled (1 with adm_skip_scale0)
    int32_t n_rows;     ///< CM rows of all scales
    int32_t n_cm_tiles; ///< CM tiles of all scales
    int32_t n_cm_trows; ///< CM tile rows of all scales
    uint64_t
        rows; ///< int64[n_rows][9]: CM row sums being added, zero between frames
    uint64_t
        ticket; ///< uint32[n_cm_trows]: tiles of the tile row done, zero between frames
} VgAdmParams;

/** DWT of one scale, reference (z = 0) and distorted (z = 1). */
typedef struct VgAdmDwtParams {
    uint64_t src[2];    ///< luma (scale 0) or the previous LL band
    int64_t src_pitch;  ///< bytes
    uint64_t dst[2][4]; ///< bands VG_ADM_BA..BD
    int64_t dst_pitch;  ///< bytes
    int32_t in_w, in_h; ///< input size
    int32_t w, h;       ///< band size
    int32_t bpc;        ///< scale 0: bits per sample
    int32_t vrnd, vsh;  ///< scales 1..3: vertical rounding
    int32_t hrnd, hsh;  ///< scales 1..3: horizontal rounding
} VgAdmDwtParams;

/**
 * Decouple + CM kernel: the parameters, by value (kernel parameter
 * space, read through the constant cache), and the results.
 */
typedef struct VgAdmLaunch {
    VgAdmParams par;
    uint64_t res; ///< VgAdmResults * (device, zeroed by the engine)
} VgAdmLaunch;

#endif /* VG_FEATURES_ADM_PARAMS_H */
