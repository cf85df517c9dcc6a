/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Log writers (common/report/output.c) against libvmaf v3.2.0's output:
 *  - number format (src/output.c count_leading_zeros_d) on chosen values;
 *  - every golden JSON re-written byte for byte: the per-frame values of
 *    golden/hp/<pair>.json (%.17g, exact doubles) go into a collector, the
 *    writer prints them with libvmaf's format and must reproduce
 *    golden/<pair>.json exactly (pooled metrics included, through
 *    vg_pool()), and with VG_PRECISION_MAX golden/hp/<pair>.json;
 *  - xml, csv, sub, missing values, NaN, subsampling and aggregates on a
 *    small collector against hand-written libvmaf layouts.
 */

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/collector.h"
#include "common/report/output.h"
#include "tests/check_run.h"
#include "tests/slurp.h"

static char shared_dir[4096];

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

/** Run the writer into a string (caller frees). */
static char *write_to_string(VgCollector *c, const VgOutputParams *p)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    int ret;

    ck_assert_ptr_nonnull(f);
    ret = vg_output_write(f, c, p);
    fclose(f);
    ck_assert_int_eq(ret, 0);
    return buf;
}

/* Line and column of the first difference, for a readable failure. */
static void assert_same_text(const char *got, const char *want,
                             const char *what)
{
    unsigned line = 1;
    size_t i = 0;

    while (got[i] && got[i] == want[i]) {
        line += got[i] == '\n';
        i++;
    }
    if (got[i] || want[i]) {
        const char *g = got + i, *w = want + i;
        while (g > got && g[-1] != '\n' && w > want && w[-1] != '\n') {
            g--;
            w--;
        }
        ck_abort_msg(
            "%s: first difference at line %u:\n got: %.80s\nwant: %.80s", what,
            line, g, w);
    }
}

/* ---- number format ------------------------------------------------------ */

START_TEST(test_number_format)
{
    /* Expected strings follow count_leading_zeros_d() evaluated in double. */
    static const struct {
        double v;
        const char *def, *max;
    } t[] = {
        { 0.0, "0.000000", "0" },
        { 42.458054624314855, "42.458055", "42.458054624314855" },
        { 1e-7, "0.0000001000000000", "9.9999999999999995e-08" },
        { 87.0000001, "87.0000000999999941", "87.000000099999994" },
        { 1e-6, "0.000001", "9.9999999999999995e-07" },
        { 1.5e-6, "0.000002", "1.5e-06" },
        { -0.5, "-0.500000", "-0.5" },
        { 3000000000.5, "3000000000.500000", "3000000000.5" },
        { 1.5e-300, "0.0000000000000000", "1.5000000000000001e-300" },
        { -2.0000000001, "-2.0000000001000000", "-2.0000000001" },
        { 100.0, "100.000000", "100" },
        { 0.1, "0.100000", "0.10000000000000001" },
        { INFINITY, "inf", "inf" },
        { -INFINITY, "-inf", "-inf" },
    };
    char buf[400];

    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        vg_output_format_number(buf, sizeof(buf), t[i].v, VG_PRECISION_DEFAULT);
        ck_assert_msg(!strcmp(buf, t[i].def), "%.17g: got %s, want %s", t[i].v,
                      buf, t[i].def);
        vg_output_format_number(buf, sizeof(buf), t[i].v, VG_PRECISION_MAX);
        ck_assert_msg(!strcmp(buf, t[i].max), "%.17g: got %s, want %s", t[i].v,
                      buf, t[i].max);
    }
    vg_output_format_number(buf, sizeof(buf), NAN, VG_PRECISION_DEFAULT);
    ck_assert_str_eq(buf, "nan");
    vg_output_format_number(buf, sizeof(buf), -1.7976931348623157e308,
                            VG_PRECISION_DEFAULT);
    ck_assert_uint_eq(strlen(buf), 1 + 309 + 7);
}
END_TEST

/* ---- goldens ------------------------------------------------------------ */

static const char *const golden_pairs[] = {
    "p1080_crf32",     "p1080_scaled",          "p2160",
    "p720_10",         "r640x360_444p8",        "r640x360_422p10",
    "r352x288_420p12", "p2160__vmaf_4k_v0.6.1", "p1080_crf32__vmaf_v0.6.1neg",
};

/**
 * Fill a collector with the values of libvmaf JSON log `root`, keys
 * registered in the order of log `order` (the key order of a libvmaf log
 * depends on thread timing, so each golden file has its own); return the
 * frame count.
 */
