/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CIEDE2000 (libvmaf v3.2.0 src/feature/ciede.c): the output, the input
 * checks, the per-pixel colour difference on the host and the per-frame
 * score both backends use (gpu/ciede.cu computes the same on the device).
 */

#ifndef VG_FEATURES_CIEDE_H
#define VG_FEATURES_CIEDE_H

#include "common/feature.h"
#include "common/image.h"

enum {
    VG_CIEDE_OUT_CIEDE2000,
};

/**
 * Refuse what libvmaf's ciede.c cannot compute (logged, -EINVAL): 4:0:0,
 * depths other than 8, 10, 12 and 16, and a chroma plane with no sample
 * (width 1 in 4:2:0/4:2:2, height 1 in 4:2:0).
 */
int vg_ciede_check(VgLog *log, enum VgImageLayout layout, unsigned bpc,
                   unsigned w, unsigned h);

/**
 * The frame score from the double sum of the per-pixel float ΔE00:
 * 45 - 20 log10(sum / (w * h)), as ciede.c extract() (w * h unsigned);
 * +inf when every pixel is equal.
 */
double vg_ciede_score(double de00_sum, unsigned w, unsigned h);

/**
 * One pixel's ΔE00 from its samples: reference and
 * distorted Y, U, V; scale = 2^(bpc - 8). For the pixels the device
 * leaves to the host (gpu/ciede.c).
 */
float vg_ciede_de00_samples(const unsigned ref[3], const unsigned dis[3],
                            double scale);

/** The host's frame sum: one row's chroma positions and a Lab cache. */
typedef struct VgCiedeSum VgCiedeSum;

/** @return a frame sum for rows of `width` pixels, or NULL (no memory) */
VgCiedeSum *vg_ciede_sum_alloc(unsigned width);

/** Free *s (may be NULL) and set it to NULL. */
void vg_ciede_sum_free(VgCiedeSum **s);

/**
 * The frame's double sum of the float ΔE00 in row-major order, of host
 * images of fc's geometry (s allocated for fc->width).
 */
double vg_ciede_sum_frame(VgCiedeSum *s, const VgFeatureCtx *fc,
                          const VgImage *ref, const VgImage *dis);

/**
 * vg_ciede_sum_frame() with a sum of its own, for a frame the device
 * could not settle.
 * @return 0 or -ENOMEM
 */
int vg_ciede_frame_sum(const VgFeatureCtx *fc, const VgImage *ref,
                       const VgImage *dis, double *sum);

/**
 * Whether this process's powf(x, 7) is the one vg_ciede_powf7() assumes,
 * glibc's (tests/unit/test_ciede_powf checks every float of the range
 * against it): glibc's result at floats where it is not the nearest one,
 * and one of vg_ciede_powf7()'s candidates at 4096 floats across the
 * range. The CUDA backend scores every frame on the host when it is not.
 */
int vg_ciede_host_powf_agrees(void);

#endif /* VG_FEATURES_CIEDE_H */
