/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * VMAF models (common/model.c) and pooling (common/pool.c).
 *
 *  - Golden: every frame's integer features of golden/hp/<pair>.json
 *    (%.17g, exact doubles) go through vmaf_v0.6.1 / vmaf_v0.6.1neg /
 *    vmaf_4k_v0.6.1 and must give the golden `vmaf` exactly (double ==).
 *    Features are mapped through stand-in descriptors (fake_resolve) so
 *    that the test does not need the vif/adm extractors; the registry
 *    path (vg_model_load) is checked as well: it must either give the same
 *    scores or refuse with "needs feature ... which is not available".
 *  - Bootstrap (vmaf_b_v0.6.3, no golden exists): each member "k" is cut
 *    out of the file into its own single-model file and predicted alone;
 *    from those scores the test computes bagging (mean), population
 *    stddev scaled by the transform's slope, and the 2.5 / 97.5
 *    percentiles (its own sort and interpolation) as libvmaf's
 *    src/predict.c describes them, and compares exactly.
 *  - Transforms (polynomial + out_gte_in, knots), clipping, chroma
 *    correction and a sparse libsvm model against formulas computed here.
 *  - Spec options, overloads, built-in model bytes, and bad input: each
 *    must fail with the right errno and exactly one error line.
 *  - vg_pool() against sums computed here.
 */

#include <check.h>
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "common/collector.h"
#include "common/log.h"
#include "common/model.h"
#include "common/pool.h"
#include "tests/check_run.h"
#include "tests/slurp.h"

static char shared_dir[1024];

static void find_shared(void)
{
    const char *s = getenv("VG_SHARED_DIR");
    const char *top = getenv("VG_TOP_SRCDIR");

    if (s && *s)
        snprintf(shared_dir, sizeof(shared_dir), "%s", s);
    else
        snprintf(shared_dir, sizeof(shared_dir), "%s/../shared",
                 top && *top ? top : "..");
}

/* ---- log capture ------------------------------------------------------- */

typedef struct LogCap {
    int n_error, n_warning;
    char last_error[1024];
} LogCap;

static LogCap cap;
static VgLog vlog;

static void log_cb(void *opaque, enum VgLogLevel level, const char *msg)
{
    LogCap *c = opaque;

    if (level == VG_LOG_ERROR) {
        c->n_error++;
        snprintf(c->last_error, sizeof(c->last_error), "%s", msg);
    } else if (level == VG_LOG_WARNING) {
        c->n_warning++;
    }
}

static void setup(void)
{
    find_shared();
    memset(&cap, 0, sizeof(cap));
    vg_log_init(&vlog, log_cb, &cap, VG_LOG_DEBUG);
}

static void teardown(void)
{
    vg_log_uninit(&vlog);
}

static void reset_log(void)
{
    memset(&cap, 0, sizeof(cap));
}

/* ---- stand-in feature descriptors -------------------------------------- */

typedef struct FakeOpts {
    double gain_limit;
    int force_zero;
} FakeOpts;

/* clang-format off */
static const VgFeatureOption adm_opts[] = {
    { .name = "adm_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE,
      .offset = offsetof(FakeOpts, gain_limit), .def = 100.0, .min = 1.0,
      .max = 100.0, .feature_param = 1 },
    { NULL },
};
/* clang-format on */
/* clang-format off */
static const VgFeatureOption vif_opts[] = {
    { .name = "vif_enhn_gain_limit", .alias = "egl", .type = VG_OPT_DOUBLE,
      .offset = offsetof(FakeOpts, gain_limit), .def = 100.0, .min = 1.0,
      .max = 100.0, .feature_param = 1 },
    { NULL },
};
/* clang-format on */
/* clang-format off */
static const VgFeatureOption motion_opts[] = {
    { .name = "motion_force_zero", .alias = "force_0", .type = VG_OPT_BOOL,
      .offset = offsetof(FakeOpts, force_zero), .feature_param = 1 },
    { NULL },
};
/* clang-format on */

/* clang-format off */
static const VgFeatureOutput adm_out[] = {
    { "VMAF_integer_feature_adm2_score", "integer_adm2", 0 },
    { "VMAF_integer_feature_adm3_score", "integer_adm3", 0 },
    { NULL },
};
/* clang-format on */
/* clang-format off */
static const VgFeatureOutput vif_out[] = {
    { "VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0", 0 },
    { "VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1", 0 },
    { "VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2", 0 },
    { "VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3", 0 },
    { NULL },
};
/* clang-format on */
/* clang-format off */
static const VgFeatureOutput motion_out[] = {
    { "VMAF_integer_feature_motion_sad_score", NULL, 0 },
    { "VMAF_integer_feature_motion2_score", "integer_motion2", 0 },
    { "VMAF_integer_feature_motion3_score", "integer_motion3", 0 },
    { NULL },
};
/* clang-format on */
/* clang-format off */
static const VgFeatureOutput chroma_out[] = {
    { "Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv", 0 },
    { NULL },
};
/* clang-format on */

static const VgFeatureDesc fake_adm = {
    .name = "adm",
    .options = adm_opts,
    .opts_size = sizeof(FakeOpts),
    .outputs = adm_out,
};
static const VgFeatureDesc fake_vif = {
    .name = "vif",
    .options = vif_opts,
    .opts_size = sizeof(FakeOpts),
    .outputs = vif_out,
};
static const VgFeatureDesc fake_motion = {
    .name = "motion",
    .options = motion_opts,
    .opts_size = sizeof(FakeOpts),
    .outputs = motion_out,
};
static const VgFeatureDesc fake_chroma = {
    .name = "speed_chroma",
    .options = NULL,
    .opts_size = 0,
    .outputs = chroma_out,
};

static const VgFeatureDesc *fake_resolve(const char *name, unsigned *out)
{
    static const VgFeatureDesc *const all[] = {
        &fake_adm, &fake_vif, &fake_motion, &fake_chroma, NULL,
    };

    for (unsigned i = 0; all[i]; i++)
        for (unsigned j = 0; all[i]->outputs[j].name; j++)
            if (!strcmp(all[i]->outputs[j].name, name)) {
                *out = j;
                return all[i];
            }
    return NULL;
}

/* ---- files ------------------------------------------------------------- */

static void model_path(char *buf, size_t size, const char *file)
{
    snprintf(buf, size, "%s/models/%s", shared_dir, file);
}

