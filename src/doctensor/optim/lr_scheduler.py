"""Learning-rate schedulers: each ``get_lr()`` is torch's recursive formula (it updates the
current ``lr``), so the printed learning rates are torch's to the last bit."""

import bisect
import collections
import functools
import math
import types
import warnings

import doctensor as torch

from .optimizer import Optimizer, scalar

EPOCH_DEPRECATION_WARNING = (
    "The epoch parameter in `scheduler.step()` was not necessary and is being deprecated where "
    "possible. Please use `scheduler.step()` to step the scheduler. During the deprecation, if "
    "epoch is different from None, the closed form is used instead of the new chainable form, "
    "where available. Please open an issue if you are unable to replicate your use case: "
    "https://github.com/pytorch/pytorch/issues/new/choose.")

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "LinearLR",
           "CosineAnnealingLR", "ConstantLR", "PolynomialLR", "CosineAnnealingWarmRestarts",
           "SequentialLR", "LambdaLR", "ReduceLROnPlateau", "MultiplicativeLR",
           "ChainedScheduler", "CyclicLR", "OneCycleLR"]


def _copy(value):
    return value.clone() if isinstance(value, torch.Tensor) else value


def _lrs(optimizer, key="lr"):
    """The learning rates of ``optimizer``'s param groups, in order (tensors copied)."""
    return [_copy(group[key]) for group in optimizer.param_groups]


def _set_lr(group, lr):
    """Set a group's learning rate: a tensor one is filled in place, as torch does."""
    if isinstance(group["lr"], torch.Tensor):
        group["lr"].fill_(scalar(lr))
    else:
        group["lr"] = lr


def _undo_initial_steps(scheduler):
    """Take back the construction step of ``scheduler`` (of each one it chains)."""
    if hasattr(scheduler, "_schedulers"):
        for inner in scheduler._schedulers:
            _undo_initial_steps(inner)
    elif hasattr(scheduler, "last_epoch"):
        scheduler.last_epoch -= 1


def _per_group(name, optimizer, value):
    """``value`` for each param group: a list or tuple as given (one per group), else the
    same value for every group."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(f"{name} must have the same length as optimizer.param_groups. "
                             f"{name} has {len(value)} values, param_groups has {groups}.")
        return [_copy(v) for v in value]
    return [_copy(value) for _ in range(groups)]


def _lr_lambdas(optimizer, lr_lambda):
    """``LambdaLR``'s and ``MultiplicativeLR``'s functions: one per param group, or the same
    one for every group."""
    groups = len(optimizer.param_groups)
    if not isinstance(lr_lambda, (list, tuple)):
        return [lr_lambda] * groups
    if len(lr_lambda) != groups:
        raise ValueError(f"Expected {groups} lr_lambdas, but got {len(lr_lambda)}")
    return list(lr_lambda)


def _check_one_optimizer(name, optimizer, schedulers):
    """torch's checks of the schedulers that ``SequentialLR``/``ChainedScheduler`` drive."""
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(f"{name} at index {i} should have `optimizer` as its attribute.")
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(
                f"{name} does not support `ReduceLROnPlateau` scheduler as it requires "
                "additional kwargs to be specified when calling `step`, but got one at "
                f"index {i} in the given schedulers sequence.")
        if optimizer != scheduler.optimizer:
            raise ValueError(
                f"{name} expects all schedulers to belong to the same optimizer, but got "
                f"scheduler {type(scheduler).__name__} at index {i} has "
                f"{scheduler.optimizer}, which is different from "
                f"{type(optimizer).__name__}.")


def _set_momentum(optimizer, group, momentum):
    """Set a group's momentum (``betas[0]`` for an Adam-like optimizer)."""
    if "betas" in optimizer.defaults:
        group["betas"] = (momentum, *group["betas"][1:])
    else:
        group["momentum"] = momentum


def _set_momentums(optimizer, momentums):
    for group, momentum in zip(optimizer.param_groups, momentums):
        _set_momentum(optimizer, group, momentum)


def _check_momentum_support(optimizer):
    if "momentum" not in optimizer.defaults and "betas" not in optimizer.defaults:
        raise ValueError("optimizer must support momentum or beta1 with `cycle_momentum` "
                         "option enabled")


