"""L-BFGS, with an optional strong-Wolfe line search."""

import doctensor as torch

from .optimizer import Optimizer, check_lr, hyper, scalar

__all__ = ["LBFGS"]


def _cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser of the cubic through (x1, f1) and (x2, f2) with slopes g1 and g2,
    clamped to ``bounds`` (default: between x1 and x2); the middle of the bounds when the
    cubic has no minimum.  Values may be floats or 0-d tensors, as in torch."""
    lo, hi = bounds if bounds is not None else ((x1, x2) if x1 <= x2 else (x2, x1))
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if not d2_square >= 0:  # (NaN included)
        return (lo + hi) / 2.0
    d2 = d2_square.sqrt()
    if x1 <= x2:
        pos = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
    else:
        pos = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
    return min(max(pos, lo), hi)


class _Point:
    """A trial step ``t`` of the line search: loss ``f``, flat gradient ``g`` and slope
    ``gtd`` along the search direction."""

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def _strong_wolfe(evaluate, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9,
                  max_ls=25):
    """Search along ``d`` from ``x`` (loss ``f``, gradient ``g``, slope ``gtd``) for a step
    satisfying the strong Wolfe conditions: first bracket one (growing the step by cubic
    extrapolation), then zoom into the bracket by cubic interpolation.

    Returns (loss, flat gradient, step, number of evaluations)."""
    d_norm = d.abs().max()
    start = _Point(0, f, g.clone(), gtd)

    def trial(step):
        f_new, g_new = evaluate(x, step, d)
        return _Point(step, f_new, g_new, g_new.dot(d))

    def sufficient_decrease(p):
        return not p.f > f + c1 * p.t * gtd

    def curvature(p):
        return abs(p.gtd) <= -c2 * gtd

    prev, new = start, trial(t)
    evals, iters = 1, 0
    bracket, done = None, False
    while iters < max_ls:
        if not sufficient_decrease(new) or (iters > 1 and new.f >= prev.f):
            bracket = [prev, _Point(new.t, new.f, new.g.clone(), new.gtd)]
            break
        if curvature(new):
            bracket, done = [new], True
            break
        if new.gtd >= 0:
            bracket = [prev, _Point(new.t, new.f, new.g.clone(), new.gtd)]
            break
        step = _cubic_minimum(prev.t, prev.f, prev.gtd, new.t, new.f, new.gtd,
                              bounds=(new.t + 0.01 * (new.t - prev.t), new.t * 10))
        prev = _Point(new.t, new.f, new.g.clone(), new.gtd)
        new = trial(step)
        evals += 1
        iters += 1
    if iters == max_ls:
        bracket = [_Point(0, f, start.g, None), _Point(new.t, new.f, new.g, None)]

    # zoom: bracket[low] is the best point so far, bracket[high] the other end
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    insufficient_progress = False
    while not done and iters < max_ls:
        a, b = bracket
        if abs(b.t - a.t) * d_norm < tolerance_change:
            break
        step = _cubic_minimum(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        step, insufficient_progress = _away_from_ends(step, max(a.t, b.t), min(a.t, b.t),
                                                      insufficient_progress)
        new = trial(step)
        evals += 1
        iters += 1
        kept = _Point(new.t, new.f, new.g.clone(), new.gtd)
        if not sufficient_decrease(new) or new.f >= bracket[low].f:
            bracket[high] = kept
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
        else:
            if curvature(new):
                done = True
            elif new.gtd * (bracket[high].t - bracket[low].t) >= 0:
                bracket[high] = bracket[low]
            bracket[low] = kept
    best = bracket[low]
    return best.f, best.g, best.t, evals


def _away_from_ends(t, top, bottom, insufficient_progress):
    """Move a trial step that lies within a tenth of the bracket of one of its ends to that
    tenth, if the previous step already made too little progress or ``t`` is at an end.
    Returns (step, whether progress was insufficient)."""
    margin = 0.1 * (top - bottom)
    if not min(top - t, t - bottom) < margin:
        return t, False
    if not (insufficient_progress or t >= top or t <= bottom):
        return t, True
    if abs(t - top) < abs(t - bottom):
        return top - margin, False
    return bottom + margin, False


class LBFGS(Optimizer):
    r"""L-BFGS (limited-memory BFGS), torch's algorithm: one ``step(closure)`` runs up to
    ``max_iter`` iterations on the flattened parameters::

        g = gradient (closure() evaluated);  stop at once if max|g| <= tolerance_grad
        repeat:
            first iteration:  d = -g
            otherwise:        y = g - g_prev, s = t * d; keep (y, s) if y.s > 1e-10
                              (at most history_size pairs); d = -H g by the two-loop
                              recursion with H_0 = (y.s / y.y) I
            t = min(1, 1 / sum|g|) * lr on the very first iteration, else lr
            stop if g.d > -tolerance_change
            strong_wolfe: t from the line search; else p = p + t d and re-evaluate
            stop after max_iter iterations or max_eval evaluations, when max|g| <=
            tolerance_grad, when max|t d| <= tolerance_change or when the loss changed by
            less than tolerance_change

    The state (of the first parameter, as in torch) keeps ``func_evals``, ``n_iter``, the
    last direction ``d`` and step ``t``, the history ``old_dirs``/``old_stps``/``ro``, ``al``,
    ``H_diag``, ``prev_flat_grad`` and ``prev_loss``, so that the next ``step`` continues.
    Only one parameter group.
    """

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7,
                 tolerance_change=1e-9, history_size=100, line_search_fn=None):
        check_lr(lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(lr=lr, max_iter=max_iter, max_eval=max_eval,
                        tolerance_grad=tolerance_grad, tolerance_change=tolerance_change,
                        history_size=history_size, line_search_fn=line_search_fn)
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self):
        return torch.cat([p.new(p.numel()).zero_() if p.grad is None else p.grad.view(-1)
                          for p in self._params], 0)

    def _move(self, t, d):
        """p = p + t * d, ``d`` cut into the parameters' shapes."""
        offset = 0
        for p in self._params:
            p.add_(d[offset:offset + p.numel()].view_as(p), alpha=scalar(t))
            offset += p.numel()

    def _evaluate_at(self, closure, x, t, d):
        """Loss and flat gradient at ``x + t * d``; the parameters are then reset to ``x``."""
        self._move(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x):
            p.copy_(saved)
        return loss, flat_grad

    @staticmethod
    def _direction(state, memory, flat_grad, prev_flat_grad, d, t, history_size):
        """The L-BFGS direction ``-H g`` (two-loop recursion), after adding the last step's
        curvature pair to ``memory`` ([old_dirs, old_stps, ro, H_diag], updated in place)."""
        old_dirs, old_stps, ro, _ = memory
        y = flat_grad.sub(prev_flat_grad)
        s = d.mul(t)
        ys = y.dot(s)
        if ys > 1e-10:
            if len(old_dirs) == history_size:
                del old_dirs[0], old_stps[0], ro[0]
            old_dirs.append(y)
            old_stps.append(s)
            ro.append(1.0 / ys)
            memory[3] = ys / y.dot(y)
        al = state.setdefault("al", [None] * history_size)
        q = flat_grad.neg()
        for i in reversed(range(len(old_dirs))):
            al[i] = old_stps[i].dot(q) * ro[i]
            q.add_(old_dirs[i], alpha=scalar(-al[i]))
        r = torch.mul(q, memory[3])
        for i in range(len(old_dirs)):
            be_i = old_dirs[i].dot(r) * ro[i]
            r.add_(old_stps[i], alpha=scalar(al[i] - be_i))
        return r

    def step(self, closure):
        """Up to ``max_iter`` L-BFGS iterations; ``closure`` re-evaluates the model and
        returns the loss (gradients are on while it runs).  Returns the first loss."""
        group = self.param_groups[0]
        lr = hyper(group["lr"])
        max_iter, max_eval = group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        line_search_fn = group["line_search_fn"]

        def evaluate():
            with torch.enable_grad():
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = evaluate()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss

        d, t, prev_loss = state.get("d"), state.get("t"), state.get("prev_loss")
        prev_flat_grad = state.get("prev_flat_grad")
        memory = [state.get(key) for key in ("old_dirs", "old_stps", "ro", "H_diag")]
        for n_iter in range(1, max_iter + 1):
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                memory = [[], [], [], 1]
            else:
                d = self._direction(state, memory, flat_grad, prev_flat_grad, d, t,
                                    group["history_size"])
            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss

            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:
                break

            ls_evals = 0
            if line_search_fn is not None:
                if line_search_fn != "strong_wolfe":
                    raise RuntimeError("only 'strong_wolfe' is supported")
                x_init = [p.clone() for p in self._params]
                loss, flat_grad, t, ls_evals = _strong_wolfe(
                    lambda x, step, direction: self._evaluate_at(evaluate, x, step, direction),
                    x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - evals)
                self._move(t, d)
                optimal = flat_grad.abs().max() <= tolerance_grad
            else:
                self._move(t, d)
                optimal = False
                if n_iter != max_iter:  # (the last iteration's loss is not needed)
                    loss = float(evaluate())
                    flat_grad = self._flat_grad()
                    optimal = flat_grad.abs().max() <= tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals

            if n_iter == max_iter or evals >= max_eval or optimal:
                break
            if d.mul(t).abs().max() <= tolerance_change:
                break
            if abs(loss - prev_loss) < tolerance_change:
                break
        state.update(d=d, t=t, old_dirs=memory[0], old_stps=memory[1], ro=memory[2],
                     H_diag=memory[3], prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss
