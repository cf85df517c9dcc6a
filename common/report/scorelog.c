/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Readers of the JSON and XML logs that common/report/output.c writes (libvmaf
 * v3.2.0 src/output.c has the same layout):
 *
 *   JSON: { "version": .., "fps": .., "frames": [ { "frameNum": N,
 *           "metrics": { name: value, .. } }, .. ], "pooled_metrics":
 *           { name: { "min": .., "max": .., "mean": .., "harmonic_mean": .. } },
 *           "aggregate_metrics": { .. } }
 *   XML:  <VMAF version=..> <params ../> <fyi fps=../> <frames> <frame
 *           frameNum="N" name="value" .. /> .. </frames> <pooled_metrics>
 *           <metric name=".." min=".." .. /> .. </pooled_metrics>
 *           <aggregate_metrics .. /> </VMAF>
 *
 * JSON: the top-level object and the frames array are walked here, and
 * each value in them (one frame, the pooled metrics, ...) is parsed by
 * json-c, so that a log of hundreds of thousands of frames never becomes
 * one tree in memory. XML: a small parser of the XML that such logs use
 * (elements, attributes with either quote, the five predefined entities
 * and character references, comments, processing instructions, a doctype
 * without an internal subset); anything else is an error with its line.
 *
 * The logs' "fps" is the scoring speed (frames scored per second of wall
 * time), not the video's frame rate, so it is not read.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/report/scorelog.h"

/** Largest log read (json-c takes the length of a value as an int). */
#define MAX_LOG_SIZE ((size_t)INT_MAX - 1)

/* ---- the in-memory form --------------------------------------------------- */

int vg_score_name_is_model(const char *name)
{
    static const char *const derived[] = {
        "_bagging",
        "_stddev",
        "_ci_p95_lo",
        "_ci_p95_hi",
    };
    size_t len = strlen(name);
    const char *us;

    if (strncmp(name, "vmaf", 4))
        return 0;
    for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
        size_t dl = strlen(derived[i]);
        if (len > dl && !strcmp(name + len - dl, derived[i]))
            return 0;
    }
    /* bootstrap members: <model>_0001 .. (common/model.c names them so, as
     * libvmaf src/predict.c does) */
    us = strrchr(name, '_');
    if (us && strlen(us + 1) == 4 && strspn(us + 1, "0123456789") == 4)
        return 0;
    return 1;
}

int vg_score_log_alloc(VgScoreLog **out, const char *label)
{
    VgScoreLog *l = calloc(1, sizeof(*l));

    *out = NULL;
    if (!l || !(l->label = strdup(label ? label : ""))) {
        free(l);
        return -ENOMEM;
    }
    *out = l;
    return 0;
}

void vg_score_log_free(VgScoreLog **pl)
{
    VgScoreLog *l = *pl;

    if (!l)
        return;
    for (unsigned i = 0; i < l->n_series; i++) {
        free(l->series[i].name);
        free(l->series[i].frame);
        free(l->series[i].value);
    }
    free(l->series);
    free(l->label);
    free(l);
    *pl = NULL;
}

const VgScoreSeries *vg_score_log_find(const VgScoreLog *l, const char *name)
{
    for (unsigned i = 0; i < l->n_series; i++)
        if (!strcmp(l->series[i].name, name))
            return &l->series[i];
    return NULL;
}

VgScoreSeries *vg_score_log_series(VgScoreLog *l, const char *name)
{
    VgScoreSeries *s;

    /* frames list their metrics in the same order: try the one after the
     * last match first, which makes a lookup O(1) on real logs */
    if (l->hint < l->n_series && !strcmp(l->series[l->hint].name, name))
        return &l->series[l->hint++];
    for (unsigned i = 0; i < l->n_series; i++) {
        if (!strcmp(l->series[i].name, name)) {
            l->hint = i + 1;
            return &l->series[i];
        }
    }
    if (l->n_series == l->cap_series) {
        unsigned cap = l->cap_series ? 2 * l->cap_series : 16;
        VgScoreSeries *n = realloc(l->series, cap * sizeof(*n));

        if (!n)
            return NULL;
        l->series = n;
        l->cap_series = cap;
    }
    s = &l->series[l->n_series];
    memset(s, 0, sizeof(*s));
    if (!(s->name = strdup(name)))
        return NULL;
    s->is_model = vg_score_name_is_model(name);
    l->hint = ++l->n_series;
    return s;
}

