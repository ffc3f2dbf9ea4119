"""Bad inputs raise the documented classes of oocfft.errors, never crash.

Every class derives from oocfft.Error and from the built-in class a Python
user catches for that failure (errors.py): InvalidArgumentError and
UnsupportedError are ValueErrors, DtypeError also a TypeError,
OutOfMemoryError a MemoryError, FileError an OSError, DeviceError a
RuntimeError.
"""
import subprocess
import textwrap

import numpy as np
import pytest

import oocfft
from oocfft import errors

from conftest import PYTHON, random_complex, random_real, subprocess_env


def test_the_class_hierarchy():
    assert issubclass(oocfft.InvalidArgumentError, (oocfft.Error, ValueError))
    assert issubclass(oocfft.InvalidArgumentError, ValueError)
    assert issubclass(oocfft.UnsupportedError, oocfft.InvalidArgumentError)
    assert issubclass(oocfft.UnsupportedError, ValueError)
    assert issubclass(oocfft.DtypeError, TypeError) and issubclass(oocfft.DtypeError, ValueError)
    assert issubclass(oocfft.OutOfMemoryError, MemoryError)
    assert issubclass(oocfft.FileError, OSError)
    assert issubclass(oocfft.DeviceError, RuntimeError)
    for name in errors.__all__:
        cls = getattr(oocfft, name)
        assert cls is getattr(errors, name)
        assert issubclass(cls, oocfft.Error)


def _raises(cls, call, *builtins):
    with pytest.raises(cls) as info:
        call()
    assert isinstance(info.value, oocfft.Error)
    for b in builtins:
        assert isinstance(info.value, b)
    assert str(info.value), "an exception without a message"
    return info.value


@pytest.fixture
def x(rng):
    return random_complex(rng, (4, 5, 6))


ALL = ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "dctn", "idctn", "dstn", "idstn"]


# ---------------------------------------------------------------- arrays


@pytest.mark.parametrize("name", ALL)
def test_a_4d_array_is_unsupported_with_the_forms_named(name):
    e = _raises(oocfft.UnsupportedError, lambda: getattr(oocfft, name)(np.ones((2, 3, 4, 5))), ValueError)
    assert "3-D" in str(e) and "last two axes" in str(e)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("make", [
    lambda: np.array([[1, None], [3, 4]], dtype=object),
    lambda: np.array([["a", "b"], ["c", "d"]]),
    lambda: np.array([[b"a", b"b"], [b"c", b"d"]]),
    lambda: np.ones((2, 3), np.longdouble),
    lambda: np.ones((2, 3), np.clongdouble),
    lambda: np.full((2, 2), "2026-01-01", dtype="datetime64[D]"),
    lambda: np.zeros((2, 3), dtype=[("a", "f8"), ("b", "f8")]),
], ids=["object", "unicode", "bytes", "longdouble", "clongdouble", "datetime", "structured"])
def test_wrong_dtypes_raise_dtype_error(name, make):
    _raises(oocfft.DtypeError, lambda: getattr(oocfft, name)(make()), TypeError, ValueError)


@pytest.mark.parametrize("name", ["rfftn", "dctn", "idctn", "dstn", "idstn"])
def test_real_transforms_refuse_complex_input(name, x):
    _raises(oocfft.DtypeError, lambda: getattr(oocfft, name)(x), TypeError)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("value", [None, "abc", b"abc"], ids=["None", "str", "bytes"])
def test_non_arrays_raise_dtype_error(name, value):
    _raises(oocfft.DtypeError, lambda: getattr(oocfft, name)(value), TypeError)


@pytest.mark.parametrize("value", [[[1, 2], [3]], object(), {"a": 1}], ids=["ragged", "object", "dict"])
def test_other_non_arrays_raise_an_oocfft_error(value):
    _raises(oocfft.Error, lambda: oocfft.fftn(value), ValueError)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2", "dctn", "idctn", "dstn", "idstn"])
def test_read_only_array_with_overwrite_x(name, rng):
    if name in ("dctn", "idctn", "dstn", "idstn"):
        x = random_real(rng, (4, 5, 6))
    else:
        x = random_complex(rng, (4, 5, 6))
    x.flags.writeable = False
    saved = x.copy()
    e = _raises(oocfft.InvalidArgumentError, lambda: getattr(oocfft, name)(x, overwrite_x=True), ValueError)
    assert "read-only" in str(e)
    np.testing.assert_array_equal(x, saved)