/** Write data to a fresh temporary file; path in buf (caller unlinks). */
static void write_temp(char *buf, size_t size, const char *data, size_t len)
{
    const char *tmp = getenv("TMPDIR");
    int fd;

    snprintf(buf, size, "%s/vg_test_model_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    fd = mkstemp(buf);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, data, len), (ssize_t)len);
    close(fd);
}

static json_object *load_json(const char *path)
{
    json_object *o = json_object_from_file(path);
    ck_assert_msg(o != NULL, "cannot read %s", path);
    return o;
}

/** Write a JSON object to a temporary file, doubles as parsed (exact). */
static void write_json_temp(char *buf, size_t size, json_object *o)
{
    const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
    write_temp(buf, size, s, strlen(s));
}

/* ---- golden ------------------------------------------------------------ */

/** Printed golden key of model feature i: alias, plus "_egl_<v>" when the
 *  model sets an enhancement gain limit (libvmaf feature_name.c rule for
 *  the one non-default feature param these models use). */
static void golden_key(const VgModelFeature *f, char *buf, size_t size)
{
    const char *alias = f->desc->outputs[f->output].alias;
    const char *name = f->desc->outputs[f->output].name;
    size_t len = snprintf(buf, size, "%s", alias ? alias : name);

    for (unsigned j = 0; j < f->opts.n; j++) {
        const char *k = f->opts.key[j];
        size_t kl = strlen(k);
        if (kl > 15 && !strcmp(k + kl - 15, "enhn_gain_limit"))
            snprintf(buf + len, size - len, "_egl_%s", f->opts.val[j]);
    }
}

static double metric(json_object *frame, const char *key)
{
    json_object *m, *v;

    ck_assert(json_object_object_get_ex(frame, "metrics", &m));
    ck_assert_msg(json_object_object_get_ex(m, key, &v), "no key %s", key);
    return json_object_get_double(v);
}

/** Printed key of model feature i: for stand-ins golden_key(), for
 *  registered extractors the library's own naming (vg_opt_key_name()). */
static void feature_key(const VgModelFeature *f, char *buf, size_t size)
{
    void *opts;

    if (f->desc == &fake_adm || f->desc == &fake_vif ||
        f->desc == &fake_motion || f->desc == &fake_chroma) {
        golden_key(f, buf, size);
        return;
    }
    opts = calloc(1, f->desc->opts_size ? f->desc->opts_size : 1);
    ck_assert_ptr_nonnull(opts);
    ck_assert_int_eq(vg_opt_apply(f->desc, &f->opts, opts, &vlog), 0);
    ck_assert_int_eq(vg_opt_key_name(f->desc, f->output, opts, buf, size), 0);
    free(opts);
}

/** Feature vector of one golden frame for this model. */
static void golden_x(const VgModelInfo *info, json_object *frame, double *x)
{
    for (unsigned i = 0; i < info->n_features; i++) {
        char key[128];
        feature_key(&info->features[i], key, sizeof(key));
        x[i] = metric(frame, key);
    }
}

static json_object *golden_frames(json_object *g)
{
    json_object *frames;

    ck_assert(json_object_object_get_ex(g, "frames", &frames));
    ck_assert_int_gt(json_object_array_length(frames), 0);
    return frames;
}

/** Every frame of golden/hp/<file> through `spec` equals its `vmaf`. */
static unsigned check_golden(const char *spec, VgModelResolver resolve,
                             const char *file)
{
    char path[4096];
    VgModel *m = NULL;
    json_object *g, *frames;
    unsigned n;
    int ret;

    snprintf(path, sizeof(path), "%s/golden/hp/%s", shared_dir, file);
    g = load_json(path);
    frames = golden_frames(g);
    ret = vg_model_load_with(&m, spec, resolve, &vlog);
    ck_assert_msg(ret == 0, "%s: %s", spec, cap.last_error);
    n = (unsigned)json_object_array_length(frames);
    for (unsigned i = 0; i < n; i++) {
        json_object *fr = json_object_array_get_idx(frames, i);
        double x[VG_MODEL_MAX_FEATURES], score, want = metric(fr, "vmaf");

        golden_x(vg_model_info(m), fr, x);
        ck_assert_int_eq(vg_model_predict(m, x, &score), 0);
        ck_assert_msg(score == want, "%s frame %u: %.17g, golden %.17g", file,
                      i, score, want);
    }
    vg_model_free(&m);
    ck_assert_ptr_null(m);
    json_object_put(g);
    return n;
}

static const char *const pairs[] = {
    "p1080_crf32",     "p1080_scaled",    "p2160",          "p720_10",
    "r352x288_420p12", "r640x360_422p10", "r640x360_444p8", NULL,
};

START_TEST(golden_v061)
{
    char spec[4200], file[4096];
    unsigned frames = 0;

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    snprintf(spec, sizeof(spec), "path=%s", file);
    for (unsigned i = 0; pairs[i]; i++) {
        snprintf(file, sizeof(file), "%s.json", pairs[i]);
        frames += check_golden(spec, fake_resolve, file);
        if (vg_builtin_model_json("vmaf_v0.6.1", NULL))
            check_golden("version=vmaf_v0.6.1", fake_resolve, file);
    }
    ck_assert_uint_ge(frames, 7);
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

START_TEST(golden_neg_and_4k)
{
    char spec[4200], file[4096];

    model_path(file, sizeof(file), "vmaf_v0.6.1neg.json");
    snprintf(spec, sizeof(spec), "path=%s", file);
    check_golden(spec, fake_resolve, "p1080_crf32__vmaf_v0.6.1neg.json");
    check_golden(spec, fake_resolve, "p1080_scaled__vmaf_v0.6.1neg.json");
    model_path(file, sizeof(file), "vmaf_4k_v0.6.1.json");
    snprintf(spec, sizeof(spec), "path=%s", file);
    check_golden(spec, fake_resolve, "p2160__vmaf_4k_v0.6.1.json");
    if (vg_builtin_model_json("vmaf_v0.6.1neg", NULL))
        check_golden("version=vmaf_v0.6.1neg", fake_resolve,
                     "p1080_crf32__vmaf_v0.6.1neg.json");
    if (vg_builtin_model_json("vmaf_4k_v0.6.1", NULL))
        check_golden("version=vmaf_4k_v0.6.1", fake_resolve,
                     "p2160__vmaf_4k_v0.6.1.json");
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* The registry's lookup: same scores once every extractor is registered,
 * else a refusal that names the missing feature. */
START_TEST(registry_lookup)
{
    static const char *const need[] = {
        "VMAF_integer_feature_adm2_score",
        "VMAF_integer_feature_motion2_score",
        "VMAF_integer_feature_vif_scale0_score",
        "VMAF_integer_feature_vif_scale1_score",
        "VMAF_integer_feature_vif_scale2_score",
        "VMAF_integer_feature_vif_scale3_score",
        NULL,
    };
    const char *missing = NULL;
    char spec[4200], file[4096];
    VgModel *m = NULL;
    int ret;

    for (unsigned i = 0; need[i] && !missing; i++)
        if (!vg_feature_find_by_output(need[i], NULL))
            missing = need[i];

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    snprintf(spec, sizeof(spec), "path=%s", file);
    if (!missing) {
        /* the registry's descriptors and key names ("_egl_1") */
        check_golden(spec, NULL, "p720_10.json");
        check_golden(spec, NULL, "r640x360_422p10.json");
        model_path(file, sizeof(file), "vmaf_v0.6.1neg.json");
        snprintf(spec, sizeof(spec), "path=%s", file);
        check_golden(spec, NULL, "p1080_scaled__vmaf_v0.6.1neg.json");
        model_path(file, sizeof(file), "vmaf_4k_v0.6.1.json");
        snprintf(spec, sizeof(spec), "path=%s", file);
        check_golden(spec, NULL, "p2160__vmaf_4k_v0.6.1.json");
        ck_assert_int_eq(cap.n_error, 0);
        return;
    }
    ret = vg_model_load(&m, spec, &vlog);
    ck_assert_int_eq(ret, -EINVAL);
    ck_assert_ptr_null(m);
    ck_assert_int_eq(cap.n_error, 1);
    ck_assert_msg(strstr(cap.last_error, "needs feature") &&
                      strstr(cap.last_error, missing) &&
                      strstr(cap.last_error, "not available"),
                  "log: %s", cap.last_error);
}
END_TEST

/* ---- spec options ------------------------------------------------------ */

static VgModel *load_ok(const char *spec)
{
    VgModel *m = NULL;
    int ret = vg_model_load_with(&m, spec, fake_resolve, &vlog);

    ck_assert_msg(ret == 0, "%s: %d %s", spec, ret, cap.last_error);
    ck_assert_ptr_nonnull(m);
    return m;
}

static const char *opt_of(const VgModel *m, const char *ext, const char *key)
{
    const VgModelInfo *info = vg_model_info(m);
    const char *val = NULL;

    for (unsigned i = 0; i < info->n_features; i++) {
        if (strcmp(info->features[i].desc->name, ext))
            continue;
        const char *v = vg_opt_dict_get(&info->features[i].opts, key);
        /* every feature of that extractor carries the same value */
        if (i && val)
            ck_assert_str_eq(v ? v : "(none)", val);
        val = v ? v : "(none)";
    }
    return val;
}

START_TEST(spec_options)
{
    char file[4096], neg[4096], spec[8400];
    const VgModelInfo *info;
    VgModel *m;

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    model_path(neg, sizeof(neg), "vmaf_v0.6.1neg.json");

    snprintf(spec, sizeof(spec), "path=%s", file);
    m = load_ok(spec);
    info = vg_model_info(m);
    ck_assert_str_eq(info->name, "vmaf");
    ck_assert_str_eq(info->source, file);
    ck_assert_int_eq(info->is_collection, 0);
    ck_assert_uint_eq(info->n_members, 0);
    ck_assert_uint_eq(info->n_features, 6);
    ck_assert_ptr_eq(info->features[0].desc, &fake_adm);
    ck_assert_ptr_eq(info->features[1].desc, &fake_motion);
    ck_assert_uint_eq(info->features[1].output, 1);
    for (unsigned i = 2; i < 6; i++) {
        ck_assert_ptr_eq(info->features[i].desc, &fake_vif);
        ck_assert_uint_eq(info->features[i].output, i - 2);
    }
    ck_assert_uint_eq(info->features[0].opts.n, 0);
    vg_model_free(&m);

    /* name=, overloads on one extractor, number normalisation (strtof,
     * %g), and a later value replacing an earlier one */
    snprintf(spec, sizeof(spec),
             "path=%s:name=foo:vif.vif_enhn_gain_limit="
             "1.00000001:motion.motion_force_zero=true",
             file);
    m = load_ok(spec);
    info = vg_model_info(m);
    ck_assert_str_eq(info->name, "foo");
    ck_assert_str_eq(opt_of(m, "vif", "vif_enhn_gain_limit"), "1");
    ck_assert_str_eq(opt_of(m, "motion", "motion_force_zero"), "true");
    ck_assert_str_eq(opt_of(m, "adm", "adm_enhn_gain_limit"), "(none)");
    vg_model_free(&m);

    /* the file's options ("1.0" stored as "1"), one of them overloaded */
    snprintf(spec, sizeof(spec), "path=%s:adm.adm_enhn_gain_limit=1.50", neg);
    m = load_ok(spec);
    ck_assert_str_eq(opt_of(m, "adm", "adm_enhn_gain_limit"), "1.5");
    ck_assert_str_eq(opt_of(m, "vif", "vif_enhn_gain_limit"), "1");
    ck_assert_str_eq(opt_of(m, "motion", "motion_force_zero"), "(none)");
    vg_model_free(&m);

    /* an extractor the model does not use: ignored with a warning */
    snprintf(spec, sizeof(spec), "path=%s:psnr.enable_chroma=false:", file);
    m = load_ok(spec);
    ck_assert_int_eq(cap.n_warning, 1);
    vg_model_free(&m);
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* libvmaf src/predict.c clip() */
static double ref_clip(double y, double lo, double hi)
{
    y = y < lo ? lo : y;
    return y > hi ? hi : y;
}

/* v0.6.1's score_transform: p0 + p1 y + p2 y y, then out_gte_in */
static double ref_poly_gte(json_object *st, double y)
{
    json_object *p0, *p1, *p2;
    double out = 0.;

    ck_assert(json_object_object_get_ex(st, "p0", &p0));
    ck_assert(json_object_object_get_ex(st, "p1", &p1));
    ck_assert(json_object_object_get_ex(st, "p2", &p2));
    out += json_object_get_double(p0);
    out += json_object_get_double(p1) * y;
    out += json_object_get_double(p2) * y * y;
    return out < y ? y : out;
}

START_TEST(clip_and_transform)
{
    char file[4096], spec[4200], path[4096];
    json_object *top, *md, *st, *g, *frames;
    VgModel *plain, *noclip, *tr, *tr_noclip;
    unsigned above = 0, below = 0, changed = 0;

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    top = load_json(file);
    ck_assert(json_object_object_get_ex(top, "model_dict", &md));
    ck_assert(json_object_object_get_ex(md, "score_transform", &st));

    snprintf(spec, sizeof(spec), "path=%s", file);
    plain = load_ok(spec);
    snprintf(spec, sizeof(spec), "path=%s:disable_clip", file);
    noclip = load_ok(spec);
    snprintf(spec, sizeof(spec), "path=%s:enable_transform", file);
    tr = load_ok(spec);
    snprintf(spec, sizeof(spec),
             "path=%s:enable_transform=true:"
             "disable_clip=true",
             file);
    tr_noclip = load_ok(spec);

    snprintf(path, sizeof(path), "%s/golden/hp/p1080_scaled.json", shared_dir);
    g = load_json(path);
    frames = golden_frames(g);
    for (unsigned i = 0; i < json_object_array_length(frames) + 3; i++) {
        double x[6], y, s_plain, s_tr, s_tr_noclip;

        if (i < json_object_array_length(frames)) {
            golden_x(vg_model_info(plain), json_object_array_get_idx(frames, i),
                     x);
        } else {
            /* far outside the training range: above 100, below 0 */
            static const double extra[3][6] = {
                { 1.0, 30.0, 1.0, 1.0, 1.0, 1.0 },
                { 0.0, 0.0, 1.0, 1.0, 1.0, 1.0 },
                { 0.5, 0.0, 0.1, 0.2, 0.3, 0.4 },
            };
            memcpy(x, extra[i - json_object_array_length(frames)], sizeof(x));
        }
        ck_assert_int_eq(vg_model_predict(noclip, x, &y), 0);
        ck_assert_int_eq(vg_model_predict(plain, x, &s_plain), 0);
        ck_assert_int_eq(vg_model_predict(tr, x, &s_tr), 0);
        ck_assert_int_eq(vg_model_predict(tr_noclip, x, &s_tr_noclip), 0);
        ck_assert(s_plain == ref_clip(y, 0.0, 100.0));
        ck_assert(s_tr_noclip == ref_poly_gte(st, y));
        ck_assert(s_tr == ref_clip(ref_poly_gte(st, y), 0.0, 100.0));
        above += y > 100.0;
        below += y < 0.0;
        changed += s_tr_noclip != y;
    }
    /* the cases above really exercise both clip ends and the transform */
    ck_assert_uint_gt(above, 0);
    ck_assert_uint_gt(below, 0);
    ck_assert_uint_gt(changed, 0);

    vg_model_free(&plain);
    vg_model_free(&noclip);
    vg_model_free(&tr);
    vg_model_free(&tr_noclip);
    json_object_put(g);
    json_object_put(top);
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* libvmaf src/predict.c piecewise_linear_mapping(), for knots with
 * increasing x and y: the last segment holding x (below / above the
 * range: the first / last segment, extrapolated). */
static double ref_knots(const double (*k)[2], unsigned n, double x)
{
    unsigned seg = 0;
    double slope, offset;

    for (unsigned i = 0; i + 1 < n; i++)
        if (k[i][0] <= x && x <= k[i + 1][0])
            seg = i;
    if (x > k[n - 1][0])
        seg = n - 2;
    if (k[seg][1] == k[seg + 1][1])
        return k[seg][1];
    if (k[seg][0] == 0) {
        offset = k[seg][1];
        slope = (k[seg + 1][1] - offset) / k[seg + 1][0];
    } else {
        slope = (k[seg + 1][1] - k[seg][1]) / (k[seg + 1][0] - k[seg][0]);
        offset = k[seg][1] - (k[seg][0] * slope);
    }
    return slope * x + offset;
}

START_TEST(knots_transform)
{
    static const double knots[4][2] = {
        { 0.0, 5.0 },
        { 40.0, 30.0 },
        { 70.0, 30.0 },
        { 90.0, 100.0 },
    };
    char file[4096], spec[4200], tmp[4096];
    json_object *top, *md, *st, *arr, *g, *frames;
    VgModel *base, *kn;
    char path[4096];

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    top = load_json(file);
    ck_assert(json_object_object_get_ex(top, "model_dict", &md));
    st = json_object_new_object();
    json_object_object_add(st, "enabled", json_object_new_boolean(1));
    arr = json_object_new_array();
    for (unsigned i = 0; i < 4; i++) {
        json_object *pt = json_object_new_array();
        json_object_array_add(pt, json_object_new_double(knots[i][0]));
        json_object_array_add(pt, json_object_new_double(knots[i][1]));
        json_object_array_add(arr, pt);
    }
    json_object_object_add(st, "knots", arr);
    json_object_object_add(md, "score_transform", st);
    write_json_temp(tmp, sizeof(tmp), top);

    snprintf(spec, sizeof(spec), "path=%s:disable_clip", file);
    base = load_ok(spec);
    snprintf(spec, sizeof(spec), "path=%s:disable_clip", tmp);
    kn = load_ok(spec);

    snprintf(path, sizeof(path), "%s/golden/hp/p1080_scaled.json", shared_dir);
    g = load_json(path);
    frames = golden_frames(g);
    for (unsigned i = 0; i < json_object_array_length(frames) + 2; i++) {
        double x[6], y, s;
        if (i < json_object_array_length(frames)) {
            golden_x(vg_model_info(base), json_object_array_get_idx(frames, i),
                     x);
        } else {
            for (unsigned j = 0; j < 6; j++)
                x[j] = i == json_object_array_length(frames) ? 1.0 : 0.0;
            x[1] = 30.0 * (i == json_object_array_length(frames));
        }
        ck_assert_int_eq(vg_model_predict(base, x, &y), 0);
        ck_assert_int_eq(vg_model_predict(kn, x, &s), 0);
        ck_assert_msg(s == ref_knots(knots, 4, y), "frame %u: %.17g -> %.17g",
                      i, y, s);
    }
    vg_model_free(&base);
    vg_model_free(&kn);
    json_object_put(g);
    json_object_put(top);
    unlink(tmp);
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* A hand-written sparse libsvm model, norm_type none, and v1.0.16's
 * chroma correction (a de-normalised speed_chroma of 0 becomes
 * c - c * adm3), against the RBF sum written out here. */
START_TEST(sparse_svm_and_chroma)
{
    static const char *const fmt =
        "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", "
        "\"norm_type\": \"%s\", "
        "\"feature_names\": [\"VMAF_integer_feature_adm3_score\", "
        "\"Speed_chroma_feature_speed_chroma_uv_score\"], "
        "\"slopes\": [0.5, 2.0, 0.25], \"intercepts\": [-1.0, 0.125, -0.5], "
        "%s"
        "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
        "nr_class 2\\ntotal_sv 3\\nrho 0.25\\nSV\\n"
        "1.5 1:0.2 2:0.3 3:0.5 \\n-0.75 2:0.9 \\n0.125 1:-0.4 \\n\"}}";
    static const double in[][2] = {
        { 0.9, 0.0 }, { 0.3, 0.0 },         { 0.9, 0.7 }, { 0.0, 0.0 },
        { 1.0, 2.5 }, { 0.987654321, 0.0 }, { 0.1, 0.0 },
    };
    char json[2048], tmp[4096], spec[4200];
    VgModel *m;

    for (int variant = 0; variant < 3; variant++) {
        const int linear = variant != 0, chroma = variant == 2;

        snprintf(json, sizeof(json), fmt, linear ? "linear_rescale" : "none",
                 chroma ? "\"chroma_correction_parameter\": 120.0, " : "");
        write_temp(tmp, sizeof(tmp), json, strlen(json));
        snprintf(spec, sizeof(spec), "path=%s", tmp);
        m = load_ok(spec);
        unlink(tmp);
        ck_assert_ptr_eq(vg_model_info(m)->features[1].desc, &fake_chroma);

        for (unsigned i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
            double x0 = in[i][0], x1 = in[i][1], d, d0, d1, k, sum = 0, s;

            if (linear) {
                x0 = 2.0 * x0 + 0.125;
                x1 = 0.25 * x1 + -0.5;
            }
            if (chroma && (x1 - -0.5) / 0.25 == 0.0) {
                /* de-normalised adm3 g: speed_chroma = c - c * g,
                 * normalised again */
                double g0 = (x0 - 0.125) / 2.0;
                x1 = 0.25 * ((-120.0 * g0) + 120.0) + -0.5;
            }
            d0 = x0 - 0.2;
            d1 = x1 - 0.3;
            d = 0;
            d += d0 * d0;
            d += d1 * d1;
            d += 0.5 * 0.5; /* index 3: SV only */
            k = exp(-0.5 * d);
            sum += 1.5 * k;
            d = 0;
            d += x0 * x0; /* index 1: input only */
            d1 = x1 - 0.9;
            d += d1 * d1;
            sum += -0.75 * exp(-0.5 * d);
            d = 0;
            d0 = x0 - -0.4;
            d += d0 * d0;
            d += x1 * x1;
            sum += 0.125 * exp(-0.5 * d);
            sum -= 0.25;
            if (linear)
                sum = (sum - -1.0) / 0.5;

            ck_assert_int_eq(vg_model_predict(m, in[i], &s), 0);
            ck_assert_msg(s == sum, "variant %d input %u: %.17g, want %.17g",
                          variant, i, s, sum);
        }
        vg_model_free(&m);
    }
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* Support vectors without nodes (all-zero vectors, which libsvm's text
 * format allows), in a model that has no node at all. */
START_TEST(svm_without_nodes)
{
    static const char json[] =
        "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", "
        "\"norm_type\": \"none\", "
        "\"feature_names\": [\"VMAF_integer_feature_adm3_score\", "
        "\"Speed_chroma_feature_speed_chroma_uv_score\"], "
        "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
        "nr_class 2\\ntotal_sv 2\\nrho 0.25\\nSV\\n1.5 \\n-0.75\"}}";
    static const double x[2] = { 0.5, -0.25 };
    char tmp[4096], spec[4200];
    double d = 0, sum = 0, s;
    VgModel *m;

    write_temp(tmp, sizeof(tmp), json, strlen(json));
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    m = load_ok(spec);
    unlink(tmp);
    d += x[0] * x[0];
    d += x[1] * x[1];
    sum += 1.5 * exp(-0.5 * d);
    sum += -0.75 * exp(-0.5 * d);
    sum -= 0.25;
    ck_assert_int_eq(vg_model_predict(m, x, &s), 0);
    ck_assert_msg(s == sum, "%.17g, want %.17g", s, sum);
    vg_model_free(&m);
    ck_assert_int_eq(cap.n_error, 0);
}
END_TEST

/* ---- bootstrap --------------------------------------------------------- */

static void sort_doubles(double *v, unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

static double ref_percentile(const double *s, unsigned n, double perc)
{
    double p = perc * (n - 1) / 100.;
    double lo = floor(p), hi = ceil(p);

    if (lo == hi)
        return s[(int)lo];
    return s[(int)lo] * (hi - p) + s[(int)hi] * (p - lo);
}

static void check_bootstrap(const char *spec_extra, int transform)
{
    char file[4096], spec[4200], path[4096];
    char tmp[21][4096];
    VgModel *coll, *alone_raw[21], *alone[21];
    json_object *top, *st, *md, *g, *frames;
    const VgModelInfo *info;
    unsigned n_frames = 0;

    model_path(file, sizeof(file), "vmaf_b_v0.6.3.json");
    snprintf(spec, sizeof(spec), "path=%s%s", file, spec_extra);
    coll = load_ok(spec);
    info = vg_model_info(coll);
    ck_assert_int_eq(info->is_collection, 1);
    ck_assert_uint_eq(info->n_members, 20);
    ck_assert_uint_eq(info->n_features, 6);
    for (unsigned k = 0; k < 20; k++) {
        char want[64];
        snprintf(want, sizeof(want), "%s_%04u", info->name, k + 1);
        ck_assert_str_eq(info->member_names[k], want);
    }

    /* each member alone, as a single model */
    top = load_json(file);
    for (unsigned k = 0; k <= 20; k++) {
        json_object *member;
        char key[8];

        snprintf(key, sizeof(key), "%u", k);
        ck_assert(json_object_object_get_ex(top, key, &member));
        write_json_temp(tmp[k], sizeof(tmp[k]), member);
        snprintf(spec, sizeof(spec), "path=%s:disable_clip", tmp[k]);
        alone_raw[k] = load_ok(spec);
        snprintf(spec, sizeof(spec), "path=%s%s", tmp[k], spec_extra);
        alone[k] = load_ok(spec);
        unlink(tmp[k]);
    }
    ck_assert(json_object_object_get_ex(top, "1", &md));
    ck_assert(json_object_object_get_ex(md, "model_dict", &md));
    ck_assert(json_object_object_get_ex(md, "score_transform", &st));

    for (unsigned p = 0; p < 2; p++) {
        snprintf(path, sizeof(path), "%s/golden/hp/%s.json", shared_dir,
                 p ? "r352x288_420p12" : "p720_10");
        g = load_json(path);
        frames = golden_frames(g);
        for (unsigned i = 0; i < json_object_array_length(frames); i++) {
            double x[6], raw[20], sum = 0, mean, ssd = 0, sd, lo, hi;
            double plus, minus, s0, s, want;
            VgBootstrapScores b, b2;

            golden_x(info, json_object_array_get_idx(frames, i), x);
            ck_assert_int_eq(vg_model_predict_bootstrap(coll, x, &b), 0);
            ck_assert_uint_eq(b.n_members, 20);

            /* member "0" is the collection's own model ("vmaf") */
            ck_assert_int_eq(vg_model_predict(coll, x, &s), 0);
            ck_assert_int_eq(vg_model_predict(alone[0], x, &s0), 0);
            ck_assert(s == s0);

            for (unsigned k = 0; k < 20; k++) {
                ck_assert_int_eq(vg_model_predict(alone_raw[k + 1], x, &raw[k]),
                                 0);
                ck_assert_int_eq(vg_model_predict(alone[k + 1], x, &s), 0);
                ck_assert_msg(b.member[k] == s, "member %u", k + 1);
                sum += raw[k];
            }
            mean = sum / 20;
            for (unsigned k = 0; k < 20; k++)
                ssd += (raw[k] - mean) * (raw[k] - mean);
            sd = sqrt(ssd / 20);
            sort_doubles(raw, 20);
            lo = ref_percentile(raw, 20, 2.5);
            hi = ref_percentile(raw, 20, 97.5);
            plus = mean + 0.01;
            minus = mean - 0.01;
            if (transform) {
                mean = ref_poly_gte(st, mean);
                lo = ref_poly_gte(st, lo);
                hi = ref_poly_gte(st, hi);
                plus = ref_poly_gte(st, plus);
                minus = ref_poly_gte(st, minus);
            }
            want = ref_clip(mean, 0.0, 100.0);
            ck_assert_msg(b.bagging == want, "bagging %.17g want %.17g",
                          b.bagging, want);
            ck_assert(b.ci_lo == ref_clip(lo, 0.0, 100.0));
            ck_assert(b.ci_hi == ref_clip(hi, 0.0, 100.0));
            ck_assert(b.ci_lo <= b.bagging && b.bagging <= b.ci_hi);
            want = sd *
                   ((ref_clip(plus, 0.0, 100.0) - ref_clip(minus, 0.0, 100.0)) /
                    0.02);
            ck_assert_msg(b.stddev == want, "stddev %.17g want %.17g", b.stddev,
                          want);
            ck_assert(b.stddev >= 0.0);

            /* deterministic */
            ck_assert_int_eq(vg_model_predict_bootstrap(coll, x, &b2), 0);
            ck_assert(!memcmp(&b, &b2, sizeof(b)));
            n_frames++;
        }
        json_object_put(g);
    }
    ck_assert_uint_ge(n_frames, 30);

    for (unsigned k = 0; k <= 20; k++) {
        vg_model_free(&alone_raw[k]);
        vg_model_free(&alone[k]);
    }
    vg_model_free(&coll);
    json_object_put(top);
    ck_assert_int_eq(cap.n_error, 0);
}

START_TEST(bootstrap)
{
    char file[4096], spec[4200];
    VgModel *m;
    double x[6] = { 1, 1, 1, 1, 1, 1 };
    VgBootstrapScores b;

    check_bootstrap("", 0);
    check_bootstrap(":name=boot:enable_transform", 1);
    if (vg_builtin_model_json("vmaf_b_v0.6.3", NULL)) {
        m = load_ok("version=vmaf_b_v0.6.3");
        ck_assert_int_eq(vg_model_info(m)->is_collection, 1);
        vg_model_free(&m);
    }
    /* a single model has no bootstrap outputs */
    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    snprintf(spec, sizeof(spec), "path=%s", file);
    m = load_ok(spec);
    ck_assert_int_eq(vg_model_predict_bootstrap(m, x, &b), -EINVAL);
    vg_model_free(&m);
}
END_TEST

/* ---- built-in models --------------------------------------------------- */

/* the model files of DIR/models and its folders, as tools/embed-models.sh
 * embeds them */
static unsigned count_model_files(const char *dir)
{
    char pattern[4096];
    unsigned n = 0;
    glob_t g;

    for (int depth = 0; depth < 2; depth++) {
        snprintf(pattern, sizeof(pattern), "%s/models/%s*.json", dir,
                 depth ? "*/" : "");
        if (glob(pattern, 0, NULL, &g) == 0)
            n += (unsigned)g.gl_pathc;
        globfree(&g);
    }
    return n;
}

START_TEST(builtin_bytes)
{
    const char *const *names = vg_builtin_models();
    unsigned n = 0;

    ck_assert_ptr_nonnull(names);
    ck_assert_ptr_null(vg_builtin_model_json("no_such_model", NULL));
    ck_assert_ptr_null(vg_builtin_model_json("vmaf_v1.0.16", NULL));
    for (; names[n]; n++) {
        char path[4096];
        size_t len = 0, flen = 0;
        const char *data = vg_builtin_model_json(names[n], &len);
        char *file;

        ck_assert_ptr_nonnull(data);
        /* libvmaf's names: the file name; v1.0.16 and its HFR variants
         * live in folders of their own */
        snprintf(path, sizeof(path), "%s/models/%s%s.json", shared_dir,
                 !strncmp(names[n], "vmaf_v1.0.16_hfr_", 17)
                     ? "vmaf_v1.0.16_hfr/"
                 : !strncmp(names[n], "vmaf_v1.0.16_", 13) ? "vmaf_v1.0.16/"
                                                           : "",
                 names[n]);
        file = slurp(path, &flen);
        ck_assert_msg(file != NULL, "no file %s", path);
        ck_assert_uint_eq(len, flen);
        ck_assert(!memcmp(data, file, len));
        ck_assert_int_eq(data[len], '\0');
        free(file);
    }
    /* a build with models embeds all of them (tools/embed-models.sh:
     * DIR/*.json and DIR/<folder>/*.json) */
    if (n) {
        ck_assert_ptr_nonnull(vg_builtin_model_json("vmaf_v0.6.1", NULL));
        ck_assert_ptr_nonnull(vg_builtin_model_json("vmaf_b_v0.6.3", NULL));
        ck_assert_ptr_nonnull(vg_builtin_model_json("vmaf_v1.0.16_3d0h", NULL));
        ck_assert_uint_eq(n, count_model_files(shared_dir));
    }
}
END_TEST

/* ---- bad input --------------------------------------------------------- */

static void expect_fail(const char *spec, int err, const char *what)
{
    VgModel *m = (VgModel *)&m;
    int ret;

    reset_log();
    ret = vg_model_load_with(&m, spec, fake_resolve, &vlog);
    ck_assert_msg(ret == err, "%s: returned %d, want %d (%s)", spec, ret, err,
                  cap.last_error);
    ck_assert_ptr_null(m);
    ck_assert_msg(cap.n_error == 1, "%s: %d error lines", spec, cap.n_error);
    ck_assert_msg(strstr(cap.last_error, what), "%s: log '%s' lacks '%s'", spec,
                  cap.last_error, what);
}

/** Load vmaf_v0.6.1.json, let edit() change its model_dict, write it to a
 *  temp file, and expect the load to fail. */
static void expect_fail_edit(void (*edit)(json_object *md), const char *what)
{
    char file[4096], tmp[4096], spec[4200];
    json_object *top, *md;

    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    top = load_json(file);
    ck_assert(json_object_object_get_ex(top, "model_dict", &md));
    edit(md);
    write_json_temp(tmp, sizeof(tmp), top);
    json_object_put(top);
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    expect_fail(spec, -EINVAL, what);
    unlink(tmp);
}

static void edit_no_model(json_object *md)
{
    json_object_object_del(md, "model");
}

static void edit_no_norm(json_object *md)
{
    json_object_object_del(md, "norm_type");
}

static void edit_names_type(json_object *md)
{
    json_object_object_add(md, "feature_names", json_object_new_int(5));
}

static void edit_name_type(json_object *md)
{
    json_object *a;
    json_object_object_get_ex(md, "feature_names", &a);
    json_object_array_put_idx(a, 2, json_object_new_double(1.5));
}

static void edit_too_many(json_object *md)
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < VG_MODEL_MAX_FEATURES + 1; i++)
        json_object_array_add(
            a, json_object_new_string("VMAF_integer_feature_adm2_score"));
    json_object_object_add(md, "feature_names", a);
}

static void edit_unknown_feature(json_object *md)
{
    json_object *a;
    json_object_object_get_ex(md, "feature_names", &a);
    json_object_array_put_idx(
        a, 3, json_object_new_string("VMAF_feature_no_such_score"));
}

static void edit_slopes(json_object *md)
{
    json_object *a;
    json_object_object_get_ex(md, "slopes", &a);
    json_object_array_del_idx(a, 6, 1);
}

static void edit_intercept_type(json_object *md)
{
    json_object *a;
    json_object_object_get_ex(md, "intercepts", &a);
    json_object_array_put_idx(a, 0, json_object_new_string("0.5"));
}

static void edit_model_type(json_object *md)
{
    json_object_object_add(md, "model_type", json_object_new_string("SVC"));
}

static void edit_clip(json_object *md)
{
    json_object_object_add(md, "score_clip", json_object_new_double(100.0));
}

static void edit_transform(json_object *md)
{
    json_object *st;
    json_object_object_get_ex(md, "score_transform", &st);
    json_object_object_add(st, "p1", json_object_new_string("x"));
}

static void edit_opts(json_object *md)
{
    json_object *a = json_object_new_array(), *o = json_object_new_object();
    json_object_object_add(o, "vif_enhn_gain_limit", json_object_new_array());
    json_object_array_add(a, o);
    json_object_object_add(md, "feature_opts_dicts", a);
}

static void edit_opt_value(json_object *md)
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < 3; i++) {
        json_object *o = json_object_new_object();
        if (i == 2)
            json_object_object_add(o, "vif_enhn_gain_limit",
                                   json_object_new_double(0.5));
        json_object_array_add(a, o);
    }
    json_object_object_add(md, "feature_opts_dicts", a);
}

/* Numbers that parse but no model can use: NaN and Infinity (json-c
 * reads both), which would make every score nan or disable clipping. */
static void put_number(json_object *md, const char *key, size_t i, double v)
{
    json_object *a;

    ck_assert(json_object_object_get_ex(md, key, &a));
    json_object_array_put_idx(a, i, json_object_new_double(v));
}

static void edit_intercept_nan(json_object *md)
{
    put_number(md, "intercepts", 0, NAN);
}

static void edit_slope_inf(json_object *md)
{
    put_number(md, "slopes", 3, INFINITY);
}

static void edit_slope_zero(json_object *md)
{
    put_number(md, "slopes", 0, 0.0);
}

static void edit_clip_nan(json_object *md)
{
    put_number(md, "score_clip", 0, NAN);
    put_number(md, "score_clip", 1, NAN);
}

static void edit_clip_reversed(json_object *md)
{
    put_number(md, "score_clip", 0, 100.0);
    put_number(md, "score_clip", 1, 0.0);
}

static void edit_transform_nan(json_object *md)
{
    json_object *st;
    json_object_object_get_ex(md, "score_transform", &st);
    json_object_object_add(st, "p1", json_object_new_double(NAN));
}

static void edit_knots_inf(json_object *md)
{
    json_object *st, *k = json_object_new_array();
    json_object *k0 = json_object_new_array(), *k1 = json_object_new_array();

    json_object_object_get_ex(md, "score_transform", &st);
    json_object_array_add(k0, json_object_new_double(0.0));
    json_object_array_add(k0, json_object_new_double(0.0));
    json_object_array_add(k1, json_object_new_double(100.0));
    json_object_array_add(k1, json_object_new_double(-INFINITY));
    json_object_array_add(k, k0);
    json_object_array_add(k, k1);
    json_object_object_add(st, "knots", k);
}

static void edit_chroma_nan(json_object *md)
{
    json_object_object_add(md, "chroma_correction_parameter",
                           json_object_new_double(NAN));
}

static void edit_opt_nan(json_object *md)
{
    json_object *a = json_object_new_array();
    for (unsigned i = 0; i < 3; i++) {
        json_object *o = json_object_new_object();
        if (i == 2)
            json_object_object_add(o, "vif_enhn_gain_limit",
                                   json_object_new_double(NAN));
        json_object_array_add(a, o);
    }
    json_object_object_add(md, "feature_opts_dicts", a);
}

/** Replace text in the libsvm model string. */
static const char *svm_from, *svm_to;
static void edit_svm(json_object *md)
{
    json_object *s;
    char *buf, *hit;
    size_t len;

    json_object_object_get_ex(md, "model", &s);
    len = strlen(json_object_get_string(s));
    buf = malloc(len + strlen(svm_to) + 1);
    ck_assert_ptr_nonnull(buf);
    strcpy(buf, json_object_get_string(s));
    hit = strstr(buf, svm_from);
    ck_assert_ptr_nonnull(hit);
    memmove(hit + strlen(svm_to), hit + strlen(svm_from),
            strlen(hit + strlen(svm_from)) + 1);
    memcpy(hit, svm_to, strlen(svm_to));
    json_object_object_add(md, "model", json_object_new_string(buf));
    free(buf);
}

static void expect_fail_svm(const char *from, const char *to, const char *what)
{
    svm_from = from;
    svm_to = to;
    expect_fail_edit(edit_svm, what);
}

static void expect_fail_text(const char *text, size_t len, const char *what)
{
    char tmp[4096], spec[4200];

    write_temp(tmp, sizeof(tmp), text, len);
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    expect_fail(spec, -EINVAL, what);
    unlink(tmp);
}

START_TEST(bad_input)
{
    char file[4096], spec[4200];
    char *text;
    size_t len;

    /* specification */
    expect_fail("", -EINVAL, "empty model specification");
    expect_fail("name=x", -EINVAL, "needs exactly one of version= and path=");
    expect_fail("version=a:path=b", -EINVAL, "exactly one of");
    expect_fail("version=vmaf_v0.6.1:bogus", -EINVAL, "'bogus' needs a value");
    expect_fail("version=vmaf_v0.6.1:foo=bar", -EINVAL,
                "unknown model option 'foo'");
    expect_fail("version=vmaf_v0.6.1:name=", -EINVAL, "must not be empty");
    expect_fail("version=no_such_model", -EINVAL,
                "unknown built-in model version 'no_such_model'");
    /* and the built-in ones named, as an unknown feature names the features */
    if (vg_builtin_models() && vg_builtin_models()[0]) {
        expect_fail("version=vmaf_v0.6", -EINVAL,
                    "(built in: vmaf_4k_v0.6.1, "
                    "vmaf_4k_v0.6.1neg");
        expect_fail("version=vmaf_v0.6", -EINVAL,
                    "vmaf_v0.6.1, vmaf_v0.6.1neg, "
                    "vmaf_v1.0.16_1d5h_2160");
        expect_fail("version=vmaf_v0.6", -EINVAL,
                    "vmaf_v1.0.16_hfr_5d0h; or "
                    "use path=)");
    }
    expect_fail("path=/nonexistent/dir/model.json", -ENOENT,
                "cannot open model file '/nonexistent/dir/model.json'");

    /* overloads checked against the extractor's options */
    model_path(file, sizeof(file), "vmaf_v0.6.1.json");
    snprintf(spec, sizeof(spec), "path=%s:vif.no_such_option=3", file);
    expect_fail(spec, -EINVAL, "no option 'no_such_option'");
    snprintf(spec, sizeof(spec), "path=%s:vif.vif_enhn_gain_limit=0.5", file);
    expect_fail(spec, -EINVAL, "outside");

    /* JSON syntax */
    text = slurp(file, &len);
    ck_assert_ptr_nonnull(text);
    expect_fail_text(text, len / 2, "truncated JSON");
    expect_fail_text(text, 1, "truncated JSON");
    expect_fail_text("", 0, "truncated JSON");
    expect_fail_text("{\"model_dict\": {\"model_type\": }}", 32,
                     "malformed JSON");
    expect_fail_text("{\"model_dict\": {}} x", 20, "malformed JSON");
    expect_fail_text("[1, 2]", 6, "not an object");
    free(text);

    /* structure */
    expect_fail_text("{\"param_dict\": {}}", 18,
                     "no 'model_dict' and no bootstrap members");
    expect_fail_text("{\"model_dict\": 3}", 17,
                     "'model_dict' must be an object");
    expect_fail_edit(edit_no_model, "missing key 'model'");
    expect_fail_edit(edit_no_norm, "missing key 'norm_type'");
    expect_fail_edit(edit_names_type, "'feature_names' must be an array");
    expect_fail_edit(edit_name_type, "'feature_names'[2] is not a string");
    expect_fail_edit(edit_too_many, "too many features (65");
    expect_fail_edit(edit_unknown_feature,
                     "needs feature "
                     "VMAF_feature_no_such_score which is not available");
    expect_fail_edit(edit_slopes, "'slopes' has 6 entries");
    expect_fail_edit(edit_intercept_type, "'intercepts'[0] is not a number");
    expect_fail_edit(edit_model_type, "unknown model_type 'SVC'");
    expect_fail_edit(edit_clip, "'score_clip' must be [min, max]");
    expect_fail_edit(edit_transform, "score_transform.p1 must be a number");
    expect_fail_edit(edit_opts, "must be a number, bool or string");
    expect_fail_edit(edit_opt_value, "outside");

    /* libsvm text */
    expect_fail_svm("kernel_type rbf", "kernel_type linear",
                    "kernel_type 'linear' is not supported");
    expect_fail_svm("svm_type nu_svr", "svm_type c_svc",
                    "svm_type 'c_svc' is not supported");
    expect_fail_svm("total_sv 211", "total_sv 212", "211 support vectors");
    expect_fail_svm("gamma 0.04", "gamma x", "bad value for 'gamma'");
    expect_fail_svm("rho -1.33133\n", "", "lacks rho");
    expect_fail_svm("gamma 0.04\n", "gamma 0.04\nfoo 1\n",
                    "unknown text 'foo'");
    expect_fail_svm("\nSV\n", "\n", "unknown text '-4'");
    expect_fail_svm(" 2:0.34681232 ", " 2:abc ", "bad node '2:abc'");
    expect_fail_svm(" 2:0.34681232 ", " 1:0.5 ", "bad node '1:0.5'");
    expect_fail_svm(" 2:0.34681232 ", " 2=0.5 ", "not index:value");

    /* numbers that parse but are not finite, and counts that disagree */
    expect_fail_edit(edit_intercept_nan,
                     "'intercepts'[0] is NaN, not a finite number");
    expect_fail_edit(edit_slope_inf,
                     "'slopes'[3] is Infinity, not a finite number");
    expect_fail_edit(edit_slope_zero, "'slopes'[0] is 0");
    expect_fail_edit(edit_clip_nan,
                     "'score_clip' [NaN, NaN] must be finite numbers");
    expect_fail_edit(edit_clip_reversed, "with min <= max");
    expect_fail_edit(edit_transform_nan,
                     "score_transform.p1 must be a finite number");
    expect_fail_edit(edit_knots_inf, "score_transform.knots[1] is [100");
    expect_fail_edit(edit_chroma_nan,
                     "'chroma_correction_parameter' must be a finite");
    expect_fail_edit(edit_opt_nan,
                     "'feature_opts_dicts'[2].vif_enhn_gain_limit is NaN");
    expect_fail_svm("gamma 0.04", "gamma nan", "bad value for 'gamma'");
    expect_fail_svm("gamma 0.04", "gamma -inf", "bad value for 'gamma'");
    expect_fail_svm("rho -1.33133", "rho inf", "bad value for 'rho'");
    expect_fail_svm("\nSV\n-4 ", "\nSV\nnan ",
                    "support vector 1 has no coefficient");
    expect_fail_svm(" 2:0.34681232 ", " 2:NaN ", "bad node '2:NaN'");
    expect_fail_svm("total_sv 211", "total_sv 210",
                    "total_sv says 210 support vectors, the model has 211");
    expect_fail_svm("total_sv 211", "total_sv 1",
                    "total_sv says 1 support vectors, the model has 211");
}
END_TEST

START_TEST(bad_collection)
{
    char file[4096], tmp[4096], spec[4200];
    json_object *top, *m3, *md;

    model_path(file, sizeof(file), "vmaf_b_v0.6.3.json");

    /* only member "0": not a collection */
    top = load_json(file);
    for (unsigned k = 1; k <= 20; k++) {
        char key[8];
        snprintf(key, sizeof(key), "%u", k);
        json_object_object_del(top, key);
    }
    write_json_temp(tmp, sizeof(tmp), top);
    json_object_put(top);
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    expect_fail(spec, -EINVAL, "no 'model_dict' and no bootstrap members");
    unlink(tmp);

    /* a member with other features */
    top = load_json(file);
    ck_assert(json_object_object_get_ex(top, "3", &m3));
    ck_assert(json_object_object_get_ex(m3, "model_dict", &md));
    edit_opt_value(md);
    write_json_temp(tmp, sizeof(tmp), top);
    json_object_put(top);
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    expect_fail(spec, -EINVAL, "member 3");
    unlink(tmp);

    /* a member that is broken */
    top = load_json(file);
    ck_assert(json_object_object_get_ex(top, "7", &m3));
    ck_assert(json_object_object_get_ex(m3, "model_dict", &md));
    json_object_object_del(md, "model");
    write_json_temp(tmp, sizeof(tmp), top);
    json_object_put(top);
    snprintf(spec, sizeof(spec), "path=%s", tmp);
    expect_fail(spec, -EINVAL, "(member 7): missing key 'model'");
    unlink(tmp);
}
END_TEST

/* ---- pooling ----------------------------------------------------------- */

START_TEST(pool)
{
    static const double v[7] = { 0.0, 2.5, 1.0 / 3.0, 97.25, 1e-7, 50.0, 3.0 };
    VgCollector *c = NULL;
    int key, other;
    double s;

    ck_assert_int_eq(vg_collector_create(&c), 0);
    key = vg_collector_key(c, "m");
    other = vg_collector_key(c, "holes");
    ck_assert_int_ge(key, 0);
    for (unsigned i = 0; i < 7; i++) {
        ck_assert_int_eq(vg_collector_set(c, key, i, v[i]), 0);
        if (i % 2 == 0)
            ck_assert_int_eq(vg_collector_set(c, other, i, v[i]), 0);
    }

    for (unsigned sub = 0; sub <= 3; sub++) {
        double sum = 0, isum = 0, mn = 0, mx = 0;
        unsigned n = 0;

        for (unsigned i = 0; i < 7; i++) {
            if (sub > 1 && i % sub)
                continue;
            sum += v[i];
            isum += 1.0 / (v[i] + 1.0);
            if (!n || v[i] < mn)
                mn = v[i];
            if (!n || v[i] > mx)
                mx = v[i];
            n++;
        }
        ck_assert_int_eq(vg_pool(c, key, 7, sub, VG_POOL_MEAN, &s), 0);
        ck_assert(s == sum / n);
        ck_assert_int_eq(vg_pool(c, key, 7, sub, VG_POOL_HARMONIC_MEAN, &s), 0);
        ck_assert(s == n / isum - 1.0);
        ck_assert_int_eq(vg_pool(c, key, 7, sub, VG_POOL_MIN, &s), 0);
        ck_assert(s == mn);
        ck_assert_int_eq(vg_pool(c, key, 7, sub, VG_POOL_MAX, &s), 0);
        ck_assert(s == mx);
    }
    /* harmonic mean of a 0 frame, a worked value: 2 / (1 + 1/3) - 1 */
    ck_assert_int_eq(vg_pool(c, key, 2, 1, VG_POOL_HARMONIC_MEAN, &s), 0);
    ck_assert(s == 2.0 / (1.0 + 1.0 / 3.5) - 1.0);

    /* only even frames are written: fine with subsample 2, else missing */
    ck_assert_int_eq(vg_pool(c, other, 7, 2, VG_POOL_MEAN, &s), 0);
    ck_assert(s == (((0.0 + 1.0 / 3.0) + 1e-7) + 3.0) / 4);
    ck_assert_int_eq(vg_pool(c, other, 7, 1, VG_POOL_MEAN, &s), -EAGAIN);
    ck_assert_int_eq(vg_pool(c, key, 8, 1, VG_POOL_MEAN, &s), -EAGAIN);
    ck_assert_int_eq(vg_pool(c, key, 0, 1, VG_POOL_MEAN, &s), -EINVAL);
    ck_assert_int_eq(vg_pool(c, key, 7, 1, (enum VgPool)42, &s), -EINVAL);
    vg_collector_destroy(&c);
}
END_TEST

static Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("model");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, golden_v061);
    tcase_add_test(tc, golden_neg_and_4k);
    tcase_add_test(tc, registry_lookup);
    tcase_add_test(tc, spec_options);
    tcase_add_test(tc, clip_and_transform);
    tcase_add_test(tc, knots_transform);
    tcase_add_test(tc, sparse_svm_and_chroma);
    tcase_add_test(tc, svm_without_nodes);
    tcase_add_test(tc, bootstrap);
    tcase_add_test(tc, builtin_bytes);
    tcase_add_test(tc, bad_input);
    tcase_add_test(tc, bad_collection);
    tcase_add_test(tc, pool);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return vg_check_run(model_suite());
}
