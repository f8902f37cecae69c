"""Benchmarks of issues 8, 17 and 20: doctensor vs torch 2.13 vs raw NumPy, printed as a table.

Run ``python -m benchmarks`` (or ``nox -s bench``); ``python -m benchmarks --help`` lists the
options. ``workloads`` holds what is timed, ``harness`` how (and the table), ``memory`` the
W2 memory check in subprocesses, ``docs_build`` the Sphinx timings.
"""
