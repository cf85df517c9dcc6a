/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR (libvmaf v3.2.0 src/feature/integer_psnr.c): options,
 * outputs and the per-plane finish shared by the backends, which differ
 * only in how they sum the SSE (cpu/psnr.c, gpu/psnr.cu).
 */

#ifndef VG_FEATURES_PSNR_H
#define VG_FEATURES_PSNR_H

#include <stdbool.h>
#include <stdint.h>

#include "common/feature.h"
#include "common/image.h"

enum {
    VG_PSNR_OUT_Y,
    VG_PSNR_OUT_CB,
    VG_PSNR_OUT_CR,
    VG_PSNR_OUT_MSE_Y,
    VG_PSNR_OUT_MSE_CB,
    VG_PSNR_OUT_MSE_CR,
};

typedef struct VgPsnrOptions {
    bool enable_chroma;
    bool enable_mse;
    bool enable_apsnr;
    bool reduced_hbd_peak;
    double min_sse;
} VgPsnrOptions;

typedef struct VgPsnrParams {
    uint32_t peak;
    unsigned n_planes;
    double psnr_max[3];
} VgPsnrParams;

/** Peak, plane count and caps from the options (integer_psnr.c init()). */
void vg_psnr_setup(VgPsnrParams *p, const VgPsnrOptions *o, unsigned bpc,
                   enum VgImageLayout layout, unsigned w, unsigned h);

/** PSNR in dB of one plane from its SSE (integer_psnr.c psnr()/psnr_hbd()). */
double vg_psnr_from_sse(const VgPsnrParams *p, unsigned bpc, unsigned plane,
                        uint64_t sse, unsigned w, unsigned h, double *mse);

/**
 * A frame's part of the APSNR (enable_apsnr), the frame record of the
 * feature (common/framestore.h): integer_psnr.c adds these up over the
 * stream and writes apsnr_y, apsnr_cb, apsnr_cr at flush.
 */
typedef struct VgPsnrRecord {
    uint64_t sse[3];
    uint64_t n_pixels[3];
} VgPsnrRecord;

/**
 * Emit frame `index`'s outputs from the SSE of each of p->n_planes planes
 * of the reference image `ref` (its plane sizes are the MSE's divisors),
 * and with enable_apsnr store the frame's VgPsnrRecord.
 */
int vg_psnr_emit(VgFeatureCtx *fc, const VgPsnrParams *p, unsigned index,
                 const VgImage *ref, const uint64_t sse[3]);

#endif /* VG_FEATURES_PSNR_H */
