/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Pooling over frames, as libvmaf v3.2.0's vmaf_feature_score_pooled().
 */

#ifndef VG_COMMON_POOL_H
#define VG_COMMON_POOL_H

#include "vmafgpu.h"
#include "common/collector.h"

/**
 * Pool metric `key` over frames 0..n_frames-1, skipping i % subsample.
 * @return 0, or -EAGAIN if a value is missing.
 */
int vg_pool(VgCollector *c, int key, unsigned n_frames, unsigned subsample,
            enum VgPool method, double *score);

#endif /* VG_COMMON_POOL_H */
