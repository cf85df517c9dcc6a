/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * vif_tools.c's filter sizes, Gaussian taps and prescale taps, for
 * float_vif and SpEED (common/features/vif_tools.h).
 */

#include <math.h>
#include <stddef.h>

#include "common/features/vif_tools.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *const vg_vif_prescale_names[] = {
    [VG_VIF_NEAREST] = "nearest",
    [VG_VIF_BILINEAR] = "bilinear",
    [VG_VIF_BICUBIC] = "bicubic",
    [VG_VIF_LANCZOS4] = "lanczos4",
    NULL,
};

/* vif_tools.h valid_kernelscales: float expressions, rounded as there */
static const float valid_kernelscales[] = {
    1.0,           1.0f / 2.0f,    3.0f / 2.0f, 2.0f,         2.0f / 3.0f,
    24.0f / 10.0f, 360.0f / 97.0f, 4.0f / 3.0f, 3.5f / 3.0f,  3.75f / 3.0f,
    4.25f / 3.0f,  5.0f / 3.0f,    3.0f,        1.0f / 2.25f, 1.4746f,
    1.54f,         1.6f,           1.06667f,    0.711111f,    0.740740f,
    1.111111f,
};

int vg_vif_kernelscale_valid(float ks)
{
    for (unsigned i = 0;
         i < sizeof(valid_kernelscales) / sizeof(*valid_kernelscales); i++)
        if (fabsf(ks - valid_kernelscales[i]) < 1e-3)
            return 1;
    return 0;
}

int vg_vif_filter_size(int scale, float ks)
{
    const int n = (1 << (4 - scale)) + 1;
    const int c = (int)ceil(n * ks);
    const int odd = c % 2 == 0 ? c + 1 : c;

    return odd > 3 ? odd : 3;
}

void vg_vif_gaussian(float *out, int n, float stdev)
{
    const int k = (n - 1) / 2;
    float sum = 0;

    for (int i = 0; i < n; i++) {
        const float x = (float)(i - k);
        const float num = exp(-0.5 * x / stdev * x / stdev);
        const float den = 1 / (stdev * sqrt(2 * M_PI));

        out[i] = num / den;
        sum += out[i];
    }
    for (int i = 0; i < n; i++)
        out[i] /= sum;
}

int vg_vif_prescale_taps(enum VgVifPrescale method, int n_in, int n_out, int x,
                         int32_t *idx, float *w)
{
    const float ratio = (float)n_in / n_out;
    const float xx = (x + 0.5) * ratio - 0.5;
    const int x0 = (int)floor(xx);
    const float d = xx - x0;

    switch (method) {
    case VG_VIF_NEAREST:
        idx[0] = (int)(x * ratio);
        return 1;
    case VG_VIF_BILINEAR:
        idx[0] = (int)vg_vif_mirror_f(floor(xx), 0, n_in - 1);
        idx[1] = (int)vg_vif_mirror_f(ceil(xx), 0, n_in - 1);
        w[0] = xx - idx[0];
        return 2;
    case VG_VIF_BICUBIC:
        for (int i = -1; i <= 2; i++) {
            w[i + 1] = vg_vif_bicubic_kernel(i - d);
            idx[i + 1] = (int)vg_vif_mirror_f(x0 + i, 0, n_in - 1);
        }
        return 4;
    default:
        for (int i = -4; i <= 4; i++) {
            w[i + 4] = vg_vif_lanczos4_kernel(i - d, (float)4);
            idx[i + 4] = (int)vg_vif_mirror_f(x0 + i, 0, n_in - 1);
        }
        return 9;
    }
}
