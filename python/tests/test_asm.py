"""oocfft.asm against a numpy implementation of the angular spectrum method.

U(z) = IFFT2[ FFT2[U0] * H(z) ],
H(fx, fy; z) = exp(i 2 pi z sqrt((n/lambda)^2 - fx^2 - fy^2)) where the root is real;
beyond n/lambda: exp(-2 pi |z| sqrt(fx^2 + fy^2 - (n/lambda)^2)) ('decay') or 0 ('zero');
fx, fy on numpy's fftfreq grid of the (padded) field with the pitches
(python/oocfft/asm.py, include/oocfft/asm.hpp). pad=2 centres the field in a
plane twice its size and crops it back (optics/plane_store.hpp); the band
limit keeps |f| < (n/lambda) / sqrt((2 df z)^2 + 1) along each axis, df the
padded grid's frequency step (optics/transfer_function.hpp).
A layer sum is the sum of the layers each propagated by its own distance:
layer j lies at distances[j] and the hologram is the field at z = 0
(tests/test_asm.cpp, StacksMatchSinglePropagations).
"""
import importlib.util
import math

import numpy as np
import pytest

import oocfft
from oocfft import asm

from conftest import check_close, eps, poisoned, random_complex, random_real, relative_l2, tolerance

LAMBDA = 0.5e-6
PITCH = 2e-6  # Nyquist 2.5e5 / m << 1 / lambda: every grid frequency propagates


def asm_reference(field, z, *, wavelength, pitch, pitch_y=None, index=1.0, band_limit=True, evanescent="decay",
                  pad=2):
    """The field (ny, nx) propagated by z, in float64 with numpy."""
    field = np.asarray(field, dtype=np.complex128)
    ny, nx = field.shape
    pitch_y = pitch if pitch_y is None else pitch_y
    big_y, big_x = ny * pad, nx * pad
    oy, ox = (big_y - ny) // 2, (big_x - nx) // 2
    padded = np.zeros((big_y, big_x), np.complex128)
    padded[oy:oy + ny, ox:ox + nx] = field
    fx = np.fft.fftfreq(big_x, pitch)[None, :]
    fy = np.fft.fftfreq(big_y, pitch_y)[:, None]
    k = index / wavelength
    w = k * k - fx * fx - fy * fy
    propagating = w >= 0
    h = np.where(propagating, np.exp(2j * np.pi * z * np.sqrt(np.where(propagating, w, 0.0))), 0)
    if evanescent == "decay":
        h = np.where(propagating, h, np.exp(-2 * np.pi * abs(z) * np.sqrt(np.where(propagating, 0.0, -w))))
    if band_limit:
        edge_x = k / math.sqrt((2 * z / (big_x * pitch)) ** 2 + 1)
        edge_y = k / math.sqrt((2 * z / (big_y * pitch_y)) ** 2 + 1)
        h = np.where((np.abs(fx) >= edge_x) | (np.abs(fy) >= edge_y), 0, h)
    return np.fft.ifft2(np.fft.fft2(padded) * h)[oy:oy + ny, ox:ox + nx]


def check_field(got, want, z, wavelength, index=1.0, c=16.0, what=""):
    """Relative L2 within C eps sqrt(log2 N), plus the rounding of the phase 2 pi z n / lambda in double."""
    got = np.asarray(got)
    assert got.shape == want.shape, what
    assert np.all(np.isfinite(got)), what
    phase = 2 * math.pi * abs(z) * index / wavelength
    tol = tolerance(got.dtype, want.size, c) + 8 * eps(np.float64) * phase
    err = relative_l2(got, want)
    assert err <= tol, f"{what}: relative L2 error {err:.3e} > {tol:.3e}"


# ---------------------------------------------------------------- propagate against the reference


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("z", [1e-4, -3e-4, 2e-3, 0.0])
@pytest.mark.parametrize("shape", [(24, 20), (17, 31), (32, 32), (1, 16)])
def test_propagate_pad1_without_band_limit(backend, rng, shape, z, dtype):
    field = random_complex(rng, shape, dtype)
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False)
    got = asm.propagate(field, z, backend=backend, **options)
    assert got.dtype == dtype and got.shape == shape
    check_field(got, asm_reference(field, z, **options), z, LAMBDA, what=f"z={z}")


