/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Per-frame score charts.
 *
 * Layout (pixels; the SVG is 1200 wide and as tall as its panels need):
 * a title and a key of the marks, then one panel per scale: model scores
 * (VMAF, 0..100), dB (PSNR and friends), 0..1 indices (SSIM, VIF, ADM),
 * and one panel for each metric of any other scale. A panel holds a plot
 * area with a frame axis below it and, when the frame rate is known, a
 * time axis above; curves (one per run and metric; colour = run when
 * several runs are drawn, else metric; dash pattern = metric); the pooled
 * mean as a dashed line and the mean, harmonic mean and minimum as marks
 * in the right margin; a circle and the frame number at each curve's
 * worst frames; and a legend row per curve with the pooled values.
 *
 * Curves longer than twice the plot width are decimated to the lowest and
 * highest point of each pixel column (vg_plot_decimate()), so that a dip
 * of one frame in 200000 still shows.
 */

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/context.h"
#include "common/report/plot.h"
#include "common/pool.h"
#include "common/report/svg.h"

/* ---- geometry ------------------------------------------------------------- */

#define SVG_WIDTH 1200
#define AREA_LEFT 84
#define AREA_WIDTH VG_PLOT_AREA_WIDTH
#define AREA_RIGHT (AREA_LEFT + AREA_WIDTH)
#define AREA_HEIGHT 260
#define TITLE_Y 34
#define KEY_Y 58
#define FIRST_PANEL_Y 78
#define LEGEND_ROW 20
#define PANEL_GAP 26
/** Average advance of a glyph of the sans-serif faces used, per pixel of
 * font size (DejaVu Sans is the widest common one): for text placement. */
#define GLYPH_EM 0.62

#define FONT "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"

#define MAX_METRICS 32
#define MAX_RUNS 32

/** Distinguishable colours (Tableau 10), cycled. */
static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
};
#define N_COLORS (sizeof(palette) / sizeof(palette[0]))

/** Dash patterns of the metrics that share a panel. */
static const char *const dashes[] = { NULL, "7 3", "2 2", "9 3 2 3" };
#define N_DASHES (sizeof(dashes) / sizeof(dashes[0]))

enum Unit {
    UNIT_MODEL, ///< model scores, 0..100
    UNIT_DB,    ///< PSNR-like, dB
    UNIT_INDEX, ///< 0..1 quality indices
    UNIT_OWN,   ///< anything else: a panel of its own
};

typedef struct Curve {
    const VgScoreLog *run;
    unsigned run_idx;
    unsigned metric_idx; ///< in the panel
    const VgScoreSeries *s;
    double mean, hmean, min;
    size_t worst[VG_PLOT_MAX_WORST]; ///< indices into s, lowest value first
    unsigned n_worst;
    const char *color, *dash;
    char label[160];
} Curve;

typedef struct Panel {
    enum Unit unit;
    const char *metric[MAX_METRICS];
    unsigned n_metrics;
    Curve *curve;
    unsigned n_curves;
    double y0, y1, ystep; ///< axis range and tick step
    double top;           ///< top of the plot area
} Panel;

typedef struct Plot {
    VgSvg svg;
    VgLog *log;
    const VgPlotConfig *cfg;
    VgScoreLog *const *runs;
    unsigned n_runs;
    const char *metric[MAX_METRICS];
    int metric_is_model[MAX_METRICS];
    unsigned n_metrics;
    char *metric_buf;
    Panel panel[MAX_METRICS];
    unsigned n_panels;
    double x0, x1;        ///< frame domain
    unsigned first, last; ///< first and last frame drawn
    double fps;
    size_t *keep; ///< decimation scratch
    size_t keep_cap;
    unsigned n_clip;
} Plot;

/* ---- numbers and text ------------------------------------------------------ */

/** Fixed decimals, locale-free, with "nan", "inf" spelled out. */
static const char *fmt_fixed(char *buf, size_t size, double v, int decimals)
{
    size_t len;
    char *dot;

    if (isnan(v))
        return "nan";
    if (isinf(v))
        return v < 0 ? "-inf" : "inf";
    if (fabs(v) > 1e15)
        decimals = 0;
    vg_svg_format_num(buf, size, v, decimals);
    if (!decimals)
        return buf;
    dot = strchr(buf, '.');
    len = strlen(buf);
    if (!dot && len + 1 < size) {
        buf[len++] = '.';
        buf[len] = '\0';
        dot = buf + len - 1;
    }
    while (dot && (int)(len - (size_t)(dot - buf) - 1) < decimals &&
           len + 1 < size) {
        buf[len++] = '0';
        buf[len] = '\0';
    }
    return buf;
}

/** A score as the legend prints it: 4 decimals below 10, then 3, then 1. */
static const char *fmt_score(char *buf, size_t size, double v)
{
    double a = fabs(v);

    return fmt_fixed(buf, size, v, a < 10 ? 4 : a < 1000 ? 3 : 1);
}

static double text_width(const char *s, double font_size)
{
    size_t n = 0;

    /* count characters, not UTF-8 continuation bytes */
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += (*p & 0xc0) != 0x80;
    return (double)n * font_size * GLYPH_EM;
}

/** Copy src into dst (size bytes), cut in the middle with "..." beyond max_chars. */
static void shorten(char *dst, size_t size, const char *src, size_t max_chars)
{
    size_t len = strlen(src), head, tail;

    if (len <= max_chars || max_chars < 8) {
        snprintf(dst, size, "%s", src);
        return;
    }
    head = (max_chars - 3) / 2;
    tail = max_chars - 3 - head;
    /* do not cut a UTF-8 sequence */
    while (head && ((unsigned char)src[head] & 0xc0) == 0x80)
        head--;
    while (tail && ((unsigned char)src[len - tail] & 0xc0) == 0x80)
        tail--;
    snprintf(dst, size, "%.*s...%s", (int)head, src, src + len - tail);
}

/* ---- metrics, panels and curves ------------------------------------------- */

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

static enum Unit metric_unit(const char *name, int is_model)
{
    static const char *const db[] = { "psnr", "apsnr", "anpsnr", "ansnr" };
    static const char *const index[] = { "ssim", "ms_ssim", "vif", "adm" };

    if (is_model)
        return UNIT_MODEL;
    if (starts_with(name, "integer_"))
        name += 8;
    else if (starts_with(name, "float_"))
        name += 6;
    for (size_t i = 0; i < sizeof(db) / sizeof(db[0]); i++)
        if (starts_with(name, db[i]))
            return UNIT_DB;
    for (size_t i = 0; i < sizeof(index) / sizeof(index[0]); i++)
        if (starts_with(name, index[i]))
            return UNIT_INDEX;
    return UNIT_OWN;
}

