/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * CIEDE2000's descriptor and score, as libvmaf v3.2.0
 * src/feature/ciede.c. No options; one output, ciede2000. The per-pixel
 * work (chroma upsampling, YUV to Lab, ΔE00 with kL = 0.65, kC = 1,
 * kH = 4) is cpu/ciede.c.
 *
 * Inputs: 4:2:0, 4:2:2 and 4:4:4 at 8, 10, 12 and 16 bits, the depths
 * ciede.c init()/extract() take; 4:0:0 is refused (ciede.c init() returns
 * -EINVAL: the colour difference needs chroma).
 *
 * Chroma upsampling (ciede.c scale_chroma_planes[_hbd]()): nearest. Luma
 * pixel (x, y) takes chroma
 *  - 4:4:4: (x, y);
 *  - 4:2:0: column x >> 1 of row y >> 1;
 *  - 4:2:2: what ciede.c does, not the 4:2:2 subsampling: it halves the
 *    row, not the column, and walks its 4:4:4-wide row through the
 *    planar picture libvmaf allocates (rows of S = the chroma width
 *    rounded up to 32 samples, samples past the chroma width zero). So
 *    (x, y) takes sample k = (y >> 1) * S + x of that layout: row
 *    (y >> 1) + x / S, column x % S, or 0 where that column is past the
 *    chroma width. golden/hp/r640x360_422p10.json holds exactly this.
 *
 * Odd sizes: our chroma planes are floor-sized, like libvmaf's pictures
 * (common/image.h). In 4:2:0 an odd width or height asks, for the last
 * luma column or row, for chroma column (w - 1) >> 1 = w >> 1 or row
 * h >> 1, one past the plane: ciede.c then reads the stride padding or the
 * next row (last column), and past the end of the V plane's allocation
 * (last row). What it means is the ceil-sized plane's last row and
 * column, which hold the chroma of those luma pixels; floor-sized planes
 * do not keep them, so we take the nearest sample they hold: chroma
 * (min(x >> 1, cw - 1), min(y >> 1, ch - 1)), i.e. the last chroma
 * column and row are repeated for the last luma column and row. In 4:2:2
 * a chroma row past the plane (only with heights 1 and 2, see above) is
 * the plane's last row likewise. Odd-size scores are therefore defined
 * and deterministic, but they are not libvmaf's (which has none: its tool
 * crashes on such a pair, and FFmpeg's libvmaf filter reads past the
 * plane); even sizes are libvmaf's exactly. README.md (Status) says the same.
 *
 * CUDA: gpu/ciede.cu computes each pixel's ΔE00 on the device with the
 * CPU path's bits. Every IEEE-rounded operation is done as cpu/ciede.c
 * does it; the libm calls (pow, exp, sin, cos, atan2 in double, powf in
 * float) are not, as glibc's and CUDA's functions are different
 * approximations that agree only most of the time (glibc's manual,
 * "Known Maximum Errors in Math Functions", does not aim for correct
 * rounding; even glibc's powf(x, 7) misses the correctly rounded float
 * for 0.07% of the floats). So the kernel carries each libm result as an
 * interval that holds glibc's value and settles a float only where the
 * whole interval rounds to it; glibc's powf(x, 7) is settled by a rule
 * tested against glibc on every float of its range
 * (common/features/ciede_params.h, tests/unit/test_ciede_powf.c). The few
 * pixels it cannot settle are finished with the host's libm (gpu/ciede.c).
 * The frame score is the double sum of the float ΔE00 in row-major order,
 * which the device adds in that order (gpu/seqsum.c). The one exact
 * shortcut, ΔE00 = +0 for equal (Y, U, V), is taken on both.
 */

#include <errno.h>
#include <math.h>

#include "common/features/ciede.h"

static const VgFeatureOption ciede_options[] = {
    { NULL }
};

static const VgFeatureOutput ciede_outputs[] = {
    [VG_CIEDE_OUT_CIEDE2000] = { "ciede2000", NULL, 0 },
    { NULL }
};

int vg_ciede_check(VgLog *log, enum VgImageLayout layout, unsigned bpc,
                   unsigned w, unsigned h)
{
    unsigned ssx, ssy;

    if (layout == VG_LAYOUT_400) {
        vg_log(log, VG_LOG_ERROR, "ciede: needs chroma planes; 4:0:0 (gray) "
               "input has none");
        return -EINVAL;
    }
    /* ciede.c init() and extract(): 8, 10, 12 or 16 bits only */
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16) {
        vg_log(log, VG_LOG_ERROR, "ciede: unsupported bit depth %u (8, 10, "
               "12 or 16)", bpc);
        return -EINVAL;
    }
    vg_layout_shifts(layout, &ssx, &ssy);
    if (!(w >> ssx) || !(h >> ssy)) {
        vg_log(log, VG_LOG_ERROR, "ciede: %ux%u %s has an empty chroma plane",
               w, h, layout == VG_LAYOUT_420 ? "4:2:0" : "4:2:2");
        return -EINVAL;
    }
    return 0;
}

double vg_ciede_score(double de00_sum, unsigned w, unsigned h)
{
    return 45. - 20. * log10(de00_sum / (w * h));
}

const VgFeatureDesc vg_feature_ciede = {
    .id = VG_FEATURE_ID_ciede,
    .name = "ciede",
    .options = ciede_options,
    .opts_size = 0,
    .outputs = ciede_outputs,
    .flags = VG_FEATURE_CHROMA,
};
