/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float moments (libvmaf v3.2.0 src/feature/float_moment.c, moment.c):
 * the mean and the mean square of the reference and distorted luma as
 * float (common/fplane.h, offset 0). The backends only produce the four
 * sums; the division is the home's.
 */

#ifndef VG_FEATURES_FLOAT_MOMENT_H
#define VG_FEATURES_FLOAT_MOMENT_H

#include "common/feature.h"

/** Outputs, in libvmaf's order of appending. */
enum {
    VG_FLOAT_MOMENT_OUT_REF1ST,
    VG_FLOAT_MOMENT_OUT_DIS1ST,
    VG_FLOAT_MOMENT_OUT_REF2ND,
    VG_FLOAT_MOMENT_OUT_DIS2ND,
};

/**
 * Emit frame `index`'s moments from the sums of moment.c
 * compute_1st_moment() and compute_2nd_moment() (the double accumulator
 * before its division), in the order of the outputs.
 */
int vg_float_moment_emit(VgFeatureCtx *fc, unsigned index, const double sum[4]);

#endif /* VG_FEATURES_FLOAT_MOMENT_H */
