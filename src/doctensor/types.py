"""``torch.types``: the type aliases torch's signatures use (for annotations).

doctensor has no symbolic shapes, so the ``*LikeType`` aliases are the plain Python types.
"""

import os
from typing import IO, TypeAlias

from .device import device as _device
from .size import Size  # noqa: F401 (torch.types names it too)
from .storage import Storage
from .tensor import Tensor  # noqa: F401 (torch.types names it too)

__all__ = ["Number", "Device", "FileLike", "Storage"]

Number: TypeAlias = int | float | bool
Device: TypeAlias = _device | str | int | None
FileLike: TypeAlias = str | os.PathLike[str] | IO[bytes]
IntLikeType: TypeAlias = int
FloatLikeType: TypeAlias = float
BoolLikeType: TypeAlias = bool
