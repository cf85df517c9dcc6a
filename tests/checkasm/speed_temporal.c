/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * checkasm: speed_temporal, the CUDA kernels (gpu/speed.cuh) on the
 * differences of the engine's resident device lumas of frames n-1 and n,
 * with the host scoring of the decimated differences, against the CPU
 * backend (cpu/speed_temporal.c, common/features/speed.c), over several frames so
 * that every frame's previous pictures come from another slot. Every depth
 * and layout (4:0:0 included: the luma only), padded pitches, flat and
 * ref == dis pictures.
 *
 * The luma needs 80 samples per side after the prescale; smaller ones
 * are refused by every backend alike. As the refusal predicate cannot see
 * the options, each prescale has its own option sets and sizes around its
 * minimum: 1 (80), 1.5 (53) and 0.75 (106), the latter two with each
 * prescale method.
 */

#include "tests/checkasm/checkasm.h"

static int too_small(unsigned n, double ps)
{
    return ((unsigned)(int)(n * ps + 0.5) >> 4) < 5;
}

static int refuses_1(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)fmt;
    (void)bpc;
    return too_small(w, 1.0) || too_small(h, 1.0);
}

static int refuses_up(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)fmt;
    (void)bpc;
    return too_small(w, 1.5) || too_small(h, 1.5);
}

static int refuses_down(enum VgPixFmt fmt, unsigned bpc, unsigned w, unsigned h)
{
    (void)fmt;
    (void)bpc;
    return too_small(w, 0.75) || too_small(h, 0.75);
}

void checkasm_check_speed_temporal(void)
{
    static const char *const base_opts[] = {
        "",
        "speed_use_ref_diff=1",
        "speed_kernelscale=1.5:speed_sigma_nn=0.5:speed_nn_floor=0.05",
        "speed_kernelscale=3:speed_use_ref_diff=1:speed_max_val=3",
        "speed_kernelscale=0.5:speed_sigma_nn=2",
        NULL,
    };
    static const CaSize base_sizes[] = {
        { 80, 80 },  { 79, 80 },   { 80, 79 }, { 81, 83 },
        { 97, 161 }, { 160, 160 }, { 0, 0 },
    };
    static const char *const up_opts[] = {
        "speed_prescale=1.5",
        "speed_prescale=1.5:speed_prescale_method=bilinear:"
        "speed_use_ref_diff=1",
        "speed_prescale=1.5:speed_prescale_method=bicubic",
        "speed_prescale=1.5:speed_prescale_method=lanczos4:"
        "speed_kernelscale=2",
        NULL,
    };
    static const CaSize up_sizes[] = {
        { 53, 53 }, { 52, 53 }, { 53, 52 }, { 55, 61 }, { 0, 0 },
    };
    static const char *const down_opts[] = {
        "speed_prescale=0.75",
        "speed_prescale=0.75:speed_prescale_method=bilinear",
        "speed_prescale=0.75:speed_prescale_method=bicubic:"
        "speed_use_ref_diff=1",
        "speed_prescale=0.75:speed_prescale_method=lanczos4",
        NULL,
    };
    static const CaSize down_sizes[] = {
        { 106, 106 }, { 105, 106 }, { 106, 105 }, { 107, 131 }, { 0, 0 },
    };
    const CaFeature f[] = {
        { CA_FEATURE("speed_temporal", base, 80, 80, 5), .refuses = refuses_1 },
        { CA_FEATURE("speed_temporal", up, 53, 53, 3), .refuses = refuses_up },
        { CA_FEATURE("speed_temporal", down, 106, 106, 3),
          .refuses = refuses_down },
    };

    /* the AVX2 and AVX-512 builds (common/features/speed.c,
     * common/fplane.c) */
    static const char *const keys[] = { "speed_temporal", NULL };
    static const CaSize sizes[] = { { 192, 176 }, { 333, 261 }, { 0, 0 } };
    static const unsigned depths[] = { 8, 10, 0 };
    static const CaBuilds b = {
        .name = "speed_temporal",
        .keys = keys,
        .sizes = sizes,
        .depths = depths,
    };

    for (unsigned i = 0; i < sizeof(f) / sizeof(f[0]); i++)
        ca_check_feature(&f[i]);
    ca_check_builds(&b);
}
