"""torch's CPU build (AVX512 or AVX2, Note [CPU capability]) as doctensor follows it: the
build picked on this machine, the environment variables that pick another, and the results
that show the build (softmax's sums, NaN in the activations' vector loops), compared with
torch 2.13 bit for bit on this machine and, in a subprocess, under both libraries' AVX2
switch (so an AVX512 machine checks the AVX2 build too)."""

import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import doctensor
from doctensor._exact import capability


def test_the_build_is_torchs():
    if not os.environ.get("DOCTENSOR_CPU_CAPABILITY") and not os.environ.get(
            "ATEN_CPU_CAPABILITY"):
        assert capability.cpu_capability() == torch.backends.cpu.get_cpu_capability().lower()


def _run(code, **env):
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)
    return done.returncode, done.stdout, done.stderr


def test_a_bad_choice_is_refused():
    rc, _, err = _run("import doctensor", DOCTENSOR_CPU_CAPABILITY="sse9")
    assert rc != 0 and "DOCTENSOR_CPU_CAPABILITY='sse9'" in err


GRADS = {
    "elu": lambda F, x: F.elu(x),
    "elu_": lambda F, x: F.elu(x * 1, 0.5, inplace=True),
    "selu": lambda F, x: F.selu(x),
    "celu": lambda F, x: F.celu(x, 2.0),
    "hardswish": lambda F, x: F.hardswish(x),
    "hardtanh": lambda F, x: F.hardtanh(x, -2.0, 0.5),
    "relu6": lambda F, x: F.relu6(x),
    "softshrink": lambda F, x: F.softshrink(x),
    "hardshrink": lambda F, x: F.hardshrink(x),
}
LAYOUTS = {
    "flat": lambda x: x,
    "transposed": lambda x: x.reshape(-1, 5).t(),
    "sliced": lambda x: x.reshape(-1, 5)[:, 1:],
}


def _nan_grads(T, name, n, layout, dtype):
    """The input gradient of an activation over ``n`` values, every third one NaN."""
    values = np.linspace(-4, 4, n)
    values[::3] = np.nan
    x = LAYOUTS[layout](T.tensor(values, dtype=getattr(T, dtype))).requires_grad_()
    y = GRADS[name](T.nn.functional, x)
    (g,) = T.autograd.grad(y, x, T.ones_like(y))
    return g.numpy()


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", GRADS)
def test_nan_in_vector_loops(name, layout):
    """NaN exactly where torch has NaN; the other values close (Note [activation
    arithmetic]; in place, elu's slope is the result plus alpha: a cancellation)."""
    for dtype in ("float32", "float64"):
        for n in (20, 45, 100, 40_000, 70_005):
            ours = _nan_grads(doctensor, name, n, layout, dtype)
            theirs = _nan_grads(torch, name, n, layout, dtype)
            np.testing.assert_array_equal(np.isnan(ours), np.isnan(theirs), f"{dtype} {n}")
            np.testing.assert_allclose(ours, theirs, rtol=1e-5, err_msg=f"{dtype} {n}")


_AVX2_CHECK = """
import numpy as np, torch, doctensor
assert torch.backends.cpu.get_cpu_capability() == "AVX2"
rng = np.random.default_rng(0)
for shape, dim in (((50, 37), 1), ((10, 20), 0), ((3, 100, 7), 1), ((4, 1000), -1)):
    x = rng.standard_normal(shape).astype(np.float32)
    for f in ("softmax", "log_softmax"):
        a = getattr(torch.tensor(x), f)(dim).numpy()
        b = getattr(doctensor.tensor(x), f)(dim).numpy()
        assert (a.view(np.int32) == b.view(np.int32)).all(), (f, shape)
values = np.linspace(-4, 4, 40)
values[::3] = np.nan
for T in (torch, doctensor):
    x = T.tensor(values, dtype=T.float32, requires_grad=True)
    y = T.nn.functional.elu(x)
    print(T.autograd.grad(y, x, T.ones_like(y))[0].numpy().tolist())
"""


def test_the_avx2_build_on_any_machine():
    rc, out, err = _run(_AVX2_CHECK, ATEN_CPU_CAPABILITY="avx2",
                        DOCTENSOR_CPU_CAPABILITY="avx2")
    assert rc == 0, err
    theirs, ours = out.splitlines()
    assert ours == theirs
