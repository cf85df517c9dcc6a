/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: float motion (cpu/float_motion.c, gpu/float_motion.c). Five
 * frames per case: motion3 of frame 0 comes from frame 1, motion2 and
 * motion3 of frames 1..3 from two scores, the last frame's from the end
 * of the stream. motion_add_uv and motion_add_scale1 are CPU-only.
 */

#include "tests/checkasm/checkasm.h"

static const char *const float_motion_opts[] = {
    "",
    "debug=false",
    "motion_filter_size=3",
    "motion_filter_size=1",
    "motion_fps_weight=2.5:motion_max_val=4:motion_blend_factor=0.5:"
    "motion_blend_offset=3",
    "motion_force_zero=true",
    NULL,
};

/* the blur's mirrors at 3 samples, one more, one line more; one block of
 * the blur kernels (128 columns) and one column past it */
static const CaSize float_motion_sizes[] = {
    { 3, 3 }, { 4, 3 }, { 3, 5 }, { 5, 4 }, { 17, 9 }, { 129, 7 }, { 0, 0 },
};

void checkasm_check_float_motion(void)
{
    static const CaFeature f = {
        CA_FEATURE("float_motion", float_motion, 3, 3, 5),
    };

    /* the AVX2 and AVX-512 builds (cpu/float_motion.c: the blur), also
     * with the chroma planes and the half scale (4:2:0 pictures narrow
     * enough that libvmaf reads their chroma planes with the right
     * stride) */
    static const char *const keys[] = { "motion", "motion2", NULL };
    static const char *const uv_keys[] = {
        "motion_mdc_mau",
        "motion2_mdc_mau",
        NULL,
    };
    static const CaSize sizes[] = {
        { 5, 5 }, { 19, 11 }, { 67, 41 }, { 130, 45 }, { 0, 0 },
    };
    static const CaSize uv_sizes[] = {
        { 6, 6 }, { 7, 9 }, { 8, 13 }, { 0, 0 }
    };
    static const unsigned depths[] = { 8, 10, 0 }, depth8[] = { 8, 0 };
    static const CaBuilds b[] = {
        { .name = "float_motion",
          .keys = keys,
          .sizes = sizes,
          .depths = depths },
        { .name = "float_motion",
          .opts = "motion_add_uv=true:motion_add_scale1=true",
          .keys = uv_keys,
          .sizes = uv_sizes,
          .depths = depth8 },
    };

    ca_check_feature(&f);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
