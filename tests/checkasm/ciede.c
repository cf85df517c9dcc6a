/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: ciede (cpu/ciede.c, gpu/ciede.c): pictures from host and
 * device memory against the CPU backend, at every layout but 4:0:0
 * (refused) and every depth. Its minimum is 2x2 (4:2:0 needs a chroma
 * sample); the edge sizes add an odd width whose 4:2:2 chroma row is
 * shorter than libvmaf's 32-sample stride, and 640x360. VG_CIEDE_RECORDS=0
 * in the environment makes the device score every frame with a pixel it
 * cannot settle (gpu/ciede.cu) wholly on the host.
 */

#include "tests/checkasm/checkasm.h"

static const char *const ciede_opts[] = {
    "",
    NULL,
};

static const CaSize ciede_sizes[] = {
    { 2, 2 }, { 3, 2 }, { 2, 5 }, { 17, 9 }, { 67, 7 }, { 640, 360 }, { 0, 0 },
};

void checkasm_check_ciede(void)
{
    static const CaFeature f = {
        CA_FEATURE("ciede", ciede, 2, 2, 2),
        .needs_chroma = 1,
    };

    ca_check_feature(&f);
}
