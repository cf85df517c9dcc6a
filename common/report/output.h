/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Log writers in libvmaf v3.2.0's formats (src/output.c): xml, json, csv,
 * sub; libvmaf's number format or full precision (%.17g).
 */

#ifndef VG_COMMON_OUTPUT_H
#define VG_COMMON_OUTPUT_H

#include <stdio.h>

#include "vmafgpu.h"
#include "common/collector.h"

typedef struct VgOutputParams {
    enum VgLogFormat fmt;
    enum VgPrecision precision;
    unsigned n_frames;  ///< frames submitted
    unsigned subsample; ///< 1 = every frame
    unsigned width, height;
    double fps;          ///< < 0: unknown (json null)
    const char *version; ///< written as "version"
    /** collector keys in the order the log lists them (each once), or NULL
     * for the collector's order; keys left out are not written */
    const int *order;
    unsigned n_order; ///< entries in order
    /** the caller's counts for the header (JSON, XML), after fps */
    const char (*count_key)[32];
    const uint64_t *count;
    unsigned n_counts;
} VgOutputParams;

int vg_output_write(FILE *f, VgCollector *c, const VgOutputParams *p);

/** Format a number like libvmaf (default) or %.17g (max) into buf. */
void vg_output_format_number(char *buf, size_t size, double v,
                             enum VgPrecision precision);

#endif /* VG_COMMON_OUTPUT_H */
