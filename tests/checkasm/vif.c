/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: integer VIF (cpu/vif.c, gpu/vif.c), from its smallest
 * accepted size (16x16: exact mirrors at scale 3) over sizes whose scales
 * end on odd samples.
 */

#include "tests/checkasm/checkasm.h"

static const char *const vif_opts[] = {
    "",
    "debug=true",
    "debug=true:vif_enhn_gain_limit=1.0",
    "debug=true:vif_skip_scale0=true",
    "vif_enhn_gain_limit=1.5",
    NULL,
};

static const CaSize vif_sizes[] = {
    { 16, 16 }, { 17, 19 }, { 16, 33 }, { 35, 16 }, { 1023, 17 }, { 0, 0 },
};

void checkasm_check_vif(void)
{
    static const CaFeature f = {
        .name = "vif",
        .min_w = 16,
        .min_h = 16,
        .frames = 3,
        .opts = vif_opts,
        .sizes = vif_sizes,
    };

    ca_check_feature(&f);
}