int vg_score_series_append(VgScoreSeries *s, unsigned frame, double value)
{
    if (s->n && frame <= s->frame[s->n - 1])
        return -EINVAL;
    if (s->n == s->cap) {
        unsigned cap = s->cap ? 2 * s->cap : 256;
        unsigned *f;
        double *v;

        if (cap <= s->cap)
            return -ENOMEM;
        if (!(f = realloc(s->frame, cap * sizeof(*f))))
            return -ENOMEM;
        s->frame = f;
        if (!(v = realloc(s->value, cap * sizeof(*v))))
            return -ENOMEM;
        s->value = v;
        s->cap = cap;
    }
    s->frame[s->n] = frame;
    s->value[s->n++] = value;
    return 0;
}

/* ---- reading --------------------------------------------------------------- */

typedef struct Reader {
    const char *path;
    VgLog *log;
    char *buf; ///< the whole file, NUL-terminated
    size_t len;
    VgScoreLog *l;
    json_tokener *tok;
    long long last_frame; ///< -1 before the first frame
} Reader;

static unsigned line_at(const Reader *r, const char *at)
{
    unsigned line = 1;

    for (const char *p = r->buf; p < at && *p; p++)
        line += *p == '\n';
    return line;
}

/** Log "PATH:LINE: message" (LINE left out when at is NULL); @return -EINVAL. */
static int VG_PRINTF(3, 4)
    rerr(const Reader *r, const char *at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (at)
        vg_log(r->log, VG_LOG_ERROR, "%s:%u: %s", r->path, line_at(r, at), msg);
    else
        vg_log(r->log, VG_LOG_ERROR, "%s: %s", r->path, msg);
    return -EINVAL;
}

