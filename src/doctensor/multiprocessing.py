"""``torch.multiprocessing``: Python's ``multiprocessing``, under torch's name.

Every name of the standard module is here (``Process``, ``Queue``, ``Pool``, ``get_context``,
...), the same objects, plus torch's choice of how tensors are shared.

One difference from torch: torch registers pickling rules that move a tensor's storage into
shared memory when it is sent to another process, so both processes then see the same
memory. doctensor registers none: a tensor sent through a ``Queue`` or ``Pipe`` arrives as a
copy, and a write in one process is not seen in the other.
"""

import multiprocessing
import sys
from multiprocessing import *  # noqa: F403 (the standard module's __all__, as torch does)

__all__ = ["set_sharing_strategy", "get_sharing_strategy", "get_all_sharing_strategies",
           *multiprocessing.__all__]

# how torch would share a storage: by file descriptor (the Linux default) or a named file
_all_sharing_strategies = ({"file_system"} if sys.platform == "darwin"
                           else {"file_descriptor", "file_system"})
_sharing_strategy = ["file_system" if sys.platform == "darwin" else "file_descriptor"]


def set_sharing_strategy(new_strategy):
    """Choose how torch would share tensors between processes (recorded; see the module
    docstring: doctensor sends copies)."""
    assert new_strategy in _all_sharing_strategies, (
        f"invalid sharing strategy '{new_strategy}', expected one of {_all_sharing_strategies}")
    _sharing_strategy[0] = new_strategy


def get_sharing_strategy():
    """The current sharing strategy (``'file_descriptor'`` on Linux at start)."""
    return _sharing_strategy[0]


def get_all_sharing_strategies():
    """The sharing strategies of this platform."""
    return _all_sharing_strategies
