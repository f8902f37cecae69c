"""``torch.optim.swa_utils``: stochastic weight averaging (SWA) and exponential moving
averages (EMA) of a model's weights, the SWA learning-rate schedule, and ``update_bn``."""

import copy
import itertools
import math

import doctensor as torch
from doctensor.nn import Module

from .lr_scheduler import LRScheduler, _per_group
from .optimizer import scalar

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay):
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")


def _is_float(t):
    return torch.is_floating_point(t) or torch.is_complex(t)


def get_ema_multi_avg_fn(decay=0.999):
    """An in-place EMA update of lists of tensors: ``ema = lerp(ema, current, 1 - decay)``
    (for a list of integer tensors, ``ema * decay + current * (1 - decay)`` copied in)."""
    _check_decay(decay)

    @torch.no_grad()
    def ema_update(ema_param_list, current_param_list, _):
        if _is_float(ema_param_list[0]):
            for ema, current in zip(ema_param_list, current_param_list):
                ema.lerp_(current, 1 - decay)
        else:
            for ema, current in zip(ema_param_list, current_param_list):
                ema.copy_(ema * decay + current * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn():
    """An in-place running mean of lists of tensors, ``num_averaged`` models seen so far:
    ``avg = lerp(avg, current, 1 / (num_averaged + 1))``."""
    @torch.no_grad()
    def swa_update(averaged_param_list, current_param_list, num_averaged):
        if _is_float(averaged_param_list[0]):
            weight = scalar(1 / (num_averaged + 1))
            for avg, current in zip(averaged_param_list, current_param_list):
                avg.lerp_(current, weight)
            return
        diffs = [current - avg for avg, current in zip(averaged_param_list, current_param_list)]
        for avg, diff in zip(averaged_param_list, diffs):
            if isinstance(num_averaged, torch.Tensor):
                avg.addcdiv_(diff, num_averaged + 1)
            else:
                avg.add_(diff, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay=0.999):
    """The EMA of one tensor: returns ``decay * ema + (1 - decay) * current``."""
    _check_decay(decay)

    @torch.no_grad()
    def ema_update(ema_param, current_param, num_averaged):
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn():
    """The running mean of one tensor: returns ``avg + (current - avg) / (n + 1)``."""
    @torch.no_grad()
    def swa_update(averaged_param, current_param, num_averaged):
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


def _by_device_and_dtype(averaged, current):
    """Pairs of lists (averaged, current), one pair per (device, dtype) of the averaged
    tensors, in order of first appearance (as torch groups them for its list updates)."""
    groups = {}
    for a, c in zip(averaged, current):
        pair = groups.setdefault((a.device, a.dtype), ([], []))
        pair[0].append(a)
        pair[1].append(c)
    return [(device, pair) for (device, _), pair in groups.items()]


class AveragedModel(Module):
    """A copy of ``model`` whose weights are a running average of ``model``'s: call
    ``update_parameters(model)`` after each optimizer step (or epoch).

    The first call copies the weights; later calls average with ``avg_fn`` (one tensor at a
    time), ``multi_avg_fn`` (lists of tensors in place) or, by default, the equal-weight
    mean.  ``n_averaged`` (a buffer) counts the models averaged.  Buffers (e.g. BatchNorm's
    running statistics) are copied from ``model``, or averaged too with ``use_buffers``.
    """

    def __init__(self, model, device=None, avg_fn=None, multi_avg_fn=None, use_buffers=False):
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = copy.deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def update_parameters(self, model):
        """Average ``model``'s current weights into this model's."""
        if self.use_buffers:
            ours = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            ours, theirs = self.parameters(), model.parameters()
        averaged, current = [], []
        first = bool(self.n_averaged == 0)
        for a, c in zip(ours, theirs):
            c = c.detach().to(a.device)
            averaged.append(a.detach())
            current.append(c)
            if first:
                a.detach().copy_(c)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                for device, (avg_list, cur_list) in _by_device_and_dtype(averaged, current):
                    n = self.n_averaged.to(device)
                    if self.multi_avg_fn is not None:
                        self.multi_avg_fn(avg_list, cur_list, n)
                    else:  # (torch's list update is for accelerators; on the CPU, this)
                        mean = get_swa_avg_fn()
                        for a, c in zip(avg_list, cur_list):
                            a.copy_(mean(a, c, n))
            else:
                for a, c in zip(averaged, current):
                    a.detach().copy_(self.avg_fn(a.detach(), c, self.n_averaged.to(a.device)))
        if not self.use_buffers:
            for ours_b, theirs_b in zip(self.module.buffers(), model.buffers()):
                ours_b.detach().copy_(theirs_b.detach().to(ours_b.device))
        self.n_averaged += 1


def _batch_norm_types():
    return tuple(getattr(torch.nn, name) for name in ("BatchNorm1d", "BatchNorm2d",
                                                       "BatchNorm3d", "SyncBatchNorm")
                 if hasattr(torch.nn, name))


@torch.no_grad()
def update_bn(loader, model, device=None):
    """Recompute the running statistics of ``model``'s BatchNorm layers with one pass over
    ``loader`` (batches are tensors, or lists/tuples whose first item is the input): the
    statistics are reset, then averaged over all batches with equal weights."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _batch_norm_types()):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    for input in loader:
        if isinstance(input, (list, tuple)):
            input = input[0]
        if device is not None:
            input = input.to(device)
        model(input)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate to its ``swa_lr`` over ``anneal_epochs`` steps
    (cosine or linearly), then hold it there."""

    def __init__(self, optimizer, swa_lr, anneal_epochs=10, anneal_strategy="cos",
                 last_epoch=-1):
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t):
        return t

    @staticmethod
    def _cosine_anneal(t):
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr, swa_lr, alpha):
        """The rate the annealing started from, given the current one at fraction
        ``alpha``."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self):
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        groups = self.optimizer.param_groups
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        starts = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, starts)]

    def _set_anneal_func(self, anneal_strategy):
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" \
            else self._linear_anneal

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
