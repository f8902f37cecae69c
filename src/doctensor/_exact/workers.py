"""The worker threads that share large exact computations out, and torch's thread count."""

import concurrent.futures
import functools
import glob
import os

__all__ = ["THREADS", "in_parallel", "torch_num_threads"]

# Note [worker threads]
# NumPy releases the GIL inside its loops, so work on large arrays that splits into independent
# parts (box_muller_f32's windows, fma32's rows) runs on several cores: part 0 in the calling
# thread, the others on a few persistent worker threads (as many as the CPUs we may use, at
# most 4, like torch's intra-op pool).  Each element is computed the same way whatever part it
# falls in, so results never depend on the threads.  A forked child has none of its parent's
# threads, so the pool belongs to one process id and a child makes its own, lazily.
# Each NumPy call hands the GIL over twice, and on a 2-CPU machine that costs about as much as
# a 10 us call saves: fma32 gains from a second thread only past about a million elements
# (_PARALLEL_MIN), so an SGD step on 512x784 weights stays on one.

THREADS = min(4, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
              else os.cpu_count() or 1)
_POOL = (None, None)  # (process id, executor)


def in_parallel(work, parts):
    """``work(k)`` for k in range(parts), concurrently (Note [worker threads]); re-raises the
    first error, after every part has finished."""
    if parts < 2:
        if parts:
            work(0)
        return
    global _POOL
    pid, pool = _POOL
    if pid != os.getpid():
        pool = concurrent.futures.ThreadPoolExecutor(THREADS - 1, "doctensor-worker")
        _POOL = os.getpid(), pool
    futures = [pool.submit(work, k) for k in range(1, parts)]
    try:
        work(0)
    finally:
        for future in futures:
            future.exception()  # waits
    for future in futures:
        future.result()  # raises


@functools.cache
def torch_num_threads():
    """torch's default intra-op thread count: OMP_NUM_THREADS or MKL_NUM_THREADS, else the
    machine's physical cores (c10's defaultNumThreads, through cpuinfo)."""
    for name in ("MKL_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(name, "")
        if value.isdigit() and int(value) > 0:
            return int(value)
    cores = set()
    for topology in glob.glob("/sys/devices/system/cpu/cpu[0-9]*/topology"):
        try:
            with open(f"{topology}/physical_package_id") as f1, open(f"{topology}/core_id") as f2:
                cores.add((f1.read(), f2.read()))
        except OSError:
            pass
    return len(cores) or os.cpu_count() or 1
