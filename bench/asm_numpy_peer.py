#!/usr/bin/env python3
"""numpy peer of bench/asm_bench.cpp: angular-spectrum propagation of a
complex64 plane with numpy.fft, timed, one JSON line per case.

The same propagation as oocfft::propagate (include/oocfft/asm.hpp): the
field centred in a zero-padded plane (offset (n pad - n) // 2), fft2,
times H(fx, fy; z) = exp(i 2 pi z sqrt(k^2 - fx^2 - fy^2)), k = 1 / lambda,
on numpy's fftfreq grid of the padded plane, band-limited after Matsushima &
Shimobaba, Opt. Express 17, 19662 (2009): kept where |fx| < k / sqrt((2 dfx
z)^2 + 1), dfx = 1 / (N_padded pitch), the same along y; where fx^2 + fy^2 >
k^2, exp(-2 pi |z| sqrt(fx^2 + fy^2 - k^2)); ifft2; cropped back. H is
computed in float64 and applied in the FFT's own precision.

Timing: the whole propagation (pad, fft2, H, multiply, ifft2, crop); min and
median of --repeats; GB/s = (field bytes read + written once) / min time,
as the C++ bench counts them. numpy.fft runs on one thread, and numpy before
2.0 transforms complex64 in complex128 ("fft_dtype" says which ran).

  asm_numpy_peer.py 1024 2048 [--pad 1 2] [--repeats 3] [--distance 0.05]
                    [--pitch 8e-6] [--wavelength 532e-9]
  asm_numpy_peer.py --check DIR/CASE.json
      checks the files that `oocfft_asm_bench --save DIR` wrote for CASE:
      the fused and the separate results against this propagation, run in
      complex128 on the saved input.

Uses numpy only (Debian's python3-numpy works: /usr/bin/python3).
"""
import argparse
import json
import os
import sys
import time

import numpy as np


def band_edge(k, n, pitch, z):
    """Matsushima & Shimobaba (2009), eq. (13)-(15): the largest |f| kept."""
    dfx = 1.0 / (n * pitch)
    return k / np.sqrt((2.0 * dfx * z) ** 2 + 1.0)


def multiply_by_transfer_function(spectrum, pitch, wavelength, z, rows_per_block=1024):
    """spectrum (ny, nx), fftfreq order, *= H(z), in place, a block of rows at
    a time so that H's float64 temporaries stay small beside the plane."""
    ny, nx = spectrum.shape
    k = 1.0 / wavelength
    fx = np.fft.fftfreq(nx, pitch)[np.newaxis, :]
    fy_all = np.fft.fftfreq(ny, pitch)[:, np.newaxis]
    edge_x, edge_y = band_edge(k, nx, pitch, z), band_edge(k, ny, pitch, z)
    for y0 in range(0, ny, rows_per_block):
        fy = fy_all[y0:y0 + rows_per_block]
        w = k * k - fx * fx - fy * fy
        root = np.sqrt(np.abs(w))
        h = np.where(w >= 0, np.exp(2j * np.pi * z * root), np.exp(-2.0 * np.pi * abs(z) * root))
        h[(np.abs(fx) >= edge_x) | (np.abs(fy) >= edge_y)] = 0
        spectrum[y0:y0 + rows_per_block] *= h.astype(spectrum.dtype, copy=False)


def propagate(field, pad, pitch, wavelength, z, dtype=None):
    """The field (ny, nx) propagated by z; returned in the field's dtype.
    dtype: the padded plane's dtype (default: the field's)."""
    ny, nx = field.shape
    py, px = ny * pad, nx * pad
    oy, ox = (py - ny) // 2, (px - nx) // 2
    plane = np.zeros((py, px), dtype=dtype or field.dtype)
    plane[oy:oy + ny, ox:ox + nx] = field
    spectrum = np.fft.fft2(plane)
    del plane
    multiply_by_transfer_function(spectrum, pitch, wavelength, z)
    out = np.fft.ifft2(spectrum)
    del spectrum
    return out[oy:oy + ny, ox:ox + nx].astype(field.dtype)


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def fft_dtype():
    return str(np.fft.fft(np.zeros(2, np.complex64)).dtype)


