/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Host picture conversion: a caller's VgPicture (planar, NV12/NV16,
 * P010/P016/P216, planar MSB-aligned; host memory) into an internal planar LSB-aligned VgImage.
 */

#ifndef VG_COMMON_PICTURE_H
#define VG_COMMON_PICTURE_H

#include "vmafgpu.h"
#include "common/image.h"
#include "common/log.h"

/** Internal layout of a picture format. */
enum VgImageLayout vg_pix_fmt_layout(enum VgPixFmt fmt);

/** @return 1 for NV12/P010/P016/NV16/P216. */
int vg_pix_fmt_is_semiplanar(enum VgPixFmt fmt);

/**
 * @return 1 for the formats with their samples in the high bits of 16-bit
 *         words (P010/P016/P216/YUV444P_MSB), shifted down on conversion.
 */
int vg_pix_fmt_is_msb(enum VgPixFmt fmt);

/** Copy/convert host picture src into dst (allocated with its geometry). */
void vg_picture_to_image(VgImage *dst, const VgPicture *src);

/**
 * @return 1 if pictures of this format and bit depth can hold a sample
 *         above the bit depth's maximum (planar 9..15 bit: a 16-bit word
 *         with more bits set), else 0. Semi-planar words are shifted down,
 *         8- and 16-bit samples fill their words: those are never out of
 *         range.
 */
int vg_picture_can_overflow(enum VgPixFmt fmt, unsigned bitdepth);

/**
 * Check that no sample of host picture pic (already validated) exceeds
 * (1 << bitdepth) - 1, over the samples the library reads: one pass
 * OR-ing each plane's words, a second one only to locate a bad sample.
 * @param which  "reference" or "distorted", for the message
 * @param index  frame index, for the message
 * @param ceil_chroma  read ceil-sized chroma planes (a distorted picture
 *                     to scale, common/scale.h) instead of floor-sized ones
 * @return 0, or -EINVAL (logged by vg_picture_range_error())
 */
int vg_picture_check_range(const VgPicture *pic, const char *which,
                           unsigned index, int ceil_chroma, VgLog *log);

/**
 * Log and return the refusal of a picture with a sample above its bit
 * depth, for every backend: "<which> picture, frame <index>, plane
 * <plane>: sample <value> at (x, y) exceeds the <bitdepth>-bit maximum
 * <max>". x < 0 leaves out the position (a device-side check that only
 * reduced the plane's largest value).
 * @return -EINVAL
 */
int vg_picture_range_error(VgLog *log, const char *which, unsigned index,
                           unsigned plane, unsigned value, unsigned bitdepth,
                           int x, int y);

#endif /* VG_COMMON_PICTURE_H */
