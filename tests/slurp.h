/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_SLURP_H
#define VG_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/** Whole file as a NUL-terminated string (caller frees), or NULL. */
static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f)
        return NULL;
    if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 &&
        !fseek(f, 0, SEEK_SET) && (buf = malloc((size_t)n + 1))) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = '\0';
            if (len)
                *len = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

#endif /* VG_TESTS_SLURP_H */
