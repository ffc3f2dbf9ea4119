"""oocfft's transforms against numpy.fft and scipy.fft computed in float64.

Every result is compared with the float64 reference of the same input (the
inputs are exact in both precisions), within C * eps * sqrt(log2 N) of the
result's own precision: awkward shapes, both precisions, every norm, the
axes forms, s, the dtype rules, list input, and the out-of-core strategies
on the host backend with small device budgets.
"""
import numpy as np
import pytest
import scipy.fft

import oocfft

from conftest import check_close, last_axes, random_array, random_complex, random_real, trig_reference

NORMS = [None, "backward", "ortho", "forward"]
PRECISIONS = {"single": (np.float32, np.complex64), "double": (np.float64, np.complex128)}

# 1-D, 2-D and 3-D; primes, large prime factors, axes of length 1.
SHAPES = [
    (1,), (2,), (16,), (97,), (194,),
    (13, 17), (1, 97), (97, 1), (3, 97), (8, 6),
    (7, 13, 17), (1, 13, 17), (7, 1, 17), (7, 13, 1), (1, 1, 1), (1, 1, 97), (3, 5, 97), (8, 8, 8), (4, 6, 10),
]


def _id(shape):
    return "x".join(map(str, shape))


def _c128(a):
    return np.asarray(a, dtype=np.complex128)


def _f64(a):
    return np.asarray(a, dtype=np.float64)


# ---------------------------------------------------------------- complex transforms


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", SHAPES, ids=_id)
def test_fftn_and_ifftn_match_numpy(backend, rng, shape, precision):
    _, ctype = PRECISIONS[precision]
    x = random_complex(rng, shape, ctype)
    y = oocfft.fftn(x, backend=backend)
    assert y.dtype == ctype and y.shape == shape
    check_close(y, np.fft.fftn(_c128(x)), what="fftn")
    z = oocfft.ifftn(x, backend=backend)
    assert z.dtype == ctype
    check_close(z, np.fft.ifftn(_c128(x)), what="ifftn")


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("shape", [(5, 12, 7), (30, 11), (210,)], ids=_id)
def test_every_norm_matches_numpy(backend, rng, shape, norm, precision):
    _, ctype = PRECISIONS[precision]
    x = random_complex(rng, shape, ctype)
    check_close(oocfft.fftn(x, norm=norm, backend=backend), np.fft.fftn(_c128(x), norm=norm), what="fftn")
    check_close(oocfft.ifftn(x, norm=norm, backend=backend), np.fft.ifftn(_c128(x), norm=norm), what="ifftn")
    if len(shape) >= 2:
        check_close(oocfft.fft2(x, norm=norm, backend=backend), np.fft.fft2(_c128(x), norm=norm), what="fft2")
        check_close(oocfft.ifft2(x, norm=norm, backend=backend), np.fft.ifft2(_c128(x), norm=norm), what="ifft2")


@pytest.mark.parametrize("norm", NORMS)
def test_forward_then_inverse_returns_the_input(backend, rng, norm):
    x = random_complex(rng, (9, 10, 11))
    check_close(oocfft.ifftn(oocfft.fftn(x, norm=norm, backend=backend), norm=norm, backend=backend), x,
                what="ifftn(fftn(x))")


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", [(6, 10), (13, 17), (1, 7), (5, 6, 10), (3, 13, 17), (4, 1, 9), (1, 8, 8)],
                         ids=_id)
def test_fft2_matches_numpy_on_2d_and_on_every_plane_of_3d(backend, rng, shape, precision):
    _, ctype = PRECISIONS[precision]
    x = random_complex(rng, shape, ctype)
    y = oocfft.fft2(x, backend=backend)
    assert y.dtype == ctype
    check_close(y, np.fft.fft2(_c128(x)), what="fft2")
    check_close(oocfft.ifft2(x, backend=backend), np.fft.ifft2(_c128(x)), what="ifft2")


@pytest.mark.parametrize("axes", [(0, 1, 2), (2, 1, 0), (1, 2, 0), (-1, 0, -2), (-3, -2, -1)])
def test_fftn_over_all_axes_in_any_order(backend, rng, axes):
    x = random_complex(rng, (5, 7, 9))
    check_close(oocfft.fftn(x, axes=axes, backend=backend), np.fft.fftn(x, axes=axes), what=f"fftn axes={axes}")
    check_close(oocfft.ifftn(x, axes=axes, backend=backend), np.fft.ifftn(x, axes=axes), what=f"ifftn axes={axes}")


