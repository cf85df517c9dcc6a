/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <stdarg.h>
#include <stdio.h>

#include "common/log.h"

void vg_log_init(VgLog *log, VgLogCallback cb, void *opaque,
                 enum VgLogLevel level)
{
    log->cb = cb;
    log->opaque = opaque;
    log->level = level;
    log->prefix[0] = '\0';
    pthread_mutex_init(&log->lock, NULL);
}

void vg_log_uninit(VgLog *log)
{
    pthread_mutex_destroy(&log->lock);
}

static const char *level_name(enum VgLogLevel level)
{
    switch (level) {
    case VG_LOG_ERROR:
        return "error";
    case VG_LOG_WARNING:
        return "warning";
    case VG_LOG_INFO:
        return "info";
    default:
        return "debug";
    }
}

void vg_log(VgLog *log, enum VgLogLevel level, const char *fmt, ...)
{
    char msg[1024];
    size_t len;
    va_list ap;

    if (log && level > log->level)
        return;
    if (!log && level > VG_LOG_WARNING)
        return;

    len = log ? snprintf(msg, sizeof(msg), "%s", log->prefix) : 0;
    va_start(ap, fmt);
    vsnprintf(msg + len, sizeof(msg) - len, fmt, ap);
    va_end(ap);

    if (log)
        pthread_mutex_lock(&log->lock);
    if (log && log->cb)
        log->cb(log->opaque, level, msg);
    else
        fprintf(stderr, "vmafgpu %s: %s\n", level_name(level), msg);
    if (log)
        pthread_mutex_unlock(&log->lock);
}
