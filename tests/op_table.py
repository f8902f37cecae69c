"""The op table's machinery: rows, their samples, running a row under torch and doctensor, and
seeing which op records a call reaches.

In the spirit of PyTorch's OpInfo, a row (``OpInfo``) names the record it exercises
(``record``: its key in ``ops/_registry.REGISTRY``, the grad_fn name or, without one, the op's
name), says how to call it (``fn(T, *inputs)``, where ``T`` is ``torch`` or ``doctensor``) and
on what (sample shapes with broadcasting, 0-d, empty, transposed and strided layouts; dtypes).
``tests/test_core_ops.py`` generates the table from the registry: every record has rows.

``variants(T, *inputs) -> (args, kwargs)`` (optional) is the record's call in its function
form (``torch.add(x, y, alpha=2)``), which the variant tests replay through every method,
function and in-place name the record declares.
"""

import contextlib
import importlib
import inspect
import itertools
import pathlib
import pkgutil
import zlib
from dataclasses import dataclass, field

import numpy as np
from _oracle import DTYPES, FLOATS, Raised, assert_same, both, make_input, sample_values

import doctensor
import doctensor.ops
from doctensor import Tensor

__all__ = ["ROW_MODULES", "OpInfo", "u", "b", "ALL", "NUM", "INTEGRAL", "UNARY", "BINARY", "REDUCE",
           "REDUCE_DIM", "run_case", "reached", "DEVICES"]

ALL = DTYPES + ("float16",)
NUM = ("float32", "float64", "int64", "int32", "uint8")
INTEGRAL = ("int64", "int32", "uint8", "bool")

UNARY = [(), (0,), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 5), "step")]
BINARY = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((), (3, 4)), ((2, 3, 4), ()),
          ((0, 3), (3,)), (((3, 4), "T"), (3, 4)), ((5,), ((5,), "step")), ((), ()),
          ((2, 1, 4), (3, 1))]
