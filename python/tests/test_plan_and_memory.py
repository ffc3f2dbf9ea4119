"""oocfft.Plan (fft, rfft, dct, dst) and the page-locked arrays of oocfft.empty / zeros."""
import gc
import subprocess
import textwrap

import numpy as np
import pytest
import scipy.fft

import oocfft

from conftest import PYTHON, check_close, last_axes, poisoned, random_complex, random_real, subprocess_env, trig_reference

# ---------------------------------------------------------------- complex plans


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(6, 10, 12), (13, 17), (97,), (5, 1, 7)])
def test_fft_plan_forward_inverse_and_round_trip(backend, rng, shape, dtype):
    plan = oocfft.Plan(shape, dtype, backend=backend)
    assert plan.shape == shape and plan.dtype == dtype and plan.spectrum_shape == shape
    x = random_complex(rng, shape, dtype)
    saved = x.copy()
    y = plan.execute(x)
    assert y.dtype == dtype and not np.shares_memory(x, y)
    np.testing.assert_array_equal(x, saved)
    check_close(y, np.fft.fftn(x.astype(np.complex128)), what="forward")
    z = plan.execute(y, inverse=True)
    check_close(z, np.fft.ifftn(y.astype(np.complex128)), what="inverse")
    check_close(z, x, c=12, what="round trip")


@pytest.mark.parametrize("norm", [None, "backward", "ortho", "forward"])
def test_fft_plan_norms(backend, rng, norm):
    plan = oocfft.Plan((6, 7, 8), np.complex128, norm=norm, backend=backend)
    x = random_complex(rng, (6, 7, 8))
    check_close(plan.execute(x), np.fft.fftn(x, norm=norm), what="forward")
    check_close(plan.execute(x, inverse=True), np.fft.ifftn(x, norm=norm), what="inverse")


def test_fft_plan_into_out_and_in_place(backend, rng):
    plan = oocfft.Plan((6, 10, 12), np.complex128, backend=backend)
    x = random_complex(rng, (6, 10, 12))
    saved = x.copy()
    out = poisoned(x.shape, np.complex128)
    y = plan.execute(x, out=out)
    assert y is out
    check_close(out, np.fft.fftn(saved), what="into out")
    np.testing.assert_array_equal(x, saved)
    y = plan.execute(x, out=x)
    assert y is x
    check_close(x, np.fft.fftn(saved), what="in place")
    plan.execute(x, out=x, inverse=True)
    check_close(x, saved, c=12, what="in place round trip")


def test_fft_plan_of_planes(backend, rng):
    plan = oocfft.Plan((4, 9, 14), np.complex64, axes=(-2, -1), backend=backend)
    x = random_complex(rng, (4, 9, 14), np.complex64)
    check_close(plan.execute(x), np.fft.fft2(x.astype(np.complex128)), what="planes forward")
    check_close(plan.execute(x, inverse=True), np.fft.ifft2(x.astype(np.complex128)), what="planes inverse")


def test_fft_plan_float_dtype_names_the_precision(rng):
    assert oocfft.Plan((4, 4), np.float32).dtype == np.complex64
    assert oocfft.Plan((4, 4), np.float64).dtype == np.complex128
    assert oocfft.Plan((4, 4), "complex64").dtype == np.complex64


def test_plan_executes_many_times_and_out_of_core(rng):
    plan = oocfft.Plan((16, 12, 10), np.complex128, backend="host", device_memory=4096, strategy="three_pass")
    for _ in range(3):
        x = random_complex(rng, (16, 12, 10))
        check_close(plan.execute(x), np.fft.fftn(x), what="three_pass plan")
    assert plan.report["strategy"] == "three_pass" and plan.report["passes"] == 3


