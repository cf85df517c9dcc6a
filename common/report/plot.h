/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Per-frame score charts (SVG, through common/report/svg.c): the layout and
 * drawing behind vg_write_plot().
 */

#ifndef VG_COMMON_PLOT_H
#define VG_COMMON_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "vmafgpu.h"
#include "common/log.h"
#include "common/report/scorelog.h"

/** Width of the drawing area of a panel, in pixels (= decimation columns). */
#define VG_PLOT_AREA_WIDTH 1020

/** Most frames vg_write_plot() labels per curve. */
#define VG_PLOT_MAX_WORST 100

/**
 * Pick the points of a curve worth drawing at `columns` pixel columns
 * across frames [x0, x1]: in each column, of every run of finite values
 * the lowest and the highest point (in frame order), and the first point
 * of every run of non-finite values (a gap in the line). Neither a dip nor
 * a peak of a single frame is lost, however many frames share a column.
 *
 * @param keep  receives the indices of the kept points, in order; room for n
 * @return the number of indices written
 */
size_t vg_plot_decimate(const unsigned *frame, const double *value, size_t n,
                        double x0, double x1, unsigned columns, size_t *keep);

/**
 * Draw runs[0..n_runs-1] into f as SVG, with cfg's metrics, worst frames,
 * fps and title (cfg->label and cfg->logs are not read here).
 * @return 0 or a negative errno (logged)
 */
int vg_plot_write(FILE *f, VgScoreLog *const *runs, unsigned n_runs,
                  const VgPlotConfig *cfg, VgLog *log);

#endif /* VG_COMMON_PLOT_H */
