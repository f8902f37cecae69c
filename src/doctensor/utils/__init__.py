"""``torch.utils``: the data-loading tools (``utils.data``)."""

from . import data

__all__ = ["data"]
