"""The package's public names: all importable, documented, and with scipy.fft's signatures."""
import inspect

import pytest
import scipy.fft

import oocfft

SCIPY_SHAPED = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "dctn", "idctn", "dstn", "idstn"]


def test_all_names_exist():
    for name in oocfft.__all__:
        assert hasattr(oocfft, name), name
    for name in ("propagate", "refocus", "layer_sum"):
        assert callable(getattr(oocfft.asm, name))


@pytest.mark.parametrize("name", [n for n in oocfft.__all__ if callable(getattr(oocfft, n))])
def test_public_callables_have_docstrings(name):
    doc = inspect.getdoc(getattr(oocfft, name))
    assert doc and len(doc) > 20, f"oocfft.{name} has no docstring for help()"


@pytest.mark.parametrize("name", SCIPY_SHAPED)
def test_scipy_shaped_signatures(name):
    ours = inspect.signature(getattr(oocfft, name))
    theirs = inspect.signature(getattr(scipy.fft, name))
    positional = [p.name for p in theirs.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    assert [p.name for p in ours.parameters.values()][:len(positional)] == positional
    for p in theirs.parameters.values():
        assert p.name in ours.parameters, f"{name} lacks scipy's {p.name}"
        if p.default is not inspect.Parameter.empty:
            assert ours.parameters[p.name].default == p.default, f"{name}({p.name}=...) default differs from scipy's"
    for option in ("backend", "device_memory", "host_memory", "streams", "strategy", "progress"):
        assert ours.parameters[option].kind == inspect.Parameter.KEYWORD_ONLY, option


def test_docstrings_state_the_result_dtypes():
    assert "complex64" in oocfft.fftn.__doc__ and "complex128" in oocfft.fftn.__doc__


def test_cuda_available_is_a_bool():
    assert isinstance(oocfft.cuda_available(), bool)


def test_version_is_the_projects():
    # The version the HDF5 outputs record as oocfft_version: major.minor.patch.
    parts = oocfft.__version__.split(".")
    assert len(parts) == 3 and all(p.isdigit() for p in parts), oocfft.__version__
