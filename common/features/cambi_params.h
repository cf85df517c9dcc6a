/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CAMBI's kernel parameters and launch geometry, shared by gpu/cambi.c,
 * gpu/cambi_block.h (gpu/cambi.cu) and tests/gpu/test_cambi_block.c.
 */

#ifndef VG_FEATURES_CAMBI_PARAMS_H
#define VG_FEATURES_CAMBI_PARAMS_H

#include <stdint.h>

/** Most contrast steps (VG_CAMBI_MAX_DIFFS of the home, which the kernels
 * do not include). */
#define VG_CAMBI_K_MAX_DIFFS 32

#define VG_CAMBI_BX 32          ///< threads per block along x (pixel kernels)
#define VG_CAMBI_BY 8           ///< threads per block along y
#define VG_CAMBI_TILE 16        ///< c-value kernel: 16 x 16 outputs per block
/** Largest half window: the window is odd and ws * ws < 4226 (the size of
 * the reciprocal table), so ws <= 65. */
#define VG_CAMBI_PAD_MAX 32
/** Shared tile side of the c-value kernel. */
#define VG_CAMBI_TILE_SIDE (VG_CAMBI_TILE + 2 * VG_CAMBI_PAD_MAX)

typedef struct VgCambiKernelParams {
    uint64_t src;        ///< to_10bit: input luma; else the input work plane
    int64_t src_pitch;   ///< to_10bit: the input's pitch in bytes
    uint64_t dst;        ///< output work plane (same pitch as src's planes)
    uint64_t msrc, mdst; ///< masks (uint8, work pitch)
    uint64_t ix, iy;     ///< to_10bit: nearest-sample tables (uint32), or 0
    uint64_t cval;       ///< c-values (float, w x h packed)
    uint64_t rlut;       ///< the reciprocal table (floats)
    int64_t pitch;       ///< work planes' pitch in samples
    int32_t w, h;        ///< output size
    int32_t in_bpc;      ///< to_10bit: input depth (8..16)
    int32_t up, down, rnd; ///< to_10bit: shifts and rounding
    int32_t mask_index;
    int32_t pad;
    int32_t band_base, band_size;
    int32_t num_diffs;
    int32_t vlt_luma;
    int32_t tvi_for_diff[VG_CAMBI_K_MAX_DIFFS];
    int32_t diff_weights[VG_CAMBI_K_MAX_DIFFS];
} VgCambiKernelParams;

#endif /* VG_FEATURES_CAMBI_PARAMS_H */
