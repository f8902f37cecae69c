"""The optimizers beyond SGD/Adam/RMSprop (Adagrad, Adadelta, Adamax, NAdam, RAdam, ASGD,
Rprop, Adafactor, SparseAdam, Muon, LBFGS), the schedulers beyond those of test_optim.py,
``swa_utils`` and ``swap_in_optimizer_params_and_state`` against torch 2.13 (its
single-tensor CPU algorithms).

Exactness: the steps use torch's ops in torch's order, so on fixed gradients the parameters
and states are bit-identical wherever the ops themselves are: in float32 everywhere except
through ``sqrt`` (torch's vectorised CPU ``sqrt`` is not correctly rounded: about 1 float32
value in 6 is 1 ulp off the exact root that NumPy and doctensor return), so Adagrad,
Adadelta, NAdam and RAdam agree to 1 ulp of the denominator (rtol 1e-6) - and bit for bit
when doctensor's ``sqrt`` is given torch's values (``test_steps_are_exact_given_torchs_sqrt``).
In float64 the optimizers that use ``lerp_``/``addcmul_`` (all but ASGD and Rprop) agree to
the last bit or two: doctensor's float64 ``lerp_``/``addcmul_`` round twice where torch's
kernels fuse (rtol 1e-13).  L-BFGS takes dot products and sums, which torch's kernels add in
another order, and its iterations magnify that (rtol 1e-10 in float64).  The schedulers'
learning rates are bit-identical.
"""

import functools

import pytest
from _oracle import raised, same_outcome

EXACT = {("Adamax", "float32"), ("ASGD", "float32"), ("ASGD", "float64"),
         ("Rprop", "float32"), ("Rprop", "float64")}

CONFIGS = {
    "adagrad": ("Adagrad", {}),
    "adagrad_all": ("Adagrad", dict(lr=0.1, lr_decay=0.01, weight_decay=0.1,
                                    initial_accumulator_value=0.5, eps=1e-6, maximize=True)),
    "adagrad_lr_tensor": ("Adagrad", dict(lr="tensor", foreach=False)),
    "adadelta": ("Adadelta", {}),
    "adadelta_all": ("Adadelta", dict(lr=0.5, rho=0.8, eps=1e-5, weight_decay=0.1,
                                      maximize=True, foreach=False)),
    "adamax": ("Adamax", {}),
    "adamax_all": ("Adamax", dict(lr=0.01, betas=(0.8, 0.9), eps=1e-4, weight_decay=0.1,
                                  maximize=True)),
    "nadam": ("NAdam", {}),
    "nadam_wd": ("NAdam", dict(lr=0.01, weight_decay=0.1, momentum_decay=0.01)),
    "nadam_decoupled_max": ("NAdam", dict(lr=0.01, weight_decay=0.1, maximize=True,
                                          decoupled_weight_decay=True)),
    "radam": ("RAdam", {}),
    "radam_wd": ("RAdam", dict(lr=0.01, weight_decay=0.1, eps=1e-3)),
    "radam_decoupled_max": ("RAdam", dict(lr=0.01, weight_decay=0.1, betas=(0.5, 0.6),
                                          maximize=True, decoupled_weight_decay=True)),
    "asgd": ("ASGD", {}),
    "asgd_all": ("ASGD", dict(lr=0.05, lambd=0.01, alpha=0.5, t0=2, weight_decay=0.1,
                              maximize=True)),
    "rprop": ("Rprop", {}),
    "rprop_all": ("Rprop", dict(lr=0.05, etas=(0.3, 1.5), step_sizes=(0.01, 0.1),
                                maximize=True)),
    "adafactor": ("Adafactor", {}),
    "adafactor_all": ("Adafactor", dict(lr=0.05, beta2_decay=-0.5, eps=(1e-20, 1e-2), d=1.5,
                                        weight_decay=0.1, maximize=True)),
    "adafactor_lr_tensor": ("Adafactor", dict(lr="tensor", weight_decay=0.2)),
    # a tensor learning rate: torch keeps it a tensor in the arithmetic (float32 rounding)
    "adadelta_lr_tensor": ("Adadelta", dict(lr="tensor", weight_decay=0.1)),
    "adamax_lr_tensor": ("Adamax", dict(lr="tensor")),
    "nadam_lr_tensor": ("NAdam", dict(lr="tensor", weight_decay=0.1,
                                      decoupled_weight_decay=True)),
    "radam_lr_tensor": ("RAdam", dict(lr="tensor", weight_decay=0.1,
                                      decoupled_weight_decay=True)),
    "asgd_lr_tensor": ("ASGD", dict(lr="tensor", t0=3)),
    "rprop_lr_tensor": ("Rprop", dict(lr="tensor")),
}


def _tolerance(name, dtype):
    """Exact where the ops are; else 1 ulp of a square root (float32) or the last bits of a
    fused float64 op (Adafactor: also norms, summed in another order).  ASGD with a tensor
    learning rate takes a float32 ``pow`` of it, which differs from torch's by 1 ulp."""
    cls_name = CONFIGS[name][0]
    if (cls_name, dtype) in EXACT and name != "asgd_lr_tensor":
        return {"rtol": 0, "atol": 0}
    if dtype == "float32" or name == "asgd_lr_tensor":  # (1 ulp of a float32 sqrt or pow)
        return {"rtol": 1e-6, "atol": 1e-7, "reprs": False}
    return {"rtol": 1e-13, "atol": 1e-15, "reprs": False}