static int read_file(Reader *r)
{
    FILE *f = strcmp(r->path, "-") ? fopen(r->path, "rb") : stdin;
    size_t cap = 0, n;
    int ret = 0;

    if (!f) {
        ret = -errno;
        vg_log(r->log, VG_LOG_ERROR, "cannot open log '%s': %s", r->path,
               strerror(errno));
        return ret;
    }
    do {
        if (cap - r->len < 65536) {
            size_t ncap = cap ? 2 * cap : 1 << 20;
            char *nb;

            if (cap > MAX_LOG_SIZE) {
                vg_log(r->log, VG_LOG_ERROR,
                       "log '%s' is larger than %zu "
                       "bytes",
                       r->path, MAX_LOG_SIZE);
                ret = -EFBIG;
                goto end;
            }
            if (!(nb = realloc(r->buf, ncap + 1))) {
                ret = -ENOMEM;
                goto end;
            }
            r->buf = nb;
            cap = ncap;
        }
        n = fread(r->buf + r->len, 1, cap - r->len, f);
        r->len += n;
    } while (n);
    if (ferror(f)) {
        ret = -EIO;
        vg_log(r->log, VG_LOG_ERROR, "cannot read log '%s'", r->path);
        goto end;
    }
    if (r->len > MAX_LOG_SIZE) {
        vg_log(r->log, VG_LOG_ERROR, "log '%s' is larger than %zu bytes",
               r->path, MAX_LOG_SIZE);
        ret = -EFBIG;
        goto end;
    }
    r->buf[r->len] = '\0';
    if (memchr(r->buf, '\0', r->len))
        ret = rerr(r, r->buf + strlen(r->buf), "NUL byte: not a text log");
end:
    if (f != stdin)
        fclose(f);
    return ret;
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static int add_value(Reader *r, const char *at, const char *name,
                     unsigned frame, double v)
{
    VgScoreSeries *s = vg_score_log_series(r->l, name);
    int ret;

    if (!s)
        return -ENOMEM;
    ret = vg_score_series_append(s, frame, v);
    if (ret == -EINVAL)
        return rerr(r, at, "frame %u: metric '%s' appears twice", frame, name);
    return ret;
}

/** Check and take a frame number. */
static int take_frame(Reader *r, const char *at, long long n, unsigned *frame)
{
    if (n < 0 || n >= UINT_MAX)
        return rerr(r, at, "frame number %lld out of range", n);
    if (n <= r->last_frame)
        return rerr(r, at,
                    "frame %lld follows frame %lld: frames must be in "
                    "increasing order",
                    n, r->last_frame);
    r->last_frame = n;
    *frame = (unsigned)n;
    r->l->n_frames++;
    return 0;
}

static void set_pooled(VgScoreSeries *s, const char *method, double v)
{
    if (!strcmp(method, "mean")) {
        s->mean = v;
        s->have_pooled |= VG_SCORE_HAVE_MEAN;
    } else if (!strcmp(method, "harmonic_mean")) {
        s->hmean = v;
        s->have_pooled |= VG_SCORE_HAVE_HMEAN;
    } else if (!strcmp(method, "min")) {
        s->min = v;
        s->have_pooled |= VG_SCORE_HAVE_MIN;
    }
}

/* ---- JSON ------------------------------------------------------------------ */

/** Parse the one JSON value at *pp with json-c and move *pp past it. */
static int json_value(Reader *r, const char **pp, json_object **out)
{
    const char *p = *pp;
    /* the terminating NUL is passed too, so that a number at the very end
     * of the file is complete rather than "continue" */
    size_t left = r->len - (size_t)(p - r->buf) + 1;
    enum json_tokener_error err;

    json_tokener_reset(r->tok);
    *out = json_tokener_parse_ex(r->tok, p, (int)left);
    err = json_tokener_get_error(r->tok);
    if (err != json_tokener_success) {
        json_object_put(*out);
        *out = NULL;
        return rerr(r, p + json_tokener_get_parse_end(r->tok),
                    "malformed JSON: %s", json_tokener_error_desc(err));
    }
    *pp = p + json_tokener_get_parse_end(r->tok);
    return 0;
}

/** A metric value: a number, or null (a non-finite value in our logs). */
static int json_number(json_object *v, double *d)
{
    if (!v) {
        *d = NAN;
        return 0;
    }
    if (json_object_is_type(v, json_type_double) ||
        json_object_is_type(v, json_type_int)) {
        *d = json_object_get_double(v);
        return 0;
    }
    return -EINVAL;
}

static int json_frame(Reader *r, const char *at, json_object *fr)
{
    json_object *num, *metrics;
    unsigned frame;
    int ret;

    if (!json_object_is_type(fr, json_type_object))
        return rerr(r, at, "a \"frames\" entry is not an object");
    if (!json_object_object_get_ex(fr, "frameNum", &num) ||
        !json_object_is_type(num, json_type_int))
        return rerr(r, at, "a frame has no integer \"frameNum\"");
    if ((ret = take_frame(r, at, (long long)json_object_get_int64(num),
                          &frame)) < 0)
        return ret;
    if (!json_object_object_get_ex(fr, "metrics", &metrics) ||
        !json_object_is_type(metrics, json_type_object))
        return rerr(r, at, "frame %u has no \"metrics\" object", frame);
    json_object_object_foreach(metrics, key, val)
    {
        double v;

        if (json_number(val, &v) < 0)
            return rerr(r, at, "frame %u: metric '%s' is not a number", frame,
                        key);
        if ((ret = add_value(r, at, key, frame, v)) < 0)
            return ret;
    }
    return 0;
}

/** pooled_metrics: { name: { method: value } }; unknown metrics are ignored. */
static int json_pooled(Reader *r, const char *at, json_object *pm)
{
    if (!json_object_is_type(pm, json_type_object))
        return rerr(r, at, "\"pooled_metrics\" is not an object");
    json_object_object_foreach(pm, name, methods)
    {
        VgScoreSeries *s = (VgScoreSeries *)vg_score_log_find(r->l, name);

        if (!json_object_is_type(methods, json_type_object))
            return rerr(r, at, "pooled metric '%s' is not an object", name);
        if (!s)
            continue;
        json_object_object_foreach(methods, method, val)
        {
            double v;

            if (json_number(val, &v) < 0)
                return rerr(r, at, "pooled %s of '%s' is not a number", method,
                            name);
            set_pooled(s, method, v);
        }
    }
    return 0;
}

static int json_frames(Reader *r, const char **pp)
{
    const char *p = skip_ws(*pp);
    json_object *fr;
    int ret;

    if (*p != '[')
        return rerr(r, p, "\"frames\" is not an array");
    p = skip_ws(p + 1);
    if (*p == ']') {
        *pp = p + 1;
        return 0;
    }
    for (;;) {
        const char *at = p;

        if ((ret = json_value(r, &p, &fr)) < 0)
            return ret;
        ret = json_frame(r, at, fr);
        json_object_put(fr);
        if (ret < 0)
            return ret;
        p = skip_ws(p);
        if (*p == ']')
            break;
        if (*p != ',')
            return rerr(r, p,
                        "malformed JSON: expected ',' or ']' after a frame");
        p = skip_ws(p + 1);
    }
    *pp = p + 1;
    return 0;
}

static int read_json(Reader *r, const char *p)
{
    json_object *key = NULL, *val = NULL, *pooled = NULL;
    const char *pooled_at = NULL;
    int have_frames = 0, ret;

    if (!(r->tok = json_tokener_new()))
        return -ENOMEM;
    p = skip_ws(p + 1); /* past '{' */
    if (*p == '}')
        return rerr(r, p, "empty JSON object: no frames");
    for (;;) {
        const char *at = p;
        const char *name;

        if (*p != '"')
            return rerr(r, p, "malformed JSON: expected a key");
        if ((ret = json_value(r, &p, &key)) < 0)
            return ret;
        name = json_object_get_string(key);
        p = skip_ws(p);
        if (*p != ':') {
            ret = rerr(r, p, "malformed JSON: expected ':' after \"%s\"", name);
            goto fail;
        }
        p = skip_ws(p + 1);
        if (!strcmp(name, "frames")) {
            if (have_frames) {
                ret = rerr(r, at, "two \"frames\" arrays");
                goto fail;
            }
            have_frames = 1;
            if ((ret = json_frames(r, &p)) < 0)
                goto fail;
        } else {
            const char *vat = p;

            if ((ret = json_value(r, &p, &val)) < 0)
                goto fail;
            if (!strcmp(name, "pooled_metrics")) {
                /* kept for after the frames, which may come later */
                json_object_put(pooled);
                pooled = val;
                pooled_at = vat;
            } else {
                json_object_put(val);
            }
            val = NULL;
        }
        json_object_put(key);
        key = NULL;
        p = skip_ws(p);
        if (*p == '}')
            break;
        if (*p != ',') {
            ret = rerr(r, p, "malformed JSON: expected ',' or '}'");
            goto fail;
        }
        p = skip_ws(p + 1);
    }
    p = skip_ws(p + 1);
    if (*p) {
        ret = rerr(r, p, "malformed JSON: text after the end of the log");
        goto fail;
    }
    if (!have_frames) {
        ret = rerr(r, NULL,
                   "no \"frames\" array: not a vmafgpu or libvmaf "
                   "JSON log");
        goto fail;
    }
    ret = pooled ? json_pooled(r, pooled_at, pooled) : 0;
fail:
    json_object_put(key);
    json_object_put(pooled);
    return ret;
}

/* ---- XML ------------------------------------------------------------------- */

typedef struct XmlAttr {
    const char *name; ///< into the buffer, not terminated
    size_t name_len;
    char *value; ///< decoded, allocated
    const char *at;
} XmlAttr;

#define XML_MAX_DEPTH 16

typedef struct XmlState {
    const char *name[XML_MAX_DEPTH];
    size_t name_len[XML_MAX_DEPTH];
    unsigned depth;
    int root_done;
    XmlAttr *attr;
    unsigned n_attr, cap_attr;
} XmlState;

static int name_char(unsigned char c, int first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
        c == ':' || c >= 0x80)
        return 1;
    return !first && ((c >= '0' && c <= '9') || c == '-' || c == '.');
}

