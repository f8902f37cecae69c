"""``Sampler`` and ``shuffle``: the order in which an ``IterDataPipe``'s items come."""

import collections.abc
import random

import doctensor as torch

from ...sampler import SequentialSampler
from .._decorator import functional_datapipe
from ..datapipe import IterDataPipe

__all__ = ["SamplerIterDataPipe", "ShufflerIterDataPipe"]


class Shuffling:
    """What the iterable and the map ``shuffle`` share (Note [DataPipe shuffling]): the on/off
    switch, the seed ``set_seed`` gave for the next iterator, and the Python RNG seeded with
    it (or, when none was set and shuffling is on, with one int64 drawn from the default
    generator)."""

    def _start_shuffling(self):
        self._enabled = True
        self._seed = None
        self._rng = random.Random()

    def set_shuffle(self, shuffle=True):
        self._enabled = shuffle
        return self

    def set_seed(self, seed):
        self._seed = seed
        return self

    def _reseed(self):
        if self._enabled and self._seed is None:
            self._seed = int(torch.empty((), dtype=torch.int64).random_().item())
        self._rng.seed(self._seed)
        self._seed = None


class SamplerIterDataPipe(IterDataPipe):
    """What ``sampler(*sampler_args, data_source=datapipe, **sampler_kwargs)`` yields (with
    the default ``SequentialSampler``: the indices ``range(len(datapipe))``)."""

    def __init__(self, datapipe, sampler=SequentialSampler, sampler_args=None,
                 sampler_kwargs=None):
        if not isinstance(datapipe, collections.abc.Sized):
            raise AssertionError("Sampler class requires input datapipe implemented `__len__`")
        super().__init__()
        self.datapipe = datapipe
        self.sampler_args = () if sampler_args is None else sampler_args
        self.sampler_kwargs = {} if sampler_kwargs is None else sampler_kwargs
        self.sampler_kwargs["data_source"] = self.datapipe
        self.sampler = sampler(*self.sampler_args, **self.sampler_kwargs)

    def __iter__(self):
        return iter(self.sampler)

    def __len__(self):
        if isinstance(self.sampler, collections.abc.Sized):
            return len(self.sampler)
        raise TypeError(f"{type(self).__name__} instance doesn't have valid length")


@functional_datapipe("shuffle")
class ShufflerIterDataPipe(Shuffling, IterDataPipe):
    """The items in a shuffled order, through a buffer of ``buffer_size`` (functional name:
    ``shuffle``).

    Note [DataPipe shuffling]: the buffer fills with the first ``buffer_size`` items; then
    each new item takes the place of a random one of the buffer, which is yielded; at the
    end the buffer empties in random order.  The random numbers are Python's
    ``random.Random``, seeded at each new iterator (``reset``) with the seed ``set_seed``
    gave, or else with one int64 drawn from doctensor's default generator: after
    ``torch.manual_seed(s)`` the order is torch's.  ``set_shuffle(False)`` turns it off.
    """

    def __init__(self, datapipe, *, buffer_size=10000, unbatch_level=0):
        super().__init__()
        self._buffer = []
        if buffer_size <= 0:
            raise AssertionError("buffer_size should be larger than 0")
        self.datapipe = datapipe if unbatch_level == 0 \
            else datapipe.unbatch(unbatch_level=unbatch_level)
        self.buffer_size = buffer_size
        self._start_shuffling()

    def __iter__(self):
        if not self._enabled:
            yield from self.datapipe
            return
        for item in self.datapipe:
            if len(self._buffer) < self.buffer_size:
                self._buffer.append(item)
                continue
            i = self._rng.randint(0, len(self._buffer) - 1)
            out, self._buffer[i] = self._buffer[i], item
            yield out
        while self._buffer:
            yield self._buffer.pop(self._rng.randint(0, len(self._buffer) - 1))

    def __len__(self):
        if isinstance(self.datapipe, collections.abc.Sized):
            return len(self.datapipe)
        raise TypeError(f"{type(self).__name__} instance doesn't have valid length")

    def reset(self):
        self._buffer = []
        if self._enabled:
            self._reseed()
