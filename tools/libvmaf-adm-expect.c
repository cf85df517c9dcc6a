/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/**
 * @file
 * Prints the cases[] table of tests/unit/adm_cases.h with the values that
 * libvmaf computes for each case, to regenerate the expected values of
 * tests/unit/test_adm.c. Not built by the build system: it needs a libvmaf
 * v3.2.0 build whose integer ADM runs its portable C path (the reference),
 * e.g. `meson setup build -Denable_asm=false` in libvmaf/, then:
 *
 *   cc -O2 -I. -I<libvmaf>/include -I<build>/include \
 *      tools/libvmaf-adm-expect.c <build>/src/libvmaf.a -lm -lpthread \
 *      -lstdc++ -o adm-expect && ./adm-expect > table.txt
 *
 * The planes are made by tests/unit/adm_synth.h exactly as the test makes
 * them (4:2:0, mid-grey chroma; frame k uses seed + 7919 k).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>
#include <libvmaf/feature.h>

#include "tests/unit/adm_cases.h"

static const char *const raw_names[7] = {
    "VMAF_integer_feature_adm2_score",
    "VMAF_integer_feature_aim_score",
    "VMAF_integer_feature_adm3_score",
    "integer_adm_scale0",
    "integer_adm_scale1",
    "integer_adm_scale2",
    "integer_adm_scale3",
};
static const char *const alias_names[7] = {
    "integer_adm2",       "integer_aim",        "integer_adm3",
    "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
    "integer_adm_scale3",
};
static const char *const pat_names[] = {
    "PAT_NOISE", "PAT_SMOOTH", "PAT_FLAT", "PAT_CHECKER", "PAT_MAX",
};

static int make_picture(VmafPicture *pic, unsigned w, unsigned h, unsigned bpc,
                        int pat, uint32_t seed)
{
    int ret = vmaf_picture_alloc(pic, VMAF_PIX_FMT_YUV420P, bpc, w, h);
    if (ret)
        return ret;
    adm_synth(pic->data[0], pic->stride[0], w, h, bpc, pat, seed);
    for (int p = 1; p < 3; p++)
        for (unsigned i = 0; i < pic->h[p]; i++)
            for (unsigned j = 0; j < pic->w[p]; j++) {
                uint8_t *row = (uint8_t *)pic->data[p] + i * pic->stride[p];
                if (bpc == 8)
                    row[j] = 128;
                else
                    ((uint16_t *)row)[j] = (uint16_t)(1u << (bpc - 1));
            }
    return 0;
}

static int run_case(const AdmCase *c, double out[MAX_FRAMES][7])
{
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_ERROR,
                              .cpumask = 63 };
    VmafFeatureDictionary *d = NULL;
    VmafContext *vmaf;
    char opts[256], key[128];
    int ret;

    if ((ret = vmaf_init(&vmaf, cfg)))
        return ret;
    snprintf(opts, sizeof(opts), "%s", c->opts);
    for (char *tok = strtok(opts, ":"); tok; tok = strtok(NULL, ":")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return -1;
        *eq = '\0';
        vmaf_feature_dictionary_set(&d, tok, eq + 1);
    }
    if ((ret = vmaf_use_feature(vmaf, "adm", d)))
        return ret;
    for (unsigned k = 0; k < c->frames; k++) {
        VmafPicture r, s;
        if ((ret = make_picture(&r, c->w, c->h, c->bpc, c->ref_pat,
                                c->ref_seed + 7919u * k)) ||
            (ret = make_picture(&s, c->w, c->h, c->bpc, c->dis_pat,
                                c->dis_seed + 7919u * k)) ||
            (ret = vmaf_read_pictures(vmaf, &r, &s, k)))
            return ret;
    }
    if ((ret = vmaf_read_pictures(vmaf, NULL, NULL, 0)))
        return ret;
    for (unsigned k = 0; k < c->frames; k++) {
        for (int o = 0; o < 7; o++) {
            /* libvmaf keys: the raw name with default feature params,
             * else the alias plus the option suffix */
            if (c->suffix[0])
                snprintf(key, sizeof(key), "%s%s", alias_names[o], c->suffix);
            else
                snprintf(key, sizeof(key), "%s", raw_names[o]);
            if ((ret = vmaf_feature_score_at_index(vmaf, key, &out[k][o], k)))
                return ret;
        }
    }
    return vmaf_close(vmaf);
}

int main(void)
{
    for (unsigned i = 0; i < N_CASES; i++) {
        const AdmCase *c = &cases[i];
        double v[MAX_FRAMES][7];
        if (run_case(c, v)) {
            fprintf(stderr, "case %s failed\n", c->name);
            return 1;
        }
        printf(
            "    { \"%s\", %u, %u, %u, %s, %uu, %s, %uu, %u, \"%s\", \"%s\",\n"
            "      {\n",
            c->name, c->w, c->h, c->bpc, pat_names[c->ref_pat], c->ref_seed,
            pat_names[c->dis_pat], c->dis_seed, c->frames, c->opts, c->suffix);
        for (unsigned k = 0; k < c->frames; k++) {
            printf("        {");
            for (int o = 0; o < 7; o++)
                printf(" %.17g%s", v[k][o], o < 6 ? "," : "");
            printf(" }%s", k + 1 < c->frames ? ",\n" : " } },\n");
        }
    }
    return 0;
}
