"""``torch.utils.data.datapipes``: DataPipes, datasets built by chaining small steps.

``iter`` holds the iterable-style pipes, ``map`` the map-style ones; each step is also a
method of the pipes (its functional name: ``dp.map(f)``, ``dp.batch(4)``).
"""

from . import iter, map  # (torch's names: they shadow the builtins in this module only)

__all__ = ["iter", "map"]
