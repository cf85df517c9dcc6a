/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

#ifndef VG_TESTS_CHECK_RUN_H
#define VG_TESTS_CHECK_RUN_H

#include <stdlib.h>

#include <check.h>

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

#endif /* VG_TESTS_CHECK_RUN_H */