def _make(T, name, params):
    cls_name, kwargs = CONFIGS[name]
    kwargs = dict(kwargs)
    if kwargs.get("lr") == "tensor":
        kwargs["lr"] = T.tensor([0.03])
    return getattr(T.optim, cls_name)(params, **kwargs)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(CONFIGS))
def test_steps_on_fixed_gradients(name, dtype):
    """12 steps on given gradients (some zero, signs flipping; one parameter without a
    gradient): parameters, versions, state dict and repr as torch's."""
    _fixed_gradient_steps(name, dtype, **_tolerance(name, dtype))


def _fixed_gradient_steps(name, dtype, **tolerance):
    def fn(T):
        T.manual_seed(0)
        dt = getattr(T, dtype)
        p = T.nn.Parameter(T.randn(40, dtype=dt))
        q = T.nn.Parameter(T.randn(3, 7, dtype=dt))
        unused = T.nn.Parameter(T.randn(2, dtype=dt))
        opt = _make(T, name, [p, unused, q])
        out = []
        for step in range(12):
            g = T.randn(40, dtype=dt) * (step + 1)
            g[:5] = 0
            p.grad = -g if step % 3 == 1 else g
            q.grad = T.randn(3, 7, dtype=dt)
            opt.step()
            out.append((p.detach().clone(), q.detach().clone(), p._version, q._version))
        sd = opt.state_dict()
        order = list(sd["state"]), [list(s) for s in sd["state"].values()], \
            [list(g) for g in sd["param_groups"]]
        return out, unused, sd, order, repr(opt)
    same_outcome(fn, **tolerance)


def _torchs_sqrt(t):
    from _oracle import doctensor, torch
    return doctensor.tensor(torch.from_numpy(t.detach().numpy().copy()).sqrt().numpy())


@pytest.mark.parametrize("name", [n for n, (c, _) in CONFIGS.items()
                                  if c in ("Adagrad", "Adadelta", "NAdam", "RAdam")])
def test_steps_are_exact_given_torchs_sqrt(name, monkeypatch):
    """The sqrt-taking optimizers in float32, with doctensor's ``sqrt`` replaced by torch's
    (its values, not correctly rounded): then every step is bit-identical to torch's, which
    shows that the rest of each update is torch's ops in torch's order."""
    from _oracle import doctensor

    def sqrt_(self):
        return self.copy_(_torchs_sqrt(self))
    monkeypatch.setattr(doctensor.Tensor, "sqrt", _torchs_sqrt)
    monkeypatch.setattr(doctensor.Tensor, "sqrt_", sqrt_)
    _fixed_gradient_steps(name, "float32", rtol=0, atol=0)


def test_step_dtype_follows_float64_default():
    """With float64 as the default dtype, ``step`` (and NAdam's ``mu_product``, ASGD's
    ``eta``/``mu``) are float64, as in torch."""
    def fn(T):
        old = T.get_default_dtype()
        T.set_default_dtype(T.float64)
        try:
            out = []
            for name in ("adagrad", "adadelta", "adamax", "nadam", "radam", "asgd", "rprop",
                         "adafactor"):
                p = T.nn.Parameter(T.ones(3, dtype=T.float32))
                opt = _make(T, name, [p])
                p.grad = T.full((3,), 0.5, dtype=T.float32)
                opt.step()
                out.append((p, opt.state_dict()["state"]))
            return out
        finally:
            T.set_default_dtype(old)
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-7)


def test_step_dtype_with_a_half_default():
    """With float16 as the default dtype, ``step`` is float32, as in torch."""
    def fn(T):
        old = T.get_default_dtype()
        T.set_default_dtype(T.float16)
        try:
            steps = []
            for cls_name in ("Adam", "RMSprop", "NAdam"):
                p = T.nn.Parameter(T.ones(3, dtype=T.float32))
                opt = getattr(T.optim, cls_name)([p])
                p.grad = T.full((3,), 0.5, dtype=T.float32)
                opt.step()
                steps.append(opt.state[p]["step"])
            return steps
        finally:
            T.set_default_dtype(old)
    same_outcome(fn)


def _problem(T):
    T.manual_seed(0)
    model = T.nn.Sequential(T.nn.Linear(5, 8), T.nn.Tanh(), T.nn.Linear(8, 3))
    x = T.randn(16, 5)
    y = T.randint(0, 3, (16,))
    return model, x, y


@pytest.mark.parametrize("name", ["adagrad_all", "adadelta_all", "adamax_all", "nadam_wd",
                                  "radam_decoupled_max", "asgd_all", "rprop_all"])
def test_training_runs(name):
    """A small model trained for 5 steps (the gradients come from matrix products, summed in
    another order than torch's BLAS: 1e-5)."""
    def fn(T):
        model, x, y = _problem(T)
        opt = _make(T, name, model.parameters())
        losses = []
        for _ in range(5):
            opt.zero_grad()
            loss = T.nn.functional.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses, list(model.parameters()), opt.state_dict()
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("name", ["adagrad_all", "adadelta", "adamax", "nadam", "radam",
                                  "asgd_all", "rprop"])
