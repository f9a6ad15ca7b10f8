// The AVX-512F table of vector_math.hpp (compiled with -mavx512f).
#include "backend/cpu/vector_math.hpp"

#define TFE_VM_NAME Avx512
#define TFE_VM_TABLE avx512_table
#define TFE_VM_VD __m512d
#define TFE_VM_VF __m512
#define TFE_VM_LANES_D 8
#define TFE_VM_LANES_F 16
#define TFE_VM_PD(op) _mm512_##op##_pd
#define TFE_VM_PS(op) _mm512_##op##_ps
#define TFE_VM_SLEEF_D(fn) Sleef_##fn##d8_u10avx512f
#define TFE_VM_SLEEF_F(fn) Sleef_##fn##f16_u10avx512f
#define TFE_VM_ROUND_PD(x, mode) _mm512_roundscale_pd(x, mode)
#define TFE_VM_ROUND_PS(x, mode) _mm512_roundscale_ps(x, mode)
#define TFE_VM_SELECT_GT_PD(x, t, a, b)                                                            \
  _mm512_mask_blend_pd(_mm512_cmp_pd_mask(x, _mm512_set1_pd(t), _CMP_GT_OQ), a, b)
#define TFE_VM_SELECT_GT_PS(x, t, a, b)                                                            \
  _mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_set1_ps(t), _CMP_GT_OQ), a, b)
#define TFE_VM_WIDEN_LO(x) _mm512_cvtps_pd(_mm512_castps512_ps256(x))
#define TFE_VM_WIDEN_HI(x)                                                                         \
  _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)))
#define TFE_VM_NARROW_JOIN(lo, hi)                                                                 \
  _mm512_castpd_ps(                                                                                \
      _mm512_insertf64x4(_mm512_castps_pd(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo))),            \
                         _mm256_castps_pd(_mm512_cvtpd_ps(hi)), 1))
// Lane masks of double vectors, and bitwise operations (sign manipulation; AVX-512F has them on
// integer vectors only).
#define TFE_VM_MASK_D __mmask8
#define TFE_VM_CMP_PD(a, b, pred) _mm512_cmp_pd_mask(a, b, pred)
#define TFE_VM_BLEND_PD(m, no, yes) _mm512_mask_blend_pd(m, no, yes)
#define TFE_VM_MASK_OR(a, b) static_cast<__mmask8>((a) | (b))
#define TFE_VM_MASK_AND(a, b) static_cast<__mmask8>((a) & (b))
#define TFE_VM_MASK_BITS(m) static_cast<unsigned>(m)
#define TFE_VM_BITS_PD(op, a, b)                                                                   \
  _mm512_castsi512_pd(_mm512_##op##_epi64(_mm512_castpd_si512(a), _mm512_castpd_si512(b)))
#include "backend/cpu/vector_math_isa.inc"
