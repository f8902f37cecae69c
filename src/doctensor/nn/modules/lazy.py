"""Lazy modules: layers that learn their input size from their first call.

Until then their parameters (and BatchNorm's running statistics) are
``UninitializedParameter``s (``UninitializedBuffer``s) of no shape.  The first call runs a
forward pre-hook that reads the input's size, materializes them, draws them with the layer's
own ``reset_parameters`` (so the random draws happen then, in call order: a seeded lazy
network equals torch's bit for bit), removes the hook and turns the module into the layer it
stands for (``LazyLinear`` becomes ``Linear``).
"""

import inspect
import itertools
import warnings

import doctensor as torch

from ..parameter import UninitializedBuffer, UninitializedParameter, is_lazy
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Linear
from .normalization import BatchNorm1d, BatchNorm2d, BatchNorm3d

__all__ = ["LazyModuleMixin", "LazyLinear", "LazyConv1d", "LazyConv2d", "LazyConv3d",
           "LazyConvTranspose1d", "LazyConvTranspose2d", "LazyConvTranspose3d",
           "LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
           "LazyInstanceNorm2d", "LazyInstanceNorm3d"]


class LazyModuleMixin:
    """What every lazy module shares: the first-call hook, ``has_uninitialized_params``,
    state dicts that hold (and load into) uninitialized parameters."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, value in itertools.chain(self._parameters.items(), self._buffers.items()):
            if value is None or name in self._non_persistent_buffers_set:
                continue
            destination[prefix + name] = value if is_lazy(value) or keep_vars \
                else value.detach()

    def _load_from_state_dict(self, state_dict, prefix, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """An uninitialized parameter takes the shape of an initialized one loaded into it;
        loading an uninitialized one into it changes nothing (torch copies nothing)."""
        both_lazy = set()
        for name, value in itertools.chain(self._parameters.items(), self._buffers.items()):
            loaded = state_dict.get(prefix + name)
            if value is None or loaded is None or not is_lazy(value):
                continue
            if is_lazy(loaded):
                both_lazy.add(prefix + name)
            else:
                value.materialize(loaded.shape)
        kept = {k: v for k, v in state_dict.items() if k not in both_lazy}
        super()._load_from_state_dict(kept, prefix, strict, missing_keys, unexpected_keys,
                                      error_msgs)
        missing_keys[:] = [k for k in missing_keys if k not in both_lazy]

    def initialize_parameters(self, *args, **kwargs):
        raise NotImplementedError(
            f"initialize_parameters is not implemented for {self.__class__.__name__}")

    def has_uninitialized_params(self):
        """Whether a parameter or buffer still has no shape."""
        return any(is_lazy(v) for v in itertools.chain(self._parameters.values(),
                                                       self._buffers.values()))

    def _infer_parameters(self, module, args, kwargs=None):
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        del module._initialize_hook
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become


def _lazy_weight_and_bias(module, bias, device, dtype):
    module.weight = UninitializedParameter(device=device, dtype=dtype)
    if bias:
        module.bias = UninitializedParameter(device=device, dtype=dtype)


class LazyLinear(LazyModuleMixin, Linear):
    """A ``Linear`` whose ``in_features`` is the last dim of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        with warnings.catch_warnings():  # Linear draws its 0 x 0 weight: torch's does not
            warnings.filterwarnings("ignore", "Initializing zero-element tensors is a no-op")
            super().__init__(0, 0, False)
        _lazy_weight_and_bias(self, bias, device, dtype)
        self.out_features = out_features

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            self.in_features = input.shape[-1]
            self.weight.materialize((self.out_features, self.in_features))
            if self.bias is not None:
                self.bias.materialize((self.out_features,))
            self.reset_parameters()
        if self.in_features == 0:  # the weight came from a state dict
            if input.shape[-1] != self.weight.shape[-1]:
                raise AssertionError(
                    f"The in_features inferred from input: {input.shape[-1]} is not equal to "
                    f"in_features from self.weight: {self.weight.shape[-1]}")
            self.in_features = input.shape[-1]


