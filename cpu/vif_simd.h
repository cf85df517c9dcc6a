/*
 * Copyright (c) 2026 the vmafgpu authors
 * SPDX-License-Identifier: BSD-2-Clause
 */

/*
 * The vpmaddwd kernels of integer VIF (cpu/vif_tmpl.c), written once for
 * both vector widths: cpu/vif_tmpl.c includes this file with VW 256 (the
 * AVX2 build: horiz_pair_avx2(), vert_stat8_avx2()) and with VW 512 (the
 * AVX-512 build: the same names with _avx512, 32 columns a step and a last
 * block of 16 columns left to the AVX2 kernels). Both widths make the same
 * instructions in the same order, lane for lane, so they give the same
 * uint32 sums. No include guard: included once per width.
 */

#if VW == 256
#define vec __m256i
#define VIF_TARGET VG_CPU_TARGET_AVX2
#define vfn(x) x##_avx2
#define V_STEP 16
/* n is a multiple of 16: all of it at this width */
#define V_WHOLE(n) (n)
#define v_set1_16(x) _mm256_set1_epi16(x)
#define v_set1_32(x) _mm256_set1_epi32(x)
#define v_zero() _mm256_setzero_si256()
#define v_xor(a, b) _mm256_xor_si256(a, b)
#define v_and(a, b) _mm256_and_si256(a, b)
#define v_add32(a, b) _mm256_add_epi32(a, b)
#define v_srli32(a, n) _mm256_srli_epi32(a, n)
#define v_madd16(a, b) _mm256_madd_epi16(a, b)
#define v_mullo16(a, b) _mm256_mullo_epi16(a, b)
#define v_unpacklo16(a, b) _mm256_unpacklo_epi16(a, b)
#define v_unpackhi16(a, b) _mm256_unpackhi_epi16(a, b)
#define v_packus32(a, b) _mm256_packus_epi32(a, b)
#define v_load16(p) _mm256_loadu_si256((const __m256i *)(p))
#define v_load8(p) _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p)))
#define v_store(p, a) _mm256_storeu_si256((__m256i *)(p), a)
#elif VW == 512
#define vec __m512i
#define VIF_TARGET VG_CPU_TARGET_AVX512
#define vfn(x) x##_avx512
#define V_STEP 32
#define V_WHOLE(n) ((n) & ~(size_t)31)
#define v_set1_16(x) _mm512_set1_epi16(x)
#define v_set1_32(x) _mm512_set1_epi32(x)
#define v_zero() _mm512_setzero_si512()
#define v_xor(a, b) _mm512_xor_si512(a, b)
#define v_and(a, b) _mm512_and_si512(a, b)
#define v_add32(a, b) _mm512_add_epi32(a, b)
#define v_srli32(a, n) _mm512_srli_epi32(a, n)
#define v_madd16(a, b) _mm512_madd_epi16(a, b)
#define v_mullo16(a, b) _mm512_mullo_epi16(a, b)
#define v_unpacklo16(a, b) _mm512_unpacklo_epi16(a, b)
#define v_unpackhi16(a, b) _mm512_unpackhi_epi16(a, b)
#define v_packus32(a, b) _mm512_packus_epi32(a, b)
#define v_load16(p) _mm512_loadu_si512(p)
#define v_load8(p)                                                             \
    _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p)))
#define v_store(p, a) _mm512_storeu_si512(p, a)
#else
#error "cpu/vif_simd.h: VW must be 256 or 512"
#endif

/* tap pairs (c_k, c_k+1) as 32-bit lanes, c_fw = 0; returns sum c_k */
VIF_TARGET
static uint32_t vfn(vif_pairs)(const unsigned fw, const uint16_t *t, vec *cp)
{
    uint32_t sum = 0;

    for (unsigned k = 0; k < fw; k += 2) {
        const uint32_t c0 = t[k], c1 = k + 1 < fw ? t[k + 1] : 0;
        cp[k / 2] = v_set1_32((int)(c0 | c1 << 16));
        sum += c0 + c1;
    }
    return sum;
}

/* two taps of a vector of columns: rows u and v interleaved, multiplied by
 * the tap pair c, added to the low (lo) and high (hi) halves' sums */
VIF_TARGET
static inline void vfn(vif_madd2)(vec *lo, vec *hi, vec u, vec v, vec c)
{
    *lo = v_add32(*lo, v_madd16(v_unpacklo16(u, v), c));
    *hi = v_add32(*hi, v_madd16(v_unpackhi16(u, v), c));
}

/* a vector's uint32 sums in column order from the in-lane halves lo and
 * hi */
