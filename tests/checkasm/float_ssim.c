/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * float_ssim: CUDA against the CPU. Two runs of the matrix: from the
 * feature's minimum (11x11) with the options that keep the scale from
 * the picture size (1 on small pictures, 4 and 8 at 1080p and 2160p), and
 * from 35x35 with explicit scales 2 and 3 (the box decimation at an even
 * and an odd factor, and its parity column of odd widths), the smallest
 * size at which both still leave the 11x11 window.
 */

#include "tests/checkasm/checkasm.h"

static const char *const ssim_opts[] = {
    "",
    "enable_lcs=true",
    "enable_db=true:clip_db=true",
    "scale=1:enable_lcs=true:enable_db=true",
    NULL,
};

static const CaSize ssim_sizes[] = {
    { 11, 11 }, { 12, 11 }, { 11, 14 }, { 13, 21 }, { 0, 0 },
};

static const char *const ssim_scale_opts[] = {
    "scale=2",
    "scale=3:enable_lcs=true",
    "scale=2:enable_lcs=true:enable_db=true",
    NULL,
};

static const CaSize ssim_scale_sizes[] = {
    { 35, 35 },
    { 36, 37 },
    { 39, 40 },
    { 0, 0 },
};

void checkasm_check_float_ssim(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_ssim", ssim, 11, 11, 2),
    };
    static const CaFeature fs = {
        CA_FEATURE("float_ssim", ssim_scale, 35, 35, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/float_ssim.c: the convolutions,
     * the decimation, in place for the scale) */
    static const char *const keys[] = {
        "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL,
    };
    static const CaSize sizes[] = {
        { 37, 35 },
        { 67, 41 },
        { 130, 37 },
        { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 0 };
    static const CaBuilds b[] = {
        { .name = "float_ssim",
          .opts = "enable_lcs=true:scale=1",
          .keys = keys,
          .sizes = sizes,
          .depths = depths },
        { .name = "float_ssim",
          .opts = "enable_lcs=true:scale=2",
          .keys = keys,
          .sizes = sizes,
          .depths = depths },
        { .name = "float_ssim",
          .opts = "enable_lcs=true:scale=3",
          .keys = keys,
          .sizes = sizes,
          .depths = depths },
    };

    ca_check_feature(&f);
    ca_check_feature(&fs);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
