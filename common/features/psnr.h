/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer PSNR: options and the per-plane finish shared by the CPU and
 * CUDA implementations (the backends differ only in how they sum SSE).
 */

#ifndef VG_CPU_PSNR_H
#define VG_CPU_PSNR_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "common/image.h"

enum {
    VG_PSNR_OUT_Y, VG_PSNR_OUT_CB, VG_PSNR_OUT_CR,
    VG_PSNR_OUT_MSE_Y, VG_PSNR_OUT_MSE_CB, VG_PSNR_OUT_MSE_CR,
};

typedef struct VgPsnrOptions {
    bool enable_chroma;
    bool enable_mse;
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

#if HAVE_CUDA
extern const struct VgCudaFeatureImpl vg_psnr_cuda;
#endif

#endif /* VG_CPU_PSNR_H */