static int add_metric(Plot *p, const char *name)
{
    for (unsigned i = 0; i < p->n_metrics; i++)
        if (!strcmp(p->metric[i], name))
            return 0;
    if (p->n_metrics == MAX_METRICS) {
        vg_log(p->log, VG_LOG_ERROR, "plot: at most %d metrics", MAX_METRICS);
        return -EINVAL;
    }
    p->metric[p->n_metrics++] = name;
    return 0;
}

/** Log which metrics a run has, for "no metric X" errors. */
static void list_metrics(Plot *p, const VgScoreLog *run)
{
    char buf[400];
    size_t len = 0;

    buf[0] = '\0';
    for (unsigned i = 0; i < run->n_series && len < sizeof(buf); i++) {
        const char *sep = i ? ", " : "";

        if (i == 12) {
            snprintf(buf + len, sizeof(buf) - len, ", ... (%u in all)",
                     run->n_series);
            break;
        }
        len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", sep,
                                run->series[i].name);
    }
    vg_log(p->log, VG_LOG_ERROR, "plot: %s has: %s", run->label, buf);
}

/** Which metrics to draw: cfg->metrics, else every model score. */
static int select_metrics(Plot *p)
{
    const char *spec = p->cfg->metrics;
    int ret;

    if (spec && *spec) {
        char *tok, *save = NULL;

        if (!(p->metric_buf = strdup(spec)))
            return -ENOMEM;
        /* strtok_r would skip empty names silently */
        for (const char *c = spec; *c; c++) {
            if (*c == ',' && (c == spec || c[1] == ',' || !c[1])) {
                vg_log(p->log, VG_LOG_ERROR,
                       "plot: empty metric name in "
                       "\"%s\"",
                       spec);
                return -EINVAL;
            }
        }
        for (tok = strtok_r(p->metric_buf, ",", &save); tok;
             tok = strtok_r(NULL, ",", &save)) {
            while (*tok == ' ')
                tok++;
            for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
                *--e = '\0';
            if (!*tok) {
                vg_log(p->log, VG_LOG_ERROR,
                       "plot: empty metric name in "
                       "\"%s\"",
                       spec);
                return -EINVAL;
            }
            if ((ret = add_metric(p, tok)) < 0)
                return ret;
        }
        for (unsigned m = 0; m < p->n_metrics; m++) {
            for (unsigned r = 0; r < p->n_runs; r++) {
                if (vg_score_log_find(p->runs[r], p->metric[m]))
                    continue;
                vg_log(p->log, VG_LOG_ERROR,
                       "plot: unknown metric '%s': %s "
                       "has no such per-frame score",
                       p->metric[m], p->runs[r]->label);
                list_metrics(p, p->runs[r]);
                return -EINVAL;
            }
        }
    } else {
        for (unsigned r = 0; r < p->n_runs; r++) {
            const VgScoreLog *run = p->runs[r];
            int found = 0;

            for (unsigned i = 0; i < run->n_series; i++) {
                if (!run->series[i].is_model)
                    continue;
                found = 1;
                if ((ret = add_metric(p, run->series[i].name)) < 0)
                    return ret;
            }
            if (!found)
                vg_log(p->log, VG_LOG_WARNING,
                       "plot: %s has no model score; "
                       "name the metrics to draw",
                       run->label);
        }
        if (!p->n_metrics) {
            vg_log(p->log, VG_LOG_ERROR,
                   "plot: no model score to draw; name "
                   "the metrics to draw (e.g. psnr_y)");
            return -EINVAL;
        }
    }
    for (unsigned m = 0; m < p->n_metrics; m++) {
        for (unsigned r = 0; r < p->n_runs; r++) {
            const VgScoreSeries *s =
                vg_score_log_find(p->runs[r], p->metric[m]);
            if (s && s->is_model)
                p->metric_is_model[m] = 1;
        }
    }
    return 0;
}

/** Pooled values from the run, else computed as common/pool.c does. */
static void pool_curve(Curve *c)
{
    const VgScoreSeries *s = c->s;
    double sum = 0, isum = 0, min = s->n ? s->value[0] : NAN;

    for (unsigned i = 0; i < s->n; i++) {
        sum += s->value[i];
        isum += 1. / (s->value[i] + 1.);
        if (s->value[i] < min)
            min = s->value[i];
    }
    c->mean = s->have_pooled & VG_SCORE_HAVE_MEAN ? s->mean : sum / s->n;
    c->hmean =
        s->have_pooled & VG_SCORE_HAVE_HMEAN ? s->hmean : s->n / isum - 1.0;
    c->min = s->have_pooled & VG_SCORE_HAVE_MIN ? s->min : min;
}

/** The n lowest finite values, lowest first; earlier frames win ties. */
static void find_worst(Curve *c, unsigned n)
{
    const VgScoreSeries *s = c->s;

    c->n_worst = 0;
    for (size_t i = 0; i < s->n && n; i++) {
        double v = s->value[i];
        unsigned k;

        if (!isfinite(v))
            continue;
        if (c->n_worst == n && !(v < s->value[c->worst[n - 1]]))
            continue;
        k = c->n_worst < n ? c->n_worst++ : n - 1;
        while (k && v < s->value[c->worst[k - 1]]) {
            c->worst[k] = c->worst[k - 1];
            k--;
        }
        c->worst[k] = i;
    }
}

static int build_panels(Plot *p)
{
    for (unsigned m = 0; m < p->n_metrics; m++) {
        enum Unit u = metric_unit(p->metric[m], p->metric_is_model[m]);
        Panel *pn = NULL;

        for (unsigned i = 0; i < p->n_panels && u != UNIT_OWN; i++)
            if (p->panel[i].unit == u)
                pn = &p->panel[i];
        if (!pn) {
            pn = &p->panel[p->n_panels++];
            pn->unit = u;
        }
        pn->metric[pn->n_metrics++] = p->metric[m];
    }

    for (unsigned i = 0; i < p->n_panels; i++) {
        Panel *pn = &p->panel[i];

        if (!(pn->curve = calloc((size_t)pn->n_metrics * p->n_runs,
                                 sizeof(*pn->curve))))
            return -ENOMEM;
        for (unsigned m = 0; m < pn->n_metrics; m++) {
            for (unsigned r = 0; r < p->n_runs; r++) {
                const VgScoreSeries *s =
                    vg_score_log_find(p->runs[r], pn->metric[m]);
                Curve *c;
                unsigned dash;

                if (!s || !s->n)
                    continue;
                c = &pn->curve[pn->n_curves++];
                c->run = p->runs[r];
                c->run_idx = r;
                c->metric_idx = m;
                c->s = s;
                if (p->n_runs > 1) {
                    c->color = palette[r % N_COLORS];
                    dash = (m + r / (unsigned)N_COLORS) % N_DASHES;
                } else {
                    c->color = palette[m % N_COLORS];
                    dash = (m / (unsigned)N_COLORS) % N_DASHES;
                }
                c->dash = dashes[dash];
                if (p->n_runs > 1 && pn->n_metrics > 1)
                    snprintf(c->label, sizeof(c->label), "%s: %s",
                             c->run->label, s->name);
                else if (p->n_runs > 1)
                    snprintf(c->label, sizeof(c->label), "%s", c->run->label);
                else
                    snprintf(c->label, sizeof(c->label), "%s", s->name);
                pool_curve(c);
                find_worst(c, p->cfg->worst);
            }
        }
    }
    return 0;
}

