/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF (libvmaf v3.2.0 src/feature/integer_vif.c, integer_vif.h):
 * options, outputs, filter taps, the log2 table and the per-scale finish,
 * shared by the backends (cpu/vif.c, gpu/vif.c). The backends produce, per scale, the
 * four int64 accumulators of VgVifAccum; everything after that (float
 * num/den, score division, emission) is vg_vif_emit() on the host.
 */

#ifndef VG_FEATURES_VIF_H
#define VG_FEATURES_VIF_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/features/vif_params.h"

/** Output indices, in libvmaf's provided_features order. */
enum {
    VG_VIF_OUT_SCALE0,
    VG_VIF_OUT_SCALE1,
    VG_VIF_OUT_SCALE2,
    VG_VIF_OUT_SCALE3,
    VG_VIF_OUT_VIF, ///< debug outputs from here on
    VG_VIF_OUT_NUM,
    VG_VIF_OUT_DEN,
    VG_VIF_OUT_NUM_SCALE0, ///< then den_scale0, num_scale1, ... den_scale3
};

typedef struct VgVifOptions {
    bool debug;
    double vif_enhn_gain_limit;
    bool vif_skip_scale0;
} VgVifOptions;

/** Filter taps per scale, Q16 (integer_vif.h vif_filter1d_table). */
extern const uint16_t vg_vif_taps[4][17];

/** Smallest picture side with exact mirrors at every scale (cpu/vif.c). */
#define VG_VIF_MIN_SIZE 16
/** Taps per scale: 17, 9, 5, 3 (integer_vif.h vif_filter1d_width). */
extern const unsigned vg_vif_taps_len[4];

/** sigma_nsq of integer_vif.c vif_statistic_8/16: 2 * 65536. */
#define VG_VIF_SIGMA_NSQ (65536 << 1)

/**
 * The 65537-entry log2 table of integer_vif.c log_generate(): entry i
 * (32767 <= i <= 65535) is round(log2f(i) * 2048), computed once with
 * this host's libm; other entries are 0. Thread-safe.
 */
const uint16_t *vg_vif_log2_table(void);

/** integer_vif.h log2_32(): log2(t) * 2048 from the 16 leading bits. */
static inline int32_t vg_vif_log2_32(const uint16_t *tab, uint32_t t)
{
    int k = 16 - __builtin_clz(t);
    return tab[t >> k] + 2048 * k;
}

/** integer_vif.h log2_64(); t >= 2^17 always holds for VIF's operands. */
static inline int32_t vg_vif_log2_64(const uint16_t *tab, uint64_t t)
{
    int k = 48 - __builtin_clzll(t);
    return tab[t >> k] + 2048 * k;
}

/** The four accumulators of one scale (vif_statistic_8/16). */
typedef struct VgVifAccum {
    int64_t num_log, den_log, num_non_log, den_non_log;
} VgVifAccum;

/**
 * Write the scores of one frame from the accumulators of scales 0..3
 * (scale 0 unused with vif_skip_scale0), as integer_vif.c
 * vif_statistic_* (num/den in double, stored as float) and write_scores().
 */
int vg_vif_emit(VgFeatureCtx *fc, unsigned index, const VgVifAccum acc[4]);

#endif /* VG_FEATURES_VIF_H */
