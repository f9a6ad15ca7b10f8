"""The options object of the linalg functions (tfe_linalg_options) from keyword arguments: the
hand-written fronts of tenferro.linalg and the generated ones (_linalg_fronts) share it."""

from . import tenferro_c as _c

_TRANS = {"N": 0, "T": 1, "C": 2}


def options(upper=False, left=True, unit_diagonal=False, trans="N", full_matrices=False,
            positive_diagonal=False, derivative_eps=0.0, rtol=None, hermitian=False):
    o = _c.tfe_linalg_options_create()
    _c.tfe_linalg_options_set_upper(o, int(bool(upper)))
    _c.tfe_linalg_options_set_left(o, int(bool(left)))
    _c.tfe_linalg_options_set_unit_diagonal(o, int(bool(unit_diagonal)))
    if trans not in _TRANS:
        raise ValueError(f"trans must be 'N', 'T' or 'C', not {trans!r}")
    _c.tfe_linalg_options_set_transpose(o, _TRANS[trans])
    _c.tfe_linalg_options_set_full_matrices(o, int(bool(full_matrices)))
    _c.tfe_linalg_options_set_positive_diagonal(o, int(bool(positive_diagonal)))
    _c.tfe_linalg_options_set_derivative_eps(o, float(derivative_eps))
    _c.tfe_linalg_options_set_rtol(o, -1.0 if rtol is None else float(rtol))
    _c.tfe_linalg_options_set_hermitian(o, int(bool(hermitian)))
    return o
