"""``inference_mode`` and anomaly mode against torch 2.13 (Notes [inference mode],
[anomaly mode])."""

import warnings

import pytest
import torch  # noqa: F401  (the oracle)
from _oracle import assert_same
from test_autograd_graph import run

import doctensor

INFERENCE = {
    "op_result_is_inference": """
x = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    y = x * 2
out = y, y.is_inference(), y.requires_grad, x.is_inference()""",
    "version_counter": """
with torch.inference_mode():
    y = torch.ones(3)
y._version""",
    "saved_for_backward": """
x = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    y = torch.ones(3)
x * y""",
    "not_saved_is_fine": """
x = torch.ones(3, requires_grad=True)
with torch.inference_mode():
    y = torch.ones(3)
z = x + y; z.sum().backward(); out = z, x.grad""",
    "inplace_outside": """
with torch.inference_mode():
    y = torch.ones(3)
y.mul_(2)""",
    "setitem_outside": """
with torch.inference_mode():
    y = torch.ones(3)
y[0] = 2""",
    "fill_outside": """
with torch.inference_mode():
    y = torch.ones(3)
y.fill_(2)""",
    "inplace_inside_ok": """
with torch.inference_mode():
    y = torch.ones(3)
with torch.inference_mode():
    y.mul_(2)
out = y""",
    "requires_grad_outside": """
with torch.inference_mode():
    y = torch.ones(3)
y.requires_grad_()""",
    "views_take_base_kind": """
with torch.inference_mode():
    y = torch.ones(3)
z = y.view(3)
out = (z.is_inference(), (y * 2).is_inference(), y.clone().is_inference(),
       y.detach().is_inference())""",
    "view_of_normal_inside": """
x = torch.ones(3)
with torch.inference_mode():
    x.mul_(2); v = x[0]
out = x.is_inference(), v.is_inference(), x, x._version
v.mul_(2)""",
    "flags": """
with torch.inference_mode():
    a = torch.is_inference_mode_enabled(), torch.is_grad_enabled()
with torch.inference_mode(False):
    b = torch.is_inference_mode_enabled(), torch.is_grad_enabled()
out = a, b, torch.is_inference_mode_enabled()""",
    "nested_false": """
with torch.inference_mode():
    with torch.inference_mode(False):
        y = torch.ones(2)
        flags = torch.is_inference_mode_enabled(), torch.is_grad_enabled()
out = y.is_inference(), flags""",
    "decorator_called": """
@torch.inference_mode()
def f(x):
    return x * 2
out = f(torch.ones(2)).is_inference(), torch.is_inference_mode_enabled()""",
    "decorator_bare": """
@torch.inference_mode
def f(x):
    return x * 2
out = f(torch.ones(2)).is_inference(), torch.is_inference_mode_enabled()""",
    "requires_grad_inside": """
with torch.inference_mode():
    y = torch.ones(3, requires_grad=True); z = y * 2
out = y.requires_grad, z.requires_grad, z, y.is_inference()""",
}


@pytest.mark.parametrize("name", sorted(INFERENCE))
def test_inference_mode_matches_torch(name):
    assert_same(run(INFERENCE[name], doctensor), run(INFERENCE[name], torch))


ANOMALY = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    with torch.autograd.detect_anomaly():
        enabled = torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
        x = torch.zeros(2, requires_grad=True)
        y = x / x
        try:
            y.sum().backward()
        except RuntimeError as e:
            err = str(e)
out = enabled, err, [user_frames(w.message) for w in caught], torch.is_anomaly_enabled()
"""

ANOMALY_VERSION = """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    torch.autograd.set_detect_anomaly(True, check_nan=False)
    flags = torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()
    x = torch.zeros(2, requires_grad=True)
    y = x.exp()
    keys = sorted(y.grad_fn.metadata)
    z = y * 1
    y.mul_(2)
    try:
        z.sum().backward()
    except RuntimeError as e:
        err = str(e)[:80]
    torch.autograd.set_detect_anomaly(False)
out = flags, keys, err, [user_frames(w.message) for w in caught], torch.is_anomaly_enabled()
"""

ANOMALY_NAN_OFF = """
with torch.autograd.set_detect_anomaly(True, check_nan=False):
    x = torch.zeros(2, requires_grad=True)
    (x / x).sum().backward()
out = x.grad, torch.is_anomaly_enabled()
"""


def user_frames(message):
    """The warning with the stack cut to the scenario's own frames (``<string>``): the
    frames above them (pytest, this file) differ between the two runs by a line number."""
    text = str(message)
    head, sep, rest = text.partition("Traceback of forward call that caused the error:\n")
    if not sep:
        return text
    return head + sep + rest[rest.index('  File "<string>"'):]


ANOMALY_CASES = {"nan": ANOMALY, "version": ANOMALY_VERSION, "nan_off": ANOMALY_NAN_OFF}


@pytest.mark.parametrize("name", sorted(ANOMALY_CASES))
def test_anomaly_mode_matches_torch(name):
    src = ANOMALY_CASES[name]
    ours = run(src, doctensor, user_frames=user_frames)
    theirs = run(src, torch, user_frames=user_frames)
    assert_same(ours, theirs)


def test_anomaly_traceback_names_the_user_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with doctensor.autograd.detect_anomaly():
            x = doctensor.zeros(2, requires_grad=True)
            y = x.sqrt()  # the line the warning must show
            with pytest.raises(RuntimeError, match="SqrtBackward0"):
                (y * 0).sum().backward()
    (msg,) = [str(w.message) for w in caught if "Error detected" in str(w.message)]
    assert "y = x.sqrt()  # the line the warning must show" in msg
    assert "doctensor" not in msg.split("(Triggered")[0]


def test_no_traceback_kept_when_off():
    x = doctensor.zeros(2, requires_grad=True)
    y = x.exp()
    assert y.grad_fn._extra is None  # no metadata (nor hooks) kept
