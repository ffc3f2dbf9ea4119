"""How calls behave around the numbers: memory (zero-copy, copies, inputs
left alone), the GIL, Ctrl-C, resident memory over many calls, and progress.
"""
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
import scipy.fft

import oocfft

from conftest import PYTHON, check_close, random_complex, random_real, subprocess_env, trig_reference

# ---------------------------------------------------------------- zero copy and copies


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("function,reference", [
    (oocfft.fftn, np.fft.fftn), (oocfft.ifftn, np.fft.ifftn), (oocfft.fft2, np.fft.fft2), (oocfft.ifft2, np.fft.ifft2),
])
def test_overwrite_x_transforms_in_place_without_a_copy(backend, rng, function, reference, dtype):
    shapes = [(6, 10, 12), (10, 12)] + ([(30,)] if function in (oocfft.fftn, oocfft.ifftn) else [])
    for shape in shapes:
        x = random_complex(rng, shape, dtype)
        want = reference(x.astype(np.complex128))
        y = function(x, overwrite_x=True, backend=backend)
        assert np.shares_memory(x, y), f"{function.__name__} {shape}: overwrite_x=True copied"
        assert y.shape == shape and y.dtype == dtype
        check_close(y, want, what=function.__name__)
        check_close(x, want, what=f"{function.__name__}: x itself")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["dctn", "idctn", "dstn", "idstn"])
def test_overwrite_x_real_transforms_in_place(backend, rng, name, dtype):
    x = random_real(rng, (6, 7, 8), dtype)
    want = trig_reference(name, x)
    y = getattr(oocfft, name)(x, overwrite_x=True, backend=backend)
    assert np.shares_memory(x, y)
    check_close(y, want, c=12, what=name)


def test_overwrite_x_on_an_oocfft_empty_array(backend, rng):
    x = oocfft.empty((8, 9, 10), np.complex64)
    x[...] = random_complex(rng, x.shape, np.complex64)
    want = np.fft.fftn(x.astype(np.complex128))
    y = oocfft.fftn(x, overwrite_x=True, backend=backend)
    assert np.shares_memory(x, y)
    check_close(y, want, what="fftn on oocfft.empty memory")


def test_overwrite_x_on_a_contiguous_view_transforms_the_view_in_place(backend, rng):
    base = random_complex(rng, (4, 6, 8))
    saved = base.copy()
    view = base[1]  # C-contiguous (6, 8)
    y = oocfft.fft2(view, overwrite_x=True, backend=backend)
    assert np.shares_memory(y, base)
    check_close(base[1], np.fft.fft2(saved[1]), what="the plane in place")
    np.testing.assert_array_equal(base[0], saved[0])
    np.testing.assert_array_equal(base[2:], saved[2:])


@pytest.mark.parametrize("x_of", [
    lambda a: a.real.copy(),                                # real input becomes complex: a copy
    lambda a: a[:, ::2, :],                                 # strided
    lambda a: np.asfortranarray(a),                         # another order
    lambda a: a.astype(">c16"),                             # another byte order
], ids=["real", "strided", "fortran", "big-endian"])
def test_overwrite_x_copies_what_it_cannot_use_and_leaves_it(backend, rng, x_of):
    x = x_of(random_complex(rng, (6, 10, 12)))
    saved = x.copy()
    y = oocfft.fftn(x, overwrite_x=True, backend=backend)
    check_close(y, np.fft.fftn(saved), what="fftn")
    assert not np.shares_memory(x, y)
    np.testing.assert_array_equal(x, saved)


def test_non_contiguous_input_is_copied_and_untouched(backend, rng):
    base = random_complex(rng, (8, 12, 10))
    saved = base.copy()
    x = base[::2, 1:, ::3]
    assert not x.flags.c_contiguous
    y = oocfft.fftn(x, backend=backend)
    check_close(y, np.fft.fftn(saved[::2, 1:, ::3]), what="fftn of a strided view")
    assert not np.shares_memory(y, base)
    np.testing.assert_array_equal(base, saved)