# ---------------------------------------------------------------- rfft plans


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 10, 12), (7, 9, 11), (12, 9), (15,)])
def test_rfft_plan_forward_inverse_round_trip(backend, rng, shape, dtype):
    plan = oocfft.Plan(shape, dtype, transform="rfft", backend=backend)
    complex_type = np.complex64 if dtype == np.float32 else np.complex128
    half = shape[:-1] + (shape[-1] // 2 + 1,)
    assert plan.dtype == dtype and plan.shape == shape and plan.spectrum_shape == half
    x = random_real(rng, shape, dtype)
    saved = x.copy()
    out = poisoned(half, complex_type)
    spectrum = plan.execute(x, out=out)
    assert spectrum is out and spectrum.dtype == complex_type
    check_close(spectrum, np.fft.rfftn(x.astype(np.float64)), what="rfft forward")
    np.testing.assert_array_equal(x, saved)
    kept = spectrum.copy()
    back_out = poisoned(shape, dtype)
    back = plan.execute(spectrum, out=back_out, inverse=True)
    assert back is back_out and back.dtype == dtype
    check_close(back, np.fft.irfftn(kept.astype(np.complex128), s=shape, axes=last_axes(shape)), what="rfft inverse")
    check_close(back, x, c=12, what="rfft round trip")
    np.testing.assert_array_equal(spectrum, kept)  # the inverse leaves its input
    new = plan.execute(x)
    check_close(new, np.fft.rfftn(x.astype(np.float64)), what="rfft into a new array")


# ---------------------------------------------------------------- dct / dst plans


@pytest.mark.parametrize("norm", [None, "ortho"])
@pytest.mark.parametrize("type", [2, 3])
@pytest.mark.parametrize("transform", ["dct", "dst"])
def test_trig_plans(backend, rng, transform, type, norm):
    shape = (6, 7, 8)
    plan = oocfft.Plan(shape, np.float64, transform=transform, type=type, norm=norm, backend=backend)
    assert plan.dtype == np.float64
    x = random_real(rng, shape)
    saved = x.copy()
    out = poisoned(shape, np.float64)
    y = plan.execute(x, out=out)
    assert y is out
    np.testing.assert_array_equal(x, saved)
    check_close(y, trig_reference(transform + "n", x, type, norm), c=12, what="forward")
    z = plan.execute(y, inverse=True)
    check_close(z, trig_reference("i" + transform + "n", y, type, norm), c=12, what="inverse")
    check_close(z, x, c=12, what="round trip")
    plan.execute(x, out=x)
    check_close(x, trig_reference(transform + "n", saved, type, norm), c=12, what="in place")


def test_trig_plan_single_precision(rng):
    plan = oocfft.Plan((6, 7, 8), np.float32, transform="dct", backend="host")
    x = random_real(rng, (6, 7, 8), np.float32)
    y = plan.execute(x)
    assert y.dtype == np.float32
    check_close(y, scipy.fft.dctn(x.astype(np.float64)), c=12, what="dct float32")


# ---------------------------------------------------------------- describe and report


@pytest.mark.parametrize("transform,dtype", [("fft", np.complex64), ("rfft", np.float64), ("dct", np.float32),
                                             ("dst", np.float64)])
def test_describe_names_the_backend_and_report_follows_a_run(backend, rng, transform, dtype):
    shape = (6, 7, 8)
    plan = oocfft.Plan(shape, dtype, transform=transform, backend=backend)
    assert plan.backend == backend
    text = plan.describe()
    assert isinstance(text, str) and text.strip()
    assert f"backend {backend}" in text, text
    assert plan.report is None
    x = random_array_for(rng, transform, shape, dtype)
    plan.execute(x)
    report = plan.report
    assert isinstance(report, dict)
    for key in ("strategy", "passes", "bytes_moved", "seconds", "backend", "bricks"):
        assert key in report, key
    assert report["backend"] == backend
    assert isinstance(report["strategy"], str) and report["strategy"]
    assert report["passes"] >= 1
    assert report["seconds"] >= 0 and report["bytes_moved"] >= 0
    report["strategy"] = "changed"
    assert plan.report["strategy"] != "changed", "report hands out the plan's own dict"


def random_array_for(rng, transform, shape, dtype):
    if transform == "fft":
        return random_complex(rng, shape, dtype)
    return random_real(rng, shape, dtype)


def test_report_of_an_out_of_core_run_counts_bytes(rng):
    plan = oocfft.Plan((16, 12, 10), np.complex128, backend="host", device_memory=4096)
    plan.execute(random_complex(rng, (16, 12, 10)))
    report = plan.report
    assert report["passes"] >= 2
    assert report["bytes_moved"] >= report["passes"] * 16 * 12 * 10 * 16
    assert "pass" in plan.describe()


def test_describe_mentions_the_strategy(rng):
    plan = oocfft.Plan((16, 12, 10), np.complex128, backend="host", strategy="three_pass")
    assert "three_pass" in plan.describe()


# ---------------------------------------------------------------- oocfft.empty / zeros


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(4, 5, 6), (7,), 9, (3, 1)])
def test_empty_and_zeros_shape_dtype_and_zero_fill(shape, dtype):
    for make in (oocfft.empty, oocfft.zeros):
        a = make(shape, dtype)
        assert isinstance(a, np.ndarray)
        assert a.shape == (shape if isinstance(shape, tuple) else (shape,))
        assert a.dtype == dtype
        assert a.flags.c_contiguous and a.flags.writeable and a.flags.aligned
        assert not np.any(a), f"{make.__name__} is not zero-filled"
        info = oocfft.host_memory_info(a)
        assert info is not None
        assert info["bytes"] >= a.nbytes
        assert set(info) >= {"page_locked", "huge_pages_advised", "lock_failure", "bytes"}
        if not info["page_locked"]:
            assert info["lock_failure"], "unlocked memory without a reason"


def test_empty_default_dtype_is_complex64():
    assert oocfft.empty((2, 3)).dtype == np.complex64
    assert oocfft.zeros((2, 3)).dtype == np.complex64


