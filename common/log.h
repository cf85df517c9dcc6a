/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Library logging through the caller's callback; no printf in the library.
 */

#ifndef VG_COMMON_LOG_H
#define VG_COMMON_LOG_H

#include <pthread.h>

#include "vmafgpu.h"

typedef struct VgLog {
    VgLogCallback cb;
    void *opaque;
    enum VgLogLevel level;
    pthread_mutex_t lock;
    char prefix[24]; ///< put before every line ("rendition 2: "), or ""
} VgLog;

void vg_log_init(VgLog *log, VgLogCallback cb, void *opaque,
                 enum VgLogLevel level);
void vg_log_uninit(VgLog *log);

#ifdef __GNUC__
#define VG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define VG_PRINTF(a, b)
#endif

/** Log one line (no trailing newline needed). log may be NULL: stderr. */
void vg_log(VgLog *log, enum VgLogLevel level, const char *fmt, ...)
    VG_PRINTF(3, 4);

#endif /* VG_COMMON_LOG_H */
