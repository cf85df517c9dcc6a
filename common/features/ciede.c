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
 * plane); even sizes are libvmaf's exactly. doc/features.md says the same.
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
#include "common/features/ciede_params.h"

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

int vg_ciede_host_powf_agrees(void)
{
    /* x, then glibc's powf(x, 7): the float next to x^7's nearest one */
    static const float miss[][2] = {
        { 0x1.062afcp-10f, 0x1.2e6caap-70f }, { 0x1.062b4cp-10f, 0x1.2e6f3p-70f },
        { 0x1.7ae53ep-2f, 0x1.f1dbdap-11f }, { 0x1.7aef22p-2f, 0x1.f236dap-11f },
        { 0x1.0021a8p+0f, 0x1.00ebf6p+0f }, { 0x1.003a7cp+0f, 0x1.019a7ep+0f },
        { 0x1.a674a4p+1f, 0x1.0a9c66p+12f }, { 0x1.a6b3fp+1f, 0x1.0bb484p+12f },
        { 0x1.10056ep+4f, 0x1.878b0ap+28f }, { 0x1.10060cp+4f, 0x1.879142p+28f },
        { 0x1.e4048p+6f, 0x1.5977e2p+48f }, { 0x1.e44e4p+6f, 0x1.5ae904p+48f },
        { 0x1.f3c75cp+9f, 0x1.b056dep+69f }, { 0x1.f3c99ap+9f, 0x1.b06472p+69f },
    };
    const uint32_t lo = vg_ciede_fbits(VG_CIEDE_POWF7_MIN);
    const uint32_t hi = vg_ciede_fbits(VG_CIEDE_POWF7_MAX);
    /* volatile: the call itself, as cpu/ciede.c makes it */
    volatile float seven = 7;

    for (unsigned i = 0; i < 4096 + 14; i++) {
        const float x = i < 4096 ?
            vg_ciede_bitsf(lo + (uint32_t)((uint64_t)(hi - lo) * i / 4096)) :
            miss[i - 4096][0];
        const float r = powf(x, seven);
        float a, b;

        /* glibc's misses: test_ciede_powf checked every float against
         * glibc's powf only; a libm that rounds these otherwise is not
         * known to agree elsewhere */
        if (i >= 4096 && vg_ciede_fbits(r) != vg_ciede_fbits(miss[i - 4096][1]))
            return 0;
        if (!vg_ciede_powf7(x, &a, &b) ||
            (vg_ciede_fbits(r) != vg_ciede_fbits(a) &&
             vg_ciede_fbits(r) != vg_ciede_fbits(b)))
            return 0;
    }
    return 1;
}
