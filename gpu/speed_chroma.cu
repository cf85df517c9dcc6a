/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * speed_chroma's kernels: SpEED's picture-sized steps, shared with
 * speed_temporal (gpu/speed.cuh, which describes them and their
 * exactness), launched on four pictures at once: the U and V planes of
 * the reference and the distorted image.
 */

#include "gpu/speed.cuh"