/* ---- axes ------------------------------------------------------------------ */

/** 1, 2 or 5 times a power of ten, the smallest >= raw. */
static double nice_step(double raw)
{
    double e = pow(10, floor(log10(raw))), f = raw / e;

    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

static int step_decimals(double step)
{
    int d = (int)ceil(-log10(step) - 1e-9);
    return d < 0 ? 0 : d > 9 ? 9 : d;
}

static void panel_range(Plot *p, Panel *pn)
{
    double lo = INFINITY, hi = -INFINITY, span, min_lim, max_lim;

    for (unsigned i = 0; i < pn->n_curves; i++) {
        const Curve *c = &pn->curve[i];

        for (unsigned k = 0; k < c->s->n; k++) {
            double v = c->s->value[k];
            if (!isfinite(v))
                continue;
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        /* pooled values of a log may cover other frames */
        if (isfinite(c->mean)) {
            lo = fmin(lo, c->mean);
            hi = fmax(hi, c->mean);
        }
        if (isfinite(c->hmean)) {
            lo = fmin(lo, c->hmean);
            hi = fmax(hi, c->hmean);
        }
        if (isfinite(c->min))
            lo = fmin(lo, c->min);
    }
    if (!(lo <= hi)) {
        lo = 0;
        hi = 1;
    }
    /* no axis below 0 for data that are not, nor above a scale's top */
    min_lim = 0;
    max_lim = pn->unit == UNIT_MODEL   ? 100
              : pn->unit == UNIT_INDEX ? 1
                                       : INFINITY;
    /* clamp the padded range only where the data respect the limits */
    if (lo < min_lim)
        min_lim = -INFINITY;
    if (hi > max_lim)
        max_lim = INFINITY;
    span = hi - lo;
    if (span <= fabs(hi) * 1e-9 || span < 1e-12) {
        span = fmax(fabs(hi) * 0.01, 1e-6);
        lo -= span;
        hi += span;
        span = hi - lo;
    }
    /* room below the dips for the worst-frame labels */
    lo -= span * (p->cfg->worst ? 0.14 : 0.05);
    hi += span * 0.05;
    pn->ystep = nice_step((hi - lo) / 5);
    pn->y0 = floor(lo / pn->ystep) * pn->ystep;
    pn->y1 = ceil(hi / pn->ystep) * pn->ystep;
    if (pn->y0 < min_lim)
        pn->y0 = min_lim;
    if (pn->y1 > max_lim)
        pn->y1 = max_lim;
}

static double px_x(const Plot *p, double frame)
{
    return AREA_LEFT + (frame - p->x0) / (p->x1 - p->x0) * AREA_WIDTH;
}

static double px_y(const Panel *pn, double v)
{
    double y = pn->top + (pn->y1 - v) / (pn->y1 - pn->y0) * AREA_HEIGHT;

    /* beyond the area only when pooled values of a log lie outside; keep
     * coordinates finite and near */
    if (y < pn->top - AREA_HEIGHT)
        y = pn->top - AREA_HEIGHT;
    if (y > pn->top + 2 * AREA_HEIGHT)
        y = pn->top + 2 * AREA_HEIGHT;
    return y;
}

/** A time as a tick label: "1.5 s" below a minute, "1:05" and "1:00:05" above. */
static void fmt_time(char *buf, size_t size, double t, double step)
{
    char num[64];

    if (step < 60 && t < 60) {
        snprintf(buf, size, "%s s",
                 vg_svg_format_num(num, sizeof(num), t, step_decimals(step)));
    } else {
        long long s = (long long)floor(t + 0.5);
        if (s >= 3600)
            snprintf(buf, size, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60,
                     s % 60);
        else
            snprintf(buf, size, "%lld:%02lld", s / 60, s % 60);
    }
}

/** Tick step in seconds: 1-2-5 below 10 s, then 10 s .. 1 h, then hours. */
static double time_step(double span)
{
    static const double steps[] = {
        10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
    };

    if (span / 8 < 10)
        return nice_step(span / 8);
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
        if (span / steps[i] <= 8)
            return steps[i];
    return nice_step(span / 8 / 3600) * 3600;
}

static void text_at(Plot *p, double x, double y, const char *anchor,
                    double size, const char *fill, const char *text)
{
    VgSvg *s = &p->svg;

    vg_svg_open(s, "text");
    vg_svg_attr_num(s, "x", x, 2);
    vg_svg_attr_num(s, "y", y, 2);
    if (anchor)
        vg_svg_attr(s, "text-anchor", anchor);
    vg_svg_attr_num(s, "font-size", size, 1);
    if (fill)
        vg_svg_attr(s, "fill", fill);
    vg_svg_text(s, text);
    vg_svg_close(s);
}

static void line(Plot *p, double x1, double y1, double x2, double y2,
                 const char *stroke, double width, const char *dash)
{
    VgSvg *s = &p->svg;

    vg_svg_open(s, "line");
    vg_svg_attr_num(s, "x1", x1, 2);
    vg_svg_attr_num(s, "y1", y1, 2);
    vg_svg_attr_num(s, "x2", x2, 2);
    vg_svg_attr_num(s, "y2", y2, 2);
    vg_svg_attr(s, "stroke", stroke);
    vg_svg_attr_num(s, "stroke-width", width, 2);
    if (dash)
        vg_svg_attr(s, "stroke-dasharray", dash);
    vg_svg_close(s);
}

static void draw_axes(Plot *p, Panel *pn, const char *y_title)
{
    VgSvg *s = &p->svg;
    const double top = pn->top, bottom = top + AREA_HEIGHT;
    const int yd = step_decimals(pn->ystep);
    double fstep;
    char buf[96];

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "axes");
    vg_svg_open(s, "rect");
    vg_svg_attr_num(s, "x", AREA_LEFT, 0);
    vg_svg_attr_num(s, "y", top, 2);
    vg_svg_attr_num(s, "width", AREA_WIDTH, 0);
    vg_svg_attr_num(s, "height", AREA_HEIGHT, 0);
    vg_svg_attr(s, "fill", "#fbfbfb");
    vg_svg_attr(s, "stroke", "#888888");
    vg_svg_close(s);

    /* y: grid and labels */
    for (long long k = (long long)ceil(pn->y0 / pn->ystep - 1e-9);
         k * pn->ystep <= pn->y1 + pn->ystep * 1e-9; k++) {
        double v = k * pn->ystep, y = px_y(pn, v);

        if (v > pn->y0 + pn->ystep * 1e-9 && v < pn->y1 - pn->ystep * 1e-9)
            line(p, AREA_LEFT, y, AREA_RIGHT, y, "#e2e2e2", 1, NULL);
        line(p, AREA_LEFT - 5, y, AREA_LEFT, y, "#888888", 1, NULL);
        text_at(p, AREA_LEFT - 8, y + 4, "end", 12, "#333333",
                fmt_fixed(buf, sizeof(buf), fabs(v) < pn->ystep * 1e-6 ? 0 : v,
                          yd));
    }
    /* y title, rotated */
    vg_svg_open(s, "text");
    vg_svg_attr(s, "transform", "rotate(-90)");
    vg_svg_attr_num(s, "x", -(top + AREA_HEIGHT / 2.0), 2);
    vg_svg_attr_num(s, "y", 22, 0);
    vg_svg_attr(s, "text-anchor", "middle");
    vg_svg_attr_num(s, "font-size", 13, 0);
    vg_svg_attr(s, "fill", "#222222");
    vg_svg_text(s, y_title);
    vg_svg_close(s);

    /* x: frames below */
    fstep = nice_step(fmax((p->x1 - p->x0) / 10, 1));
    for (long long k = (long long)ceil(fmax(p->x0, 0) / fstep - 1e-9);
         k * fstep <= p->x1 + 1e-9; k++) {
        double f = k * fstep, x = px_x(p, f);

        if (f > p->x0 && f < p->x1)
            line(p, x, top, x, bottom, "#eeeeee", 1, NULL);
        line(p, x, bottom, x, bottom + 5, "#888888", 1, NULL);
        snprintf(buf, sizeof(buf), "%lld", (long long)llround(f));
        text_at(p, x, bottom + 18, "middle", 12, "#333333", buf);
    }
    text_at(p, AREA_LEFT + AREA_WIDTH / 2.0, bottom + 36, "middle", 13,
            "#222222", "frame");

    /* seconds above */
    if (p->fps > 0) {
        double t0 = p->x0 / p->fps, t1 = p->x1 / p->fps;
        double tstep = time_step(fmax(t1 - t0, 1e-9));

        for (long long k = (long long)ceil(fmax(t0, 0) / tstep - 1e-9);
             k * tstep <= t1 + 1e-9; k++) {
            double t = k * tstep, x = px_x(p, t * p->fps);

            line(p, x, top - 5, x, top, "#888888", 1, NULL);
            fmt_time(buf, sizeof(buf), t, tstep);
            text_at(p, x, top - 8, "middle", 11, "#555555", buf);
        }
    }
    vg_svg_close(s);
}

/* ---- curves, marks, labels, legend ----------------------------------------- */

static int ensure_keep(Plot *p, size_t n)
{
    size_t *k;

    if (n <= p->keep_cap)
        return 0;
    if (!(k = realloc(p->keep, n * sizeof(*k))))
        return -ENOMEM;
    p->keep = k;
    p->keep_cap = n;
    return 0;
}

size_t vg_plot_decimate(const unsigned *frame, const double *value, size_t n,
                        double x0, double x1, unsigned columns, size_t *keep)
{
    const double scale = x1 > x0 ? columns / (x1 - x0) : 0;
    size_t k = 0, i = 0;

    while (i < n) {
        double c = floor((frame[i] - x0) * scale);
        size_t end = i + 1, a;

        if (c > columns - 1)
            c = columns - 1;
        while (end < n) {
            double ce = floor((frame[end] - x0) * scale);
            if (ce > columns - 1)
                ce = columns - 1;
            if (ce != c)
                break;
            end++;
        }
        for (a = i; a < end;) {
            size_t lo = a, hi = a;

            if (!isfinite(value[a])) {
                keep[k++] = a;
                while (a < end && !isfinite(value[a]))
                    a++;
                continue;
            }
            for (; a < end && isfinite(value[a]); a++) {
                if (value[a] < value[lo])
                    lo = a;
                if (value[a] > value[hi])
                    hi = a;
            }
            keep[k++] = lo < hi ? lo : hi;
            if (lo != hi)
                keep[k++] = lo < hi ? hi : lo;
        }
        i = end;
    }
    return k;
}

static void draw_curve(Plot *p, const Panel *pn, const Curve *c)
{
    VgSvg *s = &p->svg;
    const VgScoreSeries *sr = c->s;
    size_t n, seg = 0;
    char title[256];

    if (sr->n > 2 * AREA_WIDTH) {
        n = vg_plot_decimate(sr->frame, sr->value, sr->n, p->x0, p->x1,
                             AREA_WIDTH, p->keep);
    } else {
        n = sr->n;
        for (size_t i = 0; i < n; i++)
            p->keep[i] = i;
    }

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "curve");
    snprintf(title, sizeof(title), "%s: %s, %u frames", c->run->label, sr->name,
             sr->n);
    vg_svg_text_element(s, "title", title);

    vg_svg_open(s, "path");
    vg_svg_attr(s, "fill", "none");
    vg_svg_attr(s, "stroke", c->color);
    vg_svg_attr(s, "stroke-width", "1.6");
    vg_svg_attr(s, "stroke-linejoin", "round");
    vg_svg_attr(s, "stroke-linecap", "round");
    if (c->dash)
        vg_svg_attr(s, "stroke-dasharray", c->dash);
    vg_svg_attr_begin(s, "d");
    for (size_t j = 0; j < n; j++) {
        size_t i = p->keep[j];

        if (!isfinite(sr->value[i])) {
            seg = 0;
            continue;
        }
        vg_svg_attr_raw(s, seg ? " " : j ? " M" : "M");
        vg_svg_attr_raw_num(s, px_x(p, sr->frame[i]), 2);
        vg_svg_attr_raw(s, " ");
        vg_svg_attr_raw_num(s, px_y(pn, sr->value[i]), 2);
        /* a lone point: a zero-length segment, drawn as a dot by the
         * round cap (SVG 1.1, 11.4 'stroke-linecap') */
        if (!seg && (j + 1 == n || !isfinite(sr->value[p->keep[j + 1]])))
            vg_svg_attr_raw(s, " h0.01");
        seg++;
    }
    vg_svg_attr_end(s);
    vg_svg_close(s);

    /* few frames: each one visible as a dot */
    if (sr->n <= AREA_WIDTH / 8) {
        for (size_t i = 0; i < sr->n; i++) {
            if (!isfinite(sr->value[i]))
                continue;
            vg_svg_open(s, "circle");
            vg_svg_attr_num(s, "cx", px_x(p, sr->frame[i]), 2);
            vg_svg_attr_num(s, "cy", px_y(pn, sr->value[i]), 2);
            vg_svg_attr(s, "r", "2.2");
            vg_svg_attr(s, "fill", c->color);
            vg_svg_close(s);
        }
    }
    vg_svg_close(s);
}

