/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer ADM's scale 0, int16 bands (cpu/adm_tmpl.c with BAND 16).
 */

#define BAND 16
#include "cpu/adm_tmpl.c"
