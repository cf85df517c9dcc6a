/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <stdint.h>

#include "common/cpu.h"
#include "common/fplane.h"

VG_CPU_INLINE void plane_to_float_any(float *dst, ptrdiff_t dst_stride,
                                      const VgImage *img, unsigned plane,
                                      float offset)
{
    const unsigned w = img->w[plane], h = img->h[plane];
    const uint8_t *row = img->data[plane];

    if (img->bpc <= 8) {
        for (unsigned i = 0; i < h;
             i++, row += img->stride[plane], dst += dst_stride)
            for (unsigned j = 0; j < w; j++)
                dst[j] = (float)row[j] + offset;
        return;
    }
    const float scaler = vg_fplane_scaler(img->bpc);
    for (unsigned i = 0; i < h;
         i++, row += img->stride[plane], dst += dst_stride) {
        const uint16_t *s = (const uint16_t *)row;
        for (unsigned j = 0; j < w; j++) {
            const float v = (float)s[j] / scaler;
            dst[j] = v + offset;
        }
    }
}

/* one conversion and one addition per sample: the same floats from every
 * build */
VG_CPU_BUILDS(plane_to_float,
              (float *dst, ptrdiff_t dst_stride, const VgImage *img,
               unsigned plane, float offset),
              (dst, dst_stride, img, plane, offset))

void vg_fplane_dsp_init(VgFplaneDSP *dsp, unsigned flags)
{
    VG_CPU_DSP_SET(dsp->to_float, plane_to_float, flags);
}
