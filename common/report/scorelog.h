/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Per-frame scores of one run, as the plot draws them: read from a JSON or
 * XML log (ours or libvmaf's: the same layout, common/report/output.c), or taken
 * from a context.
 */

#ifndef VG_COMMON_SCORELOG_H
#define VG_COMMON_SCORELOG_H

#include "common/log.h"

/** Pooled values a series may carry (bits of VgScoreSeries.have_pooled). */
enum {
    VG_SCORE_HAVE_MEAN = 1 << 0,
    VG_SCORE_HAVE_HMEAN = 1 << 1,
    VG_SCORE_HAVE_MIN = 1 << 2,
};

/** One metric over the frames that have it. */
typedef struct VgScoreSeries {
    char *name;
    unsigned *frame; ///< frame numbers, strictly increasing
    double *value;   ///< per frame; NaN where the log has null / nan
    unsigned n, cap;
    int is_model;    ///< a model's score (drawn when no metric is named)
    int have_pooled; ///< VG_SCORE_HAVE_* from the log or the context
    double mean, hmean, min;
} VgScoreSeries;

/** The scores of one run. */
typedef struct VgScoreLog {
    char *label; ///< legend name
    VgScoreSeries *series;
    unsigned n_series, cap_series;
    unsigned n_frames; ///< frame entries in the log
    unsigned hint;     ///< series index the next lookup tries first
} VgScoreLog;

/**
 * Read a vmafgpu or libvmaf log (JSON or XML, told apart by content).
 * Errors (unreadable file, malformed content with its line, no frames,
 * frames out of order, non-numeric values) are logged with the path.
 * Models: libvmaf logs do not say which metrics are model scores; names
 * that start with "vmaf" are taken as such, except bootstrap members
 * (vmaf_0001 ...) and their _bagging, _stddev, _ci_p95_lo/_hi outputs.
 */
int vg_score_log_read(VgScoreLog **out, const char *path, VgLog *log);

/** An empty log with this label (for scores that come from a context). */
int vg_score_log_alloc(VgScoreLog **out, const char *label);

/** @return the series of that name, created if needed; NULL on ENOMEM. */
VgScoreSeries *vg_score_log_series(VgScoreLog *l, const char *name);

/** @return the series of that name, or NULL. */
const VgScoreSeries *vg_score_log_find(const VgScoreLog *l, const char *name);

/** Append one frame's value; frames must increase (-EINVAL otherwise). */
int vg_score_series_append(VgScoreSeries *s, unsigned frame, double value);

/** Free a log; *l becomes NULL. */
void vg_score_log_free(VgScoreLog **l);

/** @return 1 if a log metric name is taken for a model score (see above). */
int vg_score_name_is_model(const char *name);

#endif /* VG_COMMON_SCORELOG_H */