static unsigned load_log(VgCollector *c, json_object *root, json_object *order)
{
    json_object *frames, *agg, *pooled;
    size_t n;

    ck_assert(json_object_object_get_ex(order, "pooled_metrics", &pooled));
    json_object_object_foreach(pooled, name, unused)
    {
        (void)unused;
        ck_assert_int_ge(vg_collector_key(c, name), 0);
    }
    ck_assert(json_object_object_get_ex(root, "frames", &frames));
    n = json_object_array_length(frames);
    for (size_t i = 0; i < n; i++) {
        json_object *fr = json_object_array_get_idx(frames, i), *num, *m;

        ck_assert(json_object_object_get_ex(fr, "frameNum", &num));
        ck_assert(json_object_object_get_ex(fr, "metrics", &m));
        json_object_object_foreach(m, key, val)
        {
            int k = vg_collector_key(c, key);
            ck_assert_int_ge(k, 0);
            ck_assert_int_eq(
                vg_collector_set(c, k, (unsigned)json_object_get_int(num),
                                 json_object_get_double(val)),
                0);
        }
    }
    if (json_object_object_get_ex(root, "aggregate_metrics", &agg)) {
        json_object_object_foreach(agg, key, val) ck_assert_int_eq(
            vg_collector_set_aggregate(c, key, json_object_get_double(val)), 0);
    }
    return (unsigned)n;
}

static double log_fps(json_object *root)
{
    json_object *fps;

    ck_assert(json_object_object_get_ex(root, "fps", &fps));
    return json_object_get_double(fps);
}

START_TEST(test_json_golden)
{
    const char *pair = golden_pairs[_i];
    char path6[4200], pathhp[4200];
    char *text6, *texthp, *out;
    json_object *hp, *j6;
    VgCollector *c = NULL, *chp = NULL;
    VgOutputParams p = { 0 };

    snprintf(path6, sizeof(path6), "%s/golden/%s.json", shared_dir, pair);
    snprintf(pathhp, sizeof(pathhp), "%s/golden/hp/%s.json", shared_dir, pair);
    text6 = slurp(path6, NULL);
    texthp = slurp(pathhp, NULL);
    ck_assert_msg(text6 && texthp, "cannot read %s or %s (VG_SHARED_DIR?)",
                  path6, pathhp);
    hp = json_tokener_parse(texthp);
    j6 = json_tokener_parse(text6);
    ck_assert(hp && j6);

    ck_assert_int_eq(vg_collector_create(&c), 0);
    ck_assert_int_eq(vg_collector_create(&chp), 0);
    p.n_frames = load_log(c, hp, j6);
    ck_assert_uint_eq(load_log(chp, hp, hp), p.n_frames);
    p.subsample = 1;
    p.version = "3.2.0";
    p.fmt = VG_LOG_FMT_JSON;

    p.precision = VG_PRECISION_DEFAULT;
    p.fps = log_fps(j6);
    out = write_to_string(c, &p);
    assert_same_text(out, text6, path6);
    free(out);

    p.precision = VG_PRECISION_MAX;
    p.fps = log_fps(hp);
    out = write_to_string(chp, &p);
    assert_same_text(out, texthp, pathhp);
    free(out);

    vg_collector_destroy(&c);
    vg_collector_destroy(&chp);
    json_object_put(hp);
    json_object_put(j6);
    free(text6);
    free(texthp);
}
END_TEST

/* ---- formats on a small collector ---------------------------------------- */

/*
 * Frames 0..2; "a" everywhere, "tiny" only on frames 0 and 2 (frame 1
 * missing), "b" NaN on frame 1, "never" registered without a value (it
 * must not appear anywhere, as in libvmaf). One aggregate.
 */
static VgCollector *small_collector(void)
{
    VgCollector *c = NULL;
    int a, tiny, b;

    ck_assert_int_eq(vg_collector_create(&c), 0);
    a = vg_collector_key(c, "a");
    ck_assert_int_ge(vg_collector_key(c, "never"), 0);
    tiny = vg_collector_key(c, "tiny");
    b = vg_collector_key(c, "b");
    ck_assert(a >= 0 && tiny >= 0 && b >= 0);
    ck_assert_int_eq(vg_collector_set(c, a, 0, 1.0), 0);
    ck_assert_int_eq(vg_collector_set(c, a, 1, 2.5), 0);
    ck_assert_int_eq(vg_collector_set(c, a, 2, -3.25), 0);
    ck_assert_int_eq(vg_collector_set(c, tiny, 0, 1e-7), 0);
    ck_assert_int_eq(vg_collector_set(c, tiny, 2, 0.0), 0);
    ck_assert_int_eq(vg_collector_set(c, b, 0, 4.0), 0);
    ck_assert_int_eq(vg_collector_set(c, b, 1, NAN), 0);
    ck_assert_int_eq(vg_collector_set(c, b, 2, 6.0), 0);
    ck_assert_int_eq(vg_collector_set_aggregate(c, "apsnr_y", 50.5), 0);
    return c;
}

