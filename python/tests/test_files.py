"""oocfft.transform_dataset and inspect_dataset on HDF5 files written and read with h5py."""
import signal
import subprocess

import numpy as np
import pytest
import scipy.fft

import oocfft

from conftest import PYTHON, check_close, random_complex, random_real, subprocess_env, trig_reference

h5py = pytest.importorskip("h5py", reason="h5py is not installed")


def _write(path, **datasets):
    with h5py.File(path, "a") as f:
        for name, data in datasets.items():
            f[name] = data


def _read(path, name):
    with h5py.File(path, "r") as f:
        return f[name][()]


def _names(path):
    with h5py.File(path, "r") as f:
        return sorted(f.keys())


@pytest.fixture
def volume(rng):
    return random_complex(rng, (6, 8, 10))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_fft_forward_and_inverse_round_trip(backend, tmp_path, rng, dtype):
    x = random_complex(rng, (6, 8, 10), dtype)
    path = tmp_path / "a.h5"
    _write(path, x=x)
    report = oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend=backend)
    assert isinstance(report, dict)
    assert report["output_shape"] == (6, 8, 10)
    assert report["run"]["backend"] == backend
    with h5py.File(path, "r") as f:
        assert f["X"].dtype == dtype  # h5py's complex: a compound of r and i
        assert f["X"].shape == (6, 8, 10)
        spectrum = f["X"][()]
    check_close(spectrum, np.fft.fftn(x.astype(np.complex128)), what="transform_dataset forward")
    oocfft.transform_dataset(f"{path}:/X", f"{tmp_path}/b.h5:/back", inverse=True, backend=backend)
    back = _read(tmp_path / "b.h5", "back")
    check_close(back, np.fft.ifftn(spectrum.astype(np.complex128)), what="transform_dataset inverse")
    check_close(back, x, c=12, what="round trip")
    np.testing.assert_array_equal(_read(path, "x"), x)


@pytest.mark.parametrize("norm", ["ortho", "forward"])
def test_fft_norms(tmp_path, volume, norm):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", norm=norm, backend="host")
    check_close(_read(path, "X"), np.fft.fftn(volume, norm=norm), what=f"norm {norm}")


def test_real_input_is_transformed_to_complex(tmp_path, rng):
    r = random_real(rng, (5, 6, 7))
    path = tmp_path / "a.h5"
    _write(path, r=r)
    oocfft.transform_dataset(f"{path}:/r", f"{path}:/R", backend="host")
    with h5py.File(path, "r") as f:
        assert f["R"].dtype.kind == "c"
        check_close(f["R"][()], np.fft.fftn(r), what="fft of a real dataset")


def test_2d_dataset(tmp_path, rng):
    x = random_complex(rng, (12, 10))
    path = tmp_path / "a.h5"
    _write(path, x=x)
    oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend="host")
    check_close(_read(path, "X"), np.fft.fftn(x), what="2-D dataset")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(6, 8, 10), (6, 8, 9)])
def test_rfft_and_its_inverse(backend, tmp_path, rng, shape, dtype):
    r = random_real(rng, shape, dtype)
    path = tmp_path / "a.h5"
    _write(path, r=r)
    oocfft.transform_dataset(f"{path}:/r", f"{path}:/R", transform="rfft", backend=backend)
    with h5py.File(path, "r") as f:
        assert f["R"].dtype == (np.complex64 if dtype == np.float32 else np.complex128)
        spectrum = f["R"][()]
    check_close(spectrum, np.fft.rfftn(r.astype(np.float64)), what="rfft dataset")
    oocfft.transform_dataset(f"{path}:/R", f"{path}:/back", transform="rfft", inverse=True, backend=backend)
    with h5py.File(path, "r") as f:
        assert f["back"].dtype == dtype and f["back"].shape == shape
        back = f["back"][()]
    check_close(back, r, c=12, what="irfft dataset (the real length recorded by the forward run)")


def test_irfft_of_a_foreign_half_spectrum_needs_real_nx(tmp_path, rng):
    r = random_real(rng, (6, 8, 9))
    path = tmp_path / "a.h5"
    _write(path, R=np.fft.rfftn(r))  # written by numpy, not oocfft: no recorded length
    oocfft.transform_dataset(f"{path}:/R", f"{path}:/back", transform="rfft", inverse=True, real_nx=9,
                             backend="host")
    check_close(_read(path, "back"), r, c=12, what="irfft with real_nx")


