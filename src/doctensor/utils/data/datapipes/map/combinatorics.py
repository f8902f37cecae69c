"""``shuffle`` of a ``MapDataPipe``: its items in a random order, as an ``IterDataPipe``."""

from ..datapipe import IterDataPipe, MapDataPipe
from ..iter.combinatorics import Shuffling

__all__ = ["ShufflerIterDataPipe"]


class ShufflerIterDataPipe(Shuffling, IterDataPipe):
    """``datapipe[i]`` for the ``indices`` (default ``range(len(datapipe))``) in an order
    drawn at each new iterator: ``random.Random(seed).sample(indices, n)``, read from its
    end, the seed drawn as for the iterable ``shuffle`` (Note [DataPipe shuffling]).
    (functional name of ``MapDataPipe``: ``shuffle``)"""

    def __init__(self, datapipe, *, indices=None):
        super().__init__()
        self.datapipe = datapipe
        self.indices = list(range(len(datapipe))) if indices is None else indices
        self._start_shuffling()
        self._shuffled_indices = self.indices

    def __iter__(self):
        if not self._enabled:
            for index in self.indices:
                yield self.datapipe[index]
            return
        while self._shuffled_indices:
            yield self.datapipe[self._shuffled_indices.pop()]

    def reset(self):
        self._reseed()
        self._shuffled_indices = self._rng.sample(self.indices, len(self.indices))

    def __len__(self):
        return len(self.datapipe)


MapDataPipe.register_datapipe_as_function("shuffle", ShufflerIterDataPipe)