static size_t xml_name(const char *p)
{
    size_t n = 0;

    if (!name_char((unsigned char)p[0], 1))
        return 0;
    while (name_char((unsigned char)p[n], n == 0))
        n++;
    return n;
}

static int name_is(const char *name, size_t len, const char *lit)
{
    return strlen(lit) == len && !memcmp(name, lit, len);
}

static void put_utf8(char **o, unsigned long c)
{
    unsigned char *q = (unsigned char *)*o;

    if (c < 0x80) {
        *q++ = (unsigned char)c;
    } else if (c < 0x800) {
        *q++ = (unsigned char)(0xc0 | c >> 6);
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        *q++ = (unsigned char)(0xe0 | c >> 12);
        *q++ = (unsigned char)(0x80 | (c >> 6 & 0x3f));
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    } else {
        *q++ = (unsigned char)(0xf0 | c >> 18);
        *q++ = (unsigned char)(0x80 | (c >> 12 & 0x3f));
        *q++ = (unsigned char)(0x80 | (c >> 6 & 0x3f));
        *q++ = (unsigned char)(0x80 | (c & 0x3f));
    }
    *o = (char *)q;
}

/** Decode an attribute value [p, end) into a new string (references resolved). */
static int xml_decode(const Reader *r, const char *p, const char *end,
                      char **out)
{
    static const struct {
        const char *name;
        char c;
    } entities[] = {
        { "lt", '<' },   { "gt", '>' },    { "amp", '&' },
        { "quot", '"' }, { "apos", '\'' },
    };
    /* a reference is never shorter than what it decodes to */
    char *o = malloc((size_t)(end - p) + 1), *q = o;

    if (!o)
        return -ENOMEM;
    while (p < end) {
        const char *semi;
        size_t i;

        if (*p == '<') {
            free(o);
            return rerr(r, p, "malformed XML: '<' in an attribute value");
        }
        if (*p != '&') {
            /* attribute-value normalisation: whitespace becomes a space */
            *q++ = *p == '\t' || *p == '\n' || *p == '\r' ? ' ' : *p;
            p++;
            continue;
        }
        semi = memchr(p, ';', (size_t)(end - p));
        if (!semi)
            goto bad;
        if (p[1] == '#') {
            char *e;
            unsigned long c;
            int hex = p[2] == 'x';

            errno = 0;
            c = strtoul(p + 2 + hex, &e, hex ? 16 : 10);
            if (e != semi || e == p + 2 + hex || errno || !c || c > 0x10ffff ||
                (c >= 0xd800 && c <= 0xdfff))
                goto bad;
            put_utf8(&q, c);
            p = semi + 1;
            continue;
        }
        for (i = 0; i < sizeof(entities) / sizeof(entities[0]); i++) {
            if (name_is(p + 1, (size_t)(semi - p - 1), entities[i].name))
                break;
        }
        if (i == sizeof(entities) / sizeof(entities[0]))
            goto bad;
        *q++ = entities[i].c;
        p = semi + 1;
    }
    *q = '\0';
    *out = o;
    return 0;
bad:
    free(o);
    return rerr(r, p, "malformed XML: bad character or entity reference");
}

