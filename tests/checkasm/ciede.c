/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: ciede (cpu/ciede.c). The CUDA backend runs it on its host job
 * pool (no device implementation: common/features/ciede.c says why), so
 * this covers that path: pictures from host and device memory, converted
 * on the device, copied back to pinned host images and scored there,
 * against the CPU backend, at every layout but 4:0:0 (refused) and every
 * depth. Its minimum is 2x2 (4:2:0 needs a chroma sample); the edge sizes
 * add an odd width whose 4:2:2 chroma row is shorter than libvmaf's
 * 32-sample stride.
 */

#include "tests/checkasm/checkasm.h"

static const char *const ciede_opts[] = {
    "",
    NULL,
};

static const CaSize ciede_sizes[] = {
    { 2, 2 }, { 3, 2 }, { 2, 5 }, { 17, 9 }, { 67, 7 }, { 0, 0 },
};

void checkasm_check_ciede(void)
{
    static const CaFeature f = {
        .name = "ciede",
        .min_w = 2,
        .min_h = 2,
        .frames = 2,
        .opts = ciede_opts,
        .sizes = ciede_sizes,
        .needs_chroma = 1,
    };

    ca_check_feature(&f);
}
