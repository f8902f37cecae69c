"""Timing, statistics and the printed table.

One case is timed like this:

1. for each library: ``setup`` (untimed), then one warm-up ``step`` (this VM pages idle memory
   out; the first iteration also pays for imports and caches). A library whose setup or
   warm-up raises is "not available" in that row, with the reason under the table.
2. three more steps per library, timed, to choose ``n`` from the fastest: how many steps make
   one timed batch (a cold step would make batches of large steps too short).
3. interleaved rounds, A B C, A B C, ...: each round times one batch of ``n`` steps per
   library, after one untimed step that brings its data back into the caches the other
   libraries used, so a slow drift of the machine (another process, thermal) hits all three
   alike and every library is timed in the same steady state.
4. per library the median over rounds of the time per step, minus the harness's own
   per-call overhead (measured on an empty step); ratios are medians over torch's median.
"""

import gc
import math
import os
import statistics
import time
from dataclasses import dataclass, field
from importlib import import_module

LIBS = ("doctensor", "torch", "numpy")


@dataclass
class Settings:
    rounds: int = 15  # at most; fewer when one round is slow (see budget_s)
    min_rounds: int = 5
    batch_s: float = 0.05  # the length of one timed batch of steps
    budget_s: float = 10.0  # roughly the time one case may take
    calibrate: bool = True  # False: one step per batch (the smoke test)


FULL = Settings()
QUICK = Settings(rounds=7, min_rounds=3, batch_s=0.02, budget_s=2.5)
SMOKE = Settings(rounds=1, min_rounds=1, batch_s=0.0, budget_s=0.0, calibrate=False)


@dataclass
class Result:
    name: str
    target: float | None
    times: dict = field(default_factory=dict)  # library -> seconds per step, one per round
    missing: dict = field(default_factory=dict)  # library -> why it is not available
    check: str = ""  # doctensor's output against torch's


# --- the libraries ---------------------------------------------------------------------------


def import_libs():
    """{name: module or the reason it cannot be imported}."""
    libs = {}
    for name in LIBS:
        try:
            libs[name] = import_module(name)
        except Exception as exc:  # noqa: BLE001 (a broken library is a row, not a crash)
            libs[name] = f"import failed: {_reason(exc)}"
    return libs


def _reason(exc):
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0] if text else ''}"[:160]


# --- timing --------------------------------------------------------------------------------


CLOCK = {"now": time.perf_counter}  # what _time_batch reads: wall-clock time, or CPU time


def _time_batch(step, state, n, warm=False):
    gc.collect()  # each batch starts from the same heap, the garbage of the last one gone
    if warm:
        step(state)  # (untimed: the caches refilled after another library's batch)
    now = CLOCK["now"]
    t0 = now()
    for _ in range(n):
        step(state)
    return (now() - t0) / n


def use_cpu_time(libs):
    """``--cpu``: time by this process's CPU time (summed over its threads), with torch's
    intra-op pool and every BLAS/OpenMP pool at one thread, so that a busy machine (other
    processes, threads spinning while they wait for a core) barely moves the ratios; doctensor
    emulates one thread too (its exact sums split work as torch's threads do).  Returns a
    function that puts the clock and the thread counts back."""
    from threadpoolctl import threadpool_limits

    threads = {lib: lib.get_num_threads() for name, lib in libs.items()
               if name in ("torch", "doctensor") and not isinstance(lib, str)}
    for lib in threads:
        lib.set_num_threads(1)
    limits = threadpool_limits(1)
    CLOCK["now"] = time.process_time

    def restore():
        CLOCK["now"] = time.perf_counter
        limits.restore_original_limits()
        for lib, n in threads.items():
            lib.set_num_threads(n)
    return restore


def _empty_step(state):
    return state


def call_overhead():
    """Seconds the loop in _time_batch adds per step (subtracted from every median)."""
    return min(_time_batch(_empty_step, None, 200_000) for _ in range(5))