def test_state_dict_round_trip(name):
    """state_dict -> a new optimizer's load_state_dict: the next steps agree, and the loaded
    state aliases the saved one as in torch."""
    def fn(T):
        T.manual_seed(0)
        p = T.nn.Parameter(T.randn(6))
        opt = _make(T, name, [p])
        for _ in range(3):
            p.grad = T.randn(6)
            opt.step()
        sd = opt.state_dict()
        p2 = T.nn.Parameter(p.detach().clone())
        opt2 = _make(T, name, [p2])
        opt2.load_state_dict(sd)
        g = T.randn(6)
        for param, o in ((p, opt), (p2, opt2)):
            param.grad = g.clone()
            o.step()
        shared = [opt2.state[p2][k] is v for k, v in opt.state[p].items()]
        return p, p2, opt2.state_dict(), shared, list(opt2.state[p2])
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["adagrad_all", "adadelta", "nadam", "rprop", "asgd"])
def test_param_groups_add_param_group_and_zero_grad(name):
    def fn(T):
        model, x, y = _problem(T)
        cls_name, kwargs = CONFIGS[name]
        opt = getattr(T.optim, cls_name)([{"params": model[0].parameters()},
                                          {"params": model[2].parameters(), "lr": 0.5}],
                                         **kwargs)
        T.nn.functional.cross_entropy(model(x), y).backward()
        opt.step()
        opt.zero_grad(set_to_none=False)
        zeroed = [p.grad for p in model.parameters()]
        opt.zero_grad()
        extra = T.nn.Parameter(T.ones(2))
        opt.add_param_group({"params": extra, "lr": 0.25})
        extra.grad = T.full((2,), 0.5)
        opt.step()
        return zeroed, extra, opt.state_dict(), repr(opt)
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-5)


ERRORS = {
    "adagrad_lr": ("Adagrad", dict(lr=-1.0)),
    "adagrad_lr_decay": ("Adagrad", dict(lr_decay=-0.5)),
    "adagrad_wd": ("Adagrad", dict(weight_decay=-1)),
    "adagrad_init": ("Adagrad", dict(initial_accumulator_value=-0.1)),
    "adagrad_eps": ("Adagrad", dict(eps=-1e-3)),
    "adagrad_fused_differentiable": ("Adagrad", dict(fused=True, differentiable=True)),
    "adagrad_fused_foreach": ("Adagrad", dict(fused=True, foreach=True)),
    "adadelta_lr": ("Adadelta", dict(lr=-2)),
    "adadelta_rho": ("Adadelta", dict(rho=1.5)),
    "adadelta_eps": ("Adadelta", dict(eps=-1.0)),
    "adadelta_wd": ("Adadelta", dict(weight_decay=-1.0)),
    "adamax_betas0": ("Adamax", dict(betas=(1.0, 0.9))),
    "adamax_betas1": ("Adamax", dict(betas=(0.9, -0.1))),
    "adamax_eps": ("Adamax", dict(eps=-1.0)),
    "nadam_momentum_decay": ("NAdam", dict(momentum_decay=-1.0)),
    "nadam_wd": ("NAdam", dict(weight_decay=-0.1)),
    "radam_betas": ("RAdam", dict(betas=(0.5, 1.0))),
    "radam_lr": ("RAdam", dict(lr=-0.001)),
    "asgd_lr": ("ASGD", dict(lr=-0.1)),
    "asgd_wd": ("ASGD", dict(weight_decay=-0.1)),
    "rprop_etas": ("Rprop", dict(etas=(1.5, 1.2))),
    "rprop_etas_plus": ("Rprop", dict(etas=(0.5, 0.9))),
    "rprop_lr": ("Rprop", dict(lr=-1)),
    "lbfgs_lr": ("LBFGS", dict(lr=-1.0)),
    "tensor_lr": ("Adagrad", dict(lr="tensor2")),
    "adafactor_lr": ("Adafactor", dict(lr=-0.5)),
    "adafactor_beta2_decay": ("Adafactor", dict(beta2_decay=0.5)),
    "adafactor_eps1": ("Adafactor", dict(eps=(-1.0, 1e-3))),
    "adafactor_eps2": ("Adafactor", dict(eps=(None, -1e-3))),
    "adafactor_d": ("Adafactor", dict(d=0.5)),
    "adafactor_wd": ("Adafactor", dict(weight_decay=-0.5)),
    "sparse_adam_lr": ("SparseAdam", dict(lr=0.0)),
    "sparse_adam_eps": ("SparseAdam", dict(eps=0.0)),
    "sparse_adam_betas": ("SparseAdam", dict(betas=(0.9, 1.0))),
    "adam_tensor_lr": ("Adam", dict(lr="tensor2")),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_bad_hyperparameters(case):
    cls_name, kwargs = ERRORS[case]

    def fn(T):
        kw = dict(kwargs)
        if kw.get("lr") == "tensor2":
            kw["lr"] = T.tensor([0.1, 0.2])
        return getattr(T.optim, cls_name)([T.nn.Parameter(T.ones(2))], **kw)
    same_outcome(fn)


@pytest.mark.parametrize("cls_name", ["Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
                                      "ASGD", "Rprop"])
def test_differentiable_step(cls_name):
    """differentiable=True: the update is recorded, so a loss after the step can be
    differentiated back through it (to the tensor the parameter was made from).

    Adamax takes one step only: its second step modifies state that the first one recorded,
    and torch and doctensor then raise the same error about different tensors (the order in
    which the backward pass checks saved tensors)."""
    def fn(T):
        T.manual_seed(0)
        w = T.randn(4, requires_grad=True)
        p = w.clone()
        p.retain_grad()
        kwargs = {} if cls_name == "Rprop" else {"weight_decay": 0.5}
        opt = getattr(T.optim, cls_name)([p], lr=0.1, differentiable=True, **kwargs)
        for _ in range(1 if cls_name == "Adamax" else 2):
            p.grad = T.randn(4)
            opt.step()
        (p * p).sum().backward()
        return p.detach().clone(), w.grad
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-7)