static void shape_diamond(Plot *p, double x, double y, double r,
                          const char *color)
{
    VgSvg *s = &p->svg;

    vg_svg_open(s, "path");
    vg_svg_attr_begin(s, "d");
    vg_svg_attr_raw(s, "M");
    vg_svg_attr_raw_num(s, x, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y - r, 2);
    vg_svg_attr_raw(s, " L");
    vg_svg_attr_raw_num(s, x + r, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y, 2);
    vg_svg_attr_raw(s, " L");
    vg_svg_attr_raw_num(s, x, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y + r, 2);
    vg_svg_attr_raw(s, " L");
    vg_svg_attr_raw_num(s, x - r, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y, 2);
    vg_svg_attr_raw(s, " Z");
    vg_svg_attr_end(s);
    vg_svg_attr(s, "fill", color);
    vg_svg_close(s);
}

/** A triangle pointing up with its apex at (x, y). */
static void shape_triangle(Plot *p, double x, double y, double r,
                           const char *color)
{
    VgSvg *s = &p->svg;

    vg_svg_open(s, "path");
    vg_svg_attr_begin(s, "d");
    vg_svg_attr_raw(s, "M");
    vg_svg_attr_raw_num(s, x, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y, 2);
    vg_svg_attr_raw(s, " L");
    vg_svg_attr_raw_num(s, x + r, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y + 1.6 * r, 2);
    vg_svg_attr_raw(s, " L");
    vg_svg_attr_raw_num(s, x - r, 2);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, y + 1.6 * r, 2);
    vg_svg_attr_raw(s, " Z");
    vg_svg_attr_end(s);
    vg_svg_attr(s, "fill", color);
    vg_svg_close(s);
}

