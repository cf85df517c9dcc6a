/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * VMAF models' reader: the JSON files (json-c) and model specs, read as
 * libvmaf v3.2.0's src/read_json_model.c reads them (which keys, how),
 * bootstrap collections, and the features a model asks for. The libsvm
 * text inside is common/libsvm.c's; prediction is common/predict.c's.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/model_priv.h"

/** Largest model file we read. */
#define MAX_FILE_SIZE (64 << 20)

/** What the parser is working on, for error messages. */
typedef struct ParseCtx {
    const char *src;
    const char *where; ///< "" or " (member 3)"
    VgLog *log;
} ParseCtx;

#define PERR(pc, ...) parse_error(pc, __VA_ARGS__)

static void VG_PRINTF(2, 3)
    parse_error(const ParseCtx *pc, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    vg_log(pc->log, VG_LOG_ERROR, "model '%s'%s: %s", pc->src, pc->where, msg);
}

static int is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* ------------------------------------------------------------------------ */
/* JSON model_dict (src/read_json_model.c)                                  */

static int json_is_number(json_object *o)
{
    return json_object_is_type(o, json_type_double) ||
           json_object_is_type(o, json_type_int);
}

/** A JSON number that is finite (json-c also reads NaN and Infinity). */
static int json_is_finite(json_object *o)
{
    return json_is_number(o) && isfinite(json_object_get_double(o));
}

