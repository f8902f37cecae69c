"""``torch.utils``: the data-loading tools (``utils.data``) and ``utils.checkpoint``."""

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
