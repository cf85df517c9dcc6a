/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/opt.h"

int vg_opt_dict_set(VgOptDict *d, const char *key, const char *val)
{
    char *k, *v;

    for (unsigned i = 0; i < d->n; i++) {
        if (!strcmp(d->key[i], key)) {
            if (!(v = strdup(val)))
                return -ENOMEM;
            free(d->val[i]);
            d->val[i] = v;
            return 0;
        }
    }
    if (d->n == VG_OPT_DICT_MAX)
        return -E2BIG;
    k = strdup(key);
    v = strdup(val);
    if (!k || !v) {
        free(k);
        free(v);
        return -ENOMEM;
    }
    d->key[d->n] = k;
    d->val[d->n++] = v;
    return 0;
}

const char *vg_opt_dict_get(const VgOptDict *d, const char *key)
{
    for (unsigned i = 0; i < d->n; i++)
        if (!strcmp(d->key[i], key))
            return d->val[i];
    return NULL;
}

void vg_opt_dict_free(VgOptDict *d)
{
    for (unsigned i = 0; i < d->n; i++) {
        free(d->key[i]);
        free(d->val[i]);
    }
    d->n = 0;
}

int vg_opt_dict_copy(VgOptDict *dst, const VgOptDict *src)
{
    for (unsigned i = 0; i < src->n; i++) {
        int ret = vg_opt_dict_set(dst, src->key[i], src->val[i]);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int vg_opt_dict_parse(VgOptDict *d, const char *str, char sep, VgLog *log)
{
    const char *p = str;

    while (p && *p) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char item[512], *eq;
        int ret;

        if (len >= sizeof(item)) {
            vg_log(log, VG_LOG_ERROR, "option '%.40s...' is too long", p);
            return -EINVAL;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        p = end ? end + 1 : NULL;
        if (!len)
            continue;
        eq = strchr(item, '=');
        if (eq == item) {
            vg_log(log, VG_LOG_ERROR, "option '%s' has no name", item);
            return -EINVAL;
        }
        if (eq)
            *eq = '\0';
        ret = vg_opt_dict_set(d, item, eq ? eq + 1 : "true");
        if (ret < 0) {
            vg_log(log, VG_LOG_ERROR, "cannot store option '%s': %s", item,
                   ret == -E2BIG ? "too many options" : "out of memory");
            return ret;
        }
    }
    return 0;
}

static const VgFeatureOption *find_option(const VgFeatureDesc *desc,
                                          const char *name)
{
    for (const VgFeatureOption *o = desc->options; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

double vg_opt_value(const VgFeatureOption *o, const void *opts)
{
    const uint8_t *p = (const uint8_t *)opts + o->offset;

    switch (o->type) {
    case VG_OPT_BOOL:
        return *(const bool *)p;
    case VG_OPT_INT:
    case VG_OPT_ENUM:
        return *(const int *)p;
    case VG_OPT_STRING:
        return *(const char *)p != '\0';
    default:
        return *(const double *)p;
    }
}

static void set_default(const VgFeatureOption *o, void *opts)
{
    uint8_t *p = (uint8_t *)opts + o->offset;

    switch (o->type) {
    case VG_OPT_BOOL:
        *(bool *)p = o->def != 0.0;
        break;
    case VG_OPT_INT:
    case VG_OPT_ENUM:
        *(int *)p = (int)o->def;
        break;
    case VG_OPT_DOUBLE:
        *(double *)p = o->def;
        break;
    case VG_OPT_STRING:
        *(char *)p = '\0';
        break;
    }
}

/*
 * Values are parsed as libvmaf v3.2.0 does (src/opt.c vmaf_option_set):
 * bools are "true"/"false"; ints via atoi; doubles pass first through the
 * dictionary's numeric normalisation (strtof, then "%g": src/dict.c) and
 * then atof. A value that parses to 0 but does not start with '0' is
 * invalid, as is anything outside [min, max].
 */
static int set_value(const VgFeatureDesc *desc, const VgFeatureOption *o,
                     void *opts, const char *val, VgLog *log)
{
    uint8_t *p = (uint8_t *)opts + o->offset;
    char norm[64], *end;

    switch (o->type) {
    case VG_OPT_BOOL:
        if (!strcmp(val, "true") || !strcmp(val, "1")) {
            *(bool *)p = true;
        } else if (!strcmp(val, "false") || !strcmp(val, "0")) {
            *(bool *)p = false;
        } else {
            vg_log(log, VG_LOG_ERROR,
                   "feature '%s': option '%s' takes true or false, not '%s'",
                   desc->name, o->name, val);
            return -EINVAL;
        }
        return 0;
    case VG_OPT_INT: {
        long n = strtol(val, &end, 10);
        if (end == val || *end || n < o->min || n > o->max) {
            vg_log(
                log, VG_LOG_ERROR,
                "feature '%s': option '%s' needs an integer in [%g, %g], not '%s'",
                desc->name, o->name, o->min, o->max, val);
            return -EINVAL;
        }
        *(int *)p = (int)n;
        return 0;
    }
    case VG_OPT_DOUBLE: {
        float f = strtof(val, &end);
        double d;
        if (end == val || *end) {
            vg_log(log, VG_LOG_ERROR,
                   "feature '%s': option '%s' needs a number, not '%s'",
                   desc->name, o->name, val);
            return -EINVAL;
        }
        snprintf(norm, sizeof(norm), "%g", f);
        d = atof(norm);
        if (!(d >= o->min && d <= o->max)) {
            vg_log(log, VG_LOG_ERROR,
                   "feature '%s': option '%s' = %s is outside [%g, %g]",
                   desc->name, o->name, val, o->min, o->max);
            return -EINVAL;
        }
        *(double *)p = d;
        return 0;
    }
    case VG_OPT_STRING:
        if (!*val || strlen(val) >= VG_OPT_STRING_MAX) {
            vg_log(log, VG_LOG_ERROR,
                   "feature '%s': option '%s' needs a value of 1 to %d bytes",
                   desc->name, o->name, VG_OPT_STRING_MAX - 1);
            return -EINVAL;
        }
        memcpy(p, val, strlen(val) + 1);
        return 0;
    case VG_OPT_ENUM: {
        char known[256] = "";
        size_t len = 0;
        for (int i = 0; o->values[i]; i++) {
            if (!strcmp(val, o->values[i])) {
                *(int *)p = i;
                return 0;
            }
            len += snprintf(known + len,
                            len < sizeof(known) ? sizeof(known) - len : 0,
                            "%s%s", i ? ", " : "", o->values[i]);
        }
        vg_log(log, VG_LOG_ERROR,
               "feature '%s': option '%s' takes one of %s, not '%s'",
               desc->name, o->name, known, val);
        return -EINVAL;
    }
    }
    return -EINVAL;
}

int vg_opt_apply(const VgFeatureDesc *desc, const VgOptDict *d, void *opts,
                 VgLog *log)
{
    for (const VgFeatureOption *o = desc->options; o && o->name; o++)
        set_default(o, opts);
    for (unsigned i = 0; d && i < d->n; i++) {
        const VgFeatureOption *o = find_option(desc, d->key[i]);
        int ret;

        if (!o) {
            char known[512] = "";
            size_t len = 0;
            for (const VgFeatureOption *k = desc->options; k && k->name; k++)
                len += snprintf(known + len,
                                len < sizeof(known) ? sizeof(known) - len : 0,
                                "%s%s", len ? ", " : "", k->name);
            vg_log(log, VG_LOG_ERROR,
                   "feature '%s' has no option '%s' (options: %s)", desc->name,
                   d->key[i], len ? known : "none");
            return -EINVAL;
        }
        if ((ret = set_value(desc, o, opts, d->val[i], log)) < 0)
            return ret;
    }
    return desc->check_opts ? desc->check_opts(opts, log) : 0;
}

static int is_default(const VgFeatureOption *o, const void *opts)
{
    switch (o->type) {
    case VG_OPT_BOOL:
        return (vg_opt_value(o, opts) != 0.0) == (o->def != 0.0);
    case VG_OPT_INT:
    case VG_OPT_ENUM:
        return (int)vg_opt_value(o, opts) == (int)o->def;
    case VG_OPT_STRING:
        return vg_opt_value(o, opts) == 0.0;
    default:
        return vg_opt_value(o, opts) == o->def;
    }
}

/* non-default feature params, sorted by option name (strcmp order, as
 * libvmaf's vmaf_dictionary_alphabetical_sort) */
static unsigned sorted_params(const VgFeatureDesc *desc, const void *opts,
                              const VgFeatureOption **out, unsigned max)
{
    unsigned n = 0;

    for (const VgFeatureOption *o = desc->options; o && o->name; o++) {
        if (!o->feature_param || is_default(o, opts) || n == max)
            continue;
        out[n++] = o;
    }
    for (unsigned i = 1; i < n; i++) {
        for (unsigned j = i;
             j > 0 && strcmp(out[j - 1]->name, out[j]->name) > 0; j--) {
            const VgFeatureOption *t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    }
    return n;
}

static size_t append_param(char *buf, size_t size, size_t len,
                           const VgFeatureOption *o, const void *opts)
{
    const char *key = o->alias ? o->alias : o->name;
    size_t room = len < size ? size - len : 0;

    switch (o->type) {
    case VG_OPT_BOOL:
        return len + snprintf(buf + len, room, "_%s", key);
    case VG_OPT_INT:
        return len + snprintf(buf + len, room, "_%s_%d", key,
                              (int)vg_opt_value(o, opts));
    case VG_OPT_ENUM: /* libvmaf's string options: the word itself */
        return len + snprintf(buf + len, room, "_%s_%s", key,
                              o->values[(int)vg_opt_value(o, opts)]);
    case VG_OPT_STRING:
        return len + snprintf(buf + len, room, "_%s_%s", key,
                              (const char *)opts + o->offset);
    default:
        return len +
               snprintf(buf + len, room, "_%s_%g", key, vg_opt_value(o, opts));
    }
}

int vg_opt_key_name(const VgFeatureDesc *desc, unsigned out, const void *opts,
                    char *buf, size_t size)
{
    const VgFeatureOutput *o = &desc->outputs[out];
    const VgFeatureOption *param[VG_OPT_DICT_MAX];
    unsigned n = sorted_params(desc, opts, param, VG_OPT_DICT_MAX);
    size_t len;

    len = snprintf(buf, size, "%s", o->alias ? o->alias : o->name);
    for (unsigned i = 0; i < n && !(o->debug_only & VG_OUTPUT_NO_PARAMS); i++)
        len = append_param(buf, size, len, param[i], opts);
    return len < size ? 0 : -ENAMETOOLONG;
}

int vg_opt_param_string(const VgFeatureDesc *desc, const void *opts, char *buf,
                        size_t size)
{
    const VgFeatureOption *param[VG_OPT_DICT_MAX];
    unsigned n = sorted_params(desc, opts, param, VG_OPT_DICT_MAX);
    size_t len;

    len = snprintf(buf, size, "%s", desc->name);
    for (unsigned i = 0; i < n; i++)
        len = append_param(buf, size, len, param[i], opts);
    return len < size ? 0 : -ENAMETOOLONG;
}