/** Mean as a dashed line across the area; mean, harmonic mean, min in the margin. */
static void draw_marks(Plot *p, const Panel *pn, unsigned idx, const Curve *c)
{
    VgSvg *s = &p->svg;
    const double step = fmin(14, 76.0 / pn->n_curves);
    const double x = AREA_RIGHT + 8 + idx * step;
    char title[256], num[3][64];

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "pooled");
    snprintf(title, sizeof(title), "%s: %s mean %s, harmonic mean %s, min %s",
             c->run->label, c->s->name,
             fmt_score(num[0], sizeof(num[0]), c->mean),
             fmt_score(num[1], sizeof(num[1]), c->hmean),
             fmt_score(num[2], sizeof(num[2]), c->min));
    vg_svg_text_element(s, "title", title);
    if (isfinite(c->mean)) {
        double y = px_y(pn, c->mean);

        vg_svg_open(s, "line");
        vg_svg_attr_num(s, "x1", AREA_LEFT, 2);
        vg_svg_attr_num(s, "y1", y, 2);
        vg_svg_attr_num(s, "x2", AREA_RIGHT, 2);
        vg_svg_attr_num(s, "y2", y, 2);
        vg_svg_attr(s, "stroke", c->color);
        vg_svg_attr(s, "stroke-width", "1");
        vg_svg_attr(s, "stroke-dasharray", "5 4");
        vg_svg_attr(s, "stroke-opacity", "0.65");
        vg_svg_close(s);
        line(p, x, y, x + 10, y, c->color, 3, NULL);
    }
    if (isfinite(c->hmean))
        shape_diamond(p, x + 5, px_y(pn, c->hmean), 4, c->color);
    if (isfinite(c->min))
        shape_triangle(p, x + 5, px_y(pn, c->min), 4, c->color);
    vg_svg_close(s);
}

typedef struct Box {
    double x0, y0, x1, y1;
} Box;

static int overlaps(const Box *a, const Box *b)
{
    return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/** Circles and frame numbers at the worst frames, placed around overlaps. */
static int draw_worst(Plot *p, const Panel *pn)
{
    VgSvg *s = &p->svg;
    unsigned total = 0, n_boxes = 0;
    Box *box;
    char buf[64], title[256], num[64], t[64];

    for (unsigned i = 0; i < pn->n_curves; i++)
        total += pn->curve[i].n_worst;
    if (!total)
        return 0;
    if (!(box = calloc(total, sizeof(*box))))
        return -ENOMEM;

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "worst-frames");
    for (unsigned i = 0; i < pn->n_curves; i++) {
        const Curve *c = &pn->curve[i];

        for (unsigned w = 0; w < c->n_worst; w++) {
            size_t k = c->worst[w];
            double x = px_x(p, c->s->frame[k]), y = px_y(pn, c->s->value[k]);
            double tw, ty = y + 17;
            Box b;

            snprintf(buf, sizeof(buf), "#%u", c->s->frame[k]);
            tw = text_width(buf, 11) + 4;
            /* below the point, above it, then further down, then up */
            for (int attempt = 0; attempt < 12; attempt++) {
                static const double dy[] = { 17, -9,  30, -22, 43, -35,
                                             56, -48, 69, -61, 82, -74 };
                ty = y + dy[attempt];
                b.x0 =
                    fmin(fmax(x - tw / 2, AREA_LEFT + 1), AREA_RIGHT - 1 - tw);
                b.x1 = b.x0 + tw;
                b.y0 = ty - 11;
                b.y1 = ty + 2;
                if (b.y0 < pn->top + 1 || b.y1 > pn->top + AREA_HEIGHT - 1)
                    continue;
                {
                    int hit = 0;
                    for (unsigned j = 0; j < n_boxes && !hit; j++)
                        hit = overlaps(&b, &box[j]);
                    if (!hit)
                        break;
                }
            }
            box[n_boxes++] = b;

            vg_svg_open(s, "g");
            if (p->fps > 0)
                snprintf(
                    t, sizeof(t), " (%s s)",
                    fmt_fixed(num, sizeof(num), c->s->frame[k] / p->fps, 3));
            else
                t[0] = '\0';
            snprintf(title, sizeof(title), "%s: %s %s at frame %u%s",
                     c->run->label, c->s->name,
                     fmt_score(num, sizeof(num), c->s->value[k]),
                     c->s->frame[k], t);
            vg_svg_text_element(s, "title", title);
            vg_svg_open(s, "circle");
            vg_svg_attr_num(s, "cx", x, 2);
            vg_svg_attr_num(s, "cy", y, 2);
            vg_svg_attr(s, "r", "3.5");
            vg_svg_attr(s, "fill", "#ffffff");
            vg_svg_attr(s, "stroke", c->color);
            vg_svg_attr(s, "stroke-width", "1.6");
            vg_svg_close(s);
            /* a white halo first, so the number reads over the curves */
            vg_svg_open(s, "text");
            vg_svg_attr_num(s, "x", (b.x0 + b.x1) / 2, 2);
            vg_svg_attr_num(s, "y", ty, 2);
            vg_svg_attr(s, "text-anchor", "middle");
            vg_svg_attr(s, "font-size", "11");
            vg_svg_attr(s, "fill", "#ffffff");
            vg_svg_attr(s, "stroke", "#ffffff");
            vg_svg_attr(s, "stroke-width", "3");
            vg_svg_attr(s, "stroke-linejoin", "round");
            vg_svg_text(s, buf);
            vg_svg_close(s);
            vg_svg_open(s, "text");
            vg_svg_attr(s, "class", "worst");
            vg_svg_attr_num(s, "x", (b.x0 + b.x1) / 2, 2);
            vg_svg_attr_num(s, "y", ty, 2);
            vg_svg_attr(s, "text-anchor", "middle");
            vg_svg_attr(s, "font-size", "11");
            vg_svg_attr(s, "font-weight", "bold");
            vg_svg_attr(s, "fill", c->color);
            vg_svg_text(s, buf);
            vg_svg_close(s);
            vg_svg_close(s);
        }
    }
    vg_svg_close(s);
    free(box);
    return 0;
}