@pytest.mark.parametrize("type", [2, 3])
@pytest.mark.parametrize("transform", ["dct", "dst"])
def test_dct_and_dst_with_norm_ortho(backend, tmp_path, rng, transform, type):
    r = random_real(rng, (6, 8, 9))
    path = tmp_path / "a.h5"
    _write(path, r=r)
    oocfft.transform_dataset(f"{path}:/r", f"{path}:/D", transform=transform, type=type, norm="ortho",
                             backend=backend)
    with h5py.File(path, "r") as f:
        assert f["D"].dtype == np.float64
        d = f["D"][()]
    check_close(d, trig_reference(transform + "n", r, type, "ortho"), c=12, what=f"{transform} type {type}")
    oocfft.transform_dataset(f"{path}:/D", f"{path}:/back", transform=transform, type=type, norm="ortho",
                             inverse=True, backend=backend)
    check_close(_read(path, "back"), r, c=12, what="inverse")


def test_dct_default_norm_against_scipy(tmp_path, rng):
    r = random_real(rng, (6, 8, 9), np.float32)
    path = tmp_path / "a.h5"
    _write(path, r=r)
    oocfft.transform_dataset(f"{path}:/r", f"{path}:/D", transform="dct", backend="host")
    with h5py.File(path, "r") as f:
        assert f["D"].dtype == np.float32
        check_close(f["D"][()], scipy.fft.dctn(r.astype(np.float64)), dtype=np.float32, c=12, what="dct float32")


def test_an_existing_output_is_refused_and_the_input_untouched(tmp_path, volume):
    path = tmp_path / "a.h5"
    occupant = np.arange(6.0)
    _write(path, x=volume, X=occupant)
    with pytest.raises(oocfft.Error) as info:
        oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend="host")
    assert "exists" in str(info.value)
    np.testing.assert_array_equal(_read(path, "x"), volume)
    np.testing.assert_array_equal(_read(path, "X"), occupant)
    assert _names(path) == ["X", "x"], "a temporary dataset was left behind"


def test_a_failed_run_leaves_no_output(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    with pytest.raises(oocfft.Error):
        oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend="host", device_memory=16)
    assert _names(path) == ["x"]
    np.testing.assert_array_equal(_read(path, "x"), volume)


def test_a_raising_progress_callable_leaves_no_output(tmp_path, rng):
    x = random_complex(rng, (16, 12, 10))
    path = tmp_path / "a.h5"
    _write(path, x=x)

    def progress(done, total):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend="host", device_memory=4096, progress=progress)
    assert _names(path) == ["x"]
    np.testing.assert_array_equal(_read(path, "x"), x)


@pytest.mark.parametrize("transform", ["fft", "dct"])
def test_in_place_replaces_the_input(backend, tmp_path, rng, transform):
    path = tmp_path / "a.h5"
    if transform == "fft":
        x = random_complex(rng, (6, 8, 10))
        want = np.fft.fftn(x)
    else:
        x = random_real(rng, (6, 8, 10))
        want = scipy.fft.dctn(x)
    _write(path, x=x, other=np.arange(3))
    oocfft.transform_dataset(f"{path}:/x", transform=transform, in_place=True, backend=backend)
    assert _names(path) == ["other", "x"]
    check_close(_read(path, "x"), want, c=12, what="in place")
    np.testing.assert_array_equal(_read(path, "other"), np.arange(3))


