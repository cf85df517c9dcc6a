/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Internal picture: planar, samples LSB-aligned (uint8_t for 8-bit,
 * uint16_t for 9..16-bit), chroma planes floor-sized like libvmaf's
 * VmafPicture (w >> ss_x, h >> ss_y). Host or device memory.
 */

#ifndef VG_COMMON_IMAGE_H
#define VG_COMMON_IMAGE_H

#include <stddef.h>
#include <stdint.h>

enum VgImageLayout {
    VG_LAYOUT_420 = 0,
    VG_LAYOUT_422,
    VG_LAYOUT_444,
    VG_LAYOUT_400,
};

typedef struct VgImage {
    enum VgImageLayout layout;
    unsigned bpc;        ///< 8..16
    unsigned w[3], h[3]; ///< plane sizes (chroma floor-sized)
    ptrdiff_t stride[3]; ///< bytes
    void *data[3];       ///< host pointers, or device pointers (gpu/)
    unsigned nb_planes;  ///< 1 or 3
} VgImage;

/** Bytes per sample. */
static inline unsigned vg_image_bps(const VgImage *img)
{
    return img->bpc > 8 ? 2 : 1;
}

/** Chroma subsampling shifts of a layout. */
static inline void vg_layout_shifts(enum VgImageLayout l, unsigned *ssx,
                                    unsigned *ssy)
{
    *ssx = l == VG_LAYOUT_420 || l == VG_LAYOUT_422;
    *ssy = l == VG_LAYOUT_420;
}

/**
 * Fill sizes, strides (rounded up to 64 bytes) for a layout; data unset.
 * @return total bytes needed for one contiguous allocation.
 */
size_t vg_image_geometry(VgImage *img, enum VgImageLayout layout, unsigned bpc,
                         unsigned w, unsigned h);

/**
 * Set the strides of img's planes from their sizes (rounded up to 64
 * bytes), as vg_image_geometry() does; for an image whose plane sizes the
 * caller changed. @return total bytes, as vg_image_geometry().
 */
size_t vg_image_strides(VgImage *img);

/**
 * Point the planes of img (geometry filled) at consecutive areas from
 * base: stride * height bytes each (stride bytes for an empty plane), as
 * vg_image_geometry() counts them. Host or device addresses.
 */
void vg_image_place(VgImage *img, uintptr_t base);

/** Allocate a zeroed host image. */
int vg_image_alloc(VgImage *img, enum VgImageLayout layout, unsigned bpc,
                   unsigned w, unsigned h);

/** Free a host image from vg_image_alloc(). */
void vg_image_free(VgImage *img);

#endif /* VG_COMMON_IMAGE_H */
