/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: speed_chroma (cpu/speed_chroma.c, cpu/speed.c). The CUDA
 * backend runs it on its host job pool (no device implementation yet), so
 * this covers that path: pictures from host and device memory, converted
 * on the device, copied back to pinned host images and scored there,
 * against the CPU backend. A chroma plane needs 80x80 samples (one 5x5
 * block after the decimation by 16), so 4:2:0 needs 160x160 luma; smaller
 * planes are refused by every backend alike. 160x160 4:2:0 has a single
 * block, whose covariance is singular (speed.c's error path). The option
 * sets leave speed_prescale at 1, which keeps that minimum.
 * speed_temporal needs the previous distorted picture, which the CUDA
 * backend does not keep: it refuses the feature, and it has no case here.
 */

#include "common/picture.h"
#include "tests/checkasm/checkasm.h"

static const char *const speed_chroma_opts[] = {
    "",
    "speed_kernelscale=1.0:speed_nn_floor=0.1:speed_sigma_nn=0.19:"
    "speed_weight_var_mode=5:speed_max_val=45",
    "speed_kernelscale=3:speed_weight_var_mode=3:speed_sigma_nn=1.5",
    NULL,
};

static const CaSize speed_chroma_sizes[] = {
    { 160, 160 }, { 80, 80 }, { 161, 163 }, { 239, 97 }, { 0, 0 },
};

static int speed_chroma_refuses(enum VgPixFmt fmt, unsigned bpc, unsigned w,
                                unsigned h)
{
    const enum VgImageLayout layout = vg_pix_fmt_layout(fmt);
    unsigned ssx, ssy;

    (void)bpc;
    vg_layout_shifts(layout, &ssx, &ssy);
    return layout == VG_LAYOUT_400 || (w >> ssx) < 80 || (h >> ssy) < 80;
}

void checkasm_check_speed_chroma(void)
{
    static const CaFeature f = {
        .name = "speed_chroma",
        .min_w = 160,
        .min_h = 160,
        .frames = 2,
        .opts = speed_chroma_opts,
        .sizes = speed_chroma_sizes,
        .refuses = speed_chroma_refuses,
        .needs_chroma = 1,
    };

    ca_check_feature(&f);
}
