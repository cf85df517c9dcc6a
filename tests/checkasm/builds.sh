#!/bin/sh
# Copyright (c) 2026 the vmafgpu authors
# SPDX-License-Identifier: BSD-2-Clause
#
# checkasm's comparison of the CPU backend's builds for make check (no GPU
# needed): each feature's C, AVX2 and AVX-512 builds, those this processor
# runs, against each other. Run from the build directory.
exec ./tests/checkasm/checkasm --builds "$@"
