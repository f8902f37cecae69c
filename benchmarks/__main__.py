"""``python -m benchmarks [GROUP ...] [--quick] [--docs] [--steps N]``: see ``--help``."""

import argparse
import sys

from . import docs_build, harness, memory, workloads

GROUPS = ("W1", "W2", "W3", "W4", "W5", "W6", "RNG", "RED", "MEM", "DOCS")


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="doctensor vs torch 2.13 vs raw NumPy (issues 8, 17, 20): medians of "
                    "interleaved rounds, ratios to torch, the issues' targets.")
    parser.add_argument("groups", nargs="*", type=str.upper, metavar="GROUP",
                        help=f"run only these: {' '.join(GROUPS)} (default: all but DOCS)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer and shorter rounds, 200 memory steps: a rough table fast")
    parser.add_argument("--smoke", action="store_true",
                        help="tiny sizes, one round: checks that the harness runs (the test)")
    parser.add_argument("--cpu", action="store_true",
                        help="time by CPU time with one thread everywhere (torch, BLAS): "
                             "ratios of work that a busy machine barely skews")
    parser.add_argument("--docs", action="store_true",
                        help="also time the docs build (clean and no-change; slow)")
    parser.add_argument("--steps", type=int, default=None,
                        help="training steps of the memory check (default 2000; "
                             "200 with --quick)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.groups) - set(GROUPS))
    if unknown:
        parser.error(f"unknown group {' '.join(unknown)}; choose from {' '.join(GROUPS)}")
    return args


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    groups = set(args.groups) or set(GROUPS) - {"DOCS"}
    if args.docs:
        groups.add("DOCS")
    if args.smoke:
        sizes, settings, steps = workloads.SMOKE, harness.SMOKE, 3
    elif args.quick:
        sizes, settings, steps = workloads.FULL, harness.QUICK, 200
    else:
        sizes, settings, steps = workloads.FULL, harness.FULL, 2000
    steps = args.steps or steps

    libs = harness.import_libs()
    restore = harness.use_cpu_time(libs) if args.cpu else None
    try:
        return _run(args, groups, libs, sizes, settings, steps)
    finally:
        if restore is not None:
            restore()


def _run(args, groups, libs, sizes, settings, steps):
    print("doctensor benchmarks (issues 8, 17, 20)")
    print("\n".join(harness.machine_lines(libs)))
    print(harness.load_line("before"), flush=True)

    cases = [c for c in workloads.cases(sizes) if c.group in groups]
    if cases:
        overhead = 0.0 if args.smoke else harness.call_overhead()
        results = []
        for case in cases:
            print(f"  timing: {case.name} ...", file=sys.stderr, flush=True)
            results.append(harness.run_case(case, libs, settings, overhead))
        clock = "CPU time, one thread" if args.cpu else "Times"
        print(f"\n{clock} per step: medians over {settings.min_rounds}-{settings.rounds} "
              "interleaved rounds after a warm-up step; harness call overhead "
              f"{overhead * 1e9:.0f} ns subtracted. dt/torch and np/torch are ratios of "
              "medians;\nresult compares dt/torch with the issue's target; noise is the "
              "largest (IQR / median) of the row; check compares doctensor's output to torch's.")
        print(harness.timing_table(results))
        print("\n".join(harness.missing_notes(results)), flush=True)

    if "MEM" in groups:
        reports = memory.run(harness.LIBS, sizes.mem_batch, steps)
        print()
        print(memory.memory_table(reports, sizes.mem_batch), flush=True)

    if "DOCS" in groups:
        print()
        print(docs_build.run(), flush=True)

    print()
    print(harness.load_line("after"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
