# Type stub of the oocfft package's public functions (python/oocfft).
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

from . import asm as asm
from . import errors as errors
from . import scipy_backend as scipy_backend
from ._plan import Plan as Plan
from .errors import (CancelledError as CancelledError, DeviceError as DeviceError, DtypeError as DtypeError,
                     Error as Error, FileError as FileError, InvalidArgumentError as InvalidArgumentError,
                     OutOfMemoryError as OutOfMemoryError, UnsupportedError as UnsupportedError)

_Bytes = Union[int, str, None]
_Progress = Union[bool, Callable[[int, int], Any], None]
_Axes = Union[int, Sequence[int], None]
_Shape = Union[int, Sequence[int], None]
_Devices = Union[str, int, Sequence[int], None]

def _complex_transform_signature(x: npt.ArrayLike, s: _Shape = ..., axes: _Axes = ..., norm: Optional[str] = ...,
                                 overwrite_x: bool = ..., workers: Optional[int] = ..., *, plan: None = ...,
                                 backend: Optional[str] = ..., device_memory: _Bytes = ..., host_memory: _Bytes = ...,
                                 streams: Optional[int] = ..., strategy: Optional[str] = ...,
                                 register: Optional[str] = ..., kernel_cache: Optional[str] = ...,
                                 devices: _Devices = ...,
                                 progress: _Progress = ...) -> np.ndarray: ...

fftn = _complex_transform_signature
ifftn = _complex_transform_signature
fft2 = _complex_transform_signature
ifft2 = _complex_transform_signature
rfftn = _complex_transform_signature
irfftn = _complex_transform_signature

def _trig_signature(x: npt.ArrayLike, type: int = ..., s: _Shape = ..., axes: _Axes = ..., norm: Optional[str] = ...,
                    overwrite_x: bool = ..., workers: Optional[int] = ..., *, orthogonalize: Optional[bool] = ...,
                    backend: Optional[str] = ..., device_memory: _Bytes = ..., host_memory: _Bytes = ...,
                    streams: Optional[int] = ..., strategy: Optional[str] = ..., register: Optional[str] = ...,
                    kernel_cache: Optional[str] = ..., devices: _Devices = ...,
                    progress: _Progress = ...) -> np.ndarray: ...

dctn = _trig_signature
idctn = _trig_signature
dstn = _trig_signature
idstn = _trig_signature

def empty(shape: Union[int, Sequence[int]], dtype: npt.DTypeLike = ...) -> np.ndarray: ...
def zeros(shape: Union[int, Sequence[int]], dtype: npt.DTypeLike = ...) -> np.ndarray: ...
def host_memory_info(array: Any) -> Optional[dict[str, Any]]: ...
__version__: str

def cuda_available() -> bool: ...
def inspect_dataset(path: str) -> dict[str, Any]: ...
def describe_dataset_transform(input: str, *, transform: str = ..., inverse: bool = ..., real_nx: Optional[int] = ...,
                               host_memory: _Bytes = ..., workers: Optional[int] = ..., backend: Optional[str] = ...,
                               device_memory: _Bytes = ..., streams: Optional[int] = ..., strategy: Optional[str] = ...,
                               register: Optional[str] = ..., kernel_cache: Optional[str] = ...,
                               devices: _Devices = ...) -> str: ...
def transform_dataset(input: str, output: Optional[str] = ..., *, transform: str = ..., inverse: bool = ...,
                      norm: Optional[str] = ..., type: int = ..., in_place: bool = ..., real_nx: Optional[int] = ...,
                      host_memory: _Bytes = ..., workers: Optional[int] = ..., backend: Optional[str] = ...,
                      device_memory: _Bytes = ..., streams: Optional[int] = ..., strategy: Optional[str] = ...,
                      register: Optional[str] = ..., kernel_cache: Optional[str] = ...,
                      devices: _Devices = ..., progress: _Progress = ...) -> dict[str, Any]: ...
