/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Integer VIF's passes for uint16 samples: scale 0 of 9..16-bit pictures
 * and scales 1..3 of every depth (cpu/vif_tmpl.c with BITDEPTH 16).
 */

#define BITDEPTH 16
#include "cpu/vif_tmpl.c"
