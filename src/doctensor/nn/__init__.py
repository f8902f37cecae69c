"""``torch.nn``: modules, parameters, ``functional``, ``init`` and ``utils``.

Written against doctensor's public API only, as a user of torch would write them
(DESIGN.md, layer 7).
"""

from . import functional, init, parallel, utils
from .modules import *  # noqa: F403  (an explicit list: modules.__all__)
from .modules import __all__ as _module_names
from .parallel import DataParallel
from .parameter import Parameter, UninitializedBuffer, UninitializedParameter

__all__ = ["Parameter", "functional", "init", "utils", *_module_names]
__all__ += ["UninitializedParameter", "UninitializedBuffer", "parallel", "DataParallel"]  # (J)

from .parameter import Buffer  # noqa: E402 (misc3)

__all__ += ["Buffer"]  # (misc3)