def test_broadcast_view_with_overwrite_x_is_refused(rng):
    x = np.broadcast_to(random_complex(rng, (6,)), (4, 5, 6))
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(x, overwrite_x=True), ValueError)


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 4, 5), (4, 5, 0)])
def test_empty_arrays_are_refused(shape):
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(np.zeros(shape, np.complex64)), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.dctn(np.zeros(shape)), ValueError)


def test_a_0d_array_is_refused():
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(np.complex64(1)), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(3.0), ValueError)


def test_irfftn_of_one_column_needs_s():
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.irfftn(np.ones((4, 1), np.complex128)), ValueError)


def test_fft2_of_a_1d_array_is_refused():
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fft2(np.ones(8, np.complex128)), ValueError)


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("kwargs,cls", [
    (dict(backend="gpu"), oocfft.InvalidArgumentError),
    (dict(backend=""), oocfft.InvalidArgumentError),
    (dict(backend=3), oocfft.InvalidArgumentError),
    (dict(strategy="x"), oocfft.InvalidArgumentError),
    (dict(register="maybe"), oocfft.InvalidArgumentError),
    (dict(norm="bad"), oocfft.InvalidArgumentError),
    (dict(norm="ORTHO"), oocfft.InvalidArgumentError),
    (dict(workers=0), oocfft.InvalidArgumentError),
    (dict(workers=1.5), oocfft.InvalidArgumentError),
    (dict(workers="2"), oocfft.InvalidArgumentError),
    (dict(workers=-100000), oocfft.InvalidArgumentError),
    (dict(streams=0), oocfft.InvalidArgumentError),
    (dict(streams=-1), oocfft.InvalidArgumentError),
    (dict(streams=1000), oocfft.InvalidArgumentError),
    (dict(streams="4"), oocfft.InvalidArgumentError),
    (dict(device_memory=-1), oocfft.InvalidArgumentError),
    (dict(device_memory="lots"), oocfft.InvalidArgumentError),
    (dict(device_memory=1.5e9), oocfft.InvalidArgumentError),
    (dict(device_memory=True), oocfft.InvalidArgumentError),
    (dict(device_memory=1 << 70), oocfft.InvalidArgumentError),
    (dict(host_memory="4 parsecs"), oocfft.InvalidArgumentError),
    (dict(progress=3), oocfft.InvalidArgumentError),
], ids=lambda v: repr(v)[:40] if isinstance(v, dict) else None)
@pytest.mark.parametrize("name", ["fftn", "rfftn", "dctn"])
def test_unknown_option_values(name, kwargs, cls, rng):
    x = random_real(rng, (4, 5, 6))
    _raises(cls, lambda: getattr(oocfft, name)(x, **{"backend": "host", **kwargs}), ValueError)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn"])
def test_scipys_plan_argument_is_unsupported(name, x):
    _raises(oocfft.UnsupportedError, lambda: getattr(oocfft, name)(x.real.copy() if name == "rfftn" else x,
                                                                   plan=object()), ValueError)


def test_backend_cuda_without_a_gpu_is_refused(x):
    if oocfft.cuda_available():
        pytest.skip("a CUDA device is usable here")
    _raises(oocfft.Error, lambda: oocfft.fftn(x, backend="cuda"), ValueError)


@pytest.mark.parametrize("axes", [(0, 1, 3), (-4, 0, 1), (5,), (0, 0, 1), (1, -2), (2, 2, 1)])
def test_axes_out_of_range_or_repeated(axes, x):
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(x, axes=axes), ValueError)


@pytest.mark.parametrize("axes", [(0,), (1,), (2,), (-1,), (0, 1), (0, 2), (-3, -1), (1, 0), 2])
def test_unsupported_axes_forms(axes, x):
    e = _raises(oocfft.UnsupportedError, lambda: oocfft.fftn(x, axes=axes), ValueError)
    assert "last two axes" in str(e)
    _raises(oocfft.UnsupportedError, lambda: oocfft.ifftn(x, axes=axes), ValueError)


@pytest.mark.parametrize("axes", [(0,), (1,), (-1,)])
def test_unsupported_axes_of_2d(axes, rng):
    x = random_complex(rng, (5, 6))
    _raises(oocfft.UnsupportedError, lambda: oocfft.fftn(x, axes=axes), ValueError)
    _raises(oocfft.UnsupportedError, lambda: oocfft.fft2(x, axes=axes), ValueError)


