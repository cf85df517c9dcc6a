/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Scaling of a distorted picture to the reference's size, sample for
 * sample as libswscale (FFmpeg 7.1 to 9.0) scales a picture of the same
 * format with `<algorithm>|SWS_ACCURATE_RND|SWS_BITEXACT`, centred chroma
 * and no range conversion, on an x86-64 host:
 *
 * - the filters are libswscale's utils.c initFilter() (16.16 positions,
 *   the kernels in 2^54-scaled fixed point or double, the near-zero taps
 *   cut, the borders folded in, the rows normalised to 2^14 horizontally
 *   and 2^12 vertically with the rounding error carried along the row),
 *   with the tap alignment of its x86 builds (4 horizontally, 2
 *   vertically, 1 for a one-tap vertical filter);
 * - the horizontal pass is swscale.c hScale8To15_c() / hScale16To15_c():
 *   each source row into 15-bit signed intermediates,
 *   min(sum >> (bpc - 1), 32767);
 * - the vertical pass is output.c yuv2planeX_8_c(), yuv2nv12cX_c() and
 *   the 9..14-bit yuv2planeX/yuv2p01x/yuv2msbplaneX templates:
 *   clip((2^(26 - bpc) + sum) >> (27 - bpc)) (a one-tap filter, always
 *   2^12, gives their yuv2plane1 results). An 8-bit source into an 8-bit
 *   output is not dithered (flat64).
 *
 * Planes are processed apart, after the semi-planar and high-bit-aligned
 * formats are unpacked, as libswscale's input converters do: the internal
 * LSB-aligned planes (common/image.h) are its intermediate lines. Chroma
 * is ceil-sized on both sides (AV_CEIL_RSHIFT), as in libswscale.
 *
 * The tables are built once on the host (this file); the host pass below
 * is the reference the CUDA kernels (gpu/core/scale.cu) equal.
 */

#ifndef VG_COMMON_SCALE_H
#define VG_COMMON_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "vmafgpu.h"
#include "common/image.h"
#include "common/log.h"

/** Deepest picture scaled (libswscale's 15-bit intermediates). */
#define VG_SCALE_MAX_BPC 14

/** Most taps of one filter row (libswscale cascades from 170 on x86-64). */
#define VG_SCALE_MAX_TAPS 169

/** One axis of one plane kind: the taps of every output sample. */
typedef struct VgScaleFilter {
    unsigned n_in;  ///< input samples
    unsigned n_out; ///< output samples
    unsigned size;  ///< taps per output sample
    int32_t *pos;   ///< first input sample of each output, n_out
    int16_t *coef;  ///< n_out * size taps; those past n_in are 0 and
                    ///< never read (libswscale's padded lines)
} VgScaleFilter;

/** A distorted picture's scaling, for one size pair and format. */
typedef struct VgScaler {
    enum VgScale alg;
    enum VgImageLayout layout;
    unsigned bpc;
    unsigned src_w, src_h;    ///< distorted size
    unsigned dst_w, dst_h;    ///< reference size
    VgScaleFilter h[2], v[2]; ///< [0] luma, [1] chroma (ceil-sized planes)
    /** Only the luma plane is scaled (no feature reads chroma); the
     *  destination's chroma planes are left as they are. Set by the caller
     *  after vg_scaler_init(). */
    int luma_only;
} VgScaler;

/**
 * Build the filters. Refuses (logged) with -EINVAL an algorithm out of
 * range, a depth above VG_SCALE_MAX_BPC and a ratio beyond libswscale's
 * (a 16.16 step below 10), and with -ERANGE a shrink that needs more than
 * VG_SCALE_MAX_TAPS taps (libswscale scales those in several passes).
 * @return 0, -EINVAL, -ERANGE, -ENOMEM
 */
int vg_scaler_init(VgScaler *s, enum VgScale alg, enum VgImageLayout layout,
                   unsigned bpc, unsigned src_w, unsigned src_h, unsigned dst_w,
                   unsigned dst_h, VgLog *log);

/** Free the filters; s may be zeroed or half-initialised. */
void vg_scaler_uninit(VgScaler *s);

/**
 * The geometry of the distorted source image (data unset): like
 * vg_image_geometry(), with ceil-sized chroma.
 * @return bytes of one contiguous allocation
 */
size_t vg_scaler_src_geometry(const VgScaler *s, VgImage *img);

/** Bytes of the intermediate rows vg_scaler_run() needs. */
size_t vg_scaler_tmp_size(const VgScaler *s);

/**
 * Scale the source image src (vg_scaler_src_geometry()) into dst, an
 * image of the reference's size (vg_image_geometry(), floor-sized chroma:
 * the first of libswscale's ceil-sized chroma columns and rows), through
 * tmp (vg_scaler_tmp_size() bytes). Host memory.
 */
void vg_scaler_run(const VgScaler *s, VgImage *dst, const VgImage *src,
                   int16_t *tmp);

#endif /* VG_COMMON_SCALE_H */
