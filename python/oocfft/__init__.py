"""oocfft: 3-D FFTs of volumes larger than GPU memory, with numpy arrays in and out.

scipy.fft's functions (fftn, ifftn, fft2, ifft2, rfftn, irfftn, dctn, idctn,
dstn, idstn) with its conventions and dtypes, run by oocfft's streaming engine
on a GPU (its own CUDA kernels) or on the host. A volume larger than the GPU's
memory streams through it in bricks.

    import numpy as np, oocfft
    x = np.random.default_rng(0).standard_normal((256, 256, 256)).astype(np.complex64)
    X = oocfft.fftn(x)                         # as scipy.fft.fftn(x)
    oocfft.fftn(x, overwrite_x=True)           # in place, no copy
    a = oocfft.empty((1024, 1024, 1024))       # page-locked memory: the fastest input
    plan = oocfft.Plan(a.shape, a.dtype); plan.execute(a, out=a); print(plan.describe())
    oocfft.transform_dataset("in.h5:/x", "out.h5:/X")
    with scipy.fft.set_backend(oocfft.scipy_backend): scipy.fft.fftn(x)

Errors derive from oocfft.Error (oocfft.errors); Ctrl-C stops a transform
within one brick and raises KeyboardInterrupt.
"""
from . import _oocfft, asm, errors, scipy_backend
from ._fft import dctn, dstn, fft2, fftn, idctn, idstn, ifft2, ifftn, irfftn, rfftn
from ._files import describe_dataset_transform, inspect_dataset, transform_dataset
from ._memory import empty, host_memory_info, zeros
from ._plan import Plan
from .errors import (CancelledError, DeviceError, DtypeError, Error, FileError, InvalidArgumentError,
                     OutOfMemoryError, UnsupportedError)

cuda_available = _oocfft.cuda_available
__version__ = _oocfft.version

__all__ = [
    "fftn", "ifftn", "fft2", "ifft2", "rfftn", "irfftn", "dctn", "idctn", "dstn", "idstn",
    "Plan", "empty", "zeros", "host_memory_info", "transform_dataset", "inspect_dataset", "describe_dataset_transform",
    "cuda_available",
    "asm", "scipy_backend", "errors",
    "Error", "InvalidArgumentError", "UnsupportedError", "DtypeError", "OutOfMemoryError", "FileError",
    "DeviceError", "CancelledError",
]
