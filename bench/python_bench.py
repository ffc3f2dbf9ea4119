#!/usr/bin/env python3
"""Python benchmark: what the Python layer costs, and oocfft against CuPy and PyTorch with numpy in and out.

    python_bench.py [--cases overhead,peers16,peers48] [--call-bench PATH] [--repeats 5]

overhead  512x512x512 complex64 (1 GiB): oocfft.fftn(x, overwrite_x=True)
          (in place, as the C++ call) against the C++ one-shot fft3d on
          pageable memory (oocfft_call_bench, run by this script in the same
          job), forward medians; and the out-of-place oocfft.fftn(x).
peers16   1024x1024x2048 complex64 (16 GiB), numpy in and numpy out:
          oocfft.fftn(x) (and with overwrite_x=True) against
          cupy.asnumpy(cupy.fft.fftn(cupy.asarray(x))) and
          torch.fft.fftn(torch.from_numpy(x).cuda()).cpu(); first and warm
          calls; the results compared with each other.
peers48   2048x2048x1536 complex64 (48 GiB): oocfft in place, and whether the
          peers run at all (each peer in a process of its own, so that one the
          kernel ends for want of host memory is reported, not fatal).

Inputs are seeded random values (a random block tiled over the volume, filled
by threads). One line per measurement; ratios at the end of each case.
"""
import argparse
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import oocfft


