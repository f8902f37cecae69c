"""F.interpolate's linear modes are torch's bits (Note [resampling arithmetic]): linear and
trilinear by torch's generic kernel, bilinear by it or by its channels-last kernel (outputs
whose height and width add up to 128 or less, channels-last inputs of more than 3 channels, 3
channels on one thread).  The gradients sum in another order (the op rows' tolerance)."""

import numpy as np
import pytest
from _oracle import same_outcome, threads  # noqa: F401 - threads: a fixture

CASES = [("linear", (2, 3, 5), {"scale_factor": 1.5}),
         ("linear", (2, 3, 5), {"size": 9, "align_corners": True}),
         ("linear", (1, 2, 7), {"size": 7}),
         ("linear", (1, 2, 30), {"scale_factor": 0.37}),
         ("trilinear", (1, 2, 3, 3, 4), {"scale_factor": 1.5}),
         ("trilinear", (1, 2, 3, 3, 4), {"size": (5, 2, 6), "align_corners": True}),
         ("trilinear", (2, 1, 4, 5, 3), {"size": (7, 5, 2)}),
         ("bilinear", (1, 3, 40, 50), {"size": (90, 110)}),
         ("bilinear", (2, 1, 33, 20), {"scale_factor": 3.3, "align_corners": True}),
         ("bilinear", (1, 4, 64, 64), {"size": (150, 60)})]


@pytest.mark.parametrize("mode,shape,kw", CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_linear_modes_are_torchs_bits(mode, shape, kw, dtype):
    def scenario(T):
        x = np.random.default_rng(len(shape)).standard_normal(shape).astype(dtype)
        return T.nn.functional.interpolate(T.tensor(x), mode=mode, **kw)
    same_outcome(scenario, rtol=0, atol=0)


@pytest.mark.parametrize("channels", [1, 3, 4, 8, 11, 19])
@pytest.mark.parametrize("align_corners", [False, True])
@pytest.mark.usefixtures("threads")
def test_bilinear_by_either_kernel(channels, align_corners):
    def scenario(T):
        rng = np.random.default_rng(channels)
        x = T.tensor(rng.standard_normal((2, channels, 5, 7)).astype("float32"))
        channels_last = x.permute(0, 2, 3, 1).contiguous().permute(0, 3, 1, 2)
        return [T.nn.functional.interpolate(v, size=size, mode="bilinear",
                                            align_corners=align_corners)
                for v in (x, channels_last) for size in ((9, 4), (3, 11), (70, 80))]
    # (torch lays a channels-last input's result out channels-last; doctensor has no
    # channels-last layouts: the values are compared, not the strides)
    same_outcome(scenario, rtol=0, atol=0, strides=False)
