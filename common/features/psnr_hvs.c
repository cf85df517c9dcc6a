/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * PSNR-HVS's descriptor, tables and finish (psnr_hvs_y, psnr_hvs_cb,
 * psnr_hvs_cr, psnr_hvs), as libvmaf v3.2.0
 * src/feature/third_party/xiph/psnr_hvs.c: the extractor has no options;
 * it accepts 8 to 12 bits and three planes.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "common/features/psnr_hvs.h"

/* clang-format off */
static const VgFeatureOption psnr_hvs_options[] = {
    { NULL }
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput psnr_hvs_outputs[] = {
    [VG_PSNR_HVS_OUT_Y]   = { "psnr_hvs_y",  NULL, 0 },
    [VG_PSNR_HVS_OUT_CB]  = { "psnr_hvs_cb", NULL, 0 },
    [VG_PSNR_HVS_OUT_CR]  = { "psnr_hvs_cr", NULL, 0 },
    [VG_PSNR_HVS_OUT_ALL] = { "psnr_hvs",    NULL, 0 },
    { NULL }
};
/* clang-format on */

/*
 * psnr_hvs.c csf_y, csf_cb420, csf_cr420: written there as double
 * constants stored in float arrays, so here too (a float literal would
 * round the decimal once, not twice, and can differ in the last bit).
 */
static const float csf[3][64] = {
    {
        1.6193873005,   2.2901594831,   2.08509755623,  1.48366094411,
        1.00227514334,  0.678296995242, 0.466224900598, 0.3265091542,
        2.2901594831,   1.94321815382,  2.04793073064,  1.68731108984,
        1.2305666963,   0.868920337363, 0.61280991668,  0.436405793551,
        2.08509755623,  2.04793073064,  1.34329019223,  1.09205635862,
        0.875748795257, 0.670882927016, 0.501731932449, 0.372504254596,
        1.48366094411,  1.68731108984,  1.09205635862,  0.772819797575,
        0.605636379554, 0.48309405692,  0.380429446972, 0.295774038565,
        1.00227514334,  1.2305666963,   0.875748795257, 0.605636379554,
        0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204,
        0.678296995242, 0.868920337363, 0.670882927016, 0.48309405692,
        0.352889268808, 0.27032073436,  0.215017739696, 0.17408067321,
        0.466224900598, 0.61280991668,  0.501731932449, 0.380429446972,
        0.283006984131, 0.215017739696, 0.168869545842, 0.136153931001,
        0.3265091542,   0.436405793551, 0.372504254596, 0.295774038565,
        0.226951348204, 0.17408067321,  0.136153931001, 0.109083846276,
    },
    {
        1.91113096927,  2.46074210438,  1.18284184739,  1.14982565193,
        1.05017074788,  0.898018824055, 0.74725392039,  0.615105596242,
        2.46074210438,  1.58529308355,  1.21363250036,  1.38190029285,
        1.33100189972,  1.17428548929,  0.996404342439, 0.830890433625,
        1.18284184739,  1.21363250036,  0.978712413627, 1.02624506078,
        1.03145147362,  0.960060382087, 0.849823426169, 0.731221236837,
        1.14982565193,  1.38190029285,  1.02624506078,  0.861317501629,
        0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374,
        1.05017074788,  1.33100189972,  1.03145147362,  0.801821139099,
        0.676555426187, 0.605503172737, 0.55002013668,  0.495804539034,
        0.898018824055, 1.17428548929,  0.960060382087, 0.751437590932,
        0.605503172737, 0.514674450957, 0.454353482512, 0.407050308965,
        0.74725392039,  0.996404342439, 0.849823426169, 0.685398513368,
        0.55002013668,  0.454353482512, 0.389234902883, 0.342353999733,
        0.615105596242, 0.830890433625, 0.731221236837, 0.608694761374,
        0.495804539034, 0.407050308965, 0.342353999733, 0.295530605237,
    },
    {
        2.03871978502,  2.62502345193,  1.26180942886,  1.11019789803,
        1.01397751469,  0.867069376285, 0.721500455585, 0.593906509971,
        2.62502345193,  1.69112867013,  1.17180569821,  1.3342742857,
        1.28513006198,  1.13381474809,  0.962064122248, 0.802254508198,
        1.26180942886,  1.17180569821,  0.944981930573, 0.990876405848,
        0.995903384143, 0.926972725286, 0.820534991409, 0.706020324706,
        1.11019789803,  1.3342742857,   0.990876405848, 0.831632933426,
        0.77418706195,  0.725539939514, 0.661776842059, 0.587716619023,
        1.01397751469,  1.28513006198,  0.995903384143, 0.77418706195,
        0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273,
        0.867069376285, 1.13381474809,  0.926972725286, 0.725539939514,
        0.584635025748, 0.496936637883, 0.438694579826, 0.393021669543,
        0.721500455585, 0.962064122248, 0.820534991409, 0.661776842059,
        0.531064164893, 0.438694579826, 0.375820256136, 0.330555063063,
        0.593906509971, 0.802254508198, 0.706020324706, 0.587716619023,
        0.478717061273, 0.393021669543, 0.330555063063, 0.285345396658,
    },
};

void vg_psnr_hvs_tables(VgPsnrHvsTables *t)
{
    for (unsigned pl = 0; pl < 3; pl++) {
        for (unsigned k = 0; k < 64; k++) {
            /* calc_psnrhvs(): float csf times a double, squared in double */
            const double m = csf[pl][k] * 0.3885746225901003;
            t->t[pl][0][k] = csf[pl][k];
            t->t[pl][1][k] = (float)(m * m);
        }
    }
}

int vg_psnr_hvs_check(VgFeatureCtx *fc)
{
    unsigned ssx, ssy;

    if (fc->bpc > 12) {
        vg_log(fc->log, VG_LOG_ERROR,
               "psnr_hvs: %u-bit pictures are not "
               "supported, only 8 to 12 bits (as libvmaf)",
               fc->bpc);
        return -ENOTSUP;
    }
    if (fc->layout == VG_LAYOUT_400) {
        vg_log(fc->log, VG_LOG_ERROR,
               "psnr_hvs: needs chroma planes, "
               "4:0:0 pictures have none");
        return -ENOTSUP;
    }
    vg_layout_shifts(fc->layout, &ssx, &ssy);
    if ((fc->width >> ssx) < 8 || (fc->height >> ssy) < 8) {
        vg_log(fc->log, VG_LOG_ERROR,
               "psnr_hvs: the chroma planes of a "
               "%ux%u picture are %ux%u, smaller than one 8x8 block",
               fc->width, fc->height, fc->width >> ssx, fc->height >> ssy);
        return -EINVAL;
    }
    return 0;
}

double vg_psnr_hvs_plane_score(float ret, uint64_t n_blocks, unsigned bpc)
{
    /* calc_psnrhvs()'s last steps: divisions of the float sum by the int
     * pixel count and by the int square of the sample maximum */
    const int32_t samplemax = (1 << bpc) - 1;

    ret /= (float)(n_blocks * 64);
    ret /= (float)(samplemax * samplemax);
    return ret;
}

/* psnr_hvs.c convert_score_db() with weight 1.0: an identical plane (score
 * 0) gives +inf */
static double to_db(double score)
{
    return 10 * (-1 * log10(1.0 * score));
}

int vg_psnr_hvs_emit(VgFeatureCtx *fc, unsigned index, const double score[3])
{
    /* extract(): the planes combined before the dB step, in double */
    const double all = score[0] * .8 + .1 * (score[1] + score[2]);
    int ret;

    for (unsigned pl = 0; pl < 3; pl++)
        if ((ret = vg_feature_emit(fc, VG_PSNR_HVS_OUT_Y + pl, index,
                                   to_db(score[pl]))) < 0)
            return ret;
    return vg_feature_emit(fc, VG_PSNR_HVS_OUT_ALL, index, to_db(all));
}

const VgFeatureDesc vg_feature_psnr_hvs = {
    VG_FEATURE_DESC(psnr_hvs),
    .options = psnr_hvs_options,
    .flags = VG_FEATURE_CHROMA,
    .min_width = 8,
    .min_height = 8,
};
