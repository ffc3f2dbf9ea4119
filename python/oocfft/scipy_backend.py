"""scipy.fft's backend protocol: ``with scipy.fft.set_backend(oocfft.scipy_backend): scipy.fft.fftn(x)``.

fftn, ifftn, fft2, ifft2, rfftn, irfftn, dctn, idctn, dstn and idstn run on
oocfft where their arguments are a form oocfft computes; every other function,
and those calls with axes, types, dtypes or a plan that oocfft does not take,
return NotImplemented, so scipy falls back to its next backend (its own by
default).
"""
from . import _fft
from .errors import DtypeError, UnsupportedError

__ua_domain__ = "numpy.scipy.fft"

_FUNCTIONS = {f.__name__: f for f in (_fft.fftn, _fft.ifftn, _fft.fft2, _fft.ifft2, _fft.rfftn, _fft.irfftn,
                                      _fft.dctn, _fft.idctn, _fft.dstn, _fft.idstn)}


def __ua_function__(method, args, kwargs):
    function = _FUNCTIONS.get(method.__name__)
    if function is None or kwargs.get("plan") is not None:
        return NotImplemented
    try:
        return function(*args, **kwargs)
    except (UnsupportedError, DtypeError):
        return NotImplemented