def test_host_memory_info_for_views_and_plain_arrays():
    a = oocfft.empty((6, 8), np.complex64)
    for view in (a[1:], a[:, ::2], a.T, a.reshape(-1), a.view(np.float32), a[2], a[1:3][::-1]):
        assert oocfft.host_memory_info(view) is not None
    assert oocfft.host_memory_info(np.zeros((6, 8), np.complex64)) is None
    assert oocfft.host_memory_info(a.copy()) is None
    assert oocfft.host_memory_info(np.ascontiguousarray(a[:, ::2])) is None
    assert oocfft.host_memory_info([1, 2]) is None


def test_empty_of_size_zero():
    a = oocfft.empty((0, 3), np.float64)
    assert a.shape == (0, 3)


def test_empty_arrays_transform_correctly(backend, rng):
    a = oocfft.zeros((8, 9, 10), np.complex128)
    a[...] = random_complex(rng, a.shape)
    saved = a.copy()
    out = oocfft.empty(a.shape, np.complex128)
    plan = oocfft.Plan(a.shape, a.dtype, backend=backend)
    plan.execute(a, out=out)
    check_close(out, np.fft.fftn(saved), what="oocfft.empty in and out")
    plan.execute(a, out=a)
    check_close(a, np.fft.fftn(saved), what="oocfft.empty in place")


def test_memory_stays_valid_while_a_view_lives():
    a = oocfft.empty((64, 1024), np.float64)
    a[...] = np.arange(a.size, dtype=np.float64).reshape(a.shape)
    view = a[10:20]
    del a
    gc.collect()
    # Other allocations that would reuse freed pages.
    junk = [np.ones((64, 1024)) * i for i in range(4)]
    assert oocfft.host_memory_info(view) is not None
    np.testing.assert_array_equal(view, np.arange(10 * 1024, 20 * 1024, dtype=np.float64).reshape(10, 1024))
    view[...] = -1.0
    assert np.all(view == -1.0)
    del junk


_VIEW_CHILD = textwrap.dedent("""
    import gc
    import numpy as np
    import oocfft

    a = oocfft.empty((256, 1024), np.complex64)
    a[...] = 1 + 2j
    view = a[100:102].reshape(2, 32, 32)
    del a
    gc.collect()
    for _ in range(20):
        oocfft.empty((256, 1024), np.complex64)[...] = 7  # map and unmap again and again
    y = oocfft.fftn(view, backend="host", overwrite_x=True)
    print(int(np.shares_memory(y, view)), abs(complex(y[0, 0, 0]) - 2048 * (1 + 2j)) < 1e-2,
          float(np.abs(y).sum() - abs(y[0, 0, 0]) - abs(y[1, 0, 0])) < 1e-2)
    del view, y
    gc.collect()
    print("DONE")
""")


def test_memory_outlives_its_name_in_a_separate_interpreter():
    done = subprocess.run([PYTHON, "-c", _VIEW_CHILD], capture_output=True, text=True, env=subprocess_env(),
                          timeout=120, cwd="/")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.split("\n")
    assert lines[0] == "1 True True", done.stdout
    assert "DONE" in done.stdout


@pytest.mark.parametrize("norm", [None, "ortho", "forward"])
def test_rfft_plan_norms(rng, norm):
    plan = oocfft.Plan((6, 7, 9), np.float64, transform="rfft", norm=norm, backend="host")
    x = random_real(rng, (6, 7, 9))
    spectrum = plan.execute(x)
    check_close(spectrum, np.fft.rfftn(x, norm=norm), what="rfft plan forward")
    check_close(plan.execute(spectrum, inverse=True), np.fft.irfftn(spectrum, s=x.shape, axes=last_axes(x.shape), norm=norm),
                what="rfft plan inverse")


@pytest.mark.parametrize("shape", [(12, 10), (30,)])
@pytest.mark.parametrize("transform", ["dct", "dst"])
def test_trig_plans_of_1d_and_2d_shapes(rng, transform, shape):
    plan = oocfft.Plan(shape, np.float64, transform=transform, backend="host")
    x = random_real(rng, shape)
    y = plan.execute(x)
    assert y.shape == shape
    check_close(y, trig_reference(transform + "n", x), c=12, what=f"{transform} plan of {shape}")
    check_close(plan.execute(y, inverse=True), x, c=12, what="round trip")


def test_large_results_live_in_prefaulted_pageable_host_memory(rng):
    # 64 MiB and more: the result is HostArray memory (huge pages, touched by
    # all cores, not locked) and equals the in-place transform bit for bit.
    x = (rng.uniform(-0.5, 0.5, (128, 256, 256)) + 1j * rng.uniform(-0.5, 0.5, (128, 256, 256))).astype(np.complex64)
    y = oocfft.fftn(x, backend="host")
    info = oocfft.host_memory_info(y)
    assert info is not None and info["page_locked"] is False, info
    in_place = x.copy()
    oocfft.fftn(in_place, overwrite_x=True, backend="host")
    assert np.array_equal(y, in_place)
    small = oocfft.fftn(x[:4, :8, :8], backend="host")
    assert oocfft.host_memory_info(small) is None
