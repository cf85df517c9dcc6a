/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Host picture conversion: a caller's VgPicture (planar, NV12, P010/P016,
 * host memory) into an internal planar LSB-aligned VgImage.
 */

#ifndef VG_COMMON_PICTURE_H
#define VG_COMMON_PICTURE_H

#include "vmafgpu.h"
#include "common/image.h"

/** Internal layout of a picture format. */
enum VgImageLayout vg_pix_fmt_layout(enum VgPixFmt fmt);

/** @return 1 for NV12/P010/P016. */
int vg_pix_fmt_is_semiplanar(enum VgPixFmt fmt);

/** Copy/convert host picture src into dst (allocated with its geometry). */
void vg_picture_to_image(VgImage *dst, const VgPicture *src);

#endif /* VG_COMMON_PICTURE_H */