@pytest.mark.parametrize("name", ["rfftn", "irfftn", "dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("axes", [(1, 2), (-2, -1), (2, 1, 0), (0,)])
def test_real_transforms_run_over_all_axes_in_order_only(name, axes, rng):
    x = random_real(rng, (4, 5, 6))
    if name == "irfftn":
        x = np.fft.rfftn(x)
    _raises(oocfft.UnsupportedError, lambda: getattr(oocfft, name)(x, axes=axes), ValueError)


@pytest.mark.parametrize("s", [(0, 4, 4), (4, -1, 4), (4, 4, 4, 4), ("a", 4, 4), (2.5, 4, 4)])
def test_bad_s(s, x):
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(x, s=s), ValueError)


def test_s_and_axes_differ_in_length(x):
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.fftn(x, s=(4, 4), axes=(0, 1, 2)), ValueError)


@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
@pytest.mark.parametrize("type", [1, 4, 0, 5])
def test_trig_types_other_than_2_and_3_are_unsupported(name, type, rng):
    _raises(oocfft.UnsupportedError, lambda: getattr(oocfft, name)(random_real(rng, (4, 5, 6)), type=type),
            ValueError)


def test_orthogonalize_that_differs_from_the_norm_is_unsupported(rng):
    r = random_real(rng, (4, 5, 6))
    _raises(oocfft.UnsupportedError, lambda: oocfft.dctn(r, norm="ortho", orthogonalize=False), ValueError)
    _raises(oocfft.UnsupportedError, lambda: oocfft.dstn(r, norm=None, orthogonalize=True), ValueError)


# ---------------------------------------------------------------- budgets


def test_a_device_budget_too_small_for_any_brick_is_out_of_memory(x):
    e = _raises(oocfft.OutOfMemoryError, lambda: oocfft.fftn(x, backend="host", device_memory=16), MemoryError)
    assert "budget" in str(e)


def test_in_core_with_a_budget_smaller_than_the_volume_is_out_of_memory(rng):
    x = random_complex(rng, (16, 16, 16))
    _raises(oocfft.OutOfMemoryError, lambda: oocfft.fftn(x, backend="host", strategy="in_core", device_memory=4096),
            MemoryError)


def test_a_strategy_whose_bricks_do_not_fit_is_refused(rng):
    x = random_complex(rng, (16, 16, 16))
    _raises(oocfft.Error, lambda: oocfft.fftn(x, backend="host", strategy="two_pass", device_memory=4096))


def test_two_pass_is_not_a_plane_program(rng):
    x = random_complex(rng, (4, 16, 16))
    e = _raises(oocfft.InvalidArgumentError, lambda: oocfft.fft2(x, backend="host", strategy="two_pass"), ValueError)
    assert "two_pass" in str(e)


# ---------------------------------------------------------------- Plan misuse


@pytest.fixture
def plan():
    return oocfft.Plan((4, 5, 6), np.complex128, backend="host")


def test_plan_execute_refuses_the_wrong_shape(plan, rng):
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(random_complex(rng, (4, 5, 7))), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(random_complex(rng, (5, 4, 6))), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(random_complex(rng, (120,))), ValueError)


def test_plan_execute_refuses_the_wrong_dtype(plan, rng):
    _raises(oocfft.DtypeError, lambda: plan.execute(random_complex(rng, (4, 5, 6), np.complex64)), TypeError)
    _raises(oocfft.DtypeError, lambda: plan.execute(random_real(rng, (4, 5, 6))), TypeError)


def test_plan_execute_refuses_a_non_array(plan):
    _raises(oocfft.DtypeError, lambda: plan.execute([[1, 2]]), TypeError)
    _raises(oocfft.DtypeError, lambda: plan.execute(None), TypeError)


def test_plan_execute_refuses_a_bad_out(plan, rng):
    x = random_complex(rng, (4, 5, 6))
    saved = x.copy()
    _raises(oocfft.DtypeError, lambda: plan.execute(x, out=np.empty((4, 5, 6), np.complex64)), TypeError)
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(x, out=np.empty((4, 5, 7), np.complex128)), ValueError)
    _raises(oocfft.InvalidArgumentError,
            lambda: plan.execute(x, out=np.empty((4, 5, 6), np.complex128, order="F")), ValueError)
    read_only = np.empty((4, 5, 6), np.complex128)
    read_only.flags.writeable = False
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(x, out=read_only), ValueError)
    np.testing.assert_array_equal(x, saved)


