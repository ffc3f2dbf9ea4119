"""scipy.fft's functions over oocfft's engine: fftn, ifftn, fft2, ifft2, rfftn, irfftn, dctn, idctn, dstn, idstn."""
import numpy as np

from . import _oocfft
from ._arrays import (as_array, can_transform_in_place, check_not_empty, complex_dtype, readable_as_it_is, real_dtype,
                      resized, resolve_axes, volume_shape, working_copy)
from ._memory import result_array
from ._options import fft_options, progress_reporter
from .errors import InvalidArgumentError, UnsupportedError

_ENGINE_DOC = """
    Keyword-only oocfft options (all optional):

    backend : {'auto', 'host', 'cuda'}
        'auto' (default) runs on the GPU when one is usable, else on the host.
    device_memory : int or str
        Device bytes the plan may use ('8GiB'); default: the free memory. A volume
        larger than this streams through the device out of core.
    host_memory : int or str
        Host bytes for the staging buffers of all streams; default: a 32 MiB ring
        per stream on a GPU.
    streams : int
        Bricks in flight (default 4).
    strategy : {'auto', 'in_core', 'two_pass', 'three_pass', 'line_transpose'}
        Passes over the volume; 'auto' picks the fewest that fit.
    register : {'auto', 'on', 'off'}
        Page-lock the array for direct DMA ('on'), never ('off'), or use it
        directly only when already page-locked, as arrays from oocfft.empty are
        ('auto').
    kernel_cache : path
        Where GPU kernels compiled at plan time are cached.
    devices : None, 'current', 'all', int or sequence of ints
        The GPUs the plan runs on (the command's --devices); default the current
        one. On the host backend a list of n ordinals runs n emulated devices.
    progress : bool or callable
        True shows a tqdm bar; a callable is called as f(bricks_done, bricks_total).

    The GIL is released while the transform runs. Ctrl-C stops it within one
    brick and raises KeyboardInterrupt; an out-of-place call's input is untouched.
"""


def _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy, register, kernel_cache,
                    devices):
    return fft_options(norm=norm, workers=workers, backend=backend, device_memory=device_memory,
                       host_memory=host_memory, streams=streams, strategy=strategy, register=register,
                       kernel_cache=kernel_cache, devices=devices)


def _check_plan(plan):
    if plan is not None:
        raise UnsupportedError("plan= is scipy's slot for a backend's precomputed plan: use oocfft.Plan instead")


def _complex_transform(x, s, axes, norm, overwrite_x, workers, plan, inverse, two_d, options, progress, name):
    # two_d: axes=None means the last two axes (the default of fft2 is already (-2, -1), and scipy's
    # fft2(x, axes=None) transforms all axes, so the 2-D functions pass False).
    _check_plan(plan)
    a = as_array(x)
    axes, s, form = resolve_axes(a.ndim, s, axes, two_d)
    dtype = complex_dtype(a.dtype)
    if overwrite_x and isinstance(x, np.ndarray) and not a.flags.writeable:
        raise InvalidArgumentError("overwrite_x=True but x is read-only")
    a, copied = resized(a, s, axes)
    check_not_empty(a)
    shape = volume_shape(a.shape)
    in_place = (overwrite_x or copied) and can_transform_in_place(a, dtype)
    # An input of the result's dtype in C order is read where it lies by the
    # first pass, and the result written to a new array: no copy first.
    readable = readable_as_it_is(a)
    reads_in_place = readable and a.dtype == dtype
    # Real input of the result's precision: widened a brick at a time as the
    # first pass reads it, no complex copy of it first.
    reads_real = readable and a.dtype.kind == "f" and a.dtype.itemsize * 2 == dtype.itemsize
    with progress_reporter(progress, name) as callback:
        engine = _oocfft.ComplexPlan(shape, dtype == np.complex128, form == "planes", options)
        if in_place:
            engine.execute(a.reshape(shape), inverse, callback)
            return a
        if reads_in_place or reads_real:
            out = result_array(a.shape, dtype)
            run = engine.execute_into if reads_in_place else engine.execute_real_into
            run(a.reshape(shape), out.reshape(shape), inverse, callback)
            return out
        work = working_copy(a, dtype)
        engine.execute(work.reshape(shape), inverse, callback)
        return work


def fftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
         device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
         devices=None, progress=None):
    """N-D discrete Fourier transform, as scipy.fft.fftn.

    x : array_like, 1-3 axes. Transformed over all its axes, or over the
        last two of a 3-D array (axes=(-2, -1) or (1, 2): a stack of 2-D
        transforms); any other axes raise oocfft.UnsupportedError.
    s : lengths of the transformed axes; the input is zero-padded or cropped
        to them first (scipy's s).
    norm : {None, 'backward', 'ortho', 'forward'} as numpy's.
    overwrite_x : when x is C-contiguous, writable and already complex64 or
        complex128, transform it in place and return it (no copy). Otherwise
        (real input, another order) a copy is transformed. A read-only x
        with overwrite_x=True raises InvalidArgumentError.
    workers : host threads (scipy's meaning; None = all cores).

    Returns complex64 for float32 (and float16) or complex64 input, complex128
    for float64, integer, boolean or complex128 input.
    """
    return _complex_transform(x, s, axes, norm, overwrite_x, workers, plan, False, False,
                              _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                              register, kernel_cache, devices), progress, "fftn")


def ifftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
          device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
          devices=None, progress=None):
    """N-D inverse discrete Fourier transform, as scipy.fft.ifftn (arguments as fftn)."""
    return _complex_transform(x, s, axes, norm, overwrite_x, workers, plan, True, False,
                              _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                              register, kernel_cache, devices), progress, "ifftn")


def fft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
         device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
         devices=None, progress=None):
    """2-D discrete Fourier transform, as scipy.fft.fft2: of a 2-D array, or of every plane of a 3-D one."""
    return _complex_transform(x, s, axes, norm, overwrite_x, workers, plan, False, False,
                              _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                              register, kernel_cache, devices), progress, "fft2")


def ifft2(x, s=None, axes=(-2, -1), norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
          device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
          devices=None, progress=None):
    """2-D inverse discrete Fourier transform, as scipy.fft.ifft2."""
    return _complex_transform(x, s, axes, norm, overwrite_x, workers, plan, True, False,
                              _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                              register, kernel_cache, devices), progress, "ifft2")


def _real_axes(a, s, axes):
    axes, s, form = resolve_axes(a.ndim, s, axes)
    if form != "all" or axes != tuple(range(a.ndim)):
        raise UnsupportedError(f"axes={axes}: oocfft's real transforms run over all axes in order, the last one halved")
    return axes, s


def rfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
          device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
          devices=None, progress=None):
    """N-D transform of real input, as scipy.fft.rfftn: the half spectrum (..., n//2 + 1).

    Over all axes of a 1-3-D real array (float32 -> complex64, float64 or
    integers -> complex128). The input is never written (overwrite_x is
    accepted and has no effect).
    """
    _check_plan(plan)
    a = as_array(x)
    axes, s = _real_axes(a, s, axes)
    dtype = real_dtype(a.dtype)
    a, _ = resized(a, s, axes)
    check_not_empty(a)
    if not (a.dtype == dtype and readable_as_it_is(a)):
        a = working_copy(a, dtype)
    shape = volume_shape(a.shape)
    half = shape[:2] + (shape[2] // 2 + 1,)
    out = result_array(a.shape[:-1] + (half[2],), complex_dtype(dtype))
    options = _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy, register,
                              kernel_cache, devices)
    with progress_reporter(progress, "rfftn") as callback:
        engine = _oocfft.RealPlan(shape, dtype == np.float64, options)
        engine.forward(a.reshape(shape), out.reshape(half), callback)
    return out


