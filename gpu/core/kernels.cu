/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The one translation unit built into the library's fatbin
 * (gpu/Makefile.inc): the picture conversion, the scaling of distorted
 * pictures (gpu/core/scale.cu), the sequential sums (gpu/core/seqsum.cu,
 * gpu/core/f32sum.cu) and every feature's kernels (gpu/kernels_list.cuh,
 * generated from common/features/list.h), so that one cuModuleLoadData()
 * per device loads them all.
 */

#include "gpu/core/picture.cu"
#include "gpu/core/scale.cu"
#include "gpu/core/seqsum.cu"
#include "gpu/core/f32sum.cu"
#include "gpu/kernels_list.cuh"
