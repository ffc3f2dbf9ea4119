"""oocfft.Plan: a reusable plan, built once and executed on many arrays."""
import numpy as np

from . import _oocfft
from ._arrays import complex_dtype, real_dtype, resolve_axes, volume_shape
from ._memory import result_array
from ._options import fft_options, progress_reporter
from .errors import DtypeError, InvalidArgumentError, UnsupportedError

_TRANSFORMS = ("fft", "rfft", "dct", "dst")


class Plan:
    """A reusable transform of arrays of one shape and dtype.

    Plan(shape, dtype, *, transform='fft', axes=None, type=2, norm=None,
         workers=None, backend=None, device_memory=None, host_memory=None,
         streams=None, strategy=None, register=None, kernel_cache=None, devices=None)

    transform 'fft': complex transforms of `shape` (1-3 axes), over all axes
        or, for a 3-D shape, axes=(-2, -1): every plane. dtype complex64 or
        complex128 (float32/float64 name the same precision).
    transform 'rfft': numpy's rfftn of real arrays of `shape` (float32 or
        float64) forward, irfftn inverse.
    transform 'dct' / 'dst': scipy's dctn / dstn of `type` 2 or 3 forward,
        idctn / idstn inverse, over all axes of real arrays of `shape`.

    Building the plan chooses the strategy and builds the kernels once;
    execute() then runs it. describe() explains the plan; `report` holds the
    last run's report. One execution at a time per plan (a second thread's
    call waits).
    """

    def __init__(self, shape, dtype, *, transform="fft", axes=None, type=2, norm=None, workers=None, backend=None,
                 device_memory=None, host_memory=None, streams=None, strategy=None, register=None,
                 kernel_cache=None, devices=None):
        if transform not in _TRANSFORMS:
            raise InvalidArgumentError(f"transform={transform!r} is not one of {_TRANSFORMS}")
        try:
            self._shape = tuple(int(n) for n in shape)
        except (TypeError, ValueError):
            raise InvalidArgumentError(f"shape={shape!r} must be a sequence of integers") from None
        options = fft_options(norm=norm, workers=workers, backend=backend, device_memory=device_memory,
                              host_memory=host_memory, streams=streams, strategy=strategy, register=register,
                              kernel_cache=kernel_cache, devices=devices)
        axes, _, form = resolve_axes(len(self._shape), None, axes)
        if any(n < 1 for n in self._shape):
            raise InvalidArgumentError(f"shape={self._shape} has an axis of length below 1")
        volume = volume_shape(self._shape)
        self._transform = transform
        self._report = None
        if transform == "fft":
            self._dtype = complex_dtype(dtype, "dtype")
            self._engine = _oocfft.ComplexPlan(volume, self._dtype == np.complex128, form == "planes", options)
            return
        if form != "all" or axes != tuple(range(len(self._shape))):
            raise UnsupportedError(f"transform={transform!r} runs over all axes in order")
        self._dtype = real_dtype(dtype, "dtype")
        double = self._dtype == np.float64
        if transform == "rfft":
            self._engine = _oocfft.RealPlan(volume, double, options)
        else:
            self._engine = _oocfft.TrigPlan(volume, double, transform, type, len(self._shape), options)

    @property
    def shape(self):
        """The shape of the arrays the plan transforms (for 'rfft': the real arrays)."""
        return self._shape

    @property
    def dtype(self):
        """complex64/complex128 for 'fft', float32/float64 for the real transforms."""
        return self._dtype

    @property
    def spectrum_shape(self):
        """The half spectrum's shape of an 'rfft' plan (shape with the last axis n//2 + 1)."""
        if self._transform != "rfft":
            return self._shape
        return self._shape[:-1] + (self._shape[-1] // 2 + 1,)

    @property
    def backend(self):
        """'host' or 'cuda': where the plan runs."""
        return self._engine.backend

    @property
    def report(self):
        """The last execution's report as a dict (strategy, passes, bytes_moved, seconds, ...), or None."""
        return None if self._report is None else dict(self._report)

    def describe(self):
        """The plan in words: backend, passes, bricks, memory, PCIe floor, kernels."""
        return self._engine.describe()

    def _checked(self, x, shape, dtype, name):
        if not isinstance(x, np.ndarray):
            raise DtypeError(f"{name} is {type(x).__name__}, not a numpy array")
        if x.shape != shape:
            raise InvalidArgumentError(f"{name} has shape {x.shape}, the plan's is {shape}")
        if x.dtype != dtype:
            raise DtypeError(f"{name} has dtype {x.dtype}, the plan's is {dtype}")
        return x

    def _output(self, out, shape, dtype):
        if out is None:
            return result_array(shape, dtype)
        out = self._checked(out, shape, dtype, "out")
        if not (out.flags.c_contiguous and out.flags.writeable):
            raise InvalidArgumentError("out must be C-contiguous and writable")
        return out

    def execute(self, x, out=None, inverse=False, *, progress=None):
        """Runs the plan on x and returns the result.

        'fft', 'dct', 'dst': x of the plan's shape and dtype; the result goes
        to `out` (a new array when None; x itself when out is x: in place).
        'rfft': forward x real -> out the half spectrum; inverse x the half
        spectrum -> out real. x is never written unless out is x.
        """
        volume = volume_shape(self._shape)
        with progress_reporter(progress, self._transform) as callback:
            if self._transform == "rfft":
                half = volume[:2] + (volume[2] // 2 + 1,)
                complex_type = complex_dtype(self._dtype)
                if inverse:
                    x = self._checked(x, self.spectrum_shape, complex_type, "x")
                    y = self._output(out, self._shape, self._dtype)
                    self._report = self._engine.inverse(np.ascontiguousarray(x).reshape(half), y.reshape(volume),
                                                        callback)
                else:
                    x = self._checked(x, self._shape, self._dtype, "x")
                    y = self._output(out, self.spectrum_shape, complex_type)
                    self._report = self._engine.forward(np.ascontiguousarray(x).reshape(volume), y.reshape(half),
                                                        callback)
                return y
            x = self._checked(x, self._shape, self._dtype, "x")
            y = self._output(out, self._shape, self._dtype)
            if y is x:
                self._report = self._engine.execute(y.reshape(volume), bool(inverse), callback)
            elif self._transform == "fft" and x.flags.c_contiguous and x.flags.aligned and not np.shares_memory(x, y):
                # The first pass reads x where it lies; no copy first.
                self._report = self._engine.execute_into(x.reshape(volume), y.reshape(volume), bool(inverse),
                                                         callback)
            else:
                np.copyto(y, x)
                self._report = self._engine.execute(y.reshape(volume), bool(inverse), callback)
            return y
