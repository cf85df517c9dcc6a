/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Compare a libvmaf-style JSON log against a golden one, exactly.
 *
 * Usage: jsoncmp GOLDEN.json OURS.json [REQUIRED_KEY...]
 *        jsoncmp --meta GOLDEN.json METADATA.txt KEY...
 *        jsoncmp --pooled GOLDEN.json KEY POOL
 *
 * Every per-frame metric present in both files must be equal as a double
 * (==) on every frame, and so must every pooled value (min, max, mean,
 * harmonic_mean) of a metric present in both. Each REQUIRED_KEY must be
 * present in both files on every frame. Frame counts and frame numbers
 * must match. Exit status 0 when all of this holds, 1 otherwise, 2 on a
 * usage or read error. The keys compared are printed on stdout.
 *
 * With --meta, the second file is the output of FFmpeg's
 * metadata=mode=print filter: every frame of the golden file must appear
 * there with lavfi.vmafgpu.KEY equal (as a double) to the golden value,
 * for each KEY.
 *
 * With --pooled, print the pooled value POOL (min, max, mean,
 * harmonic_mean) of KEY with "%f", as the filter's summary line does.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#define MAX_REPORTS 10

static int n_reports;

static void report(const char *fmt, const char *what, int frame, double golden,
                   double ours)
{
    if (n_reports++ < MAX_REPORTS)
        printf(fmt, what, frame, golden, ours);
}

static json_object *member(json_object *obj, const char *key)
{
    json_object *v = NULL;

    if (!obj || !json_object_object_get_ex(obj, key, &v))
        return NULL;
    return v;
}

static int is_number(json_object *v)
{
    return json_object_is_type(v, json_type_double) ||
           json_object_is_type(v, json_type_int);
}

static int compare_frames(json_object *gf, json_object *of, char **req,
                          int n_req, unsigned *n_values)
{
    size_t n = json_object_array_length(gf);
    int bad = 0;

    if (json_object_array_length(of) != n) {
        printf("frame count differs: golden %zu, ours %zu\n", n,
               json_object_array_length(of));
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *g = json_object_array_get_idx(gf, i);
        json_object *o = json_object_array_get_idx(of, i);
        json_object *gm = member(g, "metrics"), *om = member(o, "metrics");
        json_object *gn = member(g, "frameNum"), *on = member(o, "frameNum");

        if (!gm || !om || !gn || !on ||
            json_object_get_int(gn) != json_object_get_int(on)) {
            printf("frame %zu: frameNum or metrics missing or different\n", i);
            return 1;
        }
        json_object_object_foreach(om, key, ov)
        {
            json_object *gv = member(gm, key);
            double a, b;

            if (!gv)
                continue;
            if (!is_number(gv) || !is_number(ov)) {
                printf("frame %zu: %s is not a number\n", i, key);
                bad = 1;
                continue;
            }
            a = json_object_get_double(gv);
            b = json_object_get_double(ov);
            (*n_values)++;
            if (a != b) {
                report("%s frame %d: golden %.17g ours %.17g\n", key, (int)i, a,
                       b);
                bad = 1;
            }
        }
        for (int r = 0; r < n_req; r++) {
            if (!member(gm, req[r]) || !member(om, req[r])) {
                printf("frame %zu: required key %s missing (golden: %s, "
                       "ours: %s)\n",
                       i, req[r], member(gm, req[r]) ? "yes" : "no",
                       member(om, req[r]) ? "yes" : "no");
                return 1;
            }
        }
    }
    return bad;
}

static int compare_pooled(json_object *gp, json_object *op, unsigned *n_values)
{
    static const char *const pools[] = { "min", "max", "mean",
                                         "harmonic_mean" };
    int bad = 0;

    if (!gp || !op)
        return 0;
    json_object_object_foreach(op, key, ov)
    {
        json_object *gv = member(gp, key);

        if (!gv)
            continue;
        for (int p = 0; p < 4; p++) {
            json_object *a = member(gv, pools[p]), *b = member(ov, pools[p]);
            char what[256];

            if (!a || !b)
                continue;
            (*n_values)++;
            if (json_object_get_double(a) != json_object_get_double(b)) {
                snprintf(what, sizeof(what), "pooled %s.%s", key, pools[p]);
                report("%s (frame %d): golden %.17g ours %.17g\n", what, -1,
                       json_object_get_double(a), json_object_get_double(b));
                bad = 1;
            }
        }
    }
    return bad;
}

