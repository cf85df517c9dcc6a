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
        .name = "psnr",
        .min_w = 1,
        .min_h = 1,
        .frames = 2,
        .opts = psnr_opts,
        .sizes = psnr_sizes,
    };

    ca_check_feature(&f);
}