@pytest.mark.parametrize("axes", [(1, 0), (0, 1), (-1, -2), (-2, -1)])
def test_fftn_and_fft2_over_both_axes_of_2d(backend, rng, axes):
    x = random_complex(rng, (12, 10))
    check_close(oocfft.fftn(x, axes=axes, backend=backend), np.fft.fftn(x, axes=axes), what="fftn")
    check_close(oocfft.fft2(x, axes=axes, backend=backend), np.fft.fft2(x, axes=axes), what="fft2")


@pytest.mark.parametrize("axes", [(-2, -1), (1, 2), (2, 1), (-1, -2), (1, -1)])
def test_the_last_two_axes_of_3d(backend, rng, axes):
    x = random_complex(rng, (4, 9, 14))
    want = np.fft.fftn(x, axes=axes)
    check_close(oocfft.fftn(x, axes=axes, backend=backend), want, what=f"fftn axes={axes}")
    check_close(oocfft.fft2(x, axes=axes, backend=backend), want, what=f"fft2 axes={axes}")
    check_close(oocfft.ifftn(x, axes=axes, backend=backend), np.fft.ifftn(x, axes=axes), what=f"ifftn axes={axes}")
    check_close(oocfft.ifft2(x, axes=axes, backend=backend), np.fft.ifftn(x, axes=axes), what=f"ifft2 axes={axes}")


def test_fft2_with_axes_none_is_all_axes_as_scipys(backend, rng):
    x = random_complex(rng, (4, 9, 14))
    check_close(oocfft.fft2(x, axes=None, backend=backend), scipy.fft.fft2(x, axes=None), what="fft2 axes=None")


# ---------------------------------------------------------------- s: padding and cropping


@pytest.mark.parametrize("s", [(8, 8, 8), (4, 5, 6), (9, 3, 12), (6, 7, 8)])
def test_s_pads_and_crops_all_axes(backend, rng, s):
    x = random_complex(rng, (6, 7, 8))
    y = oocfft.fftn(x, s=s, backend=backend)
    assert y.shape == s
    check_close(y, np.fft.fftn(x, s=s, axes=last_axes(s)), what=f"fftn s={s}")
    check_close(oocfft.ifftn(x, s=s, backend=backend), np.fft.ifftn(x, s=s, axes=last_axes(s)), what=f"ifftn s={s}")


@pytest.mark.parametrize("s,axes", [((10, 5), None), ((10, 5), (1, 2)), ((3, 12), (-2, -1)), ((5, 8, 11), (2, 0, 1))])
def test_s_with_axes(backend, rng, s, axes):
    x = random_complex(rng, (4, 6, 8))
    want = np.fft.fftn(x, s=s, axes=axes)
    y = oocfft.fftn(x, s=s, axes=axes, backend=backend)
    assert y.shape == want.shape
    check_close(y, want, what=f"fftn s={s} axes={axes}")


@pytest.mark.parametrize("s", [(16, 12), (5, 3), (7, 20)])
def test_fft2_s_on_2d_and_3d(backend, rng, s):
    for shape in [(8, 10), (3, 8, 10)]:
        x = random_complex(rng, shape)
        check_close(oocfft.fft2(x, s=s, backend=backend), np.fft.fft2(x, s=s), what=f"fft2 {shape} s={s}")
        check_close(oocfft.ifft2(x, s=s, backend=backend), np.fft.ifft2(x, s=s), what=f"ifft2 {shape} s={s}")


def test_s_on_1d(backend, rng):
    x = random_complex(rng, (50,))
    for s in [(97,), (13,), 64]:
        check_close(oocfft.fftn(x, s=s, backend=backend), np.fft.fftn(x, s=np.atleast_1d(s), axes=last_axes(s)), what=f"s={s}")


# ---------------------------------------------------------------- real transforms


