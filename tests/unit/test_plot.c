/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Per-frame charts (common/report/svg.c, common/report/scorelog.c, common/report/plot.c,
 * vg_write_plot() and `vmafgpu plot` / `--plot`):
 *  - every SVG is read back by libxml2 and validated against the SVG 1.1
 *    DTD (w3c-sgml-lib's, found through the XML catalog, never fetched);
 *  - the writer escapes markup and replaces bytes that are not UTF-8;
 *  - a curve of 200000 frames keeps its one-frame dip, in the decimation
 *    and in the drawn path, and every pixel column keeps its extremes;
 *  - the p1080 goldens (libvmaf's logs) give one curve each, the pooled
 *    values of their pooled_metrics in the legend and their three lowest
 *    frames (found here from the JSON) as labels;
 *  - JSON and XML logs of the same scores read back the same;
 *  - bad input (unknown metric, missing file, log without frames,
 *    malformed logs, unwritable output, bad options) gives a message and
 *    exit status 1, and leaves an existing output file alone;
 *  - a run and an error path are valgrind-clean (when it is installed).
 */

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "common/collector.h"
#include "common/log.h"
#include "common/report/output.h"
#include "common/report/plot.h"
#include "common/report/scorelog.h"
#include "common/report/svg.h"
#include "tests/check_run.h"
#include "tests/cli_util.h"

static const char *const tmp_files[] = {
    "esc.svg",      "gold.svg",      "panels.svg", "big.json",
    "big.svg",      "a.json",        "a.xml",      "a.svg",
    "one.json",     "one.svg",       "empty.json", "nan.json",
    "nan.svg",      "trunc.json",    "bad.xml",    "order.json",
    "text.csv",     "keep.svg",      "small.yuv",  "small_dis.yuv",
    "small.y4m",    "small_dis.y4m", "run.svg",    "y4m.svg",
    "log.json",     "out.txt",       "err.txt",    "entities.xml",
    "entities.svg", "r&d <1>.json",  NULL
};

#define MUST(c)                                                                \
    do {                                                                       \
        if (!(c)) {                                                            \
            fprintf(stderr, "test_plot: set-up failed: %s\n", #c);             \
            exit(EXIT_FAILURE);                                                \
        }                                                                      \
    } while (0)

static char golden[2][CLI_PATH_MAX + 64];

static void write_file(const char *name, const void *data, size_t size)
{
    FILE *f = fopen(tmp_path(name), "wb");

    MUST(f);
    MUST(fwrite(data, 1, size, f) == size);
    MUST(fclose(f) == 0);
}

static void write_text(const char *name, const char *text)
{
    write_file(name, text, strlen(text));
}

/* ---- SVG checks with libxml2 ---------------------------------------------- */

/**
 * Parse an SVG file, validating against the DTD its doctype names.
 * Fails the test if it is not well-formed or not valid SVG 1.1.
 */
static xmlDocPtr parse_svg(const char *path)
{
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    xmlDocPtr doc;
    int valid;

    ck_assert_ptr_nonnull(ctxt);
    doc =
        xmlCtxtReadFile(ctxt, path, NULL, XML_PARSE_NONET | XML_PARSE_DTDVALID);
    valid = ctxt->valid;
    xmlFreeParserCtxt(ctxt);
    ck_assert_msg(doc != NULL, "%s is not well-formed XML", path);
    ck_assert_msg(doc->intSubset || doc->extSubset, "%s has no doctype", path);
    ck_assert_msg(valid,
                  "%s is not valid SVG 1.1 (messages above; the DTD "
                  "comes from the w3c-sgml-lib package)",
                  path);
    return doc;
}

static xmlXPathObjectPtr xpath(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr x = xmlXPathNewContext(doc);
    xmlXPathObjectPtr o;

    ck_assert_ptr_nonnull(x);
    xmlXPathRegisterNs(x, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
    o = xmlXPathEvalExpression(BAD_CAST expr, x);
    xmlXPathFreeContext(x);
    ck_assert_msg(o != NULL, "bad XPath %s", expr);
    return o;
}

static int count(xmlDocPtr doc, const char *expr)
{
    xmlXPathObjectPtr o = xpath(doc, expr);
    int n = o->nodesetval ? o->nodesetval->nodeNr : 0;

    xmlXPathFreeObject(o);
    return n;
}

/** The string value of an XPath expression (caller frees). */
static char *string_of(xmlDocPtr doc, const char *expr)
{
    char buf[1024];
    xmlXPathObjectPtr o;
    xmlChar *s;
    char *r;

    snprintf(buf, sizeof(buf), "string(%s)", expr);
    o = xpath(doc, buf);
    s = xmlXPathCastToString(o);
    r = strdup((const char *)s);
    xmlFree(s);
    xmlXPathFreeObject(o);
    return r;
}

/** 1 if some text element of class cls has exactly this content. */
static int has_text(xmlDocPtr doc, const char *cls, const char *text)
{
    char expr[512];

    if (cls)
        snprintf(expr, sizeof(expr), "//s:text[@class='%s'][.='%s']", cls,
                 text);
    else
        snprintf(expr, sizeof(expr), "//s:text[.='%s']", text);
    return count(doc, expr) > 0;
}

/** Points of an SVG path made of "M x y x y ... h0.01" pieces. */
static size_t path_points(const char *d, double *x, double *y, size_t max)
{
    size_t n = 0;
    const char *p = d;

    while (*p) {
        char *end;
        double a, b;

        while (*p == ' ' || *p == 'M')
            p++;
        if (*p == 'h') { /* the dot of a lone point */
            strtod(p + 1, &end);
            p = end;
            continue;
        }
        if (!*p)
            break;
        a = strtod(p, &end);
        ck_assert_msg(end != p, "path data: unexpected '%s'", p);
        b = strtod(end, &end);
        if (n < max) {
            x[n] = a;
            y[n] = b;
        }
        n++;
        p = end;
    }
    return n;
}

/* ---- the writer ----------------------------------------------------------- */

START_TEST(test_svg_escaping)
{
    const char *label = "a<b>&\"c'\x01 \xff\xfe \xc3\xa9 \xed\xa0\x80!";
    const char *want = "a<b>&\"c'\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
                       "\xc3\xa9 \xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd!";
    FILE *f = fopen(tmp_path("esc.svg"), "w");
    VgSvg s;
    xmlDocPtr doc;
    char *t;

    ck_assert_ptr_nonnull(f);
    vg_svg_begin(&s, f, 100, 50);
    vg_svg_text_element(&s, "title", label);
    vg_svg_open(&s, "g");
    vg_svg_attr(&s, "class", label);
    vg_svg_open(&s, "text");
    vg_svg_attr(&s, "id", "t1");
    vg_svg_attr_num(&s, "x", 1.005, 2);
    vg_svg_attr_num(&s, "y", -0.001, 2);
    vg_svg_text(&s, label);
    vg_svg_close(&s);
    vg_svg_close(&s);
    ck_assert_int_eq(vg_svg_finish(&s), 0);
    ck_assert_int_eq(fclose(f), 0);

    doc = parse_svg(tmp_path("esc.svg"));
    t = string_of(doc, "//s:text[@id='t1']");
    ck_assert_str_eq(t, want);
    free(t);
    t = string_of(doc, "/s:svg/s:title");
    ck_assert_str_eq(t, want);
    free(t);
    t = string_of(doc, "//s:g/@class");
    ck_assert_str_eq(t, want);
    free(t);
    t = string_of(doc, "//s:text[@id='t1']/@y");
    ck_assert_str_eq(t, "0");
    free(t);
    xmlFreeDoc(doc);
}
END_TEST

START_TEST(test_svg_misuse)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    VgSvg s;

    /* an element left open */
    vg_svg_begin(&s, f, 10, 10);
    vg_svg_open(&s, "g");
    ck_assert_int_eq(vg_svg_finish(&s), -EINVAL);
    /* an attribute after content */
    vg_svg_begin(&s, f, 10, 10);
    vg_svg_open(&s, "g");
    vg_svg_text_element(&s, "title", "x");
    vg_svg_attr(&s, "class", "late");
    vg_svg_close(&s);
    ck_assert_int_eq(vg_svg_finish(&s), -EINVAL);
    /* one close too many */
    vg_svg_begin(&s, f, 10, 10);
    vg_svg_close(&s);
    ck_assert_int_eq(vg_svg_finish(&s), -EINVAL);
    fclose(f);
    free(buf);
}
END_TEST

START_TEST(test_format_num)
{
    static const struct {
        double v;
        int decimals;
        const char *want;
    } cases[] = {
        { 0, 2, "0" },
        { -0.0, 2, "0" },
        { -0.004, 2, "0" },
        { 12.5, 2, "12.5" },
        { 12.499, 2, "12.5" },
        { 1.25, 1, "1.3" },
        { -1.25, 1, "-1.3" },
        { 100, 0, "100" },
        { 0.1, 9, "0.1" },
        { 1e15, 0, "1000000000000000" },
        { 2e15, 2, "0" },
        { NAN, 2, "0" },
        { 3.14159, 4, "3.1416" },
    };
    char buf[64];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        ck_assert_msg(!strcmp(vg_svg_format_num(buf, sizeof(buf), cases[i].v,
                                                cases[i].decimals),
                              cases[i].want),
                      "%g with %d decimals: \"%s\", want \"%s\"", cases[i].v,
                      cases[i].decimals, buf, cases[i].want);
}
END_TEST

/* ---- decimation ----------------------------------------------------------- */

#define BIG_N 200000
#define BIG_DIP 123457
#define BIG_PEAK 54321

static double big_value(unsigned i)
{
    if (i == BIG_DIP)
        return 12.25;
    if (i == BIG_PEAK)
        return 99.5;
    return 80 + 6 * sin(i / 3000.0) + (double)((i * 2654435761u) >> 28) / 8;
}

/** The pixel column of frame i, as vg_plot_decimate() maps it. */
static unsigned column_of(unsigned i, double x0, double x1, unsigned cols)
{
    double c = floor((i - x0) * (cols / (x1 - x0)));
    return c > cols - 1 ? cols - 1 : (unsigned)c;
}

START_TEST(test_decimate_keeps_extremes)
{
    const unsigned cols = VG_PLOT_AREA_WIDTH;
    const double x0 = -0.5, x1 = BIG_N - 0.5;
    unsigned *frame = malloc(BIG_N * sizeof(*frame));
    double *value = malloc(BIG_N * sizeof(*value));
    size_t *keep = malloc(BIG_N * sizeof(*keep));
    double *cmin = malloc(cols * sizeof(*cmin)),
           *cmax = malloc(cols * sizeof(*cmax));
    char *seen = calloc(cols, 2);
    double kmin = INFINITY;
    size_t n;
    int saw_dip = 0, saw_peak = 0, saw_gap = 0;

    ck_assert(frame && value && keep && cmin && cmax && seen);
    for (unsigned i = 0; i < BIG_N; i++) {
        frame[i] = i;
        value[i] = i >= 1000 && i < 1010 ? NAN : big_value(i);
    }
    n = vg_plot_decimate(frame, value, BIG_N, x0, x1, cols, keep);
    /* two per column, plus the gap and the two pieces around it */
    ck_assert_msg(n <= 2 * cols + 3, "%zu points kept", n);
    ck_assert_uint_ge(n, cols);

    for (unsigned c = 0; c < cols; c++) {
        cmin[c] = INFINITY;
        cmax[c] = -INFINITY;
    }
    for (unsigned i = 0; i < BIG_N; i++) {
        unsigned c = column_of(i, x0, x1, cols);
        if (isnan(value[i]))
            continue;
        cmin[c] = fmin(cmin[c], value[i]);
        cmax[c] = fmax(cmax[c], value[i]);
    }
    for (size_t k = 0; k < n; k++) {
        size_t i = keep[k];
        unsigned c = column_of((unsigned)i, x0, x1, cols);

        if (k)
            ck_assert_uint_gt(i, keep[k - 1]);
        saw_dip |= i == BIG_DIP;
        saw_peak |= i == BIG_PEAK;
        if (isnan(value[i])) {
            saw_gap = 1;
            continue;
        }
        kmin = fmin(kmin, value[i]);
        ck_assert_msg(value[i] >= cmin[c] && value[i] <= cmax[c],
                      "frame %zu (%g) outside its column's range", i, value[i]);
        seen[2 * c] |= value[i] == cmin[c];
        seen[2 * c + 1] |= value[i] == cmax[c];
    }
    for (unsigned c = 0; c < cols; c++)
        ck_assert_msg(seen[2 * c] && seen[2 * c + 1],
                      "column %u lost its minimum or maximum", c);
    ck_assert_msg(saw_dip, "the dip at frame %d was dropped", BIG_DIP);
    ck_assert(saw_peak);
    ck_assert(saw_gap);
    ck_assert(kmin == 12.25);
    free(frame);
    free(value);
    free(keep);
    free(cmin);
    free(cmax);
    free(seen);
}
END_TEST

/** A JSON log of BIG_N frames with metric vmaf (libvmaf's layout). */
static void write_big_log(const char *name)
{
    FILE *f = fopen(tmp_path(name), "w");

    MUST(f);
    fprintf(
        f, "{\n  \"version\": \"3.2.0\",\n  \"fps\": 512.00,\n  \"frames\": [");
    for (unsigned i = 0; i < BIG_N; i++)
        fprintf(f,
                "%s\n    {\n      \"frameNum\": %u,\n      \"metrics\": {\n"
                "        \"vmaf\": %.6f\n      }\n    }",
                i ? "," : "", i, big_value(i));
    fprintf(
        f,
        "\n  ],\n  \"pooled_metrics\": {\n  },\n  \"aggregate_metrics\": {\n  }\n}\n");
    MUST(fclose(f) == 0);
}

static int run_tool(const char *const *args)
{
    char *argv[64];
    int n = 0;

    argv[n++] = cli_env.cli;
    for (; *args && n < 63; args++)
        argv[n++] = (char *)*args;
    argv[n] = NULL;
    return run_cmd(argv, NULL, tmp_path("out.txt"), tmp_path("err.txt"));
}

static char *err_text(void)
{
    char *e = slurp(tmp_path("err.txt"), NULL);

    ck_assert_ptr_nonnull(e);
    return e;
}

#define RUN_OK(...)                                                            \
    do {                                                                       \
        const char *a_[] = { __VA_ARGS__, NULL };                              \
        int rc_ = run_tool(a_);                                                \
        if (rc_) {                                                             \
            char *e_ = err_text();                                             \
            ck_abort_msg("exit status %d: %s", rc_, e_);                       \
        }                                                                      \
    } while (0)

START_TEST(test_big_log_keeps_dip)
{
    static double x[4 * VG_PLOT_AREA_WIDTH], y[4 * VG_PLOT_AREA_WIDTH];
    xmlDocPtr doc;
    char *d, *cy;
    size_t n, ymax = 0;

    write_big_log("big.json");
    RUN_OK("plot", tmp_path("big.json"), "-o", tmp_path("big.svg"), "--fps",
           "50");
    doc = parse_svg(tmp_path("big.svg"));
    ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 1);
    d = string_of(doc, "//s:g[@class='curve']/s:path/@d");
    n = path_points(d, x, y, sizeof(x) / sizeof(x[0]));
    ck_assert_msg(n <= 2 * VG_PLOT_AREA_WIDTH + 2 && n >= VG_PLOT_AREA_WIDTH,
                  "%zu points drawn for %d frames", n, BIG_N);
    for (size_t i = 1; i < n; i++)
        ymax = y[i] > y[ymax] ? i : ymax;
    /* the lowest point drawn is the dip, where its worst-frame mark sits */
    ck_assert(has_text(doc, "worst", "#123457"));
    cy = string_of(
        doc, "//s:g[@class='worst-frames']/s:g[s:text='#123457']/s:circle/@cy");
    ck_assert_msg(fabs(strtod(cy, NULL) - y[ymax]) < 0.006,
                  "lowest point at y %.2f, dip marked at %s", y[ymax], cy);
    ck_assert(fabs(x[ymax] - (84 + (BIG_DIP + 0.5) / BIG_N *
                                       VG_PLOT_AREA_WIDTH)) < 0.006);
    /* a time axis at 50 fps: 4000 s, labels in minutes */
    ck_assert(has_text(doc, NULL, "30:00"));
    free(d);
    free(cy);
    xmlFreeDoc(doc);
}
END_TEST

/* ---- the goldens ---------------------------------------------------------- */

typedef struct Golden {
    double mean, hmean, min;
    unsigned worst[3];
} Golden;

/** Pooled vmaf and the three lowest frames (earliest first on ties). */
static void golden_facts(const char *path, Golden *g)
{
    json_object *root = json_object_from_file(path), *frames, *pm, *vm, *v;
    double wv[3] = { INFINITY, INFINITY, INFINITY };
    size_t n;

    ck_assert_msg(root != NULL, "cannot read %s", path);
    ck_assert(json_object_object_get_ex(root, "frames", &frames));
    n = json_object_array_length(frames);
    for (size_t i = 0; i < n; i++) {
        json_object *fr = json_object_array_get_idx(frames, i), *m, *num;
        double val;
        unsigned f;
        int k;

        ck_assert(json_object_object_get_ex(fr, "metrics", &m));
        ck_assert(json_object_object_get_ex(fr, "frameNum", &num));
        ck_assert(json_object_object_get_ex(m, "vmaf", &v));
        val = json_object_get_double(v);
        f = (unsigned)json_object_get_int(num);
        for (k = 3; k > 0 && val < wv[k - 1]; k--) {
            if (k < 3) {
                wv[k] = wv[k - 1];
                g->worst[k] = g->worst[k - 1];
            }
        }
        if (k < 3) {
            wv[k] = val;
            g->worst[k] = f;
        }
    }
    ck_assert(json_object_object_get_ex(root, "pooled_metrics", &pm));
    ck_assert(json_object_object_get_ex(pm, "vmaf", &vm));
    ck_assert(json_object_object_get_ex(vm, "mean", &v));
    g->mean = json_object_get_double(v);
    ck_assert(json_object_object_get_ex(vm, "harmonic_mean", &v));
    g->hmean = json_object_get_double(v);
    ck_assert(json_object_object_get_ex(vm, "min", &v));
    g->min = json_object_get_double(v);
    json_object_put(root);
}

START_TEST(test_golden_pairs)
{
    const char *logs[] = { golden[0], golden[1] };
    VgPlotConfig cfg = { .worst = 3, .fps = 30, .logs = logs, .n_logs = 2 };
    const char *names[] = { "p1080_crf32.json", "p1080_scaled.json" };
    xmlDocPtr doc;
    char expr[256], want[128];

    ck_assert_int_eq(vg_write_plot(NULL, tmp_path("gold.svg"), &cfg), 0);
    doc = parse_svg(tmp_path("gold.svg"));
    ck_assert_int_eq(count(doc, "//s:g[@class='panel']"), 1);
    ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 2);
    ck_assert_int_eq(count(doc, "//s:text[@class='worst']"), 6);
    ck_assert(has_text(doc, "title", "Per-frame vmaf"));
    ck_assert(has_text(doc, NULL, "1 s"));
    for (int r = 0; r < 2; r++) {
        Golden g;

        golden_facts(golden[r], &g);
        snprintf(expr, sizeof(expr),
                 "//s:g[@class='curve']/s:title[.='%s: vmaf, "
                 "60 frames']",
                 names[r]);
        ck_assert_msg(count(doc, expr) == 1, "no curve %s", names[r]);
        ck_assert(has_text(doc, "legend-label", names[r]));
        snprintf(want, sizeof(want), "mean %.3f", g.mean);
        ck_assert_msg(has_text(doc, NULL, want), "legend lacks %s", want);
        snprintf(want, sizeof(want), "harmonic mean %.3f", g.hmean);
        ck_assert_msg(has_text(doc, NULL, want), "legend lacks %s", want);
        snprintf(want, sizeof(want), "min %.3f", g.min);
        ck_assert_msg(has_text(doc, NULL, want), "legend lacks %s", want);
        for (int w = 0; w < 3; w++) {
            snprintf(expr, sizeof(expr),
                     "//s:g[@class='worst-frames']/s:g["
                     "starts-with(s:title, '%s: vmaf ')][s:text[@class='worst']"
                     "='#%u']",
                     names[r], g.worst[w]);
            ck_assert_msg(count(doc, expr) == 1, "%s: frame %u is not labelled",
                          names[r], g.worst[w]);
        }
    }
    xmlFreeDoc(doc);
}
END_TEST

START_TEST(test_panels_per_scale)
{
    xmlDocPtr doc;

    RUN_OK("plot", golden[0], "-o", tmp_path("panels.svg"), "--metrics",
           "vmaf,psnr_y,psnr_cb,float_ssim,motion2", "--worst", "0", "--title",
           "crf 32 <&>");
    doc = parse_svg(tmp_path("panels.svg"));
    /* vmaf; psnr_y + psnr_cb (dB); float_ssim (0..1); motion2 */
    ck_assert_int_eq(count(doc, "//s:g[@class='panel']"), 4);
    ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 5);
    ck_assert_int_eq(
        count(doc, "//s:g[@class='panel'][s:title='psnr_y, psnr_cb (dB)']"
                   "//s:g[@class='curve']"),
        2);
    ck_assert_int_eq(count(doc, "//s:text[@class='worst']"), 0);
    ck_assert(has_text(doc, "title", "crf 32 <&>"));
    /* no frame rate given: no time axis */
    ck_assert(!has_text(doc, NULL, "1 s"));
    xmlFreeDoc(doc);
}
END_TEST