class _LazyConvNd(LazyModuleMixin):
    """A convolution whose ``in_channels`` is the channel dim of its first input."""

    def __init__(self, out_channels, kernel_size, *args, **kwargs):
        arguments = inspect.signature(self.cls_to_become).bind(
            0, out_channels, kernel_size, *args, **kwargs).arguments
        bias = arguments.pop("bias", True)
        super().__init__(**arguments, bias=False)
        _lazy_weight_and_bias(self, bias, arguments.get("device"), arguments.get("dtype"))
        self.out_channels = out_channels

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input, *args, **kwargs):
        if not self.has_uninitialized_params():
            return
        self.in_channels = self._get_in_channels(input)
        if self.in_channels % self.groups:
            raise ValueError("in_channels must be divisible by groups")
        if self.transposed:
            self.weight.materialize((self.in_channels, self.out_channels // self.groups,
                                     *self.kernel_size))
        else:
            self.weight.materialize((self.out_channels, self.in_channels // self.groups,
                                     *self.kernel_size))
        if self.bias is not None:
            self.bias.materialize((self.out_channels,))
        self.reset_parameters()

    def _get_in_channels(self, input):
        unbatched = self.dims + 1
        if input.dim() not in (unbatched, unbatched + 1):
            raise RuntimeError(f"Expected {unbatched}D (unbatched) or {unbatched + 1}D (batched) "
                               f"input to {type(self).__name__}, but got input of size: "
                               f"{input.shape}")
        return input.shape[1] if input.dim() == unbatched + 1 else input.shape[0]


def _lazy_conv(conv):
    """The lazy form of the convolution class ``conv`` (its arguments less in_channels)."""
    return type("Lazy" + conv.__name__, (_LazyConvNd, conv), {
        "cls_to_become": conv, "__module__": __name__,
        "__doc__": f"A ``{conv.__name__}`` whose ``in_channels`` is the channel dim of its first "
                   "input."})


LazyConv1d = _lazy_conv(Conv1d)
LazyConv2d = _lazy_conv(Conv2d)
LazyConv3d = _lazy_conv(Conv3d)
LazyConvTranspose1d = _lazy_conv(ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv(ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv(ConvTranspose3d)


class _LazyNormBase(LazyModuleMixin):
    """A batch or instance norm whose ``num_features`` is dim 1 of its first input."""

    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True,
                 device=None, dtype=None, *, bias=True):
        super().__init__(0, eps, momentum, False, False, device, dtype, bias=False)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            _lazy_weight_and_bias(self, bias, device, dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(device=device, dtype=dtype)
            self.running_var = UninitializedBuffer(device=device, dtype=dtype)
            self.num_batches_tracked = torch.tensor(0, dtype=torch.long, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        self.num_features = input.shape[1]
        if self.affine:
            self.weight.materialize((self.num_features,))
            if self.bias is not None:
                self.bias.materialize((self.num_features,))
        if self.track_running_stats:
            self.running_mean.materialize((self.num_features,))
            self.running_var.materialize((self.num_features,))
        self.reset_parameters()


class LazyBatchNorm1d(_LazyNormBase, BatchNorm1d):
    """A ``BatchNorm1d`` whose ``num_features`` is the channel dim of its first input."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNormBase, BatchNorm2d):
    """A ``BatchNorm2d`` whose ``num_features`` is the channel dim of its first input."""

    cls_to_become = BatchNorm2d


class LazyBatchNorm3d(_LazyNormBase, BatchNorm3d):
    """A ``BatchNorm3d`` whose ``num_features`` is the channel dim of its first input."""

    cls_to_become = BatchNorm3d


class LazyInstanceNorm1d(_LazyNormBase, InstanceNorm1d):
    """An ``InstanceNorm1d`` whose ``num_features`` is dim 1 of its first input (torch's
    defaults for lazy norms: affine, with running statistics)."""

    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, InstanceNorm2d):
    """An ``InstanceNorm2d`` whose ``num_features`` is dim 1 of its first input (torch's
    defaults for lazy norms: affine, with running statistics)."""

    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, InstanceNorm3d):
    """An ``InstanceNorm3d`` whose ``num_features`` is dim 1 of its first input (torch's
    defaults for lazy norms: affine, with running statistics)."""

    cls_to_become = InstanceNorm3d
