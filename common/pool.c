/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Pooling of per-frame scores, as libvmaf v3.2.0 src/libvmaf.c
 * vmaf_feature_score_pooled(): one pass in index order with double
 * accumulators; mean = sum / n; harmonic mean = n / sum(1 / (s + 1)) - 1;
 * min / max start at the first pooled frame and take strictly smaller /
 * larger values (so NaN never replaces them).
 */

#include <errno.h>

#include "common/pool.h"

int vg_pool(VgCollector *c, int key, unsigned n_frames, unsigned subsample,
            enum VgPool method, double *score)
{
    unsigned n = 0;
    double min = 0., max = 0., sum = 0., i_sum = 0.;

    if (!c || !score || !n_frames)
        return -EINVAL;
    if (method != VG_POOL_MEAN && method != VG_POOL_HARMONIC_MEAN &&
        method != VG_POOL_MIN && method != VG_POOL_MAX)
        return -EINVAL;

    for (unsigned i = 0; i < n_frames; i++) {
        double s;
        int ret;

        if (subsample > 1 && i % subsample)
            continue;
        n++;
        if ((ret = vg_collector_get(c, key, i, &s)) < 0)
            return ret;
        sum += s;
        i_sum += 1. / (s + 1.);
        if (i == 0 || s < min)
            min = s;
        if (i == 0 || s > max)
            max = s;
    }

    switch (method) {
    case VG_POOL_MEAN:
        *score = sum / n;
        break;
    case VG_POOL_MIN:
        *score = min;
        break;
    case VG_POOL_MAX:
        *score = max;
        break;
    case VG_POOL_HARMONIC_MEAN:
        *score = n / i_sum - 1.0;
        break;
    }
    return 0;
}