/* ---- log formats ---------------------------------------------------------- */

START_TEST(test_json_and_xml_read_alike)
{
    VgCollector *c;
    VgOutputParams p = { .precision = VG_PRECISION_MAX,
                         .n_frames = 7,
                         .subsample = 1,
                         .width = 64,
                         .height = 48,
                         .fps = 12 };
    VgScoreLog *lj, *lx;
    FILE *f;
    int a, b, m;

    ck_assert_int_eq(vg_collector_create(&c), 0);
    a = vg_collector_key(c, "vmaf");
    b = vg_collector_key(c, "psnr_y");
    m = vg_collector_key(c, "float_ms_ssim");
    for (unsigned i = 0; i < 7; i++) {
        ck_assert_int_eq(vg_collector_set(c, a, i, 60 + i * 1.0 / 3), 0);
        if (i % 2 == 0) /* every other frame, as with --subsample */
            ck_assert_int_eq(vg_collector_set(c, b, i, 40 - i * 0.1), 0);
        ck_assert_int_eq(vg_collector_set(c, m, i, i == 3 ? NAN : i), 0);
    }
    for (int fmt = 0; fmt < 2; fmt++) {
        p.fmt = fmt ? VG_LOG_FMT_XML : VG_LOG_FMT_JSON;
        f = fopen(tmp_path(fmt ? "a.xml" : "a.json"), "w");
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(vg_output_write(f, c, &p), 0);
        ck_assert_int_eq(fclose(f), 0);
    }
    vg_collector_destroy(&c);

    ck_assert_int_eq(vg_score_log_read(&lj, tmp_path("a.json"), NULL), 0);
    ck_assert_int_eq(vg_score_log_read(&lx, tmp_path("a.xml"), NULL), 0);
    ck_assert_uint_eq(lj->n_frames, 7);
    ck_assert_uint_eq(lx->n_frames, 7);
    ck_assert_uint_eq(lj->n_series, 3);
    ck_assert_uint_eq(lx->n_series, 3);
    for (unsigned s = 0; s < 3; s++) {
        const VgScoreSeries *sj = &lj->series[s];
        const VgScoreSeries *sx = vg_score_log_find(lx, sj->name);

        ck_assert_msg(sx != NULL, "XML lacks %s", sj->name);
        ck_assert_uint_eq(sj->n, sx->n);
        ck_assert_uint_eq(sj->n, !strcmp(sj->name, "psnr_y") ? 4 : 7);
        ck_assert_int_eq(sj->is_model, !strcmp(sj->name, "vmaf"));
        /* no pooled values for a metric some frames lack (the writers
         * leave them out, as libvmaf does) */
        ck_assert_int_eq(sj->have_pooled, !strcmp(sj->name, "psnr_y")
                                              ? 0
                                              : VG_SCORE_HAVE_MEAN |
                                                    VG_SCORE_HAVE_HMEAN |
                                                    VG_SCORE_HAVE_MIN);
        ck_assert_int_eq(sx->have_pooled, sj->have_pooled);
        for (unsigned i = 0; i < sj->n; i++) {
            ck_assert_uint_eq(sj->frame[i], sx->frame[i]);
            ck_assert_msg(sj->value[i] == sx->value[i] ||
                              (isnan(sj->value[i]) && isnan(sx->value[i])),
                          "%s frame %u: %.17g vs %.17g", sj->name, sj->frame[i],
                          sj->value[i], sx->value[i]);
        }
        ck_assert(sj->mean == sx->mean || (isnan(sj->mean) && isnan(sx->mean)));
    }
    vg_score_log_free(&lj);
    vg_score_log_free(&lx);

    /* a log with a non-finite value still draws (a gap, "nan" in the
     * legend); a file name with markup characters is escaped */
    {
        char *json = slurp(tmp_path("a.json"), NULL);
        xmlDocPtr doc;

        ck_assert_ptr_nonnull(json);
        write_text("r&d <1>.json", json);
        free(json);
        RUN_OK("plot", tmp_path("r&d <1>.json"), tmp_path("a.xml"), "-o",
               tmp_path("a.svg"), "--metrics", "vmaf,float_ms_ssim,psnr_y");
        doc = parse_svg(tmp_path("a.svg"));
        ck_assert_int_eq(count(doc, "//s:g[@class='panel']"), 3);
        ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 6);
        ck_assert(has_text(doc, NULL, "mean nan"));
        ck_assert(has_text(doc, "legend-label", "r&d <1>.json"));
        ck_assert(has_text(doc, "legend-label", "a.xml"));
        xmlFreeDoc(doc);
    }
}
END_TEST

