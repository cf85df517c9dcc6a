/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float ADM (cpu/float_adm.c, gpu/float_adm.c), from its
 * smallest accepted size (17x17: bands of 2 samples at scale 3) over sizes
 * whose bands end on odd samples or whose regions reach the band edges
 * (bands under 15 samples, where the masking mirrors its neighbours), with
 * each CSF mode and the options that change the arithmetic. adm_p_norm
 * other than 3 runs the CPU implementation under the CUDA backend too
 * (gpu/float_adm.c float_adm_usable()): the case checks that fallback.
 */

#include "tests/checkasm/checkasm.h"

static const char *const float_adm_opts[] = {
    "",
    "debug=true",
    "debug=true:adm_enhn_gain_limit=1.0",
    "debug=true:adm_skip_scale0=true",
    "adm_bypass_cm=1:adm_adm3_apply_hm=true",
    "adm_norm_view_dist=1.5:adm_ref_display_height=2160:adm_skip_aim_scale=1",
    "adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.75",
    "adm_csf_mode=2:adm_dlm_weight=0.25:adm_min_val=0.3",
    "adm_f1s0=0.5:adm_f2s3=2:adm_noise_weight=0",
    "debug=true:adm_p_norm=2.5",
    NULL,
};

static const CaSize float_adm_sizes[] = {
    { 17, 17 }, { 18, 19 }, { 31, 33 }, { 29, 150 }, { 161, 17 }, { 0, 0 },
};

void checkasm_check_float_adm(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_adm", float_adm, 17, 17, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/float_adm.c: the masking), with
     * the cube and with another exponent, and with the masking bypassed */
    static const char *const keys[] = {
        "adm2",       "aim",        "adm3",       "adm_scale0",
        "adm_scale1", "adm_scale2", "adm_scale3", NULL,
    };
    static const CaSize sizes[] = {
        { 33, 33 },
        { 67, 41 },
        { 130, 45 },
        { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 0 }, depth8[] = { 8, 0 };
    static const CaBuilds b[] = {
        { .name = "float_adm", .keys = keys, .sizes = sizes, .depths = depths },
        { .name = "float_adm",
          .opts = "adm_p_norm=2.5",
          .keys = keys,
          .suffix = "_apn_2.5",
          .sizes = sizes,
          .depths = depth8 },
        { .name = "float_adm",
          .opts = "adm_bypass_cm=1",
          .keys = keys,
          .suffix = "_bcm_1",
          .sizes = sizes,
          .depths = depth8 },
    };

    ca_check_feature(&f);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
