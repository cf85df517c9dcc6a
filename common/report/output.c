/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Log writers in the layout of libvmaf v3.2.0 src/output.c
 * (vmaf_write_output_xml, vmaf_write_output_json, vmaf_write_output_csv,
 * vmaf_write_output_sub), so that every existing reader of libvmaf logs
 * reads ours.
 *
 * Differences from libvmaf, on inputs where libvmaf's output is malformed:
 *  - JSON separators (",") depend on whether something was printed before,
 *    not on the index: libvmaf prints `[,` when frame 0 has no value, and
 *    `{,` when the first pooling method fails.
 *  - XML: an unknown fps (< 0) prints as "nan" (libvmaf always has one).
 * And one addition: the caller's counts (vg_set_log_count()), after fps in
 * JSON and as attributes of <fyi> in XML; none is set unless the caller
 * has something to say (the filter's mispaired frames).
 * Everything else, including the number format, is byte-for-byte libvmaf's,
 * down to a non-finite per-frame JSON value: `null` with no newline after
 * it, so that the next key (or the closing brace) follows on the same line
 * (vmaf_write_output_json()); the JSON stays valid.
 */

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/report/output.h"
#include "common/pool.h"

/** Pooled entries in libvmaf's order (enum VmafPoolingMethod: MIN, MAX, MEAN, HARMONIC_MEAN). */
static const struct {
    enum VgPool method;
    const char *name;
} pool_methods[] = {
    { VG_POOL_MIN, "min" },
    { VG_POOL_MAX, "max" },
    { VG_POOL_MEAN, "mean" },
    { VG_POOL_HARMONIC_MEAN, "harmonic_mean" },
};

#define N_POOL_METHODS (sizeof(pool_methods) / sizeof(pool_methods[0]))

/**
 * Number of decimal shifts that bring the fractional part of |x| to >= 1,
 * as libvmaf src/output.c count_leading_zeros_d(): the integer part is a C
 * int conversion, then the fraction is multiplied by 10 (rounding each
 * time) until it reaches 1. On x86-64 an out-of-range conversion (|x| >=
 * 2^31, NaN, inf) yields INT_MIN, which leaves a fraction >= 1 (or NaN) and
 * a count of 0; this is reproduced without the undefined conversion.
 */
static int leading_zeros(double x)
{
    double frac;
    int n = 0;

    if (x < 0)
        x = fabs(x);
    if (!(x < 2147483648.0))
        return 0;
    frac = x - (int)x;
    while (frac < 1.0 && frac != 0) {
        frac *= 10;
        n++;
    }
    return n;
}

void vg_output_format_number(char *buf, size_t size, double v,
                             enum VgPrecision precision)
{
    if (precision == VG_PRECISION_MAX)
        snprintf(buf, size, "%.17g", v);
    else if (leading_zeros(v) <= 6)
        snprintf(buf, size, "%.6f", v);
    else
        snprintf(buf, size, "%.16f", v);
}

/** Room for %.16f of any double (DBL_MAX has 309 integer digits). */
#define NUM_BUF 352

typedef struct Writer {
    FILE *f;
    VgCollector *c;
    const VgOutputParams *p;
    const char *version;
    int *keys; ///< collector ids of the metrics with at least one value
    unsigned n_keys;
    unsigned subsample;
    char num[NUM_BUF];
} Writer;

static const char *fmt_num(Writer *w, double v)
{
    vg_output_format_number(w->num, sizeof(w->num), v, w->p->precision);
    return w->num;
}

/** JSON: numbers as above, non-finite values as null. */
static const char *fmt_json(Writer *w, double v)
{
    if (!isfinite(v))
        return "null";
    return fmt_num(w, v);
}

static int skip_frame(const Writer *w, unsigned i)
{
    return w->subsample > 1 && i % w->subsample;
}

/** Number of metrics written for frame i. */
static unsigned frame_value_count(Writer *w, unsigned i)
{
    unsigned cnt = 0;
    double v;

    for (unsigned k = 0; k < w->n_keys; k++)
        cnt += !vg_collector_get(w->c, w->keys[k], i, &v);
    return cnt;
}

static int pooled(Writer *w, unsigned key, unsigned m, double *score)
{
    return vg_pool(w->c, w->keys[key], w->p->n_frames, w->subsample,
                   pool_methods[m].method, score);
}

static void write_xml(Writer *w)
{
    FILE *f = w->f;
    double v;

    fprintf(f, "<VMAF version=\"%s\">\n", w->version);
    fprintf(f, "  <params qualityWidth=\"%u\" qualityHeight=\"%u\" />\n",
            w->p->width, w->p->height);
    fprintf(f, "  <fyi fps=\"%.2f\" ", w->p->fps < 0 ? NAN : w->p->fps);
    for (unsigned i = 0; i < w->p->n_counts; i++)
        fprintf(f, "%s=\"%" PRIu64 "\" ", w->p->count_key[i], w->p->count[i]);
    fprintf(f, "/>\n");

    fprintf(f, "  <frames>\n");
    for (unsigned i = 0; i < w->p->n_frames; i++) {
        if (skip_frame(w, i) || !frame_value_count(w, i))
            continue;
        fprintf(f, "    <frame frameNum=\"%u\" ", i);
        for (unsigned k = 0; k < w->n_keys; k++) {
            if (vg_collector_get(w->c, w->keys[k], i, &v))
                continue;
            fprintf(f, "%s=\"%s\" ", vg_collector_name(w->c, w->keys[k]),
                    fmt_num(w, v));
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </frames>\n");

    fprintf(f, "  <pooled_metrics>\n");
    for (unsigned k = 0; k < w->n_keys; k++) {
        fprintf(f, "    <metric name=\"%s\" ",
                vg_collector_name(w->c, w->keys[k]));
        for (unsigned m = 0; m < N_POOL_METHODS; m++) {
            if (pooled(w, k, m, &v))
                continue;
            fprintf(f, "%s=\"%s\" ", pool_methods[m].name, fmt_num(w, v));
        }
        fprintf(f, "/>\n");
    }
    fprintf(f, "  </pooled_metrics>\n");

    fprintf(f, "  <aggregate_metrics ");
    for (unsigned a = 0; a < vg_collector_aggregate_count(w->c); a++) {
        const char *name = vg_collector_aggregate(w->c, a, &v);
        fprintf(f, "%s=\"%s\" ", name, fmt_num(w, v));
    }
    fprintf(f, "/>\n");
    fprintf(f, "</VMAF>\n");
}

static void write_json(Writer *w)
{
    FILE *f = w->f;
    unsigned n_agg = vg_collector_aggregate_count(w->c);
    int first = 1;
    double v;

    fprintf(f, "{\n");
    fprintf(f, "  \"version\": \"%s\",\n", w->version);
    if (w->p->fps >= 0 && isfinite(w->p->fps))
        fprintf(f, "  \"fps\": %.2f,\n", w->p->fps);
    else
        fprintf(f, "  \"fps\": null,\n");
    for (unsigned i = 0; i < w->p->n_counts; i++)
        fprintf(f, "  \"%s\": %" PRIu64 ",\n", w->p->count_key[i],
                w->p->count[i]);

    fprintf(f, "  \"frames\": [");
    for (unsigned i = 0; i < w->p->n_frames; i++) {
        unsigned cnt, done = 0;

        if (skip_frame(w, i) || !(cnt = frame_value_count(w, i)))
            continue;
        fprintf(f, "%s", first ? "\n" : ",\n");
        first = 0;
        fprintf(f, "    {\n");
        fprintf(f, "      \"frameNum\": %u,\n", i);
        fprintf(f, "      \"metrics\": {\n");
        for (unsigned k = 0; k < w->n_keys; k++) {
            if (vg_collector_get(w->c, w->keys[k], i, &v))
                continue;
            done++;
            fprintf(f, "        \"%s\": %s%s%s",
                    vg_collector_name(w->c, w->keys[k]), fmt_json(w, v),
                    done < cnt ? "," : "", isfinite(v) ? "\n" : "");
        }
        fprintf(f, "      }\n");
        fprintf(f, "    }");
    }
    fprintf(f, "\n  ],\n");

    fprintf(f, "  \"pooled_metrics\": {");
    for (unsigned k = 0; k < w->n_keys; k++) {
        int first_m = 1;

        fprintf(f, "%s", k ? ",\n" : "\n");
        fprintf(f, "    \"%s\": {", vg_collector_name(w->c, w->keys[k]));
        for (unsigned m = 0; m < N_POOL_METHODS; m++) {
            if (pooled(w, k, m, &v))
                continue;
            fprintf(f, "%s", first_m ? "\n" : ",\n");
            first_m = 0;
            fprintf(f, "      \"%s\": %s", pool_methods[m].name,
                    fmt_json(w, v));
        }
        fprintf(f, "\n");
        fprintf(f, "    }");
    }
    fprintf(f, "\n  },\n");

    fprintf(f, "  \"aggregate_metrics\": {");
    for (unsigned a = 0; a < n_agg; a++) {
        const char *name = vg_collector_aggregate(w->c, a, &v);
        fprintf(f, "\n    \"%s\": %s%s", name, fmt_json(w, v),
                a + 1 < n_agg ? "," : "");
    }
    fprintf(f, "\n  }\n");
    fprintf(f, "}\n");
}

static void write_csv(Writer *w)
{
    FILE *f = w->f;
    double v;

    fprintf(f, "Frame,");
    for (unsigned k = 0; k < w->n_keys; k++)
        fprintf(f, "%s,", vg_collector_name(w->c, w->keys[k]));
    fprintf(f, "\n");

    for (unsigned i = 0; i < w->p->n_frames; i++) {
        if (skip_frame(w, i) || !frame_value_count(w, i))
            continue;
        fprintf(f, "%u,", i);
        for (unsigned k = 0; k < w->n_keys; k++) {
            if (vg_collector_get(w->c, w->keys[k], i, &v))
                continue;
            fprintf(f, "%s,", fmt_num(w, v));
        }
        fprintf(f, "\n");
    }
}

static void write_sub(Writer *w)
{
    FILE *f = w->f;
    double v;

    for (unsigned i = 0; i < w->p->n_frames; i++) {
        if (skip_frame(w, i) || !frame_value_count(w, i))
            continue;
        fprintf(f, "{%u}{%u}frame: %u|", i, i + 1, i);
        for (unsigned k = 0; k < w->n_keys; k++) {
            if (vg_collector_get(w->c, w->keys[k], i, &v))
                continue;
            fprintf(f, "%s: %s|", vg_collector_name(w->c, w->keys[k]),
                    fmt_num(w, v));
        }
        fprintf(f, "\n");
    }
}

/**
 * Metrics to print, in p->order (or the collector's order): those with a
 * value on some frame. libvmaf's collector only knows a metric once a value
 * was appended; ours may register names ahead (e.g. psnr_cb on 4:0:0
 * input), and those must not appear.
 */
static int select_keys(Writer *w)
{
    unsigned n = vg_collector_count(w->c);
    unsigned n_in = w->p->order ? w->p->n_order : n;
    double v;

    w->keys = malloc((n_in ? n_in : 1) * sizeof(*w->keys));
    if (!w->keys)
        return -ENOMEM;
    for (unsigned j = 0; j < n_in; j++) {
        int k = w->p->order ? w->p->order[j] : (int)j;

        if (k < 0 || (unsigned)k >= n)
            continue;
        for (unsigned i = 0; i < w->p->n_frames; i++) {
            if (!vg_collector_get(w->c, k, i, &v)) {
                w->keys[w->n_keys++] = k;
                break;
            }
        }
    }
    return 0;
}

/**
 * Write the log of collector c in format p->fmt to f.
 * @return 0, -EINVAL on bad arguments, or the stream's write error (-ENOSPC,
 *         -EPIPE, ...; -EIO when its cause is unknown).
 */
int vg_output_write(FILE *f, VgCollector *c, const VgOutputParams *p)
{
    Writer w;
    int ret = 0;

    if (!f || !c || !p)
        return -EINVAL;

    memset(&w, 0, sizeof(w));
    w.f = f;
    w.c = c;
    w.p = p;
    w.version = p->version ? p->version : vg_version();
    w.subsample = p->subsample ? p->subsample : 1;
    if ((ret = select_keys(&w)) < 0)
        return ret;
    errno = 0;

    switch (p->fmt) {
    case VG_LOG_FMT_XML:
        write_xml(&w);
        break;
    case VG_LOG_FMT_JSON:
        write_json(&w);
        break;
    case VG_LOG_FMT_CSV:
        write_csv(&w);
        break;
    case VG_LOG_FMT_SUB:
        write_sub(&w);
        break;
    default:
        ret = -EINVAL;
        goto fail;
    }

    /* the writers' fprintf() calls fail on a full disk or a closed pipe:
     * the stream keeps the error and errno its cause */
    if (fflush(f) || ferror(f))
        ret = errno ? -errno : -EIO;
fail:
    free(w.keys);
    return ret;
}

int vg_rendition_path(char **path, const char *pattern, unsigned r, unsigned n)
{
    size_t len = 0;
    unsigned n_d = 0;
    char num[16], *q;

    if (!path)
        return -EINVAL;
    *path = NULL;
    if (!pattern || r >= n)
        return -EINVAL;
    if (n == 1)
        return (*path = strdup(pattern)) ? 0 : -ENOMEM;
    /* the pattern's length less its escapes, and its one %d */
    for (const char *p = pattern; *p; p++, len++) {
        if (*p != '%')
            continue;
        if (p[1] == 'd')
            n_d++;
        else if (p[1] != '%')
            return -EINVAL;
        p++;
    }
    if (n_d != 1)
        return -EINVAL;
    snprintf(num, sizeof(num), "%u", r);
    if (!(q = *path = malloc(len + strlen(num) + 1)))
        return -ENOMEM;
    for (const char *p = pattern; *p; p++) {
        if (*p == '%' && *++p == 'd') {
            q = stpcpy(q, num);
            continue;
        }
        *q++ = *p;
    }
    *q = '\0';
    return 0;
}
