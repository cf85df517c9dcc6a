#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# checkasm's CPU-only self-check for make check (no GPU needed): the
# picture maker, the case matrix and the comparisons, on the CPU backend
# with and without threads. Run from the build directory.
exec ./tests/checkasm/checkasm --cpu-only --quick "$@"
