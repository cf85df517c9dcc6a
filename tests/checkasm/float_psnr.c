/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float PSNR (cpu/float_psnr.c, gpu/float_psnr.c): any size from
 * 1x1; the big 16-bit case (3840x2160, above 2^21 samples) and 1449x1449
 * at 16 bits run the device's in-order sum, every other case the integer
 * one (common/features/float_moment_params.h).
 */

#include "tests/checkasm/checkasm.h"

/* no options in libvmaf v3.2.0 */
static const char *const float_psnr_opts[] = { "", NULL };

static const CaSize float_psnr_sizes[] = {
    { 1, 1 }, { 2, 5 }, { 3, 2 }, { 17, 9 }, { 1449, 1449 }, { 0, 0 },
};

void checkasm_check_float_psnr(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_psnr", float_psnr, 1, 1, 2),
    };

    ca_check_feature(&f);
}
