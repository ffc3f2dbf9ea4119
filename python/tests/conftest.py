"""Shared fixtures and references of oocfft's Python tests.

rng        a seeded numpy Generator (the same inputs every run)
backend    "host" always; "cuda" where oocfft.cuda_available(), else skipped
random_*   seeded inputs drawn as float32 values, so that the same input is
           exact in both precisions (as tests/reference.hpp draws them)
last_axes  the axes numpy's references take for a given s
tolerance  C * eps(dtype) * sqrt(log2 N) of the relative L2 error, as the C++
           suites use (tests/reference.hpp); check_close applies it
"""
import math
import os
import sys

import numpy as np
import pytest
import scipy.fft

import oocfft

SEED = 20261128


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: takes more than a few seconds on a 2-core machine")


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def _backend_param(name):
    if name == "cuda":
        return pytest.param(name, marks=pytest.mark.skipif(
            not oocfft.cuda_available(), reason="no usable CUDA device (or a build without the CUDA backend)"))
    return name


BACKENDS = [_backend_param("host"), _backend_param("cuda")]


@pytest.fixture(params=BACKENDS)
def backend(request):
    """Where the transform runs: the host always, the GPU where one is usable."""
    return request.param


def last_axes(s):
    """The axes numpy's n-dimensional transforms take for `s` when `axes` is None: the last len(s).
    Given explicitly, as numpy 2 asks (leaving axes out with s given is deprecated); None for s None."""
    return None if s is None else tuple(range(-len(np.atleast_1d(s)), 0))


def random_real(rng, shape, dtype=np.float64):
    """Uniform values in [-0.5, 0.5), drawn as float32 so they are exact in float32 and float64."""
    return rng.uniform(-0.5, 0.5, size=shape).astype(np.float32).astype(dtype)


def random_complex(rng, shape, dtype=np.complex128):
    real = np.float32 if np.dtype(dtype) == np.complex64 else np.float64
    z = random_real(rng, shape, real) + 1j * random_real(rng, shape, real)
    return z.astype(dtype)


def random_array(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return random_complex(rng, shape, dtype)
    return random_real(rng, shape, dtype)


def eps(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        dtype = np.dtype(np.float32 if dtype.itemsize == 8 else np.float64)
    return float(np.finfo(dtype).eps)


def tolerance(dtype, n, c=8.0):
    """C * eps * sqrt(log2 N), log2 N taken as at least 1 (tests/reference.hpp)."""
    return c * eps(dtype) * math.sqrt(max(1.0, math.log2(max(int(n), 1))))


def relative_l2(got, want):
    got = np.asarray(got, dtype=np.complex128 if np.iscomplexobj(got) or np.iscomplexobj(want) else np.float64)
    want = np.asarray(want, dtype=got.dtype)
    den = np.linalg.norm(want.ravel())
    num = np.linalg.norm((got - want).ravel())
    return num / den if den > 0 else num


def check_close(got, want, dtype=None, n=None, c=8.0, what=""):
    """got matches want (shape, no NaN) within the relative L2 tolerance of dtype (got's by default) and N."""
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, expected {want.shape}"
    assert np.all(np.isfinite(got)), f"{what}: non-finite values in the result"
    dtype = got.dtype if dtype is None else dtype
    n = want.size if n is None else n
    err = relative_l2(got, want)
    tol = tolerance(dtype, n, c)
    assert err <= tol, f"{what}: relative L2 error {err:.3e} > tolerance {tol:.3e} (dtype {np.dtype(dtype)}, N {n})"


def poisoned(shape, dtype):
    """An output buffer full of NaN, so elements a transform fails to write show."""
    return np.full(shape, np.nan, dtype=dtype)


def subprocess_env():
    """The environment of a child Python that imports the same oocfft as this process."""
    env = dict(os.environ)
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(oocfft.__file__)))
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    env["PYTHONPATH"] = os.pathsep.join([package_parent] + rest)
    return env


PYTHON = sys.executable


# ---------------------------------------------------------------- DCT/DST references


def _orthonormal_dst2(n):
    """The orthonormal DST-II matrix of length n: scipy's dst(type=2, norm='ortho') where scipy gets it right."""
    k = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    m = 2 * np.sin(np.pi * (k + 1) * (2 * j + 1) / (2 * n)) * np.sqrt(1 / (2 * n))
    m[n - 1, :] /= np.sqrt(2)
    return m


def _scipy_dst_ortho_is_orthogonal():
    m = scipy.fft.dst(np.eye(5), type=2, norm="ortho", axis=0)
    return np.allclose(m @ m.T, np.eye(5))


def trig_reference(name, x, type=2, norm=None, s=None):
    """scipy.fft's dctn/idctn/dstn/idstn of x in float64.

    Older scipy (1.10 here) computes a DST of norm='ortho' that is not
    orthogonal: it scales the first element where the last one should be
    (scipy/scipy#18452, fixed by scipy/scipy#18613). Where this scipy does,
    the reference is the orthonormal DST (what orthogonalize=True means),
    applied axis by axis.
    """
    x = np.asarray(x, dtype=np.float64)
    function = getattr(scipy.fft, name)
    if not (name in ("dstn", "idstn") and norm == "ortho" and not _DST_ORTHO_OK):
        return function(x, type=type, s=s, norm=norm)
    if s is not None:
        x = _resized(x, s)
    transpose = (name == "dstn") == (type == 3)  # DST-III = DST-II^T; inverse of an orthonormal one its transpose
    y = x
    for axis in range(x.ndim):
        m = _orthonormal_dst2(x.shape[axis])
        if transpose:
            m = m.T
        y = np.moveaxis(np.tensordot(m, np.moveaxis(y, axis, 0), axes=(1, 0)), 0, axis)
    return y


def _resized(x, s):
    s = tuple(s)
    out = np.zeros(x.shape[:x.ndim - len(s)] + s)
    common = tuple(slice(0, min(a, b)) for a, b in zip(x.shape[x.ndim - len(s):], s))
    out[(Ellipsis,) + common] = x[(Ellipsis,) + common]
    return out


_DST_ORTHO_OK = _scipy_dst_ortho_is_orthogonal()