START_TEST(test_xml_syntax)
{
    xmlDocPtr doc;
    VgScoreLog *l;

    write_text(
        "entities.xml",
        "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!DOCTYPE VMAF>\n<!-- a comment -->\n"
        "<VMAF version='x'>\n  <frames>\n"
        "    <frame frameNum=\"0\" vmaf='&#55;5' psnr_y=\"3&#x35;.5\"/>\n"
        "    <frame\n frameNum = '1'\n vmaf=\"7&#x36;.25\" psnr_y='3.5e1'></frame>\n"
        "  </frames>\n  <pooled_metrics>\n"
        "    <metric name=\"vmaf\" min=\"75\" mean=\"75.625\" harmonic_mean=\"75.62\" />\n"
        "  </pooled_metrics>\n</VMAF>\n<!-- end -->\n");
    ck_assert_int_eq(vg_score_log_read(&l, tmp_path("entities.xml"), NULL), 0);
    ck_assert_uint_eq(l->n_frames, 2);
    ck_assert_uint_eq(l->n_series, 2);
    ck_assert(l->series[0].value[0] == 75 && l->series[0].value[1] == 76.25);
    ck_assert(l->series[1].value[0] == 35.5 && l->series[1].value[1] == 35);
    ck_assert(l->series[0].hmean == 75.62);
    vg_score_log_free(&l);

    /* one frame: a chart all the same */
    write_text("one.json", "{\"frames\": [{\"frameNum\": 41, \"metrics\": "
                           "{\"vmaf\": 93.5}}]}");
    RUN_OK("plot", tmp_path("one.json"), "-o", tmp_path("one.svg"));
    doc = parse_svg(tmp_path("one.svg"));
    ck_assert(has_text(doc, "worst", "#41"));
    ck_assert(has_text(doc, NULL, "mean 93.500"));
    xmlFreeDoc(doc);
}
END_TEST

