"""examples/python/mps_ground_state.py at sizes that run in seconds: the MPS energy agrees with
the free-fermion closed form and with dense diagonalisation (tenferro.kron + eigvalsh)."""

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "python" / "mps_ground_state.py"


@pytest.fixture(scope="module")
def example():
    if not EXAMPLE.exists():
        pytest.skip(f"{EXAMPLE} is not in this tree")
    spec = importlib.util.spec_from_file_location("mps_ground_state", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_closed_form_matches_dense_diagonalisation(example):
    for sites, h in ((4, 1.0), (7, 0.6)):
        assert example.dense_energy(sites, h) == pytest.approx(example.exact_energy(sites, h),
                                                               abs=1e-11)


def test_exact_bond_dimension_reaches_the_ground_state(example):
    # bond 8 holds every state of 6 sites exactly
    e = example.ground_state(6, 8, h=1.0)
    assert abs(e - example.exact_energy(6, 1.0)) < 1e-8


def test_truncated_bond_dimension_is_variational_and_close(example):
    # bond 4 of the 16 that 8 sites need: the energy stays above the exact one
    e, exact = example.ground_state(8, 4, h=1.0), example.exact_energy(8, 1.0)
    assert 0 <= e - exact < 1e-5


def test_main_reports_agreement(example, capsys):
    assert example.main(["--sites", "5", "--bond", "4"]) == 0
    assert "error" in capsys.readouterr().out