class LRScheduler:
    """Sets each param group's ``lr`` from ``get_lr()`` at every ``step()`` (one step at
    construction, so ``last_epoch`` starts at 0)."""

    def __init__(self, optimizer, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", _copy(group["lr"]))
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(
                        f"param 'initial_lr' is not specified in param_groups[{i}] when "
                        "resuming scheduler with last_epoch >= 0.\nThis typically happens "
                        "when:\n1. You're trying to resume training from a checkpoint but "
                        "haven't properly loaded the optimizer state\n2. You're using "
                        "last_epoch >= 0 for a fresh training run (not recommended)")
        self.base_lrs = _lrs(optimizer, "initial_lr")
        self.last_epoch = last_epoch
        self._is_initial = False  # (torch's flags, kept so that state dicts have its keys)
        optimizer._step_tracked = True  # its steps from now on count (Optimizer.step)
        self._initial_step()

    def __init_subclass__(cls, **kwargs):
        """Each subclass's ``get_lr`` warns, as torch's do, when called from outside
        ``step()`` (``get_last_lr()`` is the way to read the learning rates)."""
        super().__init_subclass__(**kwargs)
        if "get_lr" in cls.__dict__:
            get_lr = cls.__dict__["get_lr"]

            @functools.wraps(get_lr)
            def warning_get_lr(self):
                if not getattr(self, "_get_lr_called_within_step", False):
                    warnings.warn("To get the last learning rate computed by the scheduler, "
                                  "please use `get_last_lr()`.", UserWarning, stacklevel=2)
                return get_lr(self)
            cls.get_lr = warning_get_lr

    def _initial_step(self):
        """The step made at construction (and by ``SequentialLR`` when it hands over)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self):
        raise NotImplementedError

    def get_last_lr(self):
        """The learning rates set by the last ``step()``."""
        return self._last_lr

    def step(self, epoch=None):
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(
                "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch "
                "1.1.0 and later, you should call them in the opposite order: "
                "`optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
                "result in PyTorch skipping the first value of the learning rate schedule. See "
                "more details at "
                "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate",
                UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(EPOCH_DEPRECATION_WARNING, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch=None):
        """Set the learning rates for the next epoch, or for ``epoch`` (by the closed form
        where the scheduler has one, as torch does)."""
        self._get_lr_called_within_step = True
        if epoch is None:
            self.last_epoch += 1
            lrs = self.get_lr()
        else:
            self.last_epoch = epoch
            lrs = (self._get_closed_form_lr() if hasattr(self, "_get_closed_form_lr")
                   else self.get_lr())
        self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs):
            _set_lr(group, lr)
        self._last_lr = _lrs(self.optimizer)

    def state_dict(self):
        return {k: v for k, v in self.__dict__.items() if k != "optimizer"}

    def load_state_dict(self, state_dict):
        self.__dict__.update(state_dict)


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` steps."""

    def __init__(self, optimizer, step_size, gamma=0.1, last_epoch=-1):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** (self.last_epoch // self.step_size)
                for base in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each milestone (``gamma ** n`` for a
    milestone listed n times)."""

    def __init__(self, optimizer, milestones, gamma=0.1, last_epoch=-1):
        self.milestones = collections.Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self.last_epoch not in self.milestones:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma ** self.milestones[self.last_epoch]
                for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        milestones = sorted(self.milestones.elements())
        return [base * self.gamma ** bisect.bisect_right(milestones, self.last_epoch)
                for base in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at every step."""

    def __init__(self, optimizer, gamma, last_epoch=-1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * self.gamma for group in self.optimizer.param_groups]

    def _get_closed_form_lr(self):
        return [base * self.gamma ** self.last_epoch for base in self.base_lrs]


class LinearLR(LRScheduler):
    """Warm-up (or cool-down): the learning rate's factor goes linearly from
    ``start_factor`` to ``end_factor`` over ``total_iters`` steps."""

    def __init__(self, optimizer, start_factor=1.0 / 3, end_factor=1.0, total_iters=5,
                 last_epoch=-1):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError("Starting multiplicative factor expected to be greater than 0 and "
                             "less or equal to 1.")
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError("Ending multiplicative factor expected to be between 0 and 1.")
        self.start_factor, self.end_factor = start_factor, end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = _lrs(self.optimizer)
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in lrs]
        if self._is_initial or self.last_epoch > self.total_iters:
            return lrs
        change = self.end_factor - self.start_factor
        return [lr * (1.0 + change / (self.total_iters * self.start_factor
                                      + (self.last_epoch - 1) * change)) for lr in lrs]

    def _get_closed_form_lr(self):
        change = (self.end_factor - self.start_factor) * min(self.total_iters,
                                                             self.last_epoch)
        return [base * (self.start_factor + change / self.total_iters)
                for base in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """The learning rate follows half a cosine from its initial value down to ``eta_min`` over
    ``T_max`` steps (and back up over the next ``T_max``)."""

    def __init__(self, optimizer, T_max, eta_min=0.0, last_epoch=-1):
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        groups, eta, t = self.optimizer.param_groups, self.eta_min, self.last_epoch
        if self._is_initial:
            return _lrs(self.optimizer)
        if self._step_count == 1 and t > 0:
            return [eta + (base - eta) * (1 + math.cos(t * math.pi / self.T_max)) / 2
                    for base in self.base_lrs]
        if (t - 1 - self.T_max) % (2 * self.T_max) == 0:
            return [group["lr"] + (base - eta) * (1 - math.cos(math.pi / self.T_max)) / 2
                    for base, group in zip(self.base_lrs, groups)]
        return [(1 + math.cos(math.pi * t / self.T_max))
                / (1 + math.cos(math.pi * (t - 1) / self.T_max)) * (group["lr"] - eta) + eta
                for group in groups]

    def _get_closed_form_lr(self):
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.last_epoch / self.T_max)) / 2
                for base in self.base_lrs]