@pytest.mark.parametrize("evanescent", ["zero", "decay"])
@pytest.mark.parametrize("z", [2e-7, -5e-7, 3e-6])
def test_evanescent_waves(backend, rng, evanescent, z):
    # pitch 0.2 um with lambda 0.6 um: the grid reaches 2.5e6 / m, beyond 1 / lambda = 1.67e6 / m.
    field = random_complex(rng, (32, 24))
    options = dict(wavelength=0.6e-6, pitch=0.2e-6, pad=1, band_limit=False, evanescent=evanescent)
    got = asm.propagate(field, z, backend=backend, **options)
    want = asm_reference(field, z, **options)
    check_field(got, want, z, 0.6e-6, what=evanescent)
    other = asm_reference(field, z, **{**options, "evanescent": "decay" if evanescent == "zero" else "zero"})
    assert relative_l2(want, other) > 1e-3, "the case has no evanescent waves to tell the modes apart"


@pytest.mark.parametrize("index", [1.0, 1.5])
def test_pitch_y_and_index(backend, rng, index):
    field = random_complex(rng, (20, 28))
    options = dict(wavelength=0.633e-6, pitch=1e-6, pitch_y=1.5e-6, index=index, pad=1, band_limit=False)
    z = 4e-4
    check_field(asm.propagate(field, z, backend=backend, **options), asm_reference(field, z, **options), z, 0.633e-6,
                index, what="pitch_y, index")


@pytest.mark.parametrize("band_limit", [True, False])
@pytest.mark.parametrize("shape", [(24, 20), (15, 22)])
def test_pad2_and_the_band_limit(backend, rng, shape, band_limit):
    field = random_complex(rng, shape)
    options = dict(wavelength=0.633e-6, pitch=3e-6, pitch_y=2e-6, pad=2, band_limit=band_limit)
    for z in (1e-3, -4e-4, 2.5e-2):
        check_field(asm.propagate(field, z, backend=backend, **options), asm_reference(field, z, **options), z,
                    0.633e-6, what=f"pad 2, band limit {band_limit}, z {z}")


def test_defaults_are_pad2_band_limited_decay(rng):
    field = random_complex(rng, (16, 18))
    z = 5e-3
    got = asm.propagate(field, z, wavelength=LAMBDA, pitch=PITCH, backend="host")
    check_field(got, asm_reference(field, z, wavelength=LAMBDA, pitch=PITCH), z, LAMBDA, what="defaults")


def test_propagate_forward_then_back_returns_the_field(backend, rng):
    field = random_complex(rng, (30, 42))
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False, backend=backend)
    z = 8e-4
    there = asm.propagate(field, z, **options)
    assert relative_l2(there, field) > 1e-2
    back = asm.propagate(there, -z, **options)
    check_field(back, field, z, LAMBDA, what="P(-z) P(z)")
    # Energy is conserved when every grid frequency propagates.
    assert abs(np.vdot(there, there).real / np.vdot(field, field).real - 1) < 1e-12


def test_propagations_compose(backend, rng):
    field = random_complex(rng, (24, 30))
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False, backend=backend)
    two = asm.propagate(asm.propagate(field, 3e-4, **options), 5e-4, **options)
    check_field(two, asm.propagate(field, 8e-4, **options), 8e-4, LAMBDA, what="P(z1) P(z2) = P(z1 + z2)")


# ---------------------------------------------------------------- stacks, refocus, layer sum


def test_a_stack_with_one_distance_per_plane_and_one_for_all(backend, rng):
    stack = random_complex(rng, (3, 16, 20))
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False)
    z = [1e-4, -2e-4, 5e-4]
    got = asm.propagate(stack, z, backend=backend, **options)
    for j in range(3):
        check_field(got[j], asm_reference(stack[j], z[j], **options), z[j], LAMBDA, what=f"plane {j}")
    same = asm.propagate(stack, z[0], backend=backend, **options)
    for j in range(3):
        check_field(same[j], asm_reference(stack[j], z[0], **options), z[0], LAMBDA, what=f"plane {j}, one z")