/** Room the legend's curve names need: the widest, at most ~70 characters. */
static double legend_label_width(const Panel *pn)
{
    double w = 0;

    for (unsigned i = 0; i < pn->n_curves; i++)
        w = fmax(w, text_width(pn->curve[i].label, 12));
    return fmin(w, 70 * 12 * GLYPH_EM);
}

static void draw_legend(Plot *p, const Panel *pn, double y0)
{
    VgSvg *s = &p->svg;
    const double label_w = legend_label_width(pn);
    char label[256], num[64], buf[128];

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "legend");
    for (unsigned i = 0; i < pn->n_curves; i++) {
        const Curve *c = &pn->curve[i];
        double y = y0 + i * LEGEND_ROW, x = AREA_LEFT;

        vg_svg_open(s, "line");
        vg_svg_attr_num(s, "x1", x, 2);
        vg_svg_attr_num(s, "y1", y - 4, 2);
        vg_svg_attr_num(s, "x2", x + 26, 2);
        vg_svg_attr_num(s, "y2", y - 4, 2);
        vg_svg_attr(s, "stroke", c->color);
        vg_svg_attr(s, "stroke-width", "2.5");
        if (c->dash)
            vg_svg_attr(s, "stroke-dasharray", c->dash);
        vg_svg_close(s);
        shorten(label, sizeof(label), c->label, 70);
        vg_svg_open(s, "text");
        vg_svg_attr(s, "class", "legend-label");
        vg_svg_attr_num(s, "x", x + 34, 2);
        vg_svg_attr_num(s, "y", y, 2);
        vg_svg_attr(s, "font-size", "12");
        vg_svg_attr(s, "fill", "#222222");
        vg_svg_text(s, label);
        vg_svg_close(s);

        x += 34 + label_w + 24;
        line(p, x, y - 4, x + 12, y - 4, c->color, 3, NULL);
        snprintf(buf, sizeof(buf), "mean %s",
                 fmt_score(num, sizeof(num), c->mean));
        text_at(p, x + 18, y, NULL, 12, "#222222", buf);
        x += 150;
        shape_diamond(p, x + 6, y - 4, 4.5, c->color);
        snprintf(buf, sizeof(buf), "harmonic mean %s",
                 fmt_score(num, sizeof(num), c->hmean));
        text_at(p, x + 18, y, NULL, 12, "#222222", buf);
        x += 210;
        shape_triangle(p, x + 6, y - 10, 4, c->color);
        snprintf(buf, sizeof(buf), "min %s",
                 fmt_score(num, sizeof(num), c->min));
        text_at(p, x + 18, y, NULL, 12, "#222222", buf);
    }
    vg_svg_close(s);
}

static double legend_height(const Panel *pn)
{
    return pn->n_curves * LEGEND_ROW;
}

/** Height of panel i from its top margin to the end of its legend. */
static double panel_height(const Plot *p, const Panel *pn)
{
    return (p->fps > 0 ? 22 : 8) + AREA_HEIGHT + 60 + legend_height(pn);
}

static void y_title(const Panel *pn, char *buf, size_t size)
{
    size_t len = 0;

    buf[0] = '\0';
    for (unsigned m = 0; m < pn->n_metrics && len < size; m++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", m ? ", " : "",
                                pn->metric[m]);
    if (pn->unit == UNIT_DB && len < size)
        snprintf(buf + len, size - len, " (dB)");
    if (strlen(buf) > 48) {
        char full[256];

        snprintf(full, sizeof(full), "%s", buf);
        shorten(buf, size, full, 48);
    }
}

static int draw_panel(Plot *p, Panel *pn, unsigned idx, double top)
{
    VgSvg *s = &p->svg;
    char title[256], id[32];
    int ret;

    pn->top = top + (p->fps > 0 ? 22 : 8);
    panel_range(p, pn);
    y_title(pn, title, sizeof(title));

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "panel");
    vg_svg_attrf(s, "id", "panel%u", idx + 1);
    vg_svg_text_element(s, "title", title);
    draw_axes(p, pn, title);

    snprintf(id, sizeof(id), "area%u", ++p->n_clip);
    vg_svg_open(s, "clipPath");
    vg_svg_attr(s, "id", id);
    vg_svg_open(s, "rect");
    vg_svg_attr_num(s, "x", AREA_LEFT, 0);
    vg_svg_attr_num(s, "y", pn->top, 2);
    vg_svg_attr_num(s, "width", AREA_WIDTH, 0);
    vg_svg_attr_num(s, "height", AREA_HEIGHT, 0);
    vg_svg_close(s);
    vg_svg_close(s);

    vg_svg_open(s, "g");
    vg_svg_attrf(s, "clip-path", "url(#%s)", id);
    for (unsigned i = 0; i < pn->n_curves; i++)
        draw_curve(p, pn, &pn->curve[i]);
    vg_svg_close(s);
    for (unsigned i = 0; i < pn->n_curves; i++)
        draw_marks(p, pn, i, &pn->curve[i]);
    if ((ret = draw_worst(p, pn)) < 0)
        return ret;
    draw_legend(p, pn, pn->top + AREA_HEIGHT + 62);
    vg_svg_close(s);
    return 0;
}

