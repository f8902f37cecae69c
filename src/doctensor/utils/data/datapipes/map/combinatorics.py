"""``shuffle`` of a ``MapDataPipe``: its items in a random order, as an ``IterDataPipe``."""

import random

from ..datapipe import IterDataPipe, MapDataPipe
from ..iter.combinatorics import _draw_shuffle_seed

__all__ = ["ShufflerIterDataPipe"]


class ShufflerIterDataPipe(IterDataPipe):
    """``datapipe[i]`` for the ``indices`` (default ``range(len(datapipe))``) in an order
    drawn at each new iterator: ``random.Random(seed).sample(indices, n)``, read from its
    end, the seed drawn as for the iterable ``shuffle`` (Note [DataPipe shuffling]).
    (functional name of ``MapDataPipe``: ``shuffle``)"""

    def __init__(self, datapipe, *, indices=None):
        super().__init__()
        self.datapipe = datapipe
        self.indices = list(range(len(datapipe))) if indices is None else indices
        self._enabled = True
        self._seed = None
        self._rng = random.Random()
        self._shuffled_indices = self.indices

    def set_shuffle(self, shuffle=True):
        self._enabled = shuffle
        return self

    def set_seed(self, seed):
        self._seed = seed
        return self

    def __iter__(self):
        if not self._enabled:
            for index in self.indices:
                yield self.datapipe[index]
            return
        while self._shuffled_indices:
            yield self.datapipe[self._shuffled_indices.pop()]

    def reset(self):
        if self._enabled and self._seed is None:
            self._seed = _draw_shuffle_seed()
        self._rng.seed(self._seed)
        self._seed = None
        self._shuffled_indices = self._rng.sample(self.indices, len(self.indices))

    def __len__(self):
        return len(self.datapipe)


MapDataPipe.register_datapipe_as_function("shuffle", ShufflerIterDataPipe)
