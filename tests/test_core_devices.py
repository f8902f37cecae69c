"""Devices: ``.to()``, ``.cpu()``, ``.cuda()`` on the emulated CUDA device.

The torch oracle here is a CPU build (no CUDA), so the doctensor side is checked against
torch's documented semantics: ``.cuda()`` copies to separate memory (another data_ptr),
``.cpu()`` copies back and is the tensor itself on the CPU, ``device='cuda:0'`` in repr,
``is_cuda``, mixed-device ops raise RuntimeError, gradients flow back across the copy
(``ToCopyBackward0``), and with ``DOCTENSOR_CUDA=off`` torch's "not compiled with CUDA"
AssertionError.  The emulator's warning-once behaviour runs in fresh interpreters (the backend
is chosen once per process).
"""

import os
import subprocess
import sys
import warnings

import pytest
import torch
from _oracle import same_outcome

import doctensor as dt

pytestmark = pytest.mark.filterwarnings("ignore:doctensor. no GPU visible")


@pytest.fixture(autouse=True)
def _emulated():
    if dt.backends.cuda_mode() == "off":
        pytest.skip("DOCTENSOR_CUDA=off in this process")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def test_cuda_copies_and_cpu_returns_self():
    x = dt.arange(6.0).reshape(2, 3)
    y = x.cuda()
    assert y.is_cuda and not x.is_cuda
    assert y.device == dt.device("cuda:0") and y.device == dt.device("cuda", 0)
    assert str(y.device) == "cuda:0" and y.get_device() == 0 and x.get_device() == -1
    assert y.data_ptr() != x.data_ptr()
    assert y.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    assert y.tolist() == x.tolist() and y.dtype is x.dtype and y.stride() == x.stride()
    y.add_(1)
    assert x.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert y._version == 1 and x._version == 0
    assert x.cpu() is x
    assert y.cuda() is y and y.to("cuda") is y and y.to("cuda:0") is y
    z = y.cpu()
    assert not z.is_cuda and z.data_ptr() != y.data_ptr() and z.data_ptr() != x.data_ptr()
    assert z.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    assert x.to("cpu") is x and x.to(dt.float32) is x and x.to(x) is x


def test_repr_and_to_variants():
    x = dt.tensor([1.0, 2.0])
    y = x.to("cuda")
    assert repr(y) == "tensor([1., 2.], device='cuda:0')"
    assert repr(dt.tensor([1, 2], device="cuda")) == "tensor([1, 2], device='cuda:0')"
    w = x.to("cuda", dt.float64)
    assert w.dtype is dt.float64 and w.is_cuda
    assert repr(w) == "tensor([1., 2.], device='cuda:0', dtype=torch.float64)"
    assert x.to(device="cuda:0", dtype=dt.int64).tolist() == [1, 2]
    assert x.to(w).dtype is dt.float64 and x.to(w).is_cuda
    assert dt.zeros(2, device="cuda").is_cuda and dt.ones_like(y).is_cuda
    assert dt.zeros(2, device=dt.device("cuda:0")).device == y.device
    leaf = dt.ones(2, requires_grad=True)
    g = leaf.cuda()
    assert repr(g) == "tensor([1., 1.], device='cuda:0', grad_fn=<ToCopyBackward0>)"


def test_gradient_flows_back_across_devices():
    x = dt.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.cuda()
    assert type(y.grad_fn).__name__ == "ToCopyBackward0" and not y.is_leaf
    (y * y).sum().backward()
    assert not x.grad.is_cuda and x.grad.tolist() == [2.0, 4.0, 6.0]
    c = dt.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    (c.cpu() * 3).sum().backward()
    assert c.grad.is_cuda and c.grad.tolist() == [3.0, 3.0]


def test_detach_and_inplace_on_cuda():
    # the fifth article: detach() on the device shares memory with the original
    x = dt.tensor([1.0, 2.0, 3.0], requires_grad=True).cuda()
    y = x * 2
    z = y.detach()
    z[0] = 100.0
    assert y.tolist() == [100.0, 4.0, 6.0] and y._version == 1 and z._version == 1
    assert z.data_ptr() == y.data_ptr() and z.is_cuda
    assert repr(z) == "tensor([100.,   4.,   6.], device='cuda:0')"