RFFT_SHAPES = [(16,), (15,), (97,), (1,), (2,), (12, 10), (12, 9), (1, 7), (7, 1), (8, 6, 10), (7, 13, 17),
               (5, 6, 1), (1, 1, 2), (3, 4, 97), (6, 1, 9)]


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", RFFT_SHAPES, ids=_id)
def test_rfftn_and_irfftn_match_numpy(backend, rng, shape, precision):
    rtype, ctype = PRECISIONS[precision]
    x = random_real(rng, shape, rtype)
    y = oocfft.rfftn(x, backend=backend)
    assert y.dtype == ctype
    want = np.fft.rfftn(_f64(x))
    check_close(y, want, what="rfftn")
    # The inverse of numpy's half spectrum, with s (odd last axes need it).
    spectrum = want.astype(ctype)
    back = oocfft.irfftn(spectrum, s=shape, backend=backend)
    assert back.dtype == rtype and back.shape == shape
    check_close(back, np.fft.irfftn(_c128(spectrum), s=shape, axes=last_axes(shape)), what="irfftn s")
    check_close(back, x, c=12, what="irfftn(rfftn(x))")


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", [(6, 9), (4, 5, 7), (10,)], ids=_id)
def test_irfftn_of_any_half_spectrum_matches_numpy(backend, rng, shape, precision):
    # A half spectrum that is not Hermitian along its first column: numpy's
    # irfftn's answer (it takes the real part of what the inverse of the
    # full spectrum would be).
    _, ctype = PRECISIONS[precision]
    spectrum = random_complex(rng, shape, ctype)
    for s in [None, shape[:-1] + (2 * shape[-1] - 1,), shape[:-1] + (2 * shape[-1] - 2,)]:
        got = oocfft.irfftn(spectrum, s=s, backend=backend)
        want = np.fft.irfftn(_c128(spectrum), s=s, axes=last_axes(s))
        check_close(got, want, what=f"irfftn s={s}")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("precision", PRECISIONS)
def test_rfftn_irfftn_every_norm(backend, rng, norm, precision):
    rtype, _ = PRECISIONS[precision]
    for shape in [(6, 10, 9), (30, 8), (45,)]:
        x = random_real(rng, shape, rtype)
        y = oocfft.rfftn(x, norm=norm, backend=backend)
        check_close(y, np.fft.rfftn(_f64(x), norm=norm), what=f"rfftn {shape}")
        check_close(oocfft.irfftn(y, s=shape, norm=norm, backend=backend),
                    np.fft.irfftn(_c128(y), s=shape, axes=last_axes(shape), norm=norm), what=f"irfftn {shape}")


def test_irfftn_without_s_gives_an_even_last_axis(backend, rng):
    spectrum = np.fft.rfftn(random_real(rng, (4, 6, 10)))
    back = oocfft.irfftn(spectrum, backend=backend)
    assert back.shape == (4, 6, 10)
    check_close(back, np.fft.irfftn(spectrum), what="irfftn")


@pytest.mark.parametrize("s", [(8, 12, 14), (3, 4, 5), (6, 6, 6)])
def test_rfftn_irfftn_s_pads_and_crops(backend, rng, s):
    x = random_real(rng, (5, 6, 7))
    y = oocfft.rfftn(x, s=s, backend=backend)
    check_close(y, np.fft.rfftn(x, s=s, axes=last_axes(s)), what=f"rfftn s={s}")
    spectrum = np.fft.rfftn(x)
    check_close(oocfft.irfftn(spectrum, s=s, backend=backend), np.fft.irfftn(spectrum, s=s, axes=last_axes(s)), what=f"irfftn s={s}")


@pytest.mark.parametrize("axes", [(0, 1, 2), (-3, -2, -1)])
def test_rfftn_with_all_axes_in_order(backend, rng, axes):
    x = random_real(rng, (4, 6, 9))
    check_close(oocfft.rfftn(x, axes=axes, backend=backend), np.fft.rfftn(x, axes=axes), what="rfftn")


# ---------------------------------------------------------------- DCT and DST