static const VgOutputParams small_params = {
    .n_frames = 3,
    .subsample = 1,
    .width = 64,
    .height = 48,
    .fps = 12.345,
    .version = "9.9.9",
};

START_TEST(test_xml)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    char *out;

    p.fmt = VG_LOG_FMT_XML;
    out = write_to_string(c, &p);
    assert_same_text(
        out,
        "<VMAF version=\"9.9.9\">\n"
        "  <params qualityWidth=\"64\" qualityHeight=\"48\" />\n"
        "  <fyi fps=\"12.35\" />\n"
        "  <frames>\n"
        "    <frame frameNum=\"0\" a=\"1.000000\" tiny=\"0.0000001000000000\" b=\"4.000000\" />\n"
        "    <frame frameNum=\"1\" a=\"2.500000\" b=\"nan\" />\n"
        "    <frame frameNum=\"2\" a=\"-3.250000\" tiny=\"0.000000\" b=\"6.000000\" />\n"
        "  </frames>\n"
        "  <pooled_metrics>\n"
        "    <metric name=\"a\" min=\"-3.250000\" max=\"2.500000\" mean=\"0.083333\" harmonic_mean=\"7.790698\" />\n"
        "    <metric name=\"tiny\" />\n"
        "    <metric name=\"b\" min=\"4.000000\" max=\"6.000000\" mean=\"nan\" harmonic_mean=\"nan\" />\n"
        "  </pooled_metrics>\n"
        "  <aggregate_metrics apsnr_y=\"50.500000\" />\n"
        "</VMAF>\n",
        "xml");
    free(out);
    vg_collector_destroy(&c);
}
END_TEST

START_TEST(test_json_small)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    char *out;

    p.fmt = VG_LOG_FMT_JSON;
    p.fps = -1;
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "{\n"
                     "  \"version\": \"9.9.9\",\n"
                     "  \"fps\": null,\n"
                     "  \"frames\": [\n"
                     "    {\n"
                     "      \"frameNum\": 0,\n"
                     "      \"metrics\": {\n"
                     "        \"a\": 1.000000,\n"
                     "        \"tiny\": 0.0000001000000000,\n"
                     "        \"b\": 4.000000\n"
                     "      }\n"
                     "    },\n"
                     "    {\n"
                     "      \"frameNum\": 1,\n"
                     "      \"metrics\": {\n"
                     "        \"a\": 2.500000,\n"
                     "        \"b\": null      }\n"
                     "    },\n"
                     "    {\n"
                     "      \"frameNum\": 2,\n"
                     "      \"metrics\": {\n"
                     "        \"a\": -3.250000,\n"
                     "        \"tiny\": 0.000000,\n"
                     "        \"b\": 6.000000\n"
                     "      }\n"
                     "    }\n"
                     "  ],\n"
                     "  \"pooled_metrics\": {\n"
                     "    \"a\": {\n"
                     "      \"min\": -3.250000,\n"
                     "      \"max\": 2.500000,\n"
                     "      \"mean\": 0.083333,\n"
                     "      \"harmonic_mean\": 7.790698\n"
                     "    },\n"
                     "    \"tiny\": {\n"
                     "    },\n"
                     "    \"b\": {\n"
                     "      \"min\": 4.000000,\n"
                     "      \"max\": 6.000000,\n"
                     "      \"mean\": null,\n"
                     "      \"harmonic_mean\": null\n"
                     "    }\n"
                     "  },\n"
                     "  \"aggregate_metrics\": {\n"
                     "    \"apsnr_y\": 50.500000\n"
                     "  }\n"
                     "}\n",
                     "json");
    free(out);
    vg_collector_destroy(&c);
}
END_TEST

