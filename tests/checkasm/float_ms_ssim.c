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
        CA_FEATURE("float_ms_ssim", ms_ssim, 176, 176, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/float_ssim.c) */
    static const char *const keys[] = {
        "float_ms_ssim",
        "float_ms_ssim_l_scale0",
        "float_ms_ssim_c_scale2",
        "float_ms_ssim_s_scale4",
        NULL,
    };
    static const CaSize sizes[] = { { 180, 176 }, { 203, 191 }, { 0, 0 } };
    static const unsigned depths[] = { 8, 0 };
    static const CaBuilds b = {
        .name = "float_ms_ssim",
        .opts = "enable_lcs=true",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    ca_check_feature(&f);
    ca_check_builds(&b);
}