VIF_TARGET
static inline void vfn(vif_store32)(uint32_t *d, vec lo, vec hi)
{
#if VW == 256
    _mm256_storeu_si256((__m256i *)d, _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(d + 8),
                        _mm256_permute2x128_si256(lo, hi, 0x31));
#else
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);

    _mm512_storeu_si512(d, _mm512_permutex2var_epi64(lo, first, hi));
    _mm512_storeu_si512(d + 16, _mm512_permutex2var_epi64(lo, second, hi));
#endif
}

/* horiz_pair() for a filter of fw taps below 32768; n a multiple of
 * V_STEP */
VIF_TARGET VIF_INLINE void vfn(horiz_pair_fw)(
    const unsigned fw, const uint16_t *t, uint32_t *restrict oa,
    uint32_t *restrict ob, const uint16_t *restrict a,
    const uint16_t *restrict b, size_t n)
{
    const vec flip = v_set1_16((short)0x8000);
    const vec zero = v_zero();
    vec cp[9];
    const vec corr = v_set1_32((int)(vfn(vif_pairs)(fw, t, cp) << 15));

    for (size_t j = 0; j < n; j += V_STEP) {
        vec al = zero, ah = zero, bl = zero, bh = zero;

#pragma GCC unroll 9
        for (unsigned k = 0; k < fw; k += 2) {
            const vec a0 = v_xor(v_load16(a + j + k), flip);
            const vec b0 = v_xor(v_load16(b + j + k), flip);
            vec a1 = zero, b1 = zero;

            if (k + 1 < fw) {
                a1 = v_xor(v_load16(a + j + k + 1), flip);
                b1 = v_xor(v_load16(b + j + k + 1), flip);
            }
            vfn(vif_madd2)(&al, &ah, a0, a1, cp[k / 2]);
            vfn(vif_madd2)(&bl, &bh, b0, b1, cp[k / 2]);
        }
        vfn(vif_store32)(oa + j, v_add32(al, corr), v_add32(ah, corr));
        vfn(vif_store32)(ob + j, v_add32(bl, corr), v_add32(bh, corr));
    }
}

/* one copy per filter length of scales 0..2; n a multiple of 16 */
VIF_TARGET
static void vfn(horiz_pair)(const unsigned fw, const uint16_t *t,
                            uint32_t *restrict oa, uint32_t *restrict ob,
                            const uint16_t *restrict a,
                            const uint16_t *restrict b, size_t n)
{
    const size_t nv = V_WHOLE(n);

    switch (fw) {
    case 17:
        vfn(horiz_pair_fw)(17, t, oa, ob, a, b, nv);
        break;
    case 9:
        vfn(horiz_pair_fw)(9, t, oa, ob, a, b, nv);
        break;
    default:
        vfn(horiz_pair_fw)(5, t, oa, ob, a, b, nv);
        break;
    }
#if VW == 512
    if (nv < n)
        horiz_pair_avx2(fw, t, oa + nv, ob + nv, a + nv, b + nv, n - nv);
#endif
}

#if BITDEPTH == 8
/*
 * vert_stat() of 8-bit samples at scale 0 (17 taps) over columns [0, n),
 * n a multiple of 16: the samples' sums as they are, the squares' (up to
 * 255^2) with the top bit flipped. With rd (a ladder's reader,
 * vert_stat8_rd) the reference's own sums are left out.
 */
