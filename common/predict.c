/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * VMAF prediction from a model's features (libvmaf v3.2.0 src/predict.c):
 * normalisation, the SVM, the score transform and clipping, and a
 * bootstrap collection's statistics, operation by operation in double.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/model_priv.h"

/** predict.c piecewise_linear_mapping() + find_linear_function_parameters()
 *  for validated knots (increasing x, non-decreasing y). */
static double piecewise_linear(const SvmModel *m, double x)
{
    const Knot *k = m->transform.knots;
    const unsigned n_seg = m->transform.n_knots - 1;
    double y = 0.0;

    for (unsigned i = 0; i < n_seg; i++) {
        const int in_seg = k[i].x <= x && x <= k[i + 1].x;
        const int below = i == 0 && x < k[i].x;
        const int above = i == n_seg - 1 && x > k[i + 1].x;

        if (k[i].y == k[i + 1].y) {
            if (in_seg || below || above)
                y = k[i].y;
        } else {
            double slope, offset;
            if (k[i].x == 0) {
                offset = k[i].y;
                slope = (k[i + 1].y - offset) / k[i + 1].x;
            } else {
                slope = (k[i + 1].y - k[i].y) / (k[i + 1].x - k[i].x);
                offset = k[i].y - (k[i].x * slope);
            }
            if (in_seg || below || above)
                y = slope * x + offset;
        }
    }
    return y;
}

/** predict.c transform(): polynomial, knots, rectification. */
static double transform(const SvmModel *m, double y_in)
{
    double y_out = y_in;

    if (!m->transform.enabled)
        return y_in;

    if (m->transform.p0_on || m->transform.p1_on || m->transform.p2_on) {
        y_out = 0.;
        if (m->transform.p0_on)
            y_out += m->transform.p0;
        if (m->transform.p1_on)
            y_out += m->transform.p1 * y_in;
        if (m->transform.p2_on)
            y_out += m->transform.p2 * y_in * y_in;
    }
    if (m->transform.knots_on)
        y_out = piecewise_linear(m, y_out);
    if (m->transform.out_lte_in)
        y_out = (y_out > y_in) ? y_in : y_out;
    if (m->transform.out_gte_in)
        y_out = (y_out < y_in) ? y_in : y_out;
    return y_out;
}

/** predict.c clip(). */
static double clip(const SvmModel *m, double y)
{
    if (!m->clip)
        return y;
    y = (y < m->clip_min) ? m->clip_min : y;
    y = (y > m->clip_max) ? m->clip_max : y;
    return y;
}

/** predict.c vmaf_predict_score_at_index() for one model. */
static double predict_one(const SvmModel *m, const double *v, int flags)
{
    double x[VG_MODEL_MAX_FEATURES];
    double y;

    for (unsigned i = 0; i < m->n_features; i++) {
        x[i] = v[i];
        if (m->norm == NORM_LINEAR_RESCALE)
            x[i] = m->f_slope[i] * x[i] + m->f_intercept[i];
    }

    /* predict.c post_process_feature_from_another(): a speed_chroma of
     * exactly 0 (de-normalised) is replaced by c - c * adm3. */
    if (m->chroma) {
        const unsigned g = m->guiding_idx, t = m->guided_idx;
        double guiding = x[g], guided = x[t];
        if (m->norm == NORM_LINEAR_RESCALE) {
            guiding = (guiding - m->f_intercept[g]) / m->f_slope[g];
            guided = (guided - m->f_intercept[t]) / m->f_slope[t];
        }
        if (guided == 0.0) {
            double c = (-m->chroma_param * guiding) + m->chroma_param;
            if (m->norm == NORM_LINEAR_RESCALE)
                c = m->f_slope[t] * c + m->f_intercept[t];
            x[t] = c;
        }
    }

    y = vg_svm_predict(&m->svm, x, m->n_features);
    if (m->norm == NORM_LINEAR_RESCALE)
        y = (y - m->intercept) / m->slope;
    if (!(flags & PREDICT_NO_TRANSFORM))
        y = transform(m, y);
    if (!(flags & PREDICT_NO_CLIP))
        y = clip(m, y);
    return y;
}

int vg_model_predict(const VgModel *model, const double *x, double *score)
{
    if (!model || !x || !score)
        return -EINVAL;
    *score = predict_one(&model->main, x, 0);
    return 0;
}

static int score_compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;

    return (x > y) - (x < y);
}

/** predict.c percentile(): linear interpolation on sorted scores. */
static double percentile(const double *s, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.;
    const int lo = (int)floor(p);
    const int hi = (int)ceil(p);

    return (lo == hi) ? s[lo] : s[lo] * (hi - p) + s[hi] * (p - lo);
}

int vg_model_predict_bootstrap(const VgModel *model, const double *x,
                               VgBootstrapScores *out)
{
    double raw[MAX_MEMBERS];
    const unsigned n = model ? model->n_members : 0;
    const SvmModel *first;
    double sum = 0., ssd = 0., mean, plus, minus, slope;

    if (!model || !x || !out || !n)
        return -EINVAL;

    /* predict.c vmaf_bootstrap_predict_score_at_index(): statistics come
     * from unclipped, untransformed member scores; each member's own
     * output is transformed and clipped as that member says. */
    memset(out, 0, sizeof(*out));
    for (unsigned i = 0; i < n; i++) {
        raw[i] = predict_one(&model->members[i], x,
                             PREDICT_NO_CLIP | PREDICT_NO_TRANSFORM);
        out->member[i] = predict_one(&model->members[i], x, 0);
    }
    out->n_members = n;

    for (unsigned i = 0; i < n; i++)
        sum += raw[i];
    mean = sum / n;
    plus = mean + BOOTSTRAP_DELTA;
    minus = mean - BOOTSTRAP_DELTA;

    for (unsigned i = 0; i < n; i++)
        ssd += pow(raw[i] - mean, 2);
    out->stddev = sqrt(ssd / n);

    qsort(raw, n, sizeof(*raw), score_compare);
    out->ci_lo = percentile(raw, n, 2.5);
    out->ci_hi = percentile(raw, n, 97.5);

    /* the first collection member's transform and clip */
    first = &model->members[0];
    out->bagging = clip(first, transform(first, mean));
    out->ci_lo = clip(first, transform(first, out->ci_lo));
    out->ci_hi = clip(first, transform(first, out->ci_hi));
    plus = clip(first, transform(first, plus));
    minus = clip(first, transform(first, minus));
    slope = (plus - minus) / (2.0 * BOOTSTRAP_DELTA);
    out->stddev *= slope;
    return 0;
}
