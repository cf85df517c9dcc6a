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
    case 0:
        return 200 + (x + 3 * t) / bw % 700;
    case 1:
        return 380 + 2 * ((y + t) / bw) % 600;
    case 2:
        return 560 + 4 * ((x + y + 5 * t) / (2 * bw)) % 440;
    default:
        return 64 + (unsigned)(ca_rand(rng) % 900);
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
            const unsigned d =
                pat == CA_PAT_EQUAL ? r : banded(x, y, h, t, 11, rng);

            fr->ref[0][(size_t)y * w + x] =
                (uint16_t)(bpc >= 10 ? r << (bpc - 10) : r >> (10 - bpc));
            fr->dis[0][(size_t)y * w + x] =
                (uint16_t)(bpc >= 10 ? d << (bpc - 10) : d >> (10 - bpc));
        }
}

static const CaSize cambi_sizes[] = {
    { 216, 216 }, { 217, 219 }, { 223, 241 }, { 257, 216 }, { 0, 0 },
};

/*
 * The builds comparison's luma, 10-bit levels shifted to the depth (the
 * chroma planes flat): 0 flat; 1 three stripes of bands of bw pixels
 * stepping by 1, 2 and 4 levels across, down and diagonally, moving by
 * frame; 2 the same over three quarters, noise below; 3 noise.
 */
static void builds_luma(uint16_t *out, unsigned w, unsigned h, unsigned bpc,
                        unsigned pat, unsigned t, unsigned bw)
{
    uint32_t seed = 77 + t * 13 + bw;

    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            unsigned v = 512;

            if (pat == 3 || (pat == 2 && y * 4 / h == 3))
                v = 64 + ca_lcg(&seed) % 900;
            else if (pat >= 1)
                switch (y * 3 / h) {
                case 0:
                    v = 200 + (x + 3 * t) / bw % 700;
                    break;
                case 1:
                    v = 380 + 2 * ((y + t) / bw) % 600;
                    break;
                default:
                    v = 560 + 4 * ((x + y + 5 * t) / (2 * bw)) % 440;
                    break;
                }
            out[(size_t)y * w + x] =
                (uint16_t)(bpc > 8 ? v << (bpc - 10) : v >> (10 - bpc));
        }
    }
}

/* the reference's bands are narrower, so that full_ref's scores differ */
static void builds_fill(CaFrame *fr, unsigned pat, unsigned t)
{
    ca_frame_fill_base(fr, 0, 0, 1);
    ca_frame_fill_base(fr, 1, 0, 1);
    builds_luma(fr->ref[0], fr->w[0], fr->h[0], fr->bpc, pat, t, 3);
    builds_luma(fr->dis[0], fr->w[0], fr->h[0], fr->bpc, pat, t, 5);
}

void checkasm_check_cambi(void)
{
    static const CaFeature f = {
        CA_FEATURE("cambi", cambi, 216, 216, 2),
        .fill = cambi_fill,
    };

    /* the C, AVX2 and AVX-512 builds (cpu/cambi.c) on odd and thin sizes
     * and 1080p for the high-resolution speed-up, with each option set */
    static const char *const keys[] = { "cambi", NULL };
    static const char *const full_keys[] = {
        "cambi",
        "cambi_source",
        "cambi_full_reference",
        NULL,
    };
    static const char *const mlc_keys[] = { "cambi_mlc_5_topk_0.05", NULL };
    static const char *const ws_keys[] = { "cambi_encbd_8_topk_1_ws_15", NULL };
    static const char *const enc_keys[] = { "cambi_ench_200_encw_216", NULL };
    static const char *const hrs_keys[] = {
        "cambi_hrs_1080_vlt_0.06",
        "cambi_source",
        "cambi_full_reference",
        NULL,
    };
    static const char *const hrs_opts =
        "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:"
        "full_ref=true";
    static const CaSize sizes[] = {
        { 216, 216 }, { 217, 9 },    { 9, 233 }, { 300, 241 },
        { 643, 217 }, { 1925, 230 }, { 0, 0 },
    };
    static const CaSize full_hd[] = { { 1920, 1080 }, { 0, 0 } };
    static const unsigned depths[] = { 8, 10, 0 };
#define CAMBI_BUILDS(o, k, s, n)                                               \
    {                                                                          \
        .name = "cambi", .opts = o, .keys = k, .sizes = s, .depths = depths,   \
        .frames = n, .fill = builds_fill, .patterns = 4                        \
    }
    static const CaBuilds b[] = {
        CAMBI_BUILDS("", keys, sizes, 2),
        CAMBI_BUILDS("full_ref=true", full_keys, sizes, 2),
        CAMBI_BUILDS("max_log_contrast=5:topk=0.05", mlc_keys, sizes, 2),
        CAMBI_BUILDS("window_size=15:topk=1:enc_bitdepth=8", ws_keys, sizes, 2),
        CAMBI_BUILDS("enc_width=216:enc_height=200", enc_keys, sizes, 2),
        CAMBI_BUILDS(hrs_opts, hrs_keys, sizes, 2),
        CAMBI_BUILDS(hrs_opts, hrs_keys, full_hd, 1),
    };
#undef CAMBI_BUILDS

    ca_check_feature(&f);
    for (unsigned i = 0; i < sizeof(b) / sizeof(b[0]); i++)
        ca_check_builds(&b[i]);
}
