"""doctensor: PyTorch's tensor, storage, view and autograd semantics, readable, on NumPy.

``import doctensor as torch`` runs ordinary PyTorch teaching code and behaves like PyTorch
2.13 in what a user observes: values, memory sharing, versions, gradients, printing and
seeded random numbers.
"""

from . import autograd, cuda, fft, functions, linalg, special
from ._dtypes import (
    bool_ as bool,  # noqa: A004
)
from ._dtypes import (
    double,
    dtype,
    float,  # noqa: A004
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,  # noqa: A004
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint8,
)
from ._tensor_str import set_printoptions
from .autograd import (
    enable_grad,
    inference_mode,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .device import device
from .functions import *  # noqa: F403  (an explicit list: functions.__all__)
from .functions import __all__ as _function_names
from .ops.random_ops import Generator, default_generator, manual_seed
from .size import Size
from .tensor import Tensor

__version__ = "0.1.0"


def initial_seed():
    """The 64-bit seed of the default CPU generator."""
    return default_generator.initial_seed()


def seed():
    """Reseed the default CPU generator non-deterministically and return the seed."""
    return default_generator.seed()


def get_rng_state():
    """The default CPU generator's state: a uint8 tensor of 5056 bytes, torch's layout."""
    return functions.from_numpy(default_generator.get_state())


def set_rng_state(new_state):
    """Restore the default CPU generator from ``get_rng_state()``."""
    default_generator.set_state(new_state.numpy())


from . import distributions, nn, optim, utils  # noqa: E402  (they use the names above, as torch's do)
from .serialization import load, save  # noqa: E402

__all__ = ["Tensor", "Size", "device", "dtype", "Generator", "autograd", "cuda", "nn", "optim",
           "utils", "linalg", "special", "fft", "distributions",
           "save", "load",
           "manual_seed", "initial_seed", "seed", "get_rng_state", "set_rng_state",
           "default_generator", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "inference_mode", "is_inference_mode_enabled", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled",
           "set_printoptions", "get_default_dtype", "set_default_dtype", "promote_types",
           "float16", "float32", "float64", "half", "float", "double", "int8", "int16", "int32",
           "int64", "short", "int", "long", "uint8", "bool", *_function_names]
