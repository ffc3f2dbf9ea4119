"""scipy.fft's backend protocol: with scipy.fft.set_backend(oocfft.scipy_backend)
scipy.fft's functions run on oocfft where it computes the call, and scipy's own
backend (the global one, 'scipy' unless changed) takes every other call: a
backend's NotImplemented falls through to it unless set_backend(only=True).
"""
import numpy as np
import pytest
import scipy.fft

from oocfft import scipy_backend

from conftest import check_close, random_complex, random_real, trig_reference


@pytest.fixture
def calls(monkeypatch):
    """The names of the oocfft functions the backend ran (and finished) during the test."""
    ran = []
    for name, function in list(scipy_backend._FUNCTIONS.items()):
        def recorded(*args, _function=function, _name=name, **kwargs):
            result = _function(*args, **kwargs)
            ran.append(_name)
            return result

        monkeypatch.setitem(scipy_backend._FUNCTIONS, name, recorded)
    return ran


def _scipy_own(name, *args, **kwargs):
    with scipy.fft.set_backend("scipy", only=True):
        return getattr(scipy.fft, name)(*args, **kwargs)


def test_the_protocol_attributes():
    assert scipy_backend.__ua_domain__ == "numpy.scipy.fft"
    assert callable(scipy_backend.__ua_function__)


@pytest.mark.parametrize("name,make,kwargs", [
    ("fftn", lambda r: random_complex(r, (6, 7, 8)), {}),
    ("fftn", lambda r: random_complex(r, (6, 7, 8), np.complex64), {"norm": "ortho"}),
    ("fftn", lambda r: random_real(r, (6, 7, 8)), {"axes": (-2, -1)}),
    ("fftn", lambda r: random_complex(r, (6, 7, 8)), {"s": (8, 8, 8)}),
    ("ifftn", lambda r: random_complex(r, (6, 7, 8)), {}),
    ("ifftn", lambda r: random_complex(r, (12, 10)), {"norm": "forward", "workers": 1}),
    ("fft2", lambda r: random_complex(r, (3, 12, 10)), {}),
    ("fft2", lambda r: random_complex(r, (12, 10)), {}),
    ("fft2", lambda r: random_complex(r, (3, 12, 10)), {"axes": None}),  # scipy's fftn over all axes
    ("ifft2", lambda r: random_complex(r, (3, 12, 10)), {}),
    ("rfftn", lambda r: random_real(r, (6, 7, 9)), {}),
    ("rfftn", lambda r: random_real(r, (6, 7, 8), np.float32), {"norm": "ortho"}),
    ("irfftn", lambda r: np.fft.rfftn(random_real(r, (6, 7, 9))), {"s": (6, 7, 9)}),
    ("irfftn", lambda r: np.fft.rfftn(random_real(r, (6, 7, 8))), {}),
    ("dctn", lambda r: random_real(r, (6, 7, 8)), {}),
    ("dctn", lambda r: random_real(r, (6, 7, 8)), {"type": 3, "norm": "ortho"}),
    ("idctn", lambda r: random_real(r, (6, 7, 8)), {}),
    ("dstn", lambda r: random_real(r, (6, 7, 8)), {"type": 3}),
    ("idstn", lambda r: random_real(r, (6, 7, 8), np.float32), {}),
])
def test_supported_calls_run_on_oocfft_and_equal_scipys(rng, calls, name, make, kwargs):
    x = make(rng)
    want = _scipy_own(name, x, **kwargs)
    with scipy.fft.set_backend(scipy_backend):
        got = getattr(scipy.fft, name)(x, **kwargs)
    assert calls == [name], f"scipy.fft.{name} did not run on oocfft"
    assert got.dtype == want.dtype and got.shape == want.shape
    c = 12 if name[-2:] == "tn" else 8
    check_close(got, want, c=c, what=f"scipy.fft.{name} on oocfft")