REDUCE = [(), (5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step")]
REDUCE_DIM = [(5,), (3, 4), (2, 3, 4), ((3, 4), "T"), ((2, 6), "step"), (0, 3)]

# the devices doctensor's tensors are tried on ("cuda": CuPy on a GPU, else the emulated
# device); torch 2.13 (a CPU build) is the oracle for both
DEVICES = ("cpu", "cuda")


@dataclass
class OpInfo:
    """One row: ``fn(T, *inputs)`` on the inputs its samples give (see the module docstring)."""

    record: str  # the registry key of the record exercised (None: no op record)
    name: str
    fn: object
    samples: list = field(default_factory=lambda: UNARY)
    dtypes: tuple = ALL
    grad: bool = True
    domain: tuple = (-3.0, 3.0)
    nonzero: tuple = ()  # input positions that must hold no zeros
    rtol: float = None
    atol: float = None
    strides: bool = True
    # repr compared too, except where float sums may round differently in the 4th printed
    # decimal (BLAS accumulation order differs from MKL's): values still within tolerance
    reprs: bool = True
    devices: tuple = DEVICES
    variants: object = None  # variants(T, *inputs) -> (args, kwargs): the function form
    xfail: str = None  # a known difference from torch, and why (a strict xfail)


def u(record, name, fn, **kw):
    return OpInfo(record, name, fn, UNARY, **kw)


def b(record, name, fn, **kw):
    return OpInfo(record, name, fn, BINARY, **kw)


def _sample(spec):
    if len(spec) == 2 and isinstance(spec[1], str):
        return spec
    return spec, "contig"


def normalize(sample):
    """A sample is one shape (unary) or a tuple of shapes; each may carry a layout."""
    if sample == () or (isinstance(sample, tuple) and all(isinstance(s, int) for s in sample)):
        return [(sample, "contig")]
    if len(sample) == 2 and isinstance(sample[1], str):
        return [sample]
    return [_sample(s) for s in sample]


def _tensors(out):
    if hasattr(out, "grad_fn"):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in _tensors(o)]
    return []


def sample_inputs(op, dtype, index, sample):
    """The NumPy values of a row's sample (seeded by the row, dtype and sample)."""
    rng = np.random.default_rng(zlib.crc32(f"{op.name}/{dtype}/{index}".encode()))
    return [sample_values(rng, shape, dtype, op.domain, i in op.nonzero)
            for i, (shape, _) in enumerate(normalize(sample))]


def run_case(op, dtype, index, sample, device="cpu"):
    """Row ``op`` on one sample, under doctensor (on ``device``) and torch (on the CPU):
    outputs, then, for floating dtypes, every input's gradient for a random ``grad``.
    With several inputs, float64 on the CPU also runs with every proper subset of them
    requiring grad (a node must save what its formula reads for any such subset).
    Returns whether the sample ran (rather than raising the same error in both)."""
    specs = normalize(sample)
    # float16 gradients are not compared: torch's backward kernels compute in float32 and
    # round once, doctensor's formulas (composed ops) round after each step (a few ulps off)
    grad = op.grad and dtype in FLOATS
    everything = (True,) * len(specs)
    ran = _run_with(op, dtype, index, sample, device, everything if grad else None)
    if grad and ran and dtype == "float64" and device == "cpu" and len(specs) > 1:
        for mask in itertools.product((False, True), repeat=len(specs)):
            if any(mask) and mask != everything:
                _run_with(op, dtype, index, sample, device, mask)
    return ran


def _run_with(op, dtype, index, sample, device, mask):
    """One sample of row ``op``; ``mask``: which inputs require grad (None: none, and no
    backward)."""
    specs = normalize(sample)
    values = sample_inputs(op, dtype, index, sample)
    seed = zlib.crc32(f"g/{op.name}/{dtype}/{index}".encode())

    def scenario(T):
        leaves, inputs = [], []
        on = device if T is doctensor and device != "cpu" else None
        for i, (v, (_, layout)) in enumerate(zip(values, specs)):
            leaf, x = make_input(T, v, layout, requires_grad=bool(mask and mask[i]), device=on)
            leaves.append(leaf)
            inputs.append(x)
        out = op.fn(T, *inputs)
        result = {"out": out}
        if mask:
            outs = [t for t in _tensors(out) if t.requires_grad]
            if outs:
                g_rng = np.random.default_rng(seed)
                gs = [T.tensor(g_rng.uniform(-1, 1, tuple(o.shape)).astype(str(o.dtype)[6:]),
                               device=o.device) for o in outs]
                T.autograd.backward(outs, gs)
                result["grads"] = [leaf.grad for leaf in leaves]
        return result

    ours, theirs = both(scenario)
    where = f"{op.name}[{index}]" + ("" if device == "cpu" else f" on {device}")
    if mask and not all(mask):
        where += f" (requires_grad only for inputs {[i for i, m in enumerate(mask) if m]})"
    assert_same(ours, theirs, op.rtol, op.atol, where, op.strides, op.reprs and device == "cpu")
    return not isinstance(ours, Raised)


# -- which records a call reaches ---------------------------------------------------------------

def _dispatching_modules():
    """The modules that call the dispatch by name: every op family, tensor.py, functions.py."""
    names = ["doctensor.ops." + m.name for m in pkgutil.iter_modules(doctensor.ops.__path__)]
    return [importlib.import_module(n) for n in names + ["doctensor.tensor",
                                                         "doctensor.functions"]]


_MODULES = _dispatching_modules()


def _binary_methods():
    """The fast-path methods ``_dispatch.binary`` and ``binary_`` made (``__add__``'s and
    ``__iadd__``'s code), by owner and name: Tensor's, and those tensor.py keeps for add_ &
    co."""
    codes = (Tensor.__add__.__code__, Tensor.__iadd__.__code__)
    module = importlib.import_module("doctensor.tensor")
    return [(owner, name, fn) for owner in (Tensor, module) for name, fn in vars(owner).items()
            if getattr(inspect.unwrap(fn), "__code__", None) in codes]


def _spied_binary(method, keys):
    op = inspect.getclosurevars(inspect.unwrap(method)).nonlocals["op"]

    def spy(self, other):
        keys.add(op.key)
        return method(self, other)
    return spy


@contextlib.contextmanager
def reached():
    """Collect the keys of the records that ``apply`` / ``apply_`` run in the block (each
    module's own name for them is wrapped, so a call that does not go through the dispatch is
    not counted)."""
    from doctensor.ops import _dispatch
    keys = set()
    real, real_ = _dispatch.apply, _dispatch.apply_

    def spy(op, *args, **attrs):
        keys.add(op.key)
        return real(op, *args, **attrs)

    def spy_(op, *args, **attrs):
        keys.add(op.key)
        return real_(op, *args, **attrs)

    saved = []
    for m in _MODULES:
        for name, wrapper in (("apply", spy), ("apply_", spy_)):
            if getattr(m, name, None) in (real, real_):
                saved.append((m, name, getattr(m, name)))
                setattr(m, name, wrapper)
    for owner, name, method in _binary_methods():  # Tensor.__add__ & co.: the fast paths
        saved.append((owner, name, method))
        setattr(owner, name, _spied_binary(method, keys))
    try:
        yield keys
    finally:
        for m, name, fn in saved:
            setattr(m, name, fn)


# the row files: every tests/op_rows_*.py, each exporting ROWS (imported last: they import
# this module)
ROW_MODULES = [importlib.import_module(path.stem) for path in
               sorted(pathlib.Path(__file__).parent.glob("op_rows_*.py"))]