# The reference is scipy.fft's function in float64 (conftest.trig_reference:
# the orthonormal DST where this scipy's norm="ortho" DST is not orthogonal,
# scipy/scipy#18452, fixed by scipy/scipy#18613).
TRIG = {"dctn": oocfft.dctn, "idctn": oocfft.idctn, "dstn": oocfft.dstn, "idstn": oocfft.idstn}
TRIG_SHAPES = [(7, 13, 17), (8, 6, 10), (1, 13, 17), (7, 1, 17), (7, 13, 1), (3, 4, 97),
               (13, 17), (8, 6), (1, 9), (9, 1), (97,), (16,), (2,), (1,)]


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("shape", TRIG_SHAPES, ids=_id)
@pytest.mark.parametrize("type", [2, 3])
@pytest.mark.parametrize("name", TRIG)
def test_trig_transforms_match_scipy(backend, rng, name, type, shape, precision):
    ours = TRIG[name]
    rtype, _ = PRECISIONS[precision]
    x = random_real(rng, shape, rtype)
    y = ours(x, type=type, backend=backend)
    assert y.dtype == rtype and y.shape == shape
    check_close(y, trig_reference(name, x, type), c=12, what=f"{name} type {type}")


@pytest.mark.parametrize("shape", [(6, 5, 7), (12, 10), (30,)], ids=_id)
@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("type", [2, 3])
@pytest.mark.parametrize("name", TRIG)
def test_trig_transforms_every_norm(backend, rng, name, type, norm, shape):
    ours = TRIG[name]
    for rtype in (np.float32, np.float64):
        x = random_real(rng, shape, rtype)
        check_close(ours(x, type=type, norm=norm, backend=backend), trig_reference(name, x, type, norm),
                    c=12, what=f"{name} type {type} norm {norm} {shape} {np.dtype(rtype)}")


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("type", [2, 3])
def test_trig_round_trips(backend, rng, type, norm):
    x = random_real(rng, (6, 7, 8))
    check_close(oocfft.idctn(oocfft.dctn(x, type=type, norm=norm, backend=backend), type=type, norm=norm,
                             backend=backend), x, c=12, what="idctn(dctn)")
    check_close(oocfft.idstn(oocfft.dstn(x, type=type, norm=norm, backend=backend), type=type, norm=norm,
                             backend=backend), x, c=12, what="idstn(dstn)")


@pytest.mark.parametrize("type", [2, 3])
@pytest.mark.parametrize("name", TRIG)
def test_ortho_trig_transforms_are_orthogonal(backend, rng, name, type):
    # Independent of scipy's version: norm="ortho" keeps the L2 norm and the
    # transpose of type 2 is type 3.
    x = random_real(rng, (5, 6, 7))
    y = TRIG[name](x, type=type, norm="ortho", backend=backend)
    assert abs(np.linalg.norm(y) / np.linalg.norm(x) - 1) < 1e-13
    a, b = random_real(rng, (5, 6, 7)), random_real(rng, (5, 6, 7))
    other = 5 - type
    lhs = np.vdot(TRIG[name](a, type=type, norm="ortho", backend=backend), b)
    rhs = np.vdot(a, TRIG[name](b, type=other, norm="ortho", backend=backend))
    assert abs(lhs - rhs) < 1e-12 * np.linalg.norm(a) * np.linalg.norm(b)


def test_trig_orthogonalize_matching_norm_is_accepted(backend, rng):
    x = random_real(rng, (6, 7, 8))
    check_close(oocfft.dctn(x, norm="ortho", orthogonalize=True, backend=backend),
                scipy.fft.dctn(x, norm="ortho", orthogonalize=True), what="dctn ortho")
    check_close(oocfft.dstn(x, norm="backward", orthogonalize=False, backend=backend),
                scipy.fft.dstn(x, norm="backward", orthogonalize=False), what="dstn backward")


@pytest.mark.parametrize("s", [(8, 8, 8), (3, 4, 5)])
def test_trig_s_pads_and_crops(backend, rng, s):
    x = random_real(rng, (5, 6, 7))
    for name, ours in TRIG.items():
        check_close(ours(x, s=s, backend=backend), trig_reference(name, x, s=s), c=12, what=f"{name} s={s}")


# ---------------------------------------------------------------- dtypes and inputs


