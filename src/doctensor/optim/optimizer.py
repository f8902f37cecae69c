"""``Optimizer``: parameter groups, per-parameter state, ``zero_grad``, state dicts."""

import copy
import functools
import warnings
from collections import defaultdict

import doctensor as torch
from doctensor.nn.utils import reset_grads

__all__ = ["Optimizer", "required", "check_lr", "check_betas", "check_nonnegative",
           "check_adam_args", "hyper", "scalar"]


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def check_lr(lr):
    """torch's check of a learning rate (a number, or a one-element tensor)."""
    if isinstance(lr, torch.Tensor) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_betas(betas):
    """torch's check of Adam-like ``betas``: both in [0, 1)."""
    for i, beta in enumerate(betas[:2]):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


def check_nonnegative(name, value):
    """torch's check of a hyperparameter that must be >= 0 (``eps``, ``weight_decay``...)."""
    if not 0.0 <= value:
        raise ValueError(f"Invalid {name} value: {value}")


def check_adam_args(lr, eps, betas, weight_decay):
    """torch's checks of the Adam family's common hyperparameters, in its order."""
    check_lr(lr)
    check_nonnegative("epsilon", eps)
    check_betas(betas)
    check_nonnegative("weight_decay", weight_decay)


def hyper(x):
    """A hyperparameter as torch's steps use it: a tensor (a learning rate may be one) as a
    0-d tensor, so that the arithmetic on it stays in its dtype; a number as is."""
    return x.squeeze() if isinstance(x, torch.Tensor) and x.dim() != 0 else x


def scalar(x):
    """A number (or 0-d tensor) as the Python number that an ``alpha=``/``value=`` argument
    receives: torch converts a 0-d tensor there to its value."""
    return x.item() if isinstance(x, torch.Tensor) else x


def _typename(obj):
    if isinstance(obj, torch.Tensor):
        return f"torch.{obj.dtype.scalar_name}Tensor"
    return type(obj).__qualname__


class Optimizer:
    """Base class: holds ``param_groups`` (dicts of ``params`` and options) and ``state``
    (per-parameter dicts, e.g. a momentum buffer).  Subclasses write ``step``.

    ``step`` runs under ``no_grad``; every update is an in-place op on the parameter, so it
    bumps the parameter's version and every ``detach()``ed alias of it sees the new values.
    """

    _step_tracked = False  # set by the first scheduler that follows this optimizer

    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {_typename(params)}")
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __init_subclass__(cls, **kwargs):
        """Each subclass's ``step`` runs with gradients off (on with ``differentiable=True``,
        so that the update can be differentiated) and, once a scheduler follows the optimizer,
        marks it as stepped (for the scheduler's order warning: torch's schedulers wrap the
        optimizer's ``step`` when they are made, so earlier steps are not seen)."""
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:
            step = cls.__dict__["step"]

            @functools.wraps(step)
            def wrapped(self, *args, **kwargs):
                if self._step_tracked:
                    self._opt_called = True
                with torch.set_grad_enabled(self.defaults.get("differentiable", False)):
                    return step(self, *args, **kwargs)
            cls.step = wrapped

    def add_param_group(self, param_group):
        """Add a group of parameters with its own options (missing ones from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, torch.Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, "
                            "but the ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=3)
        seen = {id(p) for group in self.param_groups for p in group["params"]}
        if seen & set(ids):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Reset every parameter's ``.grad``: to None (default), or zero it in place."""
        reset_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        raise NotImplementedError

    @staticmethod
    def _with_grad(group):
        """The parameters of ``group`` that have a gradient, in order."""
        return [p for p in group["params"] if p.grad is not None]

    @staticmethod
    def _scalar_dtype():
        """The dtype of scalar state such as ``step``: float64 when that is the default
        dtype, else float32."""
        return torch.float64 if torch.get_default_dtype() == torch.float64 else torch.float32

    def _state_of(self, p, *buffers, **scalars):
        """``p``'s state, created at its first update: a 0-d ``step`` (0), then a 0-d tensor
        per keyword (name=initial value), both of the scalar dtype, then a zero tensor like
        ``p`` per name in ``buffers``."""
        state = self.state[p]
        if len(state) == 0:
            dtype = self._scalar_dtype()
            state["step"] = torch.tensor(0.0, dtype=dtype)
            for name, value in scalars.items():
                state[name] = torch.tensor(value, dtype=dtype)
            for name in buffers:
                state[name] = torch.zeros_like(p)
        return state

    def _closure_loss(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def state_dict(self):
        """``{"state": {index: {...}}, "param_groups": [{..., "params": [indices]}]}``:
        parameters are replaced by their position across all groups."""
        mapping = {}
        start = 0
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for i, p in enumerate(group["params"], start):
                mapping.setdefault(id(p), i)
            packed["params"] = [mapping[id(p)] for p in group["params"]]
            start += len(packed["params"])
            groups.append(packed)
        state = {(mapping[id(k)] if isinstance(k, torch.Tensor) else k): v
                 for k, v in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """Restore ``state_dict()`` output.

        As in torch, the state tensors are not copied: a tensor that already has the
        parameter's dtype and device is shared with ``state_dict`` (``step`` always is), so
        stepping the optimizer that produced ``state_dict`` changes this one's state too.
        """
        state_dict = dict(state_dict)
        groups, saved_groups = self.param_groups, copy.deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        id_map = {old: p for g, s in zip(groups, saved_groups)
                  for old, p in zip(s["params"], g["params"])}

        def cast(param, value, key=None):
            if isinstance(value, torch.Tensor):
                if key == "step":
                    return value
                if param.is_floating_point():
                    return value.to(dtype=param.dtype, device=param.device)
                return value.to(device=param.device)
            if isinstance(value, dict):
                return {k: cast(param, v, k) for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                state[id_map[k]] = cast(id_map[k], v)
            else:
                state[k] = v
        self.state = state
        for g, s in zip(groups, saved_groups):
            s["params"] = g["params"]
        self.param_groups = saved_groups

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"