def test_mixed_devices_raise_and_change_nothing():
    a = dt.ones(2, device="cuda")
    b = dt.ones(2)
    msg_ab = ("Expected all tensors to be on the same device, but found at least two devices, "
              "cuda:0 and cpu!")
    msg_ba = ("Expected all tensors to be on the same device, but found at least two devices, "
              "cpu and cuda:0!")
    for fn, msg in ((lambda: a + b, msg_ab), (lambda: b * a, msg_ba), (lambda: a.add_(b), msg_ab),
                    (lambda: dt.cat([a, b]), msg_ab), (lambda: dt.where(b > 0, b, a), msg_ba)):
        with pytest.raises(RuntimeError) as info:
            fn()
        assert str(info.value) == msg
    assert a.tolist() == [1.0, 1.0] and a._version == 0 and b._version == 0
    # a 0-d CPU tensor may join a CUDA computation, as in torch
    assert (a * dt.tensor(3.0)).is_cuda and (a * dt.tensor(3.0)).tolist() == [3.0, 3.0]
    with pytest.raises(TypeError) as info:
        a.numpy()
    assert str(info.value) == ("can't convert cuda:0 device type tensor to numpy. Use "
                               "Tensor.cpu() to copy the tensor to host memory first.")
    assert a.cpu().numpy().tolist() == [1.0, 1.0]
    assert a.item() if a.numel() == 1 else True


def test_picking_ops_stay_on_the_device_and_refuse_mixed_ones():
    x = dt.arange(12.0).view(3, 4).cuda()
    index = dt.tensor([[0], [1], [2]])
    outs = [x.gather(1, index.cuda()), x.index_select(0, dt.tensor([1]).cuda()), x.tril(),
            x.nonzero(), x.roll(1), x.amax(1), x.unique(), x.masked_select(x > 5),
            dt.nn.functional.conv2d(x.view(1, 1, 3, 4), dt.ones(1, 1, 2, 2).cuda())]
    assert all(o.is_cuda for o in outs)
    for bad in (lambda: x.gather(1, index), lambda: x.index_select(0, dt.tensor([1])),
                lambda: x.masked_select(dt.ones(3, 4, dtype=dt.bool)),
                lambda: dt.nn.functional.conv2d(x.view(1, 1, 3, 4), dt.ones(1, 1, 2, 2))):
        with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
            bad()


def test_copy_between_devices():
    a = dt.zeros(3, device="cuda")
    b = dt.arange(3.0)
    a.copy_(b)
    assert a.is_cuda and a.tolist() == [0.0, 1.0, 2.0] and a._version == 1
    b.copy_(a * 2)
    assert b.tolist() == [0.0, 2.0, 4.0] and not b.is_cuda


def test_device_objects_match_torch():
    def scenario(T):
        d = T.device("cuda:0")
        return [repr(d), str(d), d.type, d.index, repr(T.device("cpu")), repr(T.device("cuda", 1)),
                T.device("cuda") == T.device("cuda"), T.device("cpu").index]
    same_outcome(scenario)


def _run(code, mode):
    env = dict(os.environ)
    env.pop("DOCTENSOR_CUDA", None)
    if mode is not None:
        env["DOCTENSOR_CUDA"] = mode
    return subprocess.run([sys.executable, "-W", "always", "-c", code], env=env,
                          capture_output=True, text=True, timeout=60)


WARN = "doctensor: no GPU visible; 'cuda' tensors run on the emulated CUDA device"


@pytest.mark.skipif(dt.backends.cuda_mode() == "cupy", reason="a real GPU is visible")
def test_emulator_warns_once_when_chosen_automatically():
    code = ("import doctensor as torch\n"
            "a = torch.ones(2).cuda()\nb = torch.zeros(2, device='cuda')\nc = a.cuda() + b\n"
            "print(c.device, torch.cuda.is_available())\n")
    out = _run(code, None)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "cuda:0 False"
    assert out.stderr.count(WARN) == 1, out.stderr
    explicit = _run(code, "emulate")
    assert explicit.returncode == 0 and WARN not in explicit.stderr


def test_cuda_off_gives_torchs_error():
    code = ("import doctensor as torch\nx = torch.ones(2)\n"
            "for f in (lambda: x.cuda(), lambda: torch.zeros(1, device='cuda'), "
            "lambda: x.to('cuda:0')):\n"
            "    try:\n        f()\n    except AssertionError as e:\n        print(repr(e))\n"
            "print(x.tolist(), x._version, torch.cuda.is_available(), torch.cuda.device_count())\n")
    out = _run(code, "off")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "AssertionError('Torch not compiled with CUDA enabled')"] * 3 + ["[1.0, 1.0] 0 False 0"]


@pytest.mark.skipif(dt.backends.cuda_mode() == "cupy", reason="a real GPU is visible")
@pytest.mark.parametrize("mode", [None, "off"])
def test_memory_pool_calls_without_a_gpu_are_torchs(mode):
    """Training scripts call torch.cuda.empty_cache() and memory_reserved() unguarded: with no
    GPU they are silent and report 0, as torch's CPU build's (no emulator warning either)."""
    code = ("import doctensor as torch\n"
            "print(torch.cuda.empty_cache(), torch.cuda.memory_reserved())\n")
    out = _run(code, mode)
    assert out.returncode == 0, out.stderr
    assert (out.stdout, out.stderr) == ("None 0\n", "")
    assert (torch.cuda.empty_cache(), torch.cuda.memory_reserved()) == (None, 0)  # torch's
