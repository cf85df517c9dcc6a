/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/report/svg.h"

static void fail(VgSvg *s, int err)
{
    if (!s->error)
        s->error = err;
}

char *vg_svg_format_num(char *buf, size_t size, double v, int decimals)
{
    static const uint64_t pow10[] = {
        1,      10,      100,      1000,      10000,
        100000, 1000000, 10000000, 100000000, 1000000000,
    };
    uint64_t scale, units, ip, fp;
    int neg, n;

    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    scale = pow10[decimals];
    if (!isfinite(v) || fabs(v) > 1e15) {
        snprintf(buf, size, "0");
        return buf;
    }
    neg = v < 0;
    /* round half away from zero on the magnitude */
    units = (uint64_t)(fabs(v) * (double)scale + 0.5);
    ip = units / scale;
    fp = units % scale;
    neg = neg && units;
    n = snprintf(buf, size, "%s%llu", neg ? "-" : "", (unsigned long long)ip);
    if (fp && n > 0 && (size_t)n < size) {
        char frac[16];
        int len = decimals;

        for (int i = decimals - 1; i >= 0; i--) {
            frac[i] = (char)('0' + fp % 10);
            fp /= 10;
        }
        while (len > 0 && frac[len - 1] == '0')
            len--;
        frac[len] = '\0';
        snprintf(buf + n, size - (size_t)n, ".%s", frac);
    }
    return buf;
}

/**
 * Length of the valid UTF-8 sequence at p (1..4), or 0 if p does not start
 * one (overlong forms, surrogates and code points above U+10FFFF included).
 */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];

    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return (p[1] & 0xc0) == 0x80 ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        unsigned lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        unsigned lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 &&
                       (p[3] & 0xc0) == 0x80
                   ? 4
                   : 0;
    }
    return 0;
}

/** Write text escaped for XML character data and attribute values. */
static void put_escaped(VgSvg *s, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;

    while (*p) {
        size_t len;

        switch (*p) {
        case '&':
            fputs("&amp;", s->f);
            p++;
            continue;
        case '<':
            fputs("&lt;", s->f);
            p++;
            continue;
        case '>':
            fputs("&gt;", s->f);
            p++;
            continue;
        case '"':
            fputs("&quot;", s->f);
            p++;
            continue;
        case '\'':
            fputs("&apos;", s->f);
            p++;
            continue;
        case '\t':
        case '\n':
        case '\r':
            /* whitespace in attributes is normalised by XML parsers */
            fputc(' ', s->f);
            p++;
            continue;
        }
        len = *p < 0x20 || *p == 0x7f ? 0 : utf8_len(p);
        if (!len) {
            fputs("\xef\xbf\xbd", s->f); /* U+FFFD replacement character */
            p++;
            continue;
        }
        fwrite(p, 1, len, s->f);
        p += len;
    }
}

/** Finish the innermost start tag so that content can follow. */
static void end_start_tag(VgSvg *s)
{
    if (s->in_tag) {
        fputc('>', s->f);
        s->in_tag = 0;
    }
}

void vg_svg_begin(VgSvg *s, FILE *f, double width, double height)
{
    memset(s, 0, sizeof(*s));
    s->f = f;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
          "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n"
          "  \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n",
          f);
    vg_svg_open(s, "svg");
    vg_svg_attr(s, "xmlns", "http://www.w3.org/2000/svg");
    vg_svg_attr(s, "version", "1.1");
    vg_svg_attr_num(s, "width", width, 0);
    vg_svg_attr_num(s, "height", height, 0);
    vg_svg_attr_begin(s, "viewBox");
    vg_svg_attr_raw(s, "0 0 ");
    vg_svg_attr_raw_num(s, width, 0);
    vg_svg_attr_raw(s, " ");
    vg_svg_attr_raw_num(s, height, 0);
    vg_svg_attr_end(s);
}

void vg_svg_open(VgSvg *s, const char *name)
{
    if (s->depth == VG_SVG_MAX_DEPTH) {
        fail(s, -EINVAL);
        return;
    }
    if (s->depth) {
        end_start_tag(s);
        s->has_content = 1;
    }
    /* children start on their own line, indented by depth */
    fprintf(s->f, "%s%*s<%s", s->depth ? "\n" : "", (int)(2 * s->depth), "",
            name);
    s->stack[s->depth++] = name;
    s->in_tag = 1;
    s->has_content = 0;
}

void vg_svg_attr(VgSvg *s, const char *name, const char *value)
{
    if (!s->in_tag) {
        fail(s, -EINVAL);
        return;
    }
    fprintf(s->f, " %s=\"", name);
    put_escaped(s, value ? value : "");
    fputc('"', s->f);
}

void vg_svg_attrf(VgSvg *s, const char *name, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    vg_svg_attr(s, name, buf);
}

void vg_svg_attr_num(VgSvg *s, const char *name, double v, int decimals)
{
    char buf[64];

    vg_svg_attr(s, name, vg_svg_format_num(buf, sizeof(buf), v, decimals));
}

void vg_svg_attr_begin(VgSvg *s, const char *name)
{
    if (!s->in_tag) {
        fail(s, -EINVAL);
        return;
    }
    fprintf(s->f, " %s=\"", name);
}

void vg_svg_attr_raw(VgSvg *s, const char *text)
{
    /* callers pass literals of digits, letters, spaces and signs only;
     * escaping them anyway costs little and keeps the output well formed */
    put_escaped(s, text);
}

void vg_svg_attr_raw_num(VgSvg *s, double v, int decimals)
{
    char buf[64];

    fputs(vg_svg_format_num(buf, sizeof(buf), v, decimals), s->f);
}

void vg_svg_attr_end(VgSvg *s)
{
    fputc('"', s->f);
}

void vg_svg_text(VgSvg *s, const char *text)
{
    if (!s->depth) {
        fail(s, -EINVAL);
        return;
    }
    end_start_tag(s);
    s->has_content = 2; /* text: the end tag follows on the same line */
    put_escaped(s, text);
}

void vg_svg_close(VgSvg *s)
{
    if (!s->depth) {
        fail(s, -EINVAL);
        return;
    }
    s->depth--;
    if (s->in_tag)
        fputs("/>", s->f);
    else if (s->has_content == 2)
        fprintf(s->f, "</%s>", s->stack[s->depth]);
    else
        fprintf(s->f, "\n%*s</%s>", (int)(2 * s->depth), "",
                s->stack[s->depth]);
    s->in_tag = 0;
    /* the parent now has content (this element) */
    s->has_content = 1;
}

void vg_svg_text_element(VgSvg *s, const char *name, const char *text)
{
    vg_svg_open(s, name);
    vg_svg_text(s, text);
    vg_svg_close(s);
}

int vg_svg_finish(VgSvg *s)
{
    if (s->depth == 1)
        vg_svg_close(s);
    else
        fail(s, -EINVAL);
    fputc('\n', s->f);
    if (fflush(s->f) || ferror(s->f))
        fail(s, -EIO);
    return s->error;
}
