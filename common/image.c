/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/image.h"

#define VG_STRIDE_ALIGN 64

size_t vg_image_strides(VgImage *img)
{
    const unsigned bps = vg_image_bps(img);
    size_t total = 0;

    for (unsigned p = 0; p < img->nb_planes; p++) {
        img->stride[p] = ((size_t)img->w[p] * bps + VG_STRIDE_ALIGN - 1) &
                         ~(size_t)(VG_STRIDE_ALIGN - 1);
        if (!img->stride[p])
            img->stride[p] = VG_STRIDE_ALIGN;
        total += (size_t)img->stride[p] * (img->h[p] ? img->h[p] : 1);
    }
    return total;
}

size_t vg_image_geometry(VgImage *img, enum VgImageLayout layout, unsigned bpc,
                         unsigned w, unsigned h)
{
    unsigned ssx, ssy;

    memset(img, 0, sizeof(*img));
    vg_layout_shifts(layout, &ssx, &ssy);
    img->layout = layout;
    img->bpc = bpc;
    img->nb_planes = layout == VG_LAYOUT_400 ? 1 : 3;
    for (unsigned p = 0; p < img->nb_planes; p++) {
        /* chroma planes are floor-sized, as libvmaf's vmaf_picture_alloc */
        img->w[p] = p ? w >> ssx : w;
        img->h[p] = p ? h >> ssy : h;
    }
    return vg_image_strides(img);
}

void vg_image_place(VgImage *img, uintptr_t base)
{
    for (unsigned p = 0; p < img->nb_planes; p++) {
        img->data[p] = (void *)base;
        base += (size_t)img->stride[p] * (img->h[p] ? img->h[p] : 1);
    }
}

int vg_image_alloc(VgImage *img, enum VgImageLayout layout, unsigned bpc,
                   unsigned w, unsigned h)
{
    size_t total = vg_image_geometry(img, layout, bpc, w, h);
    uint8_t *buf;

    buf = aligned_alloc(VG_STRIDE_ALIGN, (total + VG_STRIDE_ALIGN - 1) &
                                             ~(size_t)(VG_STRIDE_ALIGN - 1));
    if (!buf)
        return -ENOMEM;
    memset(buf, 0, total);
    vg_image_place(img, (uintptr_t)buf);
    return 0;
}

void vg_image_free(VgImage *img)
{
    free(img->data[0]);
    memset(img->data, 0, sizeof(img->data));
}
