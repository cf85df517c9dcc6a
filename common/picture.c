/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <string.h>

#include "common/picture.h"

enum VgImageLayout vg_pix_fmt_layout(enum VgPixFmt fmt)
{
    switch (fmt) {
    case VG_PIX_FMT_YUV422P: return VG_LAYOUT_422;
    case VG_PIX_FMT_YUV444P: return VG_LAYOUT_444;
    case VG_PIX_FMT_YUV400P: return VG_LAYOUT_400;
    default:                 return VG_LAYOUT_420;
    }
}

int vg_pix_fmt_is_semiplanar(enum VgPixFmt fmt)
{
    return fmt == VG_PIX_FMT_NV12 || fmt == VG_PIX_FMT_P010 ||
           fmt == VG_PIX_FMT_P016;
}

static void copy_plane(void *dst, ptrdiff_t ds, const void *src, ptrdiff_t ss,
                       size_t row_bytes, unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        memcpy((uint8_t *)dst + i * ds, (const uint8_t *)src + i * ss,
               row_bytes);
}

/* high-bit-aligned 16-bit words (P010/P016) down to LSB-aligned samples */
static void shift_plane(uint16_t *dst, ptrdiff_t ds, const uint16_t *src,
                        ptrdiff_t ss, unsigned w, unsigned h, unsigned shift)
{
    for (unsigned i = 0; i < h; i++) {
        const uint16_t *s = (const uint16_t *)((const uint8_t *)src + i * ss);
        uint16_t *d = (uint16_t *)((uint8_t *)dst + i * ds);
        for (unsigned j = 0; j < w; j++)
            d[j] = s[j] >> shift;
    }
}

void vg_picture_to_image(VgImage *dst, const VgPicture *src)
{
    const unsigned bps = dst->bpc > 8 ? 2 : 1;

    if (!vg_pix_fmt_is_semiplanar(src->fmt)) {
        for (unsigned p = 0; p < dst->nb_planes; p++)
            copy_plane(dst->data[p], dst->stride[p], src->data[p],
                       src->stride[p], (size_t)dst->w[p] * bps, dst->h[p]);
        return;
    }

    if (src->fmt == VG_PIX_FMT_NV12) {
        copy_plane(dst->data[0], dst->stride[0], src->data[0], src->stride[0],
                   dst->w[0], dst->h[0]);
        for (unsigned i = 0; i < dst->h[1]; i++) {
            const uint8_t *s = (const uint8_t *)src->data[1] + i * src->stride[1];
            uint8_t *u = (uint8_t *)dst->data[1] + i * dst->stride[1];
            uint8_t *v = (uint8_t *)dst->data[2] + i * dst->stride[2];
            for (unsigned j = 0; j < dst->w[1]; j++) {
                u[j] = s[2 * j];
                v[j] = s[2 * j + 1];
            }
        }
        return;
    }

    /* P010 / P016: samples in the high bits of 16-bit words */
    const unsigned shift = 16 - dst->bpc;
    shift_plane(dst->data[0], dst->stride[0], src->data[0], src->stride[0],
                dst->w[0], dst->h[0], shift);
    for (unsigned i = 0; i < dst->h[1]; i++) {
        const uint16_t *s = (const uint16_t *)((const uint8_t *)src->data[1] +
                                               i * src->stride[1]);
        uint16_t *u = (uint16_t *)((uint8_t *)dst->data[1] + i * dst->stride[1]);
        uint16_t *v = (uint16_t *)((uint8_t *)dst->data[2] + i * dst->stride[2]);
        for (unsigned j = 0; j < dst->w[1]; j++) {
            u[j] = s[2 * j] >> shift;
            v[j] = s[2 * j + 1] >> shift;
        }
    }
}
