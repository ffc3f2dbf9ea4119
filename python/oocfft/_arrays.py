"""Arrays as oocfft takes them: dtypes, the axes forms it computes, s, and the 3-D views it runs on."""
import operator

import numpy as np

from ._memory import result_array
from .errors import DtypeError, InvalidArgumentError, UnsupportedError

FORMS = ("oocfft transforms all axes of a 1-, 2- or 3-D array, or the last two axes of a 3-D array "
         "(a stack of 2-D transforms)")


def as_array(x, name="x"):
    """x as a numpy array (lists and scalars too); objects numpy cannot read raise DtypeError."""
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, (str, bytes)) or x is None:
        raise DtypeError(f"{name} is {type(x).__name__}, not an array")
    try:
        return np.asarray(x)
    except Exception as e:  # numpy's own reasons, reworded under oocfft's class
        raise DtypeError(f"{name} cannot be read as an array: {e}") from None


def _refuse_dtype(dtype, name, what):
    raise DtypeError(f"{name} has dtype {dtype}: oocfft computes {what} in float32/complex64 and "
                     "float64/complex128 (booleans and integers become float64, float16 float32)")


def complex_dtype(dtype, name="x"):
    """The complex dtype a transform of `dtype` computes in and returns, as scipy.fft's."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return np.dtype(np.complex128)
    if dtype.kind == "f" and dtype.itemsize in (2, 4):
        return np.dtype(np.complex64)
    if dtype.kind == "f" and dtype.itemsize == 8:
        return np.dtype(np.complex128)
    if dtype.kind == "c" and dtype.itemsize in (8, 16):
        return np.dtype(dtype.type)
    _refuse_dtype(dtype, name, "transforms")


def real_dtype(dtype, name="x"):
    """The real dtype of a real transform (rfftn's input, dctn's), as scipy.fft's."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        raise DtypeError(f"{name} has dtype {dtype}: this transform takes real input (float32 or float64)")
    return np.dtype(np.float32 if complex_dtype(dtype, name) == np.complex64 else np.float64)


def resolve_axes(ndim, s, axes, two_d=False):
    """(axes, s, form): the axes normalised, s as a tuple (or None), form "all" or "planes".

    Any other form raises UnsupportedError naming the forms oocfft computes.
    """
    if ndim < 1 or ndim > 3:
        raise UnsupportedError(f"a {ndim}-D array: {FORMS}")
    if s is not None:
        try:
            s = tuple(operator.index(n) for n in (s if np.iterable(s) else (s,)))
        except TypeError:
            raise InvalidArgumentError(f"s={s!r} must be a sequence of integers") from None
        if any(n < 1 for n in s):
            raise InvalidArgumentError(f"s={s} holds a length below 1")
    if axes is None:
        if s is not None:
            if len(s) > ndim:
                raise InvalidArgumentError(f"s={s} has more lengths than the array's {ndim} axes")
            axes = tuple(range(ndim - len(s), ndim))
        elif two_d:
            axes = (-2, -1)
        else:
            axes = tuple(range(ndim))
    try:
        axes = tuple(operator.index(a) for a in (axes if np.iterable(axes) else (axes,)))
    except TypeError:
        raise InvalidArgumentError(f"axes={axes!r} must be a sequence of integers") from None
    normalised = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise InvalidArgumentError(f"axis {a} is out of range for a {ndim}-D array")
        normalised.append(a % ndim)
    if len(set(normalised)) != len(normalised):
        raise InvalidArgumentError(f"axes={axes} repeats an axis")
    if s is not None and len(s) != len(normalised):
        raise InvalidArgumentError(f"s={s} and axes={axes} differ in length")
    if set(normalised) == set(range(ndim)):
        form = "all"
    elif ndim == 3 and set(normalised) == {1, 2}:
        form = "planes"
    else:
        raise UnsupportedError(f"axes={axes} of a {ndim}-D array: {FORMS}")
    return tuple(normalised), s, form


def resized(a, s, axes):
    """a zero-padded or cropped to length s[i] along axes[i] (scipy.fft's s), and whether it is a new array."""
    if s is None:
        return a, False
    shape = list(a.shape)
    for axis, n in zip(axes, s):
        shape[axis] = n
    if tuple(shape) == a.shape:
        return a, False
    out = np.zeros(shape, a.dtype)
    common = tuple(slice(0, min(n, m)) for n, m in zip(a.shape, shape))
    out[common] = a[common]
    return out, True


def volume_shape(shape):
    """The 3-D (nz, ny, nx) of a 1-3-D shape: leading axes of length 1."""
    return (1,) * (3 - len(shape)) + tuple(shape)


def readable_as_it_is(a):
    """True when the library can read a's memory as it is: native byte order, C order, aligned."""
    return a.dtype.isnative and a.flags.c_contiguous and a.flags.aligned


def can_transform_in_place(a, dtype):
    """True when the library can work on a's memory as it is."""
    return a.dtype == dtype and readable_as_it_is(a) and a.flags.writeable


def check_not_empty(a, name="x"):
    if a.size == 0:
        raise InvalidArgumentError(f"{name} has shape {a.shape}: an axis of length 0 has no transform")


def working_copy(a, dtype):
    """A C-order copy of a in dtype (for an input the library may not overwrite or cannot use as it is)."""
    out = result_array(a.shape, dtype)
    np.copyto(out, a)
    return out