/* ---- bad input ------------------------------------------------------------ */

static int last_level;
static char last_msg[1024];

static void capture(void *opaque, enum VgLogLevel level, const char *msg)
{
    (void)opaque;
    last_level = level;
    snprintf(last_msg, sizeof(last_msg), "%s", msg);
}

typedef struct BadLog {
    const char *name, *content, *expect;
} BadLog;

static const BadLog bad_logs[] = {
    { "empty.json",
      "{\"version\": \"3.2.0\", \"fps\": 1.0, \"frames\": [\n],\n"
      "\"pooled_metrics\": {}}",
      "the log has no frames" },
    { "trunc.json",
      "{\n  \"frames\": [\n    {\"frameNum\": 0, \"metrics\": {\"vmaf\": 1}},\n"
      "    {\"frameNum\": 1, \"metrics\": {\"vmaf\": ",
      ":4: malformed JSON" },
    { "order.json",
      "{\"frames\": [{\"frameNum\": 3, \"metrics\": {\"vmaf\": 1}},\n"
      "{\"frameNum\": 2, \"metrics\": {\"vmaf\": 1}}]}",
      "increasing order" },
    { "nan.json",
      "{\"frames\": [{\"frameNum\": 0, \"metrics\": {\"vmaf\": \"x\"}}]}",
      "metric 'vmaf' is not a number" },
    { "bad.xml",
      "<VMAF>\n<frames>\n<frame frameNum=\"0\" vmaf=\"1\" />\n</frame>\n</VMAF>\n",
      ":4: malformed XML: unexpected end tag </frame>" },
    { "text.csv", "Frame,vmaf,\n0,1.0,\n", "not a JSON or XML log" },
    { "keep.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
      "root element <svg>" },
};
#define N_BAD_LOGS (sizeof(bad_logs) / sizeof(bad_logs[0]))

