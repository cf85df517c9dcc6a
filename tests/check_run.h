/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_CHECK_RUN_H
#define VG_TESTS_CHECK_RUN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

/* VG_TEST_ASAN: this is a build with AddressSanitizer (tests/sanitize.sh),
 * whose sanitizers check the tool's memory; valgrind cannot run such a
 * program. */
#if defined(__SANITIZE_ADDRESS__)
#define VG_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VG_TEST_ASAN 1
#endif
#endif

static inline int vg_check_run_forking(Suite *s, int fork)
{
    SRunner *sr = srunner_create(s);
    int failed;

    if (!fork)
        srunner_set_fork_status(sr, CK_NOFORK);
    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/** Run a Check suite; EXIT_FAILURE if any test failed, else EXIT_SUCCESS. */
static inline int vg_check_run(Suite *s)
{
    return vg_check_run_forking(s, 1);
}

/**
 * vg_check_run() with every test in this process (CK_NOFORK), for suites
 * whose tests share what main() opened first (a CUDA device).
 */
static inline int vg_check_run_nofork(Suite *s)
{
    return vg_check_run_forking(s, 0);
}

/**
 * The GPU programs' rule for a missing GPU: with VG_REQUIRE_GPU=1 (make
 * check-gpu, the GPU machine) it is a failure, logged as `prog`'s, so that
 * a broken driver loader cannot pass as skipped device cases.
 * @return 1 when the program must fail, else 0
 */
static inline int vg_check_gpu_missing(const char *prog, int have_gpu)
{
    const char *req = getenv("VG_REQUIRE_GPU");

    if (have_gpu || !req || strcmp(req, "1"))
        return 0;
    fprintf(stderr, "%s: VG_REQUIRE_GPU=1 and no usable GPU\n", prog);
    return 1;
}

/**
 * Whether the corpus pair `name` runs: VG_CORPUS_PAIRS lists the pairs to
 * run (names separated by commas or spaces); unset or empty, every pair
 * runs. tests/sanitize.sh uses it to keep to the small pairs.
 */
static inline int vg_corpus_pair_selected(const char *name)
{
    const char *list = getenv("VG_CORPUS_PAIRS"), *p;
    size_t n = strlen(name);

    if (!list || !*list)
        return 1;
    for (p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',' || p[-1] == ' ') &&
            (!p[n] || p[n] == ',' || p[n] == ' '))
            return 1;
    return 0;
}

/**
 * Whether VG_CORPUS_FULL is set (non-empty, not "0"): the parity programs
 * then run everything on every pair. Unset, the costliest float features
 * (the same code at every size) run on one pair of each resolution class
 * rather than on all three big pairs; the programs name what they leave
 * out.
 */
static inline int vg_corpus_full(void)
{
    const char *v = getenv("VG_CORPUS_FULL");

    return v && *v && strcmp(v, "0");
}

/**
 * tcase_add_loop_test() of fn for each index i in [0, n) whose pair
 * table[i].name vg_corpus_pair_selected() selects.
 */
#define VG_ADD_PAIR_TESTS(tc, fn, n, table)                                    \
    do {                                                                       \
        for (int i_ = 0; i_ < (int)(n); i_++)                                  \
            if (vg_corpus_pair_selected((table)[i_].name))                     \
                tcase_add_loop_test(tc, fn, i_, i_ + 1);                       \
    } while (0)

#endif /* VG_TESTS_CHECK_RUN_H */