static int compare_meta(json_object *gf, const char *path, char **keys,
                        int n_keys)
{
    size_t n = json_object_array_length(gf);
    char line[1024];
    unsigned seen = 0, n_values = 0;
    long frame = -1;
    int bad = 0;
    FILE *f = fopen(path, "r");

    if (!f) {
        fprintf(stderr, "jsoncmp: cannot read %s\n", path);
        return 2;
    }
    while (fgets(line, sizeof(line), f)) {
        char *eq;

        if (!strncmp(line, "frame:", 6)) {
            frame = strtol(line + 6, NULL, 10);
            if (frame < 0 || (size_t)frame >= n) {
                printf("metadata frame %ld beyond the golden's %zu frames\n",
                       frame, n);
                bad = 1;
                frame = -1;
            } else {
                seen++;
            }
            continue;
        }
        if (frame < 0 || strncmp(line, "lavfi.vmafgpu.", 14) ||
            !(eq = strchr(line, '=')))
            continue;
        *eq = 0;
        for (int k = 0; k < n_keys; k++) {
            json_object *g = json_object_array_get_idx(gf, frame);
            json_object *gv = member(member(g, "metrics"), keys[k]);
            double ours;

            if (strcmp(line + 14, keys[k]))
                continue;
            ours = strtod(eq + 1, NULL);
            n_values++;
            if (!gv || json_object_get_double(gv) != ours) {
                report("metadata %s frame %d: golden %.17g ours %.17g\n",
                       keys[k], (int)frame, gv ? json_object_get_double(gv) : 0,
                       ours);
                bad = 1;
            }
        }
    }
    fclose(f);
    if (seen != n || n_values != n * n_keys) {
        printf("metadata: %u frames of %zu, %u values of %zu\n", seen, n,
               n_values, n * n_keys);
        bad = 1;
    }
    printf("metadata: %u values (%s)\n", n_values,
           bad ? "DIFFERENT" : "all equal");
    return bad;
}

int main(int argc, char **argv)
{
    json_object *golden, *ours, *gf, *of, *om;
    unsigned n_values = 0;
    int bad;

    if (argc < 3) {
        fprintf(stderr, "usage: %s GOLDEN.json OURS.json [REQUIRED_KEY...]\n",
                argv[0]);
        return 2;
    }
    if (!strcmp(argv[1], "--pooled")) {
        json_object *v;

        if (argc != 5 || !(golden = json_object_from_file(argv[2]))) {
            fprintf(stderr, "jsoncmp: --pooled needs GOLDEN KEY POOL\n");
            return 2;
        }
        v = member(member(member(golden, "pooled_metrics"), argv[3]), argv[4]);
        if (v)
            printf("%f\n", json_object_get_double(v));
        json_object_put(golden);
        return v ? 0 : 1;
    }
    if (!strcmp(argv[1], "--meta")) {
        int ret;

        if (argc < 5 || !(golden = json_object_from_file(argv[2])) ||
            !(gf = member(golden, "frames"))) {
            fprintf(stderr, "jsoncmp: --meta needs GOLDEN METADATA KEY...\n");
            return 2;
        }
        ret = compare_meta(gf, argv[3], argv + 4, argc - 4);
        json_object_put(golden);
        return ret;
    }
    golden = json_object_from_file(argv[1]);
    ours = json_object_from_file(argv[2]);
    if (!golden || !ours) {
        fprintf(stderr, "jsoncmp: cannot read %s\n",
                golden ? argv[2] : argv[1]);
        return 2;
    }
    gf = member(golden, "frames");
    of = member(ours, "frames");
    if (!gf || !of || !json_object_is_type(gf, json_type_array) ||
        !json_object_is_type(of, json_type_array)) {
        fprintf(stderr, "jsoncmp: no frames array\n");
        return 2;
    }

    bad = compare_frames(gf, of, argv + 3, argc - 3, &n_values);
    if (compare_pooled(member(golden, "pooled_metrics"),
                       member(ours, "pooled_metrics"), &n_values))
        bad = 1;

    printf("compared:");
    om = json_object_array_length(of)
             ? member(json_object_array_get_idx(of, 0), "metrics")
             : NULL;
    if (om && json_object_array_length(gf)) {
        json_object *gm = member(json_object_array_get_idx(gf, 0), "metrics");
        json_object_object_foreach(om, key, v)
        {
            (void)v;
            if (member(gm, key))
                printf(" %s", key);
        }
    }
    printf(" (%u values, %s)\n", n_values, bad ? "DIFFERENT" : "all equal");
    if (!n_values)
        bad = 1;

    json_object_put(golden);
    json_object_put(ours);
    return bad;
}
