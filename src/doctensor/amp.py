"""``torch.amp``: automatic mixed precision, ``autocast`` and ``GradScaler``.

Note [autocast is recorded, not applied]
``autocast`` keeps torch's signature, checks and state (``torch.is_autocast_enabled``,
``torch.get_autocast_dtype``), but doctensor's ops do not consult it: inside an enabled CPU
region torch runs ``matmul`` and ``linear`` in bfloat16 (results of dtype bfloat16), while
doctensor keeps computing them in the inputs' dtype (float32 results, more precise).  Code
that only wraps its forward pass in ``autocast`` runs unchanged; code that inspects the
dtypes inside the region sees the difference.

``GradScaler`` is torch's algorithm (scale the loss, unscale the gradients, skip a step with
non-finite gradients, grow or back off the scale).  A scaler for ``'cuda'`` without a real
GPU disables itself with torch's warning, as in torch's CPU build.
"""

import functools
import types
import warnings

from . import backends
from ._dtypes import bfloat16, float16, float32, int32
from .autograd import no_grad
from .ops.creation import full
from .tensor import Tensor

__all__ = ["autocast", "is_autocast_available", "is_autocast_enabled", "get_autocast_dtype",
           "GradScaler", "cuda_amp", "cpu_amp"]

# device type -> [enabled, dtype]: the state autocast regions set and restore
_STATE = {"cpu": [False, bfloat16], "cuda": [False, float16]}


def _cuda_available():
    return backends.cuda_mode() == "cupy"


def is_autocast_available(device_type):
    return device_type in _STATE


def is_autocast_enabled(device_type=None):
    """Whether an enabled autocast region for ``device_type`` (default ``'cuda'``) is open."""
    return _STATE[device_type or "cuda"][0]


def get_autocast_dtype(device_type):
    return _STATE[device_type][1]