class ConstantLR(LRScheduler):
    """Multiply the learning rate by ``factor`` until ``total_iters`` steps have passed."""

    def __init__(self, optimizer, factor=1.0 / 3, total_iters=5, last_epoch=-1):
        if factor > 1.0 or factor < 0:
            raise ValueError("Constant multiplicative factor expected to be between 0 and 1.")
        self.factor, self.total_iters = factor, total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = _lrs(self.optimizer)
        if self.last_epoch == 0:
            return [lr * self.factor for lr in lrs]
        if self.last_epoch != self.total_iters:
            return lrs
        return [lr * (1.0 / self.factor) for lr in lrs]

    def _get_closed_form_lr(self):
        return [base * (self.factor + (self.last_epoch >= self.total_iters) * (1 - self.factor))
                for base in self.base_lrs]


class PolynomialLR(LRScheduler):
    """Decay the learning rate to 0 over ``total_iters`` steps as ``(1 - t / T) ** power``."""

    def __init__(self, optimizer, total_iters=5, power=1.0, last_epoch=-1):
        self.total_iters, self.power = total_iters, power
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        lrs = _lrs(self.optimizer)
        if self._is_initial or self.last_epoch > self.total_iters:
            return lrs
        t, total = self.last_epoch, self.total_iters
        decay = ((1.0 - t / total) / (1.0 - (t - 1) / total)) ** self.power
        return [lr * decay for lr in lrs]

    def _get_closed_form_lr(self):
        return [base * (1.0 - min(self.total_iters, self.last_epoch) / self.total_iters)
                ** self.power for base in self.base_lrs]


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing from the initial learning rate to ``eta_min`` over ``T_0`` steps, then
    again from the top over ``T_0 * T_mult``, and so on."""

    def __init__(self, optimizer, T_0, T_mult=1, eta_min=0.0, last_epoch=-1):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(f"Expected positive integer T_0, but got {T_0}")
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(f"Expected integer T_mult >= 1, but got {T_mult}")
        if not isinstance(eta_min, (float, int)):
            raise ValueError(f"Expected float or int eta_min, but got {eta_min} of type "
                             f"{type(eta_min)}")
        self.T_0, self.T_i, self.T_mult, self.eta_min = T_0, T_0, T_mult, eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [self.eta_min + (base - self.eta_min)
                * (1 + math.cos(math.pi * self.T_cur / self.T_i)) / 2 for base in self.base_lrs]

    def step(self, epoch=None):
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur % self.T_i, self.T_i * self.T_mult
        elif epoch < 0:
            raise ValueError(f"Expected non-negative epoch, but got {epoch}")
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        lrs = self.get_lr()
        self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, lrs):
            _set_lr(group, lr)
        self._last_lr = _lrs(self.optimizer)


class SequentialLR(LRScheduler):
    """Hand the optimizer from one scheduler to the next at each milestone (the next starts
    from the initial learning rates)."""

    def __init__(self, optimizer, schedulers, milestones, last_epoch=-1):
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler, but got no scheduler.")
        _check_one_optimizer(name, optimizer, schedulers)
        if len(milestones) != len(schedulers) - 1:
            raise ValueError(
                "Sequential Schedulers expects number of schedulers provided to be one more "
                f"than the number of milestone points, but got number of schedulers "
                f"{len(schedulers)} and the number of milestones to be equal to "
                f"{len(milestones)}")
        self._schedulers, self._milestones = schedulers, milestones
        self.last_epoch, self.optimizer = last_epoch + 1, optimizer
        for group in optimizer.param_groups:  # undo the schedulers' construction steps
            _set_lr(group, group["initial_lr"])
        for scheduler in schedulers:
            _undo_initial_steps(scheduler)
        first = self._schedulers[bisect.bisect_right(milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def step(self):
        self.last_epoch += 1
        index = bisect.bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[index]
        if index > 0 and self._milestones[index - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items()
                 if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict):
        state = dict(state_dict)
        schedulers = state.pop("_schedulers")
        self.__dict__.update(state)
        for scheduler, saved in zip(self._schedulers, schedulers):
            scheduler.load_state_dict(saved)


class LambdaLR(LRScheduler):
    """``lr = initial_lr * lr_lambda(epoch)`` (one function, or one per param group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lr_lambdas(optimizer, lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        return [base * fn(self.last_epoch) for fn, base in zip(self.lr_lambdas, self.base_lrs)]

    def state_dict(self):
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
                               for fn in self.lr_lambdas]
        return state

    def load_state_dict(self, state_dict):
        lambdas = state_dict.pop("lr_lambdas")
        self.__dict__.update(state_dict)
        state_dict["lr_lambdas"] = lambdas
        for i, fn in enumerate(lambdas):
            if fn is not None:
                self.lr_lambdas[i].__dict__.update(fn)


class ReduceLROnPlateau(LRScheduler):
    """Multiply the learning rate by ``factor`` once the metric given to ``step(metric)`` has
    not improved (by ``threshold``, relative or absolute) for more than ``patience`` steps;
    then wait ``cooldown`` steps.  Never below ``min_lr``, nor by less than ``eps``."""

    def __init__(self, optimizer, mode="min", factor=0.1, patience=10, threshold=1e-4,
                 threshold_mode="rel", cooldown=0, min_lr=0, eps=1e-8):
        if factor >= 1.0:
            raise ValueError("Factor should be < 1.0.")
        self.factor = factor
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        groups = optimizer.param_groups
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != len(groups):
                raise ValueError(f"expected {len(groups)} min_lrs, got {len(min_lr)}")
            self.default_min_lr, self.min_lrs = None, list(min_lr)
        else:
            self.default_min_lr, self.min_lrs = min_lr, [min_lr] * len(groups)
        self.patience, self.cooldown, self.eps = patience, cooldown, eps
        self.last_epoch = 0
        self._last_lr = _lrs(optimizer)
        self._init_is_better(mode, threshold, threshold_mode)
        self.best, self.cooldown_counter, self.num_bad_epochs = self.mode_worse, 0, 0

    def _init_is_better(self, mode, threshold, threshold_mode):
        if mode not in {"min", "max"}:
            raise ValueError("mode " + mode + " is unknown!")
        if threshold_mode not in {"rel", "abs"}:
            raise ValueError("threshold mode " + threshold_mode + " is unknown!")
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode, self.threshold, self.threshold_mode = mode, threshold, threshold_mode

    def _is_better(self, a, best):
        if self.threshold_mode == "rel":
            scale = 1.0 - self.threshold if self.mode == "min" else self.threshold + 1.0
            return a < best * scale if self.mode == "min" else a > best * scale
        return a < best - self.threshold if self.mode == "min" else a > best + self.threshold

    def _reduce_lr(self):
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    f"The number of param groups in the `optimizer` ({len(groups)}) differs from "
                    f"when `ReduceLROnPlateau` was initialized ({len(self.min_lrs)}), usually "
                    "due to a new param group being added to the optimizer. Please modify the "
                    "`min_lrs` field to match the length of the `optimizer` param groups.")
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs):
            old = float(group["lr"])
            new = max(old * self.factor, min_lr)
            if old - new > self.eps:
                _set_lr(group, new)

    @property
    def in_cooldown(self):
        return self.cooldown_counter > 0

    def step(self, metrics):
        current = float(metrics)
        self.last_epoch += 1
        if self._is_better(current, self.best):
            self.best, self.num_bad_epochs = current, 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
        self._last_lr = _lrs(self.optimizer)