/** A value of a <frame> or <metric> attribute: the whole string a number. */
static int xml_number(const Reader *r, const XmlAttr *a, double *v)
{
    char *end;

    errno = 0;
    *v = strtod(a->value, &end);
    if (end == a->value || *end)
        return rerr(r, a->at, "attribute %.*s=\"%s\" is not a number",
                    (int)a->name_len, a->name, a->value);
    return 0;
}

static int xml_frame(Reader *r, const char *at, XmlState *x)
{
    const XmlAttr *num = NULL;
    unsigned frame;
    double v;
    int ret;

    for (unsigned i = 0; i < x->n_attr; i++)
        if (name_is(x->attr[i].name, x->attr[i].name_len, "frameNum"))
            num = &x->attr[i];
    if (!num)
        return rerr(r, at, "a <frame> has no frameNum");
    {
        char *end;
        long long n;

        errno = 0;
        n = strtoll(num->value, &end, 10);
        if (end == num->value || *end || errno)
            return rerr(r, num->at, "frameNum=\"%s\" is not an integer",
                        num->value);
        if ((ret = take_frame(r, num->at, n, &frame)) < 0)
            return ret;
    }
    for (unsigned i = 0; i < x->n_attr; i++) {
        const XmlAttr *a = &x->attr[i];
        char name[256];

        if (a == num)
            continue;
        if (a->name_len >= sizeof(name))
            return rerr(r, a->at, "metric name longer than %zu bytes",
                        sizeof(name) - 1);
        memcpy(name, a->name, a->name_len);
        name[a->name_len] = '\0';
        if ((ret = xml_number(r, a, &v)) < 0 ||
            (ret = add_value(r, a->at, name, frame, v)) < 0)
            return ret;
    }
    return 0;
}