OUT_OF_PLACE = {
    "fftn": lambda x, b: oocfft.fftn(x, backend=b),
    "ifftn": lambda x, b: oocfft.ifftn(x, backend=b),
    "fft2": lambda x, b: oocfft.fft2(x, backend=b),
    "ifft2": lambda x, b: oocfft.ifft2(x, backend=b),
    "fftn s": lambda x, b: oocfft.fftn(x, s=(4, 5, 6), backend=b),
    "fftn overwrite_x with s": lambda x, b: oocfft.fftn(x, s=(8, 9, 10), overwrite_x=True, backend=b),
    "fftn out of core": lambda x, b: oocfft.fftn(x, device_memory=4096, backend=b),
}
REAL_OUT_OF_PLACE = {
    "rfftn": lambda x, b: oocfft.rfftn(x, backend=b),
    "rfftn overwrite_x": lambda x, b: oocfft.rfftn(x, overwrite_x=True, backend=b),
    "dctn": lambda x, b: oocfft.dctn(x, backend=b),
    "idctn": lambda x, b: oocfft.idctn(x, type=3, backend=b),
    "dstn": lambda x, b: oocfft.dstn(x, backend=b),
    "idstn": lambda x, b: oocfft.idstn(x, backend=b),
    "dctn out of core": lambda x, b: oocfft.dctn(x, device_memory=4096, strategy="three_pass", backend=b),
}


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("name", OUT_OF_PLACE)
def test_out_of_place_calls_leave_the_input(backend, rng, name, dtype):
    x = random_complex(rng, (6, 7, 8), dtype)
    saved = x.copy()
    y = OUT_OF_PLACE[name](x, backend)
    assert not np.shares_memory(x, y)
    np.testing.assert_array_equal(x, saved)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", REAL_OUT_OF_PLACE)
def test_out_of_place_real_calls_leave_the_input(backend, rng, name, dtype):
    x = random_real(rng, (6, 7, 8), dtype)
    saved = x.copy()
    y = REAL_OUT_OF_PLACE[name](x, backend)
    assert not np.shares_memory(x, y)
    np.testing.assert_array_equal(x, saved)


def test_irfftn_leaves_the_half_spectrum(backend, rng):
    spectrum = random_complex(rng, (6, 7, 5))
    saved = spectrum.copy()
    for s in [None, (6, 7, 9), (6, 7, 8)]:
        oocfft.irfftn(spectrum, s=s, backend=backend)
        oocfft.irfftn(spectrum, s=s, overwrite_x=True, backend=backend)
        np.testing.assert_array_equal(spectrum, saved)


def test_read_only_input_without_overwrite_is_fine(backend, rng):
    x = random_complex(rng, (5, 6, 7))
    x.flags.writeable = False
    check_close(oocfft.fftn(x, backend=backend), np.fft.fftn(x), what="fftn of a read-only array")
    r = random_real(rng, (5, 6, 7))
    r.flags.writeable = False
    check_close(oocfft.rfftn(r, backend=backend), np.fft.rfftn(r), what="rfftn of a read-only array")
    check_close(oocfft.dctn(r, backend=backend), scipy.fft.dctn(r), c=12, what="dctn of a read-only array")


# ---------------------------------------------------------------- the GIL


def test_the_gil_is_released_while_a_transform_runs(rng):
    """Another Python thread makes progress during a transform.

    The switch interval is raised to a second, so that a thread holding the
    GIL is never made to hand it over within the call: the counter thread
    (which gives the GIL up at every step, time.sleep(0)) can only advance
    while the main thread has released it. The plan is built first and runs
    in place, so the call makes no copy that numpy could run without the GIL.
    """
    x = random_complex(rng, (128, 128, 128))
    plan = oocfft.Plan(x.shape, x.dtype, backend="host", workers=1, device_memory=16384)
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1
            time.sleep(0)

    old = sys.getswitchinterval()
    thread = threading.Thread(target=counter)
    try:
        sys.setswitchinterval(1.0)
        thread.start()
        while count[0] == 0:
            time.sleep(0.001)
        # Control: a pure Python loop of the main thread holds the GIL.
        before_loop = count[0]
        total = 0
        for i in range(200_000):
            total += i
        held = count[0] - before_loop
        before = count[0]
        plan.execute(x, out=x)
        during = count[0] - before
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(old)
    assert held < 10, f"control: the counter advanced {held} times while the main thread held the GIL"
    assert during >= 100, f"the counter advanced only {during} times during the transform"
    assert plan.report["bricks"] > 100


# ---------------------------------------------------------------- Ctrl-C


_INTERRUPTED_CHILD = textwrap.dedent("""
    import sys, time
    import numpy as np
    import oocfft

    x = np.random.default_rng(1).uniform(-0.5, 0.5, (128, 128, 128)).astype(np.complex128)
    saved = x.copy()
    last = [0, 0]

    def progress(done, total):
        if last[0] == 0:
            print("STARTED", total, flush=True)
        last[:] = [done, total]
        time.sleep(0.0005)  # long enough to interrupt: about 12 s for the whole run

    try:
        oocfft.{call}
    except KeyboardInterrupt:
        print("STOPPED", last[0], last[1], bool(np.array_equal(x, saved)), flush=True)
        raise
    print("FINISHED", last[0], last[1], flush=True)
""")