VIF_TARGET VIF_INLINE void vfn(vert_stat8_role)(
    const int rd, const uint16_t *t, uint16_t *restrict mu1,
    uint16_t *restrict mu2, uint16_t *restrict xh, uint16_t *restrict xl,
    uint16_t *restrict yh, uint16_t *restrict yl, uint16_t *restrict zh,
    uint16_t *restrict zl, const uint8_t *const *ra, const uint8_t *const *rb,
    size_t n)
{
    const vec flip = v_set1_16((short)0x8000);
    const vec zero = v_zero();
    const vec rnd_mu = v_set1_32(128);
    const vec low = v_set1_32(0xffff);
    const size_t nv = V_WHOLE(n);
    vec cp[9];
    const vec corr = v_set1_32((int)(vfn(vif_pairs)(17, t, cp) << 15));

    for (size_t j = 0; j < nv; j += V_STEP) {
        vec s1l = zero, s1h = zero, s2l = zero, s2h = zero;
        vec xxl = zero, xxh = zero, yyl = zero, yyh = zero;
        vec xyl = zero, xyh = zero;

#pragma GCC unroll 9
        for (unsigned k = 0; k < 17; k += 2) {
            const vec c = cp[k / 2];
            const vec x0 = v_load8(ra[k] + j);
            const vec y0 = v_load8(rb[k] + j);
            vec x1 = zero, y1 = zero;

            if (k + 1 < 17) {
                x1 = v_load8(ra[k + 1] + j);
                y1 = v_load8(rb[k + 1] + j);
            }
            if (!rd)
                vfn(vif_madd2)(&s1l, &s1h, x0, x1, c);
            vfn(vif_madd2)(&s2l, &s2h, y0, y1, c);
            /* the products' low 16 bits are the whole 8-bit products */
#define VIF_SQ(u, v) v_xor(v_mullo16(u, v), flip)
            if (!rd)
                vfn(vif_madd2)(&xxl, &xxh, VIF_SQ(x0, x0), VIF_SQ(x1, x1), c);
            vfn(vif_madd2)(&yyl, &yyh, VIF_SQ(y0, y0), VIF_SQ(y1, y1), c);
            vfn(vif_madd2)(&xyl, &xyh, VIF_SQ(x0, y0), VIF_SQ(x1, y1), c);
#undef VIF_SQ
        }
#define VIF_STORE16(dst, lo, hi) v_store((dst) + j, v_packus32(lo, hi))
        if (!rd)
            VIF_STORE16(mu1, v_srli32(v_add32(s1l, rnd_mu), 8),
                        v_srli32(v_add32(s1h, rnd_mu), 8));
        VIF_STORE16(mu2, v_srli32(v_add32(s2l, rnd_mu), 8),
                    v_srli32(v_add32(s2h, rnd_mu), 8));
        /* a square's sum, corrected, as its high and low 16 bits */
#define VIF_STORE_SQ(dh, dl, lo, hi)                                           \
    do {                                                                       \
        const vec l_ = v_add32(lo, corr);                                      \
        const vec h_ = v_add32(hi, corr);                                      \
        VIF_STORE16(dh, v_srli32(l_, 16), v_srli32(h_, 16));                   \
        VIF_STORE16(dl, v_and(l_, low), v_and(h_, low));                       \
    } while (0)
        if (!rd)
            VIF_STORE_SQ(xh, xl, xxl, xxh);
        VIF_STORE_SQ(yh, yl, yyl, yyh);
        VIF_STORE_SQ(zh, zl, xyl, xyh);
#undef VIF_STORE_SQ
#undef VIF_STORE16
    }
#if VW == 512
    if (nv < n) {
        const uint8_t *ta[17], *tb[17];

        for (unsigned k = 0; k < 17; k++) {
            ta[k] = ra[k] + nv;
            tb[k] = rb[k] + nv;
        }
        (rd ? vert_stat8_rd_avx2
            : vert_stat8_avx2)(t, mu1 + nv, mu2 + nv, xh + nv, xl + nv, yh + nv,
                               yl + nv, zh + nv, zl + nv, ta, tb, n - nv);
    }
#endif
}

VIF_TARGET
static void vfn(vert_stat8)(const uint16_t *t, uint16_t *restrict mu1,
                            uint16_t *restrict mu2, uint16_t *restrict xh,
                            uint16_t *restrict xl, uint16_t *restrict yh,
                            uint16_t *restrict yl, uint16_t *restrict zh,
                            uint16_t *restrict zl, const uint8_t *const *ra,
                            const uint8_t *const *rb, size_t n)
{
    vfn(vert_stat8_role)(0, t, mu1, mu2, xh, xl, yh, yl, zh, zl, ra, rb, n);
}

VIF_TARGET
static void vfn(vert_stat8_rd)(const uint16_t *t, uint16_t *restrict mu1,
                               uint16_t *restrict mu2, uint16_t *restrict xh,
                               uint16_t *restrict xl, uint16_t *restrict yh,
                               uint16_t *restrict yl, uint16_t *restrict zh,
                               uint16_t *restrict zl, const uint8_t *const *ra,
                               const uint8_t *const *rb, size_t n)
{
    vfn(vert_stat8_role)(1, t, mu1, mu2, xh, xl, yh, yl, zh, zl, ra, rb, n);
}
#endif /* BITDEPTH == 8 */

#undef vec
#undef VIF_TARGET
#undef vfn
#undef V_STEP
#undef V_WHOLE
#undef v_set1_16
#undef v_set1_32
#undef v_zero
#undef v_xor
#undef v_and
#undef v_add32
#undef v_srli32
#undef v_madd16
#undef v_mullo16
#undef v_unpacklo16
#undef v_unpackhi16
#undef v_packus32
#undef v_load16
#undef v_load8
#undef v_store
