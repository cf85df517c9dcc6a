/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_CHECK_RUN_H
#define VG_TESTS_CHECK_RUN_H

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

/** Run a Check suite; EXIT_FAILURE if any test failed, else EXIT_SUCCESS. */
static inline int vg_check_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
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
#define VG_ADD_PAIR_TESTS(tc, fn, n, table)                                 \
    do {                                                                    \
        for (int i_ = 0; i_ < (int)(n); i_++)                               \
            if (vg_corpus_pair_selected((table)[i_].name))                  \
                tcase_add_loop_test(tc, fn, i_, i_ + 1);                    \
    } while (0)

#endif /* VG_TESTS_CHECK_RUN_H */