@pytest.mark.parametrize("pad,band_limit", [(1, False), (2, True)])
def test_refocus_equals_propagate_at_each_distance(backend, rng, pad, band_limit):
    field = random_complex(rng, (24, 20))
    options = dict(wavelength=0.633e-6, pitch=3e-6, pitch_y=2e-6, pad=pad, band_limit=band_limit, backend=backend)
    distances = [1e-3, -4e-4, 2.5e-3, 0.0]
    volume = asm.refocus(field, distances, **options)
    assert volume.shape == (4, 24, 20) and volume.dtype == np.complex128
    for j, z in enumerate(distances):
        check_field(volume[j], asm.propagate(field, z, **options), z, 0.633e-6, what=f"refocus plane {j}")


@pytest.mark.parametrize("pad,band_limit", [(1, False), (2, True)])
def test_layer_sum_equals_the_sum_of_the_propagated_layers(backend, rng, pad, band_limit):
    layers = random_complex(rng, (3, 24, 20))
    options = dict(wavelength=0.633e-6, pitch=3e-6, pad=pad, band_limit=band_limit, backend=backend)
    distances = [1e-3, -4e-4, 2.5e-3]
    hologram = asm.layer_sum(layers, distances, **options)
    assert hologram.shape == (24, 20) and hologram.dtype == np.complex128
    want = sum(asm.propagate(layers[j], z, **options) for j, z in enumerate(distances))
    check_field(hologram, want, max(distances, key=abs), 0.633e-6, what="layer sum")
    if pad == 1 and not band_limit:
        reference = sum(asm_reference(layers[j], z, **{k: v for k, v in options.items() if k != "backend"})
                        for j, z in enumerate(distances))
        check_field(hologram, reference, 2.5e-3, 0.633e-6, what="layer sum against numpy")


def test_layer_sum_sign_convention(backend, rng):
    # One layer at +z: the hologram at z = 0 is that layer propagated by +z (not -z).
    layer = random_complex(rng, (1, 16, 16))
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False, backend=backend)
    z = 6e-4
    hologram = asm.layer_sum(layer, [z], **options)
    check_field(hologram, asm.propagate(layer[0], z, **options), z, LAMBDA, what="one layer")
    assert relative_l2(hologram, asm.propagate(layer[0], -z, **options)) > 1e-2


# ---------------------------------------------------------------- real fields, precision, memory


@pytest.mark.parametrize("precision", [(np.float32, np.complex64), (np.float64, np.complex128)])
def test_real_input_equals_the_complex_input_with_zero_imaginary_part(backend, rng, precision):
    real, complex_type = precision
    options = dict(wavelength=0.633e-6, pitch=3e-6, backend=backend)
    field = random_real(rng, (16, 20), real)
    widened = field.astype(complex_type)
    got = asm.propagate(field, 1e-3, **options)
    assert got.dtype == complex_type
    check_close(got, asm.propagate(widened, 1e-3, **options), dtype=complex_type, c=16, what="propagate")
    stack = random_real(rng, (2, 16, 20), real)
    check_close(asm.propagate(stack, [1e-3, 2e-3], **options),
                asm.propagate(stack.astype(complex_type), [1e-3, 2e-3], **options), c=16, what="stack")
    check_close(asm.refocus(field, [1e-3, -1e-3], **options), asm.refocus(widened, [1e-3, -1e-3], **options), c=16,
                what="refocus")
    check_close(asm.layer_sum(stack, [1e-3, 2e-3], **options),
                asm.layer_sum(stack.astype(complex_type), [1e-3, 2e-3], **options), c=16, what="layer sum")


def test_real_input_is_not_written(rng):
    field = random_real(rng, (16, 20))
    saved = field.copy()
    asm.propagate(field, 1e-3, wavelength=LAMBDA, pitch=PITCH, overwrite_x=True, backend="host")
    np.testing.assert_array_equal(field, saved)


def test_single_precision_follows_double(rng):
    field = random_complex(rng, (32, 32))
    options = dict(wavelength=0.532e-6, pitch=4e-6, backend="host")
    z = 0.05  # 2 pi z / lambda = 5.9e5 radians: the phase is computed in double either way
    single = asm.propagate(field.astype(np.complex64), z, **options)
    double = asm.propagate(field, z, **options)
    assert single.dtype == np.complex64
    assert relative_l2(single, double) < 1e-5