def run_case(case, libs, settings, overhead=0.0):
    """Time one workloads.Case in every library (see the module's docstring for how)."""
    result = Result(case.name, case.target)
    states, outputs = {}, {}
    for name, lib in libs.items():
        pair = case.numpy if name == "numpy" else case.tensor
        if isinstance(lib, str) or pair is None:
            result.missing[name] = lib if isinstance(lib, str) else "no such workload"
            continue
        try:
            states[name] = pair.setup(lib)
            outputs[name] = pair.step(states[name])  # the warm-up iteration
        except Exception as exc:  # noqa: BLE001
            result.missing[name] = _reason(exc)
            states.pop(name, None)
    result.check = compare(outputs.get("doctensor"), outputs.get("torch"), case.compare)
    outputs.clear()

    steps = {name: (case.numpy if name == "numpy" else case.tensor).step for name in states}
    batch = dict.fromkeys(states, 1)
    rounds = settings.rounds
    if settings.calibrate and states:
        one = {name: min(_time_batch(steps[name], states[name], 1) for _ in range(3))
               for name in states}
        batch = {name: max(1, round(settings.batch_s / max(t, 1e-9))) for name, t in one.items()}
        per_round = sum(batch[name] * one[name] for name in states)
        rounds = max(settings.min_rounds, min(rounds, int(settings.budget_s / per_round)))

    times = {name: [] for name in states}
    for _ in range(rounds):
        for name in list(times):  # interleaved: A B C, A B C, ...
            try:
                times[name].append(_time_batch(steps[name], states[name], batch[name],
                                               warm=settings.calibrate))
            except Exception as exc:  # noqa: BLE001
                result.missing[name] = _reason(exc)
                del times[name]
    result.times = {name: [max(t - overhead, 0.0) for t in ts] for name, ts in times.items()}
    states.clear()
    gc.collect()
    return result


# --- the correctness glance ----------------------------------------------------------------


def _values(out):
    import numpy as np

    if isinstance(out, tuple):
        out = out[0]
    if hasattr(out, "detach"):
        out = out.detach().numpy()
    return np.asarray(out)


def compare(dt_out, torch_out, how):
    """A glance (the tests do the real checking) that doctensor computed what torch did."""
    import numpy as np

    if dt_out is None or torch_out is None:
        return ""
    try:
        a, b = _values(dt_out), _values(torch_out)
    except Exception as exc:  # noqa: BLE001
        return f"cannot compare ({type(exc).__name__})"
    if a.shape != b.shape or a.dtype != b.dtype:
        return f"DIFFERS: {a.dtype}{list(a.shape)} vs torch {b.dtype}{list(b.shape)}"
    if how == "exact":
        return "bit-exact" if a.tobytes() == b.tobytes() else "DIFFERS (not bit-exact)"
    rtol = {"close": 1e-5, "loose": 1e-3}[how]
    return "= torch" if np.allclose(a, b, rtol=rtol, atol=rtol) else "DIFFERS from torch"


# --- statistics ----------------------------------------------------------------------------


def median(times):
    return statistics.median(times) if times else math.nan


def spread(times):
    """The interquartile range over the median: how noisy the rounds were."""
    if len(times) < 4:
        return math.nan
    q1, _, q3 = statistics.quantiles(times, n=4)
    return (q3 - q1) / statistics.median(times)


def ratio(result, name):
    base = median(result.times.get("torch", []))
    mine = median(result.times.get(name, []))
    return mine / base if base > 0 else math.nan


def verdict(result):
    r = ratio(result, "doctensor")
    if result.target is None:
        return "-"
    if math.isnan(r):
        return "n/a"
    return "PASS" if r <= result.target else "MISS"


# --- printing ------------------------------------------------------------------------------


def fmt_time(seconds):
    if math.isnan(seconds):
        return "n/a"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if seconds >= scale or unit == "ns":
            value = seconds / scale
            return f"{value:.3g} {unit}" if value < 100 else f"{value:.0f} {unit}"
    raise AssertionError


