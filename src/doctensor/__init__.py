"""doctensor: PyTorch's tensor, storage, view and autograd semantics, readable, on NumPy.

``import doctensor as torch`` runs ordinary PyTorch teaching code and behaves like PyTorch
2.13 in what a user observes: values, memory sharing, versions, gradients, printing and
seeded random numbers.
"""

from . import autograd, cuda, fft, functions, linalg, special
from ._dtypes import (
    bfloat16,
    bit,
    bits1x8,
    bits2x4,
    bits4x2,
    bits8,
    bits16,
    cdouble,
    cfloat,
    chalf,
    complex32,
    complex64,
    complex128,
    double,
    dtype,
    float,  # noqa: A004
    float4_e2m1fn_x2,
    float8_e4m3fn,
    float8_e4m3fnuz,
    float8_e5m2,
    float8_e5m2fnuz,
    float8_e8m0fnu,
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,  # noqa: A004
    int1,
    int2,
    int3,
    int4,
    int5,
    int6,
    int7,
    int8,
    int16,
    int32,
    int64,
    long,
    promote_types,
    set_default_dtype,
    short,
    uint1,
    uint2,
    uint3,
    uint4,
    uint5,
    uint6,
    uint7,
    uint8,
    uint16,
    uint32,
    uint64,
)
from ._dtypes import (
    bool_ as bool,  # noqa: A004
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
from .version import __version__ as __version__


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


from . import (  # noqa: E402  (they use the names above, as torch's do)
    accelerator,
    amp,
    cpu,
    distributions,
    functional,
    futures,
    multiprocessing,
    nn,
    optim,
    return_types,
    signal,
    testing,
    types,
    utils,
    version,
)
from ._argparser import check_functions  # noqa: E402
from ._nn_functions import *  # noqa: E402, F403  (nn functions torch names as torch.*)
from ._nn_functions import __all__ as _nn_function_names  # noqa: E402
from .amp import GradScaler, autocast, get_autocast_dtype, is_autocast_enabled  # noqa: E402
from .functions import (  # noqa: E402, F401  (torch's private samplers, outside __all__)
    _dirichlet_grad,
    _sample_dirichlet,
    _standard_gamma,
    _standard_gamma_grad,
)
from .functions import _range as range  # noqa: E402, A004  (torch.range, deprecated)
from .serialization import load, save  # noqa: E402
from .signal import windows  # noqa: E402  (torch names torch.signal.windows here too)

check_functions(globals(), functions)  # torch's parser errors for bad calls (_argparser)

__all__ = ["Tensor", "Size", "device", "dtype", "Generator", "autograd", "cuda", "nn", "optim",
           "utils", "linalg", "special", "fft", "distributions",
           "save", "load",
           "manual_seed", "initial_seed", "seed", "get_rng_state", "set_rng_state",
           "default_generator", "no_grad", "enable_grad", "set_grad_enabled", "is_grad_enabled",
           "inference_mode", "is_inference_mode_enabled", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled",
           "set_printoptions", "get_default_dtype", "set_default_dtype", "promote_types",
           "float16", "float32", "float64", "half", "float", "double", "int8", "int16", "int32",
           "int64", "short", "int", "long", "uint8", "bool", "complex32", "complex64", "complex128",
           "chalf", "cfloat", "cdouble", "bfloat16", "uint16", "uint32", "uint64",
           "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
           "float8_e8m0fnu", "float4_e2m1fn_x2", "int1", "int2", "int3", "int4", "int5", "int6",
           "int7", "uint1", "uint2", "uint3", "uint4", "uint5", "uint6", "uint7", "bits1x8",
           "bits2x4", "bits4x2", "bits8", "bits16", "bit",
           *_function_names,
           *_nn_function_names,
           "accelerator", "amp", "cpu", "version", "functional", "return_types", "signal",
           "testing", "types", "multiprocessing", "windows",
           "futures", "autocast", "GradScaler",
           "is_autocast_enabled", "get_autocast_dtype", "range"]
