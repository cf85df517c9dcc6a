/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Option dictionaries, option parsing into a feature's options struct,
 * and libvmaf's output key naming (src/feature/feature_name.c in v3.2.0).
 */

#ifndef VG_COMMON_OPT_H
#define VG_COMMON_OPT_H

#include <stddef.h>

#include "common/feature.h"
#include "common/log.h"

#define VG_OPT_DICT_MAX 32

/** Ordered key=value list. */
typedef struct VgOptDict {
    unsigned n;
    char *key[VG_OPT_DICT_MAX];
    char *val[VG_OPT_DICT_MAX];
} VgOptDict;

/** Set (or replace) key. @return 0, -ENOMEM, -E2BIG. */
int vg_opt_dict_set(VgOptDict *d, const char *key, const char *val);
/** @return value of key, or NULL. */
const char *vg_opt_dict_get(const VgOptDict *d, const char *key);
void vg_opt_dict_free(VgOptDict *d);
int vg_opt_dict_copy(VgOptDict *dst, const VgOptDict *src);

/**
 * Parse "k=v<sep>k=v" into d (appending). A bare "k" gets value "true".
 * @return 0 or -EINVAL (logged).
 */
int vg_opt_dict_parse(VgOptDict *d, const char *str, char sep, VgLog *log);

/**
 * Fill `opts` (desc->opts_size bytes) with defaults, then the values of d.
 * Numbers pass through libvmaf's normalisation (strtof, "%g", atof).
 * Unknown option, bad value, out of range: -EINVAL with a log line.
 */
int vg_opt_apply(const VgFeatureDesc *desc, const VgOptDict *d, void *opts,
                 VgLog *log);

/**
 * The printed key of output `out` for these options: libvmaf's alias (or
 * raw name when every feature param has its default), plus
 * `_<alias>[_<value>]` per non-default feature param in alphabetical
 * order of option name.
 */
int vg_opt_key_name(const VgFeatureDesc *desc, unsigned out, const void *opts,
                    char *buf, size_t size);

/** String of the non-default feature params (dedupe of instances). */
int vg_opt_param_string(const VgFeatureDesc *desc, const void *opts, char *buf,
                        size_t size);

/** Read an option value back from an options struct. */
double vg_opt_value(const VgFeatureOption *o, const void *opts);

#endif /* VG_COMMON_OPT_H */