START_TEST(test_bad_logs)
{
    const BadLog *b = &bad_logs[_i];
    VgLog log;
    VgScoreLog *l = (VgScoreLog *)&log;
    int ret;

    write_text(b->name, b->content);
    vg_log_init(&log, capture, NULL, VG_LOG_DEBUG);
    last_msg[0] = '\0';
    ret = vg_score_log_read(&l, tmp_path(b->name), &log);
    vg_log_uninit(&log);
    ck_assert_int_eq(ret, -EINVAL);
    ck_assert_ptr_null(l);
    ck_assert_int_eq(last_level, VG_LOG_ERROR);
    ck_assert_msg(strstr(last_msg, b->expect) && strstr(last_msg, b->name),
                  "%s: message \"%s\" lacks \"%s\"", b->name, last_msg,
                  b->expect);
}
END_TEST

typedef struct BadRun {
    const char *what;
    const char *args[16];
    const char *expect;
} BadRun;

/* "@name": a file of the temporary directory; "@G0", "@G1": the goldens */
static const BadRun bad_runs[] = {
    { "unknown metric",
      { "plot", "@G0", "-o", "@keep.svg", "--metrics", "vmaf,nosuch" },
      "unknown metric 'nosuch'" },
    { "missing log",
      { "plot", "@G0", "@missing.json", "-o", "@keep.svg" },
      "cannot open log" },
    { "log without frames",
      { "plot", "@empty.json", "-o", "@keep.svg" },
      "has no frames" },
    { "malformed log",
      { "plot", "@trunc.json", "-o", "@keep.svg" },
      "malformed JSON" },
    { "unwritable output",
      { "plot", "@G0", "-o", "/nonexistent-dir/x.svg" },
      "cannot open '/nonexistent-dir/x.svg' for writing" },
    { "output is a directory",
      { "plot", "@G0", "-o", "/" },
      "cannot open '/' for writing" },
    { "no output", { "plot", "@G0" }, "-o/--output FILE.svg is required" },
    { "no log", { "plot", "-o", "@keep.svg" }, "no log given" },
    { "worst 101",
      { "plot", "@G0", "-o", "@keep.svg", "--worst", "101" },
      "--worst" },
    { "fps 0", { "plot", "@G0", "-o", "@keep.svg", "--fps", "0" }, "--fps" },
    { "fps 30/0",
      { "plot", "@G0", "-o", "@keep.svg", "--fps", "30/0" },
      "--fps" },
    { "empty metric name",
      { "plot", "@G0", "-o", "@keep.svg", "--metrics", "vmaf,,psnr_y" },
      "empty metric name" },
    { "no model score",
      { "plot", "@a.json", "-o", "@keep.svg", "--metrics", "" },
      "no model score to draw" },
    { "unknown option",
      { "plot", "@G0", "-o", "@keep.svg", "--bogus" },
      "unknown option --bogus" },
    { "--metrics without --plot",
      { "-r", "@small.yuv", "-d", "@small_dis.yuv", "-w", "64", "-h", "48",
        "-p", "420", "-b", "8", "--metrics", "vmaf" },
      "--plot FILE.svg, which is missing" },
    { "unwritable --plot",
      { "-r", "@small.yuv", "-d", "@small_dis.yuv", "-w", "64", "-h", "48",
        "-p", "420", "-b", "8", "--plot", "/nonexistent-dir/x.svg" },
      "cannot write --plot /nonexistent-dir/x.svg (No such file or directory)" },
};
#define N_BAD_RUNS (sizeof(bad_runs) / sizeof(bad_runs[0]))