def test_rfft_plan_refuses_the_wrong_spectrum(rng):
    plan = oocfft.Plan((4, 5, 6), np.float64, transform="rfft", backend="host")
    _raises(oocfft.InvalidArgumentError, lambda: plan.execute(random_complex(rng, (4, 5, 6)), inverse=True),
            ValueError)
    _raises(oocfft.DtypeError, lambda: plan.execute(random_real(rng, (4, 5, 4)), inverse=True), TypeError)
    _raises(oocfft.DtypeError, lambda: plan.execute(random_complex(rng, (4, 5, 6))), TypeError)


@pytest.mark.parametrize("kwargs,cls", [
    (dict(shape=(4, 5, 6), dtype=np.complex64, transform="fftw"), oocfft.InvalidArgumentError),
    (dict(shape=(0, 5), dtype=np.complex64), oocfft.InvalidArgumentError),
    (dict(shape=(2, 3, 4, 5), dtype=np.complex64), oocfft.UnsupportedError),
    (dict(shape=(4, 5, 6), dtype=np.complex64, axes=(0,)), oocfft.UnsupportedError),
    (dict(shape=(4, 5, 6), dtype=np.float64, transform="rfft", axes=(1, 2)), oocfft.UnsupportedError),
    (dict(shape=(4, 5, 6), dtype=np.float64, transform="dct", type=1), oocfft.UnsupportedError),
    (dict(shape=(4, 5, 6), dtype=np.complex64, transform="dct"), oocfft.DtypeError),
    (dict(shape=(4, 5, 6), dtype=object), oocfft.DtypeError),
    (dict(shape=None, dtype=np.complex64), oocfft.InvalidArgumentError),
    (dict(shape="abc", dtype=np.complex64), oocfft.InvalidArgumentError),
    (dict(shape=(4, 5, 6), dtype=np.complex64, norm="bad"), oocfft.InvalidArgumentError),
    (dict(shape=(4, 5, 6), dtype=np.complex64, backend="gpu"), oocfft.InvalidArgumentError),
    (dict(shape=(1 << 40, 1 << 40, 1 << 40), dtype=np.complex64, backend="host"), oocfft.InvalidArgumentError),
    (dict(shape=(1 << 21, 1 << 21, 1 << 21), dtype=np.complex128, backend="host"), oocfft.InvalidArgumentError),
], ids=lambda v: repr(v)[:40] if isinstance(v, dict) else None)
def test_plan_construction_refusals(kwargs, cls):
    kwargs = dict(kwargs)
    shape, dtype = kwargs.pop("shape"), kwargs.pop("dtype")
    _raises(cls, lambda: oocfft.Plan(shape, dtype, **kwargs), ValueError)


# ---------------------------------------------------------------- memory


def test_empty_refuses_bad_shapes():
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.empty((-1, 3)), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.empty((1 << 40, 1 << 40)), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.empty("abc"), ValueError)


def test_empty_larger_than_memory_is_out_of_memory():
    _raises(oocfft.OutOfMemoryError, lambda: oocfft.empty((1 << 47,), np.complex64), MemoryError)


def test_empty_refuses_object_dtype():
    # numpy would keep references in memory that HostArray frees without
    # releasing them.
    _raises(oocfft.DtypeError, lambda: oocfft.empty((3,), object), TypeError)


# ---------------------------------------------------------------- files and ASM arguments


def test_a_missing_file_is_a_file_error(tmp_path):
    missing = tmp_path / "missing.h5"
    _raises(oocfft.FileError, lambda: oocfft.transform_dataset(f"{missing}:/x", f"{tmp_path}/out.h5:/y"), OSError)
    _raises(oocfft.FileError, lambda: oocfft.inspect_dataset(f"{missing}:/x"), OSError)
    _raises(oocfft.FileError, lambda: oocfft.asm.propagate(f"{missing}:/x", 1e-3, wavelength=5e-7, pitch=1e-6,
                                                           out=f"{tmp_path}/out.h5:/y"), OSError)


