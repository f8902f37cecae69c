"""Peak memory of the W2 training step, and that memory stays flat over many steps.

Each library runs in a subprocess of its own (``python -m benchmarks.memory LIB BATCH STEPS``)
so that one library's imports and allocator state do not show in another's numbers. The
child reports its resident set size (RSS) after the import, after a few warm-up steps
("start") and after all the steps ("end"), and its peak RSS (VmHWM, or ``ru_maxrss``).

"flat" means end - start stays within max(8 MiB, 5% of the training's peak): a graph or a
tensor kept alive per step would grow by megabytes per step at batch 1024.
"""

import json
import os
import resource
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path

from . import workloads
from .harness import _num, fmt_time, table

MiB = 2**20
ROOT = Path(__file__).resolve().parent.parent


def current_rss():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:  # not Linux: the peak is the best we have
        return peak_rss()


def peak_rss():
    """The peak RSS of this process: Linux's VmHWM, else getrusage's ru_maxrss.

    (On Linux ru_maxrss survives fork + exec: a child of the big benchmark process would
    report the parent's size. VmHWM belongs to the address space, new at exec.)
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def measure(name, batch, steps):
    """In the child: train ``steps`` steps of the W2 MLP at ``batch`` and report memory."""
    lib = import_module(name)
    imported = current_rss()
    if name == "numpy":
        setup, step = workloads.np_mlp_setup, workloads.np_mlp_step
    else:
        setup, step = workloads.mlp_setup, workloads.mlp_step
    state = setup(lib, batch)
    warm = max(1, min(20, steps // 10))
    for _ in range(warm):
        step(state)
    start = current_rss()
    t0 = time.perf_counter()
    for _ in range(steps - warm):
        step(state)
    seconds = time.perf_counter() - t0
    return {"imported": imported, "peak": peak_rss(), "start": start, "end": current_rss(),
            "steps": steps, "warm": warm, "per_step": seconds / max(1, steps - warm)}


def run(names, batch, steps, timeout=1800):
    """Run the child once per library; {name: report dict, or the reason it failed}."""
    reports = {}
    for name in names:
        print(f"  memory: {name}, {steps} steps at batch {batch} ...", file=sys.stderr,
              flush=True)
        cmd = [sys.executable, "-m", "benchmarks.memory", name, str(batch), str(steps)]
        try:
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                                  timeout=timeout)
        except subprocess.TimeoutExpired:
            reports[name] = f"timed out after {timeout} s"
            continue
        if proc.returncode == 0:
            reports[name] = json.loads(proc.stdout.strip().splitlines()[-1])
        else:
            lines = proc.stderr.strip().splitlines() or [f"exit status {proc.returncode}"]
            reports[name] = lines[-1][:110]
    return reports


def memory_table(reports, batch):
    header = ["library", "after import", "peak", "peak - import", "vs torch",
              "start", "end", "growth", "flat", "per step"]
    rows, notes = [], []
    torch = reports.get("torch")
    for name, rep in reports.items():
        if isinstance(rep, str):
            rows.append([name] + ["n/a"] * 9)
            notes.append(f"  n/a {name}: {rep}")
            continue
        training = rep["peak"] - rep["imported"]
        growth = rep["end"] - rep["start"]
        vs = (training / (torch["peak"] - torch["imported"])
              if isinstance(torch, dict) and torch["peak"] > torch["imported"] else float("nan"))
        flat = growth <= max(8 * MiB, 0.05 * training)
        rows.append([name, f"{rep['imported'] / MiB:.0f} MiB", f"{rep['peak'] / MiB:.0f} MiB",
                     f"{training / MiB:.0f} MiB", _num(vs), f"{rep['start'] / MiB:.0f} MiB",
                     f"{rep['end'] / MiB:.0f} MiB", f"{growth / MiB:+.1f} MiB",
                     "PASS" if flat else "MISS (grows)", fmt_time(rep["per_step"])])
    some = next((r for r in reports.values() if isinstance(r, dict)), None)
    title = (f"W2 memory at batch {batch}: RSS, one process per library; start = after "
             f"{some['warm'] if some else '?'} warm-up steps, end = after "
             f"{some['steps'] if some else '?'} steps")
    return "\n".join([title, table(rows, header), *notes])


def main(argv):
    name, batch, steps = argv[0], int(argv[1]), int(argv[2])
    try:
        report = measure(name, batch, steps)
    except Exception as exc:  # noqa: BLE001 (the parent prints the reason as "n/a")
        text = str(exc).strip().splitlines()
        print(f"{type(exc).__name__}: {text[0] if text else ''}", file=sys.stderr)
        return 2
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
