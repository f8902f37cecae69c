"""Which build of torch's CPU kernels doctensor reproduces: AVX512 or AVX2 (Note [CPU
capability])."""

import os

import numpy as np

from .workers import torch_num_threads

__all__ = ["cpu_capability", "vector_bytes", "in_vector_loop"]

# Note [CPU capability]
# torch compiles its vectorized CPU kernels several times and picks one build when it starts:
# AVX512 where the CPU has AVX512 F, BW, DQ and VL (and FMA), else AVX2; the environment
# variable ATEN_CPU_CAPABILITY (``avx2``, ``avx512``) chooses another.  The build shows in
# the last bits of some results, through the width of ``Vectorized`` (64 or 32 bytes):
#
#     kernel                     AVX512                          AVX2
#     softmax's sums (float32)   16 lanes, tree j^8 j^4 j^2 j^1  8 lanes, tree j^4 j^2 j^1
#     softmax's Sleef columns    blocks of 16 columns            blocks of 8
#     pointwise loops            vector path in steps of 32      steps of 16 (float32)
#
# Most pointwise kernels have no AVX512 build (ATen registers them with REGISTER_DISPATCH):
# they run the AVX2 one everywhere; those registered with ALSO_REGISTER_AVX512_DISPATCH
# (softmax, elu, hardswish, gelu, silu, mish, softplus, log_sigmoid ...) follow the build.
#
# Note [NaN in vector loops]
# A pointwise loop (cpu_kernel_vec) over a dense tensor walks memory in order, in steps of
# two vectors, and leaves the last elements (fewer than a step) to a scalar loop; from 32768
# elements the range is first cut into one chunk per thread, each with its own tail.  The
# two loops are written apart, and some kernels' comparisons read a NaN differently in each:
# elu's and hardswish's backward give NaN in vectors and the positive slope in the tail;
# hardtanh's and the shrinks' backward give 0 in vectors and the gradient in the tail.
# (``sum`` has no AVX512 build: every machine runs its AVX2 kernel, see cascade_sum.py.)
# doctensor follows the same rule on the machine it runs on, so that it prints what torch
# prints there; ``DOCTENSOR_CPU_CAPABILITY`` (else ATEN_CPU_CAPABILITY) names the build to
# reproduce on any machine.

_CHOICES = {"avx512": 64, "avx2": 32}


def _hardware():
    """The build torch picks on this CPU (NumPy reads the same CPUID bits)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as has
    except ImportError:  # (NumPy 1.x)
        from numpy.core._multiarray_umath import __cpu_features__ as has
    avx512 = ("AVX512F", "AVX512BW", "AVX512DQ", "AVX512VL", "FMA3")
    return "avx512" if all(has.get(f) for f in avx512) else "avx2"


def _choose():
    value = os.environ.get("DOCTENSOR_CPU_CAPABILITY", "").lower()
    if value and value not in _CHOICES:
        raise ValueError(f"DOCTENSOR_CPU_CAPABILITY={value!r}: doctensor reproduces torch's "
                         "'avx2' or 'avx512' build")
    aten = os.environ.get("ATEN_CPU_CAPABILITY", "").lower()  # (others: the CPU's)
    return value or (aten if aten in _CHOICES else _hardware())


_CAPABILITY = _choose()


def cpu_capability():
    """``'avx512'`` or ``'avx2'``: torch's ``torch.backends.cpu.get_cpu_capability()``,
    lower-cased."""
    return _CAPABILITY


def vector_bytes():
    """The width of a ``Vectorized`` in the build reproduced."""
    return _CHOICES[_CAPABILITY]


def in_vector_loop(data, others, avx512):
    """Which elements of ``data`` torch's pointwise loop over ``data`` and ``others`` (the
    other operands, same shape) computes in vectors (Note [NaN in vector loops]); ``avx512``:
    whether the kernel has an AVX512 build.  Operands of other layouts (not dense, or not
    one layout but for stride-0 ones) run the scalar loop: all False."""
    n, item = data.size, data.itemsize
    if n == 0 or any(o.strides != data.strides and any(o.strides) for o in others):
        return np.zeros(data.shape, bool)
    extent = 1
    for stride, size in sorted((st // item, sz) for sz, st in zip(data.shape, data.strides)
                               if sz > 1):
        if stride != extent:  # (not dense)
            return np.zeros(data.shape, bool)
        extent *= size
    pos = np.zeros((), np.int64)  # each element's place in memory
    for size, stride in zip(data.shape, data.strides):
        pos = np.add.outer(pos, np.arange(size) * (stride // item))
    step = 2 * (vector_bytes() if avx512 else 32) // item
    threads = torch_num_threads()
    chunk = n if n < 32768 or threads == 1 else -(-n // min(threads, -(-n // 32768)))
    length = np.minimum(chunk, n - pos // chunk * chunk)
    return pos % chunk < length - length % step
