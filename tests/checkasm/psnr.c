/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: integer PSNR (cpu/psnr.c, gpu/psnr.c). Any size from 1x1, so
 * its strips are one row and one column; chroma planes of 4:2:0 and 4:2:2
 * strips can be empty.
 */

#include "tests/checkasm/checkasm.h"

static const char *const psnr_opts[] = {
    "",
    "enable_mse=true",
    "enable_chroma=false",
    "reduced_hbd_peak=true:enable_mse=true",
    "min_sse=100:enable_mse=true",
    NULL,
};

static const CaSize psnr_sizes[] = {
    { 1, 1 }, { 2, 5 }, { 3, 2 }, { 17, 9 }, { 0, 0 },
};

void checkasm_check_psnr(void)
{
    static const CaFeature f = {
        CA_FEATURE("psnr", psnr, 1, 1, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/psnr.c), the MSEs among them */
    static const char *const keys[] = {
        "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", NULL,
    };
    static const CaSize sizes[] = {
        { 3, 3 }, { 17, 5 }, { 67, 41 }, { 1923, 6 }, { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 16, 0 };
    static const CaBuilds b = {
        .name = "psnr",
        .opts = "enable_mse=true",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    ca_check_feature(&f);
    ca_check_builds(&b);
}
