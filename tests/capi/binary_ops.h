/* The op codes of tfe_binary_scalar with the tensor functions they stand for, shared by the C
 * suites that compare the scalar form with the two-tensor form. */
#ifndef TFE_TEST_BINARY_OPS_H
#define TFE_TEST_BINARY_OPS_H

#include <tenferro/tenferro.h>

typedef tfe_status (*binary_fn)(tfe_tensor**, const tfe_tensor*, const tfe_tensor*);

#define TFE_TEST_CMP_FN(name, dir)                                                                 \
  static tfe_status name(tfe_tensor** o, const tfe_tensor* a, const tfe_tensor* b) {               \
    return tfe_compare(o, a, b, dir);                                                              \
  }
TFE_TEST_CMP_FN(cmp_eq, TFE_CMP_EQ)
TFE_TEST_CMP_FN(cmp_ne, TFE_CMP_NE)
TFE_TEST_CMP_FN(cmp_lt, TFE_CMP_LT)
TFE_TEST_CMP_FN(cmp_le, TFE_CMP_LE)
TFE_TEST_CMP_FN(cmp_gt, TFE_CMP_GT)
TFE_TEST_CMP_FN(cmp_ge, TFE_CMP_GE)
#undef TFE_TEST_CMP_FN

static const struct {
  int32_t op;
  binary_fn fn;
} binary_ops[] = {{TFE_BINOP_ADD, tfe_add},
                  {TFE_BINOP_SUB, tfe_sub},
                  {TFE_BINOP_MUL, tfe_mul},
                  {TFE_BINOP_DIV, tfe_div},
                  {TFE_BINOP_DIV_TRUNC, tfe_div_trunc},
                  {TFE_BINOP_REM, tfe_rem},
                  {TFE_BINOP_POW, tfe_pow},
                  {TFE_BINOP_MAXIMUM, tfe_maximum},
                  {TFE_BINOP_MINIMUM, tfe_minimum},
                  {TFE_BINOP_AND, tfe_and},
                  {TFE_BINOP_OR, tfe_or},
                  {TFE_BINOP_XOR, tfe_xor},
                  {TFE_BINOP_EQ, cmp_eq},
                  {TFE_BINOP_NE, cmp_ne},
                  {TFE_BINOP_LT, cmp_lt},
                  {TFE_BINOP_LE, cmp_le},
                  {TFE_BINOP_GT, cmp_gt},
                  {TFE_BINOP_GE, cmp_ge}};

#endif
