"""numpy arrays over oocfft's page-locked host memory."""
import numpy as np

from . import _oocfft
from .errors import DtypeError, InvalidArgumentError


def _shape_tuple(shape):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(int(n) for n in shape)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"shape={shape!r} must be an int or a sequence of ints") from None


def empty(shape, dtype=np.complex64, *, page_locked=True):
    """A numpy array over HostArray memory: the fastest input a transform can have.

    The memory is mapped with transparent huge pages advised, first touched
    from all cores and page-locked for the GPU, so a plan DMAs its bricks
    straight from it and needs no staging. Where no GPU is usable, or the
    system refuses to lock (RLIMIT_MEMLOCK), it is ordinary memory
    (host_memory_info() says which). It stays allocated and locked as long as
    the array or any view of it lives. The elements start as zero.
    page_locked=False keeps the huge pages and the parallel first touch but
    does not lock (locking costs about 0.05 s/GiB): memory that is ready to
    be written at full speed, as oocfft's own results are.
    """
    dtype = np.dtype(dtype)
    if dtype.hasobject:
        raise DtypeError(f"dtype {dtype} holds Python objects: HostArray memory takes plain numeric types")
    return _oocfft.host_empty(list(_shape_tuple(shape)), dtype, bool(page_locked))


def zeros(shape, dtype=np.complex64, *, page_locked=True):
    """As empty(): HostArray memory is zero-filled when mapped."""
    return empty(shape, dtype, page_locked=page_locked)


# Results at least this large go to fresh HostArray memory (huge pages,
# touched by all cores) rather than np.empty, whose pages would fault one
# by one while the transform's last pass writes them.
_PREFAULTED_RESULT_BYTES = 64 << 20


def result_array(shape, dtype):
    """A new array for a transform's result: prefaulted pageable HostArray memory when large."""
    dtype = np.dtype(dtype)
    if int(np.prod(shape, dtype=np.int64)) * dtype.itemsize >= _PREFAULTED_RESULT_BYTES:
        return _oocfft.host_empty(list(shape), dtype, False)
    return np.empty(shape, dtype)


def host_memory_info(array):
    """For an array from empty()/zeros() or a view of one: a dict with page_locked,
    huge_pages_advised, lock_failure and bytes. None for any other array."""
    return _oocfft.host_memory_of(array)
