"""``torch.signal``: signal-processing helpers (today, as in torch: ``windows``)."""

from . import windows

__all__ = ["windows"]
