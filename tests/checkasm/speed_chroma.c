/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: speed_chroma, the CUDA kernels (gpu/speed.cuh: conversion,
 * prescaler, anti-alias filter and decimation, local mean) with the host
 * scoring of the decimated pictures, against the CPU backend
 * (cpu/speed_chroma.c, common/features/speed.c). The case matrix covers every depth
 * and layout (planar 4:2:0/4:2:2/4:4:4, NV12, P010, P016, NV16, P216, MSB
 * 4:4:4; 4:0:0 is refused), padded pitches, flat and ref == dis pictures.
 *
 * A chroma plane needs 80 samples per side after the prescale (one 5x5
 * block after the decimation by 16); smaller ones are refused by every
 * backend alike. The minimum depends on speed_prescale, which the
 * refusal predicate cannot see, so each prescale has its own option sets
 * and sizes around its minimum: 1 (80 samples: 160x160 luma in 4:2:0,
 * a single block, whose covariance is singular: speed.c's error path),
 * 1.5 (53) and 0.75 (106), the latter two with each prescale method
 * and one frame per case (the prescale is slow on the CPU).
 */

#include "common/picture.h"
#include "tests/checkasm/checkasm.h"

/* vg_speed_init()'s refusal of an n-sample side at prescale ps */
static int too_small(unsigned n, double ps)
{
    return ((unsigned)(int)(n * ps + 0.5) >> 4) < 5;
}

static int refuses_at(enum VgPixFmt fmt, unsigned w, unsigned h, double ps)
{
    const enum VgImageLayout layout = vg_pix_fmt_layout(fmt);
    unsigned ssx, ssy;

    vg_layout_shifts(layout, &ssx, &ssy);
    return layout == VG_LAYOUT_400 || too_small(w >> ssx, ps) ||
           too_small(h >> ssy, ps);
}

static int refuses_1(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)bpc;
    return refuses_at(fmt, w, h, 1.0);
}

static int refuses_up(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)bpc;
    return refuses_at(fmt, w, h, 1.5);
}

static int refuses_down(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)bpc;
    return refuses_at(fmt, w, h, 0.75);
}

void checkasm_check_speed_chroma(void)
{
    static const char *const base_opts[] = {
        "",
        "speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
        "speed_weight_var_mode=5:speed_max_val=45",
        "speed_kernelscale=3:speed_weight_var_mode=3:speed_sigma_nn=1.5",
        "speed_kernelscale=0.5:speed_weight_var_mode=1",
        "speed_kernelscale=1.4746:speed_weight_var_mode=2:speed_max_val=2",
        "speed_kernelscale=2:speed_weight_var_mode=4",
        "speed_kernelscale=1.111111:speed_weight_var_mode=6:"
        "speed_nn_floor=1",
        /* within 1e-3 of 1: not resampled; sizes below 1000 unchanged */
        "speed_prescale=1.0005:speed_prescale_method=bicubic",
        NULL,
    };
    static const CaSize base_sizes[] = {
        { 160, 160 }, { 80, 80 },  { 79, 80 },  { 80, 79 }, { 159, 161 },
        { 161, 163 }, { 239, 97 }, { 175, 81 }, { 0, 0 },
    };
    static const char *const up_opts[] = {
        "speed_prescale=1.5",
        "speed_prescale=1.5:speed_prescale_method=bilinear",
        "speed_prescale=1.5:speed_prescale_method=bicubic:"
        "speed_kernelscale=1.5",
        "speed_prescale=1.5:speed_prescale_method=lanczos4:"
        "speed_weight_var_mode=3",
        NULL,
    };
    static const CaSize up_sizes[] = {
        { 106, 106 }, { 53, 53 },   { 52, 60 },  { 60, 52 },
        { 105, 107 }, { 107, 105 }, { 123, 77 }, { 0, 0 },
    };
    static const char *const down_opts[] = {
        "speed_prescale=0.75",
        "speed_prescale=0.75:speed_prescale_method=bilinear:"
        "speed_kernelscale=0.5",
        "speed_prescale=0.75:speed_prescale_method=bicubic",
        "speed_prescale=0.75:speed_prescale_method=lanczos4:"
        "speed_kernelscale=2.4:speed_weight_var_mode=5",
        NULL,
    };
    static const CaSize down_sizes[] = {
        { 212, 212 }, { 106, 106 }, { 105, 106 }, { 106, 105 },
        { 211, 213 }, { 213, 211 }, { 301, 129 }, { 0, 0 },
    };
    const CaFeature f[] = {
        { CA_FEATURE("speed_chroma", base, 160, 160, 2), .refuses = refuses_1,
          .needs_chroma = 1 },
        { CA_FEATURE("speed_chroma", up, 106, 106, 1), .refuses = refuses_up,
          .needs_chroma = 1 },
        { CA_FEATURE("speed_chroma", down, 212, 212, 1),
          .refuses = refuses_down, .needs_chroma = 1 },
    };

    /* the AVX2 and AVX-512 builds (common/features/speed.c: the
     * filters, the covariance, the solver's products; common/fplane.c) */
    static const char *const keys[] = {
        "speed_chroma_u",
        "speed_chroma_v",
        "speed_chroma_uv",
        NULL,
    };
    static const CaSize sizes[] = { { 192, 176 }, { 333, 261 }, { 0, 0 } };
    static const unsigned depths[] = { 8, 10, 0 };
    static const CaBuilds b = {
        .name = "speed_chroma",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        ca_check_feature(&f[i]);
    ca_check_builds(&b);
}