_INTERRUPTED_CALLS = {
    "fftn": "fftn(x, backend='host', workers=1, device_memory=16384, progress=progress)",
    "dctn": "dctn(x.real.copy(), backend='host', workers=1, device_memory=8192, progress=progress)",
    "plan": "Plan(x.shape, x.dtype, backend='host', workers=1, device_memory=16384).execute(x, progress=progress)",
}


@pytest.mark.parametrize("call", _INTERRUPTED_CALLS)
def test_ctrl_c_stops_the_transform_and_raises_keyboard_interrupt(call):
    script = _INTERRUPTED_CHILD.replace("{call}", _INTERRUPTED_CALLS[call])
    child = subprocess.Popen([PYTHON, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=subprocess_env(), cwd="/")
    try:
        first = child.stdout.readline()
        assert first.startswith("STARTED"), first + child.stderr.read()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode != 0, out + err
    assert "KeyboardInterrupt" in err, err
    assert "FINISHED" not in out
    stopped = [line.split() for line in out.splitlines() if line.startswith("STOPPED")]
    assert stopped, out + err
    _, done, total, untouched = stopped[0]
    assert 0 < int(done) < int(total), f"stopped after {done} of {total} bricks"
    assert untouched == "True", "the out-of-place call's input was written"


# ---------------------------------------------------------------- resident memory


def _resident_bytes():
    import resource

    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def test_resident_memory_stays_flat_over_1000_calls(rng):
    x = random_complex(rng, (16, 16, 16), np.complex64)
    r = random_real(rng, (16, 16, 15))
    calls = [
        lambda: oocfft.fftn(x, backend="host"),
        lambda: oocfft.ifft2(x, norm="ortho", backend="host"),
        lambda: oocfft.rfftn(r, backend="host"),
        lambda: oocfft.dctn(r, backend="host", progress=lambda done, total: None),
    ]

    def failing():
        try:
            oocfft.fftn(x, backend="host", streams=0)  # refused by the library, in C++
        except oocfft.InvalidArgumentError:
            pass

    calls.append(failing)
    for _ in range(50):  # warm-up: plan caches, allocator pools
        for call in calls:
            call()
    before = _resident_bytes()
    for i in range(1000):
        calls[i % len(calls)]()
    growth = _resident_bytes() - before
    assert growth < 16 << 20, f"resident memory grew by {growth / 2**20:.1f} MiB over 1000 calls"


def test_resident_memory_stays_flat_over_1000_larger_calls(rng):
    # Each result is 512 KiB: a leaked output, plan or staging buffer shows as hundreds of MiB.
    x = random_complex(rng, (32, 32, 32))
    r = random_real(rng, (32, 32, 32))

    def call(i):
        if i % 3 == 0:
            return oocfft.fftn(x, backend="host", workers=1)
        if i % 3 == 1:
            return oocfft.Plan(x.shape, x.dtype, backend="host", device_memory=65536).execute(x)
        return oocfft.dctn(r, backend="host", workers=1)

    for i in range(30):
        call(i)
    before = _resident_bytes()
    for i in range(1000):
        call(i)
    growth = _resident_bytes() - before
    assert growth < 16 << 20, f"resident memory grew by {growth / 2**20:.1f} MiB over 1000 calls"


def test_oocfft_empty_memory_is_returned_when_the_last_view_goes():
    for _ in range(20):
        oocfft.empty((1 << 20,), np.uint8)[::7] = 1
    before = _resident_bytes()
    for _ in range(1000):
        a = oocfft.zeros((1 << 20,), np.uint8)  # 1 MiB, touched when mapped
        v = a[10:]
        del a
        v[::4096] = 1
        del v
    growth = _resident_bytes() - before
    assert growth < 16 << 20, f"resident memory grew by {growth / 2**20:.1f} MiB over 1000 arrays of 1 MiB"


# ---------------------------------------------------------------- progress


def test_progress_callable_counts_bricks_up_to_the_total(rng):
    x = random_complex(rng, (16, 12, 10))
    calls = []
    y = oocfft.fftn(x, backend="host", device_memory=4096, progress=lambda done, total: calls.append((done, total)))
    check_close(y, np.fft.fftn(x), what="fftn with progress")
    assert len(calls) > 1
    totals = {total for _, total in calls}
    assert len(totals) == 1
    total = totals.pop()
    done = [d for d, _ in calls]
    assert done == sorted(done) and len(set(done)) == len(done), "progress went backwards or repeated"
    assert done[-1] == total
    assert all(0 < d <= total for d in done)


@pytest.mark.parametrize("function", ["rfftn", "dctn", "irfftn"])
def test_progress_of_real_transforms(rng, function):
    x = random_real(rng, (12, 10, 9))
    if function == "irfftn":
        x = np.fft.rfftn(x)
    calls = []
    getattr(oocfft, function)(x, backend="host", device_memory=4096, progress=lambda d, t: calls.append((d, t)))
    assert calls and calls[-1][0] == calls[-1][1]


def test_progress_true_shows_a_tqdm_bar(rng, capfd):
    pytest.importorskip("tqdm", reason="tqdm is not installed")
    x = random_complex(rng, (16, 12, 10))
    y = oocfft.fftn(x, backend="host", device_memory=4096, progress=True)
    check_close(y, np.fft.fftn(x), what="fftn with a bar")
    err = capfd.readouterr().err
    assert "fftn" in err, err
    assert "100%" in err and "brick" in err, err


def test_progress_false_and_none_report_nothing(rng, capfd):
    x = random_complex(rng, (16, 12, 10))
    oocfft.fftn(x, backend="host", device_memory=4096, progress=False)
    oocfft.fftn(x, backend="host", device_memory=4096, progress=None)
    captured = capfd.readouterr()
    assert "brick" not in captured.err and "%" not in captured.err


class _Stop(Exception):
    pass


@pytest.mark.parametrize("function", ["fftn", "dctn", "plan"])
def test_a_raising_progress_callable_stops_the_run_and_its_exception_reaches_the_caller(rng, function):
    x = random_complex(rng, (16, 12, 10))
    saved = x.copy()
    calls = []

    def progress(done, total):
        calls.append((done, total))
        if len(calls) == 3:
            raise _Stop("stop here")

    with pytest.raises(_Stop, match="stop here"):
        if function == "fftn":
            oocfft.fftn(x, backend="host", device_memory=4096, progress=progress)
        elif function == "dctn":
            oocfft.dctn(x.real.copy(), backend="host", device_memory=4096, progress=progress)
        else:
            oocfft.Plan(x.shape, x.dtype, backend="host", device_memory=4096).execute(x, progress=progress)
    assert len(calls) == 3, "the callable was called again after it raised"
    assert calls[-1][0] < calls[-1][1]
    np.testing.assert_array_equal(x, saved)
    # The next call runs normally.
    check_close(oocfft.fftn(x, backend="host", device_memory=4096), np.fft.fftn(saved), what="after the stop")


def test_progress_is_reported_from_a_plan(rng):
    x = random_complex(rng, (16, 12, 10))
    plan = oocfft.Plan(x.shape, x.dtype, backend="host", device_memory=4096)
    for _ in range(2):  # each execution reports from 1 to the total again
        calls = []
        plan.execute(x, progress=lambda d, t: calls.append((d, t)))
        assert [d for d, _ in calls] == list(range(1, len(calls) + 1))
        assert calls[-1] == (plan.report["bricks"], plan.report["bricks"])


def test_threads_may_share_a_plan(rng):
    x = random_complex(rng, (16, 12, 10))
    plan = oocfft.Plan(x.shape, x.dtype, backend="host", device_memory=8192)
    want = np.fft.fftn(x)
    results = [None] * 4
    errors = []

    def work(i):
        try:
            results[i] = plan.execute(x)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for y in results:
        check_close(y, want, what="a plan executed by 4 threads")


def test_threads_may_call_the_functions_at_once(rng):
    inputs = [random_complex(rng, (12, 10, 8)) for _ in range(4)]
    reals = [random_real(rng, (12, 10, 9)) for _ in range(4)]
    results = [None] * 4
    errors = []

    def work(i):
        try:
            for _ in range(5):
                results[i] = (oocfft.fftn(inputs[i], backend="host", device_memory=4096),
                              oocfft.rfftn(reals[i], backend="host"),
                              oocfft.dctn(reals[i], backend="host", workers=1))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i in range(4):
        check_close(results[i][0], np.fft.fftn(inputs[i]), what="fftn on 4 threads")
        check_close(results[i][1], np.fft.rfftn(reals[i]), what="rfftn on 4 threads")
        check_close(results[i][2], scipy.fft.dctn(reals[i]), c=12, what="dctn on 4 threads")
