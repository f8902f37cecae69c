"""``nn.Module``: registration of parameters, buffers and submodules, state dicts, hooks, repr.

A module keeps three ordered dicts, filled by attribute assignment (``__setattr__``):
``_parameters`` (``Parameter``s), ``_buffers`` (tensors saved in the state dict but not
trained, e.g. BatchNorm's running mean) and ``_modules`` (submodules).  Everything else
(``parameters()``, ``state_dict()``, ``to()``, ``print(model)``) walks those dicts.
"""

import itertools
import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import doctensor as torch

from ..parameter import Buffer, Parameter
from ._backward_hook import BackwardHook, call_non_full_hook

__all__ = ["Module", "RemovableHandle"]

_BOTH_HOOKS = ("Cannot use both regular backward hooks and full backward hooks on a single "
               "Module. Please use only one of them.")


def typename(obj):
    """torch.typename: ``torch.FloatTensor`` for a tensor, the class name otherwise."""
    if isinstance(obj, torch.Tensor):
        return f"torch.{obj.dtype.scalar_name}Tensor"
    module = type(obj).__module__
    name = type(obj).__qualname__
    return name if module in ("builtins", "__builtin__", None) else f"{module}.{name}"


def _addindent(s_, num_spaces):
    s = s_.split("\n")
    if len(s) == 1:
        return s_
    first = s.pop(0)
    return first + "\n" + "\n".join(num_spaces * " " + line for line in s)


