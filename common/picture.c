/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/picture.h"

enum VgImageLayout vg_pix_fmt_layout(enum VgPixFmt fmt)
{
    switch (fmt) {
    case VG_PIX_FMT_YUV422P:
    case VG_PIX_FMT_NV16:
    case VG_PIX_FMT_P216:
        return VG_LAYOUT_422;
    case VG_PIX_FMT_YUV444P:
    case VG_PIX_FMT_YUV444P_MSB:
        return VG_LAYOUT_444;
    case VG_PIX_FMT_YUV400P:
        return VG_LAYOUT_400;
    default:
        return VG_LAYOUT_420;
    }
}

int vg_pix_fmt_is_semiplanar(enum VgPixFmt fmt)
{
    return fmt == VG_PIX_FMT_NV12 || fmt == VG_PIX_FMT_P010 ||
           fmt == VG_PIX_FMT_P016 || fmt == VG_PIX_FMT_NV16 ||
           fmt == VG_PIX_FMT_P216;
}

int vg_pix_fmt_is_msb(enum VgPixFmt fmt)
{
    return fmt == VG_PIX_FMT_P010 || fmt == VG_PIX_FMT_P016 ||
           fmt == VG_PIX_FMT_P216 || fmt == VG_PIX_FMT_YUV444P_MSB;
}

static void copy_plane(void *dst, ptrdiff_t ds, const void *src, ptrdiff_t ss,
                       size_t row_bytes, unsigned h)
{
    for (unsigned i = 0; i < h; i++)
        memcpy((uint8_t *)dst + i * ds, (const uint8_t *)src + i * ss,
               row_bytes);
}

/* high-bit-aligned 16-bit words (P010/P016/P216/YUV444P_MSB) down to LSB-aligned samples */
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

    if (src->fmt == VG_PIX_FMT_YUV444P_MSB) {
        for (unsigned p = 0; p < dst->nb_planes; p++)
            shift_plane(dst->data[p], dst->stride[p], src->data[p],
                        src->stride[p], dst->w[p], dst->h[p], 16 - dst->bpc);
        return;
    }

    if (!vg_pix_fmt_is_semiplanar(src->fmt)) {
        for (unsigned p = 0; p < dst->nb_planes; p++)
            copy_plane(dst->data[p], dst->stride[p], src->data[p],
                       src->stride[p], (size_t)dst->w[p] * bps, dst->h[p]);
        return;
    }

    if (src->fmt == VG_PIX_FMT_NV12 || src->fmt == VG_PIX_FMT_NV16) {
        copy_plane(dst->data[0], dst->stride[0], src->data[0], src->stride[0],
                   dst->w[0], dst->h[0]);
        for (unsigned i = 0; i < dst->h[1]; i++) {
            const uint8_t *s =
                (const uint8_t *)src->data[1] + i * src->stride[1];
            uint8_t *u = (uint8_t *)dst->data[1] + i * dst->stride[1];
            uint8_t *v = (uint8_t *)dst->data[2] + i * dst->stride[2];
            for (unsigned j = 0; j < dst->w[1]; j++) {
                u[j] = s[2 * j];
                v[j] = s[2 * j + 1];
            }
        }
        return;
    }

    /* P010 / P016 / P216: samples in the high bits of 16-bit words */
    const unsigned shift = 16 - dst->bpc;
    shift_plane(dst->data[0], dst->stride[0], src->data[0], src->stride[0],
                dst->w[0], dst->h[0], shift);
    for (unsigned i = 0; i < dst->h[1]; i++) {
        const uint16_t *s = (const uint16_t *)((const uint8_t *)src->data[1] +
                                               i * src->stride[1]);
        uint16_t *u =
            (uint16_t *)((uint8_t *)dst->data[1] + i * dst->stride[1]);
        uint16_t *v =
            (uint16_t *)((uint8_t *)dst->data[2] + i * dst->stride[2]);
        for (unsigned j = 0; j < dst->w[1]; j++) {
            u[j] = s[2 * j] >> shift;
            v[j] = s[2 * j + 1] >> shift;
        }
    }
}

int vg_picture_can_overflow(enum VgPixFmt fmt, unsigned bitdepth)
{
    return !vg_pix_fmt_is_semiplanar(fmt) && !vg_pix_fmt_is_msb(fmt) &&
           bitdepth > 8 && bitdepth < 16;
}

int vg_picture_range_error(VgLog *log, const char *which, unsigned index,
                           unsigned plane, unsigned value, unsigned bitdepth,
                           int x, int y)
{
    static const char *const names[] = { "Y", "Cb", "Cr" };
    char at[48] = "";

    if (x >= 0)
        snprintf(at, sizeof(at), " at (%d, %d)", x, y);
    vg_log(log, VG_LOG_ERROR,
           "%s picture, frame %u, plane %u (%s): sample %u%s "
           "exceeds the %u-bit maximum %u",
           which, index, plane, plane < 3 ? names[plane] : "?", value, at,
           bitdepth, (1u << bitdepth) - 1);
    return -EINVAL;
}

int vg_picture_check_range(const VgPicture *pic, const char *which,
                           unsigned index, int ceil_chroma, VgLog *log)
{
    const enum VgImageLayout layout = vg_pix_fmt_layout(pic->fmt);
    const unsigned planes = layout == VG_LAYOUT_400 ? 1 : 3;
    const uint16_t over = (uint16_t)(0xffffu << pic->bitdepth);
    unsigned ssx, ssy;

    if (!vg_picture_can_overflow(pic->fmt, pic->bitdepth))
        return 0;
    vg_layout_shifts(layout, &ssx, &ssy);
    for (unsigned p = 0; p < planes; p++) {
        /* the floor-sized planes of vg_image_geometry(), or the ceil-sized
         * ones a scaled picture is read with */
        const unsigned cx = ceil_chroma ? (1u << ssx) - 1 : 0;
        const unsigned cy = ceil_chroma ? (1u << ssy) - 1 : 0;
        const unsigned w = p ? (pic->width + cx) >> ssx : pic->width;
        const unsigned h = p ? (pic->height + cy) >> ssy : pic->height;
        const uint8_t *base = pic->data[p];
        uint16_t acc = 0;

        for (unsigned i = 0; i < h; i++) {
            const uint16_t *row =
                (const uint16_t *)(base + (ptrdiff_t)i * pic->stride[p]);
            for (unsigned j = 0; j < w; j++)
                acc |= row[j];
        }
        if (!(acc & over))
            continue;
        for (unsigned i = 0; i < h; i++) {
            const uint16_t *row =
                (const uint16_t *)(base + (ptrdiff_t)i * pic->stride[p]);
            for (unsigned j = 0; j < w; j++)
                if (row[j] & over)
                    return vg_picture_range_error(log, which, index, p, row[j],
                                                  pic->bitdepth, (int)j,
                                                  (int)i);
        }
    }
    return 0;
}
