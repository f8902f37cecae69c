"""torch 2.13's CPU arithmetic, reproduced bit for bit in NumPy.

Where a result printed by torch depends on the exact order and rounding of its CPU kernels,
the emulation lives here, apart from the op records (``ops/``), so that a reader of an op
sees its mathematics first and its bit-level arithmetic here:

* ``fma``: the fused multiply-add GCC forms in torch's vectorised kernels (Note [fused
  multiply-add], Note [bracketed fma32]);
* ``summation``: sums in torch's orders (``vec::reduce_all``, nll_loss's cascade);
* ``cascade_sum``: ``sum`` and ``prod`` themselves, as their CPU kernels and TensorIterator
  split and order them (Note [torch's CPU sum], Note [torch's CPU prod]); ``moments``:
  var/std (Note [variance of a whole tensor], Note [Welford's variance]); ``norms``: the
  p-norms (Note [vector norms]);
* ``avx_mathfun``: the float32 log and sincos of randn's Box-Muller (Note [fast float32
  Box-Muller]); ``sleef``: the exp and log of softmax;
* ``softmax``: the softmax kernel itself (Note [softmax kernel]);
* ``gamma_grad``: the reparameterization gradients of torch's gamma and Dirichlet samplers
  (Note [gamma gradients]);
* ``ties``: which of equal elements ``mode`` and ``kthvalue`` report (Note [the order of
  ties]);
* ``workers``: the threads that share large exact computations out, and torch's thread
  count (Note [worker threads]).

Note [kernels by device]
Each device runs the kernels of the torch device it stands for, chosen by the tensor's
backend (``ops/_dispatch.py`` runs an op's ``cpu_forward`` only when the backend is
``numpy_cpu``), never by the array module: the emulated CUDA device holds NumPy arrays too.

    device          backend        kernels
    cpu             numpy_cpu      these: torch's CPU bits (fma, softmax, nll_loss's sum)
    cuda (emulated) emulated_cuda  the plain array forward, as CuPy would run it
    cuda (real)     cupy_cuda      the plain array forward, on CuPy

The emulated device runs what a GPU would run, so that the tests and the docs exercise the
code path of real CUDA; torch's CUDA kernels round differently from its CPU ones anyway, so
its values agree with torch's to rounding, not to the bit.

Everything here is pure NumPy and imports nothing from doctensor.
"""