def test_overwrite_x_propagates_in_place(backend, rng):
    field = random_complex(rng, (16, 20))
    saved = field.copy()
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False, backend=backend)
    got = asm.propagate(field, 2e-4, overwrite_x=True, **options)
    assert np.shares_memory(got, field)
    check_field(field, asm_reference(saved, 2e-4, **{k: v for k, v in options.items() if k != "backend"}), 2e-4,
                LAMBDA, what="in place")


def test_out_of_place_calls_leave_the_field(rng):
    field = random_complex(rng, (16, 20))
    stack = random_complex(rng, (2, 16, 20))
    kept = field.copy(), stack.copy()
    options = dict(wavelength=LAMBDA, pitch=PITCH, backend="host")
    assert not np.shares_memory(asm.propagate(field, 1e-3, **options), field)
    asm.refocus(field, [1e-3, 2e-3], **options)
    asm.layer_sum(stack, [1e-3, 2e-3], **options)
    asm.propagate(stack, 1e-3, **options)
    np.testing.assert_array_equal(field, kept[0])
    np.testing.assert_array_equal(stack, kept[1])


def test_non_contiguous_fields(rng):
    base = random_complex(rng, (32, 40))
    options = dict(wavelength=LAMBDA, pitch=PITCH, pad=1, band_limit=False)
    for field in (base[::2, ::2], base.T, np.asfortranarray(base)):
        check_field(asm.propagate(field, 3e-4, backend="host", **options), asm_reference(field, 3e-4, **options),
                    3e-4, LAMBDA, what="strided field")


def test_out_of_core_budgets(rng):
    stack = random_complex(rng, (4, 24, 20))
    options = dict(wavelength=0.633e-6, pitch=3e-6)
    z = [1e-3, 2e-3, -1e-3, 5e-4]
    want = asm.propagate(stack, z, backend="host", **options)
    for strategy, budget in [("auto", 8192), ("three_pass", 8192), ("auto", 65536)]:
        got = asm.propagate(stack, z, backend="host", strategy=strategy, device_memory=budget, **options)
        check_close(got, want, c=16, what=f"{strategy} {budget}")


def test_progress_counts_planes(rng):
    field = random_complex(rng, (16, 16))
    calls = []
    asm.refocus(field, [1e-4, 2e-4, 3e-4, 4e-4], wavelength=LAMBDA, pitch=1e-6, pad=1, backend="host",
                progress=lambda d, t: calls.append((d, t)))
    assert calls == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_a_raising_progress_callable_stops_and_leaves_the_field(rng):
    field = random_complex(rng, (16, 16))
    stack = random_complex(rng, (4, 16, 16))
    kept = field.copy(), stack.copy()
    calls = []

    def progress(done, total):
        calls.append(done)
        raise KeyError("stop")

    options = dict(wavelength=LAMBDA, pitch=PITCH, backend="host", progress=progress)
    with pytest.raises(KeyError):
        asm.refocus(field, [1e-4, 2e-4, 3e-4], **options)
    assert calls == [1]
    with pytest.raises(KeyError):
        asm.propagate(stack, [1e-4, 2e-4, 3e-4, 4e-4], **options)
    with pytest.raises(KeyError):
        asm.layer_sum(stack, [1e-4, 2e-4, 3e-4, 4e-4], **options)
    np.testing.assert_array_equal(field, kept[0])
    np.testing.assert_array_equal(stack, kept[1])


# ---------------------------------------------------------------- datasets


h5py_or_skip = pytest.mark.skipif(
    importlib.util.find_spec("h5py") is None, reason="h5py is not installed")