@pytest.mark.parametrize("dtype,result", [
    (np.float16, np.complex64), (np.float32, np.complex64), (np.float64, np.complex128),
    (np.complex64, np.complex64), (np.complex128, np.complex128),
    (np.int8, np.complex128), (np.int32, np.complex128), (np.int64, np.complex128), (np.uint16, np.complex128),
    (np.bool_, np.complex128),
])
def test_complex_transforms_dtype_rules(backend, rng, dtype, result):
    shape = (4, 5, 6)
    if np.dtype(dtype) == np.bool_:
        x = rng.integers(0, 2, size=shape).astype(bool)
    elif np.dtype(dtype).kind in "iu":
        x = rng.integers(0, 50, size=shape).astype(dtype)
    else:
        x = random_array(rng, shape, dtype)
    for ours, theirs in [(oocfft.fftn, np.fft.fftn), (oocfft.ifftn, np.fft.ifftn), (oocfft.fft2, np.fft.fft2),
                         (oocfft.ifft2, np.fft.ifft2)]:
        y = ours(x, backend=backend)
        assert y.dtype == result, f"{ours.__name__}({np.dtype(dtype)}) gave {y.dtype}"
        assert y.dtype == scipy.fft.fftn(x).dtype  # scipy's rule
        check_close(y, theirs(x.astype(np.complex128)), what=f"{ours.__name__} of {np.dtype(dtype)}")


@pytest.mark.parametrize("dtype,result", [
    (np.float16, np.float32), (np.float32, np.float32), (np.float64, np.float64),
    (np.int16, np.float64), (np.int64, np.float64), (np.bool_, np.float64),
])
def test_real_transforms_dtype_rules(backend, rng, dtype, result):
    shape = (4, 5, 6)
    if np.dtype(dtype) == np.bool_:
        x = rng.integers(0, 2, size=shape).astype(bool)
    elif np.dtype(dtype).kind in "iu":
        x = rng.integers(-20, 20, size=shape).astype(dtype)
    else:
        x = random_real(rng, shape, dtype)
    complex_result = np.complex64 if result == np.float32 else np.complex128
    y = oocfft.rfftn(x, backend=backend)
    assert y.dtype == complex_result and y.dtype == scipy.fft.rfftn(x).dtype
    check_close(y, np.fft.rfftn(x.astype(np.float64)), what="rfftn")
    back = oocfft.irfftn(y, s=shape, backend=backend)
    assert back.dtype == result
    for name, ours in TRIG.items():
        z = ours(x, backend=backend)
        scipys = getattr(scipy.fft, name)(x).dtype
        assert z.dtype == result and z.dtype == scipys, f"{name}({np.dtype(dtype)}) gave {z.dtype}"
        check_close(z, trig_reference(name, x), c=12, what=f"{name} of {np.dtype(dtype)}")


def test_irfftn_dtype_rules(backend, rng):
    spectrum = random_complex(rng, (4, 5, 4), np.complex64)
    assert oocfft.irfftn(spectrum, backend=backend).dtype == np.float32
    assert oocfft.irfftn(spectrum.astype(np.complex128), backend=backend).dtype == np.float64


def test_list_input(backend):
    x = [[1, 2, 3], [4, 5, 6.5]]
    y = oocfft.fftn(x, backend=backend)
    assert y.dtype == np.complex128
    check_close(y, np.fft.fftn(x), what="fftn of a list")
    check_close(oocfft.ifftn([1j, 2, 3, 4], backend=backend), np.fft.ifftn([1j, 2, 3, 4]), what="ifftn of a list")
    check_close(oocfft.rfftn([[1.0, 2.0, 3.0]], backend=backend), np.fft.rfftn([[1.0, 2.0, 3.0]]), what="rfftn")
    nested = [[[1.0, 2.0], [3.0, 5.0]], [[-1.0, 0.5], [2.0, 7.0]]]
    check_close(oocfft.dctn(nested, backend=backend), scipy.fft.dctn(nested), what="dctn of a list")


def test_scalar_python_sequences_of_complex(backend):
    x = [[1 + 1j, 2], [3, 4 - 2j]]
    check_close(oocfft.fft2(x, backend=backend), np.fft.fft2(x), what="fft2 of a list")


def test_non_contiguous_and_fortran_inputs(backend, rng):
    base = random_complex(rng, (8, 10, 12))
    for x in [base[:, ::2, :], base[::-1], np.asfortranarray(base), base.transpose(2, 0, 1), base[1:7, 2:, 3:11]]:
        check_close(oocfft.fftn(x, backend=backend), np.fft.fftn(x), what="fftn")
        check_close(oocfft.fft2(x, backend=backend), np.fft.fft2(x), what="fft2")
    real = random_real(rng, (8, 10, 12))
    for x in [real[:, ::2, :], np.asfortranarray(real), real[..., ::-1]]:
        check_close(oocfft.rfftn(x, backend=backend), np.fft.rfftn(x), what="rfftn")
        check_close(oocfft.dctn(x, backend=backend), scipy.fft.dctn(x), c=12, what="dctn")