def test_a_missing_dataset_is_a_file_error(tmp_path):
    h5py = pytest.importorskip("h5py", reason="h5py is not installed")
    path = tmp_path / "a.h5"
    with h5py.File(path, "w") as f:
        f["x"] = np.ones((4, 4, 4), np.complex64)
    e = _raises(oocfft.FileError, lambda: oocfft.transform_dataset(f"{path}:/nope", f"{path}:/y"), OSError)
    assert "nope" in str(e)
    _raises(oocfft.FileError, lambda: oocfft.inspect_dataset(f"{path}:/nope"), OSError)
    with h5py.File(path, "r") as f:
        assert sorted(f.keys()) == ["x"]


def test_a_file_that_is_not_hdf5_is_a_file_error(tmp_path):
    path = tmp_path / "text.h5"
    path.write_text("not HDF5\n")
    _raises(oocfft.FileError, lambda: oocfft.inspect_dataset(f"{path}:/x"), OSError)
    _raises(oocfft.FileError, lambda: oocfft.inspect_dataset(f"{tmp_path}:/x"), OSError)


@pytest.mark.parametrize("path", ["", "nocolon", "file.h5", 3, b"a.h5:/x"])
def test_malformed_dataset_paths(path):
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.inspect_dataset(path), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(path, "out.h5:/y"), ValueError)


def test_transform_dataset_option_refusals(tmp_path):
    inp, out = f"{tmp_path}/a.h5:/x", f"{tmp_path}/b.h5:/y"
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(inp, out, transform="fftw"), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(inp, out, norm="bad"), ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(inp, out, transform="rfft", in_place=True),
            ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(inp, out, transform="rfft", real_nx=0),
            ValueError)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.transform_dataset(inp, out, host_memory="lots"), ValueError)


@pytest.mark.parametrize("kwargs", [
    dict(wavelength=0.0), dict(wavelength=-5e-7), dict(pitch=0.0), dict(pitch=float("nan")), dict(pitch_y=-1e-6),
    dict(index=0.0), dict(pad=3), dict(evanescent="grow"), dict(wavelength="red"), dict(z=float("inf")),
    dict(z=[]), dict(z=[[1e-3]]), dict(z=[1e-3, 2e-3, 3e-3]),
], ids=lambda v: repr(v)[:40])
def test_asm_argument_refusals(kwargs, rng):
    field = random_complex(rng, (2, 8, 8))
    saved = field.copy()
    arguments = dict(z=1e-3, wavelength=5e-7, pitch=1e-6)
    arguments.update(kwargs)
    z = arguments.pop("z")
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.asm.propagate(field, z, overwrite_x=True, **arguments),
            ValueError)
    np.testing.assert_array_equal(field, saved)


def test_asm_shape_refusals(rng):
    options = dict(wavelength=5e-7, pitch=1e-6)
    _raises(oocfft.InvalidArgumentError, lambda: oocfft.asm.propagate(random_complex(rng, (8,)), 1e-3, **options),
            ValueError)
    _raises(oocfft.InvalidArgumentError,
            lambda: oocfft.asm.refocus(random_complex(rng, (2, 8, 8)), [1e-3], **options), ValueError)
    _raises(oocfft.InvalidArgumentError,
            lambda: oocfft.asm.layer_sum(random_complex(rng, (8, 8)), [1e-3], **options), ValueError)
    _raises(oocfft.InvalidArgumentError,
            lambda: oocfft.asm.layer_sum(random_complex(rng, (3, 8, 8)), [1e-3, 2e-3], **options), ValueError)
    _raises(oocfft.DtypeError, lambda: oocfft.asm.propagate(np.array([["a"]]), 1e-3, **options), TypeError)
    _raises(oocfft.DtypeError, lambda: oocfft.asm.propagate(None, 1e-3, **options), TypeError)
    read_only = random_complex(rng, (8, 8))
    read_only.flags.writeable = False
    _raises(oocfft.InvalidArgumentError,
            lambda: oocfft.asm.propagate(read_only, 1e-3, overwrite_x=True, **options), ValueError)


# ---------------------------------------------------------------- nothing crashes the interpreter