def _num(x, spec=".2f"):
    return "n/a" if math.isnan(x) else format(x, spec)


def table(rows, header):
    """A plain-text table; rows are lists of strings, the first column left-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    lines = []
    for i, row in enumerate([header, *rows]):
        cells = [str(c).ljust(w) if j == 0 else str(c).rjust(w)
                 for j, (c, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def timing_table(results):
    header = ["workload", "torch", "doctensor", "numpy", "dt/torch", "target", "result",
              "np/torch", "noise", "check"]
    rows = []
    for r in results:
        noise = max((spread(ts) for ts in r.times.values()), default=math.nan)
        rows.append([
            r.name,
            fmt_time(median(r.times.get("torch", []))),
            fmt_time(median(r.times.get("doctensor", []))),
            fmt_time(median(r.times.get("numpy", []))),
            _num(ratio(r, "doctensor")),
            "-" if r.target is None else f"<= {r.target:.2f}",
            verdict(r),
            _num(ratio(r, "numpy")),
            _num(noise * 100, ".0f") + ("%" if not math.isnan(noise) else ""),
            r.check,
        ])
    return table(rows, header)


def missing_notes(results):
    """Why a cell says n/a: one line per (library, reason), naming the rows."""
    reasons = {}
    for r in results:
        for name, why in r.missing.items():
            reasons.setdefault((name, why), []).append(r.name)
    return [f"  n/a {name} in {'every row' if len(rows) == len(results) else ', '.join(rows)}"
            f": {why}" for (name, why), rows in reasons.items()]


# --- the machine ---------------------------------------------------------------------------


def load_line(when):
    """The load average, and a warning when the machine is busy enough to skew timings."""
    try:
        load1, load5, load15 = os.getloadavg()
    except OSError:
        return f"load average ({when}): unknown"
    cpus = os.cpu_count() or 1
    line = f"load average ({when}): {load1:.2f} {load5:.2f} {load15:.2f} on {cpus} CPUs"
    # before the run the load is other processes'; during it this process adds about 1
    limit = 0.5 * cpus if when == "before" else cpus
    if load1 > limit:
        line += (f"\n  WARNING: the machine is busy (1-min load {load1:.2f} > {limit:g}): "
                 "these timings are noisy; rerun on a quiet machine")
    return line


def _threads_note():
    return "one: --cpu" if CLOCK["now"] is time.process_time else "left at the default"


def machine_lines(libs):
    import platform

    lines = [f"python {platform.python_version()} on {platform.machine()}, "
             f"{os.cpu_count()} CPUs ({platform.processor() or platform.system()})"]
    for name, lib in libs.items():
        version = lib if isinstance(lib, str) else getattr(lib, "__version__", "?")
        lines.append(f"{name} {version}")
    torch = libs.get("torch")
    if not isinstance(torch, str):
        blas = [part.split("=")[1] for part in torch.__config__.show().split(",")
                if "BLAS_INFO=" in part]
        lines.append(f"torch threads: {torch.get_num_threads()} intra-op, "
                     f"{torch.get_num_interop_threads()} inter-op ({_threads_note()}); "
                     f"BLAS {''.join(blas) or '?'}")
    lines.append("NumPy (and doctensor) BLAS: " + _numpy_blas())
    return lines


def _numpy_blas():
    try:  # threadpoolctl (installed with scikit-learn) knows the live thread count
        import numpy  # noqa: F401 (threadpoolctl lists the libraries loaded so far)
        from threadpoolctl import threadpool_info

        pools = [f"{p['internal_api']} {p.get('version') or ''} ({p['num_threads']} threads)"
                 for p in threadpool_info() if p.get("user_api") == "blas"]
        if pools:
            return "; ".join(pools)
    except ImportError:
        pass
    try:
        import numpy as np

        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas['name']} {blas.get('version', '')} (threads: see threadpoolctl)"
    except Exception:  # noqa: BLE001 (older NumPy: no dicts)
        return "unknown"