@h5py_or_skip
def test_dataset_mode(backend, tmp_path, rng):
    import h5py

    path = tmp_path / "fields.h5"
    field = random_complex(rng, (20, 18))
    layers = random_complex(rng, (3, 20, 18))
    intensity = random_real(rng, (20, 18))
    with h5py.File(path, "w") as f:
        f["field"] = field
        f["layers"] = layers
        f["intensity"] = intensity
    options = dict(wavelength=0.633e-6, pitch=3e-6, pitch_y=2e-6, backend=backend)
    z = [1e-3, -4e-4, 2.5e-3]

    report = asm.propagate(f"{path}:/field", 1e-3, out=f"{path}:/propagated", **options)
    assert isinstance(report, dict) and report["output_shape"][-2:] == (20, 18)
    asm.refocus(f"{path}:/field", z, out=f"{path}:/volume", **options)
    asm.layer_sum(f"{path}:/layers", z, out=f"{path}:/hologram", **options)
    asm.propagate(f"{path}:/layers", z, out=f"{path}:/stack", **options)
    asm.propagate(f"{path}:/intensity", 1e-3, out=f"{path}:/from_real", **options)
    with h5py.File(path, "r") as f:
        check_close(f["propagated"][()], asm.propagate(field, 1e-3, **options), c=16, what="propagate dataset")
        assert f["volume"].shape == (3, 20, 18)
        check_close(f["volume"][()], asm.refocus(field, z, **options), c=16, what="refocus dataset")
        assert f["hologram"].shape == (20, 18)
        check_close(f["hologram"][()], asm.layer_sum(layers, z, **options), c=16, what="layer_sum dataset")
        check_close(f["stack"][()], asm.propagate(layers, z, **options), c=16, what="stack dataset")
        check_close(f["from_real"][()], asm.propagate(intensity, 1e-3, **options), c=16, what="real dataset")
        np.testing.assert_array_equal(f["field"][()], field)
        np.testing.assert_array_equal(f["layers"][()], layers)

    asm.propagate(f"{path}:/layers", z, in_place=True, **options)
    with h5py.File(path, "r") as f:
        check_close(f["layers"][()], asm.propagate(layers, z, **options), c=16, what="in place dataset")


@h5py_or_skip
def test_dataset_mode_refuses_an_existing_output(tmp_path, rng):
    import h5py

    path = tmp_path / "fields.h5"
    field = random_complex(rng, (8, 8))
    with h5py.File(path, "w") as f:
        f["field"] = field
        f["taken"] = np.arange(4)
    with pytest.raises(oocfft.Error):
        asm.propagate(f"{path}:/field", 1e-3, out=f"{path}:/taken", wavelength=LAMBDA, pitch=PITCH, backend="host")
    with pytest.raises(oocfft.InvalidArgumentError):
        asm.propagate(f"{path}:/field", 1e-3, wavelength=LAMBDA, pitch=PITCH, backend="host")  # no out
    with h5py.File(path, "r") as f:
        assert sorted(f.keys()) == ["field", "taken"]
        np.testing.assert_array_equal(f["taken"][()], np.arange(4))
        np.testing.assert_array_equal(f["field"][()], field)


@pytest.mark.parametrize("function", ["propagate", "refocus", "layer_sum"])
def test_out_with_an_array_field_is_written_or_refused_never_ignored(rng, function):
    # out= names the output dataset of a dataset field; given with an array
    # field it must either receive the result or be refused.
    options = dict(wavelength=LAMBDA, pitch=PITCH, backend="host")
    if function == "propagate":
        field, z, shape = random_complex(rng, (16, 20)), 1e-3, (16, 20)
    elif function == "refocus":
        field, z, shape = random_complex(rng, (16, 20)), [1e-3, 2e-3], (2, 16, 20)
    else:
        field, z, shape = random_complex(rng, (2, 16, 20)), [1e-3, 2e-3], (16, 20)
    want = getattr(asm, function)(field, z, **options)
    out = poisoned(shape, np.complex128)
    try:
        got = getattr(asm, function)(field, z, out=out, **options)
    except oocfft.InvalidArgumentError:
        pass
    else:
        assert np.shares_memory(got, out), f"{function}(out=array) ignored out and returned a new array"
        check_close(out, want, c=16, what=f"{function} into out")
    with pytest.raises(oocfft.InvalidArgumentError):
        getattr(asm, function)(field, z, out="nowhere.h5:/result", **options)


@h5py_or_skip
def test_dataset_in_place_refuses_another_output(tmp_path, rng):
    import h5py

    path = tmp_path / "f.h5"
    with h5py.File(path, "w") as f:
        f["field"] = random_complex(rng, (8, 8))
    before = path.read_bytes()
    with pytest.raises(oocfft.InvalidArgumentError, match="in_place"):
        asm.propagate(f"{path}:/field", 1e-3, wavelength=LAMBDA, pitch=PITCH, in_place=True,
                      out=f"{tmp_path / 'other.h5'}:/y", backend="host")
    assert path.read_bytes() == before
    assert not (tmp_path / "other.h5").exists()
