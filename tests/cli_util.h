/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Helpers for tests that run the vmafgpu tool: locations from the
 * environment (VG_TOP_BUILDDIR, VG_TOP_SRCDIR, VG_SHARED_DIR,
 * VG_CORPUS_RAW), running a command without a shell, reading files.
 */

#ifndef VG_TESTS_CLI_UTIL_H
#define VG_TESTS_CLI_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/slurp.h"

#define CLI_PATH_MAX 4096

typedef struct CliEnv {
    char builddir[CLI_PATH_MAX];
    char shared[CLI_PATH_MAX];
    char corpus_raw[CLI_PATH_MAX];
    char cli[CLI_PATH_MAX];
    char tmpdir[CLI_PATH_MAX];
} CliEnv;

static CliEnv cli_env;

static const char *env_or(const char *name, const char *def)
{
    const char *v = getenv(name);
    return v && *v ? v : def;
}

/** Fill cli_env and create a private temporary directory. */
static void cli_env_init(void)
{
    const char *top = env_or("VG_TOP_BUILDDIR", ".");
    const char *src = env_or("VG_TOP_SRCDIR", "..");

    snprintf(cli_env.builddir, sizeof(cli_env.builddir), "%s", top);
    if (getenv("VG_SHARED_DIR") && *getenv("VG_SHARED_DIR"))
        snprintf(cli_env.shared, sizeof(cli_env.shared), "%s",
                 getenv("VG_SHARED_DIR"));
    else
        snprintf(cli_env.shared, sizeof(cli_env.shared), "%s/../shared", src);
    if (getenv("VG_CORPUS_RAW") && *getenv("VG_CORPUS_RAW"))
        snprintf(cli_env.corpus_raw, sizeof(cli_env.corpus_raw), "%s",
                 getenv("VG_CORPUS_RAW"));
    else
        snprintf(cli_env.corpus_raw, sizeof(cli_env.corpus_raw),
                 "%s/tests/corpus-raw", top);
    snprintf(cli_env.cli, sizeof(cli_env.cli), "%s/tools/vmafgpu", top);
    snprintf(cli_env.tmpdir, sizeof(cli_env.tmpdir), "%s/vgtest.XXXXXX",
             env_or("TMPDIR", "/tmp"));
    if (!mkdtemp(cli_env.tmpdir)) {
        perror("mkdtemp");
        exit(EXIT_FAILURE);
    }
}

/** Remove the files the tests wrote and the temporary directory. */
static void cli_env_cleanup(const char *const *names)
{
    char p[CLI_PATH_MAX + 64];

    for (; names && *names; names++) {
        snprintf(p, sizeof(p), "%s/%s", cli_env.tmpdir, *names);
        unlink(p);
    }
    rmdir(cli_env.tmpdir);
}

static int file_exists(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISREG(st.st_mode);
}

/**
 * Run argv[0] with argv (no shell); stdin from `in` (or /dev/null), stdout
 * and stderr to the files `out` and `err` (or /dev/null).
 * @return exit status (0..255), 128 + signal if killed, -1 if it could not run.
 */
static int run_cmd(char *const argv[], const char *in, const char *out,
                   const char *err)
{
    pid_t pid;
    int st;

    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid < 0)
        return -1;
    if (!pid) {
        int fi = open(in ? in : "/dev/null", O_RDONLY);
        int fo =
            open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fe =
            open(err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fi < 0 || fo < 0 || fe < 0)
            _exit(126);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    if (waitpid(pid, &st, 0) < 0)
        return -1;
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return WEXITSTATUS(st);
}

/** Path of a file in the temporary directory (static buffer rotation). */
static const char *tmp_path(const char *name)
{
    static char buf[8][CLI_PATH_MAX + 64];
    static unsigned k;
    char *p = buf[k++ % 8];

    snprintf(p, CLI_PATH_MAX + 64, "%s/%s", cli_env.tmpdir, name);
    return p;
}

#endif /* VG_TESTS_CLI_UTIL_H */