static json_object *get_key(json_object *obj, const char *key)
{
    json_object *v = NULL;

    if (!json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

/** slopes / intercepts: element 0 is the output, i + 1 feature i. */
static int parse_linear(const ParseCtx *pc, json_object *md, const char *key,
                        unsigned n_features, double *out0, double *feat)
{
    json_object *a = get_key(md, key);
    size_t n;

    if (!a) {
        PERR(pc, "missing key '%s' (needed by norm_type linear_rescale)", key);
        return -EINVAL;
    }
    if (!json_object_is_type(a, json_type_array)) {
        PERR(pc, "'%s' must be an array of numbers", key);
        return -EINVAL;
    }
    n = json_object_array_length(a);
    if (n != n_features + 1) {
        PERR(pc, "'%s' has %zu entries, %u features need %u", key, n,
             n_features, n_features + 1);
        return -EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *v = json_object_array_get_idx(a, i);
        if (!json_is_number(v)) {
            PERR(pc, "'%s'[%zu] is not a number", key, i);
            return -EINVAL;
        }
        if (!json_is_finite(v)) {
            PERR(pc, "'%s'[%zu] is %s, not a finite number", key, i,
                 json_object_get_string(v));
            return -EINVAL;
        }
        if (i == 0)
            *out0 = json_object_get_double(v);
        else
            feat[i - 1] = json_object_get_double(v);
    }
    return 0;
}

/**
 * Store an option value as libvmaf's dictionary does (src/dict.c with
 * VMAF_DICT_NORMALIZE_NUMERICAL_VALUES): a string that strtof() reads as
 * a number is replaced by "%g" of that float.
 */
static int dict_set_normalized(VgOptDict *d, const char *key, const char *val)
{
    char buf[64], *end = NULL;
    double f = strtof(val, &end);

    if (!(f == 0 && end == val)) {
        snprintf(buf, sizeof(buf), "%g", f);
        val = buf;
    }
    return vg_opt_dict_set(d, key, val);
}

static int parse_opts_dicts(const ParseCtx *pc, json_object *md, SvmModel *m)
{
    json_object *a = get_key(md, "feature_opts_dicts");
    size_t n;

    if (!a)
        return 0;
    if (!json_object_is_type(a, json_type_array)) {
        PERR(pc, "'feature_opts_dicts' must be an array of objects");
        return -EINVAL;
    }
    n = json_object_array_length(a);
    if (n > m->n_features) {
        PERR(pc, "'feature_opts_dicts' has %zu entries for %u features", n,
             m->n_features);
        return -EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *o = json_object_array_get_idx(a, i);
        struct json_object_iterator it, it_end;

        if (!json_object_is_type(o, json_type_object)) {
            PERR(pc, "'feature_opts_dicts'[%zu] is not an object", i);
            return -EINVAL;
        }
        it = json_object_iter_begin(o);
        it_end = json_object_iter_end(o);
        for (; !json_object_iter_equal(&it, &it_end);
             json_object_iter_next(&it)) {
            const char *key = json_object_iter_peek_name(&it);
            json_object *v = json_object_iter_peek_value(&it);
            int ret;

            if (json_is_number(v) && !json_is_finite(v)) {
                PERR(pc,
                     "'feature_opts_dicts'[%zu].%s is %s, not a finite "
                     "number",
                     i, key, json_object_get_string(v));
                return -EINVAL;
            } else if (json_is_number(v)) {
                /* the number's text as written in the file */
                ret = dict_set_normalized(&m->opts[i], key,
                                          json_object_get_string(v));
            } else if (json_object_is_type(v, json_type_boolean)) {
                ret = vg_opt_dict_set(&m->opts[i], key,
                                      json_object_get_boolean(v) ? "true"
                                                                 : "false");
            } else if (json_object_is_type(v, json_type_string)) {
                ret = vg_opt_dict_set(&m->opts[i], key,
                                      json_object_get_string(v));
            } else {
                PERR(pc,
                     "'feature_opts_dicts'[%zu].%s must be a number, "
                     "bool or string",
                     i, key);
                return -EINVAL;
            }
            if (ret < 0) {
                PERR(pc, "'feature_opts_dicts'[%zu]: %s", i,
                     ret == -E2BIG ? "too many options" : "out of memory");
                return ret;
            }
        }
    }
    return 0;
}

static int parse_poly(const ParseCtx *pc, json_object *st, const char *key,
                      int *on, double *val)
{
    json_object *v;

    if (!json_object_object_get_ex(st, key, &v))
        return 0;
    if (!v) { /* JSON null */
        *on = 0;
        return 0;
    }
    if (!json_is_number(v)) {
        PERR(pc, "score_transform.%s must be a number or null", key);
        return -EINVAL;
    }
    if (!json_is_finite(v)) {
        PERR(pc, "score_transform.%s must be a finite number, not %s", key,
             json_object_get_string(v));
        return -EINVAL;
    }
    *on = 1;
    *val = json_object_get_double(v);
    return 0;
}

static int parse_rectify(const ParseCtx *pc, json_object *st, const char *key,
                         int *on)
{
    json_object *v = get_key(st, key);

    if (!v)
        return 0;
    /* read_json_model.c parse_score_transform(): a string, "true" sets it */
    if (!json_object_is_type(v, json_type_string)) {
        PERR(pc,
             "score_transform.%s must be the string \"true\" or "
             "\"false\"",
             key);
        return -EINVAL;
    }
    *on = !strcmp(json_object_get_string(v), "true");
    return 0;
}

static int parse_transform(const ParseCtx *pc, json_object *md, SvmModel *m,
                           int enable_transform)
{
    json_object *st = get_key(md, "score_transform"), *v;
    int ret;

    if (!st)
        return 0;
    if (!json_object_is_type(st, json_type_object)) {
        PERR(pc, "'score_transform' must be an object");
        return -EINVAL;
    }
    if ((v = get_key(st, "enabled"))) {
        if (!json_object_is_type(v, json_type_boolean)) {
            PERR(pc, "score_transform.enabled must be true or false");
            return -EINVAL;
        }
        m->transform.enabled = json_object_get_boolean(v);
    }
    /* read_json_model.c parse_model_dict(): the flag only switches on a
     * transform the file describes. */
    if (enable_transform)
        m->transform.enabled = 1;

    if ((ret = parse_poly(pc, st, "p0", &m->transform.p0_on,
                          &m->transform.p0)) < 0 ||
        (ret = parse_poly(pc, st, "p1", &m->transform.p1_on,
                          &m->transform.p1)) < 0 ||
        (ret = parse_poly(pc, st, "p2", &m->transform.p2_on,
                          &m->transform.p2)) < 0 ||
        (ret = parse_rectify(pc, st, "out_lte_in", &m->transform.out_lte_in)) <
            0 ||
        (ret = parse_rectify(pc, st, "out_gte_in", &m->transform.out_gte_in)) <
            0)
        return ret;

    if (json_object_object_get_ex(st, "knots", &v) && v) {
        size_t n;

        if (!json_object_is_type(v, json_type_array)) {
            PERR(pc, "score_transform.knots must be an array of [x, y]");
            return -EINVAL;
        }
        n = json_object_array_length(v);
        if (n < 2 || n > MAX_KNOTS) {
            PERR(pc, "score_transform.knots has %zu points (2..%d)", n,
                 MAX_KNOTS);
            return -EINVAL;
        }
        for (size_t i = 0; i < n; i++) {
            json_object *k = json_object_array_get_idx(v, i);
            json_object *kx, *ky;
            if (!json_object_is_type(k, json_type_array) ||
                json_object_array_length(k) != 2 ||
                !json_is_number(kx = json_object_array_get_idx(k, 0)) ||
                !json_is_number(ky = json_object_array_get_idx(k, 1))) {
                PERR(pc, "score_transform.knots[%zu] is not [x, y]", i);
                return -EINVAL;
            }
            if (!json_is_finite(kx) || !json_is_finite(ky)) {
                PERR(pc,
                     "score_transform.knots[%zu] is [%s, %s], not finite "
                     "numbers",
                     i, json_object_get_string(kx), json_object_get_string(ky));
                return -EINVAL;
            }
            m->transform.knots[i].x = json_object_get_double(kx);
            m->transform.knots[i].y = json_object_get_double(ky);
            /* predict.c piecewise_linear_mapping() refuses other knots */
            if (i &&
                !(m->transform.knots[i - 1].x < m->transform.knots[i].x &&
                  m->transform.knots[i - 1].y <= m->transform.knots[i].y)) {
                PERR(pc, "score_transform.knots must have increasing x and "
                         "non-decreasing y");
                return -EINVAL;
            }
        }
        m->transform.n_knots = (unsigned)n;
        m->transform.knots_on = 1;
    }
    return 0;
}

static int parse_clip(const ParseCtx *pc, json_object *md, SvmModel *m,
                      int disable_clip)
{
    json_object *a = get_key(md, "score_clip"), *lo, *hi;

    if (!a)
        return 0;
    if (!json_object_is_type(a, json_type_array) ||
        json_object_array_length(a) != 2 ||
        !json_is_number(lo = json_object_array_get_idx(a, 0)) ||
        !json_is_number(hi = json_object_array_get_idx(a, 1))) {
        PERR(pc, "'score_clip' must be [min, max]");
        return -EINVAL;
    }
    /* NaN bounds would disable the clipping silently */
    if (!json_is_finite(lo) || !json_is_finite(hi) ||
        !(json_object_get_double(lo) <= json_object_get_double(hi))) {
        PERR(pc, "'score_clip' [%s, %s] must be finite numbers with min <= max",
             json_object_get_string(lo), json_object_get_string(hi));
        return -EINVAL;
    }
    if (disable_clip)
        return 0;
    m->clip = 1;
    m->clip_min = json_object_get_double(lo);
    m->clip_max = json_object_get_double(hi);
    return 0;
}

/**
 * The features predict.c post_process_feature_from_another() links:
 * name containing "adm3" guides the one containing "speed_chroma".
 */
static int find_chroma_features(const ParseCtx *pc, SvmModel *m)
{
    int guiding = -1, guided = -1;

    for (unsigned i = 0; i < m->n_features; i++) {
        if (strstr(m->feature_name[i], "adm3")) {
            if (guiding >= 0)
                goto dup;
            guiding = (int)i;
        }
        if (strstr(m->feature_name[i], "speed_chroma")) {
            if (guided >= 0)
                goto dup;
            guided = (int)i;
        }
    }
    if (guiding < 0 || guided < 0) {
        PERR(pc, "chroma_correction_parameter needs an adm3 and a "
                 "speed_chroma feature");
        return -EINVAL;
    }
    m->guiding_idx = (unsigned)guiding;
    m->guided_idx = (unsigned)guided;
    return 0;
dup:
    PERR(pc, "chroma_correction_parameter: more than one adm3 or "
             "speed_chroma feature");
    return -EINVAL;
}

static void svm_model_free(SvmModel *m)
{
    for (unsigned i = 0; i < VG_MODEL_MAX_FEATURES; i++) {
        free(m->feature_name[i]);
        vg_opt_dict_free(&m->opts[i]);
    }
    vg_svm_free(&m->svm);
    memset(m, 0, sizeof(*m));
}

static int parse_model_dict(const ParseCtx *pc, json_object *top, SvmModel *m,
                            int disable_clip, int enable_transform)
{
    json_object *md = get_key(top, "model_dict"), *v;
    char err[512];
    const char *s;
    size_t n;
    int ret;

    if (!md) {
        PERR(pc, "missing key 'model_dict'");
        return -EINVAL;
    }
    if (!json_object_is_type(md, json_type_object)) {
        PERR(pc, "'model_dict' must be an object");
        return -EINVAL;
    }

    if (!(v = get_key(md, "model_type")) ||
        !json_object_is_type(v, json_type_string)) {
        PERR(pc,
             v ? "'model_type' must be a string" : "missing key 'model_type'");
        return -EINVAL;
    }
    s = json_object_get_string(v);
    if (!strcmp(s, "LIBSVMNUSVR")) {
        m->type = TYPE_SVM_NUSVR;
    } else if (!strcmp(s, "BOOTSTRAP_LIBSVMNUSVR")) {
        m->type = TYPE_BOOTSTRAP;
    } else if (!strcmp(s, "RESIDUEBOOTSTRAP_LIBSVMNUSVR")) {
        m->type = TYPE_RESIDUE_BOOTSTRAP;
    } else {
        PERR(pc, "unknown model_type '%s'", s);
        return -EINVAL;
    }

    if (!(v = get_key(md, "norm_type")) ||
        !json_object_is_type(v, json_type_string)) {
        PERR(pc,
             v ? "'norm_type' must be a string" : "missing key 'norm_type'");
        return -EINVAL;
    }
    s = json_object_get_string(v);
    if (!strcmp(s, "linear_rescale")) {
        m->norm = NORM_LINEAR_RESCALE;
    } else if (!strcmp(s, "none")) {
        m->norm = NORM_NONE;
    } else {
        PERR(pc, "unknown norm_type '%s'", s);
        return -EINVAL;
    }

    if (!(v = get_key(md, "feature_names")) ||
        !json_object_is_type(v, json_type_array)) {
        PERR(pc, v ? "'feature_names' must be an array of strings"
                   : "missing key 'feature_names'");
        return -EINVAL;
    }
    n = json_object_array_length(v);
    if (n > VG_MODEL_MAX_FEATURES) {
        PERR(pc, "too many features (%zu, at most %d)", n,
             VG_MODEL_MAX_FEATURES);
        return -EINVAL;
    }
    if (!n) {
        PERR(pc, "'feature_names' is empty");
        return -EINVAL;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *name = json_object_array_get_idx(v, i);
        if (!json_object_is_type(name, json_type_string)) {
            PERR(pc, "'feature_names'[%zu] is not a string", i);
            return -EINVAL;
        }
        if (!(m->feature_name[i] = strdup(json_object_get_string(name)))) {
            PERR(pc, "out of memory");
            return -ENOMEM;
        }
    }
    m->n_features = (unsigned)n;

    if ((ret = parse_opts_dicts(pc, md, m)) < 0)
        return ret;

    if (m->norm == NORM_LINEAR_RESCALE) {
        if ((ret = parse_linear(pc, md, "slopes", m->n_features, &m->slope,
                                m->f_slope)) < 0 ||
            (ret = parse_linear(pc, md, "intercepts", m->n_features,
                                &m->intercept, m->f_intercept)) < 0)
            return ret;
        /* predict.c divides the SVM output by it */
        if (m->slope == 0.0) {
            PERR(pc, "'slopes'[0] is 0: every score would be infinite");
            return -EINVAL;
        }
    }

    if ((ret = parse_clip(pc, md, m, disable_clip)) < 0 ||
        (ret = parse_transform(pc, md, m, enable_transform)) < 0)
        return ret;

    if ((v = get_key(md, "chroma_correction_parameter"))) {
        if (!json_is_finite(v)) {
            PERR(pc, "'chroma_correction_parameter' must be a finite number");
            return -EINVAL;
        }
        m->chroma_param = json_object_get_double(v);
        /* predict.c skips the prediction entirely when it is 0 */
        if (m->chroma_param == 0.0) {
            PERR(pc, "'chroma_correction_parameter' 0 is not supported");
            return -EINVAL;
        }
        m->chroma = 1;
        if ((ret = find_chroma_features(pc, m)) < 0)
            return ret;
        /* predict.c de-normalises both features: divides by their slopes */
        if (m->norm == NORM_LINEAR_RESCALE &&
            (m->f_slope[m->guiding_idx] == 0.0 ||
             m->f_slope[m->guided_idx] == 0.0)) {
            PERR(pc, "chroma_correction_parameter: the slopes of the adm3 and "
                     "speed_chroma features must not be 0");
            return -EINVAL;
        }
    }

    if (!(v = get_key(md, "model")) ||
        !json_object_is_type(v, json_type_string)) {
        PERR(pc, v ? "'model' must be a string (libsvm model)"
                   : "missing key 'model'");
        return -EINVAL;
    }
    if ((ret = vg_svm_parse(&m->svm, json_object_get_string(v),
                            (size_t)json_object_get_string_len(v), err,
                            sizeof(err))) < 0)
        PERR(pc, "%s", err);
    return ret;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */

static int read_file(const char *path, char **data, size_t *len, VgLog *log)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int ret;

    if (!f) {
        ret = -errno;
        vg_log(log, VG_LOG_ERROR, "cannot open model file '%s': %s", path,
               strerror(errno));
        return ret ? ret : -ENOENT;
    }
    for (;;) {
        size_t got, want;
        if (n == cap) {
            char *nbuf;
            if (cap >= MAX_FILE_SIZE) {
                vg_log(log, VG_LOG_ERROR,
                       "model file '%s' is larger than "
                       "%d MiB",
                       path, MAX_FILE_SIZE >> 20);
                ret = -EFBIG;
                goto fail;
            }
            cap = cap ? cap * 2 : 1 << 16;
            if (!(nbuf = realloc(buf, cap + 1))) {
                vg_log(log, VG_LOG_ERROR, "out of memory reading '%s'", path);
                ret = -ENOMEM;
                goto fail;
            }
            buf = nbuf;
        }
        want = cap - n;
        got = fread(buf + n, 1, want, f);
        n += got;
        if (got < want) {
            if (ferror(f)) {
                vg_log(log, VG_LOG_ERROR, "cannot read model file '%s'", path);
                ret = -EIO;
                goto fail;
            }
            break;
        }
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return 0;

fail:
    fclose(f);
    free(buf);
    return ret;
}

static int parse_json(json_object **obj, const char *data, size_t len,
                      const char *src, VgLog *log)
{
    json_tokener *tok = json_tokener_new();
    enum json_tokener_error jerr;
    json_object *o;
    size_t off;

    if (!tok) {
        vg_log(log, VG_LOG_ERROR, "model '%s': out of memory", src);
        return -ENOMEM;
    }
    if (len > (size_t)1 << 30) {
        json_tokener_free(tok);
        vg_log(log, VG_LOG_ERROR, "model '%s': too large", src);
        return -EFBIG;
    }
    o = json_tokener_parse_ex(tok, data, (int)len);
    jerr = json_tokener_get_error(tok);
    off = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);

    if (jerr == json_tokener_continue || (!o && jerr == json_tokener_success)) {
        vg_log(log, VG_LOG_ERROR,
               "model '%s': truncated JSON (input ends "
               "after %zu bytes)",
               src, len);
        return -EINVAL;
    }
    if (jerr != json_tokener_success) {
        vg_log(log, VG_LOG_ERROR, "model '%s': malformed JSON at byte %zu: %s",
               src, off, json_tokener_error_desc(jerr));
        return -EINVAL;
    }
    for (; off < len; off++) {
        if (!is_space(data[off])) {
            json_object_put(o);
            vg_log(log, VG_LOG_ERROR,
                   "model '%s': malformed JSON: text "
                   "after the top-level value at byte %zu",
                   src, off);
            return -EINVAL;
        }
    }
    if (!json_object_is_type(o, json_type_object)) {
        json_object_put(o);
        vg_log(log, VG_LOG_ERROR,
               "model '%s': the top-level JSON value is "
               "not an object",
               src);
        return -EINVAL;
    }
    *obj = o;
    return 0;
}

/** Spec options (libvmaf tools/cli_parse.c parse_model_config()). */
typedef struct Spec {
    char *buf;
    const char *version, *path, *name;
    int disable_clip, enable_transform;
    unsigned n_overloads;
    struct {
        const char *feature, *option, *value;
    } overload[VG_OPT_DICT_MAX];
} Spec;

static int is_true(const char *v)
{
    return !strcmp(v, "true") || !strcmp(v, "1");
}

static int parse_spec(Spec *sp, const char *spec, VgLog *log)
{
    char *p, *item;

    memset(sp, 0, sizeof(*sp));
    if (!spec || !*spec) {
        vg_log(log, VG_LOG_ERROR, "empty model specification");
        return -EINVAL;
    }
    if (!(sp->buf = strdup(spec))) {
        vg_log(log, VG_LOG_ERROR, "out of memory");
        return -ENOMEM;
    }
    sp->name = "vmaf";
    p = sp->buf;
    while ((item = strsep(&p, ":"))) {
        char *val = strchr(item, '='), *dot;

        if (!*item)
            continue;
        if (val)
            *val++ = '\0';
        if (!strcmp(item, "disable_clip")) {
            sp->disable_clip = !val || is_true(val);
        } else if (!strcmp(item, "enable_transform")) {
            sp->enable_transform = !val || is_true(val);
        } else if (!val) {
            vg_log(log, VG_LOG_ERROR,
                   "model option '%s' needs a value "
                   "(%s=...)",
                   item, item);
            return -EINVAL;
        } else if (!strcmp(item, "version")) {
            sp->version = val;
        } else if (!strcmp(item, "path")) {
            sp->path = val;
        } else if (!strcmp(item, "name")) {
            sp->name = val;
        } else if ((dot = strchr(item, '.')) && dot != item && dot[1]) {
            char *opt_end;
            *dot = '\0';
            /* cli_parse.c: the option name ends at a second '.' */
            if ((opt_end = strchr(dot + 1, '.')))
                *opt_end = '\0';
            if (sp->n_overloads == VG_OPT_DICT_MAX) {
                vg_log(log, VG_LOG_ERROR,
                       "too many feature option overloads "
                       "in model specification (at most %d)",
                       VG_OPT_DICT_MAX);
                return -E2BIG;
            }
            sp->overload[sp->n_overloads].feature = item;
            sp->overload[sp->n_overloads].option = dot + 1;
            sp->overload[sp->n_overloads].value = val;
            sp->n_overloads++;
        } else {
            vg_log(log, VG_LOG_ERROR,
                   "unknown model option '%s' (expected "
                   "version, path, name, disable_clip, enable_transform or "
                   "<extractor>.<option>)",
                   item);
            return -EINVAL;
        }
    }
    if (!*sp->name) {
        vg_log(log, VG_LOG_ERROR, "model name must not be empty");
        return -EINVAL;
    }
    if (!sp->version == !sp->path) {
        vg_log(log, VG_LOG_ERROR,
               "model specification '%s' needs exactly "
               "one of version= and path=",
               spec);
        return -EINVAL;
    }
    return 0;
}

/** libvmaf src/dict.c isnumeric(): the whole value reads as a float. */
static int is_numeric(const char *s)
{
    float f;
    char c;

    return sscanf(s, "%f %c", &f, &c) == 1;
}

/** Members must predict from the same input vector as the main model. */
static int same_features(const SvmModel *a, const SvmModel *b)
{
    if (a->n_features != b->n_features)
        return 0;
    for (unsigned i = 0; i < a->n_features; i++) {
        if (strcmp(a->feature_name[i], b->feature_name[i]) ||
            a->opts[i].n != b->opts[i].n)
            return 0;
        for (unsigned j = 0; j < a->opts[i].n; j++) {
            const char *v = vg_opt_dict_get(&b->opts[i], a->opts[i].key[j]);
            if (!v || strcmp(v, a->opts[i].val[j]))
                return 0;
        }
    }
    return 1;
}

static int load_collection(VgModel *m, json_object *top, const Spec *sp,
                           VgLog *log)
{
    ParseCtx pc = { m->source, "", log };
    char where[32], key[16];
    unsigned n = 0;
    int ret;

    /* read_json_model.c model_collection_parse(): keys "0", "1", ... */
    while (snprintf(key, sizeof(key), "%u", n + 1),
           json_object_object_get_ex(top, key, NULL))
        n++;
    if (!n) {
        PERR(&pc, "no 'model_dict' and no bootstrap members \"0\", \"1\"...");
        return -EINVAL;
    }
    if (n > MAX_MEMBERS) {
        PERR(&pc, "too many bootstrap members (%u, at most %d)", n,
             MAX_MEMBERS);
        return -EINVAL;
    }

    pc.where = " (member 0)";
    ret = parse_model_dict(&pc, get_key(top, "0"), &m->main, sp->disable_clip,
                           sp->enable_transform);
    if (ret < 0)
        return ret;

    m->members = calloc(n, sizeof(*m->members));
    m->member_names = calloc(n + 1, sizeof(*m->member_names));
    if (!m->members || !m->member_names) {
        PERR(&pc, "out of memory");
        return -ENOMEM;
    }
    m->n_members = n;
    for (unsigned i = 0; i < n; i++) {
        json_object *o;
        size_t len = strlen(m->name) + 6;

        snprintf(key, sizeof(key), "%u", i + 1);
        snprintf(where, sizeof(where), " (member %u)", i + 1);
        pc.where = where;
        o = get_key(top, key);
        if (!json_object_is_type(o, json_type_object)) {
            PERR(&pc, "bootstrap member is not an object");
            return -EINVAL;
        }
        ret = parse_model_dict(&pc, o, &m->members[i], sp->disable_clip,
                               sp->enable_transform);
        if (ret < 0)
            return ret;
        /* model.c vmaf_model_collection_append() + predict.c
         * vmaf_predict_score_at_index_model_collection() */
        if (m->members[i].type != TYPE_BOOTSTRAP &&
            m->members[i].type != TYPE_RESIDUE_BOOTSTRAP) {
            PERR(&pc, "collection members must be BOOTSTRAP_LIBSVMNUSVR or "
                      "RESIDUEBOOTSTRAP_LIBSVMNUSVR");
            return -EINVAL;
        }
        if (m->members[i].type != m->members[0].type) {
            PERR(&pc, "collection members have different model_type");
            return -EINVAL;
        }
        if (!same_features(&m->main, &m->members[i])) {
            PERR(&pc, "bootstrap members must use the same features and "
                      "options as member 0");
            return -EINVAL;
        }
        /* read_json_model.c: members are named "<name>_%04d" */
        if (!(m->member_names[i] = malloc(len + 16))) {
            PERR(&pc, "out of memory");
            return -ENOMEM;
        }
        snprintf(m->member_names[i], len + 16, "%s_%04u", m->name, i + 1);
    }
    return 0;
}

/**
 * Map the model's features to extractors, merge the spec's overloads into
 * their options (model.c vmaf_model_feature_overload(): same extractor,
 * value replaces the file's), then check the options by applying them.
 */
static int resolve_features(VgModel *m, const Spec *sp, VgModelResolver resolve,
                            VgLog *log)
{
    SvmModel *mm = &m->main;
    int ret;

    m->features = calloc(mm->n_features, sizeof(*m->features));
    if (!m->features) {
        vg_log(log, VG_LOG_ERROR, "out of memory");
        return -ENOMEM;
    }
    for (unsigned i = 0; i < mm->n_features; i++) {
        VgModelFeature *f = &m->features[i];
        unsigned out = 0;

        f->desc = resolve(mm->feature_name[i], &out);
        if (!f->desc) {
            vg_log(log, VG_LOG_ERROR,
                   "model %s needs feature %s which is "
                   "not available",
                   m->source, mm->feature_name[i]);
            return -EINVAL;
        }
        f->output = out;
        if ((ret = vg_opt_dict_copy(&f->opts, &mm->opts[i])) < 0) {
            vg_log(log, VG_LOG_ERROR, "out of memory");
            return ret;
        }
    }

    for (unsigned j = 0; j < sp->n_overloads; j++) {
        unsigned hits = 0;

        for (unsigned i = 0; i < mm->n_features; i++) {
            VgModelFeature *f = &m->features[i];
            const char *val = sp->overload[j].value;
            char norm[64];

            if (strcmp(f->desc->name, sp->overload[j].feature))
                continue;
            hits++;
            /* dict.c vmaf_feature_dictionary_set(): numbers normalised */
            if (is_numeric(val)) {
                snprintf(norm, sizeof(norm), "%g", (double)strtof(val, NULL));
                val = norm;
            }
            if ((ret = vg_opt_dict_set(&f->opts, sp->overload[j].option, val)) <
                0) {
                vg_log(log, VG_LOG_ERROR, "model %s: cannot set %s.%s: %s",
                       m->source, sp->overload[j].feature,
                       sp->overload[j].option,
                       ret == -E2BIG ? "too many options" : "out of memory");
                return ret;
            }
        }
        if (!hits) {
            /* libvmaf ignores it too; say so */
            vg_log(log, VG_LOG_WARNING,
                   "model %s has no feature of extractor "
                   "'%s': '%s.%s' ignored",
                   m->source, sp->overload[j].feature, sp->overload[j].feature,
                   sp->overload[j].option);
        }
    }

    for (unsigned i = 0; i < mm->n_features; i++) {
        const VgFeatureDesc *d = m->features[i].desc;
        void *opts = calloc(1, d->opts_size ? d->opts_size : 1);

        if (!opts) {
            vg_log(log, VG_LOG_ERROR, "out of memory");
            return -ENOMEM;
        }
        ret = vg_opt_apply(d, &m->features[i].opts, opts, log);
        free(opts);
        if (ret < 0)
            return ret;
    }
    return 0;
}

void vg_model_free(VgModel **model)
{
    VgModel *m = model ? *model : NULL;

    if (!m)
        return;
    svm_model_free(&m->main);
    for (unsigned i = 0; i < m->n_members; i++)
        svm_model_free(&m->members[i]);
    free(m->members);
    if (m->member_names)
        for (unsigned i = 0; i < m->n_members; i++)
            free(m->member_names[i]);
    free(m->member_names);
    if (m->features)
        for (unsigned i = 0; i < m->info.n_features; i++)
            vg_opt_dict_free(&m->features[i].opts);
    free(m->features);
    free(m->name);
    free(m->source);
    free(m);
    *model = NULL;
}

int vg_model_load_with(VgModel **model, const char *spec,
                       VgModelResolver resolve, VgLog *log)
{
    Spec sp;
    VgModel *m = NULL;
    json_object *top = NULL;
    char *file = NULL;
    const char *data;
    size_t len;
    int ret;

    if (!model)
        return -EINVAL;
    *model = NULL;
    if (!resolve)
        resolve = vg_feature_find_by_output;
    if ((ret = parse_spec(&sp, spec, log)) < 0)
        goto fail;

    if (!(m = calloc(1, sizeof(*m))) || !(m->name = strdup(sp.name)) ||
        !(m->source = strdup(sp.version ? sp.version : sp.path))) {
        vg_log(log, VG_LOG_ERROR, "out of memory");
        ret = -ENOMEM;
        goto fail;
    }

    if (sp.version) {
        if (!(data = vg_builtin_model_json(sp.version, &len))) {
            const char *const *names = vg_builtin_models();
            char known[768] = "";
            size_t n = 0;

            for (unsigned i = 0; names && names[i]; i++)
                n += snprintf(known + n,
                              n < sizeof(known) ? sizeof(known) - n : 0, "%s%s",
                              i ? ", " : "", names[i]);
            if (n >= sizeof(known))
                memcpy(known + sizeof(known) - 4, "...", 4);
            if (names && names[0])
                vg_log(log, VG_LOG_ERROR,
                       "unknown built-in model version "
                       "'%s' (built in: %s; or use path=)",
                       sp.version, known);
            else
                vg_log(log, VG_LOG_ERROR,
                       "unknown built-in model version "
                       "'%s' (this build embeds no models; use path=)",
                       sp.version);
            ret = -EINVAL;
            goto fail;
        }
    } else {
        if ((ret = read_file(sp.path, &file, &len, log)) < 0)
            goto fail;
        data = file;
    }

    if ((ret = parse_json(&top, data, len, m->source, log)) < 0)
        goto fail;

    /* model.c / tools/vmaf.c: a single model if there is a model_dict,
     * else a bootstrap collection */
    if (json_object_object_get_ex(top, "model_dict", NULL)) {
        ParseCtx pc = { m->source, "", log };
        ret = parse_model_dict(&pc, top, &m->main, sp.disable_clip,
                               sp.enable_transform);
    } else {
        ret = load_collection(m, top, &sp, log);
    }
    if (ret < 0)
        goto fail;

    m->info.name = m->name;
    m->info.source = m->source;
    m->info.n_features = m->main.n_features;
    if ((ret = resolve_features(m, &sp, resolve, log)) < 0)
        goto fail;
    m->info.features = m->features;
    m->info.is_collection = m->n_members > 0;
    m->info.n_members = m->n_members;
    m->info.member_names = (const char *const *)m->member_names;

    json_object_put(top);
    free(file);
    free(sp.buf);
    *model = m;
    return 0;

fail:
    json_object_put(top);
    free(file);
    free(sp.buf);
    vg_model_free(&m);
    return ret;
}

int vg_model_load(VgModel **model, const char *spec, VgLog *log)
{
    return vg_model_load_with(model, spec, NULL, log);
}

const VgModelInfo *vg_model_info(const VgModel *model)
{
    return model ? &model->info : NULL;
}
