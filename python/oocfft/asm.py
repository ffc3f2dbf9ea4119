"""Angular-spectrum propagation (ASM) of optical fields, on arrays and on HDF5 datasets.

U(z) = IFFT2[ FFT2[U0] * H(z) ], H(fx, fy; z) = exp(i 2 pi z sqrt((n/lambda)^2 - fx^2 - fy^2)),
as the oocfft command's `asm` computes it (band-limited after Matsushima & Shimobaba
2009, zero-padded to twice each axis by default). Every function takes

    wavelength : metres, in vacuum (> 0)
    pitch      : sample spacing along x, metres (> 0); pitch_y along y (default pitch)
    index      : refractive index of the medium (default 1)
    band_limit : True (default) keeps only the frequencies H samples without aliasing
    evanescent : 'decay' (default, the physical field) or 'zero'
    pad        : 2 (default: linear convolution, cropped back) or 1 (periodic field)

and the FFT options of oocfft.fftn (workers, backend, device_memory, host_memory,
streams, strategy, register, kernel_cache, progress). A field is complex64/complex128,
or real (float32/float64, a recorded intensity say), which is widened a brick at a
time, so no complex copy of it is made. A field given as a string 'FILE:/DATASET'
is read from HDF5 and the result written to the dataset `out` (a new one, linked
only when complete; propagate may replace its input with in_place=True).
"""
import numpy as np

from . import _oocfft
from ._arrays import as_array, complex_dtype
from ._files import _path
from ._memory import result_array
from ._options import byte_count, fft_options, progress_reporter
from .errors import InvalidArgumentError


def _number(name, value):
    try:
        return float(value)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"{name}={value!r} is not a number") from None


def _options(wavelength, pitch, pitch_y, index, band_limit, evanescent, pad, fft):
    options = dict(fft)
    options.update(wavelength=_number("wavelength", wavelength), pitch_x=_number("pitch", pitch),
                   pitch_y=0.0 if pitch_y is None else _number("pitch_y", pitch_y), index=_number("index", index),
                   band_limit=bool(band_limit), evanescent=evanescent, pad=pad)
    options.pop("norm")
    return options