START_TEST(test_bad_runs)
{
    const BadRun *b = &bad_runs[_i];
    static const char sentinel[] = "not to be overwritten\n";
    const char *args[17];
    char paths[16][CLI_PATH_MAX + 64], *err, *kept;
    int n, rc;

    /* the logs the cases read exist (other tests make them in their fork) */
    for (unsigned k = 0; k < N_BAD_LOGS; k++)
        write_text(bad_logs[k].name, bad_logs[k].content);
    write_text("a.json", "{\"frames\": [{\"frameNum\": 0, \"metrics\": "
                         "{\"psnr_y\": 40}}]}");
    write_text("keep.svg", sentinel);
    for (n = 0; b->args[n]; n++) {
        const char *a = b->args[n];

        if (!strcmp(a, "@G0"))
            args[n] = golden[0];
        else if (a[0] == '@')
            args[n] = strcpy(paths[n], tmp_path(a + 1));
        else
            args[n] = a;
    }
    args[n] = NULL;
    rc = run_tool(args);
    err = err_text();
    ck_assert_msg(rc == 1, "%s: exit status %d, want 1; stderr: %s", b->what,
                  rc, err);
    ck_assert_msg(strstr(err, b->expect) != NULL, "%s: stderr lacks \"%s\": %s",
                  b->what, b->expect, err);
    free(err);
    kept = slurp(tmp_path("keep.svg"), NULL);
    ck_assert_msg(kept && !strcmp(kept, sentinel),
                  "%s: the output file was "
                  "changed",
                  b->what);
    free(kept);
}
END_TEST