def test_sparse_adam_with_dense_gradients_and_complex_params():
    """doctensor has no sparse tensors: SparseAdam's step meets a dense gradient, and raises
    torch's error for it (after running the closure)."""
    def fn(T):
        p = T.nn.Parameter(T.ones(3))
        opt = T.optim.SparseAdam([p], lr=0.01)
        calls = []
        no_grad = opt.step(lambda: calls.append(1) or 2.0)
        p.grad = T.ones(3)
        dense = raised(lambda: opt.step(lambda: calls.append(1)))
        complex_params = raised(lambda: T.optim.SparseAdam(
            [T.ones(2), T.nn.Parameter(T.ones(2, dtype=T.complex64))]))
        return no_grad, calls, dense, complex_params, opt.state_dict(), repr(opt)
    same_outcome(fn)


def test_adafactor_rejects_complex_params():
    def fn(T):
        p = T.nn.Parameter(T.ones(2, dtype=T.complex64))
        p.grad = T.ones(2, dtype=T.complex64)
        return T.optim.Adafactor([p]).step()
    same_outcome(fn)


# -- L-BFGS ----------------------------------------------------------------------------------

def _lbfgs_run(T, dtype, steps=3, **kwargs):
    T.manual_seed(0)
    dt = getattr(T, dtype)
    x = T.nn.Parameter(T.tensor([-1.5, 2.0, 0.5], dtype=dt))
    w = T.nn.Parameter(T.randn(2, dtype=dt))
    c = T.tensor([1.0, 3.0, 0.5], dtype=dt)
    unused = T.nn.Parameter(T.ones(2, dtype=dt))  # (no gradient: zeros in the flat gradient)
    opt = T.optim.LBFGS([x, unused, w], **kwargs)

    def closure():
        opt.zero_grad()
        loss = ((c * x**2).sum() + x[0] * x[1] * 0.5 + (w[0] - 1) ** 2
                + 10 * (w[1] - w[0] ** 2) ** 2)
        loss.backward()
        return loss
    out = []
    for _ in range(steps):
        loss = opt.step(closure)
        out.append((loss, x.detach().clone(), w.detach().clone(), unused.detach().clone()))
    return out, opt.state_dict(), list(opt.state[x]), repr(opt)


LBFGS_CASES = {
    "plain": {},
    "wolfe": dict(line_search_fn="strong_wolfe"),
    "short_history": dict(history_size=2, max_iter=7),
    "wolfe_lr_max_eval": dict(line_search_fn="strong_wolfe", lr=0.5, max_eval=9),
    "one_iter": dict(max_iter=1),
    "tolerances": dict(tolerance_grad=1e-3, tolerance_change=1e-4),
    "lr_tensor": dict(lr="tensor", max_iter=4),
}


def _lbfgs_case(T, case):
    kwargs = dict(LBFGS_CASES[case])
    if kwargs.get("lr") == "tensor":
        kwargs["lr"] = T.tensor(0.8)
    return kwargs


