/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * psnr's enable_apsnr: the tool's aggregate section (apsnr_y, apsnr_cb,
 * apsnr_cr over the whole stream) on raw corpus pairs, byte for byte what
 * libvmaf v3.2.0's tool writes at full precision (%.17g), JSON and XML.
 *
 * The expected sections were written by the libvmaf v3.2.0 tool built with
 * %.17g numbers (its build is not part of the tests), from the directory
 * holding corpus/raw, e.g.
 *   vmaf-hp -r corpus/raw/r352x288_yuv420p12le_ref.yuv \
 *       -d corpus/raw/r352x288_yuv420p12le_dist.yuv -w 352 -h 288 -p 420 \
 *       -b 12 --feature psnr=enable_apsnr=true -n --json -o out.json -q
 * with the options of each row below (--xml for the XML row), and copied
 * from the end of its log.
 */

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/cli_util.h"
#include "tests/check_run.h"
#include "tests/slurp.h"

typedef struct ApsnrCase {
    const char *what;
    const char *ref, *dis; ///< in corpus/raw
    const char *w, *h, *pix_fmt, *bits;
    const char *feature; ///< --feature argument
    int xml;             ///< --xml instead of --json
    const char *expect;  ///< the log from its aggregate section to the end
} ApsnrCase;

static const ApsnrCase cases[] = {
    { "12-bit 4:2:0, 10 frames", "r352x288_yuv420p12le_ref.yuv",
      "r352x288_yuv420p12le_dist.yuv", "352", "288", "420", "12",
      "psnr=enable_apsnr=true", 0,
      "  \"aggregate_metrics\": {\n"
      "    \"apsnr_y\": 44.375411424470371,\n"
      "    \"apsnr_cb\": 48.138582423882063,\n"
      "    \"apsnr_cr\": 47.803042168917486\n"
      "  }\n"
      "}\n" },
    { "10-bit 4:2:2, reduced_hbd_peak", "r640x360_yuv422p10le_ref.yuv",
      "r640x360_yuv422p10le_dist.yuv", "640", "360", "422", "10",
      "psnr=enable_apsnr=true:reduced_hbd_peak=true", 0,
      "  \"aggregate_metrics\": {\n"
      "    \"apsnr_y\": 38.280710818280511,\n"
      "    \"apsnr_cb\": 42.863080464553143,\n"
      "    \"apsnr_cr\": 42.528416972429596\n"
      "  }\n"
      "}\n" },
    /* no chroma: no pixels, -inf as libvmaf (null in JSON) */
    { "8-bit 4:4:4 without chroma (JSON)", "r640x360_yuv444p_ref.yuv",
      "r640x360_yuv444p_dist.yuv", "640", "360", "444", "8",
      "psnr=enable_apsnr=true:enable_chroma=false", 0,
      "  \"aggregate_metrics\": {\n"
      "    \"apsnr_y\": 36.544276428608299,\n"
      "    \"apsnr_cb\": null,\n"
      "    \"apsnr_cr\": null\n"
      "  }\n"
      "}\n" },
    { "8-bit 4:4:4 without chroma (XML)", "r640x360_yuv444p_ref.yuv",
      "r640x360_yuv444p_dist.yuv", "640", "360", "444", "8",
      "psnr=enable_apsnr=true:enable_chroma=false", 1,
      "  <aggregate_metrics apsnr_y=\"36.544276428608299\" apsnr_cb=\"-inf\" "
      "apsnr_cr=\"-inf\" />\n"
      "</VMAF>\n" },
    /* reference against itself: SSE 0, the cap ceil(10 log10(peak^2 n 2)) */
    { "8-bit 4:4:4, ref == dis", "r640x360_yuv444p_ref.yuv",
      "r640x360_yuv444p_ref.yuv", "640", "360", "444", "8",
      "psnr=enable_apsnr=true", 0,
      "  \"aggregate_metrics\": {\n"
      "    \"apsnr_y\": 115,\n"
      "    \"apsnr_cb\": 115,\n"
      "    \"apsnr_cr\": 115\n"
      "  }\n"
      "}\n" },
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

static const char *const tmp_files[] = { "log.txt", "out.txt", "err.txt",
                                         NULL };

START_TEST(test_apsnr)
{
    const ApsnrCase *c = &cases[_i];
    char ref[CLI_PATH_MAX + 64], dis[CLI_PATH_MAX + 64], threads[2] = "1";
    char *log, *tail;

    snprintf(ref, sizeof(ref), "%s/corpus/raw/%s", cli_env.shared, c->ref);
    snprintf(dis, sizeof(dis), "%s/corpus/raw/%s", cli_env.shared, c->dis);
    ck_assert_msg(file_exists(ref) && file_exists(dis),
                  "%s: missing %s or %s "
                  "(set VG_SHARED_DIR)",
                  c->what, ref, dis);
    /* one and two threads: frames finish out of order with two */
    for (int t = 1; t <= 2; t++) {
        char *argv[] = {
            cli_env.cli,
            "-r",
            ref,
            "-d",
            dis,
            "-w",
            (char *)c->w,
            "-h",
            (char *)c->h,
            "-p",
            (char *)c->pix_fmt,
            "-b",
            (char *)c->bits,
            "-n",
            "--feature",
            (char *)c->feature,
            c->xml ? "--xml" : "--json",
            "--precision",
            "max",
            "--threads",
            threads,
            "-o",
            (char *)tmp_path("log.txt"),
            "-q",
            NULL,
        };
        int rc;

        threads[0] = (char)('0' + t);
        rc = run_cmd(argv, NULL, tmp_path("out.txt"), tmp_path("err.txt"));
        ck_assert_msg(rc == 0, "%s: exit status %d", c->what, rc);
        log = slurp(tmp_path("log.txt"), NULL);
        ck_assert_ptr_nonnull(log);
        tail = strstr(log, c->xml ? "  <aggregate_metrics"
                                  : "  \"aggregate_metrics\"");
        ck_assert_msg(tail && !strcmp(tail, c->expect),
                      "%s (%d threads): aggregate section\n%s\nwant\n%s",
                      c->what, t, tail ? tail : "(none)", c->expect);
        free(log);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("apsnr");
    TCase *tc = tcase_create("pairs");
    int ret;

    cli_env_init();
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_apsnr, 0, N_CASES);
    suite_add_tcase(s, tc);
    ret = vg_check_run(s);
    cli_env_cleanup(tmp_files);
    return ret;
}