def irfftn(x, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, plan=None, backend=None,
           device_memory=None, host_memory=None, streams=None, strategy=None, register=None, kernel_cache=None,
           devices=None, progress=None):
    """Inverse of rfftn, as scipy.fft.irfftn: a half spectrum to real data.

    s gives the real lengths (s[-1] may be odd); without it the last axis is
    2 * (m - 1) for a half spectrum of m columns. complex64 -> float32,
    complex128 -> float64. The input is never written.
    """
    _check_plan(plan)
    a = as_array(x)
    axes, s = _real_axes(a, s, axes)
    dtype = complex_dtype(a.dtype)
    real_nx = s[-1] if s is not None else 2 * (a.shape[-1] - 1)
    if real_nx < 1:
        raise InvalidArgumentError(f"a half spectrum of {a.shape[-1]} columns: give the real length as s[-1]")
    spectrum_lengths = (s[:-1] if s is not None else a.shape[:-1]) + (real_nx // 2 + 1,)
    a, _ = resized(a, spectrum_lengths, axes)
    check_not_empty(a)
    if not (a.dtype == dtype and readable_as_it_is(a)):
        a = working_copy(a, dtype)
    real_shape = volume_shape(a.shape[:-1] + (real_nx,))
    half = real_shape[:2] + (a.shape[-1],)
    out = result_array(a.shape[:-1] + (real_nx,), np.float32 if dtype == np.complex64 else np.float64)
    options = _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy, register,
                              kernel_cache, devices)
    with progress_reporter(progress, "irfftn") as callback:
        engine = _oocfft.RealPlan(real_shape, dtype == np.complex128, options)
        engine.inverse(a.reshape(half), out.reshape(real_shape), callback)
    return out


def _trig_transform(kind, inverse, x, type, s, axes, norm, overwrite_x, workers, orthogonalize, options, progress,
                    name):
    if type not in (2, 3):
        raise UnsupportedError(f"type={type}: oocfft computes the DCT and DST of types 2 and 3")
    if orthogonalize is not None and orthogonalize != (norm == "ortho"):
        raise UnsupportedError("orthogonalize differs from norm == 'ortho': oocfft's ortho is scipy's "
                               "orthogonalize=True, and other norms are not orthogonalized")
    a = as_array(x)
    axes, s = _real_axes(a, s, axes)
    dtype = real_dtype(a.dtype)
    if overwrite_x and isinstance(x, np.ndarray) and not a.flags.writeable:
        raise InvalidArgumentError("overwrite_x=True but x is read-only")
    a, copied = resized(a, s, axes)
    check_not_empty(a)
    work = a if (overwrite_x or copied) and can_transform_in_place(a, dtype) else working_copy(a, dtype)
    shape = volume_shape(work.shape)
    with progress_reporter(progress, name) as callback:
        engine = _oocfft.TrigPlan(shape, dtype == np.float64, kind, type, work.ndim, options)
        engine.execute(work.reshape(shape), inverse, callback)
    return work


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None,
         backend=None, device_memory=None, host_memory=None, streams=None, strategy=None, register=None,
         kernel_cache=None, devices=None, progress=None):
    """N-D discrete cosine transform, as scipy.fft.dctn, of type 2 or 3 over all axes of a real 1-3-D array.

    norm 'ortho' is scipy's orthogonalized transform (orthogonalize=True).
    Same dtype out as in (float32 or float64; integers become float64).
    """
    return _trig_transform("dct", False, x, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                           _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                           register, kernel_cache, devices), progress, "dctn")


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None,
          backend=None, device_memory=None, host_memory=None, streams=None, strategy=None, register=None,
          kernel_cache=None, devices=None, progress=None):
    """Inverse of dctn, as scipy.fft.idctn (type 2's inverse is type 3 and the reverse)."""
    return _trig_transform("dct", True, x, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                           _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                           register, kernel_cache, devices), progress, "idctn")


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None,
         backend=None, device_memory=None, host_memory=None, streams=None, strategy=None, register=None,
         kernel_cache=None, devices=None, progress=None):
    """N-D discrete sine transform, as scipy.fft.dstn, of type 2 or 3 over all axes (arguments as dctn)."""
    return _trig_transform("dst", False, x, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                           _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                           register, kernel_cache, devices), progress, "dstn")


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None, *, orthogonalize=None,
          backend=None, device_memory=None, host_memory=None, streams=None, strategy=None, register=None,
          kernel_cache=None, devices=None, progress=None):
    """Inverse of dstn, as scipy.fft.idstn."""
    return _trig_transform("dst", True, x, type, s, axes, norm, overwrite_x, workers, orthogonalize,
                           _engine_options(norm, workers, backend, device_memory, host_memory, streams, strategy,
                                           register, kernel_cache, devices), progress, "idstn")


for _function in (fftn, ifftn, fft2, ifft2, rfftn, irfftn, dctn, idctn, dstn, idstn):
    _function.__doc__ += _ENGINE_DOC
del _function
