#!/usr/bin/env python3
"""Writes the HDF5 fixtures of the io tests with h5py, from a seed.

usage: write_h5py_fixtures.py OUT_DIR SEED

OUT_DIR/fixtures.h5  the datasets oocfft reads: h5py's complex compounds,
                     real floats, trailing-2 pairs, real/imag and
                     Real/Imaginary compounds, 1D/2D/3D, chunked and
                     contiguous; and under /bad the ones it must refuse.
OUT_DIR/expected.h5  for every good dataset NAME: /values/NAME, the complex
                     values it holds as float64 (..., 2) pairs (exact: every
                     stored value is a float32 or float64), and /fftn/NAME,
                     numpy.fft.fftn of them in complex128 as (..., 2) pairs.
OUT_DIR/real.h5       the real transforms' cases, for every NAME of REAL:
                     /input/NAME, a real float32/float64 dataset;
                     /rfftn/NAME, numpy.fft.rfftn of it as complex128 pairs;
                     /spectrum/NAME, a random half spectrum of its shape
                     (..., nx/2+1) as h5py complex of its precision, with no
                     attribute; /irfftn/NAME, numpy.fft.irfftn of that with
                     s = the real shape, in float64 (numpy ignores the
                     imaginary parts a real volume's spectrum cannot have).
Values are uniform in [-0.5, 0.5).
"""
import os
import sys

import h5py
import numpy as np

GOOD = {
    # name: (shape of the complex volume, stored as, numpy dtype, chunks)
    "c64_3d": ((7, 11, 16), "compound", np.complex64, (3, 5, 16)),
    "c128_3d": ((8, 13, 5), "compound", np.complex128, None),
    "c128_cube": ((40, 40, 40), "compound", np.complex128, (8, 8, 40)),
    "f32_3d": ((5, 6, 7), "real", np.float32, None),
    "f64_2d": ((17, 32), "real", np.float64, (4, 32)),
    "pairs_f64_3d": ((4, 5, 6), "pairs", np.float64, None),
    "pairs_f32_1d": ((31,), "pairs", np.float32, (8, 2)),
    "realimag_2d": ((9, 10), "real/imag", np.float32, None),
    "RealImaginary_1d": ((37,), "Real/Imaginary", np.float64, (16,)),
    "group/nested/c64_1d": ((40,), "compound", np.complex64, None),
}

REAL = {
    # name: (real shape, dtype, chunks): odd and even nx, both precisions, 1-3 axes
    "f32_even": ((6, 5, 8), np.float32, (2, 5, 8)),
    "f32_odd": ((5, 7, 9), np.float32, None),
    "f64_even": ((4, 6, 10), np.float64, None),
    "f64_odd": ((7, 4, 11), np.float64, (3, 4, 11)),
    "f64_2d": ((9, 13), np.float64, None),
    "f32_1d": ((15,), np.float32, None),
}


def write_real(path, rng):
    with h5py.File(path, "w") as r:
        for name, (shape, dtype, chunks) in REAL.items():
            x = rng.uniform(-0.5, 0.5, size=shape).astype(dtype)
            r.create_dataset("input/" + name, data=x, chunks=chunks)
            spectrum = np.fft.rfftn(x.astype(np.float64))
            r.create_dataset("rfftn/" + name, data=pairs(spectrum.real, spectrum.imag))
            half = shape[:-1] + (shape[-1] // 2 + 1,)
            complex_type = np.complex64 if dtype == np.float32 else np.complex128
            s = (rng.uniform(-0.5, 0.5, size=half) + 1j * rng.uniform(-0.5, 0.5, size=half)).astype(complex_type)
            r.create_dataset("spectrum/" + name, data=s)
            r.create_dataset("irfftn/" + name, data=np.fft.irfftn(s.astype(np.complex128), s=shape))


def complex_values(rng, shape, real_type, real_only):
    re = rng.uniform(-0.5, 0.5, size=shape).astype(real_type)
    im = np.zeros(shape, real_type) if real_only else rng.uniform(-0.5, 0.5, size=shape).astype(real_type)
    return re, im


def pairs(re, im):
    return np.stack([re.astype(np.float64), im.astype(np.float64)], axis=-1)


def main():
    out_dir, seed = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(seed)
    os.makedirs(out_dir, exist_ok=True)
    with h5py.File(os.path.join(out_dir, "fixtures.h5"), "w") as f, \
            h5py.File(os.path.join(out_dir, "expected.h5"), "w") as e:
        for name, (shape, stored, dtype, chunks) in GOOD.items():
            real_type = np.float32 if dtype in (np.complex64, np.float32) else np.float64
            re, im = complex_values(rng, shape, real_type, stored == "real")
            if stored == "compound":
                data = (re + 1j * im).astype(dtype)  # h5py stores complex as compound {r, i}
            elif stored == "real":
                data = re
            elif stored == "pairs":
                data = np.stack([re, im], axis=-1)
            else:
                names = stored.split("/")
                data = np.empty(shape, dtype=[(names[0], real_type), (names[1], real_type)])
                data[names[0]] = re
                data[names[1]] = im
            f.create_dataset(name, data=data, chunks=chunks)
            values = pairs(re, im)
            e.create_dataset("values/" + name, data=values)
            spectrum = np.fft.fftn(values[..., 0] + 1j * values[..., 1])
            e.create_dataset("fftn/" + name, data=pairs(spectrum.real, spectrum.imag))

        f.create_dataset("bad/int32", data=rng.integers(0, 100, size=(4, 4, 4), dtype=np.int32))
        f.create_dataset("bad/string", data=np.array([b"abc", b"defg", b"h"]))
        f.create_dataset("bad/four_d", data=np.zeros((2, 2, 2, 2), np.complex64))
        f.create_dataset("bad/zero_axis", data=np.zeros((0, 4, 4), np.complex64))
        f.create_dataset("bad/other_compound", data=np.zeros((3, 3), dtype=[("x", np.float64), ("y", np.float64)]))
        f.create_dataset("bad/scalar", data=np.float64(1.5))
        f.create_dataset("bad/five_d_pairs", data=np.zeros((2, 2, 2, 2, 2), np.float32))
        f.create_group("a_group")
    write_real(os.path.join(out_dir, "real.h5"), rng)


if __name__ == "__main__":
    main()
