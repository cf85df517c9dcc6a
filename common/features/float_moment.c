/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Float moments' descriptor and finish, as libvmaf v3.2.0
 * src/feature/float_moment.c: no options, every bit depth, luma only.
 */

#include "common/features/float_moment.h"

/* clang-format off */
static const VgFeatureOutput float_moment_outputs[] = {
    [VG_FLOAT_MOMENT_OUT_REF1ST] = { "float_moment_ref1st", NULL, 0 },
    [VG_FLOAT_MOMENT_OUT_DIS1ST] = { "float_moment_dis1st", NULL, 0 },
    [VG_FLOAT_MOMENT_OUT_REF2ND] = { "float_moment_ref2nd", NULL, 0 },
    [VG_FLOAT_MOMENT_OUT_DIS2ND] = { "float_moment_dis2nd", NULL, 0 },
    { NULL }
};
/* clang-format on */

int vg_float_moment_emit(VgFeatureCtx *fc, unsigned index, const double sum[4])
{
    /* moment.c: cum /= (w * h), an int product */
    const int n = (int)fc->width * (int)fc->height;
    int ret;

    for (unsigned k = 0; k < 4; k++)
        if ((ret = vg_feature_emit(fc, VG_FLOAT_MOMENT_OUT_REF1ST + k, index,
                                   sum[k] / n)) < 0)
            return ret;
    return 0;
}

const VgFeatureDesc vg_feature_float_moment = {
    VG_FEATURE_DESC(float_moment),
};
