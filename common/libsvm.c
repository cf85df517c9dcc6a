/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * libsvm's text model (common/libsvm.h), read and evaluated in libvmaf
 * v3.2.0's order of operations, in double, so that a prediction has its
 * bits.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/libsvm.h"
#include "common/log.h"

/** Where the parser writes why it refused a model. */
typedef struct ParseCtx {
    char *err;
    size_t err_size;
} ParseCtx;

#define PERR(pc, ...) parse_error(pc, __VA_ARGS__)

static void VG_PRINTF(2, 3)
    parse_error(const ParseCtx *pc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(pc->err, pc->err_size, fmt, ap);
    va_end(ap);
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/** Next whitespace-separated token of [*p, end); 0 at the end. */
static size_t next_token(const char **p, const char *end, const char **tok)
{
    const char *s = *p;

    while (s < end && is_space(*s))
        s++;
    *tok = s;
    while (s < end && !is_space(*s))
        s++;
    *p = s;
    return s - *tok;
}

static int token_is(const char *tok, size_t len, const char *word)
{
    return len == strlen(word) && !memcmp(tok, word, len);
}

/**
 * Parse a whole token as a finite double. libvmaf reads these with C++
 * streams, which convert with strtod(); so do we. strtod() also reads
 * "nan" and "inf", which no model can use: refused.
 */
static int token_double(const char *tok, size_t len, double *v)
{
    char buf[64], *end;

    if (!len || len >= sizeof(buf))
        return -EINVAL;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    *v = strtod(buf, &end);
    return *end || !isfinite(*v) ? -EINVAL : 0;
}

static int token_long(const char *tok, size_t len, long *v)
{
    char buf[32], *end;

    if (!len || len >= sizeof(buf))
        return -EINVAL;
    memcpy(buf, tok, len);
    buf[len] = '\0';
    *v = strtol(buf, &end, 10);
    return *end ? -EINVAL : 0;
}

void vg_svm_free(VgSvm *s)
{
    free(s->coef);
    free(s->start);
    free(s->nodes);
    memset(s, 0, sizeof(*s));
}

/** Skip `n` values after a header keyword, checking they are numbers. */
static int skip_numbers(const char **p, const char *end, long n)
{
    for (long i = 0; i < n; i++) {
        const char *tok;
        size_t len = next_token(p, end, &tok);
        double v;
        if (token_double(tok, len, &v) < 0)
            return -EINVAL;
    }
    return 0;
}

/**
 * Parse one support vector line: "coef idx:val idx:val ...".
 * Appends its nodes to s->nodes (capacity *cap).
 */
static int svm_parse_sv(VgSvm *s, unsigned i, const char *line, size_t len,
                        size_t *n_nodes, size_t *cap, const ParseCtx *pc)
{
    const char *p = line, *end = line + len;
    int last = 0;

    for (;;) {
        const char *tok;
        size_t tlen = next_token(&p, end, &tok);
        const char *colon;
        long idx;
        double val;

        if (!tlen)
            break;
        colon = memchr(tok, ':', tlen);
        if (!colon) {
            PERR(pc, "support vector %u: '%.*s' is not index:value", i + 1,
                 (int)(tlen < 40 ? tlen : 40), tok);
            return -EINVAL;
        }
        if (token_long(tok, colon - tok, &idx) < 0 || idx <= last ||
            idx > 1 << 20 ||
            token_double(colon + 1, tok + tlen - colon - 1, &val) < 0) {
            PERR(pc,
                 "support vector %u: bad node '%.*s' (index:value with "
                 "indices ascending from 1 and finite values)",
                 i + 1, (int)(tlen < 40 ? tlen : 40), tok);
            return -EINVAL;
        }
        last = (int)idx;
        if (*n_nodes == *cap) {
            size_t ncap = *cap ? *cap * 2 : 1024;
            VgSvmNode *n = realloc(s->nodes, ncap * sizeof(*n));
            if (!n)
                return -ENOMEM;
            s->nodes = n;
            *cap = ncap;
        }
        s->nodes[*n_nodes].index = (int)idx;
        s->nodes[*n_nodes].value = val;
        (*n_nodes)++;
    }
    return 0;
}

static int svm_parse(VgSvm *s, const char *text, size_t text_len,
                     const ParseCtx *pc)
{
    const char *p = text, *end = text + text_len;
    long nr_class = -1, total_sv = -1;
    int have_type = 0, have_kernel = 0, have_gamma = 0, have_rho = 0;
    size_t n_nodes = 0, cap = 0;
    int ret;

    memset(s, 0, sizeof(*s));

    for (;;) {
        const char *tok, *val;
        size_t len = next_token(&p, end, &tok), vlen;
        int bad = 0;

        if (!len) {
            PERR(pc, "libsvm model has no SV section");
            return -EINVAL;
        }
        if (token_is(tok, len, "SV"))
            break;

        if (token_is(tok, len, "svm_type")) {
            vlen = next_token(&p, end, &val);
            /* Both regression types predict through the same sum
             * (svm.cpp svm_predict_values). */
            if (!token_is(val, vlen, "nu_svr") &&
                !token_is(val, vlen, "epsilon_svr")) {
                PERR(pc, "svm_type '%.*s' is not supported (nu_svr only)",
                     (int)(vlen < 40 ? vlen : 40), val);
                return -EINVAL;
            }
            have_type = 1;
        } else if (token_is(tok, len, "kernel_type")) {
            vlen = next_token(&p, end, &val);
            if (!token_is(val, vlen, "rbf")) {
                PERR(pc, "kernel_type '%.*s' is not supported (rbf only)",
                     (int)(vlen < 40 ? vlen : 40), val);
                return -EINVAL;
            }
            have_kernel = 1;
        } else if (token_is(tok, len, "gamma")) {
            vlen = next_token(&p, end, &val);
            bad = token_double(val, vlen, &s->gamma) < 0;
            have_gamma = 1;
        } else if (token_is(tok, len, "degree") ||
                   token_is(tok, len, "coef0")) {
            bad = skip_numbers(&p, end, 1) < 0;
        } else if (token_is(tok, len, "nr_class")) {
            vlen = next_token(&p, end, &val);
            if (token_long(val, vlen, &nr_class) < 0) {
                bad = 1;
            } else if (nr_class != 2) {
                PERR(pc, "nr_class %ld: a regression model has 2", nr_class);
                return -EINVAL;
            }
        } else if (token_is(tok, len, "total_sv")) {
            vlen = next_token(&p, end, &val);
            bad = token_long(val, vlen, &total_sv) < 0 || total_sv < 1 ||
                  total_sv > 1 << 24;
        } else if (token_is(tok, len, "rho")) {
            if (nr_class != 2) {
                PERR(pc, "libsvm model: rho before nr_class");
                return -EINVAL;
            }
            /* nr_class * (nr_class - 1) / 2 = 1 value */
            vlen = next_token(&p, end, &val);
            bad = token_double(val, vlen, &s->rho) < 0;
            have_rho = 1;
        } else if (token_is(tok, len, "label") || token_is(tok, len, "nr_sv")) {
            bad = nr_class != 2 || skip_numbers(&p, end, nr_class) < 0;
        } else if (token_is(tok, len, "probA") || token_is(tok, len, "probB")) {
            bad = nr_class != 2 || skip_numbers(&p, end, 1) < 0;
        } else {
            PERR(pc, "unknown text '%.*s' in libsvm model",
                 (int)(len < 40 ? len : 40), tok);
            return -EINVAL;
        }
        if (bad) {
            PERR(pc,
                 "libsvm model: bad value for '%.*s' (not a finite "
                 "number)",
                 (int)(len < 40 ? len : 40), tok);
            return -EINVAL;
        }
    }

    if (!have_type || !have_kernel || !have_gamma || !have_rho ||
        nr_class != 2 || total_sv < 1) {
        PERR(pc, "libsvm model header lacks %s",
             !have_type      ? "svm_type"
             : !have_kernel  ? "kernel_type"
             : !have_gamma   ? "gamma"
             : !have_rho     ? "rho"
             : nr_class != 2 ? "nr_class"
                             : "total_sv");
        return -EINVAL;
    }

    /* The support vectors start on the line after "SV". */
    while (p < end && *p != '\n') {
        if (!is_space(*p)) {
            PERR(pc, "libsvm model: text after 'SV'");
            return -EINVAL;
        }
        p++;
    }
    if (p < end)
        p++;

    s->n_sv = (unsigned)total_sv;
    s->coef = malloc(s->n_sv * sizeof(*s->coef));
    s->start = calloc(s->n_sv + 1, sizeof(*s->start));
    if (!s->coef || !s->start) {
        ret = -ENOMEM;
        goto fail;
    }
    /* svm_predict() offsets into nodes even when no support vector has a
     * node (all-zero vectors, which the text format allows) */
    cap = 1024;
    if (!(s->nodes = malloc(cap * sizeof(*s->nodes)))) {
        ret = -ENOMEM;
        goto fail;
    }

    for (unsigned i = 0; i < s->n_sv; i++) {
        const char *nl, *tok, *q;
        size_t line_len, tlen;

        if (p >= end) {
            PERR(pc, "libsvm model: %u support vectors, total_sv says %u", i,
                 s->n_sv);
            ret = -EINVAL;
            goto fail;
        }
        nl = memchr(p, '\n', end - p);
        line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        q = p;
        tlen = next_token(&q, p + line_len, &tok);
        if (token_double(tok, tlen, &s->coef[i]) < 0) {
            PERR(pc,
                 "libsvm model: support vector %u has no coefficient "
                 "(a finite number): '%.*s'",
                 i + 1, (int)(tlen < 40 ? tlen : 40), tok);
            ret = -EINVAL;
            goto fail;
        }
        s->start[i] = (unsigned)n_nodes;
        ret = svm_parse_sv(s, i, q, p + line_len - q, &n_nodes, &cap, pc);
        if (ret < 0)
            goto fail;
        p = nl ? nl + 1 : end;
    }
    s->start[s->n_sv] = (unsigned)n_nodes;

    /* libsvm reads total_sv lines and ignores the rest: refuse a model
     * whose count and lines disagree */
    for (unsigned extra = 0;;) {
        const char *tok, *nl, *q = p;

        if (p >= end) {
            if (!extra)
                break;
            PERR(pc,
                 "libsvm model: total_sv says %u support vectors, the "
                 "model has %u",
                 s->n_sv, s->n_sv + extra);
            ret = -EINVAL;
            goto fail;
        }
        nl = memchr(p, '\n', end - p);
        extra += next_token(&q, nl ? nl : end, &tok) > 0;
        p = nl ? nl + 1 : end;
    }
    return 0;

fail:
    if (ret == -ENOMEM)
        PERR(pc, "out of memory");
    vg_svm_free(s);
    return ret;
}

/**
 * Decision value of a regression model for x[0..n-1] (feature k+1 = x[k]):
 * src/svm.cpp svm_predict_values() with Kernel::k_function() RBF.
 * For each support vector, in file order, the squared distance is summed
 * over the union of indices in ascending order (d*d where both have the
 * index, v*v where only one has it), then coef * exp(-gamma * sum) is
 * added to the total; finally rho is subtracted.
 */
double vg_svm_predict(const VgSvm *s, const double *x, unsigned n)
{
    const double neg_gamma = -s->gamma;
    double sum = 0;

    for (unsigned i = 0; i < s->n_sv; i++) {
        const VgSvmNode *sv = s->nodes + s->start[i];
        const VgSvmNode *sv_end = s->nodes + s->start[i + 1];
        unsigned k = 1;
        double dist = 0;

        while (k <= n && sv < sv_end) {
            if ((unsigned)sv->index == k) {
                double d = x[k - 1] - sv->value;
                dist += d * d;
                k++;
                sv++;
            } else if (k > (unsigned)sv->index) {
                dist += sv->value * sv->value;
                sv++;
            } else {
                dist += x[k - 1] * x[k - 1];
                k++;
            }
        }
        for (; k <= n; k++)
            dist += x[k - 1] * x[k - 1];
        for (; sv < sv_end; sv++)
            dist += sv->value * sv->value;

        sum += s->coef[i] * exp(neg_gamma * dist);
    }
    sum -= s->rho;
    return sum;
}

int vg_svm_parse(VgSvm *s, const char *text, size_t len, char *err,
                 size_t err_size)
{
    const ParseCtx pc = { .err = err, .err_size = err_size };

    return svm_parse(s, text, len, &pc);
}