_NASTY = textwrap.dedent("""
    import sys
    import numpy as np
    import oocfft
    from oocfft import _oocfft

    x = np.random.default_rng(0).uniform(-0.5, 0.5, (4, 4, 4)) + 0j
    buffer = np.zeros(4 * 4 * 4 * 16 + 1, np.uint8)
    unaligned = buffer[1:].view(np.complex128).reshape(4, 4, 4)
    unaligned[...] = x
    host = {"backend": "host"}
    cases = {
        "unaligned": lambda: oocfft.fftn(unaligned, backend="host"),
        "unaligned overwrite": lambda: oocfft.fftn(unaligned, backend="host", overwrite_x=True),
        "huge s": lambda: oocfft.fftn(x, s=(1 << 30, 1 << 30, 1 << 30), backend="host"),
        "huge plan": lambda: oocfft.Plan((1 << 40, 1 << 40, 1 << 40), np.complex64, backend="host"),
        "raw wrong dtype": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(np.zeros(3), False, None),
        "raw None": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(None, False, None),
        "raw zero shape": lambda: _oocfft.ComplexPlan((0, 4, 4), True, False, host),
        "raw wrong shape": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(
            np.zeros((4, 4, 5), np.complex128), False, None),
        "raw strided": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(
            np.zeros((4, 4, 8), np.complex128)[:, :, ::2], False, None),
        "raw read-only": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(
            np.broadcast_to(x[0, 0], (4, 4, 4)), False, None),
        "raw unaligned": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, host).execute(unaligned, False, None),
        "raw real strided": lambda: _oocfft.RealPlan((4, 4, 4), True, host).forward(
            np.zeros((4, 4, 8))[:, :, ::2], np.zeros((4, 4, 3), np.complex128), None),
        "raw real wrong out": lambda: _oocfft.RealPlan((4, 4, 4), True, host).forward(
            np.zeros((4, 4, 4)), np.zeros((4, 4, 4), np.complex128), None),
        "raw trig wrong": lambda: _oocfft.TrigPlan((4, 4, 4), True, "dct", 2, 3, host).execute(x, False, None),
        "raw trig kind": lambda: _oocfft.TrigPlan((4, 4, 4), True, "fft", 2, 3, host),
        "raw unknown option": lambda: _oocfft.ComplexPlan((4, 4, 4), True, False, {"foo": 1}),
        "raw asm 2d": lambda: _oocfft.asm_propagate(x[0], None, [1e-3], {"wavelength": 5e-7, "pitch_x": 1e-6}, None),
        "raw asm no distance": lambda: _oocfft.asm_propagate(x.copy(), None, [], {"wavelength": 5e-7,
                                                                                 "pitch_x": 1e-6}, None),
        "raw asm real no out": lambda: _oocfft.asm_propagate(x.real.copy(), None, [1e-3],
                                                             {"wavelength": 5e-7, "pitch_x": 1e-6}, None),
        "raw refocus bad out": lambda: _oocfft.asm_refocus(x[:1].copy(), np.zeros((2, 4, 4), np.complex128), [1e-3],
                                                           {"wavelength": 5e-7, "pitch_x": 1e-6}, None),
        "host_memory_of junk": lambda: _oocfft.host_memory_of(object()),
        "empty object": lambda: oocfft.empty((3,), object),
        "progress raising BaseException": lambda: oocfft.fftn(x, backend="host", device_memory=1024,
                                                              progress=lambda d, t: sys.exit(3)),
    }
    for name, call in cases.items():
        try:
            call()
            print(name, "returned", flush=True)
        except oocfft.Error as e:
            print(name, "raised", type(e).__name__, flush=True)
        except BaseException as e:
            print(name, "raised-other", type(e).__name__, str(e)[:80], flush=True)
    print("ALIVE", flush=True)
""")


def test_nothing_crashes_the_interpreter():
    done = subprocess.run([PYTHON, "-c", _NASTY], capture_output=True, text=True, env=subprocess_env(), timeout=120,
                          cwd="/")
    assert done.returncode == 0, f"rc {done.returncode}\n{done.stdout}\n{done.stderr}"
    assert "ALIVE" in done.stdout, done.stdout + done.stderr
    lines = {}
    for line in done.stdout.splitlines():
        for verb in (" raised", " returned"):
            if verb in line:
                lines[line.split(verb, 1)[0]] = line
                break
    # Whatever the compiled module is handed wrong is refused with an oocfft.Error.
    raw = {k: v for k, v in lines.items() if k.startswith("raw")}
    assert raw and all(" raised " in v for v in raw.values()), "\n".join(raw.values())
    assert "SystemExit" in lines["progress raising BaseException"], lines["progress raising BaseException"]