class autocast:
    """``torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None)``: a
    context manager and decorator (Note [autocast is recorded, not applied])."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if device_type not in _STATE:
            raise RuntimeError(f"User specified an unsupported autocast device_type "
                               f"'{device_type}'")
        self.device = device_type
        self.fast_dtype = dtype or _STATE[device_type][1]
        if enabled and device_type == "cuda" and not _cuda_available():
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                          UserWarning, stacklevel=2)
            enabled = False
        if enabled and device_type == "cpu" and self.fast_dtype not in (bfloat16, float16):
            warnings.warn("In CPU autocast, but the target dtype is not supported. Disabling "
                          "autocast.\nCPU Autocast only supports dtypes of torch.bfloat16, "
                          "torch.float16 currently.", UserWarning, stacklevel=2)
            enabled = False
        self._enabled = bool(enabled)
        self._saved = []

    def __enter__(self):
        state = _STATE[self.device]
        self._saved.append(list(state))
        state[:] = [self._enabled, self.fast_dtype]
        return self

    def __exit__(self, *exc):
        _STATE[self.device][:] = self._saved.pop()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper


_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """Dynamic loss scaling, torch's algorithm (see the module docstring).

    Example:
        >>> import doctensor as torch
        >>> scaler = torch.amp.GradScaler("cpu")
        >>> scaler.scale(torch.tensor(2.0))
        tensor(131072.)
    """

    def __init__(self, device="cuda", init_scale=2.0**16, growth_factor=2.0,
                 backoff_factor=0.5, growth_interval=2000, enabled=True):
        self._device = device
        if enabled and device == "cuda" and not _cuda_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            enabled = False
        self._enabled = enabled
        self._init_scale = init_scale
        self._growth_factor = growth_factor
        self._backoff_factor = backoff_factor
        self._growth_interval = growth_interval
        self._init_growth_tracker = 0
        self._scale = None  # a 0-d float32 tensor, made by the first scale()
        self._growth_tracker = None  # a 0-d int32 tensor: successful steps in a row
        self._states = {}  # id(optimizer) -> {"stage": ..., "found_inf": float}

    def _lazy_init(self):
        if self._scale is None:
            self._scale = full((), self._init_scale, float32)
            self._growth_tracker = full((), self._init_growth_tracker, int32)

    def _check_scaled(self, funcname):
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate "
                                 "your script did not use scaler.scale(loss or outputs) earlier "
                                 "in the iteration.")

    def _state(self, optimizer):
        return self._states.setdefault(id(optimizer), {"stage": _READY, "found_inf": 0.0})

    def scale(self, outputs):
        """``outputs`` (a tensor, or nested lists and tuples of them) times the scale."""
        if not self._enabled:
            return outputs
        self._lazy_init()
        if isinstance(outputs, Tensor):
            return outputs * self._scale.to(outputs.device)
        return type(outputs)(self.scale(o) for o in outputs)

    def unscale_(self, optimizer):
        """Divide the optimizer's gradients by the scale, in place, and note non-finite ones."""
        if not self._enabled:
            return
        self._check_scaled("unscale_")
        state = self._state(optimizer)
        if state["stage"] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = self._scale.double().reciprocal().float()  # in float64, as torch
        found_inf = 0.0
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.grad.dtype is float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if not bool(p.grad.isfinite().all()):
                        found_inf = 1.0
                    p.grad.mul_(inv_scale)
        state["found_inf"], state["stage"] = found_inf, _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """``optimizer.step()`` unless the (unscaled) gradients hold an inf or a NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is "
                               "enabled.")
        self._check_scaled("step")
        state = self._state(optimizer)
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return result

    def update(self, new_scale=None):
        """Back the scale off after non-finite gradients, grow it after ``growth_interval``
        clean steps in a row (torch's ``_amp_update_scale_``), or set ``new_scale``."""
        if not self._enabled:
            return
        self._check_scaled("update")
        if new_scale is not None:
            value = new_scale.item() if isinstance(new_scale, Tensor) else new_scale
            self._scale.fill_(value)
        else:
            if not self._states:
                raise AssertionError("No inf checks were recorded prior to update.")
            found_inf = sum(s["found_inf"] for s in self._states.values())
            tracker = int(self._growth_tracker.item())
            if found_inf:
                self._scale.mul_(self._backoff_factor)
                tracker = 0
            elif tracker + 1 == self._growth_interval:
                grown = self._scale * self._growth_factor
                if bool(grown.isfinite()):
                    self._scale.copy_(grown)
                tracker = 0
            else:
                tracker += 1
            self._growth_tracker.fill_(tracker)
        self._states = {}

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def is_enabled(self):
        return self._enabled

    def state_dict(self):
        if not self._enabled:
            return {}
        tracker = (self._init_growth_tracker if self._growth_tracker is None
                   else int(self._growth_tracker.item()))
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor,
                "growth_interval": self._growth_interval, "_growth_tracker": tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = state_dict["growth_factor"]
        self._backoff_factor = state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._init_growth_tracker = state_dict["_growth_tracker"]
        if self._growth_tracker is not None:
            self._growth_tracker.fill_(state_dict["_growth_tracker"])


def _per_device(device, default_dtype):
    """``torch.cuda.amp`` / ``torch.cpu.amp``: the deprecated per-device spellings, which warn
    and make ``autocast(device, ...)`` and ``GradScaler(device, ...)``."""
    def device_autocast(enabled=True, dtype=default_dtype, cache_enabled=True):
        warnings.warn(f"`torch.{device}.amp.autocast(args...)` is deprecated. Please use "
                      f"`torch.amp.autocast('{device}', args...)` instead.", FutureWarning,
                      stacklevel=2)
        return autocast(device, dtype, enabled, cache_enabled)

    def device_grad_scaler(init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5,
                           growth_interval=2000, enabled=True):
        warnings.warn(f"`torch.{device}.amp.GradScaler(args...)` is deprecated. Please use "
                      f"`torch.amp.GradScaler('{device}', args...)` instead.", FutureWarning,
                      stacklevel=2)
        return GradScaler(device, init_scale, growth_factor, backoff_factor, growth_interval,
                          enabled)

    return types.SimpleNamespace(autocast=device_autocast, GradScaler=device_grad_scaler)


cuda_amp = _per_device("cuda", float16)
cpu_amp = _per_device("cpu", bfloat16)
