"""The exceptions of oocfft.

Every exception oocfft raises derives from :class:`Error`, and also from the
built-in class a Python user would catch for that kind of failure::

    Error                     the base of all of them
    InvalidArgumentError      ValueError: a bad shape, axes, norm, option...
      UnsupportedError        a form oocfft does not compute (axes, type=1)
      DtypeError              also TypeError: a dtype oocfft cannot take
    OutOfMemoryError          MemoryError: host or device memory ran out
    FileError                 OSError: a missing file or dataset, a write that failed
    DeviceError               RuntimeError: a CUDA error
    CancelledError            a run cancelled by its progress callback

A Ctrl-C during a transform raises KeyboardInterrupt, as anywhere in Python.
"""


class Error(Exception):
    """Base class of the exceptions oocfft raises."""


class InvalidArgumentError(Error, ValueError):
    """An argument oocfft refuses: shape, axes, norm, option, array layout."""


class UnsupportedError(InvalidArgumentError):
    """A valid request that oocfft does not compute (an axes form, a DCT type)."""


class DtypeError(InvalidArgumentError, TypeError):
    """An array whose dtype oocfft cannot transform, or an object that is not an array."""


class OutOfMemoryError(Error, MemoryError):
    """Host or device memory ran out, or a budget is too small for the transform."""


class FileError(Error, OSError):
    """An HDF5 file or dataset that is missing, unreadable or cannot be written."""


class DeviceError(Error, RuntimeError):
    """A CUDA device failed (an error from the driver or a kernel)."""


class CancelledError(Error):
    """A run stopped by its cancel or progress callback."""


__all__ = [
    "Error",
    "InvalidArgumentError",
    "UnsupportedError",
    "DtypeError",
    "OutOfMemoryError",
    "FileError",
    "DeviceError",
    "CancelledError",
]