@pytest.mark.parametrize("case", list(LBFGS_CASES))
def test_lbfgs_float64(case):
    """Three ``step(closure)`` calls: losses, parameters, the state (history lists, ``t``,
    ``H_diag``, counters, exactly) and its key order as torch's.

    Not bit for bit: L-BFGS adds with ``alpha`` (torch fuses the multiply-add in float64,
    doctensor rounds twice) and takes dot products and sums (summed in another order by
    torch's BLAS/vectorised kernels), and the iterations magnify the last-bit differences."""
    same_outcome(lambda T: _lbfgs_run(T, "float64", **_lbfgs_case(T, case)), reprs=False,
                 rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("kwargs", [dict(max_iter=6), dict(max_iter=6, history_size=2),
                                    dict(max_iter=6, line_search_fn="strong_wolfe")])
def test_lbfgs_float32(kwargs):
    """Six iterations in float32 (a float32 dot product of 5 elements differs from torch's
    in about 1 case in 3, and the iterations magnify that)."""
    same_outcome(lambda T: _lbfgs_run(T, "float32", steps=1, **kwargs), reprs=False,
                 rtol=1e-4, atol=1e-6)


def test_lbfgs_style_transfer_pattern():
    """The neural-style tutorial's loop: a plain leaf tensor optimised, clamped in place
    inside the closure, which counts its calls."""
    def fn(T):
        T.manual_seed(0)
        target = T.rand(2, 6, dtype=T.float64)
        img = T.rand(2, 6, dtype=T.float64).requires_grad_(True)
        opt = T.optim.LBFGS([img])
        runs = [0]
        while runs[0] <= 30:
            def closure():
                with T.no_grad():
                    img.clamp_(0, 1)
                opt.zero_grad()
                loss = ((img * 1.5 - target) ** 2).sum() + (img[:, 1:] - img[:, :-1]).abs().sum()
                loss.backward()
                runs[0] += 1
                return loss
            opt.step(closure)
        with T.no_grad():
            img.clamp_(0, 1)
        return img, runs, opt.state[img]["func_evals"], opt.state[img]["n_iter"]
    same_outcome(fn, reprs=False, rtol=1e-10, atol=1e-12)


def test_lbfgs_converged_and_errors():
    def fn(T):
        x = T.nn.Parameter(T.zeros(2))
        opt = T.optim.LBFGS([x])

        def closure():
            opt.zero_grad()
            loss = (x**2).sum()
            loss.backward()
            return loss
        loss = opt.step(closure)  # (already optimal: returns at once)
        state = dict(opt.state[x])
        groups = raised(lambda: T.optim.LBFGS([{"params": [x]},
                                               {"params": [T.nn.Parameter(T.ones(1))]}]))
        x.data.fill_(1.0)
        bad = raised(lambda: T.optim.LBFGS([x], line_search_fn="armijo").step(closure))
        return loss, state, groups, bad
    same_outcome(fn)


# -- learning-rate schedulers ------------------------------------------------------------------

SCHEDULERS = {
    "multiplicative": lambda S, o: S.MultiplicativeLR(o, lambda e: 0.95),
    "multiplicative_per_group": lambda S, o: S.MultiplicativeLR(
        o, [lambda e: 0.9, lambda e: 1.0 - 0.01 * e]),
    "chained": lambda S, o: S.ChainedScheduler([S.ConstantLR(o, factor=0.1, total_iters=5),
                                                S.ExponentialLR(o, gamma=0.9)]),
    "chained_with_optimizer": lambda S, o: S.ChainedScheduler(
        [S.StepLR(o, 3, 0.5), S.LinearLR(o, 0.2, total_iters=4)], optimizer=o),
    "cyclic": lambda S, o: S.CyclicLR(o, 0.01, 0.1, step_size_up=4),
    "cyclic_triangular2": lambda S, o: S.CyclicLR(o, [0.01, 0.02], [0.1, 0.3], 3, 5,
                                                  mode="triangular2",
                                                  base_momentum=[0.7, 0.8]),
    "cyclic_exp_range": lambda S, o: S.CyclicLR(o, 0.001, 0.006, 2, mode="exp_range",
                                                gamma=0.9, cycle_momentum=False),
    "cyclic_scale_fn": lambda S, o: S.CyclicLR(o, 0.01, 0.05, 3,
                                               scale_fn=lambda x: 1 / (1.0 + x),
                                               scale_mode="iterations"),
    "one_cycle": lambda S, o: S.OneCycleLR(o, max_lr=0.5, total_steps=30),
    "one_cycle_linear_three": lambda S, o: S.OneCycleLR(
        o, [0.5, 1.0], epochs=3, steps_per_epoch=10, pct_start=0.25,
        anneal_strategy="linear", three_phase=True, div_factor=10.0, final_div_factor=100.0),
    "one_cycle_momentums": lambda S, o: S.OneCycleLR(o, 0.3, 26, base_momentum=[0.8, 0.7],
                                                     max_momentum=0.99),
}


@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
@pytest.mark.parametrize("name", sorted(SCHEDULERS))
def test_scheduler_learning_rates_and_momentums(name, opt_name):
    """26 steps, two param groups: learning rates (and cycled momentums or betas) equal to
    torch's bit for bit; the state dict's keys and the param groups' added keys."""
    def fn(T):
        import warnings
        a, b = T.nn.Parameter(T.ones(2)), T.nn.Parameter(T.ones(1))
        kwargs = {"momentum": 0.9} if opt_name == "SGD" else {}
        opt = getattr(T.optim, opt_name)([{"params": [a]}, {"params": [b], "lr": 0.3}],
                                         lr=0.1, **kwargs)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sched = SCHEDULERS[name](T.optim.lr_scheduler, opt)
            out = [sched.get_last_lr()]
            for _ in range(26):
                opt.step()
                sched.step()
                out.append([sched.get_last_lr()] + [{k: v for k, v in g.items() if k != "params"}
                                                    for g in opt.param_groups])
        return out, sorted(sched.state_dict()), [str(w.message) for w in caught]
    same_outcome(fn, reprs=False, rtol=0, atol=0)


def test_order_warning_counts_the_steps_a_scheduler_saw():
    """torch's schedulers wrap the optimizer's step when they are made: a step taken before
    the first scheduler existed does not count, one taken after counts for every later
    scheduler too."""
    def scenario(T):
        import warnings

        def first_step_warns(opt, before=()):
            for f in before:
                f()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                T.optim.lr_scheduler.StepLR(opt, 1, 0.5).step()
            return [str(w.message)[:40] for w in caught]

        p = T.nn.Parameter(T.ones(2))
        out = [first_step_warns(T.optim.SGD([p], lr=0.1))]
        opt = T.optim.SGD([p], lr=0.1)
        opt.step()  # before any scheduler: not seen
        out.append(first_step_warns(opt))
        opt.step()  # seen by the scheduler made above: counts for a second one
        out.append(first_step_warns(opt))
        return out

    same_outcome(scenario)


def test_get_lr_outside_step_warns():
    """Calling ``get_lr()`` directly warns (and still returns the next rates) for every
    scheduler, as in torch."""
    def fn(T):
        import warnings
        S, out = T.optim.lr_scheduler, []
        opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.9)
        for sched in (S.StepLR(opt, 2), S.MultiStepLR(opt, [1]), S.ExponentialLR(opt, 0.5),
                      S.LinearLR(opt), S.CosineAnnealingLR(opt, 4), S.ConstantLR(opt),
                      S.PolynomialLR(opt), S.CosineAnnealingWarmRestarts(opt, 3),
                      S.LambdaLR(opt, lambda e: 0.5), S.MultiplicativeLR(opt, lambda e: 0.5),
                      S.CyclicLR(opt, 0.01, 0.1), S.OneCycleLR(opt, 0.1, 10),
                      T.optim.swa_utils.SWALR(opt, 0.05)):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                lrs = sched.get_lr()
            out.append((type(sched).__name__, lrs, [str(w.message) for w in caught]))
        return out
    same_outcome(fn, reprs=False, rtol=0, atol=0)