def test_positional_arguments_pass_through(rng, calls):
    x = random_complex(rng, (6, 7, 8))
    with scipy.fft.set_backend(scipy_backend):
        got = scipy.fft.fftn(x, None, (1, 2), "ortho")
    assert calls == ["fftn"]
    check_close(got, np.fft.fftn(x, axes=(1, 2), norm="ortho"), what="positional")
    r = random_real(rng, (6, 7, 8))
    with scipy.fft.set_backend(scipy_backend):
        got = scipy.fft.dctn(r, 3, None, None, "ortho")
    check_close(got, trig_reference("dctn", r, 3, "ortho"), c=12, what="positional dctn")


@pytest.mark.parametrize("name,make,kwargs", [
    ("fft", lambda r: random_complex(r, (6, 7, 8)), {}),                         # a 1-D function
    ("ifft", lambda r: random_complex(r, (16,)), {}),
    ("rfft", lambda r: random_real(r, (16,)), {}),
    ("fftfreq", lambda r: 8, {}),
    ("fftn", lambda r: random_complex(r, (6, 7, 8)), {"axes": (0,)}),             # an axes form oocfft refuses
    ("fftn", lambda r: random_complex(r, (6, 7, 8)), {"axes": (0, 2)}),
    ("fftn", lambda r: random_complex(r, (2, 3, 4, 5)), {}),                      # 4-D
    ("rfftn", lambda r: random_real(r, (6, 7, 8)), {"axes": (1, 2)}),
    ("dctn", lambda r: random_real(r, (6, 7, 8)), {"type": 1}),                   # a type oocfft refuses
    ("dstn", lambda r: random_real(r, (6, 7, 8)), {"type": 4}),
    ("dctn", lambda r: random_real(r, (6, 7, 8)), {"norm": "ortho", "orthogonalize": False}),
    ("fftn", lambda r: random_complex(r, (6, 7, 8)).astype(np.clongdouble), {}),  # a dtype oocfft refuses
    ("dctn", lambda r: random_real(r, (6, 7, 8)).astype(np.longdouble), {}),
])
def test_unsupported_calls_fall_back_to_scipy(rng, calls, name, make, kwargs):
    x = make(rng)
    want = _scipy_own(name, x, **kwargs)
    with scipy.fft.set_backend(scipy_backend):
        got = getattr(scipy.fft, name)(x, **kwargs)
    assert calls == [], f"oocfft claimed scipy.fft.{name}({kwargs})"
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_only_true_raises_instead_of_falling_back(rng):
    x = random_complex(rng, (16,))
    with scipy.fft.set_backend(scipy_backend, only=True):
        with pytest.raises(Exception) as info:
            scipy.fft.fft(x)
    assert "BackendNotImplemented" in type(info.value).__name__
    y = random_complex(rng, (4, 5, 6))
    with scipy.fft.set_backend(scipy_backend, only=True):
        got = scipy.fft.fftn(y)
    check_close(got, np.fft.fftn(y), what="fftn with only=True")


def test_a_plan_argument_falls_back(rng, calls):
    x = random_complex(rng, (6, 7, 8))
    with scipy.fft.set_backend(scipy_backend):
        with pytest.raises(NotImplementedError):  # scipy's own backend refuses plans
            scipy.fft.fftn(x, plan=object())
    assert calls == []


def test_oocfft_errors_other_than_unsupported_reach_the_caller(rng):
    x = random_complex(rng, (6, 7, 8))
    with scipy.fft.set_backend(scipy_backend):
        with pytest.raises(ValueError):
            scipy.fft.fftn(x, norm="bad")
        with pytest.raises(ValueError):
            scipy.fft.fftn(x, axes=(0, 0, 1))


def test_set_global_backend(rng, calls):
    x = random_complex(rng, (6, 7, 8))
    try:
        scipy.fft.set_global_backend(scipy_backend)
        got = scipy.fft.fftn(x)
        assert calls == ["fftn"]
        check_close(got, np.fft.fftn(x), what="global backend")
    finally:
        scipy.fft.set_global_backend("scipy")
    # Outside, scipy runs its own.
    calls.clear()
    scipy.fft.fftn(x)
    assert calls == []
