/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * A small streaming SVG 1.1 writer: elements are opened, given attributes
 * and closed in order, and written straight to a stream. It escapes every
 * attribute value and every piece of text for XML, replaces bytes that are
 * not UTF-8 (and control characters XML 1.0 forbids) with U+FFFD, closes
 * empty elements as `<x/>`, and formats numbers without the C library's
 * locale (a ',' decimal separator would break SVG coordinates).
 *
 * Errors are sticky: a wrong nesting, an overflowing stack or a stream
 * error makes vg_svg_finish() fail; the calls in between need no checks.
 */

#ifndef VG_COMMON_SVG_H
#define VG_COMMON_SVG_H

#include <stddef.h>
#include <stdio.h>

#include "common/log.h"

/** Deepest element nesting the writer accepts. */
#define VG_SVG_MAX_DEPTH 16

typedef struct VgSvg {
    FILE *f;
    const char *stack[VG_SVG_MAX_DEPTH]; ///< names of the open elements
    unsigned depth;
    int in_tag;      ///< the innermost start tag is not yet closed with '>'
    int has_content; ///< the innermost element has children or text
    int error;       ///< 0, or the first negative errno
} VgSvg;

/**
 * Start a document on f: the XML declaration, the SVG 1.1 doctype and the
 * open root element `<svg>` of width x height user units (pixels).
 */
void vg_svg_begin(VgSvg *s, FILE *f, double width, double height);

/** Open element `name` (a literal; it must live until the element is closed). */
void vg_svg_open(VgSvg *s, const char *name);

/** Attribute of the innermost element, value escaped. */
void vg_svg_attr(VgSvg *s, const char *name, const char *value);

/** Attribute with a printf-formatted value (escaped after formatting). */
void vg_svg_attrf(VgSvg *s, const char *name, const char *fmt, ...)
    VG_PRINTF(3, 4);

/** Numeric attribute, at most `decimals` fraction digits, trailing zeros cut. */
void vg_svg_attr_num(VgSvg *s, const char *name, double v, int decimals);

/**
 * Start an attribute whose value is written piecewise with
 * vg_svg_attr_raw() (e.g. a path of many points); vg_svg_attr_end() ends it.
 */
void vg_svg_attr_begin(VgSvg *s, const char *name);
/** Append text that needs no escaping (numbers, letters) to the attribute. */
void vg_svg_attr_raw(VgSvg *s, const char *text);
/** Append a number, as vg_svg_attr_num() formats it. */
void vg_svg_attr_raw_num(VgSvg *s, double v, int decimals);
void vg_svg_attr_end(VgSvg *s);

/** Character data inside the innermost element, escaped. */
void vg_svg_text(VgSvg *s, const char *text);

/** Close the innermost element. */
void vg_svg_close(VgSvg *s);

/** Open `name`, write `text` in it and close it. */
void vg_svg_text_element(VgSvg *s, const char *name, const char *text);

/**
 * Close the root element and flush.
 * @return 0, -EINVAL if elements are still open or were misused (logged
 *         by the caller), -EIO on a stream error.
 */
int vg_svg_finish(VgSvg *s);

/**
 * Format v with at most `decimals` (0..9) fraction digits, rounding half
 * away from zero and cutting trailing zeros; "-0" prints as "0". Values
 * beyond +-1e15 and non-finite ones print as "0" (never emitted for
 * coordinates, which are clamped first).
 * @return buf
 */
char *vg_svg_format_num(char *buf, size_t size, double v, int decimals);

#endif /* VG_COMMON_SVG_H */