def test_schedulers_with_a_tensor_learning_rate():
    """A tensor ``lr`` is filled in place by the schedulers, which keep copies of it."""
    def fn(T):
        S = T.optim.lr_scheduler
        out = []
        for make in (lambda o: S.StepLR(o, 2, 0.5), lambda o: S.ExponentialLR(o, 0.9),
                     lambda o: S.CyclicLR(o, 0.01, 0.1, 3),
                     lambda o: S.ReduceLROnPlateau(o, patience=0)):
            lr = T.tensor(0.1)
            opt = T.optim.Adam([T.nn.Parameter(T.ones(1))], lr=lr)
            sched = make(opt)
            for _ in range(5):
                opt.step()
                sched.step(1.0) if isinstance(sched, S.ReduceLROnPlateau) else sched.step()
            out.append((opt.param_groups[0]["lr"] is lr, lr, sched.get_last_lr(),
                        getattr(sched, "base_lrs", None)))
        return out
    same_outcome(fn, reprs=False, rtol=0, atol=0)


def test_sequential_of_chained_and_plateau_with_new_group():
    def fn(T):
        S = T.optim.lr_scheduler
        opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=1.0)
        chained = S.ChainedScheduler([S.ExponentialLR(opt, 0.9), S.StepLR(opt, 2, 0.5)])
        seq = S.SequentialLR(opt, [S.ConstantLR(opt, 0.5, 2), chained], milestones=[3])
        lrs = []
        for _ in range(8):
            opt.step()
            seq.step()
            lrs.append(seq.get_last_lr())
        out = [lrs]
        for min_lr in (0.01, [0.01]):
            opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=1.0)
            plateau = S.ReduceLROnPlateau(opt, patience=0, min_lr=min_lr)
            opt.add_param_group({"params": [T.nn.Parameter(T.ones(1))], "lr": 0.5})
            plateau.step(1.0)
            out.append(raised(functools.partial(plateau.step, 2.0)))
            out.append((plateau.get_last_lr(), plateau.min_lrs))
        return out
    same_outcome(fn, reprs=False, rtol=0, atol=0)


def test_scheduler_state_dict_round_trip():
    def fn(T):
        S = T.optim.lr_scheduler
        out = []
        for make in (lambda o: S.CyclicLR(o, 0.01, 0.1, 3),
                     lambda o: S.OneCycleLR(o, 0.4, 20),
                     lambda o: S.ChainedScheduler([S.ExponentialLR(o, 0.9), S.StepLR(o, 2)]),
                     lambda o: S.MultiplicativeLR(o, lambda e: 0.9)):
            opt = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.5)
            sched = make(opt)
            for _ in range(5):
                opt.step()
                sched.step()
            opt2 = T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1, momentum=0.5)
            opt2.load_state_dict(opt.state_dict())
            sched2 = make(opt2)
            sched2.load_state_dict(sched.state_dict())
            for o, s in ((opt, sched), (opt2, sched2)):
                o.step()
                s.step()
            out.append((sched.get_last_lr(), sched2.get_last_lr(),
                        opt2.param_groups[0]["momentum"]))
        return out
    same_outcome(fn, reprs=False, rtol=0, atol=0)


def _step_past_the_end(S, o):
    sched = S.OneCycleLR(o, 1.0, 3)
    for _ in range(4):
        o.step()
        sched.step()


@pytest.mark.parametrize("make", [
    lambda T, S, o: S.CyclicLR(o, 0.1, 1.0, mode="sine"),
    lambda T, S, o: S.CyclicLR(o, [0.1, 0.2, 0.3], 1.0),
    lambda T, S, o: S.CyclicLR(T.optim.Adagrad(o.param_groups[0]["params"]), 0.1, 1.0),
    lambda T, S, o: S.OneCycleLR(o, 1.0),
    lambda T, S, o: S.OneCycleLR(o, 1.0, total_steps=0),
    lambda T, S, o: S.OneCycleLR(o, 1.0, epochs=2, steps_per_epoch=0),
    lambda T, S, o: S.OneCycleLR(o, 1.0, epochs=-1, steps_per_epoch=3),
    lambda T, S, o: S.OneCycleLR(o, 1.0, 10, pct_start=1),
    lambda T, S, o: S.OneCycleLR(o, 1.0, 10, anneal_strategy="cubic"),
    lambda T, S, o: S.OneCycleLR(o, [1.0], 10),
    lambda T, S, o: _step_past_the_end(S, o),
    lambda T, S, o: S.MultiplicativeLR(o, 0.9),
    lambda T, S, o: S.MultiplicativeLR(o, [lambda e: 1.0]),
    lambda T, S, o: S.ChainedScheduler([]),
    lambda T, S, o: S.ChainedScheduler([S.ReduceLROnPlateau(o)]),
    lambda T, S, o: S.ChainedScheduler([S.StepLR(o, 2), object()]),
    lambda T, S, o: S.StepLR(o, 2, last_epoch=3),
], ids=["mode", "base_lr_count", "no_momentum", "no_total", "total_steps", "steps_per_epoch",
        "epochs", "pct_start", "anneal", "max_lr_count", "too_many_steps", "not_callable",
        "lambda_count", "chained_empty", "chained_plateau", "chained_no_optimizer",
        "initial_lr"])
