/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM's scales 1..3, int32 bands (cpu/adm_tmpl.c with BAND 32).
 */

#define BAND 32
#include "cpu/adm_tmpl.c"
