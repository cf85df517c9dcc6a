/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ms_ssim: CUDA against the CPU, from the feature's minimum
 * (176x176: the 11x11 window at the fifth scale) with odd sizes whose
 * pyramid rounds up at each step.
 */

#include "tests/checkasm/checkasm.h"

static const char *const ms_ssim_opts[] = {
    "",
    "enable_lcs=true",
    "enable_db=true:clip_db=true",
    "enable_lcs=true:enable_db=true",
    NULL,
};

static const CaSize ms_ssim_sizes[] = {
    { 176, 176 }, { 177, 176 }, { 176, 191 }, { 185, 179 }, { 0, 0 },
};

void checkasm_check_float_ms_ssim(void)
{
    static const CaFeature f = {
        .name = "float_ms_ssim",
        .min_w = 176,
        .min_h = 176,
        .frames = 2,
        .opts = ms_ssim_opts,
        .sizes = ms_ssim_sizes,
    };

    ca_check_feature(&f);
}