class RemovableHandle:
    """What ``register_*_hook`` returns: ``handle.remove()`` unregisters the hook."""

    _next_id = itertools.count()

    def __init__(self, *hooks_dicts):
        self.hooks_dicts = hooks_dicts
        self.id = next(RemovableHandle._next_id)

    def remove(self):
        for d in self.hooks_dicts:
            d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class Module:
    """Base class of all layers and models: subclass it, set layers in ``__init__``, define
    ``forward``, and call the module."""

    training: bool

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        setattr_ = super().__setattr__
        setattr_("training", True)
        setattr_("_parameters", OrderedDict())
        setattr_("_buffers", OrderedDict())
        setattr_("_non_persistent_buffers_set", set())
        setattr_("_modules", OrderedDict())
        setattr_("_forward_hooks", OrderedDict())
        setattr_("_forward_hooks_with_kwargs", set())
        setattr_("_forward_pre_hooks", OrderedDict())
        setattr_("_forward_pre_hooks_with_kwargs", set())
        setattr_("_backward_hooks", OrderedDict())
        setattr_("_backward_pre_hooks", OrderedDict())
        setattr_("_is_full_backward_hook", None)  # (None until a backward hook is registered)

    def forward(self, *input):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    # -- registration ---------------------------------------------------------------------------
    def _check_name(self, name, what):
        if not isinstance(name, str):
            raise TypeError(f"{what} name should be a string. Got {typename(name)}")
        if "." in name:
            raise KeyError(f'{what} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{what} name can\'t be empty string ""')

    def register_parameter(self, name, param):
        """Add ``param`` (a ``Parameter`` or None) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter")
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be "
                f"created explicitly. To express '{name}' as a function of another Tensor, "
                "compute the value in the forward() method.")
        else:
            self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (saved unless not ``persistent``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer")
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a submodule (or None) under ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{typename(module)} is not a Module subclass")
        self._check_name(name, "module")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        def remove_from(*dicts):
            for d in dicts:
                if name in d:
                    del d[name]

        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules)
            self._non_persistent_buffers_set.discard(name)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = self.__dict__.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(self.__dict__, self._parameters, self._buffers)
                self._non_persistent_buffers_set.discard(name)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{typename(value)}' as child module "
                                    f"'{name}' (torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = self.__dict__.get("_buffers")
                if isinstance(value, Buffer) or buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, torch.Tensor):
                        raise TypeError(f"cannot assign '{typename(value)}' as buffer '{name}' "
                                        "(torch.nn.Buffer, torch.Tensor or None expected)")
                    persistent = value.persistent if isinstance(value, Buffer) else \
                        name not in self._non_persistent_buffers_set
                    self.register_buffer(name, value, persistent)
                else:
                    super().__setattr__(name, value)

    def __getattr__(self, name):
        d = self.__dict__
        for where in ("_parameters", "_buffers", "_modules"):
            if where in d and name in d[where]:
                return d[where][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for where in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(where, ()):
                del self.__dict__[where][name]
                self._non_persistent_buffers_set.discard(name)
                return
        super().__delattr__(name)

    def __dir__(self):
        keys = list(super().__dir__()) + list(self._parameters) + list(self._modules) + \
            list(self._buffers)
        return sorted(k for k in set(keys) if not k[0].isdigit())

    # -- walking the tree ---------------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """(name, module) for this module and every descendant, depth first."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, get_members, prefix="", recurse=True, remove_duplicate=True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                yield module_prefix + ("." if module_prefix else "") + k, v

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, parameter) pairs, shared parameters once: ``0.weight``, ``0.bias`` ..."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix, recurse,
                                       remove_duplicate)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix, recurse,
                                       remove_duplicate)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    def get_submodule(self, target):
        module = self
        for item in target.split(".") if target else ():
            if not hasattr(module, item):
                raise AttributeError(f"{module._get_name()} has no attribute `{item}`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def _member(self, target):
        """The submodule that holds the dotted path ``target``, the last name, and that
        attribute (torch's error where there is none)."""
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        return module, name, getattr(module, name)

    def get_parameter(self, target):
        """The parameter at the dotted path ``target`` ("layer.0.weight")."""
        _, name, param = self._member(target)
        if not isinstance(param, Parameter):
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at the dotted path ``target`` ("bn.running_mean")."""
        module, name, buffer = self._member(target)
        if name not in module._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return buffer

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first), then on self; return self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # -- modes and gradients ------------------------------------------------------------------
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters (to None by default, as torch does)."""
        from ..utils import reset_grads
        reset_grads(self.parameters(), set_to_none)

    # -- devices and dtypes -------------------------------------------------------------------
    def _apply(self, fn):
        """Convert every parameter (keeping the Parameter objects: ``param.data = fn(param)``),
        gradient and buffer."""
        for module in self.children():
            module._apply(fn)
        for p in self._parameters.values():
            if p is None:
                continue
            with torch.no_grad():
                new = fn(p)
            p.data = new
            if p.grad is not None:
                with torch.no_grad():
                    p.grad.data = fn(p.grad)
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def to(self, *args, **kwargs):
        """``to(device)``, ``to(dtype)`` (floating tensors only), ``to(device, dtype)``."""
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                device, dtype = a.device, a.dtype
            elif a is not None:
                device = a
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got "
                            f"desired dtype={dtype}")

        def convert(t):
            if t.is_floating_point() and dtype is not None:
                return t.to(device, dtype) if device is not None else t.to(dtype)
            return t.to(device) if device is not None else t
        return self._apply(convert)

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def _float_apply(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def double(self):
        return self._float_apply(torch.float64)

    def float(self):
        return self._float_apply(torch.float32)

    def half(self):
        return self._float_apply(torch.float16)

    def bfloat16(self):
        return self._float_apply(torch.bfloat16)

    def type(self, dst_type):
        """Every parameter and buffer ``.type(dst_type)`` (a dtype or a type name)."""
        return self._apply(lambda t: t.type(dst_type))

    def share_memory(self):
        """``share_memory_()`` on every parameter and buffer (torch.multiprocessing's
        Hogwild training shares a model so)."""
        return self._apply(lambda t: t.share_memory_())

    # -- calling ------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args)`` runs before ``forward``; it may return replacement args."""
        handle = RemovableHandle(self._forward_pre_hooks)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False,
                              always_call=False):
        """``hook(module, args, output)`` runs after ``forward``; it may replace the output."""
        handle = RemovableHandle(self._forward_hooks)
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs.add(handle.id)
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output)`` runs once the gradients of the module's
        inputs are computed; it may return a replacement ``grad_input`` (Note in
        ``_backward_hook``)."""
        if self._is_full_backward_hook is False:
            raise RuntimeError(_BOTH_HOOKS)
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """``hook(module, grad_output)`` runs once the gradients of the module's outputs are
        computed; it may return a replacement ``grad_output``."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self, hook):
        """The deprecated form: ``hook(module, grad_input, grad_output)`` on the node that made
        the output, whose inputs need not be the module's (torch's FutureWarning says when)."""
        if self._is_full_backward_hook is True:
            raise RuntimeError(_BOTH_HOOKS)
        self._is_full_backward_hook = False
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        return handle

    def __call__(self, *args, **kwargs):
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        backward_hook = None
        full = list(self._backward_hooks.values()) if self._is_full_backward_hook else []
        if full or self._backward_pre_hooks:  # Note in _backward_hook
            backward_hook = BackwardHook(self, full, list(self._backward_pre_hooks.values()))
            args = backward_hook.setup_input_hook(args)
        output = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                result = hook(self, args, kwargs, output)
            else:
                result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_hook is not None:
            if not isinstance(output, (torch.Tensor, tuple)):
                warnings.warn(f"For backward hooks to be called, module output should be a Tensor "
                              f"or a tuple of Tensors but received {type(output)}",
                              stacklevel=2)
            output = backward_hook.setup_output_hook(output)
        if self._is_full_backward_hook is False and self._backward_hooks:
            call_non_full_hook(self, list(self._backward_hooks.values()), args, output)
        return output

    # -- state dict ---------------------------------------------------------------------------
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()

    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An ordered dict of every parameter and persistent buffer, detached, by full name."""
        if destination is None:
            destination = OrderedDict()
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".",
                                  keep_vars=keep_vars)
        return destination

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys,
                              unexpected_keys, error_msgs):
        persistent = {k: v for k, v in self._buffers.items()
                      if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(),
                                                        persistent.items()) if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, torch.Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected '
                                  "torch.Tensor or Tensor-like object from checkpoint but "
                                  f"received {type(input_param)}")
                continue
            if input_param.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape "
                                  f"{input_param.shape} from checkpoint, the shape in current "
                                  f"model is {param.shape}.")
                continue
            try:
                with torch.no_grad():
                    param.copy_(input_param)
            except Exception as ex:
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions '
                                  f"in the model are {param.size()} and whose dimensions in the "
                                  f"checkpoint are {input_param.size()}, an exception occurred : "
                                  f"{ex.args}.")
        if strict:
            for key in state_dict:
                if key.startswith(prefix):
                    input_name = key[len(prefix):].split(".", 1)[0]
                    if input_name not in self._modules and input_name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy ``state_dict`` into the parameters and buffers; with ``strict``, missing and
        unexpected keys are errors (torch's message, word for word)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []

        def load(module, prefix=""):
            module._load_from_state_dict(state_dict, prefix, True, missing_keys,
                                         unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")

        load(self)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # -- printing -----------------------------------------------------------------------------
    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """The text inside ``Name(...)`` besides the children (override in layers)."""
        return ""

    def __repr__(self):
        extra_repr = self.extra_repr()
        extra_lines = extra_repr.split("\n") if extra_repr else []
        child_lines = [f"({key}): " + _addindent(repr(module), 2)
                       for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        return main_str + ")"
