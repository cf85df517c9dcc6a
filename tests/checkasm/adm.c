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
        .name = "adm",
        .min_w = 33,
        .min_h = 33,
        .frames = 2,
        .opts = adm_opts,
        .sizes = adm_sizes,
    };

    ca_check_feature(&f);
}
