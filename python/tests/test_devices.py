"""devices=: the plan over several devices. Without a GPU, the host backend's emulated devices run the
multi-device logic (their own budgets, lanes and carry-over, an explicit exchange), and the result equals
the one-device result."""
import numpy as np
import pytest

import oocfft

from conftest import random_complex


@pytest.mark.parametrize("devices", [[0, 1], (0, 1, 2), "0,1,2,3", 2])
@pytest.mark.parametrize("strategy", ["two_pass", "three_pass"])
def test_emulated_devices_equal_one_device(rng, devices, strategy):
    x = random_complex(rng, (9, 10, 12), np.complex64)
    options = dict(backend="host", strategy=strategy, device_memory=16 << 10)
    one = oocfft.fftn(x, **options)
    several = oocfft.fftn(x, devices=devices, **options)
    assert np.array_equal(several, one), f"devices={devices!r}"
    plan = oocfft.Plan(x.shape, x.dtype, devices=devices, **options)
    plan.execute(x)
    assert plan.report["passes"] >= 2


def test_bad_device_lists_are_refused(rng):
    x = random_complex(rng, (4, 4, 4), np.complex64)
    for bad in ([], [0, 0], [-1], "zero", "0,,1", [0.5j]):
        with pytest.raises(oocfft.InvalidArgumentError):
            oocfft.fftn(x, backend="host", devices=bad)
    with pytest.raises(oocfft.InvalidArgumentError):
        oocfft.fftn(x, backend="host", devices=True)
