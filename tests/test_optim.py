"""Optimizers and schedulers against torch 2.13: the same seed, data and steps give the same
losses, gradients, parameters, versions and state dicts.

Exactness: the optimizer updates are elementwise and follow torch's CPU kernels (``add_``
with ``alpha`` and ``addcmul_``/``lerp_`` are fused multiply-adds, ``addcdiv_`` is
``p + (v * t1) / t2``), so a step applied to the *same* gradients gives bit-identical
parameters (``test_update_rules_are_exact``).  Over a training run the gradients come from
matrix products and sums that NumPy orders differently from torch's BLAS, so losses and
parameters agree within float32 round-off (``test_training_runs``: 1e-5).
"""

import math

import pytest
from _oracle import doctensor, same_outcome, torch

CONFIGS = {
    "sgd": ("SGD", dict(lr=0.1)),
    "sgd_momentum": ("SGD", dict(lr=0.05, momentum=0.9)),
    "sgd_dampening_wd": ("SGD", dict(lr=0.05, momentum=0.8, dampening=0.3, weight_decay=0.01)),
    "sgd_nesterov_max": ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True, maximize=True)),
    "adam": ("Adam", dict(lr=0.01)),
    "adam_wd_amsgrad": ("Adam", dict(lr=0.01, weight_decay=0.1, amsgrad=True,
                                     betas=(0.8, 0.99))),
    "adam_max": ("Adam", dict(lr=0.01, maximize=True, eps=1e-6)),
    "adamw": ("AdamW", dict(lr=0.01)),
    "adamw_amsgrad": ("AdamW", dict(lr=0.02, weight_decay=0.05, amsgrad=True)),
    "rmsprop": ("RMSprop", dict(lr=0.01)),
    "rmsprop_all": ("RMSprop", dict(lr=0.01, momentum=0.5, centered=True, weight_decay=0.1,
                                    alpha=0.9)),
}


def _problem(T):
    T.manual_seed(0)
    model = T.nn.Sequential(T.nn.Linear(5, 8), T.nn.Tanh(), T.nn.Linear(8, 3))
    x = T.randn(16, 5)
    y = T.randint(0, 3, (16,))
    return model, x, y


@pytest.mark.parametrize("name", list(CONFIGS))
def test_training_runs(name):
    cls_name, kwargs = CONFIGS[name]

    def fn(T):
        model, x, y = _problem(T)
        opt = getattr(T.optim, cls_name)(model.parameters(), **kwargs)
        losses, versions = [], []
        for _ in range(5):
            opt.zero_grad()
            loss = T.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
            versions.append([p._version for p in model.parameters()])
        sd = opt.state_dict()
        return (losses, versions, list(model.parameters()), sd["param_groups"],
                {k: dict(v) for k, v in sd["state"].items()}, repr(opt))
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_update_rules_are_exact(name):
    """Steps on fixed gradients (no matmul involved): SGD bit for bit.

    Adam and RMSprop take a square root, and torch's CPU ``sqrt`` (vectorised through MKL's
    VML) is not correctly rounded: about 1 float32 value in 5 is 1 ulp away from the exact
    square root that NumPy returns.  Their updates therefore agree to 1 ulp of ``denom``
    (rtol 1e-6), not bit for bit.
    """
    cls_name, kwargs = CONFIGS[name]
    tol = {"rtol": 0, "atol": 0} if cls_name == "SGD" else \
        {"rtol": 1e-6, "atol": 1e-7, "reprs": False}

    def fn(T):
        T.manual_seed(0)
        p = T.nn.Parameter(T.randn(40))
        q = T.nn.Parameter(T.randn(3, 7))
        opt = getattr(T.optim, cls_name)([p, q], **kwargs)
        out = []
        for step in range(6):
            p.grad = T.randn(40) * (step + 1)
            q.grad = T.randn(3, 7)
            opt.step()
            out.append((p.detach().clone(), q.detach().clone(), p._version))
        return out, opt.state_dict()["state"]
    same_outcome(fn, **tol)


def test_param_groups_zero_grad_and_add_param_group():
    def fn(T):
        model, x, y = _problem(T)
        opt = T.optim.SGD([{"params": model[0].parameters()},
                           {"params": model[2].parameters(), "lr": 0.5}], lr=0.1, momentum=0.9)
        T.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        opt.zero_grad(set_to_none=False)
        zeroed = [p.grad for p in model.parameters()]
        opt.zero_grad()
        extra = T.nn.Parameter(T.ones(2))
        opt.add_param_group({"params": extra, "momentum": 0.0})
        sd = opt.state_dict()
        return zeroed, [p.grad for p in model.parameters()], sd["param_groups"], repr(opt)
    same_outcome(fn)