static int xml_metric(Reader *r, const char *at, XmlState *x)
{
    VgScoreSeries *s = NULL;
    double v;
    int ret;

    for (unsigned i = 0; i < x->n_attr; i++)
        if (name_is(x->attr[i].name, x->attr[i].name_len, "name"))
            s = (VgScoreSeries *)vg_score_log_find(r->l, x->attr[i].value);
    if (!s)
        return 0; /* a metric without frames, or no name: nothing to draw */
    for (unsigned i = 0; i < x->n_attr; i++) {
        const XmlAttr *a = &x->attr[i];
        char method[32];

        if (name_is(a->name, a->name_len, "name") ||
            a->name_len >= sizeof(method))
            continue;
        memcpy(method, a->name, a->name_len);
        method[a->name_len] = '\0';
        if ((ret = xml_number(r, a, &v)) < 0)
            return ret;
        set_pooled(s, method, v);
    }
    return 0;
}

/** An element's start tag was read, with its attributes in x->attr. */
static int xml_element(Reader *r, const char *at, XmlState *x, const char *name,
                       size_t len)
{
    if (!x->depth) {
        if (x->root_done)
            return rerr(r, at, "malformed XML: a second root element");
        if (!name_is(name, len, "VMAF"))
            return rerr(r, at,
                        "root element <%.*s>: not a vmafgpu or libvmaf "
                        "XML log (<VMAF>)",
                        (int)len, name);
        return 0;
    }
    if (x->depth == 2 && name_is(x->name[1], x->name_len[1], "frames") &&
        name_is(name, len, "frame"))
        return xml_frame(r, at, x);
    if (x->depth == 2 &&
        name_is(x->name[1], x->name_len[1], "pooled_metrics") &&
        name_is(name, len, "metric"))
        return xml_metric(r, at, x);
    return 0;
}

static void xml_clear_attrs(XmlState *x)
{
    for (unsigned i = 0; i < x->n_attr; i++)
        free(x->attr[i].value);
    x->n_attr = 0;
}

/** A start tag at p ('<' + name); *pp moves past its '>'. */
static int xml_start_tag(Reader *r, const char **pp, XmlState *x)
{
    const char *at = *pp, *p = at + 1, *name = p;
    size_t len = xml_name(p);
    int empty = 0, ret;

    if (!len)
        return rerr(r, at, "malformed XML: bad element name");
    p += len;
    xml_clear_attrs(x);
    for (;;) {
        const char *ws = p, *an, *v;
        size_t alen;
        char q;
        XmlAttr *a;

        p = skip_ws(p);
        if (*p == '/' && p[1] == '>') {
            empty = 1;
            p += 2;
            break;
        }
        if (*p == '>') {
            p++;
            break;
        }
        if (p == ws)
            return rerr(r, p,
                        "malformed XML: expected whitespace, '>' or '/>' "
                        "in <%.*s>",
                        (int)len, name);
        an = p;
        if (!(alen = xml_name(p)))
            return rerr(r, p, "malformed XML: bad attribute name in <%.*s>",
                        (int)len, name);
        p = skip_ws(p + alen);
        if (*p != '=')
            return rerr(r, p, "malformed XML: expected '=' after %.*s",
                        (int)alen, an);
        p = skip_ws(p + 1);
        q = *p;
        if (q != '"' && q != '\'')
            return rerr(r, p, "malformed XML: attribute %.*s is not quoted",
                        (int)alen, an);
        v = ++p;
        while (*p && *p != q)
            p++;
        if (!*p)
            return rerr(r, v, "malformed XML: unterminated attribute value");
        for (unsigned i = 0; i < x->n_attr; i++)
            if (x->attr[i].name_len == alen &&
                !memcmp(x->attr[i].name, an, alen))
                return rerr(r, an, "malformed XML: attribute %.*s twice",
                            (int)alen, an);
        if (x->n_attr == x->cap_attr) {
            unsigned cap = x->cap_attr ? 2 * x->cap_attr : 64;
            XmlAttr *na = realloc(x->attr, cap * sizeof(*na));

            if (!na)
                return -ENOMEM;
            x->attr = na;
            x->cap_attr = cap;
        }
        a = &x->attr[x->n_attr];
        a->name = an;
        a->name_len = alen;
        a->at = an;
        if ((ret = xml_decode(r, v, p, &a->value)) < 0)
            return ret;
        x->n_attr++;
        p++;
    }
    if ((ret = xml_element(r, at, x, name, len)) < 0)
        return ret;
    if (empty) {
        if (!x->depth)
            x->root_done = 1;
    } else {
        if (x->depth == XML_MAX_DEPTH)
            return rerr(r, at, "XML nested deeper than %d elements",
                        XML_MAX_DEPTH);
        x->name[x->depth] = name;
        x->name_len[x->depth++] = len;
    }
    *pp = p;
    return 0;
}

