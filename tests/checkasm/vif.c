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
        CA_FEATURE("vif", vif, 16, 16, 3),
    };

    /* the AVX2 and AVX-512 builds (cpu/vif_tmpl.c: the compiler's
     * vectors and the multiply-add kernels), every scale's num and den;
     * 48 and 80 columns end the 32-column kernels' steps with 16 */
    static const char *const keys[] = {
        "integer_vif_scale0",
        "integer_vif_scale1",
        "integer_vif_scale2",
        "integer_vif_scale3",
        "integer_vif_num_scale0",
        "integer_vif_den_scale0",
        "integer_vif_num_scale1",
        "integer_vif_den_scale1",
        "integer_vif_num_scale2",
        "integer_vif_den_scale2",
        "integer_vif_num_scale3",
        "integer_vif_den_scale3",
        NULL,
    };
    static const CaSize sizes[] = {
        { 16, 16 }, { 17, 19 }, { 31, 18 },  { 33, 47 },   { 48, 20 },
        { 67, 41 }, { 80, 26 }, { 130, 33 }, { 1923, 24 }, { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 12, 16, 0 };
    static const CaBuilds b = {
        .name = "vif",
        .opts = "debug=true",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    ca_check_feature(&f);
    ca_check_builds(&b);
}