def test_optimizer_state_dict_round_trip():
    def fn(T):
        model, x, y = _problem(T)
        opt = T.optim.Adam(model.parameters(), lr=0.01, amsgrad=True)
        for _ in range(2):
            opt.zero_grad()
            T.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
        sd = opt.state_dict()
        model2, _, _ = _problem(T)
        model2.load_state_dict(model.state_dict())
        opt2 = T.optim.Adam(model2.parameters(), lr=0.5)
        opt2.load_state_dict(sd)
        for o, m in ((opt, model), (opt2, model2)):
            o.zero_grad()
            T.nn.functional.cross_entropy(m(x), y).backward()
            o.step()
        # as in torch, the loaded state aliases the saved one: opt's third step also moved
        # opt2's moments and step counts
        shared = opt2.state[model2[0].bias]["exp_avg"] is opt.state[model[0].bias]["exp_avg"]
        return list(model.parameters()), list(model2.parameters()), \
            opt2.state_dict()["param_groups"], shared
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("case", ["lr", "momentum", "wd", "nesterov", "empty", "tensor",
                                  "betas0", "betas1", "eps", "alpha", "non_leaf", "dup_groups",
                                  "set", "groups_mismatch"])
def test_errors(case):
    def fn(T):
        p = T.nn.Parameter(T.ones(2))
        if case == "lr":
            return T.optim.SGD([p], lr=-1)
        if case == "momentum":
            return T.optim.SGD([p], lr=0.1, momentum=-0.5)
        if case == "wd":
            return T.optim.Adam([p], weight_decay=-1)
        if case == "nesterov":
            return T.optim.SGD([p], lr=0.1, nesterov=True)
        if case == "empty":
            return T.optim.SGD([], lr=0.1)
        if case == "tensor":
            return T.optim.SGD(p, lr=0.1)
        if case == "betas0":
            return T.optim.Adam([p], betas=(1.0, 0.9))
        if case == "betas1":
            return T.optim.AdamW([p], betas=(0.9, -0.1))
        if case == "eps":
            return T.optim.RMSprop([p], eps=-1)
        if case == "alpha":
            return T.optim.RMSprop([p], alpha=-1)
        if case == "non_leaf":
            return T.optim.SGD([p * 2], lr=0.1)
        if case == "dup_groups":
            return T.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)
        if case == "set":
            return repr(T.optim.SGD({p}, lr=0.1))
        if case == "groups_mismatch":
            opt = T.optim.SGD([p], lr=0.1)
            sd = T.optim.SGD([p, T.nn.Parameter(T.ones(1))], lr=0.1).state_dict()
            return opt.load_state_dict(sd)
    same_outcome(fn)


def test_schedulers():
    def fn(T):
        p = T.nn.Parameter(T.ones(2))
        opt = T.optim.SGD([p], lr=1.0)
        step = T.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        lrs = []
        for _ in range(7):
            opt.step()
            step.step()
            lrs.append((step.get_last_lr(), opt.param_groups[0]["lr"]))
        opt2 = T.optim.Adam([T.nn.Parameter(T.ones(1))], lr=0.1)
        lam = T.optim.lr_scheduler.LambdaLR(opt2, lambda e: 0.9 ** e)
        for _ in range(4):
            opt2.step()
            lam.step()
            lrs.append(lam.get_last_lr())
        sd = step.state_dict()
        return lrs, sorted(sd), sd["last_epoch"], sorted(lam.state_dict())
    same_outcome(fn, reprs=False, rtol=1e-15, atol=0)


SCHEDULERS = {
    "multistep": lambda S, o: S.MultiStepLR(o, [3, 7, 7, 12], gamma=0.3),
    "exponential": lambda S, o: S.ExponentialLR(o, 0.87),
    "linear_warmup": lambda S, o: S.LinearLR(o, start_factor=0.05, total_iters=9),
    "linear_decay": lambda S, o: S.LinearLR(o, 1.0, 0.1, 6),
    "cosine": lambda S, o: S.CosineAnnealingLR(o, T_max=7, eta_min=0.001),
    "cosine_default": lambda S, o: S.CosineAnnealingLR(o, 10),
    "constant": lambda S, o: S.ConstantLR(o, factor=0.25, total_iters=4),
    "polynomial": lambda S, o: S.PolynomialLR(o, total_iters=8, power=2.0),
    "warm_restarts": lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=3, T_mult=2,
                                                                eta_min=0.01),
    "warm_restarts_plain": lambda S, o: S.CosineAnnealingWarmRestarts(o, 5),
    "warmup_then_cosine": lambda S, o: S.SequentialLR(o, [
        S.LinearLR(o, start_factor=0.1, total_iters=5), S.CosineAnnealingLR(o, T_max=15)],
        milestones=[5]),
    "three_phases": lambda S, o: S.SequentialLR(o, [
        S.ConstantLR(o, 0.5, total_iters=3), S.ExponentialLR(o, 0.9),
        S.StepLR(o, 4, 0.5)], milestones=[4, 11]),
}


