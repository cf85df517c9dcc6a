/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float ANSNR (cpu/float_ansnr.c, gpu/float_ansnr.c): from its
 * minimum 3x3, where the 5x5 filter's mirrored border reaches the far
 * edge of the plane.
 */

#include "tests/checkasm/checkasm.h"

/* no options in libvmaf v3.2.0 */
static const char *const float_ansnr_opts[] = { "", NULL };

static const CaSize float_ansnr_sizes[] = {
    { 3, 3 }, { 4, 3 }, { 3, 6 }, { 5, 5 }, { 17, 9 }, { 0, 0 },
};

void checkasm_check_float_ansnr(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_ansnr", float_ansnr, 3, 3, 2),
    };

    ca_check_feature(&f);
}
