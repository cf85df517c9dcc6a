/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF's passes for uint8 samples: scale 0 of 8-bit pictures
 * (cpu/vif_tmpl.c with BITDEPTH 8).
 */

#define BITDEPTH 8
#include "cpu/vif_tmpl.c"