def _result(out, shape, dtype):
    """The array a result goes to: `out` when given (checked), else a new one."""
    if out is None:
        return result_array(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise InvalidArgumentError(f"out is {type(out).__name__}: give a numpy array for an array field "
                                   "(a dataset name only with a dataset field)")
    if out.shape != tuple(shape) or out.dtype != dtype:
        raise InvalidArgumentError(f"out has shape {out.shape} and dtype {out.dtype}, expected {tuple(shape)} {dtype}")
    if not (out.flags.c_contiguous and out.flags.writeable and out.flags.aligned):
        raise InvalidArgumentError("out must be C-contiguous, aligned and writable")
    return out


def _distances(z, name):
    d = np.atleast_1d(np.asarray(z, dtype=np.float64))
    if d.ndim != 1 or d.size == 0:
        raise InvalidArgumentError(f"{name} must be a number or a 1-D sequence of numbers")
    return [float(v) for v in d]


def _field(x, ndims, name):
    a = as_array(x, name)
    if a.ndim not in ndims:
        raise InvalidArgumentError(f"{name} has shape {a.shape}: expected {' or '.join(f'{n}-D' for n in ndims)}")
    dtype = complex_dtype(a.dtype, name)
    real = a.dtype.kind != "c"
    target = np.dtype(np.float32 if dtype == np.complex64 else np.float64) if real else dtype
    if a.size == 0:
        raise InvalidArgumentError(f"{name} has shape {a.shape}: an axis of length 0")
    return a, target, dtype, real


def _fft_options(workers, backend, device_memory, host_memory, streams, strategy, register, kernel_cache,
                 devices):
    return fft_options(workers=workers, backend=backend, device_memory=device_memory, host_memory=host_memory,
                       streams=streams, strategy=strategy, register=register, kernel_cache=kernel_cache, devices=devices)


def _dataset(mode, field, out, distances, in_place, host_memory, options, progress):
    with progress_reporter(progress, mode) as callback:
        return _oocfft.asm_propagate_dataset(field, _path("out", out), mode, distances, bool(in_place),
                                             byte_count("host_memory", host_memory) or 0, options, callback)


def propagate(field, z, *, wavelength, pitch, pitch_y=None, index=1.0, band_limit=True, evanescent="decay", pad=2,
              out=None, overwrite_x=False, in_place=False, workers=None, backend=None, device_memory=None,
              host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None, devices=None, progress=None):
    """Propagates a field (ny, nx), or every plane of a stack (nz, ny, nx), by z metres.

    z: one distance, or one per plane of a stack. Returns the propagated
    complex field, a new array unless overwrite_x=True and the field is a
    C-contiguous writable complex array (then it is propagated in place and
    returned). A dataset field ('FILE:/DATASET') goes to the dataset `out`
    and the report (a dict) is returned.
    """
    options = _options(wavelength, pitch, pitch_y, index, band_limit, evanescent, pad,
                       _fft_options(workers, backend, device_memory, host_memory, streams, strategy, register,
                                    kernel_cache, devices))
    distances = _distances(z, "z")
    if isinstance(field, str):
        return _dataset("propagate", field, out, distances, in_place, host_memory, options, progress)
    a, target, dtype, real = _field(field, (2, 3), "field")
    if overwrite_x and not a.flags.writeable:
        raise InvalidArgumentError("overwrite_x=True but the field is read-only")
    stack_shape = (1,) + a.shape if a.ndim == 2 else a.shape
    with progress_reporter(progress, "propagate") as callback:
        if real:
            stack = np.ascontiguousarray(a, dtype=target).reshape(stack_shape)
            result = _result(out, a.shape, dtype)
            _oocfft.asm_propagate(stack, result.reshape(stack_shape), distances, options, callback)
            return result
        in_place_ok = (out is None and overwrite_x and a.dtype == dtype and a.flags.c_contiguous
                       and a.flags.aligned)
        if in_place_ok:
            work = a
        else:
            work = _result(out, a.shape, dtype)
            np.copyto(work, a)
        _oocfft.asm_propagate(work.reshape(stack_shape), None, distances, options, callback)
        return work


def refocus(field, distances, *, wavelength, pitch, pitch_y=None, index=1.0, band_limit=True, evanescent="decay",
            pad=2, out=None, workers=None, backend=None, device_memory=None, host_memory=None, streams=None,
            strategy=None, register=None, kernel_cache=None, devices=None, progress=None):
    """Hologram reconstruction: the field (ny, nx) propagated to every distance, (len(distances), ny, nx).

    The field's spectrum is computed once. A dataset field goes to the dataset `out`.
    """
    options = _options(wavelength, pitch, pitch_y, index, band_limit, evanescent, pad,
                       _fft_options(workers, backend, device_memory, host_memory, streams, strategy, register,
                                    kernel_cache, devices))
    d = _distances(distances, "distances")
    if isinstance(field, str):
        return _dataset("refocus", field, out, d, False, host_memory, options, progress)
    a, target, dtype, _ = _field(field, (2,), "field")
    a = np.ascontiguousarray(a, dtype=target).reshape((1,) + a.shape)
    result = _result(out, (len(d),) + a.shape[1:], dtype)
    with progress_reporter(progress, "refocus") as callback:
        _oocfft.asm_refocus(a, result, d, options, callback)
    return result


def layer_sum(layers, distances, *, wavelength, pitch, pitch_y=None, index=1.0, band_limit=True, evanescent="decay",
              pad=2, out=None, workers=None, backend=None, device_memory=None, host_memory=None, streams=None,
              strategy=None, register=None, kernel_cache=None, devices=None, progress=None):
    """Layer-based CGH: IFFT2[ sum_j FFT2[layer_j] * H(distances[j]) ], the hologram (ny, nx) of the layers (nz, ny, nx).

    A dataset of layers goes to the dataset `out`.
    """
    options = _options(wavelength, pitch, pitch_y, index, band_limit, evanescent, pad,
                       _fft_options(workers, backend, device_memory, host_memory, streams, strategy, register,
                                    kernel_cache, devices))
    d = _distances(distances, "distances")
    if isinstance(layers, str):
        return _dataset("layer_sum", layers, out, d, False, host_memory, options, progress)
    a, target, dtype, _ = _field(layers, (3,), "layers")
    if len(d) != a.shape[0]:
        raise InvalidArgumentError(f"{len(d)} distances for {a.shape[0]} layers: give one per layer")
    a = np.ascontiguousarray(a, dtype=target)
    result = _result(out, a.shape[1:], dtype)
    with progress_reporter(progress, "layer_sum") as callback:
        _oocfft.asm_layer_sum(a, result.reshape((1,) + a.shape[1:]), d, options, callback)
    return result


__all__ = ["propagate", "refocus", "layer_sum"]
