"""The benchmark harness runs: each workload once, at tiny sizes, and prints its tables.

Not a timed test (timings are `nox -s bench`'s business): it only checks that
`python -m benchmarks --smoke` gets through every workload for every library and prints a
row for each, "n/a" (with the reason) where a library lacks something.
"""

import sys
from pathlib import Path

import pytest

# benchmarks/ is a top-level package of the repository, not part of the installed doctensor;
# `python -m pytest` finds it through the working directory, a bare `pytest` would not.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import __main__ as bench  # noqa: E402
from benchmarks import harness, workloads  # noqa: E402


def test_smoke_run_prints_every_row(capsys):
    assert bench.main(["--smoke"]) == 0
    out = capsys.readouterr().out
    for case in workloads.cases(workloads.SMOKE):
        assert case.name in out
    for heading in ("dt/torch", "target", "result", "load average (before)",
                    "torch threads", "W2 memory at batch", "flat"):
        assert heading in out
    assert "Traceback" not in out
    # the workloads' own code is right: torch and the NumPy-by-hand versions all ran
    assert "n/a torch" not in out and "n/a numpy" not in out


def test_a_missing_feature_is_a_row_not_a_crash():
    """A library that lacks what a workload needs shows n/a with the reason."""
    case = workloads.Case("W9", "needs a missing op", 1.0,
                          workloads.Pair(lambda lib: lib, lambda lib: lib.no_such_op()), None)
    libs = {"doctensor": object(), "numpy": "import failed: for the test"}
    result = harness.run_case(case, libs, harness.SMOKE)
    assert result.times == {}
    assert "AttributeError" in result.missing["doctensor"]
    assert result.missing["numpy"] == "import failed: for the test"
    assert harness.verdict(result) == "n/a"
    assert "needs a missing op" in harness.timing_table([result])


@pytest.mark.parametrize("group", ["W1", "w4"])
def test_a_subset_runs_only_its_rows(capsys, group):
    assert bench.main(["--smoke", group]) == 0
    out = capsys.readouterr().out
    assert f"{group.upper()} " in out
    assert "W3 forward" not in out and "W2 memory" not in out


def test_cpu_time_mode_puts_the_clock_and_threads_back(capsys):
    """``--cpu`` times by CPU time with one thread everywhere, and undoes that at the end."""
    import time

    import torch

    import doctensor

    threads = torch.get_num_threads(), doctensor.get_num_threads()
    assert bench.main(["--smoke", "--cpu", "W1"]) == 0
    out = capsys.readouterr().out
    assert "CPU time, one thread per step" in out
    assert "torch threads: 1 intra-op" in out and "W1 add" in out
    assert (torch.get_num_threads(), doctensor.get_num_threads()) == threads
    assert harness.CLOCK["now"] is time.perf_counter
