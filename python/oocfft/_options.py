"""The keyword options every oocfft call takes, gathered for the compiled module."""
import os
import re

from .errors import InvalidArgumentError

_NORMS = (None, "backward", "ortho", "forward")
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "m": 1000**2, "mb": 1000**2, "g": 1000**3, "gb": 1000**3,
          "t": 1000**4, "tb": 1000**4, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}


def byte_count(name, value):
    """Bytes from an int or a string such as "4GiB", "512 MiB", "2e9"; None stays None."""
    if value is None:
        return None
    if isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be a byte count, not a bool")
    if isinstance(value, int):
        if value < 0:
            raise InvalidArgumentError(f"{name}={value} is negative")
        if value >= 1 << 63:
            raise InvalidArgumentError(f"{name}={value} is beyond any memory (2**63 bytes or more)")
        return value
    if isinstance(value, str):
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*", value)
        if m and m.group(2).lower() in _UNITS:
            return byte_count(name, int(float(m.group(1)) * _UNITS[m.group(2).lower()]))
        raise InvalidArgumentError(f"{name}={value!r} is not a byte count (e.g. 4GiB, 512MiB, 2e9)")
    raise InvalidArgumentError(f"{name} must be an int or a string such as '4GiB', not {type(value).__name__}")


def thread_count(workers):
    """scipy.fft's workers: None = all cores here, k > 0 threads, -1 all cores, -k all but k-1."""
    if workers is None:
        return 0
    if isinstance(workers, bool) or not isinstance(workers, int):
        raise InvalidArgumentError(f"workers must be an int, not {type(workers).__name__}")
    if workers == 0:
        raise InvalidArgumentError("workers must not be zero")
    if workers > 0:
        return workers
    cores = os.cpu_count() or 1
    if workers < -cores:
        raise InvalidArgumentError(f"workers={workers} asks for fewer than one of {cores} cores")
    return cores + 1 + workers


def device_choice(devices):
    """devices= as the command's --devices spells it: None (the current device), 'current', 'all',
    an ordinal, or a sequence of ordinals ('0,1' too)."""
    if devices is None or isinstance(devices, str):
        return devices
    if isinstance(devices, bool):
        raise InvalidArgumentError("devices must be 'current', 'all', an int or a sequence of ints, not a bool")
    if isinstance(devices, int):
        return str(devices)
    try:
        ordinals = [int(d) for d in devices]
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"devices={devices!r} is not 'current', 'all', an int or a sequence of ints") from None
    return ",".join(map(str, ordinals))


def check_norm(norm):
    if norm not in _NORMS:
        raise InvalidArgumentError(f"norm={norm!r} is not one of 'backward', 'ortho', 'forward' (or None)")
    return norm or "backward"


def fft_options(norm=None, workers=None, backend=None, device_memory=None, host_memory=None, streams=None,
                strategy=None, register=None, kernel_cache=None, devices=None):
    """The dict the compiled module reads (python/src/python_options.hpp)."""
    return {
        "norm": check_norm(norm),
        "threads": thread_count(workers),
        "backend": backend,
        "device_memory": byte_count("device_memory", device_memory),
        "host_memory": byte_count("host_memory", host_memory),
        "streams": streams,
        "strategy": strategy,
        "register": register,
        "kernel_cache": None if kernel_cache is None else os.fspath(kernel_cache),
        "devices": device_choice(devices),
    }


class ProgressBar:
    """progress=True: a tqdm bar over the bricks of a run, closed when the run ends."""

    def __init__(self, description):
        self._description = description
        self._bar = None

    def __call__(self, done, total):
        if self._bar is None:
            from tqdm import tqdm

            self._bar = tqdm(total=total, desc=self._description, unit="brick")
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


class progress_reporter:
    """Context manager turning the progress= argument into the callable the module calls.

    None or False: no reports. True: a tqdm bar. A callable: called as
    callable(bricks_done, bricks_total) after each brick, from the thread
    that runs the transform's Python callbacks (never two at once).
    """

    def __init__(self, progress, description):
        if progress is None or progress is False:
            self._callback = None
        elif progress is True:
            self._callback = ProgressBar(description)
        elif callable(progress):
            self._callback = progress
        else:
            raise InvalidArgumentError("progress must be None, True, False or a callable(done, total)")

    def __enter__(self):
        return self._callback

    def __exit__(self, *exc):
        if isinstance(self._callback, ProgressBar):
            self._callback.close()
        return False
