/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The one translation unit built into the library's fatbin
 * (gpu/Makefile.inc): every kernel file of gpu/, so that one
 * cuModuleLoadData() per engine loads them all.
 */

#include "gpu/picture.cu"
#include "gpu/adm.cu"
#include "gpu/motion.cu"
#include "gpu/psnr.cu"
#include "gpu/vif.cu"