def filled(shape, seed=1):
    """A pageable complex64 array of `shape`: a seeded random block tiled over it, in parallel."""
    x = np.empty(shape, np.complex64)
    flat = x.reshape(-1)
    block = np.random.default_rng(seed).standard_normal((1 << 20, 2)).astype(np.float32).view(np.complex64)[:, 0]
    pieces = np.array_split(np.arange(flat.size // block.size), os.cpu_count() or 1)

    def fill(rows):
        if rows.size:
            flat[rows[0] * block.size:(rows[-1] + 1) * block.size].reshape(-1, block.size)[:] = block

    with ThreadPoolExecutor(os.cpu_count()) as pool:
        list(pool.map(fill, pieces))
    flat[flat.size // block.size * block.size:] = block[: flat.size % block.size]
    return x


def timed(label, call, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - t0)
        del result
    median = sorted(times)[len(times) // 2]
    print(f"{label:<48} median {median:.4f} s  min {min(times):.4f} s  ({repeats} runs: "
          + " ".join(f"{t:.3f}" for t in times) + ")", flush=True)
    return median


def relative_error(a, b, rows=8):
    """||a - b|| / ||b|| over the first `rows` planes (the whole volume would need another copy)."""
    a, b = a[:rows].astype(np.complex128), b[:rows].astype(np.complex128)
    return float(np.linalg.norm(a - b) / np.linalg.norm(b))


def case_overhead(args):
    """Rounds of the C++ call (a process of its own) and the Python call, alternating, so that drift in the
    machine's state touches both sides alike; the medians over all rounds are compared."""
    shape = (512, 512, 512)
    print(f"== overhead: {shape} complex64, backend {oocfft.Plan(shape, np.complex64).backend}", flush=True)
    x = filled(shape)

    def round_trip():
        oocfft.fftn(x, overwrite_x=True)
        oocfft.ifftn(x, overwrite_x=True)

    round_trip()  # warm-up, as the C++ side's
    cpp_forward, py_forward = [], []
    for _ in range(args.rounds):
        cpp = subprocess.run([args.call_bench, "--shape", "x".join(map(str, shape)), "--repeats", str(args.repeats)],
                             check=True, capture_output=True, text=True).stdout.strip()
        print(cpp, flush=True)
        cpp_forward += [float(t) for t in cpp.split("forward times ")[1].split(" s")[0].split(",")]
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            oocfft.fftn(x, overwrite_x=True)
            py_forward.append(time.perf_counter() - t0)
            oocfft.ifftn(x, overwrite_x=True)
    median = lambda v: sorted(v)[len(v) // 2]
    print(f"{'C++ fft3d forward':<48} median {median(cpp_forward):.4f} s  min {min(cpp_forward):.4f} s "
          f"({len(cpp_forward)} runs)", flush=True)
    print(f"{'python oocfft.fftn(x, overwrite_x=True)':<48} median {median(py_forward):.4f} s  min {min(py_forward):.4f} s "
          f"({len(py_forward)} runs)", flush=True)
    out_of_place = timed("python oocfft.fftn(x) (out of place, a new array)", lambda: oocfft.fftn(x), args.repeats)
    print(f"RATIO python in place / C++ fft3d forward: median {median(py_forward) / median(cpp_forward):.4f} "
          f"({100 * (median(py_forward) / median(cpp_forward) - 1):+.2f}%), min {min(py_forward) / min(cpp_forward):.4f}; "
          f"out of place / C++ median: {out_of_place / median(cpp_forward):.3f}", flush=True)


def peer_calls():
    calls = {}
    try:
        import cupy

        def cupy_call(x):
            y = cupy.asnumpy(cupy.fft.fftn(cupy.asarray(x)))
            cupy.get_default_memory_pool().free_all_blocks()
            return y

        calls["cupy"] = cupy_call
    except ImportError as e:
        print(f"cupy not importable: {e}")
    try:
        import torch

        def torch_call(x):
            y = torch.fft.fftn(torch.from_numpy(x).cuda()).cpu().numpy()
            torch.cuda.empty_cache()
            return y

        calls["torch"] = torch_call
    except ImportError as e:
        print(f"torch not importable: {e}")
    return calls


def peer_alone(name, shape):
    """One call of peer `name` on a volume of `shape`, in this process (python_bench.py --peer)."""
    x = filled(shape)
    call = peer_calls()[name]
    try:
        timed(f"{name} first", lambda: call(x), 1)
    except Exception as e:  # the peer's out-of-memory error is the result here
        print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)


def case_peers_isolated(shape):
    gib = np.prod(shape) * 8 / 2**30
    print(f"== peers: {shape} complex64 ({gib:.0f} GiB), numpy in and numpy out, each peer in its own process",
          flush=True)
    for name in ("cupy", "torch"):
        r = subprocess.run([sys.executable, __file__, "--peer", name, "--shape", "x".join(map(str, shape))],
                           capture_output=True, text=True)
        lines = [l for l in (r.stdout + r.stderr).splitlines() if l.strip()]
        print("\n".join(lines[-3:]) if lines else f"{name}: no output", flush=True)
        if r.returncode != 0:
            print(f"{name}: the process ended with status {r.returncode}"
                  + (" (killed: SIGKILL, the kernel's out-of-memory killer)" if r.returncode == -9 else ""), flush=True)
    x = filled(shape)
    timed("oocfft.fftn(x, overwrite_x=True)", lambda: oocfft.fftn(x, overwrite_x=True), 1)


def case_peers(shape, warm_runs):
    gib = np.prod(shape) * 8 / 2**30
    print(f"== peers: {shape} complex64 ({gib:.0f} GiB), numpy in and numpy out", flush=True)
    t0 = time.perf_counter()
    x = filled(shape)
    print(f"filled in {time.perf_counter() - t0:.1f} s", flush=True)
    results, times = {}, {}
    timed("oocfft.fftn(x) first", lambda: oocfft.fftn(x), 1)
    times["oocfft"] = timed("oocfft.fftn(x) warm", lambda: oocfft.fftn(x), warm_runs)
    results["oocfft"] = oocfft.fftn(x)[:8].copy()
    plan = oocfft.Plan(shape, np.complex64)
    timed("oocfft Plan.execute(x, out=np.empty(...))", lambda: plan.execute(x, out=np.empty(shape, np.complex64)),
          warm_runs)
    del plan
    for name, call in peer_calls().items():
        try:
            timed(f"{name} first", lambda: call(x), 1)
            times[name] = timed(f"{name} warm", lambda: call(x), warm_runs)
            results[name] = call(x)[:8].copy()
        except Exception as e:  # the peers' out-of-memory errors are the result here
            print(f"{name}: {type(e).__name__}: {str(e).splitlines()[0][:200]}", flush=True)
    y = x  # in place last: x is not needed afterwards
    in_place = timed("oocfft.fftn(x, overwrite_x=True)", lambda: oocfft.fftn(y, overwrite_x=True), 1)
    for name in results:
        if name != "oocfft" and "oocfft" in results:
            print(f"result check: oocfft vs {name} on the first 8 planes: relative L2 "
                  f"{relative_error(results['oocfft'], results[name]):.2e}")
    for name, t in times.items():
        if name != "oocfft" and "oocfft" in times:
            print(f"RATIO {name} warm / oocfft.fftn(x) warm: {t / times['oocfft']:.2f}x; "
                  f"/ oocfft in place: {t / in_place:.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="overhead,peers16,peers48")
    parser.add_argument("--call-bench", default="build/bench/oocfft_call_bench")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=4, help="overhead: alternating rounds of C++ and Python")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    parser.add_argument("--shape", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        peer_alone(args.peer, tuple(int(n) for n in args.shape.split("x")))
        return
    print(f"oocfft from {os.path.dirname(oocfft.__file__)}, cuda_available {oocfft.cuda_available()}, "
          f"numpy {np.__version__}, python {sys.version.split()[0]}", flush=True)
    for case in args.cases.split(","):
        if case == "overhead":
            case_overhead(args)
        elif case == "peers16":
            case_peers((1024, 1024, 2048), 2)
        elif case == "peers48":
            case_peers_isolated((2048, 2048, 1536))
        else:
            sys.exit(f"unknown case {case}")


if __name__ == "__main__":
    main()