/* ---- the scoring run and the API ------------------------------------------ */

#define SMALL_W 64
#define SMALL_H 48
#define SMALL_FRAMES 4

static void make_small_inputs(void)
{
    static uint8_t pic[SMALL_FRAMES][SMALL_W * SMALL_H * 3 / 2];
    FILE *f;

    for (int d = 0; d < 2; d++) {
        for (int k = 0; k < SMALL_FRAMES; k++)
            for (size_t i = 0; i < sizeof(pic[k]); i++)
                pic[k][i] = (uint8_t)(((i * 7 + i / SMALL_W + k * 3) & 0xff) ^
                                      (d ? (k + 1) & 3 : 0));
        write_file(d ? "small_dis.yuv" : "small.yuv", pic, sizeof(pic));
        f = fopen(tmp_path(d ? "small_dis.y4m" : "small.y4m"), "wb");
        MUST(f);
        fprintf(f, "YUV4MPEG2 W%d H%d F25:1 Ip C420jpeg\n", SMALL_W, SMALL_H);
        for (int k = 0; k < SMALL_FRAMES; k++) {
            fputs("FRAME\n", f);
            MUST(fwrite(pic[k], 1, sizeof(pic[k]), f) == sizeof(pic[k]));
        }
        MUST(fclose(f) == 0);
    }
}

START_TEST(test_scoring_run_plot)
{
    xmlDocPtr doc;

    RUN_OK("-r", tmp_path("small.yuv"), "-d", tmp_path("small_dis.yuv"), "-w",
           "64", "-h", "48", "-p", "420", "-b", "8", "--feature", "psnr",
           "--json", "-o", tmp_path("log.json"), "--plot", tmp_path("run.svg"),
           "--metrics", "vmaf,psnr_y", "--worst", "1");
    doc = parse_svg(tmp_path("run.svg"));
    ck_assert_int_eq(count(doc, "//s:g[@class='panel']"), 2);
    ck_assert_int_eq(
        count(
            doc,
            "//s:g[@class='curve']/s:title[.='small_dis.yuv: vmaf, 4 frames']"),
        1);
    ck_assert_int_eq(count(doc, "//s:text[@class='worst']"), 2);
    xmlFreeDoc(doc);

    /* y4m: the header's frame rate gives the time axis; default metrics */
    RUN_OK("-r", tmp_path("small.y4m"), "-d", tmp_path("small_dis.y4m"),
           "--plot", tmp_path("y4m.svg"), "-q");
    doc = parse_svg(tmp_path("y4m.svg"));
    ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 1);
    ck_assert(has_text(doc, NULL, "1 run, frames 0 to 3, 25 fps"));
    ck_assert(has_text(doc, NULL, "0.1 s"));
    xmlFreeDoc(doc);
}
END_TEST

static const uint8_t *small_frame(const char *data, int k)
{
    return (const uint8_t *)data + (size_t)k * (SMALL_W * SMALL_H * 3 / 2);
}

