/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Frame reader for the vmafgpu tool: raw planar .yuv (FFmpeg's rawvideo
 * layout) and YUV4MPEG2 (.y4m).
 *
 * Both store chroma planes of ceil(w / 2) x ceil(h / 2) samples for 4:2:0
 * (ceil(w / 2) x h for 4:2:2). The pictures handed out point into one
 * frame buffer with those ceil-sized planes and their strides; the library
 * reads the floor-sized part it needs (libvmaf's picture geometry), so odd
 * sizes stay in sync from frame to frame.
 */

#ifndef VG_TOOLS_YUV_INPUT_H
#define VG_TOOLS_YUV_INPUT_H

#include "vmafgpu.h"

typedef struct YuvInput YuvInput;

/** Geometry of an input. */
typedef struct YuvInputInfo {
    unsigned width, height;
    unsigned bitdepth; ///< 8..16; samples above 8 bits are 16-bit little-endian
    enum VgPixFmt fmt; ///< VG_PIX_FMT_YUV420P, 422P, 444P or 400P
    int is_y4m;
    unsigned fps_num, fps_den; ///< y4m frame rate (F tag); 0/0 when unknown
    size_t frame_size;         ///< bytes of picture data per frame
} YuvInputInfo;

/**
 * Open a raw planar file ("-" = stdin).
 * Logs the reason to stderr and returns a negative errno on failure:
 * unreadable file or a directory, bad size, bit depth outside 8..16,
 * empty file, a regular file shorter than one frame (checked before the
 * frame buffer is allocated) or a frame larger than 2 GiB.
 */
int yuv_input_open_raw(YuvInput **in, const char *path, unsigned width,
                       unsigned height, enum VgPixFmt fmt, unsigned bitdepth);

/**
 * Open a YUV4MPEG2 file ("-" = stdin); geometry comes from its header
 * (W, H, C; C420jpeg/420mpeg2/420/420pN, 422/422pN, 444/444pN, 444alpha,
 * mono/monoN; interlaced material and chroma layouts that would need
 * resampling are refused).
 */
int yuv_input_open_y4m(YuvInput **in, const char *path);

/** Geometry of an open input. */
const YuvInputInfo *yuv_input_info(const YuvInput *in);

/**
 * Read the next frame into pic (valid until the next call or close).
 * @return 1 frame read, 0 end of file (a truncated last frame is ignored
 *         with a warning), negative errno on a read error, a malformed
 *         y4m frame header or a sample above the bit depth (9..15 bits:
 *         -EINVAL, with the frame, plane, position and value) (logged).
 */
int yuv_input_read(YuvInput *in, VgPicture *pic);

/**
 * Skip n frames. From a regular file the samples are seeked over, not read
 * or checked. @return number skipped (stops at end of file or error).
 */
unsigned yuv_input_skip(YuvInput *in, unsigned n);

/** Close and free; *in becomes NULL. */
void yuv_input_close(YuvInput **in);

#endif /* VG_TOOLS_YUV_INPUT_H */