START_TEST(test_csv_sub)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    char *out;

    p.fmt = VG_LOG_FMT_CSV;
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "Frame,a,tiny,b,\n"
                     "0,1.000000,0.0000001000000000,4.000000,\n"
                     "1,2.500000,nan,\n"
                     "2,-3.250000,0.000000,6.000000,\n",
                     "csv");
    free(out);

    p.fmt = VG_LOG_FMT_SUB;
    p.precision = VG_PRECISION_MAX;
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "{0}{1}frame: 0|a: 1|tiny: 9.9999999999999995e-08|b: 4|\n"
                     "{1}{2}frame: 1|a: 2.5|b: nan|\n"
                     "{2}{3}frame: 2|a: -3.25|tiny: 0|b: 6|\n",
                     "sub");
    free(out);
    vg_collector_destroy(&c);
}
END_TEST

START_TEST(test_subsample_empty)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    char *out;

    /* Frames 0 and 2 only; pooling skips frame 1 as well. */
    p.fmt = VG_LOG_FMT_CSV;
    p.subsample = 2;
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "Frame,a,tiny,b,\n"
                     "0,1.000000,0.0000001000000000,4.000000,\n"
                     "2,-3.250000,0.000000,6.000000,\n",
                     "csv subsample");
    free(out);

    p.fmt = VG_LOG_FMT_XML;
    out = write_to_string(c, &p);
    ck_assert_ptr_nonnull(strstr(out, "<metric name=\"tiny\" min=\"0.000000\" "
                                      "max=\"0.0000001000000000\" "));
    ck_assert_ptr_nonnull(strstr(out, "<metric name=\"b\" min=\"4.000000\" "
                                      "max=\"6.000000\" mean=\"5.000000\" "));
    free(out);
    vg_collector_destroy(&c);

    /* No metric at all: still well-formed JSON. */
    ck_assert_int_eq(vg_collector_create(&c), 0);
    p.fmt = VG_LOG_FMT_JSON;
    p.subsample = 1;
    p.fps = 0;
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "{\n"
                     "  \"version\": \"9.9.9\",\n"
                     "  \"fps\": 0.00,\n"
                     "  \"frames\": [\n"
                     "  ],\n"
                     "  \"pooled_metrics\": {\n"
                     "  },\n"
                     "  \"aggregate_metrics\": {\n"
                     "  }\n"
                     "}\n",
                     "empty json");
    free(out);
    vg_collector_destroy(&c);

    ck_assert_int_eq(vg_output_write(NULL, c, &p), -EINVAL);
}
END_TEST

/* Every format on a full device: the write error and its cause. */
/* p->order sets the metrics' order; keys it leaves out are not written */
START_TEST(test_order)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    const int order[] = {
        vg_collector_find(c, "b"),
        vg_collector_find(c, "never"),
        vg_collector_find(c, "a"),
    };
    char *out;

    p.fmt = VG_LOG_FMT_CSV;
    p.order = order;
    p.n_order = sizeof(order) / sizeof(order[0]);
    out = write_to_string(c, &p);
    assert_same_text(out,
                     "Frame,b,a,\n"
                     "0,4.000000,1.000000,\n"
                     "1,nan,2.500000,\n"
                     "2,6.000000,-3.250000,\n",
                     "csv order");
    free(out);
    vg_collector_destroy(&c);
}
END_TEST

START_TEST(test_write_error)
{
    VgCollector *c = small_collector();
    VgOutputParams p = small_params;
    FILE *f;

    for (int fmt = VG_LOG_FMT_XML; fmt <= VG_LOG_FMT_SUB; fmt++) {
        f = fopen("/dev/full", "w");
        ck_assert_ptr_nonnull(f);
        p.fmt = (enum VgLogFormat)fmt;
        ck_assert_int_eq(vg_output_write(f, c, &p), -ENOSPC);
        fclose(f);
    }
    vg_collector_destroy(&c);
}
END_TEST

static Suite *output_suite(void)
{
    Suite *s = suite_create("output");
    TCase *tc = tcase_create("writers");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_number_format);
    tcase_add_loop_test(tc, test_json_golden, 0,
                        sizeof(golden_pairs) / sizeof(golden_pairs[0]));
    tcase_add_test(tc, test_xml);
    tcase_add_test(tc, test_json_small);
    tcase_add_test(tc, test_csv_sub);
    tcase_add_test(tc, test_subsample_empty);
    tcase_add_test(tc, test_order);
    tcase_add_test(tc, test_write_error);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    find_shared();
    return vg_check_run(output_suite());
}