class _LRScheduler(LRScheduler):
    """The old name of ``LRScheduler``."""


class MultiplicativeLR(LRScheduler):
    """Multiply the learning rate by ``lr_lambda(epoch)`` at every step (one function, or
    one per param group)."""

    def __init__(self, optimizer, lr_lambda, last_epoch=-1):
        self.optimizer = optimizer
        self.lr_lambdas = _lr_lambdas(optimizer, lr_lambda)
        for fn in self.lr_lambdas:
            if not callable(fn):
                raise TypeError(
                    f"lr_lambda should be a function, but got {type(fn).__name__}")
        super().__init__(optimizer, last_epoch)

    def get_lr(self):
        if self._is_initial:
            return _lrs(self.optimizer)
        return [group["lr"] * fn(self.last_epoch)
                for fn, group in zip(self.lr_lambdas, self.optimizer.param_groups)]

    state_dict = LambdaLR.state_dict
    load_state_dict = LambdaLR.load_state_dict


class ChainedScheduler(LRScheduler):
    """Step several schedulers of one optimizer together: their factors multiply (each
    ``step()`` steps every scheduler, in order)."""

    def __init__(self, schedulers, optimizer=None):
        name = type(self).__name__
        if len(schedulers) < 1:
            raise ValueError(f"{name} expects at least one scheduler to be chained, but got no "
                             "scheduler.")
        optimizer = optimizer or schedulers[0].optimizer
        _check_one_optimizer(name, optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = _lrs(schedulers[-1].optimizer)

    def step(self):
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = _lrs(self._schedulers[-1].optimizer)

    state_dict = SequentialLR.state_dict
    load_state_dict = SequentialLR.load_state_dict


class CyclicLR(LRScheduler):
    """Cyclical learning rate (Smith, 2017), stepped every batch: the rate goes from
    ``base_lr`` up to ``max_lr`` over ``step_size_up`` steps and back down over
    ``step_size_down``; the amplitude of each cycle is scaled by ``mode`` (``triangular``:
    constant, ``triangular2``: halved every cycle, ``exp_range``: ``gamma ** step``) or by a
    ``scale_fn`` of the cycle (or of the step, ``scale_mode="iterations"``).  With
    ``cycle_momentum``, the momentum (or ``betas[0]``) moves the opposite way, between
    ``max_momentum`` and ``base_momentum``."""

    def __init__(self, optimizer, base_lr, max_lr, step_size_up=2000, step_size_down=None,
                 mode="triangular", gamma=1.0, scale_fn=None, scale_mode="cycle",
                 cycle_momentum=True, base_momentum=0.8, max_momentum=0.9, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups):
                _set_lr(group, lr)
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = step_size_up if step_size_down is None else float(step_size_down)
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("mode is invalid and scale_fn is None")
        self.mode, self.gamma = mode, gamma
        self._scale_fn_custom, self.scale_mode = scale_fn, scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _check_momentum_support(optimizer)
            self.use_beta1 = "betas" in optimizer.defaults
            self.base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            self.max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            if last_epoch == -1:
                _set_momentums(optimizer, self.max_momentums)
                for top, bottom, group in zip(self.max_momentums, self.base_momentums,
                                              optimizer.param_groups):
                    group["max_momentum"], group["base_momentum"] = top, bottom
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_scale_fn(self):
        if self._scale_fn_custom is not None:
            return
        if self.mode == "triangular":
            self._scale_fn_ref, self.scale_mode = self._triangular_scale_fn, "cycle"
        elif self.mode == "triangular2":
            self._scale_fn_ref, self.scale_mode = self._triangular2_scale_fn, "cycle"
        elif self.mode == "exp_range":
            self._scale_fn_ref = functools.partial(self._exp_range_scale_fn, self.gamma)
            self.scale_mode = "iterations"

    def scale_fn(self, x):
        """The amplitude's scale at cycle (or step) ``x``."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        return self._scale_fn_ref(x)

    @staticmethod
    def _triangular_scale_fn(x):
        return 1.0

    @staticmethod
    def _triangular2_scale_fn(x):
        return 1 / (2.0 ** (x - 1))

    @staticmethod
    def _exp_range_scale_fn(gamma, x):
        return gamma**x

    def get_lr(self):
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else self.last_epoch)
        lrs = [base + (top - base) * scale_factor * scale
               for base, top in zip(self.base_lrs, self.max_lrs)]
        if self.cycle_momentum:
            _set_momentums(self.optimizer, [
                top - (top - bottom) * scale_factor * scale
                for bottom, top in zip(self.base_momentums, self.max_momentums)])
        return lrs

    def state_dict(self):
        state = super().state_dict()
        state.pop("_scale_fn_ref", None)
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict):
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()


class OneCycleLR(LRScheduler):
    """The 1cycle policy (Smith and Topin, 2017), stepped every batch: the learning rate
    anneals (cosine or linearly) from ``max_lr / div_factor`` up to ``max_lr`` over the
    first ``pct_start`` of ``total_steps``, then down to ``initial_lr / final_div_factor``
    (with ``three_phase``: back to the initial rate first, then down).  With
    ``cycle_momentum`` the momentum (or ``betas[0]``) moves the opposite way."""

    def __init__(self, optimizer, max_lr, total_steps=None, epochs=None, steps_per_epoch=None,
                 pct_start=0.3, anneal_strategy="cos", cycle_momentum=True,
                 base_momentum=0.85, max_momentum=0.95, div_factor=25.0,
                 final_div_factor=1e4, three_phase=False, last_epoch=-1):
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer")
        self.optimizer = optimizer
        if total_steps is not None:
            if total_steps <= 0 or not isinstance(total_steps, int):
                raise ValueError(f"Expected positive integer total_steps, but got {total_steps}")
            self.total_steps = total_steps
        elif epochs is not None and steps_per_epoch is not None:
            if not isinstance(epochs, int) or epochs <= 0:
                raise ValueError(f"Expected positive integer epochs, but got {epochs}")
            if not isinstance(steps_per_epoch, int) or steps_per_epoch <= 0:
                raise ValueError("Expected positive integer steps_per_epoch, but got "
                                 f"{steps_per_epoch}")
            self.total_steps = epochs * steps_per_epoch
        else:
            raise ValueError("You must define either total_steps OR (epochs AND steps_per_epoch)")
        self._schedule_phases = self._phases(pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(f"Expected float between 0 and 1 pct_start, but got {pct_start}")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for top, group in zip(max_lrs, optimizer.param_groups):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            _check_momentum_support(optimizer)
            self.use_beta1 = "betas" in optimizer.defaults
            max_momentums = _per_group("max_momentum", optimizer, max_momentum)
            base_momentums = _per_group("base_momentum", optimizer, base_momentum)
            if last_epoch == -1:
                _set_momentums(optimizer, max_momentums)
                for top, bottom, group in zip(max_momentums, base_momentums,
                                              optimizer.param_groups):
                    group["max_momentum"], group["base_momentum"] = top, bottom
        super().__init__(optimizer, last_epoch)

    def _phases(self, pct_start, three_phase):
        """Each phase: its last step, and the group keys of its start and end values."""
        def phase(end_step, start_lr, end_lr, start_momentum, end_momentum):
            return {"end_step": end_step, "start_lr": start_lr, "end_lr": end_lr,
                    "start_momentum": start_momentum, "end_momentum": end_momentum}
        warmup_end = float(pct_start * self.total_steps) - 1
        last = self.total_steps - 1
        if three_phase:
            return [phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                    phase(float(2 * pct_start * self.total_steps) - 2, "max_lr", "initial_lr",
                          "base_momentum", "max_momentum"),
                    phase(last, "initial_lr", "min_lr", "max_momentum", "max_momentum")]
        return [phase(warmup_end, "initial_lr", "max_lr", "max_momentum", "base_momentum"),
                phase(last, "max_lr", "min_lr", "base_momentum", "max_momentum")]

    def _anneal_func(self, start, end, pct):
        if self._anneal_func_type == "cos":
            return self._annealing_cos(start, end, pct)
        return self._annealing_linear(start, end, pct)

    @staticmethod
    def _annealing_cos(start, end, pct):
        """Cosine anneal from ``start`` to ``end`` as ``pct`` goes from 0 to 1."""
        return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)

    @staticmethod
    def _annealing_linear(start, end, pct):
        """Linear anneal from ``start`` to ``end`` as ``pct`` goes from 0 to 1."""
        return (end - start) * pct + start

    def get_lr(self):
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(f"Tried to step {step} times. The specified number of total "
                             f"steps is {self.total_steps}")
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step - start_step) / (end_step - start_step)
                    lrs.append(self._anneal_func(group[phase["start_lr"]],
                                                 group[phase["end_lr"]], pct))
                    if self.cycle_momentum:
                        momentum = self._anneal_func(group[phase["start_momentum"]],
                                                     group[phase["end_momentum"]], pct)
                        _set_momentum(self.optimizer, group, momentum)
                    break
                start_step = end_step
        return lrs

