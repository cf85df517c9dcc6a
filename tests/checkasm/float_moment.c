/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float moments (cpu/float_moment.c, gpu/float_moment.c): any size
 * from 1x1; the big 16-bit case (3840x2160, above 2^21 samples) and
 * 1449x1449 at 16 bits run the device's in-order sums, every other case
 * the integer ones (common/features/float_moment_params.h).
 */

#include "tests/checkasm/checkasm.h"

/* no options in libvmaf v3.2.0 */
static const char *const float_moment_opts[] = { "", NULL };

static const CaSize float_moment_sizes[] = {
    { 1, 1 }, { 2, 5 }, { 3, 2 }, { 17, 9 }, { 1449, 1449 }, { 0, 0 },
};

void checkasm_check_float_moment(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_moment", float_moment, 1, 1, 2),
    };

    ca_check_feature(&f);
}