@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_scheduler_learning_rates_are_torchs(name):
    """25 steps, two param groups: every learning rate equal to torch's, bit for bit."""
    def fn(T):
        a, b = T.nn.Parameter(T.ones(2)), T.nn.Parameter(T.ones(1))
        opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1)
        sched = SCHEDULERS[name](T.optim.lr_scheduler, opt)
        lrs = [sched.get_last_lr()]
        for _ in range(25):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr() + [g["lr"] for g in opt.param_groups])
        return lrs, sorted(sched.state_dict()), sched.last_epoch
    same_outcome(fn, reprs=False, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["step", "multistep", "exponential", "linear", "cosine",
                                  "constant", "polynomial", "warm_restarts"])
def test_scheduler_step_with_epoch_like_torch(name):
    """step(epoch): torch's deprecation warning, and the closed form where there is one."""
    def fn(T):
        import warnings
        S = T.optim.lr_scheduler
        opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.2)
        sched = {"step": lambda: S.StepLR(opt, 3, 0.5),
                 "multistep": lambda: S.MultiStepLR(opt, [2, 5, 5], 0.1),
                 "exponential": lambda: S.ExponentialLR(opt, 0.8),
                 "linear": lambda: S.LinearLR(opt, 0.2, 1.0, 6),
                 "cosine": lambda: S.CosineAnnealingLR(opt, 7, 0.01),
                 "constant": lambda: S.ConstantLR(opt, 0.5, 3),
                 "polynomial": lambda: S.PolynomialLR(opt, 6, 1.5),
                 "warm_restarts": lambda: S.CosineAnnealingWarmRestarts(opt, 2, 3)}[name]()
        lrs = []
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for epoch in (4, 1, 9, 2, 30):
                opt.step()
                sched.step(epoch)
                lrs.append(sched.get_last_lr())
        return lrs, sorted({str(w.message) for w in caught})
    same_outcome(fn, reprs=False, rtol=0, atol=0)


PLATEAU = {
    "min_rel": {},
    "max_abs_cooldown": {"mode": "max", "threshold_mode": "abs", "threshold": 0.05,
                         "patience": 1, "cooldown": 2, "factor": 0.5},
    "min_lr_floor": {"patience": 0, "factor": 0.2, "min_lr": [0.05, 0.0]},
    "eps": {"patience": 0, "factor": 0.999, "eps": 1e-3},
}


@pytest.mark.parametrize("name", sorted(PLATEAU))
def test_reduce_lr_on_plateau_like_torch(name):
    def fn(T):
        a, b = T.nn.Parameter(T.ones(2)), T.nn.Parameter(T.ones(1))
        opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1)
        sched = T.optim.lr_scheduler.ReduceLROnPlateau(opt, **PLATEAU[name])
        metrics = [1.0, 0.9, 0.95, 0.95, 0.96, 0.8, 0.81, 0.82, 0.83, 0.84, 0.85, 0.86, 0.87,
                   0.88, 0.5, 0.6, 0.7, 0.7, 0.7, T.tensor(0.7)]
        out = []
        for m in metrics:
            sched.step(m)
            out.append((sched.get_last_lr(), sched.num_bad_epochs, sched.cooldown_counter,
                        sched.best))
        return out, sorted(sched.state_dict())
    same_outcome(fn, reprs=False, rtol=0, atol=0)


@pytest.mark.parametrize("make", [
    lambda S, o: S.ReduceLROnPlateau(o, factor=1.0),
    lambda S, o: S.ReduceLROnPlateau(o, mode="up"),
    lambda S, o: S.ReduceLROnPlateau(o, threshold_mode="ratio"),
    lambda S, o: S.ReduceLROnPlateau(o, min_lr=[0.1, 0.2]),
    lambda S, o: S.LinearLR(o, start_factor=0),
    lambda S, o: S.LinearLR(o, end_factor=1.5),
    lambda S, o: S.ConstantLR(o, factor=2.0),
    lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=0),
    lambda S, o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=0),
    lambda S, o: S.SequentialLR(o, [S.ExponentialLR(o, 0.9)], milestones=[3]),
    lambda S, o: S.SequentialLR(o, [], milestones=[]),
], ids=["factor", "mode", "threshold_mode", "min_lrs", "start_factor", "end_factor",
        "constant_factor", "T_0", "T_mult", "milestones", "no_schedulers"])
def test_scheduler_errors_like_torch(make):
    same_outcome(lambda T: make(T.optim.lr_scheduler,
                                T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1)))


def test_scheduler_before_optimizer_warns():
    def fn(T):
        import warnings
        opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=1.0)
        sched = T.optim.lr_scheduler.StepLR(opt, 1)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            sched.step()
        return [str(m.message) for m in w]
    same_outcome(fn)


def test_step_with_closure_and_no_grad():
    def fn(T):
        model, x, y = _problem(T)
        opt = T.optim.SGD(model.parameters(), lr=0.1)

        def closure():
            opt.zero_grad()
            loss = T.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            return loss
        loss = opt.step(closure)
        return loss, model[0].weight.requires_grad, model[0].weight.grad_fn is None, \
            T.is_grad_enabled()
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-6)


def test_oracle_modules_are_the_libraries():
    assert torch.__name__ == "torch" and doctensor.__name__ == "doctensor"
    assert math.isfinite(1.0)