def test_in_place_with_the_same_output_path(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    oocfft.transform_dataset(f"{path}:/x", f"{path}:/x", in_place=True, backend="host")
    check_close(_read(path, "x"), np.fft.fftn(volume), what="in place, output named")


def test_in_place_with_another_output_is_refused(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    with pytest.raises(oocfft.InvalidArgumentError):
        oocfft.transform_dataset(f"{path}:/x", f"{path}:/y", in_place=True, backend="host")
    np.testing.assert_array_equal(_read(path, "x"), volume)


def test_no_output_without_in_place_is_refused(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    with pytest.raises(oocfft.InvalidArgumentError):
        oocfft.transform_dataset(f"{path}:/x", backend="host")
    assert _names(path) == ["x"]


def test_output_in_a_group_and_another_file(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)
    with h5py.File(tmp_path / "b.h5", "w") as f:
        f.create_group("results")
    oocfft.transform_dataset(path.as_posix() + ":/x", f"{tmp_path}/b.h5:/results/X", backend="host")
    check_close(_read(tmp_path / "b.h5", "results/X"), np.fft.fftn(volume), what="into a group")


def test_a_budget_smaller_than_the_volume_streams(tmp_path, rng):
    x = random_complex(rng, (32, 16, 16))  # 128 KiB
    path = tmp_path / "a.h5"
    _write(path, x=x)
    report = oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", host_memory="64KiB", backend="host")
    check_close(_read(path, "X"), np.fft.fftn(x), what="streamed")
    assert report["host_memory_budget"] == 64 * 1024


def test_progress_of_a_dataset_transform(tmp_path, rng):
    x = random_complex(rng, (16, 12, 10))
    path = tmp_path / "a.h5"
    _write(path, x=x)
    calls = []
    oocfft.transform_dataset(f"{path}:/x", f"{path}:/X", backend="host", device_memory=4096,
                             progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1]


def test_inspect_dataset(tmp_path, rng):
    path = tmp_path / "a.h5"
    x = random_complex(rng, (6, 8, 10))
    with h5py.File(path, "w") as f:
        f["x"] = x
        f.create_dataset("chunked", data=random_real(rng, (4, 6, 8), np.float32), chunks=(2, 3, 4))
        f["plane"] = random_complex(rng, (5, 7), np.complex64)
    info = oocfft.inspect_dataset(f"{path}:/x")
    assert isinstance(info, dict)
    assert info["dims"] == [6, 8, 10]
    assert info["shape"] == (6, 8, 10)
    assert info["dtype"] == "complex128"
    assert info["precision"] == "double"
    assert info["element"] == "complex_compound"
    assert info["path"].endswith(":/x")
    assert info["fully_allocated"] is True
    chunked = oocfft.inspect_dataset(f"{path}:/chunked")
    assert chunked["dims"] == [4, 6, 8]
    assert chunked["chunks"] == [2, 3, 4]
    assert chunked["element"] == "real" and chunked["precision"] == "single"
    assert chunked["chunks_in_all"] == 8
    plane = oocfft.inspect_dataset(f"{path}:/plane")
    assert plane["dims"] == [5, 7] and plane["dtype"] == "complex64"
    assert plane["shape"][-2:] == (5, 7)


def test_paths_may_be_pathlike_for_the_output(tmp_path, volume):
    path = tmp_path / "a.h5"
    _write(path, x=volume)

    class Spelled:
        def __fspath__(self):
            return f"{path}:/X"

    oocfft.transform_dataset(f"{path}:/x", Spelled(), backend="host")
    check_close(_read(path, "X"), np.fft.fftn(volume), what="os.PathLike output")


@pytest.mark.parametrize("shape", [(12, 10), (30,)])
@pytest.mark.parametrize("transform", ["dct", "dst"])
def test_dct_and_dst_of_1d_and_2d_datasets(tmp_path, rng, transform, shape):
    r = random_real(rng, shape)
    path = tmp_path / "a.h5"
    _write(path, r=r)
    oocfft.transform_dataset(f"{path}:/r", f"{path}:/D", transform=transform, backend="host")
    d = _read(path, "D")
    assert d.shape == shape
    check_close(d, trig_reference(transform + "n", r), c=12, what=f"{transform} of a {len(shape)}-D dataset")


_INTERRUPTED_DATASET_CHILD = """
import sys, time
import oocfft

started = [False]

def progress(done, total):
    if not started[0]:
        started[0] = True
        print("STARTED", total, flush=True)
    time.sleep(0.001)

try:
    oocfft.transform_dataset(sys.argv[1] + ":/x", sys.argv[1] + ":/X", backend="host", workers=1,
                             device_memory=16384, progress=progress)
except KeyboardInterrupt:
    print("STOPPED", flush=True)
    raise
print("FINISHED", flush=True)
"""


def test_ctrl_c_leaves_the_input_and_no_output(tmp_path, rng):
    x = random_complex(rng, (64, 64, 64), np.complex64)
    path = tmp_path / "big.h5"
    _write(path, x=x)
    child = subprocess.Popen([PYTHON, "-c", _INTERRUPTED_DATASET_CHILD, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=subprocess_env(), cwd="/")
    try:
        first = child.stdout.readline()
        assert first.startswith("STARTED"), first + child.stderr.read()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode != 0 and "KeyboardInterrupt" in err, out + err
    assert "STOPPED" in out and "FINISHED" not in out
    assert _names(path) == ["x"], "an output (or a temporary dataset) was left behind"
    np.testing.assert_array_equal(_read(path, "x"), x)


def test_describe_dataset_transform(tmp_path, rng):
    path = tmp_path / "d.h5"
    with h5py.File(path, "w") as f:
        f["x"] = random_complex(rng, (6, 8, 10))
        f["r"] = random_real(rng, (6, 8, 10), np.float32)
    before = path.read_bytes()
    text = oocfft.describe_dataset_transform(f"{path}:/x", backend="host", host_memory="1MiB")
    assert "/x" in text and "6 x 8 x 10" in text, text
    real = oocfft.describe_dataset_transform(f"{path}:/r", transform="rfft", backend="host")
    assert "6 x 8 x 6" in real, real  # the half spectrum
    assert path.read_bytes() == before, "describing wrote to the file"
    with pytest.raises(oocfft.FileError):
        oocfft.describe_dataset_transform(f"{tmp_path / 'none.h5'}:/x", backend="host")
    with pytest.raises(oocfft.InvalidArgumentError):
        oocfft.describe_dataset_transform(f"{path}:/x", transform="dct")