START_TEST(test_api)
{
    VgConfig cfg = { .backend = VG_BACKEND_CPU,
                     .log_level = VG_LOG_DEBUG,
                     .log_cb = capture };
    VgPlotConfig pc = { .worst = 2, .label = "api" };
    const char *logs[] = { golden[0] };
    char *ref = slurp(tmp_path("small.yuv"), NULL);
    char *dis = slurp(tmp_path("small_dis.yuv"), NULL);
    VgContext *ctx;
    xmlDocPtr doc;

    ck_assert(ref && dis);
    ck_assert_int_eq(vg_context_create(&ctx, &cfg), 0);
    ck_assert_int_eq(vg_write_plot(ctx, tmp_path("keep.svg"), NULL), -EINVAL);
    /* no frames, no logs */
    ck_assert_int_eq(vg_write_plot(ctx, tmp_path("keep.svg"), &pc), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "nothing to draw"));
    ck_assert_int_eq(vg_use_model(ctx, "version=vmaf_v0.6.1"), 0);
    for (int k = 0; k < SMALL_FRAMES; k++) {
        VgPicture r = { .fmt = VG_PIX_FMT_YUV420P,
                        .width = SMALL_W,
                        .height = SMALL_H,
                        .bitdepth = 8 },
                  d;
        const uint8_t *pr = small_frame(ref, k), *pd = small_frame(dis, k);

        r.data[0] = pr;
        r.data[1] = pr + SMALL_W * SMALL_H;
        r.data[2] = pr + SMALL_W * SMALL_H * 5 / 4;
        r.stride[0] = SMALL_W;
        r.stride[1] = r.stride[2] = SMALL_W / 2;
        d = r;
        d.data[0] = pd;
        d.data[1] = pd + SMALL_W * SMALL_H;
        d.data[2] = pd + SMALL_W * SMALL_H * 5 / 4;
        ck_assert_int_eq(vg_submit(ctx, &r, &d), 0);
    }
    ck_assert_int_eq(vg_write_plot(ctx, tmp_path("keep.svg"), &pc), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "vg_flush()"));
    ck_assert_int_eq(vg_flush(ctx), 0);
    /* the context's scores and a log on one chart */
    pc.logs = logs;
    pc.n_logs = 1;
    ck_assert_int_eq(vg_write_plot(ctx, tmp_path("run.svg"), &pc), 0);
    doc = parse_svg(tmp_path("run.svg"));
    ck_assert_int_eq(count(doc, "//s:g[@class='curve']"), 2);
    ck_assert(has_text(doc, "legend-label", "api"));
    ck_assert(has_text(doc, "legend-label", "p1080_crf32.json"));
    xmlFreeDoc(doc);
    pc.metrics = "psnr_y";
    ck_assert_int_eq(vg_write_plot(ctx, tmp_path("run.svg"), &pc), -EINVAL);
    ck_assert_ptr_nonnull(strstr(last_msg, "has:"));
    vg_context_destroy(&ctx);
    free(ref);
    free(dis);
}
END_TEST

START_TEST(test_valgrind_clean)
{
    static const char *const vg[] = {
        "/usr/bin/valgrind",
        "-q",
        "--error-exitcode=99",
        "--leak-check=full",
        "--errors-for-leak-kinds=definite,indirect",
    };
    char *argv[32];
    int n = 0, rc;

#ifdef VG_TEST_ASAN
    return;
#endif
    if (!file_exists("/usr/bin/valgrind"))
        return;
    ck_assert_str_eq(bad_logs[4].name, "bad.xml");
    write_text("bad.xml", bad_logs[4].content);
    for (size_t k = 0; k < sizeof(vg) / sizeof(vg[0]); k++)
        argv[n++] = (char *)vg[k];
    argv[n++] = cli_env.cli;
    argv[n++] = "plot";
    argv[n++] = golden[0];
    argv[n++] = golden[1];
    argv[n++] = "--metrics";
    argv[n++] = "vmaf,psnr_y";
    argv[n++] = "--fps";
    argv[n++] = "30";
    argv[n++] = "-o";
    argv[n++] = (char *)tmp_path("gold.svg");
    argv[n] = NULL;
    rc = run_cmd(argv, NULL, tmp_path("out.txt"), tmp_path("err.txt"));
    ck_assert_msg(rc == 0, "valgrind: exit status %d: %s", rc, err_text());
    /* an error path: a malformed XML log after a good one */
    argv[n - 7] = (char *)tmp_path("bad.xml");
    rc = run_cmd(argv, NULL, tmp_path("out.txt"), tmp_path("err.txt"));
    ck_assert_msg(rc == 1, "valgrind, bad log: exit status %d: %s", rc,
                  err_text());
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plot");
    TCase *tc = tcase_create("plot");
    int ret;

    cli_env_init();
    snprintf(golden[0], sizeof(golden[0]), "%s/golden/p1080_crf32.json",
             cli_env.shared);
    snprintf(golden[1], sizeof(golden[1]), "%s/golden/p1080_scaled.json",
             cli_env.shared);
    MUST(file_exists(golden[0]) && file_exists(golden[1]));
    make_small_inputs();
    xmlInitParser();

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_svg_escaping);
    tcase_add_test(tc, test_svg_misuse);
    tcase_add_test(tc, test_format_num);
    tcase_add_test(tc, test_decimate_keeps_extremes);
    tcase_add_test(tc, test_big_log_keeps_dip);
    tcase_add_test(tc, test_golden_pairs);
    tcase_add_test(tc, test_panels_per_scale);
    tcase_add_test(tc, test_json_and_xml_read_alike);
    tcase_add_test(tc, test_xml_syntax);
    tcase_add_loop_test(tc, test_bad_logs, 0, N_BAD_LOGS);
    tcase_add_loop_test(tc, test_bad_runs, 0, N_BAD_RUNS);
    tcase_add_test(tc, test_scoring_run_plot);
    tcase_add_test(tc, test_api);
    tcase_add_test(tc, test_valgrind_clean);
    suite_add_tcase(s, tc);
    ret = vg_check_run(s);
    xmlCleanupParser();
    cli_env_cleanup(tmp_files);
    return ret;
}
