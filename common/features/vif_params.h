/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF's filter taps (for every backend), and the parameters and
 * launch geometry of its kernels (gpu/vif.cu, block code in
 * gpu/vif_block.h), shared with the host side in gpu/vif.c.
 *
 * One launch per scale s: blocks with blockIdx.z == 0 compute the
 * statistic of scale s (VG_VIF_TW x VG_VIF_TH outputs per block), blocks
 * with blockIdx.z == 1 the picture of scale s + 1 (VG_VIF_DW x VG_VIF_DH
 * outputs per block). Both read only the picture of scale s.
 */

#ifndef VG_FEATURES_VIF_PARAMS_H
#define VG_FEATURES_VIF_PARAMS_H

#include <stdint.h>

/** integer_vif.h vif_filter1d_table (Q16), widths 17, 9, 5, 3. */
#define VG_VIF_TAPS_INIT                                                       \
    {                                                                          \
        { 489,  935,  1640, 2640, 3896, 5274, 6547, 7455, 7784,                \
          7455, 6547, 5274, 3896, 2640, 1640, 935,  489 },                     \
            { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },       \
            { 3571, 16004, 26386, 16004, 3571 }, { 10904, 43728, 10904 },      \
    }
/** integer_vif.h vif_filter1d_width. */
#define VG_VIF_TAPS_LEN_INIT                                                   \
    {                                                                          \
        17, 9, 5, 3                                                            \
    }

#define VG_VIF_BX 32 ///< threads per block along x
#define VG_VIF_BY 8  ///< threads per block along y
#define VG_VIF_NT (VG_VIF_BX * VG_VIF_BY)

/*
 * A statistic tile covers the same picture area as a down-sampling tile
 * (DW x DH outputs of the half-size scale s + 1), so that the two jobs
 * have the same grid and no block of either exits at once; wide rather
 * than square, so that the vertical pass's halo columns are a quarter of
 * its columns instead of a half.
 */
#define VG_VIF_TW 64  ///< statistic: output columns per block
#define VG_VIF_TH 16  ///< statistic: output rows per block
#define VG_VIF_HMAX 8 ///< largest filter half-width (scale 0)
#define VG_VIF_VR 4   ///< statistic: rows per thread, vertical pass
#define VG_VIF_HC 4   ///< statistic: columns per thread, horizontal pass

#define VG_VIF_DW 32   ///< down-sampling: output columns per block
#define VG_VIF_DH 8    ///< down-sampling: output rows per block
#define VG_VIF_DHMAX 4 ///< largest down-sampling half-width (taps of scale 1)

typedef struct VgVifParams {
    uint64_t ref, dis; ///< picture of scale s (device), uint8 or uint16
    int64_t ref_pitch, dis_pitch; ///< bytes
    uint32_t w, h;                ///< size of scale s
    uint32_t bpc;                 ///< bits per sample of the input, 8..16
    uint32_t stat;                ///< 1: compute the statistic of scale s
    uint64_t
        acc; ///< device int64[4]: num_log, den_log, num_non_log, den_non_log
    uint64_t log2;       ///< device uint16[65537]: log2 table (cpu/vif.h)
    double egl;          ///< vif_enhn_gain_limit
    uint64_t dref, ddis; ///< picture of scale s + 1 (device uint16), 0: none
    int64_t dpitch;      ///< bytes
    uint32_t dw, dh;     ///< size of scale s + 1
    /**
     * A ladder's reference stage: 0 none; VG_VIF_STAGE_WRITE, the
     * statistic also stores the reference's terms of each pixel (M1 and
     * XX after the horizontal pass) at rterm; VG_VIF_STAGE_READ, it reads
     * them there instead of filtering the reference, and the
     * down-sampling makes the distorted picture of scale s + 1 alone
     * (dref unused).
     */
    uint32_t stage;
    uint32_t pad_;
    uint64_t rterm;      ///< device uint32 pairs (M1, XX), one per pixel
    int64_t rterm_pitch; ///< bytes, a multiple of 32
} VgVifParams;

#define VG_VIF_STAGE_WRITE 1
#define VG_VIF_STAGE_READ 2

static inline unsigned vg_vif_div_up(unsigned a, unsigned b)
{
    return (a + b - 1) / b;
}

/** Grid of the launch of one scale: enough blocks for both jobs. */
static inline void vg_vif_grid(const VgVifParams *p, unsigned *gx, unsigned *gy,
                               unsigned *gz)
{
    unsigned x = p->stat ? vg_vif_div_up(p->w, VG_VIF_TW) : 0;
    unsigned y = p->stat ? vg_vif_div_up(p->h, VG_VIF_TH) : 0;

    *gz = 1;
    if (p->ddis) {
        const unsigned dx = vg_vif_div_up(p->dw, VG_VIF_DW);
        const unsigned dy = vg_vif_div_up(p->dh, VG_VIF_DH);
        x = dx > x ? dx : x;
        y = dy > y ? dy : y;
        *gz = 2;
    }
    *gx = x;
    *gy = y;
}

#endif /* VG_FEATURES_VIF_PARAMS_H */
