/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_REPORT_H
#define VG_TESTS_REPORT_H

#include <stdarg.h>
#include <stdio.h>

/** Mismatches of a parity test: their count and the text of the first 20. */
typedef struct VgReport {
    char text[8192];
    size_t len;
    unsigned n;
} VgReport;

static inline void vg_report(VgReport *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Count one mismatch and append its line while the text has room. */
static inline void vg_report(VgReport *r, const char *fmt, ...)
{
    va_list ap;

    if (r->n++ >= 20 || r->len >= sizeof(r->text) - 2)
        return;
    va_start(ap, fmt);
    r->len +=
        (size_t)vsnprintf(r->text + r->len, sizeof(r->text) - r->len, fmt, ap);
    va_end(ap);
    if (r->len < sizeof(r->text) - 1)
        r->text[r->len++] = '\n';
    r->text[r->len < sizeof(r->text) ? r->len : sizeof(r->text) - 1] = '\0';
}

#endif /* VG_TESTS_REPORT_H */