def test_byte_swapped_input(backend, rng):
    x = random_complex(rng, (4, 6, 8))
    check_close(oocfft.fftn(x.astype(">c16"), backend=backend), np.fft.fftn(x), what="big-endian fftn")
    r = random_real(rng, (4, 6, 8))
    check_close(oocfft.rfftn(r.astype(">f8"), backend=backend), np.fft.rfftn(r), what="big-endian rfftn")
    check_close(oocfft.dctn(r.astype(">f4"), backend=backend), scipy.fft.dctn(r), dtype=np.float32, c=12,
                what="big-endian dctn")


# ---------------------------------------------------------------- out of core on the host backend

# Budgets (bytes) small enough that the volume streams through in many bricks.
STRATEGIES = [
    ("three_pass", 4096), ("three_pass", None), ("two_pass", 16384), ("two_pass", None),
    ("line_transpose", 4096), ("auto", 4096), ("auto", 16384), ("in_core", None),
]


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("strategy,device_memory", STRATEGIES)
def test_out_of_core_strategies_match_numpy(rng, strategy, device_memory, precision):
    rtype, ctype = PRECISIONS[precision]
    options = dict(backend="host", strategy=strategy, device_memory=device_memory)
    x = random_complex(rng, (16, 12, 10), ctype)
    check_close(oocfft.fftn(x, **options), np.fft.fftn(_c128(x)), what="fftn")
    check_close(oocfft.ifftn(x, norm="ortho", **options), np.fft.ifftn(_c128(x), norm="ortho"), what="ifftn")
    r = random_real(rng, (12, 10, 9), rtype)
    spectrum = oocfft.rfftn(r, **options)
    check_close(spectrum, np.fft.rfftn(_f64(r)), what="rfftn")
    check_close(oocfft.irfftn(spectrum, s=r.shape, **options), np.fft.irfftn(_c128(spectrum), s=r.shape, axes=last_axes(r.shape)),
                what="irfftn")
    check_close(oocfft.dctn(r, **options), scipy.fft.dctn(_f64(r)), c=12, what="dctn")
    check_close(oocfft.idstn(r, type=3, **options), scipy.fft.idstn(_f64(r), type=3), c=12, what="idstn")


@pytest.mark.parametrize("strategy,device_memory", [("auto", 4096), ("three_pass", 4096), ("in_core", None),
                                                    ("auto", None)])
def test_out_of_core_planes_match_numpy(rng, strategy, device_memory):
    x = random_complex(rng, (6, 24, 20))
    check_close(oocfft.fft2(x, backend="host", strategy=strategy, device_memory=device_memory), np.fft.fft2(x),
                what="fft2 of every plane")


def test_small_budgets_really_stream_in_bricks(rng):
    plan = oocfft.Plan((16, 12, 10), np.complex128, backend="host", device_memory=4096)
    x = random_complex(rng, (16, 12, 10))
    check_close(plan.execute(x), np.fft.fftn(x), what="plan")
    report = plan.report
    assert report["strategy"] in ("two_pass", "three_pass", "line_transpose")
    assert report["passes"] >= 2
    assert report["bricks"] > 4


def test_byte_count_strings_for_budgets(rng):
    x = random_complex(rng, (16, 12, 10))
    for budget in ["4KiB", "4 KiB", "16kib", "1e4", 4096]:
        check_close(oocfft.fftn(x, backend="host", device_memory=budget), np.fft.fftn(x), what=f"budget {budget}")


@pytest.mark.parametrize("workers", [1, 2, -1, None])
def test_workers(rng, workers):
    x = random_complex(rng, (8, 9, 10))
    check_close(oocfft.fftn(x, backend="host", workers=workers), np.fft.fftn(x), what=f"workers={workers}")
    r = random_real(rng, (8, 9, 10))
    check_close(oocfft.dctn(r, backend="host", workers=workers), scipy.fft.dctn(r), c=12, what="dctn")


def test_default_backend_is_correct(rng):
    x = random_complex(rng, (8, 9, 10))
    check_close(oocfft.fftn(x), np.fft.fftn(x), what="backend=None")
    check_close(oocfft.fftn(x, backend="auto"), np.fft.fftn(x), what="backend='auto'")