def time_case(n, pad, args):
    field_bytes = n * n * 8
    padded = (n * pad) ** 2
    # The field, the padded complex64 plane, the fft2 and ifft2 outputs in
    # the FFT's dtype (one alive beside the other), and the cropped copy.
    fft_itemsize = np.dtype(fft_dtype()).itemsize
    needed = 2 * field_bytes + padded * (8 + 2 * fft_itemsize)
    line = {"case": f"numpy-{n}-pad{pad}", "n": n, "pad": pad, "padded": n * pad,
            "wavelength": args.wavelength, "pitch": args.pitch, "distance": args.distance,
            "numpy": np.__version__, "fft_dtype": fft_dtype(), "threads": 1,
            "field_bytes": field_bytes, "host_bytes_needed": needed, "mem_available": mem_available()}
    if line["mem_available"] and needed > line["mem_available"]:
        print(f"{line['case']}: refused: needs about {needed / 2**30:.2f} GiB of host memory, "
              f"MemAvailable is {line['mem_available'] / 2**30:.2f} GiB", file=sys.stderr)
        line["check"] = "refused: not enough host memory"
        return line, False
    rng = np.random.default_rng(0x5eed2026)
    field = (rng.uniform(-1, 1, (n, n)) + 1j * rng.uniform(-1, 1, (n, n))).astype(np.complex64)
    seconds = []
    for _ in range(args.repeats):
        t = time.perf_counter()
        out = propagate(field, pad, args.pitch, args.wavelength, args.distance)
        seconds.append(time.perf_counter() - t)
    assert out.dtype == np.complex64 and out.shape == field.shape
    line.update({"repeats": args.repeats, "min_s": min(seconds), "median_s": float(np.median(seconds)),
                 "GBps": 2 * field_bytes / min(seconds) / 1e9,
                 "rel_change_from_input": float(np.linalg.norm(out - field) / np.linalg.norm(field))})
    return line, True


def rel_l2(a, b):
    return float(np.linalg.norm((a.astype(np.complex128) - b).ravel()) / np.linalg.norm(b.ravel()))


def check_saved(meta_path):
    """The fused and separate results that oocfft_asm_bench --save wrote,
    against this propagation in complex128 on the saved input."""
    with open(meta_path) as f:
        meta = json.load(f)
    base = meta_path[:-len(".json")]
    shape = (meta["planes"], meta["n"], meta["n"])
    load = lambda kind: np.fromfile(f"{base}.{kind}.c64", dtype=np.complex64).reshape(shape)
    field, fused, separate = load("input"), load("fused"), load("separate")
    reference = np.empty(shape, np.complex128)
    for j in range(shape[0]):
        z = meta["distance"] + j * meta["distance_step"]
        reference[j] = propagate(field[j].astype(np.complex128), meta["pad"], meta["pitch"], meta["wavelength"], z)
    line = {"case": meta["case"], "numpy": np.__version__,
            "rel_l2_fused_vs_numpy128": rel_l2(fused, reference),
            "rel_l2_separate_vs_numpy128": rel_l2(separate, reference),
            "rel_change_from_input": rel_l2(reference, field.astype(np.complex128))}
    # Single-precision FFT2 pairs: about 1e-6 of round-off; a wrong H is O(1).
    ok = line["rel_l2_fused_vs_numpy128"] < 1e-4 and line["rel_l2_separate_vs_numpy128"] < 1e-4
    line["check"] = "ok" if ok else "MISMATCH"
    return line, ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sizes", type=int, nargs="*", help="plane side n (n x n complex64)")
    p.add_argument("--pad", type=int, nargs="+", default=[1, 2], choices=[1, 2])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--distance", type=float, default=0.05, help="metres")
    p.add_argument("--pitch", type=float, default=8e-6, help="metres")
    p.add_argument("--wavelength", type=float, default=532e-9, help="metres")
    p.add_argument("--check", metavar="CASE.json", help="check what oocfft_asm_bench --save wrote")
    args = p.parse_args()
    if args.repeats < 1 or any(n < 1 for n in args.sizes):
        p.error("sizes and --repeats must be positive")
    if not args.sizes and not args.check:
        p.error("give sizes, or --check")

    all_ok, refused = True, False
    if args.check:
        line, ok = check_saved(args.check)
        print(json.dumps(line), flush=True)
        all_ok &= ok
    for n in args.sizes:
        for pad in args.pad:
            line, ran = time_case(n, pad, args)
            print(json.dumps(line), flush=True)
            refused |= not ran
    return 0 if all_ok and not refused else (1 if not all_ok else 3)


if __name__ == "__main__":
    sys.exit(main())
