/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: integer ADM (cpu/adm.c, gpu/adm.c), from its smallest accepted
 * size (33x33: five samples at the input of scale 3) over sizes whose DWT
 * bands end on odd samples, with each CSF mode and the options that change
 * the arithmetic (common/adm_tables.h).
 */

#include "tests/checkasm/checkasm.h"

static const char *const adm_opts[] = {
    "",
    "debug=true",
    "debug=true:adm_enhn_gain_limit=1.0",
    "debug=true:adm_skip_scale0=true",
    "debug=true:adm_norm_view_dist=4:adm_ref_display_height=2160",
    "debug=true:adm_csf_mode=1:adm_skip_aim=true",
    "adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.75",
    "adm_csf_mode=2:adm_dlm_weight=0.25",
    "adm_csf_mode=3:adm_noise_weight=0.5:adm_min_val=0.3",
    NULL,
};

static const CaSize adm_sizes[] = {
    { 33, 33 }, { 34, 35 }, { 37, 41 }, { 40, 36 }, { 1023, 34 }, { 0, 0 },
};

void checkasm_check_adm(void)
{
    static const CaFeature f = {
        CA_FEATURE("adm", adm, 33, 33, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/adm_tmpl.c: the compiler's
     * vectors, the AVX-512 decoupling), every scale's num and den, with
     * libvmaf's defaults and the v1 models' options (enhancement gain
     * limit 1, blended CSF) */
    static const char *const keys[] = {
        "integer_adm2",           "integer_aim",
        "integer_adm3",           "integer_adm_num",
        "integer_adm_den",        "integer_adm_num_scale0",
        "integer_adm_den_scale0", "integer_adm_num_scale1",
        "integer_adm_den_scale1", "integer_adm_num_scale2",
        "integer_adm_den_scale2", "integer_adm_num_scale3",
        "integer_adm_den_scale3", NULL,
    };
    static const CaSize sizes[] = {
        { 33, 33 }, { 35, 41 }, { 67, 41 }, { 130, 37 }, { 261, 40 }, { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 12, 16, 0 };
    static const CaBuilds b[] = {
        { .name = "adm",
          .opts = "debug=true",
          .keys = keys,
          .suffix = "",
          .sizes = sizes,
          .depths = depths },
        { .name = "adm",
          .opts = "debug=true:adm_enhn_gain_limit=1.0",
          .keys = keys,
          .suffix = "_egl_1",
          .sizes = sizes,
          .depths = depths },
        { .name = "adm",
          .opts = "debug=true:adm_csf_mode=2:adm_enhn_gain_limit=1.0",
          .keys = keys,
          .suffix = "_csf_2_egl_1",
          .sizes = sizes,
          .depths = depths },
    };

    ca_check_feature(&f);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
