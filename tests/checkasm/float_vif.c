/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float VIF (cpu/float_vif.c, gpu/float_vif.c). Two matrices:
 * the option sets whose filters fit the 16x16 minimum, from that minimum
 * over sizes whose scales end on odd samples; then the longer kernels
 * (vif_kernelscale above 1) and the prescale methods, from 56x56, the
 * smallest size the longest kernel (360/97) accepts.
 */

#include "tests/checkasm/checkasm.h"

static const char *const fvif_opts[] = {
    "",
    "debug=true",
    "debug=true:vif_skip_scale0=true",
    "debug=true:vif_enhn_gain_limit=1.0",
    "vif_kernelscale=0.5:debug=true",
    "vif_kernelscale=0.711111:vif_sigma_nsq=0.5",
    "vif_sigma_nsq=0:debug=true",
    "vif_sigma_nsq=5:vif_scale1_min_val=0.9:vif_scale2_min_val=0.95:"
    "vif_scale3_min_val=1",
    "vif_prescale=2:vif_prescale_method=bilinear",
    "vif_prescale=1.5:vif_prescale_method=bicubic:debug=true",
    NULL,
};

static const CaSize fvif_sizes[] = {
    { 16, 16 }, { 17, 19 }, { 16, 33 }, { 35, 16 }, { 1023, 17 }, { 0, 0 },
};

static const char *const fvif_big_opts[] = {
    "vif_kernelscale=2:debug=true",
    "vif_kernelscale=3.0",
    "vif_kernelscale=3.7113402:debug=true:vif_skip_scale0=true",
    "vif_kernelscale=1.06667:vif_enhn_gain_limit=1.5",
    "vif_prescale=0.5",
    "vif_prescale=0.7:vif_prescale_method=bilinear:debug=true",
    "vif_prescale=0.5:vif_prescale_method=bicubic",
    "vif_prescale=1.5:vif_prescale_method=lanczos4:debug=true",
    "vif_prescale=0.3:vif_prescale_method=lanczos4:vif_kernelscale=0.5",
    "vif_prescale=1.3:vif_prescale_method=nearest:vif_kernelscale=1.5",
    NULL,
};

static const CaSize fvif_big_sizes[] = {
    { 56, 56 }, { 57, 59 }, { 56, 121 }, { 119, 56 }, { 1023, 57 }, { 0, 0 },
};

void checkasm_check_float_vif(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_vif", fvif, 16, 16, 2),
    };
    static const CaFeature big = {
        CA_FEATURE("float_vif", fvif_big, 56, 56, 2),
    };

    /* the AVX2 and AVX-512 builds (cpu/float_vif.c), every scale's num
     * and den, also with a gain limit and kernel scale (other filters) */
    static const char *const keys[] = {
        "vif_num_scale0", "vif_den_scale0", "vif_num_scale1",
        "vif_den_scale1", "vif_num_scale2", "vif_den_scale2",
        "vif_num_scale3", "vif_den_scale3", NULL,
    };
    static const CaSize sizes[] = {
        { 41, 37 },
        { 67, 41 },
        { 130, 45 },
        { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 12, 0 }, depth8[] = { 8, 0 };
    static const CaBuilds b[] = {
        { .name = "float_vif",
          .opts = "debug=true",
          .keys = keys,
          .sizes = sizes,
          .depths = depths },
        { .name = "float_vif",
          .opts = "debug=true:vif_enhn_gain_limit=1.0:vif_kernelscale=0.5",
          .keys = keys,
          .suffix = "_egl_1_ks_0.5",
          .sizes = sizes,
          .depths = depth8 },
    };

    ca_check_feature(&f);
    ca_check_feature(&big);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
