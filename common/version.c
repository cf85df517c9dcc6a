/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * vg_version(): the version of include/vmafgpu.h, which the context, the
 * log writers and the chunk logs print.
 */

#include "vmafgpu.h"

#define VG_STR2(x) #x
#define VG_STR(x) VG_STR2(x)

const char *vg_version(void)
{
    return VG_STR(VG_VERSION_MAJOR) "." VG_STR(VG_VERSION_MINOR) "." VG_STR(
        VG_VERSION_MICRO);
}