def test_scheduler_errors(make):
    def fn(T):
        opt = T.optim.SGD([{"params": [T.nn.Parameter(T.ones(1))]},
                           {"params": [T.nn.Parameter(T.ones(1))]}], lr=0.1, momentum=0.9)
        return make(T, T.optim.lr_scheduler, opt)
    same_outcome(fn)


# -- swa_utils ---------------------------------------------------------------------------------

def _bn_model(T):
    T.manual_seed(0)
    return T.nn.Sequential(T.nn.Linear(4, 6), T.nn.BatchNorm1d(6), T.nn.ReLU(),
                           T.nn.Linear(6, 2))


AVERAGING = {
    "swa": {},
    "swa_buffers": {"use_buffers": True},
    "ema": {"multi_avg_fn": "ema"},
    "ema_buffers": {"multi_avg_fn": "ema", "use_buffers": True},
    "ema_one_tensor": {"avg_fn": "ema1"},
    "swa_one_tensor": {"avg_fn": "swa1"},
    "swa_lists": {"multi_avg_fn": "swa"},
    "custom": {"avg_fn": "custom"},
}


@pytest.mark.parametrize("name", list(AVERAGING))
def test_averaged_model(name):
    """An AveragedModel following 4 SGD steps: its weights, buffers and ``n_averaged``, its
    output and state dict, as torch's (within the matmuls' round-off)."""
    def fn(T):
        U = T.optim.swa_utils
        fns = {"ema": lambda: U.get_ema_multi_avg_fn(0.9), "ema1": lambda: U.get_ema_avg_fn(0.8),
               "swa": U.get_swa_multi_avg_fn, "swa1": U.get_swa_avg_fn,
               "custom": lambda: lambda avg, cur, n: avg * 0.5 + cur * 0.5 + n}
        kwargs = {k: fns[v]() if k.endswith("fn") else v for k, v in AVERAGING[name].items()}
        model = _bn_model(T)
        averaged = U.AveragedModel(model, **kwargs)
        opt = T.optim.SGD(model.parameters(), lr=0.1)
        x = T.randn(8, 4)
        for _ in range(4):
            opt.zero_grad()
            model(x).pow(2).sum().backward()
            opt.step()
            averaged.update_parameters(model)
        return (list(averaged.parameters()), list(averaged.buffers()), averaged(x),
                averaged.state_dict(), averaged.n_averaged)
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-6)


def test_averaged_model_errors_and_decay_checks():
    def fn(T):
        U = T.optim.swa_utils
        model = T.nn.Linear(2, 2)
        both_fns = raised(lambda: U.AveragedModel(model, avg_fn=U.get_swa_avg_fn(),
                                                  multi_avg_fn=U.get_swa_multi_avg_fn()))
        return (both_fns, raised(lambda: U.get_ema_avg_fn(1.5)),
                raised(lambda: U.get_ema_multi_avg_fn(-0.1)))
    same_outcome(fn)


def test_update_bn():
    def fn(T):
        model = _bn_model(T)
        model.eval()
        x = T.randn(30, 4)
        loader = [x[:10], (x[10:20], T.zeros(10)), [x[20:]]]
        T.optim.swa_utils.update_bn(loader, model)
        bn = model[1]
        T.optim.swa_utils.update_bn(loader, T.nn.Linear(2, 2))  # (no BatchNorm: nothing)
        return bn.running_mean, bn.running_var, bn.num_batches_tracked, bn.momentum, \
            model.training
    same_outcome(fn, reprs=False, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("kwargs", [dict(swa_lr=0.05), dict(swa_lr=[0.01, 0.5], anneal_epochs=3,
                                                             anneal_strategy="linear"),
                                    dict(swa_lr=0.2, anneal_epochs=0)])
def test_swalr(kwargs):
    def fn(T):
        a, b = T.nn.Parameter(T.ones(2)), T.nn.Parameter(T.ones(1))
        opt = T.optim.SGD([{"params": [a]}, {"params": [b], "lr": 0.3}], lr=0.1)
        sched = T.optim.swa_utils.SWALR(opt, **kwargs)
        lrs = [sched.get_last_lr()]
        for _ in range(14):
            opt.step()
            sched.step()
            lrs.append(sched.get_last_lr())
        return lrs, sorted(sched.state_dict()), opt.param_groups[1]["swa_lr"]
    same_outcome(fn, reprs=False, rtol=0, atol=0)


@pytest.mark.parametrize("kwargs", [dict(swa_lr=0.1, anneal_strategy="exp"),
                                    dict(swa_lr=0.1, anneal_epochs=-1),
                                    dict(swa_lr=0.1, anneal_epochs=2.0),
                                    dict(swa_lr=[0.1, 0.2])])
def test_swalr_errors(kwargs):
    same_outcome(lambda T: T.optim.swa_utils.SWALR(
        T.optim.SGD([T.nn.Parameter(T.ones(1))], lr=0.1), **kwargs))


# -- Muon --------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [{}, dict(lr=0.02, nesterov=False, weight_decay=0.0,
                                             adjust_lr_fn="match_rms_adamw"),
                                    dict(momentum=0.5, ns_steps=3, eps=1e-3,
                                         ns_coefficients=(2.0, -1.5, 0.5),
                                         adjust_lr_fn="original")])