/** The key to the marks, under the title. */
static void draw_key(Plot *p)
{
    VgSvg *s = &p->svg;
    double x = AREA_LEFT;
    char buf[160];

    vg_svg_open(s, "g");
    vg_svg_attr(s, "class", "key");
    if (p->fps > 0) {
        char num[64];
        snprintf(buf, sizeof(buf), "%u run%s, frames %u to %u, %s fps",
                 p->n_runs, p->n_runs > 1 ? "s" : "", p->first, p->last,
                 fmt_fixed(num, sizeof(num), p->fps,
                           p->fps == floor(p->fps) ? 0 : 3));
    } else {
        snprintf(buf, sizeof(buf), "%u run%s, frames %u to %u", p->n_runs,
                 p->n_runs > 1 ? "s" : "", p->first, p->last);
    }
    text_at(p, x, KEY_Y, NULL, 12, "#555555", buf);
    x += text_width(buf, 12) + 30;
    line(p, x, KEY_Y - 4, x + 20, KEY_Y - 4, "#555555", 1, "5 4");
    line(p, x + 26, KEY_Y - 4, x + 36, KEY_Y - 4, "#555555", 3, NULL);
    text_at(p, x + 42, KEY_Y, NULL, 12, "#555555", "mean");
    x += 42 + text_width("mean", 12) + 18;
    shape_diamond(p, x + 5, KEY_Y - 4, 4.5, "#555555");
    text_at(p, x + 15, KEY_Y, NULL, 12, "#555555", "harmonic mean");
    x += 15 + text_width("harmonic mean", 12) + 18;
    shape_triangle(p, x + 5, KEY_Y - 10, 4, "#555555");
    text_at(p, x + 15, KEY_Y, NULL, 12, "#555555", "min");
    x += 15 + text_width("min", 12) + 18;
    if (p->cfg->worst) {
        vg_svg_open(s, "circle");
        vg_svg_attr_num(s, "cx", x + 5, 2);
        vg_svg_attr_num(s, "cy", KEY_Y - 4, 2);
        vg_svg_attr(s, "r", "3.5");
        vg_svg_attr(s, "fill", "#ffffff");
        vg_svg_attr(s, "stroke", "#555555");
        vg_svg_attr(s, "stroke-width", "1.6");
        vg_svg_close(s);
        snprintf(buf, sizeof(buf), "#N: the %u worst frame%s of each curve",
                 p->cfg->worst, p->cfg->worst > 1 ? "s" : "");
        text_at(p, x + 15, KEY_Y, NULL, 12, "#555555", buf);
    }
    vg_svg_close(s);
}

static void default_title(const Plot *p, char *buf, size_t size)
{
    size_t len = (size_t)snprintf(buf, size, "Per-frame ");

    for (unsigned m = 0; m < p->n_metrics && len < size; m++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", m ? ", " : "",
                                p->metric[m]);
    if (strlen(buf) > 90) {
        char full[1024];

        snprintf(full, sizeof(full), "%s", buf);
        shorten(buf, size, full, 90);
    }
}

int vg_plot_write(FILE *f, VgScoreLog *const *runs, unsigned n_runs,
                  const VgPlotConfig *cfg, VgLog *log)
{
    Plot *p;
    double height;
    size_t max_n = 0;
    char title[256];
    int ret;

    if (!n_runs) {
        vg_log(log, VG_LOG_ERROR, "plot: nothing to draw");
        return -EINVAL;
    }
    if (n_runs > MAX_RUNS) {
        vg_log(log, VG_LOG_ERROR, "plot: at most %d runs", MAX_RUNS);
        return -EINVAL;
    }
    if (cfg->worst > VG_PLOT_MAX_WORST) {
        vg_log(log, VG_LOG_ERROR, "plot: at most %d worst frames per curve",
               VG_PLOT_MAX_WORST);
        return -EINVAL;
    }
    if (!(cfg->fps >= 0) || !isfinite(cfg->fps)) {
        vg_log(log, VG_LOG_ERROR,
               "plot: the frame rate must be a positive "
               "number (or 0: unknown)");
        return -EINVAL;
    }
    if (!(p = calloc(1, sizeof(*p))))
        return -ENOMEM;
    p->log = log;
    p->cfg = cfg;
    p->runs = runs;
    p->n_runs = n_runs;
    p->fps = cfg->fps;
    if ((ret = select_metrics(p)) < 0 || (ret = build_panels(p)) < 0)
        goto fail;

    p->first = UINT_MAX;
    for (unsigned i = 0; i < p->n_panels; i++) {
        for (unsigned c = 0; c < p->panel[i].n_curves; c++) {
            const VgScoreSeries *s = p->panel[i].curve[c].s;
            p->first = s->frame[0] < p->first ? s->frame[0] : p->first;
            p->last =
                s->frame[s->n - 1] > p->last ? s->frame[s->n - 1] : p->last;
            max_n = s->n > max_n ? s->n : max_n;
        }
    }
    if (!max_n) {
        vg_log(log, VG_LOG_ERROR, "plot: the chosen metrics have no values");
        ret = -EINVAL;
        goto fail;
    }
    if ((ret = ensure_keep(p, max_n)) < 0)
        goto fail;
    /* half a frame of room at each end: the dots of the first and last
     * frames stay whole */
    p->x0 = p->first - 0.5;
    p->x1 = p->last + 0.5;

    height = FIRST_PANEL_Y;
    for (unsigned i = 0; i < p->n_panels; i++)
        height += panel_height(p, &p->panel[i]) + PANEL_GAP;

    vg_svg_begin(&p->svg, f, SVG_WIDTH, height);
    vg_svg_attr(&p->svg, "font-family", FONT);
    if (cfg->title && *cfg->title)
        snprintf(title, sizeof(title), "%s", cfg->title);
    else
        default_title(p, title, sizeof(title));
    vg_svg_text_element(&p->svg, "title", title);
    vg_svg_text_element(&p->svg, "desc", "Per-frame scores drawn by vmafgpu");
    vg_svg_open(&p->svg, "rect");
    vg_svg_attr(&p->svg, "width", "100%");
    vg_svg_attr(&p->svg, "height", "100%");
    vg_svg_attr(&p->svg, "fill", "#ffffff");
    vg_svg_close(&p->svg);
    vg_svg_open(&p->svg, "text");
    vg_svg_attr(&p->svg, "class", "title");
    vg_svg_attr_num(&p->svg, "x", AREA_LEFT, 0);
    vg_svg_attr_num(&p->svg, "y", TITLE_Y, 0);
    vg_svg_attr(&p->svg, "font-size", "20");
    vg_svg_attr(&p->svg, "font-weight", "bold");
    vg_svg_attr(&p->svg, "fill", "#111111");
    vg_svg_text(&p->svg, title);
    vg_svg_close(&p->svg);
    draw_key(p);

    height = FIRST_PANEL_Y;
    for (unsigned i = 0; i < p->n_panels; i++) {
        if ((ret = draw_panel(p, &p->panel[i], i, height)) < 0)
            goto fail;
        height += panel_height(p, &p->panel[i]) + PANEL_GAP;
    }
    ret = vg_svg_finish(&p->svg);
    if (ret == -EINVAL)
        vg_log(log, VG_LOG_ERROR,
               "plot: internal error: SVG elements misnested");
fail:
    for (unsigned i = 0; i < p->n_panels; i++)
        free(p->panel[i].curve);
    free(p->keep);
    free(p->metric_buf);
    free(p);
    return ret;
}

