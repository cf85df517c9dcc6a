/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: integer motion (cpu/motion.c, gpu/motion.c). Six frames per
 * case: the five-frame window has its first score at frame 2 and full
 * windows from frame 4 on, and motion2/motion3 of the last frame come
 * from the end of the stream.
 */

#include "tests/checkasm/checkasm.h"

static const char *const motion_opts[] = {
    "",
    "debug=true",
    "debug=true:motion_five_frame_window=true",
    "motion_moving_average=true:motion_blend_factor=0.5:motion_blend_offset=5",
    "motion_five_frame_window=true:motion_moving_average=true",
    "motion_fps_weight=2.5:motion_max_val=4",
    "motion_force_zero=true:debug=true",
    NULL,
};

/* the 5-tap filter's mirrors at 3 samples, one more, one line more */
static const CaSize motion_sizes[] = {
    { 3, 3 }, { 4, 3 }, { 3, 5 }, { 5, 4 }, { 17, 9 }, { 0, 0 },
};

void checkasm_check_motion(void)
{
    static const CaFeature f = {
        CA_FEATURE("motion", motion, 3, 3, 6),
    };

    /* the AVX2 and AVX-512 builds' SAD (cpu/motion.c) */
    static const char *const keys[] = {
        "VMAF_integer_feature_motion_sad_score",
        NULL,
    };
    static const CaSize sizes[] = {
        { 3, 3 },   { 4, 5 },    { 5, 3 },    { 7, 9 }, { 17, 5 },
        { 67, 41 }, { 130, 33 }, { 1923, 6 }, { 0, 0 },
    };
    static const unsigned depths[] = { 8, 10, 12, 16, 0 };
    static const CaBuilds b = {
        .name = "motion",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    ca_check_feature(&f);
    ca_check_builds(&b);
}
