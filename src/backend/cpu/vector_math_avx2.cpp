// The AVX2 + FMA table of vector_math.hpp (compiled with -mavx2 -mfma).
#include "backend/cpu/vector_math.hpp"

#define TFE_VM_NAME Avx2
#define TFE_VM_TABLE avx2_table
#define TFE_VM_VD __m256d
#define TFE_VM_VF __m256
#define TFE_VM_LANES_D 4
#define TFE_VM_LANES_F 8
#define TFE_VM_PD(op) _mm256_##op##_pd
#define TFE_VM_PS(op) _mm256_##op##_ps
#define TFE_VM_SLEEF_D(fn) Sleef_##fn##d4_u10avx2
#define TFE_VM_SLEEF_F(fn) Sleef_##fn##f8_u10avx2
#define TFE_VM_ROUND_PD(x, mode) _mm256_round_pd(x, mode)
#define TFE_VM_ROUND_PS(x, mode) _mm256_round_ps(x, mode)
#define TFE_VM_SELECT_GT_PD(x, t, a, b)                                                            \
  _mm256_blendv_pd(a, b, _mm256_cmp_pd(x, _mm256_set1_pd(t), _CMP_GT_OQ))
#define TFE_VM_SELECT_GT_PS(x, t, a, b)                                                            \
  _mm256_blendv_ps(a, b, _mm256_cmp_ps(x, _mm256_set1_ps(t), _CMP_GT_OQ))
#define TFE_VM_WIDEN_LO(x) _mm256_cvtps_pd(_mm256_castps256_ps128(x))
#define TFE_VM_WIDEN_HI(x) _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))
#define TFE_VM_NARROW_JOIN(lo, hi)                                                                 \
  _mm256_insertf128_ps(_mm256_castps128_ps256(_mm256_cvtpd_ps(lo)), _mm256_cvtpd_ps(hi), 1)
// Lane masks of double vectors, and bitwise operations (sign manipulation).
#define TFE_VM_MASK_D __m256d
#define TFE_VM_CMP_PD(a, b, pred) _mm256_cmp_pd(a, b, pred)
#define TFE_VM_BLEND_PD(m, no, yes) _mm256_blendv_pd(no, yes, m)
#define TFE_VM_MASK_OR(a, b) _mm256_or_pd(a, b)
#define TFE_VM_MASK_AND(a, b) _mm256_and_pd(a, b)
#define TFE_VM_MASK_BITS(m) static_cast<unsigned>(_mm256_movemask_pd(m))
#define TFE_VM_BITS_PD(op, a, b) _mm256_##op##_pd(a, b)
#include "backend/cpu/vector_math_isa.inc"
