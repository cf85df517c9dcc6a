/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: cambi (cpu/cambi.c, gpu/cambi.c). Every size has both sides
 * at least 216 (cambi refuses pictures smaller in both), so the runner's
 * odd sizes are lifted to 218x218, besides 577x323 and the strips 577x216
 * and 216x323; the edge sizes add odd sizes whose coarsest scale ends on
 * a single odd row or column. The random, gradient and ref == dis
 * patterns are replaced by banded pictures (cambi_fill()), which give non-zero
 * c-values at every scale. The option sets cover every option:
 * window and top-k, the visibility thresholds and EOTFs, contrast steps
 * 1..32, the encode size (the nearest-sample resize) and depth (the
 * anti-dithering below 10 bits), full_ref with a source larger than the
 * input, the high-resolution speed-up (1080p and 2160p cases), and a
 * luminance threshold above which every score is 0. Encode sizes are
 * smaller than the smallest case, and a source larger than the input comes
 * with an encode size, so that no case is refused.
 */

#include "tests/checkasm/checkasm.h"

static const char *const cambi_opts[] = {
    "",
    "full_ref=true",
    "window_size=15:topk=0.1:tvi_threshold=0.05",
    "max_log_contrast=5:cambi_vis_lum_threshold=10:eotf=pq",
    "max_log_contrast=0:topk=1:cambi_max_val=5",
    "enc_width=216:enc_height=200:enc_bitdepth=8",
    "full_ref=true:src_width=320:src_height=320:enc_width=216:"
        "enc_height=210:window_size=127",
    "cambi_high_res_speedup=1080:full_ref=true:cambi_topk=0.3",
    "enc_bitdepth=6:max_log_contrast=3:tvi_threshold=0.01:cambi_eotf=pq",
    "window_size=127:topk=0.0001:max_log_contrast=4",
    "cambi_vis_lum_threshold=300",
    NULL,
};

/*
 * The random, gradient and ref == dis patterns' luma replaced by banding
 * (the others are kept: flat, extremes, noise, ref = dis +- 1): four
 * horizontal stripes, flat bands of a few pixels stepping by 1, 2 and 4
 * 10-bit levels horizontally, vertically and diagonally (wrapping around
 * to stay in range), moving by frame, then noise (nothing flat, so no
 * mask). The reference has narrower bands than the distorted picture
 * (but for ref == dis), so that full_ref's two scores differ. 10-bit
 * levels are shifted to the depth (8 bits: steps of 4 levels become 1).
 */
static unsigned banded(unsigned x, unsigned y, unsigned h, unsigned t,
                       unsigned bw, uint64_t *rng)
{
    switch (y * 4 / h) {
    case 0:  return 200 + (x + 3 * t) / bw % 700;
    case 1:  return 380 + 2 * ((y + t) / bw) % 600;
    case 2:  return 560 + 4 * ((x + y + 5 * t) / (2 * bw)) % 440;
    default: return 64 + (unsigned)(ca_rand(rng) % 900);
    }
}

static void cambi_fill(CaFrame *fr, enum CaPattern pat, unsigned t,
                       uint64_t *rng)
{
    const unsigned w = fr->w[0], h = fr->h[0], bpc = fr->bpc;

    ca_frame_fill(fr, pat, t, rng);
    if (pat != CA_PAT_RANDOM && pat != CA_PAT_GRADIENT && pat != CA_PAT_EQUAL)
        return;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const unsigned r = banded(x, y, h, t, 5, rng);
            const unsigned d = pat == CA_PAT_EQUAL ? r :
                               banded(x, y, h, t, 11, rng);

            fr->ref[0][(size_t)y * w + x] =
                (uint16_t)(bpc >= 10 ? r << (bpc - 10) : r >> (10 - bpc));
            fr->dis[0][(size_t)y * w + x] =
                (uint16_t)(bpc >= 10 ? d << (bpc - 10) : d >> (10 - bpc));
        }
}

static const CaSize cambi_sizes[] = {
    { 216, 216 }, { 217, 219 }, { 223, 241 }, { 257, 216 }, { 0, 0 },
};

void checkasm_check_cambi(void)
{
    static const CaFeature f = {
        .name = "cambi",
        .min_w = 216,
        .min_h = 216,
        .frames = 2,
        .opts = cambi_opts,
        .sizes = cambi_sizes,
        .fill = cambi_fill,
    };

    ca_check_feature(&f);
}