/* ---- the public entry point ------------------------------------------------ */

/** The context's scores as a run (metrics with at least one value). */
static int context_run(VgContext *ctx, const char *label, VgScoreLog **out)
{
    VgCollector *c = ctx->collector;
    unsigned n_keys = vg_collector_count(c);
    unsigned sub = ctx->cfg.n_subsample ? ctx->cfg.n_subsample : 1;
    VgScoreLog *l;
    int ret;

    if ((ret = vg_score_log_alloc(&l, label)) < 0)
        return ret;
    l->n_frames = ctx->n_frames;
    for (unsigned k = 0; k < n_keys; k++) {
        const char *name = vg_collector_name(c, (int)k);
        VgScoreSeries *s = NULL;
        double v;

        for (unsigned i = 0; i < ctx->n_frames; i++) {
            if (vg_collector_get(c, (int)k, i, &v) < 0)
                continue;
            if (!s && !(s = vg_score_log_series(l, name))) {
                ret = -ENOMEM;
                goto fail;
            }
            if ((ret = vg_score_series_append(s, i, v)) < 0)
                goto fail;
        }
        if (!s)
            continue;
        /* exactly the models' scores, not the heuristic for logs */
        s->is_model = 0;
        for (unsigned m = 0; m < vg_model_count(ctx); m++)
            if (!strcmp(vg_model_name(ctx, m), name))
                s->is_model = 1;
        if (!vg_pool(c, (int)k, ctx->n_frames, sub, VG_POOL_MEAN, &s->mean))
            s->have_pooled |= VG_SCORE_HAVE_MEAN;
        if (!vg_pool(c, (int)k, ctx->n_frames, sub, VG_POOL_HARMONIC_MEAN,
                     &s->hmean))
            s->have_pooled |= VG_SCORE_HAVE_HMEAN;
        if (!vg_pool(c, (int)k, ctx->n_frames, sub, VG_POOL_MIN, &s->min))
            s->have_pooled |= VG_SCORE_HAVE_MIN;
    }
    *out = l;
    return 0;
fail:
    vg_score_log_free(&l);
    return ret;
}

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b && b[1] ? b + 1 : path;
}

int vg_write_plot(VgContext *ctx, const char *path, const VgPlotConfig *cfg)
{
    VgLog *log = ctx ? &ctx->log : NULL;
    VgScoreLog *runs[MAX_RUNS] = { 0 };
    unsigned n = 0;
    FILE *f, *mem;
    char *svg = NULL;
    size_t svg_len = 0;
    int ret;

    if (!path || !cfg || (cfg->n_logs && !cfg->logs)) {
        vg_log(log, VG_LOG_ERROR, "vg_write_plot: NULL argument");
        return -EINVAL;
    }
    if (ctx && ctx->n_rend)
        return vg_ladder_refuse(ctx, "vg_write_plot");
    if ((ctx && ctx->n_frames ? 1 : 0) + cfg->n_logs > MAX_RUNS) {
        vg_log(log, VG_LOG_ERROR, "plot: at most %d runs on one chart",
               MAX_RUNS);
        return -EINVAL;
    }
    if (ctx && ctx->n_frames) {
        if (!ctx->flushed || ctx->error) {
            vg_log(log, VG_LOG_ERROR, "plot: %s",
                   ctx->error ? "scoring failed; no scores to draw"
                              : "call vg_flush() before vg_write_plot()");
            return -EINVAL;
        }
        if ((ret = context_run(ctx, cfg->label ? cfg->label : "vmafgpu",
                               &runs[n++])) < 0)
            goto fail;
    }
    for (unsigned i = 0; i < cfg->n_logs; i++) {
        if ((ret = vg_score_log_read(&runs[n], cfg->logs[i], log)) < 0)
            goto fail;
        n++;
    }
    if (!n) {
        vg_log(log, VG_LOG_ERROR,
               "plot: nothing to draw (no frames scored "
               "and no log given)");
        ret = -EINVAL;
        goto fail;
    }
    /* logs are named by their file name, or their path where two share one */
    for (unsigned i = 0; i < n; i++) {
        const char *b;
        int dup = 0;

        if (ctx && ctx->n_frames && !i)
            continue;
        b = base_name(runs[i]->label);
        for (unsigned j = 0; j < n; j++)
            dup |= j != i && !strcmp(base_name(runs[j]->label), b);
        if (!dup)
            memmove(runs[i]->label, b, strlen(b) + 1);
    }

    /* drawn into memory first: an error leaves an existing file alone */
    if (!(mem = open_memstream(&svg, &svg_len))) {
        ret = -ENOMEM;
        goto fail;
    }
    ret = vg_plot_write(mem, runs, n, cfg, log);
    if (fclose(mem) && ret >= 0)
        ret = -ENOMEM;
    if (ret < 0)
        goto fail;

    f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        ret = -errno;
        vg_log(log, VG_LOG_ERROR, "cannot open '%s' for writing: %s", path,
               strerror(errno));
        goto fail;
    }
    if (fwrite(svg, 1, svg_len, f) != svg_len || fflush(f))
        ret = -EIO;
    if (f != stdout && fclose(f) && ret >= 0)
        ret = -EIO;
    if (ret < 0)
        vg_log(log, VG_LOG_ERROR, "writing the plot '%s' failed", path);
fail:
    free(svg);
    for (unsigned i = 0; i < n; i++)
        vg_score_log_free(&runs[i]);
    return ret;
}