static int xml_end_tag(Reader *r, const char **pp, XmlState *x)
{
    const char *at = *pp, *p = at + 2;
    size_t len = xml_name(p);

    if (!len || !x->depth || len != x->name_len[x->depth - 1] ||
        memcmp(p, x->name[x->depth - 1], len))
        return rerr(r, at, "malformed XML: unexpected end tag </%.*s>",
                    (int)len, p);
    p = skip_ws(p + len);
    if (*p != '>')
        return rerr(r, p, "malformed XML: expected '>'");
    if (!--x->depth)
        x->root_done = 1;
    *pp = p + 1;
    return 0;
}

static int read_xml(Reader *r, const char *p)
{
    XmlState x = { 0 };
    int seen_root = 0, ret = 0;

    for (;;) {
        const char *e;

        p = skip_ws(p);
        if (!*p)
            break;
        if (*p != '<') {
            ret = rerr(r, p, "malformed XML: unexpected text");
            goto end;
        }
        if (!strncmp(p, "<?", 2)) {
            if (!(e = strstr(p, "?>"))) {
                ret = rerr(r, p, "malformed XML: unterminated '<?'");
                goto end;
            }
            p = e + 2;
        } else if (!strncmp(p, "<!--", 4)) {
            if (!(e = strstr(p + 4, "-->"))) {
                ret = rerr(r, p, "malformed XML: unterminated comment");
                goto end;
            }
            p = e + 3;
        } else if (!strncmp(p, "<!DOCTYPE", 9) && !seen_root) {
            e = strpbrk(p, "[>");
            if (!e || *e == '[') {
                ret = rerr(r, p,
                           "XML doctypes with an internal subset are "
                           "not supported");
                goto end;
            }
            p = e + 1;
        } else if (p[1] == '!') {
            ret = rerr(r, p,
                       "malformed XML: CDATA or a declaration inside "
                       "the log");
            goto end;
        } else if (p[1] == '/') {
            if ((ret = xml_end_tag(r, &p, &x)) < 0)
                goto end;
        } else {
            seen_root = 1;
            if ((ret = xml_start_tag(r, &p, &x)) < 0)
                goto end;
        }
    }
    if (!seen_root)
        ret = rerr(r, NULL, "no XML element: not a vmafgpu or libvmaf XML log");
    else if (x.depth)
        ret = rerr(r, p, "malformed XML: <%.*s> is not closed",
                   (int)x.name_len[x.depth - 1], x.name[x.depth - 1]);
end:
    xml_clear_attrs(&x);
    free(x.attr);
    return ret;
}

/* ---- entry point ----------------------------------------------------------- */

int vg_score_log_read(VgScoreLog **out, const char *path, VgLog *log)
{
    Reader r = { .path = path, .log = log, .last_frame = -1 };
    const char *p;
    int ret;

    *out = NULL;
    if ((ret = read_file(&r)) < 0)
        goto fail;
    if ((ret = vg_score_log_alloc(&r.l, strcmp(path, "-") ? path : "stdin")) <
        0)
        goto fail;
    p = r.buf;
    if (!strncmp(p, "\xef\xbb\xbf", 3)) /* UTF-8 byte order mark */
        p += 3;
    p = skip_ws(p);
    if (*p == '{')
        ret = read_json(&r, p);
    else if (*p == '<')
        ret = read_xml(&r, p);
    else
        ret = rerr(&r, NULL,
                   "%s: not a JSON or XML log (the plot reads the "
                   "logs of --json and --xml)",
                   *p ? "unknown format" : "empty");
    if (ret < 0)
        goto fail;
    if (!r.l->n_frames) {
        ret = rerr(&r, NULL, "the log has no frames");
        goto fail;
    }
    *out = r.l;
    r.l = NULL;
fail:
    vg_score_log_free(&r.l);
    if (r.tok)
        json_tokener_free(r.tok);
    free(r.buf);
    return ret;
}
