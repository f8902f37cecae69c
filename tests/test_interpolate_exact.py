"""F.interpolate's linear modes are torch's bits where torch runs its generic kernel (Note
[resampling arithmetic]): linear and trilinear always, bilinear when the output's height and
width add up to more than 128 (the image resizes of vision code; smaller outputs go to torch's
channels-last kernel, which sums in another order: the op rows' tolerance).  The gradients
sum in another order too (the rows' tolerance)."""

import numpy as np
import pytest
from _oracle import same_outcome

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
