/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: PSNR-HVS (cpu/psnr_hvs.c, gpu/psnr_hvs.c). Every plane needs
 * one 8x8 block, so 4:2:0 needs 16x16 and 4:2:2 16 columns; 4:0:0 and
 * more than 12 bits are refused: those cases check that both backends
 * refuse alike. Sizes around the block grid: one block (8 or 16), the
 * last sample of a row or column left out of every block (15 = 2 * 7 +
 * 1 is the first size with two blocks, 14 has one), a one-block strip.
 */

#include "common/picture.h"
#include "tests/checkasm/checkasm.h"

static const char *const psnr_hvs_opts[] = {
    "",
    NULL,
};

static const CaSize psnr_hvs_sizes[] = {
    { 8, 8 },   { 14, 15 },  { 16, 16 }, { 29, 22 },
    { 30, 31 }, { 16, 100 }, { 0, 0 },
};

static int psnr_hvs_refuses(enum VgPixFmt fmt, unsigned bpc, unsigned w,
                            unsigned h)
{
    const enum VgImageLayout layout = vg_pix_fmt_layout(fmt);
    unsigned ssx, ssy;

    vg_layout_shifts(layout, &ssx, &ssy);
    return bpc > 12 || layout == VG_LAYOUT_400 || (w >> ssx) < 8 ||
           (h >> ssy) < 8;
}

void checkasm_check_psnr_hvs(void)
{
    static const CaFeature f = {
        CA_FEATURE("psnr_hvs", psnr_hvs, 8, 8, 2),
        .refuses = psnr_hvs_refuses,
    };

    ca_check_feature(&f);
}
