/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Feature collector: per metric (key = printed name), a vector of values
 * indexed by frame. Thread-safe. Key order = order of first registration.
 */

#ifndef VG_COMMON_COLLECTOR_H
#define VG_COMMON_COLLECTOR_H

#include <stddef.h>

typedef struct VgCollector VgCollector;

int vg_collector_create(VgCollector **c);
void vg_collector_destroy(VgCollector **c);

/** Register (or look up) a metric; @return its id (>= 0) or -ENOMEM. */
int vg_collector_key(VgCollector *c, const char *name);

/** @return the id of a metric, or -EINVAL if unknown. */
int vg_collector_find(const VgCollector *c, const char *name);

/** @return -EEXIST if (key, index) was already written (unless rewriting). */
int vg_collector_set(VgCollector *c, int key, unsigned index, double value);

/**
 * on = 1: vg_collector_set() replaces values already written, for the
 * context to finish a stream again at an earlier end; on = 0: the default.
 */
void vg_collector_set_rewrite(VgCollector *c, int on);

/** @return 0, -EINVAL bad key, -EAGAIN not written. */
int vg_collector_get(VgCollector *c, int key, unsigned index, double *value);

unsigned vg_collector_count(const VgCollector *c);
const char *vg_collector_name(const VgCollector *c, int key);

/** Per-stream values (libvmaf's aggregate_metrics, e.g. apsnr_y). */
int vg_collector_set_aggregate(VgCollector *c, const char *name, double v);
unsigned vg_collector_aggregate_count(const VgCollector *c);
const char *vg_collector_aggregate(const VgCollector *c, unsigned i,
                                   double *value);

#endif /* VG_COMMON_COLLECTOR_H */
