/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * PSNR-HVS (libvmaf v3.2.0 src/feature/third_party/xiph/psnr_hvs.c):
 * outputs, tables and the per-plane finish shared by the backends, which
 * differ only in where the blocks' terms are computed and summed
 * (cpu/psnr_hvs.c, gpu/psnr_hvs.cu; the block code is
 * common/features/psnr_hvs_params.h).
 */

#ifndef VG_FEATURES_PSNR_HVS_H
#define VG_FEATURES_PSNR_HVS_H

#include <stdint.h>

#include "common/feature.h"

enum {
    VG_PSNR_HVS_OUT_Y,
    VG_PSNR_HVS_OUT_CB,
    VG_PSNR_HVS_OUT_CR,
    VG_PSNR_HVS_OUT_ALL,
};

/** Each plane's tables, row-major: csf, then the masking weights. */
typedef struct VgPsnrHvsTables {
    float t[3][2][64];
} VgPsnrHvsTables;

/**
 * Refuse what psnr_hvs.c cannot compute (init(): more than 12 bits, 4:0:0;
 * and planes smaller than one 8x8 block, where it divides 0 by 0), with
 * one logged line. @return 0 or negative errno.
 */
int vg_psnr_hvs_check(VgFeatureCtx *fc);

/**
 * The tables of calc_psnrhvs(): csf_y, csf_cb420, csf_cr420 (planes 1 and
 * 2 use the 4:2:0 tables whatever the layout, as libvmaf) and the masking
 * weights (csf * 0.3885746225901003)^2 in double, stored as float.
 */
void vg_psnr_hvs_tables(VgPsnrHvsTables *t);

/**
 * calc_psnrhvs()'s result from the plane's float sum of terms over
 * n_blocks blocks of a bpc-bit plane.
 */
double vg_psnr_hvs_plane_score(float ret, uint64_t n_blocks, unsigned bpc);

/** Emit frame `index`'s four outputs from the three plane scores. */
int vg_psnr_hvs_emit(VgFeatureCtx *fc, unsigned index, const double score[3]);

#endif /* VG_FEATURES_PSNR_HVS_H */
