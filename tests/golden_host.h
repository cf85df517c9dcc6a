/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Whether this machine can reproduce the goldens' float ADM values.
 *
 * libvmaf's float ADM divides by multiplying with the processor's
 * approximate reciprocal (RCPSS) refined once; that estimate is not IEEE
 * arithmetic and differs between processor makers. The goldens in
 * ../shared/golden were made on an AMD EPYC (golden/README.md), so their
 * float ADM outputs, and the float models' scores built on them, are AMD's:
 * libvmaf v3.2.0 itself gives other values on an Intel processor, and so
 * do we, equally (doc/features.md). Tests compare those outputs with
 * the goldens only where the reciprocal is AMD's; elsewhere they say so
 * and compare the rest.
 */

#ifndef VG_TESTS_GOLDEN_HOST_H
#define VG_TESTS_GOLDEN_HOST_H

#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/** 1 when this processor is an AMD one (the goldens' RCPSS), else 0. */
static inline int vg_golden_float_adm_host(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    char vendor[13];

    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = 0;
    return !strcmp(vendor, "AuthenticAMD");
#else
    /* float ADM divides exactly here, as libvmaf's non-x86 builds do */
    return 0;
#endif
}

#endif /* VG_TESTS_GOLDEN_HOST_H */
