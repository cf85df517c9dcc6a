/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * speed_temporal's kernels: SpEED's picture-sized steps, shared with
 * speed_chroma (gpu/speed.cuh, which describes them and their
 * exactness), launched on two pictures at once, each the difference of
 * two device luma planes, frame n-1 less frame n, formed as the samples
 * are read (no difference picture is stored).
 */

#include "gpu/speed.cuh"
