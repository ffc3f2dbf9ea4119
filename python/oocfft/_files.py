"""Transforms of HDF5 datasets, with the oocfft command's semantics and file safety."""
import os

from . import _oocfft
from ._options import byte_count, fft_options, progress_reporter
from .errors import InvalidArgumentError

_TRANSFORMS = ("fft", "rfft", "dct", "dst")


def _path(name, value):
    if value is None:
        return None
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise InvalidArgumentError(f"{name} must be 'FILE:/DATASET', not {type(value).__name__}")
    return value


def inspect_dataset(path):
    """What oocfft sees in the dataset 'FILE:/DATASET': dims, dtype, chunks, filters, what was written."""
    return _oocfft.inspect_dataset(_path("path", path))


def describe_dataset_transform(input, *, transform="fft", inverse=False, real_nx=None, host_memory=None,
                               workers=None, backend=None, device_memory=None, streams=None, strategy=None,
                               register=None, kernel_cache=None, devices=None):
    """What transform_dataset would do with 'FILE:/DATASET', in words (the command's `oocfft info`): the
    dataset, in memory or streamed, the plan (passes, bricks, memory, PCIe floor). transform 'fft' or
    'rfft' (with inverse and real_nx as transform_dataset takes them). Nothing is written."""
    if transform not in ("fft", "rfft"):
        raise InvalidArgumentError(f"transform={transform!r}: described are 'fft' and 'rfft'")
    if real_nx is not None and (not isinstance(real_nx, int) or real_nx < 1):
        raise InvalidArgumentError(f"real_nx={real_nx!r} must be a positive int")
    options = fft_options(workers=workers, backend=backend, device_memory=device_memory, streams=streams,
                          strategy=strategy, register=register, kernel_cache=kernel_cache, devices=devices)
    return _oocfft.describe_dataset_transform(_path("input", input), transform == "rfft", bool(inverse),
                                              real_nx or 0, byte_count("host_memory", host_memory) or 0, options)


def transform_dataset(input, output=None, *, transform="fft", inverse=False, norm=None, type=2, in_place=False,
                      real_nx=None, host_memory=None, workers=None, backend=None, device_memory=None, streams=None,
                      strategy=None, register=None, kernel_cache=None, devices=None, progress=None):
    """Transforms the HDF5 dataset `input` ('FILE:/DATASET') into `output`, as the oocfft command does.

    transform 'fft'   numpy's fftn (inverse: ifftn) into h5py's complex;
              'rfft'  numpy's rfftn of a real dataset into its half spectrum
                      (inverse: irfftn back to real; real_nx when the half
                      spectrum was not written by oocfft);
              'dct', 'dst'  scipy's dctn / dstn of `type` 2 or 3 (inverse:
                      idctn / idstn), same dtype.
    The result is written under a temporary name and linked under `output`
    only when complete; an error, a cancel or Ctrl-C leaves the input as it
    was and no output. in_place=True replaces the input, once the result is
    complete ('fft', 'dct', 'dst'). Volumes larger than host memory stream
    through the engine; host_memory bounds what the run holds (default:
    from the host's available memory). Returns the run's report as a dict.

    HDF5 is not thread-safe in this build: do not use h5py on another thread
    while a dataset transform runs.
    """
    if transform not in _TRANSFORMS:
        raise InvalidArgumentError(f"transform={transform!r} is not one of {_TRANSFORMS}")
    input = _path("input", input)
    output = _path("output", output)
    budget = byte_count("host_memory", host_memory) or 0
    options = fft_options(norm=norm, workers=workers, backend=backend, device_memory=device_memory,
                          streams=streams, strategy=strategy, register=register, kernel_cache=kernel_cache, devices=devices)
    with progress_reporter(progress, transform) as callback:
        if transform == "fft":
            return _oocfft.transform_dataset(input, output, bool(inverse), bool(in_place), budget, options,
                                             callback)
        if transform == "rfft":
            if in_place:
                raise InvalidArgumentError("in_place=True: a real transform changes the dataset's shape and dtype")
            if output is None:
                raise InvalidArgumentError("no output dataset: give one ('FILE:/DATASET')")
            if real_nx is not None and (not isinstance(real_nx, int) or real_nx < 1):
                raise InvalidArgumentError(f"real_nx={real_nx!r} must be a positive int")
            return _oocfft.transform_real_dataset(input, output, bool(inverse), real_nx or 0, budget, options,
                                                  callback)
        return _oocfft.transform_trig_dataset(input, output, transform, type, bool(inverse), bool(in_place), budget,
                                              options, callback)