def test_muon_steps(kwargs):
    """Three steps on a tall and a wide matrix: parameters, momentum buffers, repr."""
    def fn(T):
        T.manual_seed(0)
        p = T.nn.Parameter(T.randn(6, 4))
        q = T.nn.Parameter(T.randn(3, 5))
        opt = T.optim.Muon([p, q], **kwargs)
        out = []
        for _ in range(3):
            p.grad = T.randn(6, 4)
            q.grad = T.randn(3, 5)
            opt.step()
            out.append((p.detach().clone(), q.detach().clone(), p._version))
        return out, opt.state_dict(), repr(opt)
    same_outcome(fn, rtol=0, atol=0)


@pytest.mark.parametrize("kwargs", [dict(lr=-1.0), dict(momentum=-0.1), dict(weight_decay=-1),
                                    dict(adjust_lr_fn="rms"), dict(ns_steps=100),
                                    dict(ns_coefficients=(1.0, 2.0)), dict(shape=(3,))])
def test_muon_errors(kwargs):
    def fn(T):
        kw = dict(kwargs)
        p = T.nn.Parameter(T.ones(kw.pop("shape", (2, 3))))
        opt = T.optim.Muon([p], **kw)
        p.grad = T.ones_like(p)
        return opt.step()
    same_outcome(fn)


# -- swap_in_optimizer_params_and_state ------------------------------------------------------

def test_swap_in_optimizer_params_and_state():
    """A step inside the context moves the swapped-in parameters and state (in place), not
    the optimizer's own; its own groups and state are back afterwards."""
    def fn(T):
        T.manual_seed(0)
        p, q = T.nn.Parameter(T.randn(3)), T.nn.Parameter(T.randn(2, 2))
        opt = T.optim.Adam([{"params": [p]}, {"params": [q], "lr": 0.1}], lr=0.01)
        p.grad, q.grad = T.randn(3), T.randn(2, 2)
        opt.step()
        saved = opt.state_dict()
        saved["param_groups"][1]["lr"] = 0.5
        saved["state"] = {k: {n: v.clone() for n, v in s.items()}
                          for k, s in saved["state"].items()}
        new = {"p": p.detach().clone(), "q": q.detach().clone()}
        new["p"].grad, new["q"].grad = T.ones(3), T.ones(2, 2)
        with T.optim.swap_in_optimizer_params_and_state(opt, new, saved):
            opt.step()
            inside = [g["lr"] for g in opt.param_groups], opt.state[new["q"]]["step"]
        return (inside, new, saved["state"], p, q, opt.state_dict(),
                [g["params"][0] is x for g, x in zip(opt.param_groups, (p, q))])
    same_outcome(fn, reprs=False, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("case", ["no_state", "not_dict", "state_type", "tensor_keys",
                                  "entry_type", "groups_type", "groups_count", "group_type",
                                  "ids", "param_count", "keys", "too_few", "extra_ids"])
def test_swap_in_errors(case):
    def fn(T):
        p = T.nn.Parameter(T.ones(2))
        opt = T.optim.SGD([p], lr=0.1, momentum=0.9)
        if case == "no_state":
            with T.optim.swap_in_optimizer_params_and_state(opt, {"p": p}, opt.state_dict()):
                return None
        p.grad = T.ones(2)
        opt.step()
        sd = opt.state_dict()
        params = {"p": p.detach().clone()}
        group = sd["param_groups"][0]
        sd = {"not_dict": [1],
              "state_type": {"state": [], "param_groups": sd["param_groups"]},
              "tensor_keys": {"state": {p: {}}, "param_groups": sd["param_groups"]},
              "entry_type": {"state": {0: 1.0}, "param_groups": sd["param_groups"]},
              "groups_type": {"state": sd["state"], "param_groups": (group,)},
              "groups_count": {"state": sd["state"], "param_groups": [group, group]},
              "group_type": {"state": sd["state"], "param_groups": [[0]]},
              "ids": {"state": sd["state"], "param_groups": [dict(group, params=["0"])]},
              "param_count": {"state": sd["state"], "param_groups": [dict(group, params=[0, 1])]},
              "keys": {"state": sd["state"], "param_groups": [dict(group, extra=1)]},
              "too_few": sd,
              "extra_ids": {"state": dict(sd["state"], **{"7": {}}),
                            "param_groups": sd["param_groups"]}}[case]
        if case == "too_few":
            params = {}
        with T.optim.swap_in_optimizer_params_and_state(opt, params, sd):
            return None
    same_outcome(fn)
