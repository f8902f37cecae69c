"""The ``DataLoader``'s helpers: collation and (emulated) workers."""

from . import collate, worker

__all__ = ["collate", "worker"]
